"""The strings every table printer shows: markup, names, counts, and the shape of a node's view.

A :class:`Markup` says how one output language writes names, formulas, exact values,
equation chains and symbols (:data:`TEXT`, :data:`MARKDOWN`, :data:`LATEX`); the names of
entropies and conditions, counts and weights, which nodes get a derivation, and the
:class:`NodeView` (facts, tables, notes, decision: all strings) that the text, Markdown,
LaTeX and HTML printers show are here.  The views themselves are made per family:
:mod:`.entropy` (ID3, C4.5, and :func:`~infotree.printers.entropy.node_view` for any
node), :mod:`.impurity` (CART), :mod:`.regression`.  Numbers read as
:mod:`.numbers` says.

    >>> from fractions import Fraction
    >>> from infotree.printers.numbers import approx
    >>> MARKDOWN.equation([("H(y)", ""), ("-(4/8)·log2(4/8) - (4/8)·log2(4/8)", ""), ("1", "")], approx(1))
    '`H(y) = -(4/8)·log2(4/8) - (4/8)·log2(4/8) = 1`'
    >>> TEXT.equation([("H(y)", ""), ("3/2", "")], approx(Fraction(3, 2)))
    'H(y) = 3/2 = 1.5'
    >>> LATEX.equation([("", "H(y)"), ("", "2")], approx(2)), LATEX.equation([("", "x")], approx(Fraction(5, 7)))
    ('$H(y) = 2$', '$x \\\\approx 0.7143$')
"""

from __future__ import annotations

import math
import operator
import re
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from ..forms import counts_text
from ..data import number_text
from ..records import Complexity, CostComplexity, ReducedError
from .numbers import Approx, exact_and_decimal, float_text, number

__all__ = ["LATEX", "MARKDOWN", "Markup", "NODE_SELECTIONS", "NodeView", "TEXT", "Table", "WEIGHTS",
           "class_counts_text", "code_span", "condition_text", "count_text", "entropy_name",
           "has_derivation", "java_double", "java_double_to_string", "latex_escape", "lookahead_note", "node_title", "stats_text",
           "select_nodes", "weight_text"]

NODE_SELECTIONS = ("all", "root", "none")

#: How a leaf's weights print: ``decimal`` (as :func:`~.numbers.number` at two places: an exact
#: ``2.2`` as it is, others rounded half up to two places, J48's precision), ``exact`` (fractions) or ``j48`` (J48's own
#: text: ``Math.round(x*100)/100`` printed by Java, ``2.0``, ``15.27``; thresholds with
#: ``Utils.doubleToString(t, 6)``).
WEIGHTS = ("decimal", "exact", "j48")


# -- markup --------------------------------------------------------------------------

class Markup:
    """Plain text: names, formulas and exact values as they are (the exact grammar)."""

    #: the marker column and the C4.5 filter cells
    symbols = {"chosen": "*", "tied": "=", "equal": "≡", "ge": "≥ avg", "lt": "< avg", "dash": "—",
               "then": "=>", "undefined": "undefined (split info 0)", "<=": "<=", ">": ">", "=": "=",
               "in": "in", "not in": "not in", "missing": "? (missing)", "at least": "at least",
               "fewer than": "fewer than"}

    #: which half of a (text, latex) pair :meth:`math`, :meth:`code` and :meth:`equation` read;
    #: :meth:`value` and :meth:`form` render only those (a subclass that overrides one of the
    #: three without saying gets both)
    uses_text = True
    uses_latex = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        said = "uses_text" in cls.__dict__ or "uses_latex" in cls.__dict__
        if not said and any(k in cls.__dict__ for k in ("math", "code", "equation")):
            cls.uses_text = cls.uses_latex = True

    def value(self, x) -> tuple[str, str]:
        """(text, latex) of an exact value; a half this markup does not show is ""."""
        return (str(x) if self.uses_text else "", x.latex() if self.uses_latex else "")

    def form(self, fn, *args) -> tuple[str, str]:
        """(``fn(*args)``, ``fn(*args, latex=True)``); a half this markup does not show is ""."""
        return (fn(*args) if self.uses_text else "", fn(*args, latex=True) if self.uses_latex else "")

    def name(self, s: str) -> str:
        """A feature, value, class or target name as ordinary text."""
        return s

    def math(self, text: str, latex: str) -> str:
        """A short formula inside ordinary text (table headers)."""
        return text

    def code(self, text: str, latex: str) -> str:
        """A formula or exact value set apart (a table cell, a term of a fact)."""
        return text

    def equation(self, parts, approx: Approx | None = None) -> str:
        """``a = b = c`` from (text, latex) pairs, optionally ending with the value's decimal
        (:func:`~infotree.printers.numbers.approx`), left out when ``c`` already is it."""
        texts = [t for t, _ in parts]
        tail = _tail(texts, approx)
        return " = ".join(texts) + (f" = {tail.text}" if tail else "")


