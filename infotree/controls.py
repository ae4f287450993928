"""Typed controls: each algorithm's options as one frozen dataclass, with its defaults, its
checks and a line of documentation per field (as rpart's ``rpart.control`` and scikit-learn's
estimator parameters).

:func:`~infotree.growing.build_tree` takes a control (or its fields as keywords, which
:func:`control_for` turns into the criterion's family's control); the CLI's flags, the
estimators' parameters and the JSON model's ``params`` are checked against these fields by
``tests/test_controls.py``, and which options an algorithm takes is read from here
(:func:`families_taking`), not written as ``if`` statements.

    >>> CARTControl(criterion="gini", min_leaf=7, cp="1/100").cp
    Fraction(1, 100)
    >>> control_for(criterion="gain", min_leaf=3)
    Traceback (most recent call last):
    ...
    infotree.errors.InfotreeError: min_leaf applies to CART (criterion gini, entropy, misclassification or squared_error), not to criterion 'gain'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from . import limits
from .criteria import ALGORITHMS, Criterion, criterion_named
from .errors import InfotreeError

__all__ = ["GrowControl", "PruneControl", "ID3Control", "C45Control", "CARTControl", "ForestControl", "CONTROLS",
           "control_for", "families_taking", "field_doc"]

THRESHOLDS = ("data", "midpoint")
PRUNING = ("none", "pessimistic", "reduced-error", "cost-complexity")
BUILDERS = ("auto", "levelwise", "reference")


def _opt(default, doc):
    return field(default=default, metadata={"doc": doc})


def _rational(x, name, example):
    try:
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (TypeError, ValueError):
        raise InfotreeError(f"{name} {x!r} is not a number; give a rational such as {example}") from None


def _set(control, name, value):
    object.__setattr__(control, name, value)  # a frozen dataclass normalising its own field once


def _count(value, name, low, what):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InfotreeError(f"{name} {value!r} is not allowed; give a {what} integer")


@dataclass(frozen=True)
class GrowControl:
    """What every algorithm takes: the criterion, when a node stays a leaf, which builder grows it."""

    criterion: str | Criterion = _opt("gain", "the split criterion (its name, or a Criterion)")
    max_depth: int | None = _opt(None, "a node this deep is a leaf (None: no limit)")
    min_samples_split: int = _opt(2, "a node with fewer rows is a leaf")
    min_gain: Fraction | None = _opt(None, "stop when the best gain is below this (exact rational)")
    stop_at_zero_gain: bool = _opt(False, "do not split on a zero gain (Weka's Id3)")
    threshold: str | None = _opt(None, "numeric cut: 'data' (C4.5, J48) or 'midpoint' (None: the criterion's)")
    lookahead: int = _opt(0, "1: score each feature by its best two-level split; 0: greedy")
    m_of_n: bool = _opt(False, "every split an M-of-N test grown from the best single condition")
    builder: str = _opt("auto", "'auto', 'levelwise' or 'reference' (they grow the same tree)")

    def __post_init__(self):
        crit = criterion_named(self.criterion)
        _set(self, "criterion", crit)
        if self.builder not in BUILDERS:
            raise InfotreeError(f"builder {self.builder!r} is not allowed; allowed: {', '.join(BUILDERS)}")
        if self.max_depth is not None and (not isinstance(self.max_depth, int) or self.max_depth < 0):
            raise InfotreeError(f"max_depth {self.max_depth!r} is not allowed; give a non-negative integer or None")
        _count(self.min_samples_split, "min_samples_split", 1, "positive")
        if self.min_gain is not None:
            _set(self, "min_gain", _rational(self.min_gain, "min_gain", "0.01 or '1/100'"))
        if self.threshold is None:
            _set(self, "threshold", crit.threshold)
        if self.threshold not in THRESHOLDS:
            raise InfotreeError(f"threshold {self.threshold!r} is not allowed; allowed: {', '.join(THRESHOLDS)}")
        if self.lookahead not in (0, 1) or isinstance(self.lookahead, bool):
            raise InfotreeError(f"lookahead {self.lookahead!r} is not allowed; allowed: 0 (greedy), 1 (score each "
                                f"feature by its best two-level split)")
        if self.lookahead and crit.regression:
            raise InfotreeError(f"lookahead=1 scores classification splits; criterion {crit.name!r} grows a "
                                f"regression tree (use lookahead=0)")
        if self.lookahead and self.builder == "levelwise":
            raise InfotreeError("lookahead=1 needs the reference builder (builder='auto' or 'reference')")
        if not isinstance(self.m_of_n, bool):
            raise InfotreeError(f"m_of_n {self.m_of_n!r} is not allowed; give True (M-of-N tests) or False")

    @property
    def crit(self) -> Criterion:
        return self.criterion


@dataclass(frozen=True)
class PruneControl:
    """Pruning after growing and its cross-validation (every algorithm; cost-complexity is CART's)."""

    prune: str = _opt("none", "'none', 'pessimistic' (C4.5), 'reduced-error' or 'cost-complexity' (CART)")
    confidence: Fraction = _opt(Fraction(1, 4), "pessimistic pruning's confidence factor (J48's 0.25)")
    ccp_alpha: Fraction | None = _opt(None, "cost-complexity: prune at this alpha (risk per leaf)")
    ccp_cp: Fraction | None = _opt(None, "cost-complexity: prune at alpha = cp·R(root)")
    ccp_select: str | None = _opt(None, "cost-complexity: the cp table's row of least xerror ('min') or by '1se'")
    ccp_risk: str = _opt("rpart", "cost-complexity: rpart's risk ('rpart') or scikit-learn's ('impurity')")
    ccp_sequence: str = _opt("weakest-link", "the exact weakest-link sequence or rpart's own complexities ('rpart')")
    folds: object = _opt(10, "cross-validation: K folds, one fold id per row, or a scikit-learn splitter")
    seed: int = _opt(0, "the seed of the folds' draw")

    def __post_init__(self):
        if self.prune not in PRUNING:
            raise InfotreeError(f"prune {self.prune!r} is not allowed; allowed: {', '.join(PRUNING)}")
        _set(self, "confidence", _rational(self.confidence, "confidence", "0.25"))


@dataclass(frozen=True)
class ID3Control(PruneControl, GrowControl):
    """ID3 (criterion gain, gain_ratio_plain): multiway splits on nominal features."""

    min_objects: int = _opt(2, "C4.5's rule: at least two branches with this many rows")
    collapse: bool | None = _opt(None, "keep only subtrees that reduce training errors (None: the criterion's)")

    def __post_init__(self):
        GrowControl.__post_init__(self)
        _count(self.min_objects, "min_objects", 1, "positive")
        if self.collapse is None:
            _set(self, "collapse", self.criterion.collapse)
        PruneControl.__post_init__(self)


@dataclass(frozen=True)
class C45Control(ID3Control):
    """C4.5 as J48 (criterion gain_ratio): the average-gain filter, collapsing, numeric cuts, missing values."""

    criterion: str | Criterion = _opt("gain_ratio", "the split criterion (its name, or a Criterion)")
    average_gain_slack: Fraction = _opt(Fraction(1, 1000), "a gain may be this far below the average (J48: 1/1000)")

    def __post_init__(self):
        ID3Control.__post_init__(self)
        _set(self, "average_gain_slack", _rational(self.average_gain_slack, "average_gain_slack", "1/1000"))


@dataclass(frozen=True)
class CARTControl(PruneControl, GrowControl):
    """CART as rpart (criterion gini, entropy, misclassification, squared_error): binary splits,
    competitors and surrogates, the cp rule, priors, losses and variable costs."""

    criterion: str | Criterion = _opt("gini", "the split criterion (its name, or a Criterion)")
    min_leaf: int = _opt(1, "rows at least on each side of a split (rpart's minbucket)")
    cp: Fraction | None = _opt(None, "the complexity parameter as rpart applies it while growing (None: grow fully)")
    max_subsets: int = _opt(1 << 15, "the most subsets of a nominal feature's values one exact split compares")
    competitors: int = _opt(4, "runner-up splits listed at each node (rpart's maxcompete)")
    surrogates: int = _opt(5, "surrogate splits kept at each node (rpart's maxsurrogate)")
    use_surrogate: int = _opt(2, "rows with a missing split value: stay (0), surrogates (1), then the majority (2)")
    surrogate_style: int = _opt(0, "a surrogate's agreement over the rows with the split value known (0) or both (1)")
    every_split: bool = _opt(False, "each candidate also records every threshold and subset tried")
    prior: object = _opt(None, "class priors, rpart's parms prior (a mapping class -> rational, or a sequence)")
    loss: object = _opt(None, "rpart's loss matrix (rows the true class, columns the predicted one)")
    cost: object = _opt(None, "rpart's per-variable costs (a mapping feature -> positive rational, or a sequence)")
    shrink: object = _opt(None, "poisson, exp: rpart's parms shrink, the prior's coefficient of variation "
                                "(None: 1; 0: none)")

    def __post_init__(self):
        GrowControl.__post_init__(self)
        _count(self.min_leaf, "min_leaf", 1, "positive")
        _count(self.max_subsets, "max_subsets", 1, "positive")
        limits.within("max_subsets", self.max_subsets)
        if self.cp is not None:
            cp = _rational(self.cp, "cp", "0.01")
            if not 0 <= cp <= 1:
                raise InfotreeError(f"cp {cp} is not allowed; give a rational from 0 to 1 (rpart's default is 0.01)")
            _set(self, "cp", cp)
        _count(self.competitors, "competitors", 0, "non-negative")
        _count(self.surrogates, "surrogates", 0, "non-negative")
        if self.use_surrogate not in (0, 1, 2):
            raise InfotreeError(f"use_surrogate {self.use_surrogate!r} is not allowed; allowed: 0, 1, 2 "
                                f"(rpart's usesurrogate)")
        if self.surrogate_style not in (0, 1):
            raise InfotreeError(f"surrogate_style {self.surrogate_style!r} is not allowed; allowed: 0, 1 "
                                f"(rpart's surrogatestyle)")
        if self.every_split and self.builder == "levelwise":
            raise InfotreeError("every_split needs the reference builder (builder='auto' or 'reference')")
        PruneControl.__post_init__(self)


DRAWS = ("node", "tree")
VOTES = ("majority", "average")
SAMPLINGS = ("draw", "poisson")
POISSON = SAMPLINGS[1]  # per-row counts (not the criterion of that name)


def _fraction(x):
    if isinstance(x, bool):
        return None
    try:
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


@dataclass(frozen=True)
class ForestControl:
    """A forest's draws and vote (scikit-learn's names); its trees' options are their family's
    control.  What needs the data (``max_features`` against the features, ``samples`` against
    the rows) is checked when the forest is grown."""

    n_estimators: int = _opt(10, "how many trees (one per sample when samples are given)")
    random_state: int = _opt(0, "the seed of every draw: rows, features, permutations")
    max_features: object = _opt("all", "features drawn: an integer, 'sqrt', 'log2', 'all' or a fraction")
    draw: str = _opt("node", "draw the features at every node ('node': random forest) or per tree ('tree')")
    sample_fraction: Fraction = _opt(Fraction(1), "rows per tree as a fraction of the data's, in (0, 1]")
    bootstrap: bool = _opt(True, "draw the rows with replacement (True) or without")
    sampling: str = _opt("draw", "'draw': each tree's rows drawn as one sample; 'poisson': each row's count from a "
                                 "hash of (row, seed, tree), Poisson (with replacement) or Bernoulli (without): the "
                                 "same on every engine")
    samples: object = _opt(None, "each tree's rows, 0-based (a repeat is drawn twice); None: drawn")
    vote: str = _opt("majority", "'majority' (vote fractions) or 'average' (mean leaf probabilities)")
    n_jobs: int | None = _opt(None, "processes growing the trees, as scikit-learn reads it (None: 1, -1: all)")

    def __post_init__(self):
        if self.draw not in DRAWS:
            raise InfotreeError(f"draw {self.draw!r} is not allowed; allowed: node (random forest), tree (random "
                                f"subspace)")
        if self.sampling not in SAMPLINGS:
            raise InfotreeError(f"sampling {self.sampling!r} is not allowed; allowed: {', '.join(SAMPLINGS)}")
        if self.sampling == POISSON and self.samples is not None:
            raise InfotreeError("sampling 'poisson' draws each tree's rows; samples given explicitly are not allowed "
                                "with it (allowed: sampling 'draw')")
        if self.vote not in VOTES:
            raise InfotreeError(f"vote {self.vote!r} is not allowed; allowed: {', '.join(VOTES)}")
        seed = self.random_state
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise InfotreeError(f"seed {seed!r} is not allowed; give a non-negative integer")
        fraction = _fraction(self.sample_fraction)
        if fraction is None or not 0 < fraction <= 1:
            raise InfotreeError(f"sample_fraction {self.sample_fraction!r} is not allowed; give a fraction in (0, 1]")
        n = self.n_estimators
        if self.samples is None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1):
            raise InfotreeError(f"n_trees {n!r} is not allowed; give a positive integer")


