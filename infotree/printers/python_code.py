'''The tree as a Python function a student can read: nested ``if`` statements.

``predict(row)`` takes a dict keyed by feature name and returns the class, as
``Tree.predict`` does.  A CART subset split reads ``if x in ("a", "b"):``.  Values are compared as ``Tree.predict`` reads them: a
nominal value as its text with the surrounding whitespace stripped, a numeric
one as an exact ``Fraction`` (``"75.0"`` is 75).  A value not seen in training
raises ValueError (as ``Tree.predict`` does by default).  A missing value
(``None``, a float NaN, ``"?"``, ``""``) raises too, except in a C4.5 tree, where the function
returns None: C4.5 would send the row down every branch weighted by its share,
which nested ``if`` statements cannot say; ``Tree.predict`` does it.  A CART tree
routes a missing value as ``Tree.predict`` does: its surrogate splits in order, then
the majority side (rpart's ``usesurrogate``), and a row none of them places gets the
prediction of the node where it stays.  An M-of-N
test counts the conditions that hold (``held = (a == "x") + (b == "y")``, then
``if held >= 2:``); there a value not seen in training satisfies no condition, as
``Tree.predict(..., unseen="majority")`` reads it.

Any column name gives working code: a feature's variable is the name itself when it
is a plain identifier that shadows nothing (a builtin, a keyword, a helper), else a
cleaned ``x_`` name; the helpers' names start with ``_``, which no variable does.

    >>> import io
    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> out = io.StringIO()
    >>> write(build_tree(load("tests/data/weather.csv")), out)
    >>> print(out.getvalue(), end="")
    def predict(row):
        """play from a dict of feature values: a decision tree grown by infotree (criterion gain).
    <BLANKLINE>
        5 leaves; each comment gives the training rows the leaf holds, by class.
        """
        outlook = _text(row["outlook"])
        if outlook == "sunny":
            humidity = _text(row["humidity"])
            if humidity == "high":
                return "no"  # no 3, yes 0
            if humidity == "normal":
                return "yes"  # no 0, yes 2
            return _unknown("humidity", humidity)
        if outlook == "overcast":
            return "yes"  # no 0, yes 4
        if outlook == "rainy":
            windy = _text(row["windy"])
            if windy == "FALSE":
                return "yes"  # no 0, yes 3
            if windy == "TRUE":
                return "no"  # no 2, yes 0
            return _unknown("windy", windy)
        return _unknown("outlook", outlook)
    <BLANKLINE>
    <BLANKLINE>
    def _text(value):
        """A nominal value as Tree.predict reads it: its text, stripped ("?" when it is missing: None or NaN)."""
        return "?" if value is None or value != value else str(value).strip()
    <BLANKLINE>
    <BLANKLINE>
    def _unknown(feature, value):
        raise ValueError(f"{feature} = {value!r} was not seen in training")
'''

from __future__ import annotations

import builtins
import json
import keyword
import unicodedata

from ..escape import escape_controls
from ..errors import InfotreeError
from .cells import class_counts_text

__all__ = ["MAX_DEPTH", "write"]

#: CPython refuses more than 100 nested blocks; a function body and the else of a numeric split take some
MAX_DEPTH = 95

# Names a feature's variable must not take: each would shadow something the function uses.
_TAKEN = frozenset(dir(builtins)) | {"row", "side", "held", "predict", "Fraction"}


def _name(feature: str, used: dict) -> str:
    """A Python variable for ``feature``: the name itself when it is a plain identifier that
    shadows nothing, else a cleaned one (``x_`` first); never one starting with ``_`` (the helpers')."""
    if feature in used:
        return used[feature]
    base = "".join(ch if ("a" + ch).isidentifier() else "_" for ch in feature) or "x"
    base = unicodedata.normalize("NFKC", base)  # Python reads identifiers so: "ﬁ" is "fi"
    if not base.isidentifier() or base.startswith("_") or keyword.iskeyword(base) or base in _TAKEN:
        base = "x_" + base.lstrip("_")
    if not base.isidentifier():  # a character NFKC changed into one no identifier may hold
        base = "x"
    name, k = base, 2
    while name in used.values():
        name, k = f"{base}_{k}", k + 1
    used[feature] = name
    return name


def _q(s: str) -> str:
    """A double-quoted Python string literal (JSON's escapes are Python's), with every character
    that could rewrite a terminal or a line written as an escape."""
    return escape_controls(json.dumps(s, ensure_ascii=False), "json")


