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

The base class and a decision are in :mod:`infotree.criterion`; ID3's and C4.5's criteria
are here, CART's in :mod:`infotree.impurities`, rpart's rate methods in
:mod:`infotree.rates` and rpart's costs in :mod:`infotree.costed`.  Adding a criterion is
one class, one line in :data:`CRITERIA` and its tests;
the reference builder (:mod:`infotree.grow.reference`) grows trees with any
criterion, the level-wise builder with those it has a kernel for.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import InfotreeError
from .routing import FRACTIONAL_WEIGHTS
from .costed import CostedEntropy, CostedGini, with_costs, with_variable_costs
from .criterion import Choice, Criterion, _bits, _compare, _first_best
from .impurities import Entropy, Gini, Impurity, Misclassification, SquaredError
from .rates import Exponential, Poisson

__all__ = ["ALGORITHMS", "CRITERIA", "C45GainRatio", "Choice", "CostedEntropy", "CostedGini", "Criterion", "Entropy",
           "Exponential", "GainRatio", "Gini", "Impurity", "InformationGain", "Misclassification", "Poisson",
           "SquaredError", "criterion_named",
           "with_costs", "with_variable_costs"]


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
