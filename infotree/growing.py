"""Growing a tree: ``build_tree(data, control)`` (or the control's fields as keywords).

Two builders grow the same tree: the reference one (:mod:`infotree.grow.reference`,
the textbook recursion, for any criterion) and the level-wise ones
(:mod:`infotree.grow.levelwise`, :mod:`infotree.grow.cart`: the fast paths, for the
criteria they have a kernel for).  ``build_tree`` takes a fast one where it can;
``builder="reference"`` asks for the other.  Ties are exact: the first feature in column
order wins and the node records every feature it tied with.

The criteria (``docs/c45_rules.md`` for C4.5's):

``gain``
    ID3: maximal information gain among the unused features that separate the
    node's rows (at least two non-empty branches).  An impure node is split even
    at zero gain (the XOR lesson) unless ``stop_at_zero_gain=True`` (Weka's Id3).
``gain_ratio``
    C4.5 as Weka's J48 defines it (:class:`~infotree.criteria.C45GainRatio`), then
    *collapsed*: a subtree that makes no fewer training errors than a leaf would
    is replaced by that leaf.
``gain_ratio_plain``
    Maximal gain ratio among the features that separate the rows; no filter,
    no minimum branch size, no collapse (as many lecture notes define it).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from . import limits
from .controls import PruneControl, _rational, control_for
from .criteria import criterion_named
from .data import exact_number
from .errors import InfotreeError
from .node import Node
from .rpart_routing import record_levels
from .splits import NominalSplit, ThresholdSplit
from .tree import Tree

__all__ = ["build_tree", "fold_grower", "grow_together", "node_at", "target_numbers"]


def build_tree(data, control=None, *, sample_weight=None, validation=None, feature_draw=None, grow=True,
               exposure=None, **options) -> Tree:
    """Grow a tree on a :class:`~infotree.data.Dataset`.

    ``control``: the algorithm's typed control (:class:`~infotree.controls.ID3Control`,
    :class:`~infotree.controls.C45Control`, :class:`~infotree.controls.CARTControl`), or its
    fields as keywords (``options``; ``criterion`` chooses the family, ``"gain"`` by
    default; with a control, they replace its fields).  The fields:

    ``criterion``: ``"gain"`` (ID3), ``"gain_ratio"`` (C4.5) or ``"gain_ratio_plain"``.
    ``collapse`` defaults to True for ``gain_ratio`` and False otherwise.
    ``average_gain_slack`` (``gain_ratio`` only): a feature passes the average-gain
    filter when its gain is at least the average minus this many bits; C4.5 and J48
    use 1/1000, ``0`` gives the textbook rule.
    ``threshold`` (numeric features): ``"data"``, the largest training value at most
    the midpoint of the best cut (C4.5 and J48; the default for ``gain_ratio``), or
    ``"midpoint"`` (lecture notes; the default otherwise).
    Missing values (code ``-1``) are accepted by ``gain_ratio`` only, with C4.5's
    fractional weights (exact Fractions).
    ``prune``: ``"none"`` (default), ``"pessimistic"`` (C4.5's error-based pruning with
    confidence factor ``confidence`` and subtree raising, as J48) or ``"reduced-error"``
    (on the ``validation`` Dataset); see :mod:`infotree.prune`.
    CART criteria (``"gini"``, ``"entropy"``, ``"misclassification"``; binary splits):
    ``min_leaf`` rows at least on each side of a split (rpart's minbucket), ``cp`` the
    complexity parameter as rpart applies it while growing (:func:`infotree.prune.cp_prune`;
    None, the default, grows fully as scikit-learn does), ``max_subsets``
    the most subsets of a nominal feature's values an exact split may compare,
    ``competitors`` how many runner-up splits a node lists, ``surrogates`` how many
    surrogate splits it keeps and ``use_surrogate`` how rows with a missing primary value
    go down (rpart's maxcompete, maxsurrogate and usesurrogate: 0, 1 or 2; see
    :class:`infotree.routing.Surrogates`); ``surrogate_style`` 0 or 1 as rpart's
    surrogatestyle (agreement over the rows with the primary known, or with both known).
    ``prune="cost-complexity"`` (CART): weakest-link pruning (:mod:`infotree.complexity`)
    of the tree grown with ``cp`` (None: fully), at ``ccp_alpha`` (α itself) or ``ccp_cp``
    (α = cp·R(root)), or at the row of rpart's cp table that ``ccp_select`` (``"min"`` or
    ``"1se"``) picks by cross-validation on ``folds`` folds from ``seed`` (or on given
    folds: one fold id per row, or a scikit-learn splitter; with sample weights as
    rpart's xval weighs them); ``ccp_sequence``
    ``"weakest-link"`` (exact) or ``"rpart"`` (rpart's complexities, as ``prune.rpart``); ``ccp_risk``
    ``"rpart"`` (misclassified weight, squared error) or ``"impurity"`` (scikit-learn's
    N_t/N · impurity).
    ``sample_weight``: one positive weight per row (ints, Fractions, decimal strings;
    a float is read from its shortest text); counts become exact weighted sums (CART's
    min_leaf still counts rows).
    ``prior`` and ``loss`` (gini, entropy): rpart's ``parms``: class priors (a mapping
    class -> rational, or a sequence in class order) and a loss matrix (rows the true
    class, columns the predicted one), exact; the split criterion uses rpart's altered
    priors, a node predicts its class of least loss and its risk (cp, pruning,
    cross-validation) is that loss (:class:`infotree.criteria.CostedGini`).
    ``every_split`` (CART): each candidate also records every threshold and subset its
    feature tried, which the printers list (grown by the reference builder).
    ``cost`` (CART): rpart's per-variable costs, a mapping feature -> positive rational
    (unnamed features cost 1) or one per feature: each feature's improvement is divided
    by its cost when the features are ranked and where it is recorded
    (:func:`infotree.criteria.with_variable_costs`; grown by the reference builder).
    ``criterion="poisson"`` (rpart's ``method = "poisson"``): the target counts events and
    ``exposure`` gives each row's exposure (rpart's ``cbind(exposure, events)``; None: 1
    each); ``shrink`` is rpart's ``parms = list(shrink = k)`` (default 1; 0: no shrinkage),
    see :class:`infotree.criteria.Poisson`.  ``criterion="exp"`` (survival): the target is
    the status (0/1, 1/2 or false/true) and ``exposure`` the observed times, rescaled as
    ``rpart.exp`` does (:func:`infotree.survival.exp_exposure`).  A node predicts its rate.
    ``feature_draw``: a forest's draw (:mod:`infotree.ensemble`), a function of a node
    giving the bool mask of the features it may consider; None: every feature.
    ``builder``: ``"auto"`` (the level-wise builder when it has a kernel for the
    criterion, else the reference one), ``"levelwise"`` or ``"reference"``; they grow
    the same tree with the same records.
    ``lookahead``: 0 (greedy, the default) or 1: each candidate is scored by the gain of
    its best two-level split (:mod:`infotree.lookahead`; the reference builder grows it).
    ``grow=False``: the tree planted, not grown (no root; nothing collapsed or pruned),
    for :func:`grow_together`.
    ``m_of_n=True`` (criterion ``gain``, nominal features without missing values): every
    internal node tests the M-of-N test grown at it from the best single condition
    (:mod:`infotree.mofn`, ID2-of-3), two branches; a node whose grown test has gain 0 is a
    leaf (the reference builder grows it).
    """
    if control is None:
        control = control_for(**options)
    elif options:
        control = dataclasses.replace(control, **options)
    c = control
    crit, builder, prune, lookahead, m_of_n = c.criterion, c.builder, c.prune, c.lookahead, c.m_of_n
    if lookahead:
        limits.within("lookahead_pairs", data.n_features ** 2, f" ({data.n_features} features, each pair scored)")
    X = np.asarray(data.X)
    if m_of_n:
        _check_m_of_n(data, X, crit, builder, lookahead, sample_weight, prune, feature_draw)
    if X.size and X.min() < 0 and crit.missing is None:
        j = int(np.flatnonzero((X < 0).any(axis=0))[0])
        raise InfotreeError(f"feature {data.features[j]!r} has missing values; criterion {crit.name!r} does not "
                            f"accept them (allowed: criterion 'gain_ratio', which weights them as C4.5 does, "
                            f"or reading '?' as a value)")
    y = np.asarray(data.y, dtype=np.int64)
    n_rows, m = X.shape if X.ndim == 2 else (len(y), 0)
    if n_rows == 0:
        raise InfotreeError("the data has no rows; a tree needs at least one training row")
    collapse = getattr(c, "collapse", crit.collapse)
    # Every tree's params name the ID3/C4.5 rules too (a saved model's format): their defaults where
    # the family has no such field.
    params = dict(max_depth=c.max_depth, min_samples_split=c.min_samples_split, min_gain=c.min_gain,
                  stop_at_zero_gain=c.stop_at_zero_gain, min_objects=getattr(c, "min_objects", 2), collapse=collapse,
                  average_gain_slack=getattr(c, "average_gain_slack", Fraction(1, 1000)), threshold=c.threshold,
                  prune=prune)
    if prune == "pessimistic":
        params["confidence"] = c.confidence
    if lookahead:
        params["lookahead"] = lookahead
    if m_of_n:
        params["m_of_n"] = True
    if crit.binary:
        params.update(min_leaf=c.min_leaf, cp=c.cp, max_subsets=c.max_subsets, competitors=c.competitors,
                      surrogates=c.surrogates, use_surrogate=c.use_surrogate, surrogate_style=c.surrogate_style)
        if c.every_split:
            params["every_split"], builder = True, "reference"
    prior, loss, cost = (getattr(c, k, None) for k in ("prior", "loss", "cost"))
    if prior is not None or loss is not None:
        from .criteria import with_costs

        ws = [1] * n_rows if sample_weight is None else _weights(sample_weight, n_rows)
        root = [Fraction(0)] * len(data.classes)
        for k, wt in zip(y.tolist(), ws):
            root[k] += wt
        crit = with_costs(crit, data.classes, root, prior, loss)
        params.update(prior={k: _text(p) for k, p in zip(data.classes, crit.prior)},
                      loss=[[_text(x) for x in row] for row in crit.loss])
    if cost is not None:
        from .criteria import with_variable_costs

        crit = with_variable_costs(crit, data.features, cost)
        if hasattr(crit, "cost"):
            params["cost"] = {f: _text(q) for f, q in zip(data.features, crit.cost) if q != 1}
    values = target_numbers(data) if crit.regression and not getattr(crit, "scales_time", False) else None
    if getattr(crit, "counts_events", False):
        crit, values, exposure = _events(data, crit, y, exposure, getattr(c, "shrink", None), sample_weight)
        params["shrink"] = _text(crit.shrink)
    elif exposure is not None or getattr(c, "shrink", None) is not None:
        raise InfotreeError(f"exposure and shrink are rpart's Poisson and exp methods' (criterion 'poisson' or "
                            f"'exp'), not criterion {crit.name!r}'s")
    tree = Tree(features=data.features, domains=data.domains, classes=data.classes,
                target=data.target, criterion=crit, params=params,
                kinds=getattr(data, "kinds", None), numbers=getattr(data, "numbers", None), values=values)
    tree.exposure = exposure
    tree.draw = feature_draw
    if not grow:
        return tree
    if sample_weight is None:
        _grow(crit, "reference" if lookahead or m_of_n else builder, tree, X, y)
    else:
        if builder == "levelwise":
            raise InfotreeError("sample_weight needs the reference builder (builder='auto' or 'reference')")
        _builder(crit, "reference")(tree, X, y).run(weights=_weights(sample_weight, n_rows))
    if collapse:
        from .prune import collapse as collapse_tree

        collapse_tree(tree.root)
    if crit.binary and c.cp is not None:
        from .prune import cp_prune

        cp_prune(tree, c.cp)
    if prune == "cost-complexity":
        if not crit.binary:
            raise InfotreeError(f"cost-complexity pruning is CART's; criterion {crit.name!r} is not a CART criterion "
                                f"(use gini, entropy or misclassification)")
        from .complexity import prune_grown

        prune_grown(tree, data, alpha=c.ccp_alpha, cp=c.ccp_cp, select=c.ccp_select, risk=c.ccp_risk, folds=c.folds,
                    seed=c.seed, grown_cp=c.cp, regrow=fold_grower(dataclasses.replace(c, criterion=crit, cost=None)),
                    sequence=c.ccp_sequence, weights=None if sample_weight is None else _weights(sample_weight, n_rows))
        tree.params.update(ccp_alpha=c.ccp_alpha, ccp_cp=c.ccp_cp, ccp_select=c.ccp_select, ccp_risk=c.ccp_risk)
    elif prune != "none":
        from .prune import prune_tree

        prune_tree(tree, data, method=prune, confidence=c.confidence, validation=validation)
    if crit.binary:  # rpart's routing of new rows reads the levels each subset split's rows had
        record_levels(tree, data)
    return tree


def _events(data, crit, y, exposure, shrink, sample_weight):
    """A Poisson or exp tree's criterion bound to the data (rpart's α, β from the root), its
    target numbers (exp: statuses 0/1) and each row's exposure (exp: the rescaled time)."""
    from .survival import check_rows, exp_exposure, status_codes

    if shrink is None:
        shrink = crit.shrink
    shrink = _rational(shrink, "shrink", "1 or 1/2")
    if shrink < 0:
        raise InfotreeError(f"shrink {shrink} is not allowed; give a rational at least 0 (rpart: 'Invalid "
                            f"shrinkage value'; 0 means no shrinkage)")
    n = len(y)
    if exposure is not None:
        exposure = [_rational(t, "exposure", "2.5") if t is not None else None for t in exposure]
    if crit.scales_time:
        if exposure is None:
            raise InfotreeError("criterion 'exp' needs each row's observed time (exposure=..., --time COL); the "
                                "target is the status")
        values = tuple(status_codes(data.classes))
        check_rows([0] * n, exposure)
        exposure = exp_exposure(exposure, [values[c] for c in y.tolist()])
    else:
        values = target_numbers(data)
        check_rows([values[c] for c in y.tolist()], exposure)
    ws = [1] * n if sample_weight is None else _weights(sample_weight, n)
    events = sum((w * values[c] for w, c in zip(ws, y.tolist())), Fraction(0))
    if not events:
        raise InfotreeError("no events: every row's count is 0 (a Poisson tree needs at least one event)")
    time = sum((w * (1 if exposure is None else exposure[i]) for i, w in enumerate(ws)), Fraction(0))
    return crit.bound(shrink, events, time), values, None if exposure is None else tuple(exposure)


