"""A CART node's derivation: impurities, weighted child impurities and decreases.

The table printers (text, Markdown, LaTeX) show a node through :class:`NodeView`; for a
node whose candidates are binary splits (:class:`~infotree.records.BinaryCandidate`)
this module fills it: the node's impurity as a textbook form (``Gini(play) = 1 −
(9/14)² − (5/14)² = 45/98``), each feature's best split with its two children, and
per feature the weighted child impurity, the decrease and rpart's improvement (n ×
decrease), exact and decimal.  :func:`impurity_steps` writes the same as prose.
Every value is read from the records; nothing is computed here but text.
"""

from __future__ import annotations

from fractions import Fraction

from .numbers import approx, number
from ..forms import counts_text, q_latex, weighted_form
from .cells import (TEXT, Markup, NodeView, Table, _decision_text, _markers, _weight_fact,
                    class_counts_text, count_text, latex_escape, lookahead_note, node_title, pruning_table)

__all__ = ["candidate_rows", "decision_steps", "equal_decrease_groups", "every_split_table", "impurity_steps",
           "impurity_view", "known_rows", "surrogate_steps"]


def _value(m: Markup, v) -> tuple[str, str]:
    """(text, latex) of an exact value: a rational, or an Exact (the entropy criterion)."""
    if isinstance(v, (int, Fraction)):
        return (counts_text(v) if m.uses_text else "", q_latex(v) if m.uses_latex else "")
    return m.value(v)


def _name(crit, target, m: Markup, what: str | None = None) -> tuple[str, str]:
    """``Gini(play)`` or ``Gini(play | outlook in {sunny})`` as (text, latex)."""
    inner = target if what is None else f"{target} | {what}"
    return f"{crit.symbol}({inner})", f"\\mathrm{{{crit.symbol}}}(\\text{{{latex_escape(inner)}}})"


def equal_decrease_groups(node) -> list[list[str]]:
    """Groups of two or more candidates whose decreases are exactly equal, by first feature."""
    groups: list = []
    for c in node.candidates():
        for value, members in groups:
            if value == c.decrease:
                members.append(c.feature)
                break
        else:
            groups.append((c.decrease, [c.feature]))
    return [members for _, members in groups if len(members) > 1]


def _condition(m: Markup, c, branch) -> str:
    op, v = c.split.condition(branch)
    return f"{m.name(c.feature)} {m.symbols[op]} {m.name(v)}"


def impurity_view(tree, node, *, digits: int = 4, markup: Markup = TEXT) -> NodeView:
    """The strings of a CART node's derivation."""
    m, crit, sym = markup, tree.criterion, markup.symbols
    cands = node.candidates()
    facts = [f"n = {_weight_fact(node.n, digits, m)}: {class_counts_text(tree, node.class_counts, m)}"]
    i_node = node.impurity
    facts.append(m.equation([_name(crit, tree.target, m), m.form(crit.form, node.class_counts.tolist()),
                             _value(m, i_node)], approx=approx(i_node, digits)))

    ih = m.math(f"{crit.symbol}(child)", f"\\mathrm{{{crit.symbol}}}(\\text{{child}})")
    b_headers = ("feature", "branch", "n", *(m.name(k) for k in tree.classes), ih, "exact")
    b_rows = []
    for c in cands:
        for b, (counts, imp) in enumerate(zip(c.table, c.impurities)):
            b_rows.append((m.name(c.feature), _condition(m, c, b), count_text(sum(counts)),
                           *(count_text(k) for k in counts),
                           number(imp, digits) if imp is not None else "empty",
                           m.code(*_value(m, imp)) if imp is not None else sym["dash"]))
    b_align = ("l", "l", "r", *("r" for _ in tree.classes), "r", "l")

    look = any(c.lookahead is not None for c in cands)  # lookahead 1: the two-level decrease beside the greedy one
    s_headers = ("", "feature", "split", "tried", "weighted form", "weighted", "decrease", "improvement")
    s_headers += ("decrease (lookahead)",) * look
    s_rows, e_rows, notes = candidate_rows(node, digits, m, lambda c: m.form(weighted_form, c.table, crit.symbol))
    notes.append(m.name(f"each feature's best binary split (of those leaving min_leaf = {tree.params.get('min_leaf')} "
                        f"rows each side; tried = how many); decrease = {crit.symbol}(node) − weighted; "
                        f"improvement = n × decrease (rpart)"))
    if look:
        notes.append(lookahead_note(tree, m))
    return NodeView(
        title=node_title(node, m),
        facts=facts,
        branches=Table("splits", b_headers, b_rows, b_align),
        summary=Table("candidates", s_headers, s_rows, ("l", "l", "l", "r", "l", "r", "r", "r") + ("r",) * look),
        exact=Table("exact values", ("feature", "weighted", "decrease", "improvement")
                    + ("decrease (lookahead)",) * look, e_rows, ("l",) * (4 + look)),
        notes=notes,
        decision=_decision_text(node, m),
        corrections=surrogate_table(tree, node, m),
        pruning=pruning_table(tree, node, digits, m),
        tried=every_split_table(tree, node, digits, m),
    )


