"""The strings every table printer shows: one place turns a node's records into cells.

A :class:`Markup` says how one output language writes names, formulas, exact
values and symbols (:data:`TEXT`, :data:`MARKDOWN`, :data:`LATEX`);
:func:`node_view` reads a node's records (never computing a measure itself) and
gives the header facts, three tables and the decision, all strings, so the text,
Markdown and LaTeX printers show the same numbers.

    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> tree = build_tree(load("tests/data/weather.csv"), criterion="gain")
    >>> view = node_view(tree, tree.root, digits=4)
    >>> view.facts[1]
    'H(play) = -(5/14)·log2(5/14) - (9/14)·log2(9/14) = 1 + log2(7) - 9/7*log2(3) - 5/14*log2(5) = 0.9403'
    >>> view.summary.rows[0]
    ('*', 'outlook', '5/14·H(3,2) + 4/14·H(0,4) + 5/14·H(2,3)', '0.6935', '0.2467', '1.5774', '0.1564')
    >>> view.decision
    'split on outlook: maximal information gain'
"""

from __future__ import annotations

import math
import operator
import re
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from ..exact import decimal_text
from ..forms import conditional_entropy_form, counts_text, entropy_form
from ..data import number_text
from ..records import BinaryCandidate, Complexity, CostComplexity, ReducedError, RegressionCandidate

__all__ = ["LATEX", "MARKDOWN", "Markup", "NODE_SELECTIONS", "NodeView", "TEXT", "Table", "WEIGHTS",
           "class_counts_text", "code_span", "all_missing", "condition_text", "count_text", "entropy_name", "equal_gain_groups",
           "has_derivation", "java_double", "java_double_to_string", "latex_escape", "lookahead_note", "node_title", "node_view", "round2_text",
           "select_nodes", "weight_text"]

NODE_SELECTIONS = ("all", "root", "none")

#: How a leaf's weights print: ``decimal`` (integers exact, fractional weights rounded
#: half up to two places, J48's precision), ``exact`` (fractions) or ``j48`` (J48's own
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

    def equation(self, parts, approx: str | None = None) -> str:
        """``a = b = c`` from (text, latex) pairs, optionally ending with the rounded decimal."""
        out = " = ".join(t for t, _ in parts)
        return f"{out} = {approx}" if approx is not None else out


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
        out = " = ".join(x for _, x in parts)
        return f"${out} \\approx {approx}$" if approx is not None else f"${out}$"


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


def round2_text(x) -> str:
    """``x`` rounded half up to two places, exactly (from the Fraction, never a float): ``15.27``."""
    q = Fraction(x)
    h = math.floor(abs(q) * 100 + Fraction(1, 2))
    sign = "-" if q < 0 and h else ""
    return f"{sign}{h // 100}.{h % 100:02d}"


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
    """A weight: an integer as it is; a fractional one rounded to two places (``decimal``),
    exact (``exact``: ``855/56``); ``j48`` prints as J48 (``2.0``, ``15.27``)."""
    if weights == "j48":
        return _java_round2(x)
    if _integral(x):
        return str(int(x))
    return round2_text(x) if weights == "decimal" else counts_text(x)


def class_counts_text(tree, counts, markup: Markup = TEXT, weights: str = "exact") -> str:
    """``no 5, yes 9``: the counts in class order (fractional weights exact unless ``weights`` says);
    a regression node's ``Σy = 40, Σy² = 392.5, mean 20/3`` from its (n, Σy, Σy²)."""
    if getattr(tree.criterion, "counts_events", False):  # Poisson, exp: events and exposure
        from .poisson import stats_text

        return markup.name(stats_text(counts.tolist() if hasattr(counts, "tolist") else counts))
    if tree.criterion.regression:
        n, s, q = counts.tolist() if hasattr(counts, "tolist") else counts
        mean = f", mean {number_text(Fraction(s) / n)}" if n else ""
        return markup.name(f"Σy = {number_text(s)}, Σy² = {number_text(q)}{mean}")
    return ", ".join(f"{markup.name(k)} {weight_text(c, weights)}" for k, c in zip(tree.classes, counts))


def all_missing(c) -> bool:
    """True for a C4.5 candidate whose value is missing for every row at the node (no measures)."""
    return not any(any(r) for r in c.table)


def equal_gain_groups(node) -> list[list[str]]:
    """:meth:`Node.equal_gain_groups` over the candidates that have measures.

    Groups come in the order of their first feature.  Exactly equal values have
    the same coefficients and so the same float: candidates are grouped by float
    first, and exactly only within one float (hashing exact values costs more).
    """
    by_float: dict = {}
    for c in node.candidates():
        if not all_missing(c):
            g = c.gain
            bucket = by_float.setdefault(g.approx()[0], [])
            for value, features in bucket:
                if value == g:
                    features.append(c.feature)
                    break
            else:
                bucket.append((g, [c.feature]))
    groups = [features for bucket in by_float.values() for _, features in bucket if len(features) > 1]
    if len(groups) > 1:
        order = {f: i for i, f in enumerate(c.feature for c in node.candidates())}
        groups.sort(key=lambda g: order[g[0]])
    return groups


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