def _check_m_of_n(data, X, crit, builder, lookahead, sample_weight, prune, feature_draw):
    """m_of_n=True's one-line refusals: what M-of-N tests (ID2-of-3 with information gain) accept."""
    if feature_draw is not None:  # the search reads every feature
        raise InfotreeError("m_of_n=True grows each test from every feature; a forest's feature draw is not "
                            "allowed with it")
    if not crit.scores_m_of_n:
        raise InfotreeError(f"criterion {crit.name!r} is not allowed with m_of_n=True; allowed: 'gain' (M-of-N tests "
                            f"are grown and scored by information gain)")
    if builder == "levelwise":
        raise InfotreeError("m_of_n=True needs the reference builder (builder='auto' or 'reference')")
    if lookahead:
        raise InfotreeError("m_of_n=True cannot be combined with lookahead=1; allowed: lookahead=0")
    if sample_weight is not None:
        raise InfotreeError("m_of_n=True counts rows; sample_weight is not allowed with it")
    if prune not in ("none", "reduced-error"):
        raise InfotreeError(f"prune {prune!r} is not allowed with m_of_n=True; allowed: none, reduced-error")
    kinds = getattr(data, "kinds", ("nominal",) * len(data.features))
    for j, k in enumerate(kinds):
        if k == "numeric":
            raise InfotreeError(f"feature {data.features[j]!r} is numeric; M-of-N tests (m_of_n=True) take nominal "
                                f"features only (allowed: nominal columns; read this one as nominal with "
                                f"categorical=[{data.features[j]!r}])")
    if X.size and X.min() < 0:
        j = int(np.flatnonzero((X < 0).any(axis=0))[0])
        raise InfotreeError(f"feature {data.features[j]!r} has missing values; M-of-N tests (m_of_n=True) need every "
                            f"value known (allowed: complete data, or on_missing='value', which reads '?' as a value)")


