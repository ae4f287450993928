"""rpart's rate methods as criteria: Poisson (events over exposure, rpart's ``poisson``) and the
exponential survival model (``exp``, times rescaled as ``rpart.exp`` does)."""

from __future__ import annotations

import copy
from fractions import Fraction

from .errors import InfotreeError
from .lnpoly import LnPoly
from .impurities import Impurity


class Poisson(Impurity):
    """rpart's ``method = "poisson"``: a node's rows are counts of events ``d`` over an exposure
    ``t`` (rpart's response ``cbind(t, d)``), and it predicts the rate λ = (D + α)/(T + β),
    D = Σw·d and T = Σw·t its weighted events and exposure, shrunk towards the root's rate
    by a gamma prior of coefficient of variation k (``parms = list(shrink = k)``):
    α = 1/k², β = α·T_root/D_root (k = 0: no shrinkage, λ = D/T).

    A node's statistics are (Σw, D, T, S) with S = Σw·d·ln(d/t) (exact), enough for both
    deviances:

    * its risk R(t) (cp, pruning, rel error) is rpart's deviance under the shrunk rate,
      2·[Σw·d·ln(d/(λ·t)) − Σw·(d − λ·t)] = 2·[S − D·ln λ − D + λ·T];
    * a split is scored, as ``poisson.c`` does, with the unshrunk rates: the decrease of the
      deviance about each side's own rate D/T, 2·[D_L·ln(D_L/T_L) + D_R·ln(D_R/T_R) − D·ln(D/T)]
      over the rows with the feature known (S cancels); that decrease is rpart's improvement.

    Every value is a rational plus rational multiples of ln p (:class:`~infotree.lnpoly.LnPoly`),
    equal exactly when the coefficients are and ordered by certified evaluation.  The side of
    the smaller rate goes left; nominal values are ordered by decreasing rate (first value
    first on a tie), as rpart orders them.
    """

    name = "poisson"
    title = "maximal Poisson deviance decrease"
    symbol = "dev"
    risk_name = "deviance"
    regression = True
    #: a node's statistics are (Σw, events, exposure, Σw·d·ln(d/t)): printers show a rate
    counts_events = True
    #: exp (survival): the exposure is the observed time, rescaled before growing
    scales_time = False
    shrink, alpha, beta = Fraction(1), Fraction(0), Fraction(0)
    cut_floats = None

    def bound(self, shrink, events, exposure):
        """This criterion with rpart's prior from the root's events D and exposure T:
        α = 1/shrink², β = α·T/D (shrink 0: none)."""
        out = copy.copy(self)
        out.shrink = Fraction(shrink)
        out.alpha = 1 / out.shrink ** 2 if out.shrink else Fraction(0)
        out.beta = out.alpha * exposure / events if events else Fraction(0)
        return out

    @staticmethod
    def weight(stats):
        return stats[0]

    def rate(self, stats):
        """The node's predicted rate λ = (D + α)/(T + β), exact (rpart's yval)."""
        return (Fraction(stats[1]) + self.alpha) / (stats[2] + self.beta)

    def impurity(self, stats):
        """The deviance about the node's own rate D/T: 2·[S − D·ln(D/T)] (0 without events)."""
        _, d, t, s = stats
        if not d:
            return LnPoly()
        return 2 * (LnPoly.of_sum(s) - d * LnPoly.ln(Fraction(d) / t))

    def risk(self, stats):
        """rpart's node deviance under the shrunk rate λ (``poissondev``)."""
        _, d, t, s = stats
        lam = self.rate(stats)
        if not lam:
            return LnPoly.of_sum(s) * 2
        return 2 * (LnPoly.of_sum(s) - d * LnPoly.ln(lam) - d + lam * t)

    def weighted(self, table):
        return sum((self.impurity(r) for r in table if r[0]), LnPoly())

    def cut_key(self, table):
        """What the best cut minimises: −Σ D_s·ln(D_s/T_s) over the two sides (half the
        deviance of the sides, less the constant Σ S)."""
        return -sum((LnPoly.ln(Fraction(r[1]) / r[2]) * r[1] for r in table if r[1]), LnPoly())

    def improvement(self, candidate):
        """rpart's Poisson improvement: the deviance decrease itself."""
        return candidate.decrease

    def pure(self, stats) -> bool:
        return not self.impurity(stats)

    def side_mean(self, stats):
        return Fraction(stats[1]) / stats[2]

    def subset_order(self, stats):
        return -Fraction(stats[1]) / stats[2]

    def loss_of_row(self, events, exposure, rate):
        """A held-out row's deviance at a node of rate λ (rpart's ``poissonpred``):
        2·[d·ln(d/(λ·t)) − (d − λ·t)]."""
        mu = rate * exposure
        if not events:
            return LnPoly.of(2 * mu)
        if not mu:
            raise InfotreeError("a held-out row with events reaches a node of rate 0: its deviance is infinite "
                                "(grow with a positive shrink)")
        return 2 * (events * LnPoly.ln(Fraction(events) / mu) - events + mu)


class Exponential(Poisson):
    """rpart's ``method = "exp"``: right-censored survival times (time, status) scaled by a
    piecewise exponential fit into expected events (``rpart.exp``), then a Poisson tree of
    the statuses over the scaled times (:mod:`infotree.survival`)."""

    name = "exp"
    title = "maximal Poisson deviance decrease (survival times scaled to expected events)"
    scales_time = True

    def poisson(self):
        """The Poisson criterion of the same shrinkage: what grows on times already rescaled
        (rpart's cross-validation grows each fold's tree on the whole data's rescaled times)."""
        out = Poisson()
        out.shrink = self.shrink
        return out