#: The control of each algorithm family (criteria.ALGORITHMS' keys).
CONTROLS = {"id3": ID3Control, "c45": C45Control, "cart": CARTControl}

_FAMILY_TEXT = {"id3": "ID3", "c45": "C4.5", "cart": "CART"}


def families_taking(name) -> tuple:
    """The algorithm families whose control has the field ``name``."""
    return tuple(a for a, cls in CONTROLS.items() if name in _names(cls))


def field_doc(cls, name) -> str:
    return next(f.metadata.get("doc", "") for f in dataclasses.fields(cls) if f.name == name)


def _names(cls) -> frozenset:
    return frozenset(f.name for f in dataclasses.fields(cls))


def control_for(criterion="gain", **options):
    """The control of ``criterion``'s family with ``options`` as its fields.  An option the family
    does not take is refused when it is given a value other than its default elsewhere (a caller
    passing every option with its default, as the CLI does, is not refused)."""
    crit = criterion_named(criterion)
    cls = CONTROLS[crit.algorithm]
    mine = _names(cls)
    for name, value in list(options.items()):
        if name in mine:
            continue
        families = families_taking(name)
        if not families:
            raise InfotreeError(f"unknown option {name!r}; allowed: {', '.join(sorted(mine))}")
        default = next(f.default for f in dataclasses.fields(CONTROLS[families[0]]) if f.name == name)
        if isinstance(value, float):
            value = Fraction(str(value))
        if value is None or value == default:
            del options[name]
            continue
        names = " or ".join(n for a in families for n in ALGORITHMS[a])
        raise InfotreeError(f"{name} applies to {' and '.join(_FAMILY_TEXT[a] for a in families)} (criterion "
                            f"{names.replace(' or ', ', ', names.count(' or ') - 1)}), not to criterion {crit.name!r}")
    return cls(criterion=crit, **options)