def grow_together(data, samples, draws, **options) -> list[Tree] | None:
    """For each (rows, draw): the tree ``build_tree(data.sample(rows), feature_draw=draw,
    **options)`` grows, all grown together by the fast CART builder or the level-wise ID3
    one, in one level loop (a forest's trees are small: numpy's per-call cost, paid once
    per depth and tree, was most of their growing).  None when the options are not those
    builders' alone (another criterion or builder, weights, every_split, lookahead, M-of-N
    tests, C4.5's thresholds, a cp, collapsing or pruning) or when the builder refuses the
    data: grow the trees one by one."""
    from .grow.cart import CARTBuilder, Refused
    from .grow.levelwise import KERNELS, LevelwiseBuilder

    template = build_tree(data, grow=False, **options)  # validates the options; the builder's domains
    p, crit = template.params, template.criterion
    builder = _builder(crit, options.get("builder", "auto"))
    # (C4.5's kernel reads the sample's size: its many-values rule.)
    id3 = builder is LevelwiseBuilder and KERNELS[type(crit)] == "id3"
    if (not (builder is CARTBuilder or id3) or options.get("sample_weight") is not None or p.get("every_split")
            or p.get("lookahead") or p.get("m_of_n") or p["threshold"] != "midpoint" or p.get("cp") is not None
            or p["collapse"] or p["prune"] != "none"):
        return None
    samples = [rows if isinstance(rows, np.ndarray) and rows.dtype.kind == "i" else np.asarray(rows, dtype=np.int64)
               for rows in samples]
    drawn_rows = samples
    # Planted on the whole data (the builder reads its codes), each with its sample's
    # domains and numbers (as build_tree of data.sample(rows) keeps them) as views into
    # the data's: a hundred trees' copies of them were a fifth of a forest's memory.
    trees = []
    for rows, draw in zip(samples, draws):
        tree = build_tree(data, feature_draw=draw, grow=False, **options)
        tree.domains, tree.numbers = data.sampled_values(rows)
        trees.append(tree)
    # Each tree's rows as rows of their own, end to end.  The builders take a row drawn k
    # times as one row counted k times (CART without surrogates, which count rows once
    # each: there a row drawn twice is two rows).
    multiplicity = counts = None
    if id3 or (builder is CARTBuilder and not crit.regression and not p.get("surrogates")):
        drawn = [np.unique(rows, return_counts=True) for rows in samples]
        # the counts in their smallest dtype (a byte, nearly always): kept to the end of the fit
        samples, counts = [rows for rows, _ in drawn], [k.astype(np.min_scalar_type(int(k.max(initial=0)))) for _, k in drawn]
        multiplicity = np.concatenate(counts)
    X, y = np.asarray(data.X), np.asarray(data.y, dtype=np.int64)
    sizes = [len(rows) for rows in samples]
    at, shared = 0, None
    for group in _groups(sizes, _TOGETHER_ROWS):  # consecutive trees, their rows copied once
        every = np.concatenate([samples[i] for i in group])
        ends = np.cumsum([sizes[i] for i in group]).tolist()
        roots = [(trees[i], np.arange(end - sizes[i], end)) for i, end in zip(group, ends)]
        counted = {} if multiplicity is None else {"multiplicity": multiplicity[at:at + len(every)]}
        at += len(every)
        try:
            grower = builder(template, X[every], y[every], **({"shared": shared} if shared else {}))
            grower.run_many(roots, **counted)
            # CART: a tree grows again for its records from the data set and its sample, not
            # from the group's copy of its rows (infotree.grow.regrow)
            for i in group if builder is CARTBuilder else ():
                grower.packed.regrow_of(trees[i]).on(data, drawn_rows[i], counts is not None)
            # CART: the next group's builder takes this one's values' table and splits (equal
            # splits one object in the whole forest), not the builder itself (its arrays)
            shared, grower = getattr(grower, "shared", None), None
        except Refused:
            return None
        for i in group:  # a tree that counts its tables again when printed: from the data's rows
            if trees[i]._recount is not None:
                trees[i]._recount = trees[i]._recount.on(X, y, samples[i], None if counts is None else counts[i])
    if id3 and "numeric" in data.kinds:  # a cut's ranks, the data's, as ranks of the tree's own numbers
        for tree in trees:
            _ranks_of_sample(tree)
    if crit.binary and "nominal" in data.kinds:  # as build_tree keeps them (numeric features: no subsets)
        for tree, rows in zip(trees, drawn_rows):
            record_levels(tree, data.sample(rows))
    return trees


