"""Split criteria: how a node's candidate splits are scored and one is chosen.

A criterion is an object with one small protocol, found by name in :data:`CRITERIA`:

``name``, ``title``, ``algorithm``
    Its name (the API's ``criterion=``, JSON and saved models), the rule in words (a
    split node's reason: "maximal information gain") and the family it belongs to
    (``id3``, ``c45`` or ``cart``: the CLI's ``--algorithm``).
``ratio``
    True when it ranks by gain ratio (printers then show IG / SplitInfo).
``considers_used``
    True when a nominal feature already tested on the path stays a candidate
    (J48 looks at every feature at every node; ID3 drops the path's features).
``missing``
    The :mod:`routing <infotree.routing>` of rows whose value is missing, or None
    when the criterion refuses missing values.
``threshold``, ``collapse``
    Its defaults for numeric cuts (``"data"`` or ``"midpoint"``) and for C4.5's
    collapse of subtrees that do not reduce training errors.
``reads_numbers``
    True when a CSV column of numbers is numeric by default (C4.5 cuts it).
``mdl``
    True when a numeric candidate's gain loses C4.5's log2(cuts)/n.
``regression``
    True when the target is a number (a node keeps n, Σy, Σy² and predicts the mean).
``binary``
    True for CART's binary splits (a threshold, or a subset of a nominal feature's
    values against the rest), False for one branch per value.
``scores_m_of_n``
    True when M-of-N tests are grown and scored by it (``m_of_n=True``: information gain).
``cut_key(table)``
    What a numeric feature's best cut minimises: H(Y|cut), or CART's weighted child
    impurity.
``min_split(known, known_cases, classes, params)``
    The least weight each side of a numeric cut must keep (0: any cut).
``n_impurity_floats``, ``improvement_error``, ``n_impurity_ratio``, ``n_impurity_exact``
    (CART's impurities): n·I of many count vectors in floats, a bound on a float
    improvement's error, and n·I exactly, for the fast builder's certified filter.
``choose(node, candidates, context) -> Choice``
    The exact selection among the node's candidate records: a feature and the
    features tied with it, or a stop reason.  Ties go to the first feature in
    column order and are recorded.

Adding a criterion is one class here, one line in :data:`CRITERIA` and its tests;
the reference builder (:mod:`infotree.grow.reference`) grows trees with any
criterion, the level-wise builder with those it has a kernel for.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction

from .errors import InfotreeError
from .lnpoly import LnPoly
from .forms import entropy_form, gini_form, misclassification_form, sse_form
from .measures import conditional_entropy_from_table, entropy, gini, misclassification, sum_of_squares
from .routing import FRACTIONAL_WEIGHTS, SURROGATES

__all__ = ["ALGORITHMS", "CRITERIA", "C45GainRatio", "Choice", "CostedEntropy", "CostedGini", "Criterion", "Entropy",
           "Exponential", "GainRatio", "Gini", "Impurity", "InformationGain", "Misclassification", "Poisson",
           "SquaredError", "criterion_named",
           "with_costs", "with_variable_costs"]


@dataclass(frozen=True)
class Choice:
    """A criterion's decision at a node: the split feature and its exact ties, or a stop.

    ``valid`` and ``gain_ok`` (C4.5) are the features that passed J48's minimum-branch
    and average-gain tests, as bit masks over the features (None when not asked).
    """

    feature: int | None = None
    ties: tuple = ()
    stop: str | None = None
    valid: int | None = None
    gain_ok: int | None = None


def _bits(features) -> int:
    out = 0
    for j in features:
        out |= 1 << j
    return out


def _first_best(cands, key, compare):
    """The first candidate (column order) of maximal key, and every one exactly equal to it."""
    best, best_v, tied = None, None, []
    for c in cands:
        v = key(c)
        if best is None:
            best, best_v = c, v
            continue
        order = compare(v, best_v)
        if order > 0:
            best, best_v, tied = c, v, []
        elif order == 0:
            tied.append(c)
    return best, tuple(c.index for c in tied)


def _compare(a, b) -> int:
    return (a > b) - (a < b)


class Criterion:
    """The protocol (see the module docstring); subclasses set the class attributes."""

    name = title = algorithm = ""
    ratio = False
    considers_used = False
    missing = None
    threshold = "midpoint"
    collapse = False
    reads_numbers = False
    mdl = False
    binary = False
    scores_m_of_n = False
    #: True for a regression criterion: a node's "counts" are then its statistics
    #: (weight, Σy, Σy²) rather than one count per class
    regression = False

    def min_split(self, known, known_cases, classes, params):
        return 0

    @staticmethod
    def label(counts) -> int:
        """The class a node predicts: the most frequent, the first on a tie."""
        return counts.index(max(counts))

    @staticmethod
    def loss_of(truth, predicted):
        """A held-out row's loss (rpart's xval): 0/1."""
        return Fraction(int(truth != predicted))

    def pure(self, counts) -> bool:
        """Nothing left to split: at most one class present."""
        return sum(1 for c in counts if c) <= 1

    def cut_key(self, table):
        return conditional_entropy_from_table(table)

    def choose(self, node, cands, context) -> Choice:
        """Among the candidates that separate the rows (two non-empty branches) and are
        not used on the path: the best score, first in column order."""
        eligible = [c for c in cands if context.eligible(c)]
        if not eligible:
            return Choice(stop="no_features" if context.all_used else "no_separation")
        best, ties = self.best(eligible)
        return Choice(best.index, ties)

    def best(self, cands):
        raise NotImplementedError

    def __repr__(self):
        return f"<criterion {self.name}>"


class InformationGain(Criterion):
    """ID3: maximal IG = H(Y) − H(Y|X); an impure node splits even at zero gain."""

    name = "gain"
    algorithm = "id3"
    title = "maximal information gain"
    scores_m_of_n = True

    def best(self, cands):
        return _first_best(cands, lambda c: c.gain, _compare)


class GainRatio(Criterion):
    """Maximal gain ratio IG / SplitInfo, with no filter (as many lecture notes define it)."""

    name = "gain_ratio_plain"
    algorithm = "id3"
    title = "maximal gain ratio"
    ratio = True

    def best(self, cands):
        return _first_best(cands, lambda c: c.gain_ratio, lambda a, b: a.compare(b))


class C45GainRatio(GainRatio):
    """C4.5 as Weka's J48 defines it (``docs/c45_rules.md``).

    A node with fewer than 2·min_objects rows is a leaf; a feature is *valid* when at
    least two branches get min_objects rows (a numeric one when its cut's gain, less
    log2(cuts)/n, is positive); the average gain is taken over the valid features
    (those with fewer than 0.3·N declared values, unless every feature has that
    many); the winner has maximal gain ratio among valid features whose gain is at
    least that average less ``average_gain_slack``, and a positive gain.
    """

    name = "gain_ratio"
    algorithm = "c45"
    title = "maximal gain ratio among features with at least average gain"
    considers_used = True
    missing = FRACTIONAL_WEIGHTS
    threshold = "data"
    collapse = True
    reads_numbers = True
    mdl = True

    def min_split(self, known, known_cases, classes, params):
        """J48's minSplit: 0.1·known weight / classes, between min_objects and 25; None
        when fewer than twice that many cases (J48 counts cases here, not weight)."""
        mo = params["min_objects"]
        ms = Fraction(known) / (10 * classes)
        ms = mo if ms <= mo else (25 if ms > 25 else ms)
        return None if known_cases < 2 * ms else ms

    def choose(self, node, cands, context) -> Choice:
        p = context.params
        mo = p["min_objects"]
        if node.n < 2 * mo:
            return Choice(stop="too_few")
        valid = [c for c in cands if (c.gain > 0 if c.threshold is not None
                                      else sum(1 for b in c.table if sum(b) >= mo) >= 2)]
        valid_bits = _bits(c.index for c in valid)
        if not valid:
            return Choice(stop="no_valid", valid=valid_bits)
        counted = [c for c in valid if context.in_average[c.index]]
        if not counted:
            return Choice(stop="no_average", valid=valid_bits)
        average = sum((c.gain for c in counted[1:]), counted[0].gain) / len(counted)
        ok = [c for c in valid if c.gain >= average - p["average_gain_slack"]]
        positive = [c for c in ok if c.gain > 0]
        if not positive:
            return Choice(stop="no_positive_ratio", valid=valid_bits, gain_ok=_bits(c.index for c in ok))
        best, ties = self.best(positive)
        return Choice(best.index, ties, valid=valid_bits, gain_ok=_bits(c.index for c in ok))


class Impurity(Criterion):
    """CART (Breiman et al. 1984; rpart): binary splits scored by the decrease of a node
    impurity I, ΔI = I(node) − (n_L/n)·I(left) − (n_R/n)·I(right).

    Numeric features are cut at the midpoint of adjacent distinct values; nominal ones
    split into a subset of their values against the rest.  Each side keeps at least
    ``min_leaf`` rows.  The winner has the largest decrease (a positive one), the first
    feature in column order on an exact tie.  A feature may split again below.
    """

    binary = True
    considers_used = True
    reads_numbers = True
    algorithm = "cart"
    missing = SURROGATES

    #: the impurity's name in formulas (``Gini``) and its textbook form of counts
    symbol = "I"
    form = None

    def impurity(self, counts):
        raise NotImplementedError

    def min_split(self, known, known_cases, classes, params):
        return params.get("min_leaf", 1)

    # The fast builder (infotree.grow.cart) scores every cut of a depth at once through
    # n·I(counts), the impurity times the count: in floats with a certified bound, and
    # exactly only where the bounds cannot separate.  improvement = n·I(parent) −
    # n_L·I(left) − n_R·I(right).
    @staticmethod
    def n_impurity_floats(cols, n=None):
        """n·I of many count vectors, given as one float array of counts per class (exact
        integers), in floats; ``n``: their sums when known (then all positive)."""
        raise NotImplementedError

    @staticmethod
    def improvement_error(n, classes):
        """A bound on the error of a float improvement n·I(P) − n·I(L) − n·I(R) made from
        n_impurity_floats, for parents of n rows (an array)."""
        raise NotImplementedError

    @staticmethod
    def n_impurity_ratio(counts):
        """n·I of each row of an integer count matrix as exact (numerators, denominators),
        arrays of Python ints; None when it is no rational (entropy)."""
        return None

    def n_impurity_exact(self, rows) -> list:
        """n·I of each row (tuples of int counts), exact."""
        return [self.impurity(r) * sum(r) if any(r) else 0 for r in rows]

    def cut_key(self, table):
        return self.weighted(table)

    @staticmethod
    def weight(counts):
        """A node's weight (its number of rows without sample weights)."""
        return sum(counts)

    def weighted(self, table):
        """(n_L/n)·I(left) + (n_R/n)·I(right): the children's impurity weighted by their shares."""
        n = sum(map(sum, table))
        return sum((Fraction(sum(r), n) * self.impurity(r) for r in table if any(r)), Fraction(0))

    def improvement(self, candidate):
        """rpart's improvement: n × the decrease, over the rows with the feature known."""
        return candidate.decrease * candidate.n

    def risk(self, counts):
        """R(t), the node's resubstitution risk as rpart's cp counts it: its misclassified weight."""
        return sum(counts) - max(counts)

    def side_mean(self, counts):
        """What rpart compares to put a side on the left: the mean class index Σ c·p_c."""
        return sum(c * Fraction(k) for c, k in enumerate(counts)) / sum(counts)

    def subset_order(self, counts):
        """Breiman's ordering for a subset split with two classes: each value's share of the
        first class (its k − 1 prefixes hold the best subset); None with more classes,
        where every subset is compared."""
        return Fraction(counts[0]) / sum(counts) if len(counts) == 2 else None

    def choose(self, node, cands, context) -> Choice:
        positive = [c for c in cands if c.decrease > 0]
        if not positive:
            return Choice(stop="no_decrease" if cands else "no_split")
        # rpart ranks by improvement (class: n × decrease over the rows with the feature
        # known; anova: the decrease over the node's SSE, one denominator for all)
        best, ties = _first_best(positive, lambda c: c.improvement, _compare)
        return Choice(best.index, ties)


