"""Typed records of what was computed at a node and why.

Frozen dataclasses: a candidate feature with its branches (the exact measures are
computed from the counts when first asked for, by :mod:`infotree.measures`), and the
decisions of pruning.  Records never format themselves: printers dispatch on their
type.  A criterion's decision is a :class:`~infotree.criteria.Choice`; a node's stop
reason is its ``stop`` code (see :data:`infotree.printers.reasons.STOPS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from .exact import Exact, Ratio
from .measures import (
    conditional_entropy_from_table,
    entropy,
    information_gain_from_table,
    split_information_from_table,
)

__all__ = ["BinaryCandidate", "Branch", "Candidate", "Complexity", "CostComplexity", "CpRow", "CpTable", "Evaluation",
           "Pessimistic", "PruningPath", "PruningStep", "ReducedError", "RegressionCandidate", "Surrogate", "WeakestLink"]


@dataclass(frozen=True)
class Branch:
    """One branch of a candidate: its label, class counts, and H(Y|X=x)."""

    value: str
    counts: tuple  # ints (or exact Fractions: C4.5 weights), class order

    @property
    def n(self):
        return sum(self.counts)

    @property
    def entropy(self) -> Exact | None:
        """H(Y|X=x), or None for an empty branch."""
        return entropy(self.counts) if self.n else None


@dataclass(frozen=True, eq=False)
class Candidate:
    """A candidate feature at a node, with its exact measures (computed on demand).

    ``table`` holds one tuple of class counts per branch (the rows whose value is
    known); ``unknown`` the class counts of the rows whose value is missing (C4.5),
    or None.  A numeric feature has its best cut's ``threshold`` (branches ``<= t``
    and ``> t``) and ``n_cuts``, the number of cuts evaluated; ``mdl`` subtracts
    C4.5's log2(n_cuts)/n from the gain.
    """

    feature: str
    index: int
    table: tuple
    values: tuple
    passes_average_gain: bool | None = None
    valid: bool = True
    unknown: tuple | None = None
    threshold: Fraction | None = None
    n_cuts: int | None = None
    mdl: bool = False
    #: the two-level gain with lookahead 1 (:mod:`infotree.lookahead`), None without lookahead
    lookahead: object = None
    branches: list = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "branches", [Branch(v, r) for v, r in zip(self.values, self.table)])

    @property
    def n(self):
        """The node's weight: known rows plus rows with a missing value."""
        return sum(map(sum, self.table)) + (sum(self.unknown) if self.unknown else 0)

    @property
    def known_fraction(self) -> Fraction:
        """Share of the node's weight whose value is known (1 without missing values)."""
        return Fraction(1) if not self.unknown else Fraction(sum(map(sum, self.table))) / self.n

    @property
    def mdl_penalty(self) -> Exact:
        """C4.5's log2(number of cuts) / n for a numeric feature, else 0."""
        if not self.mdl or not self.n_cuts or self.n_cuts < 2:
            return Exact(0)
        return Exact.log2(self.n_cuts) / Fraction(self.n)

    @cached_property
    def conditional_entropy(self) -> Exact:
        return conditional_entropy_from_table(self.table)

    @cached_property
    def gain(self) -> Exact:
        """IG on the known rows × the known fraction, less the MDL term (C4.5 numeric)."""
        g = information_gain_from_table(self.table)
        if self.unknown:
            g = g * self.known_fraction
        return g - self.mdl_penalty if self.mdl else g

    @cached_property
    def split_info(self) -> Exact:
        """Entropy of the branch weights; the missing values are one more branch (C4.5)."""
        return split_information_from_table(self.table + ((self.unknown,) if self.unknown else ()))

    @cached_property
    def gain_ratio(self) -> Ratio | None:
        """IG / SplitInfo, or None when the split information is 0 (undefined)."""
        si = self.split_info
        return Ratio(self.gain, si) if si else None

    @cached_property
    def lookahead_ratio(self) -> Ratio | None:
        """The two-level gain / SplitInfo (what a gain-ratio criterion ranks by under lookahead)."""
        si = self.split_info
        return Ratio(self.lookahead, si) if si and self.lookahead is not None else None