def _filter_shown(cands) -> bool:
    """Whether the C4.5 columns (average-gain filter, validity) belong in the table."""
    return any(c.passes_average_gain is not None or not c.valid for c in cands)


def node_view(tree, node, *, digits: int = 4, markup: Markup = TEXT) -> NodeView:
    """The strings of ``node``'s derivation (a node with candidates; see :func:`has_derivation`)."""
    m = markup
    sym = m.symbols
    cands = node.candidates()
    if cands and isinstance(cands[0], RegressionCandidate):  # regression: means and SSEs
        from .regression import regression_view

        return regression_view(tree, node, digits=digits, markup=markup)
    if cands and isinstance(cands[0], BinaryCandidate):  # CART: impurities, not entropies
        from .impurity import impurity_view

        return impurity_view(tree, node, digits=digits, markup=markup)
    target = tree.target

    h_text, h_latex = entropy_name(tree, node)
    facts = [f"n = {_weight_fact(node.n, digits, m)}: {class_counts_text(tree, node.class_counts, m)}"]
    if node.entropy is not None:
        h = node.entropy
        facts.append(m.equation([(h_text, h_latex), m.form(entropy_form, node.class_counts), m.value(h)],
                                approx=decimal_text(h, digits)))

    # Branches: one row per (feature, value).
    hx = m.math(f"H({target}|value)", f"H({_tex_name(target)} \\mid \\text{{value}})")
    b_headers = ("feature", "value", "n", *(m.name(k) for k in tree.classes), hx, "exact")
    b_rows = []
    for c in cands:
        feature = m.name(c.feature)
        for b in c.branches:
            h = b.entropy
            b_rows.append((feature, m.name(b.value), count_text(b.n),
                           *(count_text(k) for k in b.counts),
                           decimal_text(h, digits) if h is not None else "empty",
                           m.code(*m.value(h)) if h is not None else sym["dash"]))
        if c.unknown:
            # C4.5: rows whose value is missing are not in H(Y|X); they only scale the gain
            # (known fraction) and are one more branch of the split information.
            b_rows.append((m.name(c.feature), sym["missing"], count_text(sum(c.unknown)),
                           *(count_text(k) for k in c.unknown), "not in H(Y|X)", sym["dash"]))
    b_align = ("l", "l", "r", *("r" for _ in tree.classes), "r", "l")

    # Summary: one row per feature.
    groups = equal_gain_groups(node)
    mark = _markers(node, groups)
    show_filter = _filter_shown(cands)
    hyx = m.math(f"H({target}|X)", f"H({_tex_name(target)} \\mid X)")
    s_headers = ("", "feature", f"{hyx} form", hyx, "IG", "SplitInfo", "GainRatio")
    # lookahead 1: the two-level score beside the greedy one (and its ratio when the criterion ranks by ratio)
    look = [] if not any(c.lookahead is not None for c in cands) else (
        ["IG (lookahead)", "GainRatio (lookahead)"] if tree.criterion.ratio else ["IG (lookahead)"])
    s_headers += tuple(look)
    if show_filter:
        s_headers += (m.math("gain ≥ avg", r"\text{gain} \geq \text{avg}"), "valid")
    s_rows = []
    e_rows = []
    for c in cands:
        if all_missing(c):
            none = m.name("no known value")
            row = (sym[mark[c.feature]] if c.feature in mark else "", m.name(c.feature), none,
                   sym["dash"], sym["dash"], sym["dash"], sym["dash"]) + (sym["dash"],) * len(look)
            if show_filter:
                row += (sym["dash"], "yes" if c.valid else "no")
            s_rows.append(row)
            e_rows.append((m.name(c.feature), none, sym["dash"], sym["dash"]) + (sym["dash"],) * bool(look))
            continue
        table = c.table
        gr = c.gain_ratio
        row = (sym[mark[c.feature]] if c.feature in mark else "", m.name(c.feature),
               m.code(*m.form(conditional_entropy_form, table)),
               decimal_text(c.conditional_entropy, digits), decimal_text(c.gain, digits),
               decimal_text(c.split_info, digits),
               decimal_text(gr, digits) if gr is not None else sym["undefined"])
        if look:
            lr = c.lookahead_ratio
            row += (decimal_text(c.lookahead, digits),) + ((decimal_text(lr, digits) if lr is not None
                                                            else sym["undefined"],) if len(look) > 1 else ())
        if show_filter:
            # The average-gain test is applied to valid features only.
            if not c.valid or c.passes_average_gain is None:
                passes = sym["dash"]
            else:
                passes = sym["ge"] if c.passes_average_gain else sym["lt"]
            row += (passes, "yes" if c.valid else "no")
        s_rows.append(row)
        e_rows.append((m.name(c.feature), m.code(*m.value(c.conditional_entropy)), m.code(*m.value(c.gain)),
                       m.code(*m.value(c.split_info))) + ((m.code(*m.value(c.lookahead)),) if look else ()))
    s_align = ("l", "l", "l", "r", "r", "r", "r") + ("r",) * len(look) + (("l", "l") if show_filter else ())

    notes = []
    used = set(mark.values())
    legend = [f"{sym[k]} {what}" for k, what in (("chosen", "chosen"), ("tied", "tied exactly with the chosen feature"),
                                                  ("equal", "exactly equal information gain, not the decision"))
              if k in used]
    if legend:
        notes.append("; ".join(legend))
    by_name = {c.feature: c for c in cands}
    for group in groups:
        gain = by_name[group[0]].gain
        notes.append(f"exactly equal information gain: {', '.join(m.name(f) for f in group)} "
                     f"(IG = {decimal_text(gain, digits)})")
    if look:
        notes.append(lookahead_note(tree, m))
    if show_filter:
        notes.append(f"C4.5: valid = at least two branches with {m.name('min_objects')} = {tree.params.get('min_objects')} rows; "
                     f"{sym['ge']} = gain at least the average gain of the valid features")

    if any(c.unknown or c.threshold is not None for c in cands):
        times, minus = (r"$\times$", "$-$") if m is LATEX else ("×", "−")
        notes.append(f"C4.5: IG = (known fraction) {times} IG(known rows) {minus} MDL; the rows with a missing value "
                     f"({sym['missing']}) are left out of {hyx} "
                     f"and are one more branch of SplitInfo")

    return NodeView(
        title=node_title(node, m),
        facts=facts,
        branches=Table("branches", b_headers, b_rows, b_align),
        summary=Table("candidates", s_headers, s_rows, s_align),
        exact=Table("exact values", ("feature", hyx, "IG", "SplitInfo") + (("IG (lookahead)",) if look else ()),
                    e_rows, ("l",) * (4 + bool(look))),
        notes=notes,
        decision=_decision_text(node, m),
        corrections=_corrections(tree, cands, digits, m),
        pruning=pruning_table(tree, node, digits, m),
    )


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
    approx = r"$\approx$" if m is LATEX else "≈"
    return f"{count_text(w)} {approx} {decimal_text(Fraction(w), digits)}"