class Gini(Impurity):
    """The Gini index 1 − Σ p² (CART's and rpart's default)."""

    name = "gini"
    title = "maximal Gini decrease"
    symbol = "Gini"
    form = staticmethod(gini_form)
    impurity = staticmethod(gini)

    @staticmethod
    def cut_floats(left, right):
        """``cut_key`` of many cuts at once in floats, with a bound on the error: integer
        count matrices (cuts × classes); n·key = n − ΣL²/n_L − ΣR²/n_R."""
        import numpy as np

        lf, rf = left.astype(np.float64), right.astype(np.float64)
        nl, nr = lf.sum(axis=1), rf.sum(axis=1)
        n = nl + nr
        with np.errstate(divide="ignore", invalid="ignore"):
            sl = np.where(nl > 0, (lf * lf).sum(axis=1) / nl, 0.0)
            sr = np.where(nr > 0, (rf * rf).sum(axis=1) / nr, 0.0)
        value = (n - sl - sr) / n
        # Each sum of squares is exact below 2^53; a few roundings of size n·2^-53 remain.
        bound = (left.shape[1] + 8) * 2.0 ** -52 * (n + sl + sr) / n + 1e-300
        return value, bound

    @staticmethod
    def n_impurity_floats(cols, n=None):
        """n − Σc²/n."""
        import numpy as np

        sq = cols[0] * cols[0]
        for c in cols[1:]:
            sq += c * c
        if n is not None:
            return n - sq / n
        n = cols[0] + cols[1]
        for c in cols[2:]:
            n = n + c
        with np.errstate(divide="ignore", invalid="ignore"):
            q = sq / n
        q[n == 0] = 0.0
        return n - q

    @staticmethod
    def improvement_error(n, classes):
        """Σc² is exact below 2^53 (counts below 2^26); each n·I (at most n) is off by a
        division's and a subtraction's rounding, 2^-52·2n; two more subtractions: below
        2^-49·n in all."""
        return 2.0 ** -47 * n

    @staticmethod
    def n_impurity_ratio(counts):
        c = counts.astype(object)
        n = c.sum(axis=1)
        return n * n - (c * c).sum(axis=1), n