def _ranks_of_sample(tree):
    """The ranks of the cuts an ID3 tree's nodes keep (``node.cuts``), from the data's numbers
    (the builder's) to the tree's own (its sample's values: views into the data's)."""
    for node in tree.nodes():
        if node.cuts:
            node.cuts = {j: (*np.searchsorted(tree.numbers[j].codes, (lo, hi)).tolist(), n)
                         for j, (lo, hi, n) in node.cuts.items()}


# Rows (all trees' samples) grown together at most: the builder copies each tree's rows
# (features × rows) and works on a depth of all of them at once.  Past ~10^5 rows a depth's
# arrays leave the cache and its per-call cost is already shared: 100 trees on 10^4 rows
# (630,000 distinct drawn rows) grew in 10 % less time and 150 MiB less peak memory in
# groups of 2^17 rows than all at once (2^21), and no faster in smaller ones.
_TOGETHER_ROWS = 1 << 17


def _groups(sizes, most):
    """Consecutive index groups whose sizes sum to at most ``most`` (a larger one alone)."""
    group, total = [], 0
    for i, n in enumerate(sizes):
        if group and total + n > most:
            yield group
            group, total = [], 0
        group.append(i)
        total += n
    if group:
        yield group


def target_numbers(data) -> tuple:
    """A regression target's exact numbers, one per target code; a value that is not a number
    is a one-line error naming its file and line (or row) and the value."""
    out = []
    for code, text in enumerate(data.classes):
        try:
            q = exact_number(text)
        except InfotreeError:
            q = None
        if q is None:
            i = int(np.flatnonzero(np.asarray(data.y) == code)[0])
            lines = getattr(data, "lines", None)
            where = (f"{data.source} line {int(lines[i])}" if lines is not None and getattr(data, "source", None)
                     else f"row {i + 1}")
            raise InfotreeError(f"{where}, column {data.target!r}: value {text!r} is not a number; a regression "
                                f"target (criterion squared_error) is read as numbers, such as 12, -0.5 or 1e3")
        out.append(q)
    return tuple(out)