def every_split_table(tree, node, digits: int = 4, m: Markup = TEXT) -> Table | None:
    """Every threshold and subset each feature tried (``every_split``), in the order tried,
    with both sides' sizes, the weighted child impurity (regression: SSE(left) + SSE(right))
    and the decrease, exact; ``best`` marks the feature's best."""
    cands = node.candidates()
    if not any(c.every for c in cands):
        return None
    rows = []
    for c in cands:
        for s in c.every_split():
            rows.append(("best" if s.split == c.split else "", m.name(c.feature), _condition(m, s, 0),
                         *(count_text(tree.criterion.weight(r)) for r in s.table),
                         number(s.weighted, digits), number(s.decrease, digits),
                         m.code(*_value(m, s.decrease))))
    weighted = "SSE(left) + SSE(right)" if tree.criterion.regression else "weighted"
    return Table("every split tried", ("", "feature", "split (left)", "n left", "n right", weighted, "decrease",
                                       "exact decrease"), rows, ("l", "l", "l", "r", "r", "r", "r", "l"))


def candidate_rows(node, digits, m: Markup, form):
    """Each candidate's summary row (marker, split, tried, ``form(c)`` of its children,
    weighted, decrease, improvement) and exact row, and the notes on the markers and on
    exactly equal decreases."""
    cands, sym = node.candidates(), m.symbols
    groups = equal_decrease_groups(node)
    mark = _markers(node, groups)
    look = any(getattr(c, "lookahead", None) is not None for c in cands)
    s_rows, e_rows = [], []
    for c in cands:
        s_rows.append((sym[mark[c.feature]] if c.feature in mark else "", m.name(c.feature), _condition(m, c, 0),
                       str(c.n_tried), m.code(*form(c)), number(c.weighted, digits),
                       number(c.decrease, digits), number(c.improvement, digits))
                      + ((number(c.lookahead, digits),) if look else ()))
        e_rows.append((m.name(c.feature), m.code(*_value(m, c.weighted)), m.code(*_value(m, c.decrease)),
                       m.code(*_value(m, c.improvement))) + ((m.code(*_value(m, c.lookahead)),) if look else ()))
    notes = []
    legend = [f"{sym[k]} {what}" for k, what in (("chosen", "chosen"), ("tied", "tied exactly with the chosen feature"),
                                                  ("equal", "exactly equal decrease, not the decision"))
              if k in set(mark.values())]
    if legend:
        notes.append("; ".join(legend))
    by_name = {c.feature: c for c in cands}
    for group in groups:
        notes.append(f"exactly equal decrease: {', '.join(m.name(f) for f in group)} "
                     f"({number(by_name[group[0]].decrease, digits)})")
    return s_rows, e_rows, notes


def surrogate_text(tree, node, s, m: Markup = TEXT) -> str:
    """``gleason <= 5.5 goes left (with grade <= 2.5)``: which side goes with the primary's left."""
    if s.sides is not None:
        op, v = s.test.condition(s.sides.index(0))
        return f"{m.name(s.feature)} {m.symbols[op]} {m.name(v)}"
    dom = tree.domains[s.index]
    left = "{" + ", ".join(dom[i] for i in sorted(s.test.left)) + "}"
    return f"{m.name(s.feature)} {m.symbols['in']} {m.name(left)}"


def surrogate_table(tree, node, m: Markup = TEXT) -> Table | None:
    """A CART node's surrogate splits, best first, and why each was chosen."""
    if not node.surrogates:
        return None
    primary = " ".join(node.test.condition(0))
    rows = []
    for i, s in enumerate(node.surrogates, 1):
        why = (f"agrees with {node.split_feature} {primary} on {s.agreed} of {s.total} rows; "
               f"going with the majority agrees on {s.majority}")
        rows.append((str(i), surrogate_text(tree, node, s, m), m.code(*_value(m, s.agree)),
                     m.code(*_value(m, s.adj)), m.name(why), str(s.routed)))
    majority = {0: "left", 1: "right", None: "none (a tie: such rows stay here)"}[node.majority]
    title = (f"surrogates (sent with the left branch; rows no surrogate places go {majority} "
             f"under use_surrogate = {tree.params.get('use_surrogate', 2)})")
    return Table(m.name(title), ("", "surrogate (left)", "agree", "adj", "why", "rows routed"), rows,
                 ("r", "l", "l", "l", "l", "r"))