class Entropy(Impurity):
    """Entropy −Σ p·log2 p as a CART impurity (rpart's ``split = "information"``)."""

    name = "entropy"
    title = "maximal entropy decrease"
    symbol = "H"
    form = staticmethod(entropy_form)
    impurity = staticmethod(entropy)

    @staticmethod
    def n_impurity_floats(cols, n=None):
        """F(n) − ΣF(c) with F(a) = a·log2 a."""
        import numpy as np

        def F(a):
            return a * np.log2(np.maximum(a, 1.0))

        if n is None:
            n = cols[0] + cols[1]
            for c in cols[2:]:
                n = n + c
        fc = F(cols[0])
        for c in cols[1:]:
            fc += F(c)
        return F(n) - fc

    @staticmethod
    def improvement_error(n, classes):
        """Each F within a few units of roundoff (np.log2 may differ from the exact value
        by an ulp or two), each sum one more; ΣF(c) ≤ F(n), so each n·I is off by less
        than (classes + 8)·2^-49·F(n); three of them and two subtractions."""
        import numpy as np

        return (classes + 10) * 2.0 ** -46 * n * np.log2(np.maximum(n, 2.0))


class Misclassification(Impurity):
    """The misclassification error 1 − max p as a CART impurity."""

    name = "misclassification"
    title = "maximal misclassification decrease"
    symbol = "Err"
    form = staticmethod(misclassification_form)
    impurity = staticmethod(misclassification)

    @staticmethod
    def n_impurity_floats(cols, n=None):
        """n − max c: integers, exact in floats."""
        import numpy as np

        top = np.maximum(cols[0], cols[1])
        for c in cols[2:]:
            top = np.maximum(top, c)
        if n is None:
            n = cols[0] + cols[1]
            for c in cols[2:]:
                n = n + c
        return n - top

    @staticmethod
    def improvement_error(n, classes):
        """Sums and differences of integers below 2^53: exact."""
        return 0.0 * n

    @staticmethod
    def n_impurity_ratio(counts):
        import numpy as np

        c = counts.astype(object)
        return c.sum(axis=1) - c.max(axis=1), np.ones(len(c), dtype=object)