class _Markdown(Markup):
    """GitHub Markdown: names escaped, formulas in code spans (``*`` and ``_`` stay literal).

    ``|`` is left alone here: only a table cell needs it escaped, and the Markdown
    printer escapes every ``|`` of every cell.
    """

    symbols = {**Markup.symbols, "chosen": "\\*", "<=": "\\<=", ">": "\\>"}
    uses_text, uses_latex = True, False
    _special = re.compile(r"([\\`*_\[\]<>~&#$])")

    def name(self, s):
        return self._special.sub(r"\\\1", s)

    def math(self, text, latex):
        return self.name(text)

    def code(self, text, latex):
        return code_span(text)

    def equation(self, parts, approx=None):
        return code_span(Markup.equation(self, parts, approx))


class _Latex(Markup):
    """LaTeX: names escaped for text mode, formulas in ``$...$``, rounded values after ``\\approx``."""

    symbols = {"chosen": "*", "tied": "=", "equal": r"$\equiv$", "ge": r"$\geq$ avg", "lt": r"$<$ avg",
               "dash": "---", "then": r"$\Rightarrow$",
               "undefined": r"\shortstack[r]{undefined\\(split info 0)}", "<=": r"$\leq$", ">": r"$>$", "=": "=",
               "in": r"$\in$", "not in": r"$\notin$", "missing": "? (missing)", "at least": "at least",
               "fewer than": "fewer than"}
    uses_text, uses_latex = False, True

    def name(self, s):
        return latex_escape(s)

    def math(self, text, latex):
        return f"${latex}$"

    code = math

    def equation(self, parts, approx=None):
        texts = [x for _, x in parts]
        tail = _tail(texts, approx)
        sign = "" if tail is None else " = " if tail.exact else " \\approx "
        return f"${' = '.join(texts)}{sign}{tail.text if tail else ''}$"


def _tail(texts: list, approx: Approx | None) -> Approx | None:
    """The decimal that ends a chain of ``texts``: None when there is none or the chain
    already ends with it (``= 1``, never ``= 1 = 1.0000``).  A link that repeats the one
    before it (``1090/7 = 1090/7``: a mean that does not reduce) is dropped from ``texts``."""
    texts[:] = [t for i, t in enumerate(texts) if i == 0 or t != texts[i - 1]]
    if isinstance(approx, str):  # a decimal already written: a rounded one
        approx = Approx(approx, False)
    if approx is None or (approx.exact and texts and texts[-1] == approx.text):
        return None
    return approx


TEXT = Markup()
MARKDOWN = _Markdown()
LATEX = _Latex()

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # OT1 fonts print these three as other glyphs in text mode.
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    # The middle dot of the reasons ("2·min_objects"), in math.
    "·": r"$\cdot$",
    # The symbols of CART's and regression's sentences ("SSE(node) − weighted", "Σy²", "ȳ"),
    # which pdflatex's utf8 input does not know.
    "−": r"$-$", "Σ": r"$\Sigma$", "²": r"\textsuperscript{2}", "ȳ": r"$\bar{y}$", "×": r"$\times$",
    "Δ": r"$\Delta$", "≈": r"$\approx$",
}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))


