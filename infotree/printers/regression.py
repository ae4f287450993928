"""A regression node's derivation: means, sums of squared errors and their decreases.

A node of a regression tree (criterion ``squared_error``) keeps its statistics (n, Σy,
Σy²); its candidates are :class:`~infotree.records.RegressionCandidate` records.  This
module writes them for the table printers (:class:`NodeView`) and as prose: the node's
mean and SSE as a student computes them (``SSE(y) = Σy² − (Σy)²/n = 392.5 − 40²/6 =
755/6``), each feature's best split with each side's n, mean and SSE, the decrease
SSE(node) − SSE(left) − SSE(right) and rpart's improvement (the decrease over the
node's SSE), exact and decimal.  Nothing is computed here but text.
"""

from __future__ import annotations

from ..data import number_text
from ..exact import decimal_text
from ..forms import sse_form
from .cells import (TEXT, Markup, NodeView, Table, _decision_text, _weight_fact, class_counts_text, count_text,
                    latex_escape, node_title, pruning_table)
from .impurity import (_condition, _name, _value, candidate_rows, decision_steps, every_split_table, known_rows,
                       surrogate_table)

__all__ = ["regression_steps", "regression_view"]


def _exact(m: Markup, v) -> str:
    return m.code(*_value(m, v))


def _sides_form(m: Markup, c) -> tuple[str, str]:
    """``SSE(left) + SSE(right)`` written as the two children's numbers."""
    parts = [(count_text(i), _value(m, i)[1]) for i in c.impurities if i is not None]
    return " + ".join(t for t, _ in parts), " + ".join(x for _, x in parts)


def _note(tree) -> str:
    return (f"each feature's best binary split (of those leaving min_leaf = {tree.params.get('min_leaf')} rows each "
            f"side; tried = how many); decrease = SSE(node) − SSE(left) − SSE(right) over the rows with the "
            f"feature known; improvement = decrease / SSE(node) (rpart's anova)")


def regression_view(tree, node, *, digits: int = 4, markup: Markup = TEXT) -> NodeView:
    """The strings of a regression node's derivation."""
    if getattr(tree.criterion, "counts_events", False):  # Poisson, exp: rates and deviances
        from .poisson import poisson_view

        return poisson_view(tree, node, digits=digits, markup=markup)
    m, crit, sym = markup, tree.criterion, markup.symbols
    cands = node.candidates()
    stats = node.class_counts.tolist()
    facts = [f"n = {_weight_fact(node.n, digits, m)}: {class_counts_text(tree, stats, m)}"]
    facts.append(m.equation([_name(crit, tree.target, m), m.form(sse_form, stats), _value(m, node.impurity)],
                            approx=decimal_text(node.impurity, digits)))

    b_headers = ("feature", "branch", "n", m.math("Σy", r"\Sigma y"), "mean", "SSE", "exact SSE")
    b_rows = []
    for c in cands:
        for b, (row, imp, mean) in enumerate(zip(c.table, c.impurities, c.means)):
            b_rows.append((m.name(c.feature), _condition(m, c, b), count_text(row[0]), number_text(row[1]),
                           decimal_text(mean, digits) if mean is not None else sym["dash"],
                           decimal_text(imp, digits) if imp is not None else "empty",
                           _exact(m, imp) if imp is not None else sym["dash"]))

    s_headers = ("", "feature", "split", "tried", "SSE(left) + SSE(right)", "sum", "decrease", "improvement")
    s_rows, e_rows, notes = candidate_rows(node, digits, m, lambda c: _sides_form(m, c))
    notes.append(m.name(_note(tree)))
    return NodeView(
        title=node_title(node, m),
        facts=facts,
        branches=Table("splits", b_headers, b_rows, ("l", "l", "r", "r", "r", "r", "l")),
        summary=Table("candidates", s_headers, s_rows, ("l", "l", "l", "r", "l", "r", "r", "r")),
        exact=Table("exact values", ("feature", "SSE(left) + SSE(right)", "decrease", "improvement"), e_rows,
                    ("l",) * 4),
        notes=notes,
        decision=_decision_text(node, m),
        corrections=surrogate_table(tree, node, m),
        pruning=pruning_table(tree, node, digits, m),
        tried=every_split_table(tree, node, digits, m),
    )


def regression_steps(tree, node, digits: int = 4, markup: Markup = TEXT):
    """The lines of a regression node's worked solution."""
    if getattr(tree.criterion, "counts_events", False):
        from .poisson import poisson_steps

        yield from poisson_steps(tree, node, digits, markup)
        return
    m, crit = markup, tree.criterion
    stats = node.class_counts.tolist()
    yield f"At {node_title(node, m)}: {count_text(node.n)} rows ({class_counts_text(tree, stats, m)})"
    if node.mean is not None:
        mean = _value(m, node.mean)
        yield m.equation([("mean ȳ = Σy/n", r"\bar{y} = \Sigma y / n"),
                          (f"{number_text(stats[1])}/{count_text(stats[0])}",
                           f"\\frac{{{_value(m, stats[1])[1]}}}{{{_value(m, stats[0])[1]}}}"), mean],
                         approx=decimal_text(node.mean, digits))
    node_name = _name(crit, tree.target, m)
    sse_name = (f"{node_name[0]} = Σ(y - ȳ)² = Σy² - (Σy)²/n",
                f"{node_name[1]} = \\sum (y - \\bar{{y}})^2 = \\sum y^2 - (\\sum y)^2 / n")
    yield m.equation([sse_name, m.form(sse_form, stats), _value(m, node.impurity)],
                     approx=decimal_text(node.impurity, digits))
    for c in node.candidates():
        yield ""
        yield (f"{m.name(c.feature)}: best of {c.n_tried} binary split{'s' if c.n_tried != 1 else ''}: "
               f"{_condition(m, c, 0)} / {_condition(m, c, 1)}")
        for b, (row, imp, mean) in enumerate(zip(c.table, c.impurities, c.means)):
            if imp is None:
                continue
            what = f"{c.feature} {' '.join(c.split.condition(b))}"
            name = _name(crit, tree.target, m, what)
            yield (m.name(f"{what}: n = {count_text(row[0])}, Σy = {number_text(row[1])}, mean ")
                   + f"{_exact(m, mean)} {m.name('≈')} {decimal_text(mean, digits)}; "
                   + m.equation([name, m.form(sse_form, row), _value(m, imp)], approx=decimal_text(imp, digits)))
        w = _name(crit, tree.target, m, f"split on {c.feature}")
        yield m.equation([w, _sides_form(m, c), _value(m, c.weighted)], approx=decimal_text(c.weighted, digits))
        d_name = (f"ΔSSE({c.feature})", f"\\Delta\\mathrm{{SSE}}(\\text{{{latex_escape(c.feature)}}})")
        parent, line = known_rows(tree, c, m, node_name, digits)
        if line:
            yield line
        yield m.equation([d_name, (f"{parent[0]} - {w[0]}", f"{parent[1]} - {w[1]}"), _value(m, c.decrease)],
                         approx=decimal_text(c.decrease, digits))
        if c.node_sse:
            dt, dl = _value(m, c.decrease)
            tt, tl = _value(m, c.node_sse)
            yield m.equation([("improvement (rpart) = ΔSSE / SSE(node)",
                               r"\text{improvement (rpart)} = \Delta\mathrm{SSE} / \mathrm{SSE}(\text{node})"),
                              (f"({dt})/({tt})", f"\\frac{{{dl}}}{{{tl}}}"), _value(m, c.improvement)],
                             approx=decimal_text(c.improvement, digits))
    yield from decision_steps(tree, node, m, "leaf predicting")