class SquaredError(Impurity):
    """Regression (rpart's ``method = "anova"``): a node predicts the mean of its rows, and
    its impurity is their sum of squared errors SSE = Σ(y − ȳ)² = Σy² − (Σy)²/n.

    A node's statistics are (n, Σy, Σy²), exact (sample weights: Σw, Σw·y, Σw·y²).  A
    split is scored by its decrease SSE(node) − SSE(left) − SSE(right) over the rows with
    the feature known, and rpart's improvement is that decrease over the whole node's SSE.
    Nominal values are ordered by their mean (the ordering theorem holds for SSE: the best
    subset is one of the k − 1 prefixes).  R(t) for cp is the SSE.
    """

    name = "squared_error"
    title = "maximal decrease of the sum of squared errors"
    symbol = "SSE"
    regression = True
    form = staticmethod(sse_form)

    impurity = staticmethod(sum_of_squares)

    @staticmethod
    def weight(stats):
        return stats[0]

    def weighted(self, table):
        return sum((self.impurity(r) for r in table if r[0]), Fraction(0))

    def improvement(self, candidate):
        """rpart's anova improvement: the decrease over the whole node's SSE (missing rows included)."""
        return candidate.decrease / candidate.node_sse

    def pure(self, stats) -> bool:
        return self.impurity(stats) == 0

    def risk(self, stats):
        return self.impurity(stats)

    def side_mean(self, stats):
        return Fraction(stats[1]) / stats[0]

    def subset_order(self, stats):
        return Fraction(stats[1]) / stats[0]


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
        out = copy.copy(CRITERIA["poisson"])
        out.shrink = self.shrink
        return out


