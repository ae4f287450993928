"""The tree as ordered if-then rules, one per leaf (C4.5rules' form, unsimplified).

Rule k is the conjunction of the tests on the path to the k-th leaf (pre-order,
children in value order), its class the leaf's, and its coverage the training
rows (weight) that reach the leaf, with their class counts and the rows it
misclassifies.  The rules of one tree are mutually exclusive, so "first match
wins" and "the only match" agree on every row whose values were seen in training.
No condition is dropped: C4.5rules' pessimistic simplification is not done here.

    >>> import io
    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> out = io.StringIO()
    >>> write(build_tree(load("tests/data/weather.csv")), out)
    >>> print(out.getvalue(), end="")
    Rules for play (criterion gain): 5 rules, tried in order, the first that matches decides
    <BLANKLINE>
    Rule 1: if outlook = sunny and humidity = high
            then play = no      covers 3 (no: 3, yes: 0), errors 0
    Rule 2: if outlook = sunny and humidity = normal
            then play = yes     covers 2 (no: 0, yes: 2), errors 0
    Rule 3: if outlook = overcast
            then play = yes     covers 4 (no: 0, yes: 4), errors 0
    Rule 4: if outlook = rainy and windy = FALSE
            then play = yes     covers 3 (no: 0, yes: 3), errors 0
    Rule 5: if outlook = rainy and windy = TRUE
            then play = no      covers 2 (no: 2, yes: 0), errors 0
"""

from __future__ import annotations

from ..exact import decimal_text
from ..data import number_text
from ..splits import condition_words
from .cells import class_counts_text, weight_text

__all__ = ["rules", "write"]


def rules(tree) -> list[tuple[list[tuple[str, str, str]], object]]:
    """``(conditions, leaf)`` per leaf in pre-order; conditions are ``(feature, operator, value)``
    (an M-of-N branch's: ``(None, "at least", "2 of {...}")``)."""
    return [(leaf.path_conditions(), leaf) for leaf in tree.leaves()]


def write(tree, out, *, weights="decimal") -> None:
    """Every rule, its class, coverage, class counts and errors (weights as in the text tree)."""
    rs = rules(tree)
    out.write(f"Rules for {tree.target} (criterion {tree.criterion.name}): {len(rs)} rule{'s' if len(rs) != 1 else ''}, "
              f"tried in order, the first that matches decides\n\n")
    indent = " " * len(f"Rule {len(rs)}: ")
    width = max(len(f"then {tree.target} = {leaf.label_name}") for _, leaf in rs)
    for k, (conds, leaf) in enumerate(rs, 1):
        head = f"Rule {k}: ".ljust(len(indent))
        test = " and ".join(condition_words(f, op, v) for f, op, v in conds) or "always (the tree is a single leaf)"
        then = f"then {tree.target} = {leaf.label_name}".ljust(width)
        if tree.criterion.regression:
            risk = leaf.risk  # a Poisson deviance has logarithms: its decimal
            risk = number_text(risk) if not hasattr(risk, "approx") else decimal_text(risk, 4)
            cover = (f"covers {weight_text(leaf.n, weights)} ({class_counts_text(tree, leaf.class_counts)}), "
                     f"{getattr(tree.criterion, 'risk_name', 'SSE')} {risk}")
        else:
            counts = ", ".join(f"{k}: {weight_text(c, weights)}" for k, c in zip(tree.classes, leaf.class_counts.tolist()))
            cover = f"covers {weight_text(leaf.n, weights)} ({counts}), errors {weight_text(leaf.errors, weights)}"
        if leaf.is_empty:
            cover = "covers 0 (an empty branch: the parent's majority class)"
        out.write(f"{head}if {test}\n{indent}{then}     {cover}\n")
