'''The tree as a Python function a student can read: nested ``if`` statements.

``predict(row)`` takes a dict keyed by feature name and returns the class, as
``Tree.predict`` does.  A CART subset split reads ``if x in ("a", "b"):``.  Values are compared as ``Tree.predict`` reads them: a
nominal value as its text with the surrounding whitespace stripped, a numeric
one as an exact ``Fraction`` (``"75.0"`` is 75).  A value not seen in training
raises ValueError (as ``Tree.predict`` does by default).  A missing value
(``None``, ``"?"``, ``""``) raises too, except in a C4.5 tree, where the function
returns None: C4.5 would send the row down every branch weighted by its share,
which nested ``if`` statements cannot say; ``Tree.predict`` does it.  An M-of-N
test counts the conditions that hold (``held = (a == "x") + (b == "y")``, then
``if held >= 2:``); there a value not seen in training satisfies no condition, as
``Tree.predict(..., unseen="majority")`` reads it.

    >>> import io
    >>> from infotree.data import load
    >>> from infotree.tree import build_tree
    >>> out = io.StringIO()
    >>> write(build_tree(load("tests/data/weather.csv")), out)
    >>> print(out.getvalue(), end="")
    def predict(row):
        """play from a dict of feature values: a decision tree grown by infotree (criterion gain).
    <BLANKLINE>
        5 leaves; each comment gives the training rows the leaf holds, by class.
        """
        outlook = str(row["outlook"]).strip()
        if outlook == "sunny":
            humidity = str(row["humidity"]).strip()
            if humidity == "high":
                return "no"  # no 3, yes 0
            if humidity == "normal":
                return "yes"  # no 0, yes 2
            return _unknown("humidity", humidity)
        if outlook == "overcast":
            return "yes"  # no 0, yes 4
        if outlook == "rainy":
            windy = str(row["windy"]).strip()
            if windy == "FALSE":
                return "yes"  # no 0, yes 3
            if windy == "TRUE":
                return "no"  # no 2, yes 0
            return _unknown("windy", windy)
        return _unknown("outlook", outlook)
    <BLANKLINE>
    <BLANKLINE>
    def _unknown(feature, value):
        raise ValueError(f"{feature} = {value!r} was not seen in training")
'''

from __future__ import annotations

import json
import keyword

from ..errors import InfotreeError
from .cells import class_counts_text

__all__ = ["MAX_DEPTH", "write"]

#: CPython refuses more than 100 nested blocks; a function body and the else of a numeric split take some
MAX_DEPTH = 95


def _name(feature: str, used: dict) -> str:
    """A Python variable for ``feature``: the name itself when it is an identifier, else a cleaned one."""
    if feature in used:
        return used[feature]
    base = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in feature) or "x"
    if base[0].isdigit() or keyword.iskeyword(base) or base in ("row", "Fraction", "MISSING"):
        base = f"x_{base}"
    name, k = base, 2
    while name in used.values():
        name, k = f"{base}_{k}", k + 1
    used[feature] = name
    return name


def _q(s: str) -> str:
    """A double-quoted Python string literal (JSON's escapes are Python's)."""
    return json.dumps(s, ensure_ascii=False)


def _number(text: str) -> str:
    """A threshold as Python source: an integer, or ``Fraction('p/q')`` (exact, never a float)."""
    return text if "/" not in text and "." not in text and "e" not in text else f"Fraction({_q(text)})"


def write(tree, out) -> None:
    """The whole module: an import when a numeric split needs it, ``predict`` and its helper."""
    c45 = tree.criterion.missing is not None  # C4.5 keeps missing values and weights the branches
    depth = max(n.depth for n in tree.leaves())
    if depth > MAX_DEPTH:
        raise InfotreeError(f"--format python writes nested if statements, and Python allows 100 levels; this tree "
                            f"is {depth} levels deep (grow it with --max-depth {MAX_DEPTH}, or use --format rules)")
    if any(n.threshold is not None for n in tree.nodes() if not n.is_leaf):
        out.write("from fractions import Fraction\n\n" + ('MISSING = (None, "", "?")\n\n' if c45 else "") + "\n")
    n_leaves = sum(1 for _ in tree.leaves())
    out.write(f'def predict(row):\n    """{tree.target} from a dict of feature values: a decision tree grown by '
              f'infotree (criterion {tree.criterion.name}).\n\n    {n_leaves} lea{"ves" if n_leaves != 1 else "f"}; '
              f'each comment gives the training rows the leaf holds, by class.\n    """\n')
    used: dict = {}
    # Items are a line of code or a node still to write, with their depth; pre-order with
    # an explicit stack, so a deep tree does not hit the recursion limit.
    stack = [(1, tree.root)]
    while stack:
        depth, item = stack.pop()
        pad = "    " * depth
        if isinstance(item, str):
            out.write(pad + item + "\n")
            continue
        node = item
        if node.is_leaf:
            note = class_counts_text(tree, node.class_counts.tolist(), weights="exact")
            if node.n == 0:
                note = "no training rows: the parent's majority"
            value = f"Fraction({_q(node.label_name)})" if tree.criterion.regression and node.n else _q(node.label_name)
            out.write(f"{pad}return {value}  # {note}\n")
            continue
        if node.m_of_n:  # count the conditions that hold (a value unseen in training holds none)
            test = node.test
            terms = " + ".join(f"(str(row[{_q(tree.features[j])}]).strip() == {_q(tree.domains[j][v])})"
                               for j, v in test.conditions)
            out.write(f"{pad}held = {terms}\n")
            low, high = node.children
            stack += [(depth + 1, high), (depth, f"else:  # {_q('fewer than ' + test.text)}"), (depth + 1, low),
                      (depth, f"if held >= {test.m}:  # {_q('at least ' + test.text)}")]
            continue
        feature = node.split_feature
        var = _name(feature, used)
        get = f"row[{_q(feature)}]"
        if node.threshold is not None:
            if c45:
                out.write(f"{pad}{var} = None if {get} in MISSING else Fraction(str({get}).strip())\n"
                          f"{pad}if {var} is None:\n{pad}    return None  # missing: C4.5 would weight both branches\n")
            else:
                out.write(f"{pad}{var} = Fraction(str({get}).strip())\n")
            low, high = node.children
            t = _number(tree.number_text(node.threshold))
            stack += [(depth + 1, high), (depth, "else:"), (depth + 1, low), (depth, f"if {var} <= {t}:")]
            continue
        out.write(f"{pad}{var} = str({get}).strip()\n")
        stack.append((depth, f"return _unknown({_q(feature)}, {var})"))
        if hasattr(node.test, "left_values"):  # CART: a subset of the values against the rest
            for v, values in ((1, node.test.right_values), (0, node.test.left_values)):
                listed = ", ".join(map(_q, values)) + ("," if len(values) == 1 else "")
                stack += [(depth + 1, node.children[v]), (depth, f"if {var} in ({listed}):")]
            continue
        for v in range(len(node.children) - 1, -1, -1):
            stack += [(depth + 1, node.children[v]), (depth, f"if {var} == {_q(node.branch_condition(v)[1])}:")]
    out.write("\n\ndef _unknown(feature, value):\n")
    if c45:
        out.write('    if value in ("None", "?", ""):\n        return None  # missing: C4.5 would weight every branch\n')
    out.write('    raise ValueError(f"{feature} = {value!r} was not seen in training")\n')
