"""A Poisson or exp node's derivation: events, exposure, rate, deviance, and each split's
deviance decrease (rpart's ``poisson`` and ``exp`` methods).

A node of such a tree keeps (Σw, events D, exposure T, Σw·d·ln(d/t)); its candidates are
:class:`~infotree.survival.RateCandidate` records.  This module writes them for the table
printers (:class:`NodeView`), as prose (``rate λ = (D + α)/(T + β) = (8 + 1)/(1893 + 422) ≈
0.0042``; ``decrease = 2·[8·ln(8/1893) + 60·ln(60/24912) − 68·ln(68/26805)] ≈ 2.8150``), for
text leaves and for JSON.  Nothing is computed here but text.
"""

from __future__ import annotations

from ..data import number_text
from .cells import TEXT, Markup, NodeView, Table, _decision_text, _weight_fact, count_text, node_title, pruning_table
from .impurity import _condition, _value, candidate_rows, decision_steps, every_split_table, surrogate_table
from .numbers import number

__all__ = ["json_candidate", "json_stats", "leaf_text", "poisson_steps", "poisson_view", "stats_text"]


def stats_text(stats, digits: int = 4) -> str:
    """``events 8, exposure 1893``."""
    return f"events {number(stats[1], digits)}, exposure {number(stats[2], digits)}"


def leaf_text(node, digits: int = 6) -> str:
    """A leaf line: its exact rate (the label) and its decimal, then n, events, exposure and
    deviance (rpart prints n, deviance, yval)."""
    if node.is_empty:
        return f"{node.label_name} (0, empty)"
    stats = node.class_counts.tolist()
    rate = node.label_name if len(node.label_name) <= 24 else f"rate ≈ {number(node.mean, digits)}"
    if rate == node.label_name and not number(node.mean, digits) == rate:
        rate += f" ≈ {number(node.mean, digits)}"
    return f"{rate} (n = {count_text(node.n)}, {stats_text(stats, digits)}, deviance {number(node.risk, 4)})"


def _rate_line(tree, stats, m: Markup, digits: int) -> str:
    crit = tree.criterion
    d, t = number_text(stats[1]), number_text(stats[2])
    if crit.alpha:
        form = f"(D + α)/(T + β) = ({d} + {number(crit.alpha, digits)})/({t} + {number(crit.beta, digits)})"
    else:
        form = f"D/T = {d}/{t}"
    return m.name(f"rate λ = {form} = {number_text(crit.rate(stats))} ≈ {number(crit.rate(stats), digits)}")


def _prior_line(tree, m: Markup, digits: int) -> str:
    crit = tree.criterion
    if not crit.alpha:
        return m.name("no shrinkage (shrink 0): each node's rate is its events over its exposure")
    return m.name(f"rpart's shrinkage k = {number_text(crit.shrink)}: α = 1/k² = {number_text(crit.alpha)}, "
                  f"β = α/(root rate) = {number(crit.beta, digits)}")


def _exact(v, digits: int, most: int = 100) -> str:
    """``= exact ≈ decimal`` when the exact form is short enough to read, else ``≈ decimal`` (a
    deviance of many rows has a logarithm per distinct prime; the JSON keeps it whole)."""
    text = str(v)
    return (f"= {text} ≈ " if len(text) <= most else "≈ ") + number(v, digits)


def _over(q) -> str:
    """A divisor's text: ``1893``, or ``(2087/1954)`` for a fraction."""
    text = number_text(q)
    return f"({text})" if "/" in text else text


def _decrease_form(c) -> str:
    """``2·[D_L·ln(D_L/T_L) + D_R·ln(D_R/T_R) − D·ln(D/T)]`` with the candidate's numbers."""
    def term(d, t):
        return f"{number_text(d)}·ln({number_text(d)}/{_over(t)})" if d else "0"

    known = c.known
    sides = " + ".join(term(r[1], r[2]) for r in c.table)
    return f"2·[{sides} − {term(known[1], known[2])}]"


def _sides_form(m: Markup, c, digits) -> tuple[str, str]:
    text = " + ".join(number(i, digits) for i in c.impurities if i is not None)
    return text, text