def fold_grower(control=None, **options):
    """How rpart's cross-validation grows each fold's tree: as the whole tree (a control, or
    build_tree's keywords), fully, then rpart's cp rule at the fold's α
    (:func:`infotree.prune.cp_prune`).  A costed criterion keeps the whole data's priors, losses
    and costs, as rpart's xval does."""
    from .prune import cp_prune

    for k in ("validation", "sample_weight"):
        options.pop(k, None)
    control = control_for(**options) if control is None else dataclasses.replace(control, **options)
    defaults = {f.name: f.default for f in dataclasses.fields(PruneControl)}
    control = dataclasses.replace(control, cp=None, prior=None, loss=None, **defaults)
    crit = criterion_named(control.criterion)
    if getattr(crit, "scales_time", False):  # exp: rpart rescales the times once, before the folds
        control = dataclasses.replace(control, criterion=crit.poisson())

    def grow(sub, alpha, sample_weight=None, exposure=None):
        t = build_tree(sub, control, sample_weight=sample_weight, exposure=exposure)
        cp_prune(t, alpha=alpha)
        return t

    return grow


def _text(q) -> str:
    """An exact rational as a model's parameters keep it: ``3`` or ``3/5``."""
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _weights(sample_weight, n):
    """Exact positive weights, one per row, or a one-line error naming the first bad one."""
    try:
        ws = list(sample_weight)
    except TypeError:
        raise InfotreeError(f"sample_weight must be a sequence of {n} positive numbers") from None
    if len(ws) != n:
        raise InfotreeError(f"sample_weight has {len(ws)} weights; the data has {n} rows")
    out = []
    for i, v in enumerate(ws):
        try:
            q = None if isinstance(v, bool) else Fraction(v) if isinstance(v, (int, Fraction, str)) else exact_number(v)
        except (ValueError, ZeroDivisionError, InfotreeError):
            q = None
        if q is None or q <= 0:
            raise InfotreeError(f"sample_weight[{i}] = {v!r} is not a positive number")
        out.append(q)
    return out