def latex_escape(s: str) -> str:
    """``s`` as LaTeX text: the ten special characters (and ``< > |``) escaped, newlines as spaces."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group()], s.replace("\n", " ").replace("\r", " "))


def code_span(s: str) -> str:
    """A Markdown code span around ``s``, fenced by more backticks than ``s`` contains in a row."""
    run = max((len(r) for r in re.findall("`+", s)), default=0)
    fence = "`" * (run + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


_TEX_COMMA = ", \\allowbreak "


def _tex_name(s: str) -> str:
    return f"\\text{{{latex_escape(s)}}}"


# -- names of entropies ----------------------------------------------------------------

def _cond(f: str, op: str, v: str, latex: bool = False) -> str:
    if f is None:  # an M-of-N branch: "at least 2 of {a = x, b = y}"
        return _tex_name(f"{op} {v}") if latex else f"{op} {v}"
    if latex:
        rel = {"<=": "\\leq", ">": ">", "=": "=", "in": "\\in", "not in": "\\notin"}[op]
        return f"{_tex_name(f)} {rel} {_tex_name(v)}"
    return f"{f} {op} {v}"


def _split_value(tree, feature: str, value: str) -> tuple[str, str]:
    """(operator, value) of a candidate's branch: ``<= 75`` of a numeric feature is ("<=", "75")."""
    j = tree.features.index(feature) if feature in tree.features else None
    if j is not None and tree.kinds[j] == "numeric":
        for op in ("<=", ">"):
            if value.startswith(op + " "):
                return op, value[len(op) + 1:]
    return "=", value


def condition_text(tree, feature: str, value: str, markup: "Markup" = None) -> str:
    """``outlook = sunny`` or ``humidity <= 75`` for a candidate's branch value (``<= 75``)."""
    markup = markup or TEXT
    op, v = _split_value(tree, feature, value)
    return f"{markup.name(feature)} {markup.symbols[op]} {markup.name(v)}"


def entropy_name(tree, node, given: str | None = None, value: str | None = None) -> tuple[str, str]:
    """``H(play | outlook = sunny, humidity)`` as (text, latex): the target given the node's path.

    ``given`` adds a feature (a conditional entropy), ``given`` with ``value`` adds a
    condition (one branch's entropy; a numeric branch's value is ``<= t`` or ``> t``);
    at the root without either it is ``H(play)``.
    """
    conds = [(f, op, v) for f, op, v in node.path_conditions()]
    text = [_cond(f, op, v) for f, op, v in conds]
    latex = [_cond(f, op, v, True) for f, op, v in conds]
    if given is not None:
        if value is None:
            text.append(given)
            latex.append(_tex_name(given))
        else:
            op, v = _split_value(tree, given, value)
            text.append(_cond(given, op, v))
            latex.append(_cond(given, op, v, True))
    target = tree.target
    if not text:
        return f"H({target})", f"H({_tex_name(target)})"
    return (f"H({target} | {', '.join(text)})",
            f"H({_tex_name(target)} \\mid {_TEX_COMMA.join(latex)})")


def node_title(node, markup: Markup = TEXT) -> str:
    """``outlook = sunny, humidity <= 75``, or ``root``."""
    return ", ".join(condition_markup(markup, f, op, v) for f, op, v in node.path_conditions()) or "root"


def condition_markup(markup: Markup, f, op: str, v: str) -> str:
    """``outlook = sunny`` in ``markup``; an M-of-N branch (``f`` None): ``at least 2 of {...}``."""
    if f is None:
        return f"{markup.symbols[op]} {markup.name(v)}"
    return f"{markup.name(f)} {markup.symbols[op]} {markup.name(v)}"