@dataclass(frozen=True, eq=False)
class BinaryCandidate:
    """A feature's best binary split at a node (CART): a threshold or a subset.

    ``table`` is (left class counts, right class counts); ``criterion`` the impurity
    criterion that scored it (:class:`~infotree.criteria.Impurity`); ``n_tried`` the
    number of thresholds or subsets compared (those leaving min_leaf rows each side);
    ``ties`` the other splits of the same feature with exactly the same decrease.
    """

    feature: str
    index: int
    split: object
    table: tuple
    criterion: object
    n_tried: int
    ties: tuple = ()
    valid: bool = True
    passes_average_gain: None = None
    unknown: tuple | None = None
    #: with ``every_split``: (split, table) of every threshold or subset tried, in order
    every: tuple = ()
    #: the two-level decrease with lookahead 1 (:mod:`infotree.lookahead`), None without lookahead
    lookahead: object = None

    @property
    def values(self) -> tuple:
        return self.split.labels

    def every_split(self) -> list:
        """One record per split the feature tried (``every_split``), each scored as this one."""
        return [type(self)(self.feature, self.index, s, t, self.criterion, 1, unknown=self.unknown)
                for s, t in self.every]

    @property
    def threshold(self):
        return getattr(self.split, "threshold", None)

    @property
    def branches(self) -> list:
        return [Branch(v, r) for v, r in zip(self.values, self.table)]

    @property
    def n(self):
        """The weight of the rows with the feature known."""
        return sum(map(self.criterion.weight, self.table))

    @cached_property
    def impurities(self) -> tuple:
        """I(left), I(right): each child's impurity (None for an empty child)."""
        return tuple(self.criterion.impurity(r) if any(r) else None for r in self.table)

    @cached_property
    def weighted(self):
        """The children's impurity as the criterion weighs it: (n_L/n)·I(left) + (n_R/n)·I(right)
        (regression: SSE(left) + SSE(right))."""
        return self.criterion.weighted(self.table)

    @cached_property
    def decrease(self):
        """I(node) − the weighted child impurity, over the rows with the feature known."""
        parent = [sum(c) for c in zip(*self.table)]
        return self.criterion.impurity(parent) - self.weighted

    @cached_property
    def improvement(self):
        """rpart's improvement: n × the decrease (class); the decrease over the node's SSE (anova)."""
        return self.criterion.improvement(self)

    @property
    def known(self) -> tuple:
        """The counts (regression: n, Σy, Σy²) of the rows with the feature known, both sides."""
        return tuple(a + b for a, b in zip(*self.table))

    @cached_property
    def known_impurity(self):
        """I of the rows with the feature known, from which the decrease is taken."""
        return self.criterion.impurity(self.known)


@dataclass(frozen=True)
class RegressionCandidate(BinaryCandidate):
    """A feature's best binary split of a regression node: ``table`` holds each side's
    statistics (n, Σy, Σy²), exact; ``unknown`` those of the rows with the feature missing."""

    @property
    def sizes(self) -> tuple:
        return tuple(r[0] for r in self.table)

    @cached_property
    def node_sse(self):
        """SSE of the whole node, the rows with the feature missing included: rpart's
        denominator of the improvement."""
        stats = [sum(c) for c in zip(*self.table, *(() if self.unknown is None else (self.unknown,)))]
        return self.criterion.impurity(stats)

    @property
    def means(self) -> tuple:
        """ȳ of each side (None for an empty side)."""
        return tuple(Fraction(r[1]) / r[0] if r[0] else None for r in self.table)


@dataclass(frozen=True)
class Pessimistic:
    """C4.5's error-based pruning at a node: the three estimates (floats) and the action.

    ``action`` is ``"leaf"``, ``"kept"`` or ``"raised"``; ``largest`` the largest
    branch as (feature, operator, value); ``raised_from`` the (feature, branch) step
    of the branch that replaced the node; ``after_raising`` the record of the raise
    that preceded this decision at the same node.
    """

    action: str
    leaf: float
    subtree: float
    largest_branch: float
    largest: tuple
    confidence: float
    raised_from: tuple | None = None
    after_raising: "Pessimistic | None" = None


@dataclass(frozen=True)
class ReducedError:
    """Reduced-error pruning at a node: exact validation errors as a leaf and as a subtree."""

    action: str
    validation_leaf: Fraction
    validation_subtree: Fraction
    validation_weight: Fraction


@dataclass(frozen=True)
class Complexity:
    """rpart's cp rule at a node (exact): R(t) the node's risk (misclassified rows),
    ``bound`` the complexity bound it inherited, ``alpha`` = cp·R(root).

    ``action``: ``"not tried"`` (R(t) or the bound ≤ α: rpart never splits it),
    ``"collapsed"`` (its subtree's complexity (R(t) − R(subtree)) / splits ≤ α) or
    ``"kept"``; ``complexity`` is the subtree's value (None when not tried).
    """

    action: str
    risk: Fraction
    bound: Fraction
    alpha: Fraction
    complexity: Fraction | None = None
    subtree_risk: Fraction | None = None
    splits: int | None = None


@dataclass(frozen=True, eq=False)
class WeakestLink:
    """An internal node t cut in weakest-link pruning, with the numbers that decided it.

    ``risk`` R(t) (t as a leaf), ``subtree_risk`` R(T_t) and ``leaves`` |leaves(T_t)| of
    its branch in the tree it was cut from, and ``alpha`` = (R(t) − R(T_t)) / (leaves − 1).
    """

    node: object
    risk: object
    subtree_risk: object
    leaves: int
    alpha: object


