"""The strings every table printer shows: one place turns a node's records into cells.

A :class:`Markup` says how one output language writes names, formulas, exact
values and symbols (:data:`TEXT`, :data:`MARKDOWN`, :data:`LATEX`);
:func:`node_view` reads a node's records (never computing a measure itself) and
gives the header facts, three tables and the decision, all strings, so the text,
Markdown and LaTeX printers show the same numbers.

    >>> from infotree.data import load
    >>> from infotree.tree import build_tree
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

import operator
import re
from typing import NamedTuple

from ..exact import decimal_text
from ..forms import conditional_entropy_form, counts_text, entropy_form

__all__ = ["LATEX", "MARKDOWN", "Markup", "NODE_SELECTIONS", "NodeView", "TEXT", "Table", "class_counts_text",
           "code_span", "count_text", "entropy_name", "has_derivation", "latex_escape", "leaf_text", "node_title",
           "node_view", "select_nodes", "tree_lines", "weka_line", "write_tree_lines"]

NODE_SELECTIONS = ("all", "root", "none")


# -- markup --------------------------------------------------------------------------

class Markup:
    """Plain text: names, formulas and exact values as they are (the exact grammar)."""

    #: the marker column and the C4.5 filter cells
    symbols = {"chosen": "*", "tied": "=", "equal": "≡", "ge": "≥ avg", "lt": "< avg", "dash": "—",
               "then": "=>", "undefined": "undefined (split info 0)"}

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

    symbols = {**Markup.symbols, "chosen": "\\*"}
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
               "undefined": r"\shortstack[r]{undefined\\(split info 0)}"}

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

def entropy_name(tree, node, given: str | None = None, value: str | None = None) -> tuple[str, str]:
    """``H(play | outlook = sunny, humidity)`` as (text, latex): the target given the node's path.

    ``given`` adds a feature (a conditional entropy), ``given`` with ``value`` adds a
    condition (one branch's entropy); at the root without either it is ``H(play)``.
    """
    conds = node.path_names()
    if given is not None:
        conds = conds + [(given, value)]
    text = [f"{f} = {v}" if v is not None else f for f, v in conds]
    latex = [f"{_tex_name(f)} = {_tex_name(v)}" if v is not None else _tex_name(f) for f, v in conds]
    target = tree.target
    if not conds:
        return f"H({target})", f"H({_tex_name(target)})"
    return (f"H({target} | {', '.join(text)})",
            f"H({_tex_name(target)} \\mid {_TEX_COMMA.join(latex)})")


def node_title(node, markup: Markup = TEXT) -> str:
    """``outlook = sunny, humidity = high``, or ``root``."""
    return ", ".join(f"{markup.name(f)} = {markup.name(v)}" for f, v in node.path_names()) or "root"


def count_text(c) -> str:
    """A count in the exact grammar (``9``, ``15/4``); integers, numpy's too, skip the Fraction."""
    try:
        return str(operator.index(c))
    except TypeError:
        return counts_text(c)


def class_counts_text(tree, counts, markup: Markup = TEXT) -> str:
    """``no 5, yes 9``: the counts in class order."""
    return ", ".join(f"{markup.name(k)} {count_text(c)}" for k, c in zip(tree.classes, counts))


# -- which nodes get a derivation ---------------------------------------------------------

def has_derivation(node) -> bool:
    """True for a node whose candidates explain something: internal, or an impure leaf with candidates."""
    if node.is_leaf and sum(1 for c in node.class_counts if c) <= 1:
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
    for node in tree.nodes():
        if has_derivation(node):
            yield node
            node.forget()  # printed: drop its exact values so memory stays flat


# -- the tree as lines ----------------------------------------------------------------------

def leaf_text(node) -> str:
    """``yes (4)``, ``no (5/2)`` with training errors, ``yes (0, empty)`` for an empty leaf."""
    if node.is_empty:
        return f"{node.label_name} (0, empty)"
    if node.errors:
        return f"{node.label_name} ({node.n}/{node.errors})"
    return f"{node.label_name} ({node.n})"


def tree_lines(tree, markup: Markup = TEXT):
    """``(node, depth, line)`` for every node below the root, pre-order, in Weka's style.

    ``outlook = sunny`` for an internal node, ``humidity = high: no (3)`` for a leaf;
    a tree that is a single leaf is the one line ``(root, 0, ": yes (14)")``.
    """
    root = tree.root
    if root.is_leaf:
        yield root, 0, f": {_leaf(root, markup)}"
        return
    for node in root.walk():
        if node is root:
            continue
        f, v = node.path[-1]
        line = f"{markup.name(tree.features[f])} = {markup.name(tree.domains[f][v])}"
        if node.is_leaf:
            line += f": {_leaf(node, markup)}"
        yield node, len(node.path) - 1, line


def write_tree_lines(tree, out, line_of, markup: Markup = TEXT) -> tuple[int, int]:
    """Write ``line_of(depth, line)`` for each of :func:`tree_lines`; return (leaves, nodes)."""
    root = tree.root
    size, leaves = 1, 0
    for node, depth, line in tree_lines(tree, markup):
        out.write(line_of(depth, line))
        size += node is not root
        leaves += node.is_leaf
    return leaves, size


def weka_line(depth: int, line: str) -> str:
    """A tree line in Weka's style: ``|  `` once per level."""
    return "|  " * depth + line + "\n"


def _leaf(node, markup):
    text = leaf_text(node)
    label = node.label_name
    return markup.name(label) + text[len(label):]


# -- a node's derivation -------------------------------------------------------------------

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


def _markers(node) -> dict:
    """Feature name -> marker key: ``chosen``, ``tied`` or ``equal`` (exactly equal gain, not the decision)."""
    t = node.tree
    out = {}
    for group in node.equal_gain_groups():
        for f in group:
            out[f] = "equal"
    for j in node.ties:
        out[t.features[j]] = "tied"
    if node.split is not None:
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
    target = tree.target

    h_text, h_latex = entropy_name(tree, node)
    facts = [f"n = {count_text(node.n)}: {class_counts_text(tree, node.class_counts, m)}"]
    if node.entropy is not None:
        facts.append(m.equation([(h_text, h_latex),
                                 (entropy_form(node.class_counts), entropy_form(node.class_counts, latex=True)),
                                 (str(node.entropy), node.entropy.latex())],
                                approx=decimal_text(node.entropy, digits)))

    # Branches: one row per (feature, value).
    hx = m.math(f"H({target}|value)", f"H({_tex_name(target)} \\mid \\text{{value}})")
    b_headers = ("feature", "value", "n", *(m.name(k) for k in tree.classes), hx, "exact")
    b_rows = []
    for c in cands:
        for b in c.branches:
            h = b.entropy
            b_rows.append((m.name(c.feature), m.name(b.value), count_text(b.n),
                           *(count_text(k) for k in b.counts),
                           decimal_text(h, digits) if h is not None else "empty",
                           m.code(str(h), h.latex()) if h is not None else sym["dash"]))
    b_align = ("l", "l", "r", *("r" for _ in tree.classes), "r", "l")

    # Summary: one row per feature.
    mark = _markers(node)
    show_filter = _filter_shown(cands)
    hyx = m.math(f"H({target}|X)", f"H({_tex_name(target)} \\mid X)")
    s_headers = ("", "feature", f"{hyx} form", hyx, "IG", "SplitInfo", "GainRatio")
    if show_filter:
        s_headers += (m.math("gain ≥ avg", r"\text{gain} \geq \text{avg}"), "valid")
    s_rows = []
    e_rows = []
    for c in cands:
        table = c.table
        gr = c.gain_ratio
        row = (sym[mark[c.feature]] if c.feature in mark else "", m.name(c.feature),
               m.code(conditional_entropy_form(table), conditional_entropy_form(table, latex=True)),
               decimal_text(c.conditional_entropy, digits), decimal_text(c.gain, digits),
               decimal_text(c.split_info, digits),
               decimal_text(gr, digits) if gr is not None else sym["undefined"])
        if show_filter:
            # The average-gain test is applied to valid features only.
            if not c.valid or c.passes_average_gain is None:
                passes = sym["dash"]
            else:
                passes = sym["ge"] if c.passes_average_gain else sym["lt"]
            row += (passes, "yes" if c.valid else "no")
        s_rows.append(row)
        e_rows.append((m.name(c.feature),
                       m.code(str(c.conditional_entropy), c.conditional_entropy.latex()),
                       m.code(str(c.gain), c.gain.latex()),
                       m.code(str(c.split_info), c.split_info.latex())))
    s_align = ("l", "l", "l", "r", "r", "r", "r") + (("l", "l") if show_filter else ())

    notes = []
    used = set(mark.values())
    legend = [f"{sym[k]} {what}" for k, what in (("chosen", "chosen"), ("tied", "tied exactly with the chosen feature"),
                                                  ("equal", "exactly equal information gain, not the decision"))
              if k in used]
    if legend:
        notes.append("; ".join(legend))
    by_name = {c.feature: c for c in cands}
    for group in node.equal_gain_groups():
        gain = by_name[group[0]].gain
        notes.append(f"exactly equal information gain: {', '.join(m.name(f) for f in group)} "
                     f"(IG = {decimal_text(gain, digits)})")
    if show_filter:
        notes.append(f"C4.5: valid = at least two branches with {m.name('min_objects')} = {tree.params.get('min_objects')} rows; "
                     f"{sym['ge']} = gain at least the average gain of the valid features")

    return NodeView(
        title=node_title(node, m),
        facts=facts,
        branches=Table("branches", b_headers, b_rows, b_align),
        summary=Table("candidates", s_headers, s_rows, s_align),
        exact=Table("exact values", ("feature", hyx, "IG", "SplitInfo"), e_rows, ("l", "l", "l", "l")),
        notes=notes,
        decision=_decision_text(node, m),
    )