class _Costed:
    """rpart's ``parms = list(prior, loss)`` on a CART impurity (``gini.c``), exactly.

    With π the priors, L the loss matrix (L[i][j]: the loss of predicting j for a row of
    class i) and f_i the weighted share of class i at the root, a row of class i weighs
    a_i = π_i·Σ_j L[i][j] / (Σ_k π_k·Σ_j L[k][j]) / f_i in the split criterion (rpart's
    altered priors): a node's impurity is I of the proportions a_i·n_i / Σ a·n, its
    weight Σ a·n.  A node's risk is min_j Σ_i n_i·L[i][j]·π_i/f_i and it predicts the
    class j of least risk (the first on a tie); a held-out row of class i predicted j
    loses L[i][j]·π_i/f_i.  With π = f and 0/1 losses every factor is 1.  The factors
    are fixed by the data the tree is grown on; rpart's cross-validation keeps them for
    every fold's tree (``xval.c`` calls the init with who = 2), and so does infotree.
    """

    cut_floats = None   # the float filter reads plain counts

    def __init__(self, prior, loss, freq):
        k = len(prior)
        rows = [sum(r) for r in loss]
        total = sum(p * r for p, r in zip(prior, rows))
        self.prior, self.loss = tuple(prior), tuple(tuple(r) for r in loss)
        self.scale = tuple(p / f if f else p for p, f in zip(prior, freq))
        self.altered = tuple(p * r / total / f if f else p * r / total for p, r, f in zip(prior, rows, freq))
        self.classes = k

    def _alter(self, counts):
        return [a * c for a, c in zip(self.altered, counts)]

    def impurity(self, counts):
        return self.base.impurity(self._alter(counts))

    def weight(self, counts):
        return sum(self._alter(counts))

    def weighted(self, table):
        n = sum(map(self.weight, table))
        return sum((self.weight(r) / n * self.impurity(r) for r in table if any(r)), Fraction(0))

    def _risks(self, counts):
        k = self.classes
        return [sum(counts[i] * self.loss[i][j] * self.scale[i] for i in range(k)) for j in range(k)]

    def risk(self, counts):
        return min(self._risks(counts))

    def label(self, counts):
        r = self._risks(counts)
        return r.index(min(r))

    def loss_of(self, truth, predicted):
        return self.loss[truth][predicted] * self.scale[truth]

    def yprob(self, counts):
        """rpart's class probabilities of a node (``yprob``, what ``predict(type = "prob")``
        gives): each count times its prior over the root's class weight (at least 1),
        normalised; with the data's own priors, the plain shares."""
        w = [c * p / max(1, r) for c, p, r in zip(counts, self.prior, self.root)]
        total = sum(w, Fraction(0))
        return [Fraction(x) / total if total else Fraction(0) for x in w]

    def side_mean(self, counts):
        a = self._alter(counts)
        return sum(c * Fraction(x) for c, x in enumerate(a)) / sum(a)

    def subset_order(self, counts):
        a = self._alter(counts)
        return Fraction(a[0]) / sum(a) if len(a) == 2 else None