def _builder(crit, name):
    """The builder class: level-wise where it has a kernel for the criterion (or is asked for)."""
    from .grow.cart import CARTBuilder
    from .grow.levelwise import KERNELS, LevelwiseBuilder
    from .grow.reference import ReferenceBuilder

    if name == "reference" or (name == "auto" and type(crit) not in KERNELS):
        return ReferenceBuilder
    if type(crit) not in KERNELS:
        raise InfotreeError(f"the level-wise builder has no kernel for criterion {crit.name!r}; "
                            f"use builder='reference' or 'auto'")
    return CARTBuilder if KERNELS[type(crit)] == "cart" else LevelwiseBuilder


def _grow(crit, name, tree, X, y, *run):
    """Grow ``tree`` with the builder ``name`` asks for.  What the CART builder refuses (a
    subset search past max_subsets, a regression it does not take) the reference grows
    (or refuses, at the node it meets first)."""
    from .grow.cart import Refused
    from .grow.reference import ReferenceBuilder

    if tree.params.get("every_split"):  # the fast builder keeps no list of every split
        name = "reference"
    try:
        _builder(crit, name)(tree, X, y).run(*run)
    except Refused:
        ReferenceBuilder(tree, X, y).run(*run)


def node_at(data, path, *, criterion="gain", min_objects=2, every_split=False, lookahead=0) -> Node:
    """The candidate record of the node reached by ``path``.

    ``path`` is a list of steps: ``(feature, value)`` for a nominal feature,
    ``(feature, "<=", t)`` or ``(feature, ">", t)`` for a numeric one (t exact: ``75``,
    ``"2.5"``, ``"1/3"``).  The node is evaluated on the rows that satisfy every
    condition (a row whose value is missing satisfies none), with the path's nominal
    features no longer candidates, whether or not a grown tree would reach it.
    Columns keep their kinds: a numeric column is cut, as in the tree.  An error names
    an unknown feature or value, or a step written for the other kind of column.
    ``lookahead=1`` adds each candidate's two-level score (:mod:`infotree.lookahead`).
    """
    crit = criterion_named(criterion)
    if lookahead not in (0, 1) or isinstance(lookahead, bool):
        raise InfotreeError(f"lookahead {lookahead!r} is not allowed; allowed: 0 (greedy), 1 (score each feature "
                            f"by its best two-level split)")
    kinds = getattr(data, "kinds", None)
    t = Tree(features=data.features, domains=data.domains, classes=data.classes,
             target=data.target, criterion=crit,
             params=dict(max_depth=len(path) + 1, min_samples_split=1, min_gain=None,
                         stop_at_zero_gain=False, min_objects=min_objects, collapse=False,
                         average_gain_slack=Fraction(1, 1000), threshold=crit.threshold,
                         **({"every_split": True} if every_split else {})),
             kinds=kinds, numbers=getattr(data, "numbers", None),
             values=target_numbers(data) if crit.regression else None)
    X = np.asarray(data.X)
    coded, tests = [], []
    mask = np.ones(len(data.y), bool)
    for step in path:
        f, op, v = step if len(step) == 3 else (step[0], "=", step[1])
        if f not in t._index:
            raise InfotreeError(f"unknown feature {f!r} in the path; features are: {', '.join(t.features)}{_suggest(f, t.features)}")
        j = t._index[f]
        if any(j == g for g, _ in coded) and t.kinds[j] != "numeric":
            raise InfotreeError(f"feature {f!r} appears twice in the path; each feature may be fixed once")
        col = X[:, j]
        if t.kinds[j] == "numeric":
            q = exact_number(v) if op in ("<=", ">") else None
            if q is None:
                raise InfotreeError(f"feature {f!r} is numeric: a path step on it is {f}<=t or {f}>t with a number t "
                                    f"(got {f} {op} {v!r})")
            test, branch = ThresholdSplit(j, q), 0 if op == "<=" else 1
            values = np.array([t.numbers[j][c] <= q if c >= 0 else False for c in col.tolist()]) if len(col) else col
            mask &= (col >= 0) & (values if branch == 0 else ~values)
        else:
            if op != "=":
                raise InfotreeError(f"feature {f!r} is nominal: a path step on it is {f}=value (got {f} {op} {v})")
            if v not in t._value_index[j]:
                raise InfotreeError(f"unknown value {v!r} of feature {f!r} in the path; values are: {', '.join(t.domains[j])}{_suggest(v, t.domains[j])}")
            test, branch = NominalSplit(j, t.domains[j]), t._value_index[j][v]
            mask &= col == branch
        coded.append((j, branch))
        tests.append(test)
    rows = np.flatnonzero(mask)
    if rows.size == 0:
        where = ", ".join(f"{t.features[j]} {' '.join(test.condition(b))}" for (j, b), test in zip(coded, tests))
        raise InfotreeError(f"no training row has {where}; the node is empty")
    t.path_tests = tuple(tests)
    if lookahead:
        if crit.regression:
            raise InfotreeError(f"lookahead=1 scores classification splits; criterion {crit.name!r} grows a "
                                f"regression tree (use lookahead=0)")
        t.params["lookahead"] = 1
    _grow(crit, "reference" if lookahead else "auto", t, X, np.asarray(data.y, dtype=np.int64), rows, coded)
    return t.root


def _suggest(word, choices):
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