def _prose(s: str) -> str:
    """A name inside a docstring or comment: as it is, or quoted when it holds a quote, a
    backslash or a control character (which could end the docstring or the line)."""
    return s if s.isprintable() and not any(c in s for c in '"\\') else _q(s)


def _number(text: str) -> str:
    """A threshold as Python source: an integer, or ``Fraction('p/q')`` (exact, never a float)."""
    return text if "/" not in text and "." not in text and "e" not in text else f"Fraction({_q(text)})"


def _answer(tree, node) -> str:
    """The prediction at ``node`` as Python source: ``Tree.predict``'s (an empty leaf answers with its parent's)."""
    while node.n == 0 and node.parent is not None:
        node = node.parent
    return f"Fraction({_q(node.label_name)})" if tree.criterion.regression else _q(node.label_name)


def _surrogates(tree, node) -> str:
    """A node's surrogates as the tuple ``_side`` reads: numeric ``(feature, threshold, side if <=,
    side if >)``, nominal ``(feature, values going left, values going right, values with no side)``."""
    out = []
    for s in node.surrogates:
        name = _q(tree.features[s.index])
        if s.sides is not None:
            out.append(f"({name}, {_number(tree.number_text(s.test.threshold))}, {s.sides[0]}, {s.sides[1]})")
            continue
        values = s.test.values
        groups = ([values[c] for c in sorted(s.test.left)], [values[c] for c in sorted(s.rights)],
                  [v for c, v in enumerate(values) if c not in s.test.left and c not in s.rights])
        out.append(_tuple([name] + [_tuple(map(_q, g)) for g in groups]))
    return _tuple(out)


def _tuple(items) -> str:
    """A tuple display of Python source items: ``()``, ``(a,)``, ``(a, b)``."""
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


