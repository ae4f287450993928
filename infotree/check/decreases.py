"""CART's decrease claims: ``ΔGini(outlook)``, ``Decrease(Age <= 55 | Start > 8.5)``, rpart's ``improvement``,
``GiniGain(A)`` and the weighted impurity of a binary split, ``Gini(play | split on outlook)``: read, and
valued from the class counts of the split's two branches (a split written out, or the feature's best split
at the node)."""

from __future__ import annotations

from fractions import Fraction

from ..measures import gini, misclassification
from .grammar import _DECREASE_OF, _Measure, _as_cond, _cut_item, _norm_name, _set_item
from .names import Unreadable as _Unreadable
from .values import _entropy_of_counts, _exact_text, _simplify


class Decreases:
    """The checker's decrease claims (a mixin of the checker)."""

    def decrease_measure(self, head, name, left, given, fixed) -> _Measure:
        """CART: ΔGini(A), Decrease(Age <= 55 | Start > 8.5), improvement (rpart), GiniGain(A)."""
        if not self.grower.binary:
            raise _Unreadable(f"{head}(...) is CART's decrease by a binary split; check with --algorithm cart")
        if given:
            raise _Unreadable(f"{head}(... | {', '.join(given)}): the conditions of a decrease fix the node: "
                              f"{head}(Age | Start > 8.5)")
        low = _norm_name(head)
        name = "Decrease" if name == "GiniGain" else name  # under CART: the decrease by a binary split
        # Decrease and Improvement: the criterion's own impurity, named as its ΔGini, ΔErr, ΔH or ΔSSE
        impurity = _DECREASE_OF.get(low) or _DECREASE_OF[_norm_name("Δ" + self.criterion.symbol)]
        fixed = self.in_context(fixed)
        if len(left) == 1 and left[0].kind == "w" and left[0].text.lower() == "rpart" and name == "Improvement":
            if self.last_feature is None:
                raise _Unreadable("improvement (rpart) is n × the decrease of the feature just measured; write "
                                  "Improvement(feature)")
            return _Measure(name, (self.last_feature,), (), fixed, impurity=impurity)
        if _cut_item(left) or _set_item(left):
            f, v = self.cut(left)
            return _Measure(name, (f,), (), fixed, split=(f, v), impurity=impurity)
        names = self.var_names(left, head)
        if len(names) != 1 or names[0] == self.data.target:
            raise _Unreadable(f"{head}(...) takes one feature or one split: {head}(outlook), {head}(Age <= 55)")
        return _Measure(name, names, (), fixed, impurity=impurity)

    def decrease_value(self, m: _Measure, quantity):
        """(value, steps, [], parts) of CART's decrease of a split, rpart's improvement n × decrease, or the
        weighted impurity of a split (``Gini(Y | split on A)``): from the class counts of its two branches."""
        numbers = {"Gini": gini, "ME": misclassification, "H": _entropy_of_counts}
        impurity = numbers[m.impurity or m.name if not m.split_on else m.name]
        table = self.split_table(m, quantity)
        n = sum(map(sum, table))
        weighted = sum((Fraction(sum(r), n) * impurity(list(r)) for r in table if sum(r)), Fraction(0))
        if m.split_on:
            return weighted, [" + ".join(f"{sum(r)}/{n}·{m.name}({','.join(map(str, r))})" for r in table)], [], None
        parent = impurity([sum(c) for c in zip(*table)])
        decrease = parent - weighted
        if m.name == "Improvement":
            return decrease * n, [f"{n} × {_exact_text(_simplify(decrease))}"], [], None
        return decrease, [f"{m.impurity}({','.join(map(str, (sum(c) for c in zip(*table))))}) - "
                          f"[{' + '.join(f'{sum(r)}/{n}·{m.impurity}({chr(44).join(map(str, r))})' for r in table)}]"], \
            [], ("-", parent, weighted)

    def split_table(self, m: _Measure, quantity):
        """CART: the class counts of the two branches of the split a measure is of (a split written out,
        on the node's rows with its value known, or the feature's best split at the node)."""
        if m.split is None:
            return self.candidate(m.fixed, m.split_on or m.left[0], quantity).table
        rows = self.rows(m.fixed)
        f, v = m.split
        side = rows & self.grower.side_mask(*_as_cond(f, v))
        other = rows & ~side & (self.columns[f] >= 0)
        count = self.stats if self.regression else self.class_counts
        return count(side), count(other)