class CostedGini(_Costed, Gini):
    """Gini with rpart's priors and losses (:class:`_Costed`)."""

    base = Gini()


class CostedEntropy(_Costed, Entropy):
    """Entropy (rpart's split = "information") with rpart's priors and losses (:class:`_Costed`)."""

    base = Entropy()


def with_costs(crit, classes, counts, prior=None, loss=None):
    """``crit`` with rpart's priors and loss matrix (exact rationals), checked as rpart
    checks them: priors ≥ 0 summing to 1, one per class; a square loss matrix with zeros
    on the diagonal, no negative entry and no row of zeros.  ``counts``: the root's
    weighted class counts.  None for both: ``crit`` itself."""
    if prior is None and loss is None:
        return crit
    costed = {"gini": CostedGini, "entropy": CostedEntropy}.get(crit.name)
    if costed is None:
        raise InfotreeError(f"priors and losses are rpart's, for criterion gini or entropy (split = 'information'), "
                            f"not {crit.name!r}")
    k, n = len(classes), sum(counts)
    freq = [Fraction(c) / n for c in counts]
    if prior is None:
        prior = freq
    else:
        prior = _by_class(prior, classes, "prior")
        if any(p < 0 for p in prior) or sum(prior) != 1:
            raise InfotreeError(f"priors {', '.join(map(str, prior))} are not allowed: each at least 0, summing to 1 "
                                f"(they sum to {sum(prior)})")
    if loss is None:
        loss = [[Fraction(int(i != j)) for j in range(k)] for i in range(k)]
    else:
        loss = [[_rational(x, "loss") for x in row] for row in loss]
        if len(loss) != k or any(len(r) != k for r in loss):
            raise InfotreeError(f"the loss matrix must be {k} x {k} (rows: the true class, columns: the predicted "
                                f"class, in the order {', '.join(classes)})")
        for i, row in enumerate(loss):
            if row[i] != 0:
                raise InfotreeError(f"the loss matrix must have zeros on its diagonal; row {classes[i]!r} has {row[i]}")
            if any(x < 0 for x in row):
                raise InfotreeError(f"the loss matrix cannot have negative entries (row {classes[i]!r})")
            if not any(row):
                raise InfotreeError(f"the loss matrix has a row of zeros (row {classes[i]!r}); rpart refuses it")
    out = costed(prior, loss, freq)
    out.root = tuple(Fraction(c) for c in counts)
    return out


