"""CART's criteria: the impurity family (:class:`Impurity`: Gini, entropy, misclassification) and
squared error (rpart's anova), each scoring binary splits by the decrease of n·I."""

from __future__ import annotations

from fractions import Fraction

from .forms import entropy_form, gini_form, misclassification_form, sse_form
from .measures import entropy, gini, misclassification, sum_of_squares
from .routing import SURROGATES
from .criterion import Choice, Criterion, _compare, _first_best


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