@dataclass(frozen=True)
class PruningStep:
    """T_k ⊃ T_{k+1}: every node whose α is the smallest is cut (``links``, pre-order); the
    new tree has ``leaves`` leaves and risk ``risk``."""

    alpha: object
    links: tuple
    leaves: int
    risk: object


@dataclass(frozen=True, eq=False)
class PruningPath:
    """The weakest-link sequence of a grown tree, T0 ⊃ T1 ⊃ … ⊃ the root.

    ``risk`` names the risk (``"rpart"``: misclassified weight or squared error;
    ``"impurity"``: scikit-learn's N_t/N · impurity(t)), ``title`` says it in words;
    ``root_risk`` is R(root), ``leaves`` and ``tree_risk`` those of T0.
    """

    tree: object
    risk: str
    title: str
    root_risk: object
    leaves: int
    tree_risk: object
    steps: tuple


@dataclass(frozen=True)
class CostComplexity:
    """Cost-complexity pruning at a node of T0: ``alpha`` is the α pruned at, ``link``
    the node's own weakest-link record (the α at which the sequence cuts it);
    ``action`` ``"collapsed"`` (link.alpha ≤ alpha) or ``"kept"``."""

    action: str
    alpha: object
    link: WeakestLink


@dataclass(frozen=True)
class CpRow:
    """A row of rpart's cp table: the subtree of ``nsplit`` splits, optimal for cp from
    ``cp`` up to the row above's.  ``cp`` = α / R(root), ``rel_error`` = R(subtree) / R(root);
    ``xerror`` (exact) and ``xstd`` (a :class:`~infotree.roots.SquareRoot`) with folds."""

    cp: object
    nsplit: int
    rel_error: object
    alpha: object
    xerror: object = None
    xstd: object = None


@dataclass(frozen=True, eq=False)
class CpTable:
    """rpart's cp table (``printcp``) with exact values: ``rows`` (largest cp first),
    ``path`` the weakest-link sequence it was read from, ``folds`` and ``seed`` of the
    cross-validation (None without), ``best`` the row of least xerror (the first, the
    smallest tree, on a tie) and ``one_se`` the first row whose xerror is at most the
    least xerror plus its xstd (the 1-SE rule), as indices into ``rows``; ``sequence``
    ``"weakest-link"`` (exact) or ``"rpart"`` (rpart's bookkeeping), and ``other`` the
    other sequence's rows (CP, nsplit, rel error) when they differ, else None."""

    rows: tuple
    path: PruningPath
    cp: object
    folds: int | None = None
    seed: int | None = None
    best: int | None = None
    one_se: int | None = None
    sequence: str = "weakest-link"
    other: tuple | None = None


@dataclass(frozen=True)
class Evaluation:
    """How well a way of growing trees predicts rows it was not grown on (exact).

    ``how`` says on which rows (a test file, or K folds and the seed); ``total`` is the
    number of rows predicted and ``leaves`` the mean number of leaves of the trees.
    Classification: ``classes`` (the confusion matrix's order), ``confusion`` (rows:
    actual class, columns: predicted), ``correct``, ``accuracy``, ``precision`` and
    ``recall`` per class (None where undefined: nothing predicted, or no such row).
    Regression: ``mse`` and ``r2`` (None when every actual value is the same).
    """

    how: str
    total: object
    leaves: object
    classes: tuple | None = None
    confusion: tuple | None = None
    correct: object = None
    accuracy: object = None
    precision: tuple | None = None
    recall: tuple | None = None
    mse: object = None
    r2: object = None


@dataclass(frozen=True)
class Surrogate:
    """A surrogate split of a CART node (see :mod:`infotree.surrogates`).

    ``test`` is a threshold (``sides``: the primary direction, 0 left or 1 right, of its
    branches ``<= t`` and ``> t``) or a subset (``test.left`` goes left, ``rights`` right,
    other values have no direction).  ``agreed`` rows of the ``total`` with the primary
    known go the primary's way; ``majority`` of them go its majority way; ``routed`` is
    how many training rows with the primary missing it sent down.
    """

    feature: str
    index: int
    test: object
    sides: tuple | None
    rights: frozenset | None
    agreed: int
    total: int
    majority: int
    routed: int = 0

    @property
    def agree(self) -> Fraction:
        return Fraction(self.agreed, self.total)

    @property
    def adj(self) -> Fraction:
        return Fraction(self.agreed - self.majority, self.total - self.majority)

    def direction(self, value):
        """The primary direction (0 or 1) a known value of this feature sends a row, or None."""
        if self.sides is not None:
            return self.sides[self.test.route(value)]
        return 0 if value in self.test.left else 1 if value in self.rights else None
