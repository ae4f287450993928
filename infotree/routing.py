"""Where a row whose split value is missing goes: one policy object, used everywhere.

C4.5's fractional weights (Quinlan; Weka's ``Distribution.addInstWithUnknown``): the
row goes down every branch, its weight multiplied by the branch's share of the
known weight.  The same shares serve growing (the builders), pruning (rows sent down
again) and prediction (a leaf's class weights combined), so they are computed here
and nowhere else.  CART's surrogate splits (rpart's ``nodesplit.c``) are the second policy.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["FRACTIONAL_WEIGHTS", "FractionalWeights", "SURROGATES", "Surrogates"]


class FractionalWeights:
    """C4.5's rule for missing values: every branch, by its share of the known weight."""

    name = "fractional"

    @staticmethod
    def shares(known) -> list[Fraction]:
        """Each branch's share of the known weight ``known`` (one weight per branch).

        With no known weight at all (a raised subtree can meet such rows) the shares
        are equal, as Weka's ``Distribution`` spreads them.
        """
        total = sum(known)
        if not total:
            return [Fraction(1, len(known))] * len(known)
        return [Fraction(k) / total for k in known]

    @staticmethod
    def spread(weight, shares):
        """(branch, weight × share) for every branch with a positive share."""
        return [(b, weight * s) for b, s in enumerate(shares) if s]


FRACTIONAL_WEIGHTS = FractionalWeights()


class Surrogates:
    """CART's rule for a missing primary value (rpart's ``usesurrogate``): 0, the row stays
    in the node; 1, the first surrogate whose value is known (and gives a direction)
    decides; 2, as 1, and a row no surrogate placed follows the majority of the rows, or
    stays on a tie.  A row that stays is counted in the node and in no child."""

    name = "surrogates"

    @staticmethod
    def route(node, value_of, use) -> tuple:
        """(branch 0 or 1, or None to stay; the index of the surrogate that decided, or None
        for the majority) of a row whose primary value is missing; ``value_of(j)`` is the
        row's value of feature j, None when missing."""
        if use >= 1:
            for i, s in enumerate(node.surrogates):
                v = value_of(s.index)
                if v is not None:
                    d = s.direction(v)
                    if d is not None:
                        return d, i
        return (node.majority if use == 2 else None), None

    @staticmethod
    def predicted(node, value_of, use) -> tuple:
        """As :meth:`route`, for prediction as rpart's ``predict`` does it (``pred_rpart.c``): a row no
        surrogate placed follows the child with more training rows (all of them, those the
        surrogates and the majority sent included), and stays on a tie.  Growing and
        cross-validation follow the primary's majority instead (:meth:`route`, rpart's
        ``lastsurrogate``); the two differ when the surrogates sent more rows one way than the
        primary's majority did the other, and where the primary's rows tie."""
        side, by = Surrogates.route(node, value_of, min(use, 1))
        if side is None and use == 2:
            left, right = (child.n for child in node.children)
            side = None if left == right else 0 if left > right else 1
        return side, by


SURROGATES = Surrogates()