def count_text(c) -> str:
    """A count in the exact grammar (``9``, ``15/4``); integers, numpy's too, skip the Fraction."""
    try:
        return str(operator.index(c))
    except TypeError:  # an exact value with logarithms (a Poisson deviance) prints as itself
        return str(c) if hasattr(c, "approx") else counts_text(c)


def exact_text(v) -> str:
    """Any exact value as text: a count or fraction (``3/17``), else its own closed form
    (an entropy risk, a square root)."""
    if isinstance(v, (int, Fraction)) or hasattr(v, "__index__"):
        return count_text(v)
    text = str(v)
    if len(text) > 160 and hasattr(v, "approx"):  # a Poisson deviance: a log per prime (exact in the JSON)
        from ..lnpoly import decimal

        return "≈" + decimal(v, 10)
    return text


def _integral(x) -> bool:
    try:
        operator.index(x)
        return True
    except TypeError:
        return Fraction(x).denominator == 1


def java_double(v: float) -> str:
    """Java's ``Double.toString(v)``: ``2.0``, ``15.27``, ``1.0E7``, ``1.0E-4``."""
    if v == 0:
        return "0.0"
    if 1e-3 <= abs(v) < 1e7:
        return repr(v)
    sign, digits, exp = Decimal(repr(v)).normalize().as_tuple()
    ds = "".join(map(str, digits))
    e = exp + len(ds) - 1
    return f"{'-' if sign else ''}{ds[0]}.{ds[1:] or '0'}E{e}"


def _java_round2(x) -> str:
    """J48's ``Utils.roundDouble(x, 2)`` printed by Java: ``Math.round(x*100.0)/100.0``."""
    t = float(x) * 100.0
    return java_double(math.floor(Fraction(t) + Fraction(1, 2)) / 100.0)


def java_double_to_string(t, digits: int = 6) -> str:
    """Weka's ``Utils.doubleToString(t, 6)`` (how J48 prints a threshold): ``75``, ``2.5``."""
    v = float(t)
    temp = v * math.pow(10.0, digits)
    if not abs(temp) < 9.223372036854776e18:
        return java_double(v)
    p = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    s = str(abs(p)).rjust(digits + 1, "0")
    s = (s[:-digits] + "." + s[-digits:]).rstrip("0").rstrip(".")
    return ("-" if p < 0 else "") + s


def weight_text(x, weights: str = "decimal") -> str:
    """A weight: an integer as it is; a fractional one as :func:`~.numbers.number` writes it at
    two places (``decimal``: ``2.2``, ``15.27``), exact (``exact``: ``855/56``); ``j48`` prints as J48 (``2.0``, ``15.27``)."""
    if weights == "j48":
        return _java_round2(x)
    if _integral(x):
        return str(int(x))
    return number(x, 2) if weights == "decimal" else counts_text(x)


def stats_text(stats, digits: int = 4) -> str:
    """A Poisson or exp node's ``events 8, exposure 1893`` from its (n, events, exposure)."""
    return f"events {number(stats[1], digits)}, exposure {number(stats[2], digits)}"


def class_counts_text(tree, counts, markup: Markup = TEXT, weights: str = "exact") -> str:
    """``no 5, yes 9``: the counts in class order (fractional weights exact unless ``weights`` says);
    a regression node's ``Σy = 40, Σy² = 392.5, mean 20/3`` from its (n, Σy, Σy²)."""
    if getattr(tree.criterion, "counts_events", False):  # Poisson, exp: events and exposure
        return markup.name(stats_text(counts.tolist() if hasattr(counts, "tolist") else counts))
    if tree.criterion.regression:
        n, s, q = counts.tolist() if hasattr(counts, "tolist") else counts
        mean = f", mean {number_text(Fraction(s) / n)}" if n else ""
        return markup.name(f"Σy = {number_text(s)}, Σy² = {number_text(q)}{mean}")
    return ", ".join(f"{markup.name(k)} {weight_text(c, weights)}" for k, c in zip(tree.classes, counts))