def poisson_view(tree, node, *, digits: int = 4, markup: Markup = TEXT) -> NodeView:
    """The strings of a Poisson node's derivation."""
    m, sym = markup, markup.symbols
    stats = node.class_counts.tolist()
    facts = [f"n = {_weight_fact(node.n, digits, m)}: {m.name(stats_text(stats, digits))}",
             _rate_line(tree, stats, m, digits),
             m.equation([("deviance", r"\mathrm{deviance}"),
                         ("2·[Σd·ln(d/(λt)) − Σ(d − λt)]",
                          r"2\left[\sum d \ln\frac{d}{\lambda t} - \sum (d - \lambda t)\right]"),
                         _value(m, node.risk) if len(str(node.risk)) <= 100 else ("…", r"\ldots")],
                        approx=number(node.risk, digits))]
    b_headers = ("feature", "branch", "n", "events", "exposure", "rate", "deviance")
    b_rows = []
    for c in node.candidates():
        for b, (row, dev, rate) in enumerate(zip(c.table, c.impurities, c.means)):
            b_rows.append((m.name(c.feature), _condition(m, c, b), count_text(row[0]), number(row[1], digits),
                           number(row[2], digits), number(rate, digits) if rate is not None else sym["dash"],
                           number(dev, digits) if dev is not None else "empty"))
    s_headers = ("", "feature", "split", "tried", "dev(left) + dev(right)", "sum", "decrease", "improvement")
    s_rows, e_rows, notes = candidate_rows(node, digits, m, lambda c: _sides_form(m, c, digits))
    notes.append(m.name("each feature's best binary split (of those leaving min_leaf rows each side); a side's "
                        "deviance is about its own rate events/exposure, and decrease = dev(node) − dev(left) − "
                        "dev(right) over the rows with the feature known = 2·[D_L·ln(D_L/T_L) + D_R·ln(D_R/T_R) − "
                        "D·ln(D/T)], rpart's improvement (poisson.c); the node predicts the shrunk rate λ"))
    notes.append(_prior_line(tree, m, digits))
    return NodeView(
        title=node_title(node, m), facts=facts,
        branches=Table("splits", b_headers, b_rows, ("l", "l", "r", "r", "r", "r", "r")),
        summary=Table("candidates", s_headers, s_rows, ("l", "l", "l", "r", "l", "r", "r", "r")),
        exact=Table("exact values", ("feature", "dev(left) + dev(right)", "decrease", "improvement"), e_rows,
                    ("l",) * 4),
        notes=notes, decision=_decision_text(node, m), corrections=surrogate_table(tree, node, m),
        pruning=pruning_table(tree, node, digits, m), tried=every_split_table(tree, node, digits, m))


def poisson_steps(tree, node, digits: int = 4, markup: Markup = TEXT):
    """The lines of a Poisson node's worked solution."""
    m = markup
    stats = node.class_counts.tolist()
    yield f"At {node_title(node, m)}: {count_text(node.n)} rows, {m.name(stats_text(stats, digits))}"
    yield _rate_line(tree, stats, m, digits)
    yield m.name(f"deviance = 2·[Σd·ln(d/(λt)) − Σ(d − λt)] {_exact(node.risk, digits)}")
    for c in node.candidates():
        yield ""
        yield (f"{m.name(c.feature)}: best of {c.n_tried} binary split{'s' if c.n_tried != 1 else ''}: "
               f"{_condition(m, c, 0)} / {_condition(m, c, 1)}")
        for b, (row, rate) in enumerate(zip(c.table, c.means)):
            if rate is None:
                continue
            yield m.name(f"{c.feature} {' '.join(c.split.condition(b))}: n = {count_text(row[0])}, events "
                         f"{number_text(row[1])}, exposure {number_text(row[2])}, rate {number_text(row[1])}/"
                         f"{_over(row[2])} ≈ {number(rate, digits)}")
        if c.unknown is not None:
            yield m.name(f"{c.feature} is missing in {count_text(c.unknown[0])} rows: the decrease is over the "
                         f"{count_text(c.n)} rows with it known")
        yield m.name(f"decrease = {_decrease_form(c)} {_exact(c.decrease, digits)}")
    yield from decision_steps(tree, node, m, "leaf predicting rate")


def json_stats(stats) -> dict:
    """A Poisson node's or side's statistics as exact strings: n, events, exposure and the
    saturated log-likelihood Σw·d·ln(d/t) (what its deviance is computed from)."""
    n, d, t, s = stats.tolist() if hasattr(stats, "tolist") else stats
    return {"n": number_text(n), "events": number_text(d), "exposure": number_text(t), "saturated": str(s)}


def json_candidate(tree, c, test_json, value_json, improvement_text) -> dict:
    """A Poisson candidate: each side's statistics, rate and deviance, the decrease."""
    return {
        "feature": c.feature,
        "test": test_json(tree, c.split),
        "branches": [{"value": v, **json_stats(r), "rate": None if mu is None else number_text(mu),
                      "deviance": value_json(i)} for v, r, mu, i in zip(c.values, c.table, c.means, c.impurities)],
        "tried": c.n_tried,
        "deviance_sum": value_json(c.weighted),
        "decrease": value_json(c.decrease),
        "improvement": improvement_text(c.improvement),
    }
