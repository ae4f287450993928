"""rpart's costs on a CART criterion: class priors and a loss matrix (``parms``: altered priors
for the split, the loss for the risk and the predicted class) and per-variable costs
(``cost=``: an improvement divided by its feature's cost), all exact rationals."""

from __future__ import annotations

import copy
from fractions import Fraction

from .errors import InfotreeError
from .impurities import Entropy, Gini


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