class _VariableCost:
    """rpart's per-variable costs (``cost=``; ``bsplit.c``): a feature's improvement is
    divided by its cost before the features are ranked, and the divided value is the one
    the node records (competitors are listed by it).  A node's risk, its cp and the
    surrogates are not scaled.  ``cost`` holds one positive rational per feature."""

    def improvement(self, candidate):
        return super().improvement(candidate) / self.cost[candidate.index]

    def __reduce__(self):  # the class is made per base criterion: pickle the recipe
        return _attach_costs, (self.plain, self.cost)


def _attach_costs(plain, values):
    costed = copy.copy(plain)
    costed.__class__ = type(f"VariableCost{type(plain).__name__}", (_VariableCost, type(plain)), {})
    costed.plain, costed.cost = plain, tuple(values)
    return costed


def with_variable_costs(crit, features, cost=None):
    """``crit`` with rpart's per-variable costs: ``cost`` a mapping feature -> positive
    rational (features not named cost 1) or a sequence in feature order; None or all 1:
    ``crit`` itself.  A criterion that already carries costs has them replaced."""
    plain = getattr(crit, "plain", crit)
    if cost is None:
        return plain
    if not plain.binary:
        raise InfotreeError(f"per-variable costs are rpart's, for CART criteria; criterion {plain.name!r} is not one")
    if isinstance(cost, dict):
        unknown = [f for f in cost if f not in features]
        if unknown:
            raise InfotreeError(f"cost names feature {unknown[0]!r}; the features are: {', '.join(features)}")
        values = [_rational(cost.get(f, 1), f"cost of {f!r}") for f in features]
    else:
        values = [_rational(v, "cost") for v in cost]
        if len(values) != len(features):
            raise InfotreeError(f"cost has {len(values)} values; the features are {len(features)}")
    for f, v in zip(features, values):
        if v <= 0:
            raise InfotreeError(f"cost {v} of feature {f!r} is not allowed: each cost must be positive (rpart's rule)")
    if all(v == 1 for v in values):
        return plain
    return _attach_costs(plain, values)


def _rational(x, what):
    try:
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InfotreeError(f"{what} {x!r} is not a number; give a rational such as 1/2 or 0.25") from None


def _by_class(values, classes, what):
    """A per-class list from a mapping class -> value or a sequence in class order."""
    if isinstance(values, dict):
        unknown = [c for c in values if c not in classes]
        if unknown:
            raise InfotreeError(f"{what} names class {unknown[0]!r}; classes are: {', '.join(classes)}")
        missing = [c for c in classes if c not in values]
        if missing:
            raise InfotreeError(f"{what} gives no value for class {missing[0]!r}; give one per class")
        return [_rational(values[c], what) for c in classes]
    values = list(values)
    if len(values) != len(classes):
        raise InfotreeError(f"{what} has {len(values)} values; the classes are {len(classes)}: {', '.join(classes)}")
    return [_rational(v, what) for v in values]


#: Every criterion by name.
CRITERIA = {c.name: c for c in (InformationGain(), C45GainRatio(), GainRatio(), Gini(), Entropy(), Misclassification(),
                                SquaredError(), Poisson(), Exponential())}


#: The families, each with its criteria (the first is the family's default).
ALGORITHMS = {a: [n for n, c in CRITERIA.items() if c.algorithm == a] for a in ("id3", "c45", "cart")}


def criterion_named(name) -> Criterion:
    """The criterion called ``name`` (a Criterion passes through); an error lists the names."""
    if isinstance(name, Criterion):
        return name
    c = CRITERIA.get(name)
    if c is None:
        raise InfotreeError(f"unknown criterion {name!r}; allowed: {', '.join(CRITERIA)}")
    return c