def impurity_steps(tree, node, digits: int = 4, markup: Markup = TEXT):
    """The lines of a CART node's worked solution."""
    m, crit = markup, tree.criterion
    counts = node.class_counts.tolist()
    yield f"At {node_title(node, m)}: {count_text(node.n)} rows ({class_counts_text(tree, counts, m)})"
    i_node = node.impurity
    node_name = _name(crit, tree.target, m)
    yield m.equation([node_name, m.form(crit.form, counts), _value(m, i_node)], approx=approx(i_node, digits))
    for c in node.candidates():
        yield ""
        yield (f"{m.name(c.feature)}: best of {c.n_tried} binary split{'s' if c.n_tried != 1 else ''}: "
               f"{_condition(m, c, 0)} / {_condition(m, c, 1)}")
        for b, (rows, imp) in enumerate(zip(c.table, c.impurities)):
            name = _name(crit, tree.target, m, f"{c.feature} {' '.join(c.split.condition(b))}")
            yield m.equation([name, m.form(crit.form, rows), _value(m, imp)], approx=approx(imp, digits))
        w = _name(crit, tree.target, m, f"split on {c.feature}")
        yield m.equation([w, m.form(weighted_form, c.table, crit.symbol), _value(m, c.weighted)],
                         approx=approx(c.weighted, digits))
        d_name = (f"Δ{crit.symbol}({c.feature})", f"\\Delta\\mathrm{{{crit.symbol}}}(\\text{{{latex_escape(c.feature)}}})")
        parent, line = known_rows(tree, c, m, node_name, digits)
        if line:
            yield line
        yield m.equation([d_name, (f"{parent[0]} - {w[0]}", f"{parent[1]} - {w[1]}"), _value(m, c.decrease)],
                         approx=approx(c.decrease, digits))
        dt, dl = _value(m, c.decrease)
        if not isinstance(c.decrease, (int, Fraction)):  # a sum of logarithms (entropy): n × (a + b·log2(c))
            dt, dl = f"({dt})", f"\\left({dl}\\right)"
        n_dec = (f"{count_text(c.n)} × {dt}", f"{count_text(c.n)} \\times {dl}")
        yield m.equation([("improvement (rpart) = n × decrease", r"\text{improvement (rpart)} = n \times \Delta"),
                          n_dec, _value(m, c.improvement)], approx=approx(c.improvement, digits))
        if c.lookahead is not None:
            yield m.equation([(f"decrease with lookahead 1 ({c.feature}, each side split once more at best)",
                               f"\\Delta_{{\\text{{lookahead}}}}(\\text{{{latex_escape(c.feature)}}})"),
                              _value(m, c.lookahead)], approx=approx(c.lookahead, digits))
    yield from decision_steps(tree, node, m, "leaf labelled")


def known_rows(tree, c, m: Markup, node_name, digits):
    """The impurity a candidate's decrease starts from, as (name, line): the node's own, or,
    when the feature is missing in some rows, that of the rows with it known, with a line
    that says so and computes it (rpart takes the decrease over those rows)."""
    if c.unknown is None:
        return node_name, ""
    crit = tree.criterion
    name = _name(crit, tree.target, m, f"{c.feature} known")
    missing = count_text(crit.weight(c.unknown))
    line = (m.name(f"{c.feature} is missing in {missing} rows: the decrease is over the {count_text(c.n)} rows "
                   f"with it known, ")
            + m.equation([name, m.form(crit.form, list(c.known)), _value(m, c.known_impurity)],
                         approx=approx(c.known_impurity, digits)))
    return name, line


def decision_steps(tree, node, m: Markup, leaf: str):
    """A CART node's last lines: its exactly equal decreases, then its split and surrogates,
    or why it is a leaf (``leaf`` names what a leaf gives: a label or a prediction)."""
    yield ""
    for group in equal_decrease_groups(node):
        yield f"exactly equal decreases: {', '.join(m.name(f) for f in group)}"
    if node.split is not None:
        yield f"{m.symbols['then']} split on {m.name(node.split_feature)} ({m.name(node.reason)})"
        yield from surrogate_steps(tree, node, m)
    else:
        yield f"{m.symbols['then']} {leaf} {m.name(node.label_name)} ({m.name(node.reason)})"



def surrogate_steps(tree, node, m: Markup = TEXT):
    """One line per surrogate of a split node: its agreement and adj, as rpart defines them."""
    primary = " ".join(node.test.condition(0))
    for i, s in enumerate(node.surrogates, 1):
        yield (f"surrogate {i}: {surrogate_text(tree, node, s, m)} goes left: it agrees with "
               f"{m.name(node.split_feature)} {m.name(primary)} on {s.agreed} of {s.total} rows "
               f"(agree = {m.code(*_value(m, s.agree))}); going with the majority agrees on {s.majority}, "
               f"so adj = ({s.agreed} - {s.majority})/({s.total} - {s.majority}) = {m.code(*_value(m, s.adj))}")