# -- which nodes get a derivation ---------------------------------------------------------

def has_derivation(node) -> bool:
    """True for a node whose candidates explain something: internal, or an impure leaf with candidates."""
    if node.is_leaf and (node.n == 0 or node.tree.criterion.pure(node.class_counts.tolist())):
        return False  # empty or pure: nothing was decided by the candidates
    return bool(node.candidates())


def select_nodes(tree, nodes: str):
    """The nodes whose derivation is printed: ``"all"``, ``"root"`` or ``"none"``, pre-order."""
    if nodes == "none":
        return
    if nodes == "root":
        if has_derivation(tree.root):
            yield tree.root
        return
    from ..progress import steps

    for node in steps(tree.nodes(), "derivations: node", total=len(tree)):
        if has_derivation(node):
            yield node
            node.forget()  # printed: drop its exact values so memory stays flat


# -- the tree as lines ----------------------------------------------------------------------

class Table(NamedTuple):
    """Strings only: a title, the column headers, the rows, and "l"/"r" per column."""

    title: str
    headers: tuple
    rows: list
    align: tuple


class NodeView(NamedTuple):
    """Everything a table printer shows for one node, as strings in one markup."""

    title: str
    facts: list        # n and class counts; H(Y) as form = exact = decimal
    branches: Table    # one row per (feature, value)
    summary: Table     # one row per feature: marker, H(Y|X) form and the decimals
    exact: Table       # one row per feature: the exact values
    notes: list        # marker legend, groups of exactly equal gain
    decision: str
    #: a further table or None: C4.5's gain corrections (per numeric feature or feature with
    #: missing values, the threshold, cuts, known fraction, gain on the known rows and the
    #: MDL term) or CART's surrogate splits
    corrections: Table | None = None
    #: the pruning record of this node (None when pruning did not look at it)
    pruning: Table | None = None
    #: CART with every_split: each threshold and subset every feature tried (None otherwise)
    tried: Table | None = None


def _markers(node, groups) -> dict:
    """Feature name -> marker key: ``chosen``, ``tied`` or ``equal`` (exactly equal gain, not the decision).

    ``groups`` is :func:`equal_gain_groups` of the node.
    """
    t = node.tree
    out = {}
    for group in groups:
        for f in group:
            out[f] = "equal"
    for j in node.ties:
        out[t.features[j]] = "tied"
    if node.split is not None and not node.m_of_n:  # an M-of-N node chose its grown test, shown beside
        out[t.features[node.split]] = "chosen"
    return out


def _decision_text(node, markup: Markup = TEXT) -> str:
    """``split on outlook: maximal information gain`` or ``leaf labelled no; stopped: ...``."""
    if node.split is not None:
        return f"split on {markup.name(node.split_feature)}: {markup.name(node.reason)}"
    return f"leaf labelled {markup.name(node.label_name)}; {markup.name(node.reason)}"


def lookahead_note(tree, m=TEXT) -> str:
    """What the lookahead column is (the definition is in :mod:`infotree.lookahead`)."""
    if tree.criterion.binary:
        gain, second = "decrease", "decrease"
    else:
        gain, second = "IG", "gain"
    ranks = "GainRatio (lookahead) = IG (lookahead) / SplitInfo" if tree.criterion.ratio else f"{gain} (lookahead)"
    if m is LATEX:
        return (f"lookahead 1: {gain} (lookahead) = {gain} + (known fraction) "
                f"$\\times \\sum_v p_v \\cdot \\max(0, g_v)$, $g_v$ the best {second} of a second split on branch "
                f"$v$; the choice and its ties are decided by {ranks}")
    return m.name(f"lookahead 1: {gain} (lookahead) = {gain} + (known fraction) × Σ_v p_v·max(0, g_v), g_v the best "
                  f"{second} of a second split on branch v; the choice and its ties are decided by {ranks}")