def write(tree, out) -> None:
    """The whole module: an import when a number needs it, ``predict`` and its helpers."""
    c45 = tree.criterion.missing is not None and tree.criterion.missing.name == "fractional"
    cart = tree.criterion.missing is not None and tree.criterion.missing.name == "surrogates"
    use = tree.params.get("use_surrogate", 2)
    depth = max(n.depth for n in tree.leaves())
    if depth > MAX_DEPTH:
        raise InfotreeError(f"--format python writes nested if statements, and Python allows 100 levels; this tree "
                            f"is {depth} levels deep (grow it with --max-depth {MAX_DEPTH}, or use --format rules)")
    splits = [n for n in tree.nodes() if not n.is_leaf]
    numeric = any(n.threshold is not None for n in splits) or any(
        s.sides is not None for n in splits for s in (n.surrogates or ()) if cart)
    surrogates = cart and use >= 1 and any(n.surrogates for n in splits)
    if numeric or tree.criterion.regression:
        out.write("from fractions import Fraction\n\n\n")
    n_leaves = sum(1 for _ in tree.leaves())
    out.write(f'def predict(row):\n    """{_prose(tree.target)} from a dict of feature values: a decision tree grown by '
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
                note = "no training rows: the parent's " + ("mean" if tree.criterion.regression else "majority")
            out.write(f"{pad}return {_answer(tree, node)}  # {_prose(note)}\n")
            continue
        if node.m_of_n:  # count the conditions that hold (a value unseen in training holds none)
            test = node.test
            terms = " + ".join(f"(_text(row[{_q(tree.features[j])}]) == {_q(tree.domains[j][v])})"
                               for j, v in test.conditions)
            out.write(f"{pad}held = {terms}\n")
            low, high = node.children
            stack += [(depth + 1, high), (depth, f"else:  # {_q('fewer than ' + test.text)}"), (depth + 1, low),
                      (depth, f"if held >= {test.m}:  # {_q('at least ' + test.text)}")]
            continue
        feature = node.split_feature
        var = _name(feature, used)
        read = "_number" if node.threshold is not None else "_text"
        out.write(f"{pad}{var} = {read}(row[{_q(feature)}])\n")
        if cart:
            _cart_node(tree, node, var, feature, use, pad, out)
            low, high = node.children
            stack += [(depth + 1, high), (depth, "else:"), (depth + 1, low), (depth, "if side == 0:")]
            continue
        if node.threshold is not None:
            if c45:
                out.write(f"{pad}if {var} is None:\n{pad}    return None  # missing: C4.5 would weight both branches\n")
            else:
                out.write(f"{pad}if {var} is None:\n{pad}    return _unknown({_q(feature)}, {var})\n")
            low, high = node.children
            t = _number(tree.number_text(node.threshold))
            stack += [(depth + 1, high), (depth, "else:"), (depth + 1, low), (depth, f"if {var} <= {t}:")]
            continue
        stack.append((depth, f"return _unknown({_q(feature)}, {var})"))
        for v in range(len(node.children) - 1, -1, -1):
            stack += [(depth + 1, node.children[v]), (depth, f"if {var} == {_q(node.branch_condition(v)[1])}:")]
    _helpers(out, c45=c45, numeric=numeric, surrogates=surrogates, missing=c45 or cart or numeric)


def _cart_node(tree, node, var, feature, use, pad, out) -> None:
    """Set ``side`` (0 left, 1 right) for a CART node, as ``Tree.predict`` routes a row: a known
    value by the split, a missing one by the surrogates and the majority (rpart's usesurrogate)."""
    majority = None
    if use == 2:  # Tree.predict's majority, as rpart's predict: the child with more training rows
        left, right = (child.n for child in node.children)
        majority = None if left == right else 0 if left > right else 1
    if use >= 1 and node.surrogates:
        how = f"_side(row, {_surrogates(tree, node)}, {majority})"
        why = "missing: the first surrogate that places it, else the side with more training rows"
    else:
        how = str(majority)
        why = ("missing: it stays here" if use < 2 else "missing: the children hold as many rows, so it stays here"
               if majority is None else "missing: the side with more training rows")
    if node.threshold is not None:
        out.write(f"{pad}if {var} is None:  # {why}\n{pad}    side = {how}\n"
                  f"{pad}else:\n{pad}    side = 0 if {var} <= {_number(tree.number_text(node.threshold))} else 1\n")
    else:  # a value that is also a missing token ("?" read as a value) is a value first, as Tree.predict reads it
        for side, values in enumerate((node.test.left_values, node.test.right_values)):
            out.write(f"{pad}{'elif' if side else 'if'} {var} in {_tuple(map(_q, values))}:\n{pad}    side = {side}\n")
        out.write(f"{pad}elif {var} in _MISSING:  # {why}\n{pad}    side = {how}\n"
                  f"{pad}else:\n{pad}    return _unknown({_q(feature)}, {var})\n")
    if majority is None or (use >= 1 and node.surrogates):
        out.write(f"{pad}if side is None:  # no surrogate or majority places the row: it stays here\n"
                  f"{pad}    return {_answer(tree, node)}\n")


def _helpers(out, *, c45, numeric, surrogates, missing) -> None:
    """The functions ``predict`` calls: reading a value as ``Tree.predict`` does, and refusing one."""
    if missing:
        out.write('\n\n_MISSING = ("", "?")  # with None and a float NaN: a missing value\n')
    out.write('\n\ndef _text(value):\n'
              '    """A nominal value as Tree.predict reads it: its text, stripped ("?" when it is missing: None or NaN)."""\n'
              '    return "?" if value is None or value != value else str(value).strip()\n')
    if numeric:
        out.write('\n\ndef _number(value):\n'
                  '    """A numeric value as Tree.predict reads it: an exact Fraction ("75.0" is 75); None when missing."""\n'
                  '    value = _text(value)\n'
                  '    return None if value in _MISSING else Fraction(value)\n')
    if surrogates:
        out.write('\n\ndef _side(row, surrogates, majority):\n'
                  '    """The side (0 left, 1 right) of a row whose split value is missing: the first surrogate\n'
                  '    whose value is known and has a side, else the majority side (None: the row stays)."""\n'
                  '    for feature, *test in surrogates:\n'
                  '        if not isinstance(test[0], tuple):  # numeric: threshold, side if <=, side if >\n'
                  '            value = _number(row[feature])\n'
                  '            if value is not None:\n'
                  '                return test[1] if value <= test[0] else test[2]\n'
                  '            continue\n'
                  '        value = _text(row[feature])  # nominal: values going left, going right, with no side\n'
                  '        if value in test[0]:\n'
                  '            return 0\n'
                  '        if value in test[1]:\n'
                  '            return 1\n'
                  '        if value not in test[2] and value not in _MISSING:\n'
                  '            _unknown(feature, value)\n'
                  '    return majority\n')
    out.write("\n\ndef _unknown(feature, value):\n")
    if c45:
        out.write('    if value is None or value in _MISSING:\n        return None  # missing: C4.5 would weight every branch\n')
    elif numeric:
        out.write('    if value is None:\n'
                  '        raise ValueError(f"{feature} is missing; this tree cannot predict without it")\n')
    out.write('    raise ValueError(f"{feature} = {value!r} was not seen in training")\n')