def known_gain(c):
    """IG on the known rows of a candidate: (gain + MDL term) / known fraction (exact)."""
    kf = c.known_fraction
    if not kf:
        return c.gain + c.mdl_penalty
    return (c.gain + c.mdl_penalty) / kf


def mdl_form(c) -> tuple[str, str] | None:
    """``log2(7)/57`` (text, latex) for a numeric candidate under C4.5, else None."""
    if not c.mdl or not c.n_cuts or c.n_cuts < 2:
        return None
    n = count_text(c.n)
    n_text = f"({n})" if "/" in n else n
    return f"log2({c.n_cuts})/{n_text}", f"\\frac{{\\log_2 {c.n_cuts}}}{{{n}}}"


def _corrections(tree, cands, digits, m) -> Table | None:
    """The C4.5 gain corrections: threshold and cuts, known fraction, MDL term."""
    rows = []
    for c in cands:
        if (not c.unknown and c.threshold is None) or all_missing(c):
            continue
        dash = m.symbols["dash"]
        ig_known = known_gain(c)
        mdl = mdl_form(c)
        kf = c.known_fraction
        rows.append((
            m.name(c.feature),
            m.name(tree.number_text(c.threshold)) if c.threshold is not None else dash,
            str(c.n_cuts) if c.n_cuts is not None else dash,
            m.code(count_text(kf), f"\\frac{{{kf.numerator}}}{{{kf.denominator}}}" if kf.denominator != 1 else str(kf)),
            decimal_text(ig_known, digits),
            m.code(*m.value(ig_known)),
            (f"{m.code(*mdl)} = {decimal_text(c.mdl_penalty, digits)}" if mdl else
             ("0 (one cut)" if c.mdl else dash)),
            decimal_text(c.gain, digits),
        ))
    if not rows:
        return None
    headers = ("feature", "threshold", "cuts", "known fraction", "IG(known)", "IG(known) exact",
               m.math("MDL = log2(cuts)/n", r"\text{MDL} = \log_2(\text{cuts})/n"), "IG")
    return Table("C4.5 gain corrections", headers, rows, ("l", "r", "r", "l", "r", "l", "l", "r"))


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
    rows = [("estimated errors as a leaf", f"≈ {r.leaf:.{digits}f}"),
            ("estimated errors of the subtree", f"≈ {r.subtree:.{digits}f}"),
            (f"estimated errors of the largest branch ({branch})", f"≈ {r.largest_branch:.{digits}f}"),
            ("confidence factor CF", f"{r.confidence:g}"),
            ("decision", m.name(action))]
    if m is LATEX:
        rows = [(a, b.replace("≈", r"$\approx$")) for a, b in rows]
    return Table("pruning (C4.5 pessimistic; the error estimates are floats, not exact values)",
                 ("", "value"), rows, ("l", "l"))