def _weight_fact(w, digits, m=TEXT) -> str:
    """``14``, or ``855/56 ≈ 15.2679`` for a fractional weight."""
    if _integral(w):
        return count_text(w)
    text = exact_and_decimal(count_text(w), Fraction(w), digits)
    return text.replace("≈", r"$\approx$") if m is LATEX else text


def pruning_table(tree, node, digits, m=TEXT) -> Table | None:
    """The pruning record: estimated errors (floats, C4.5) or exact validation errors."""
    r = node.pruned
    if r is None:
        return None
    action = {"leaf": "pruned: this node became a leaf", "kept": "kept: the subtree stays",
              "raised": "subtree raised: the largest branch replaced this node",
              "not tried": "not split: its risk bound is at most alpha",
              "collapsed": "collapsed: the subtree's complexity is at most alpha"}.get(r.action, str(r.action))
    if isinstance(r, CostComplexity):
        action = ("collapsed: its weakest-link alpha is at most the alpha pruned at" if r.action == "collapsed" else
                  "kept: its weakest-link alpha is above the alpha pruned at")
    if isinstance(r, Complexity):
        rows = [(label, m.code(count_text(v), count_text(v))) for label, v in (
                (f"risk R(t) ({getattr(tree.criterion, 'risk_name', 'SSE')})" if tree.criterion.regression else "risk R(t) (misclassified rows)", r.risk), ("bound from the parent", r.bound),
                ("alpha = cp·R(root)", r.alpha)) + ((
                ("risk of the subtree's leaves", r.subtree_risk), ("splits in the subtree", r.splits),
                ("complexity (R(t) - R(leaves))/splits", r.complexity)) if r.complexity is not None else ())]
        rows.append(("decision", m.name(action)))
        return Table("complexity (rpart's cp rule, exact)", ("", "value"), rows, ("l", "l"))
    if isinstance(r, CostComplexity):
        link = r.link
        rows = [(m.name(label), m.code(exact_text(v), exact_text(v))) for label, v in (
                ("risk R(t) as a leaf", link.risk),
                ("risk R(T_t) of the branch's leaves when it is cut", link.subtree_risk),
                ("leaves of the branch when it is cut", link.leaves),
                ("weakest-link alpha (R(t) - R(T_t))/(leaves - 1)", link.alpha),
                ("alpha pruned at", r.alpha))]
        if link.node is not node:
            rows.insert(0, ("cut with its ancestor", node_title(link.node, m)))
        rows.append(("decision", m.name(action)))
        return Table("cost-complexity pruning (weakest link, exact)", ("", "value"), rows, ("l", "l"))
    if isinstance(r, ReducedError):
        rows = [(label, m.code(count_text(v), count_text(v))) for label, v in (
                ("validation errors as a leaf (exact)", r.validation_leaf),
                ("validation errors of the subtree (exact)", r.validation_subtree),
                ("validation weight reaching the node", r.validation_weight))]
        rows.append(("decision", m.name(action)))
        return Table("pruning (reduced-error, on the validation rows)", ("", "value"), rows, ("l", "l"))
    f, op, v = r.largest
    branch = f"{m.name(f)} {m.symbols[op]} {m.name(v)}"
    rows = [("estimated errors as a leaf", f"≈ {float_text(r.leaf, digits)}"),
            ("estimated errors of the subtree", f"≈ {float_text(r.subtree, digits)}"),
            (f"estimated errors of the largest branch ({branch})", f"≈ {float_text(r.largest_branch, digits)}"),
            ("confidence factor CF", f"{r.confidence:g}"),
            ("decision", m.name(action))]
    if m is LATEX:
        rows = [(a, b.replace("≈", r"$\approx$")) for a, b in rows]
    return Table("pruning (C4.5 pessimistic; the error estimates are floats, not exact values)",
                 ("", "value"), rows, ("l", "l"))