"""Forests: bagging, random forests and random subspaces of exact trees, with exact votes.

A forest is ``T`` trees grown by :func:`~infotree.growing.build_tree` (any criterion,
either builder), each on its own sample of the rows, each node choosing among the
features the forest drew for it:

``draw="node"`` (random forest, Breiman 2001)
    every node draws ``m`` of the features it may use (ID3: those not tested on its
    path; C4.5 and CART: all) and chooses among them;
``draw="tree"`` (random subspace, Ho 1998)
    each tree draws ``m`` features once and every node uses those;
``m`` = every feature
    bagging (Breiman 1996): the draw is moot.

Everything random comes from one seed through the procedure of ``docs/forests.md``:
numpy's ``SeedSequence(seed, spawn_key=key)`` feeding a ``PCG64`` bit generator,
one stream per purpose (a tree's rows, a tree's subspace, a permutation), a node's
features from a counter-based BLAKE2b stream keyed by (tree, node path), and integers
taken from the raw 64-bit outputs by a stated rule.  A node's draw depends on its
path, not on the order a builder visits the nodes, so the depth-first reference
builder and the breadth-first level-wise one grow the same forest.  numpy promises the bit generators' streams, not those of
``Generator``'s methods (NEP 19), hence the raw outputs.

Votes are exact: a tree votes for the first class of maximal probability at the
leaf a row reaches; the forest's class probabilities are the vote fractions
(``vote="majority"``) or the mean of the trees' leaf probabilities
(``vote="average"``, as scikit-learn); its prediction is the first class, in class
order, of maximal probability, and a tie between classes is reported.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat

import numpy as np

from . import limits, rowdraw
from .controls import POISSON, ForestControl, _fraction
from .criteria import criterion_named
from .descent import Flat
from .errors import InfotreeError
from .grow.regrow import sampled
from .measures import entropy
from .nodedraw import _TOP, _NodeDraw
from .parallel import in_processes, n_workers
from .progress import steps
from .tree import _first_max, _same

__all__ = ["Forest", "grow_forest", "m_try", "parse_rows"]

# The purposes of the streams: the second entry of a stream's key (_NODE, a node's features: nodedraw.py).
_ROWS, _SUBSPACE, _PERMUTE = 0, 2, 3


# -- the draws ---------------------------------------------------------------------------


def _stream(seed, *key) -> np.random.PCG64:
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key))


def _below(bg, bounds) -> list[int]:
    """One integer in [0, n) per bound n, in stream order: a raw 64-bit output x is
    taken when x < 2^64 − (2^64 mod n), as x mod n; otherwise the next output is tried."""
    bounds = list(bounds)
    if len(bounds) > 64:  # many draws (rows): numpy does the arithmetic
        ns = np.asarray(bounds, dtype=np.uint64)
        raw = np.asarray(bg.random_raw(len(ns)), dtype=np.uint64)
        rem = (np.uint64(0) - ns) % ns  # 2^64 mod n, in wrapping unsigned arithmetic
        if bool(((rem == 0) | (raw < np.uint64(0) - rem)).all()):
            return (raw % ns).tolist()
        raw = raw.tolist()
    else:  # a node's few features: Python integers cost less than numpy's setup
        raw = bg.random_raw(len(bounds)) if bounds else []
        raw = raw if isinstance(raw, list) else raw.tolist()
    out, outputs = [], iter(raw)
    for n in bounds:  # a rejection (chance below n / 2^64 a draw) takes the next output
        limit = _TOP - _TOP % n
        x = next(outputs, None)
        x = int(bg.random_raw()) if x is None else x
        while x >= limit:
            x = next(outputs, None)
            x = int(bg.random_raw()) if x is None else x
        out.append(x % n)
    return out


def _choose(bg, items, k) -> list:
    """k of ``items`` without replacement (a partial Fisher-Yates shuffle), in their order."""
    a = list(items)
    for i, j in enumerate(_below(bg, range(len(a), len(a) - k, -1))):
        a[i], a[i + j] = a[i + j], a[i]
    return sorted(a[:k])


def _shuffle(bg, items) -> list:
    """A uniform permutation (Fisher-Yates from the front, as _choose with k = len)."""
    a = list(items)
    for i, j in enumerate(_below(bg, range(len(a), 0, -1))):
        a[i], a[i + j] = a[i + j], a[i]
    return a


def m_try(max_features, m, name="max_features") -> int:
    """How many features a draw takes: an int (1..m), ``"sqrt"`` (⌊√m⌋), ``"log2"``
    (⌊log2 m⌋), ``"all"``/None (m), or a fraction f in (0, 1] (⌊f·m⌋); at least 1."""
    allowed = f"allowed: an integer from 1 to {m}, sqrt, log2, all, or a fraction in (0, 1]"
    if max_features is None or max_features == "all":
        return m
    if max_features == "sqrt":
        return max(1, math.isqrt(m))
    if max_features == "log2":
        return max(1, int(math.log2(m))) if m else 1
    if isinstance(max_features, int) and not isinstance(max_features, bool):
        if not 1 <= max_features <= m:
            raise InfotreeError(f"{name} {max_features} is not allowed: the data has {m} features; {allowed}")
        return max_features
    f = _fraction(max_features)
    if f is None or not 0 < f <= 1:
        shown = f"{max_features.numerator}/{max_features.denominator}" if isinstance(max_features, Fraction) else (
            repr(max_features))  # never Fraction(3, 2) in a message
        raise InfotreeError(f"{name} {shown} is not allowed; {allowed}")
    return max(1, math.floor(f * m))


def parse_rows(text, n, what="--sample") -> list[int]:
    """Rows (1-based, as in the data file) as 0-based indices: ``1-2,4,4,9`` (a repeat is
    drawn twice) or ``all but 3,10,14,16``."""
    t = text.strip()
    rest = t[len("all but"):] if t.lower().startswith("all but") else None
    body = t if rest is None else rest
    rows = []
    for part in (p.strip() for p in body.split(",")):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise InfotreeError(f"{what} {text!r}: {part!r} is not a row number or a range a-b; "
                                f"rows are 1 to {n}, e.g. '1-5,7,7' or 'all but 3,10'") from None
        if not 1 <= a <= b <= n:
            raise InfotreeError(f"{what} {text!r}: {part!r} is outside the data's rows; rows are 1 to {n}")
        rows.extend(range(a - 1, b))
    if rest is not None:
        left = set(rows)
        rows = [r for r in range(n) if r not in left]
    if not rows:
        raise InfotreeError(f"{what} {text!r} selects no row; a tree needs at least one")
    return sorted(rows)


# -- the forest -------------------------------------------------------------------------

@dataclass(frozen=True)
class Ballot:
    """One row's ballot: each tree's vote (a class index; None for a tree that does not
    vote, out of bag), the forest's exact class probabilities, its prediction and the
    classes tied at the top (more than one: the first in class order wins)."""

    votes: tuple
    proba: tuple
    prediction: int | None
    tied: tuple


class Forest:
    """T trees, the rows each drew, and what the forest says: votes, OOB, importances."""

    def __init__(self, data, trees, samples, params):
        self.data, self.trees, self.samples, self.params = data, trees, samples, params
        self.features, self.classes = data.features, data.classes
        n = data.n_rows
        #: in_bag[t][i]: how many times tree t drew row i
        self.in_bag = [_small(np.bincount(s, minlength=n)) for s in samples]

    @property
    def kind(self) -> str:
        """The forest's name: bagging, random forest or random subspace (what was drawn)."""
        p = self.params
        if p["m_try"] == len(self.features):
            return "bagging"
        return "random forest" if p["draw"] == "node" else "random subspace"

    def describe(self) -> str:
        p, m = self.params, len(self.features)
        if p["m_try"] == m:
            feats = f"every feature ({m}) at every node"
        elif p["draw"] == "node":
            feats = f"{p['m_try']} of {m} features drawn at each node"
        else:
            feats = f"{p['m_try']} of {m} features drawn once per tree"
        if p["given"]:
            rows = "rows given explicitly"
        elif p.get("sampling") == POISSON:
            f = p["fraction"]
            law = f"Poisson({f}) times" if p["bootstrap"] else f"once with probability {f}"
            rows = f"each of the {self.data.n_rows} rows taken {law} by a hash of (row, seed, tree)"
        else:
            how = "with replacement (bootstrap)" if p["bootstrap"] else "without replacement"
            rows = f"{p['sample_size']} of {self.data.n_rows} rows drawn {how}"
        trees = f"{len(self.trees)} tree" + ("s" if len(self.trees) > 1 else "")
        return (f"{self.kind}: {trees}, criterion {p['criterion']}, {feats}, {rows}, seed {p['seed']}; "
                f"vote: {'mean leaf probability' if p['vote'] == 'average' else 'majority of the trees'}, "
                f"a tie goes to the first class in class order ({', '.join(self.classes)})")

    # -- voting --
    def _codes(self, rows, unseen="error"):
        return self.trees[0]._codes(self.data if rows is None else rows, unseen)

    def tree_probas(self, codes, t):
        return self.trees[t]._probas(codes)

    def ballots(self, rows=None, *, vote=None, unseen="error", oob=False) -> list[Ballot]:
        """One Ballot per row (the training rows when ``rows`` is None); ``oob=True``:
        the training rows, each voted on by the trees that did not draw it."""
        vote = vote or self.params["vote"]
        # the training rows go down all at once (_at_leaves): their codes only for the rows it leaves
        training = oob or rows is None
        codes = functools.cache(lambda: self._codes(None if oob else rows, unseen))
        n, trees = self.data.n_rows if training else len(codes()), range(len(self.trees))
        probas, votes = [[None] * n for _ in trees], [[None] * n for _ in trees]
        for t in trees:  # out of bag: each tree's probabilities of the rows it did not draw, only
            at = np.flatnonzero(self.in_bag[t] == 0).tolist() if oob else range(n)
            mine = (self._at_leaves(t, np.asarray(at, dtype=np.int64), codes, _same, {}) if training
                    else self.tree_probas([codes()[i] for i in at], t))
            for i, p, v in zip(at, mine, _votes_of(mine)):  # a tree's own tie: the first class, as Tree.predict
                probas[t][i], votes[t][i] = p, v
        out = []
        for i in range(n):
            voters = [t for t in trees if votes[t][i] is not None]
            out.append(_ballot([votes[t][i] for t in trees], [probas[t][i] for t in voters], len(self.classes), vote))
        return out

    def predict_proba(self, rows, *, vote=None, unseen="error") -> list[tuple]:
        return [b.proba for b in self.ballots(rows, vote=vote, unseen=unseen)]

    def predict(self, rows, *, vote=None, unseen="error") -> list[str]:
        return [self.classes[b.prediction] for b in self.ballots(rows, vote=vote, unseen=unseen)]

    def oob(self, *, vote=None):
        """(ballots of the training rows by their out-of-bag trees, rows without such a tree,
        the exact OOB error: wrong / rows with a vote)."""
        ballots = self.ballots(vote=vote, oob=True)
        y = self.data.y.tolist()
        voted = [i for i, b in enumerate(ballots) if b.prediction is not None]
        wrong = sum(1 for i in voted if ballots[i].prediction != y[i])
        error = Fraction(wrong, len(voted)) if voted else None
        return ballots, len(y) - len(voted), error

    # -- importances --
    def mdi(self) -> list:
        """Mean decrease in impurity per feature: Σ over a tree's split nodes on the feature of
        (n_node / n_root)·(I(node) − Σ_b (n_b / n_node)·I(b)), averaged over the trees (not
        normalised; ``share`` divides by the total).  I is the criterion's impurity: entropy for
        ID3 and C4.5 (the node's information gain), Gini or misclassification for CART."""
        each = self.mdi_by_tree()
        return [sum((t[j] for t in each), Fraction(0)) / len(self.trees) for j in range(len(self.features))]

    def mdi_by_tree(self) -> list[list]:
        """Each tree's decrease in impurity per feature (:meth:`mdi` is their mean; their spread
        is what an importance plot shows)."""
        crit = criterion_named(self.params["criterion"])
        impurity = crit.impurity if crit.binary else entropy
        out = []
        for tree in self.trees:
            rational = _rational_mdi(tree, crit, len(self.features)) if crit.binary else None
            if rational is not None:
                out.append(rational)
                continue
            total = [Fraction(0)] * len(self.features)
            n_root = Fraction(tree.root.n)
            weighted = {}  # node -> n/N · impurity, once a node (a child's is its split's too)

            def share(node):
                w = weighted.get(node)
                if w is None:
                    w = weighted[node] = node.n / n_root * impurity(node.class_counts.tolist())
                return w

            for node in tree.nodes():
                if node.test is None or not node.n:
                    continue
                # n/N · (I − Σ n_c/n · I_c), exactly: n/N · I less each child's n_c/N · I_c
                drop = share(node) - sum((share(ch) for ch in node.children if ch.n), Fraction(0))
                total[node.split] = total[node.split] + drop
            out.append(total)
        return out

    def mdi_shares(self) -> tuple[list, list | None]:
        """(MDI per feature, each one's exact share of their sum; None when no tree splits)."""
        mdi = self.mdi()
        total = sum(mdi[1:], mdi[0])
        return mdi, [v / total for v in mdi] if total else None

    def permutation_importance(self) -> tuple[list, int]:
        """Breiman's permutation importance on out-of-bag rows: for each tree with OOB rows,
        its OOB accuracy less its accuracy once feature j's values are shuffled among those
        rows (stream (tree, 3, j)), averaged over those trees; and how many trees had none."""
        each = self.permutation_by_tree()
        m = len(self.features)
        total = [sum((t[j] for t in each), Fraction(0)) for j in range(m)]
        return [v / len(each) if each else None for v in total], len(self.trees) - len(each)

    def permutation_by_tree(self) -> list[list]:
        """Each tree's permutation importances (trees without out-of-bag rows left out)."""
        y = np.asarray(self.data.y)
        codes = functools.cache(lambda: self._codes(None))  # for the rows the arrays cannot send
        m = len(self.features)
        out = []
        for t, tree in steps(list(enumerate(self.trees)), "forest: permutation importance, tree"):
            rows = np.flatnonzero(self.in_bag[t] == 0)
            if not len(rows):
                continue
            leaves, flat, ys = {}, Flat(tree, self.data), y[rows]  # leaves: the tree's votes, once a leaf
            right = int((np.asarray(self._at_leaves(t, rows, codes, _first_max, leaves, flat)) == ys).sum())
            mine = []
            for j in range(m):
                perm = _shuffle(_stream(self.params["seed"], t, _PERMUTE, j), rows.tolist())
                now = self._at_leaves(t, rows, codes, _first_max, leaves, flat, j, perm)
                mine.append(Fraction(right - int((np.asarray(now) == ys).sum()), len(rows)))
            out.append(mine)
        return out

    def _at_leaves(self, t, rows, codes, value, memo, flat=None, j=None, perm=None) -> list:
        """``value`` of each training row's probabilities in tree t (:meth:`Tree._per_row`), the
        rows sent down all at once (:class:`~infotree.descent.Flat`), a leaf's made once
        (``memo``); a row the arrays cannot send (a missing value, an M-of-N test) by the tree's
        own descent, on ``codes()`` (the data set's rows as the trees read them).  With ``j``:
        row q's value of feature j is row perm[q]'s (a permutation)."""
        tree, X = self.trees[t], np.asarray(self.data.X)
        flat = flat or Flat(tree, self.data)
        moved = j is not None and bool((flat.feature[flat.kind >= 0] == j).any())  # else no split reads it
        at, stopped = flat.leaves(X, rows, j, X[perm, j].astype(np.int64)) if moved else flat.leaves(X, rows)
        out = np.empty(len(rows), dtype=object)
        done = np.flatnonzero(~stopped)
        ids, where = np.unique(at[done], return_inverse=True)
        made = tree._per_row([None] * len(ids), [flat.nodes[i] for i in ids.tolist()], memo, value)
        out[done] = _objects(made)[where]
        odd = np.flatnonzero(stopped).tolist()
        if odd:  # (CART's surrogates may read feature j though no split tests it)
            mine = [codes()[r] for r in rows[odd].tolist()]
            if j is not None:
                mine = [c[:j] + [codes()[perm[q]][j]] + c[j + 1:] for c, q in zip(mine, odd)]
            out[odd] = _objects(tree._per_row(mine, repeat(tree.root), memo, value))
        return out.tolist()


def _rational_mdi(tree, crit, m) -> list | None:
    """A tree's MDI per feature (as Forest.mdi_by_tree) where n·I is a ratio of integers
    (Gini, misclassification: ``n_impurity_ratio``) and the counts are integers: each node's
    n/N·I is num/(den·N), summed in integers per denominator, one Fraction a denominator at the
    end (a Fraction sum a node took 45 µs: 10 s of a 20-tree connect-4 forest).  None otherwise."""
    nodes = list(tree.nodes())
    counts = np.array([node.class_counts for node in nodes])
    if counts.dtype.kind not in "iu" or not nodes:
        return None
    ratio = crit.n_impurity_ratio(counts)
    if ratio is None:
        return None
    num, den = ratio[0].tolist(), ratio[1].tolist()
    at = {node: i for i, node in enumerate(nodes)}
    sums = [{} for _ in range(m)]  # feature -> {denominator: Σ numerators}, the children's subtracted
    for i, node in enumerate(nodes):
        if node.test is None or not node.n:
            continue
        d = sums[node.split]
        d[den[i]] = d.get(den[i], 0) + num[i]
        for ch in node.children:
            if ch.n:
                k = at[ch]
                d[den[k]] = d.get(den[k], 0) - num[k]
    N = int(tree.root.n)
    return [sum((Fraction(v, k * N) for k, v in d.items() if v), Fraction(0)) for d in sums]


def _objects(values) -> np.ndarray:
    """A list as a 1-d object array (lists of equal length stay objects, not rows of a 2-d array)."""
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out


def _votes_of(probas) -> list:
    """Each row's vote, the first class of maximal probability, found once a list: the rows
    that end at one leaf share its list (Tree._probas), and exact maxima cost µs each."""
    seen, out = {}, []
    for p in probas:
        v = seen.get(id(p))
        if v is None:
            v = seen[id(p)] = p.index(max(p))
        out.append(v)
    return out


def _small(counts):
    """Counts in the smallest unsigned dtype that holds them (a byte a row, nearly always,
    where bincount gives eight: 7 MiB of a 100-tree forest of 10^4 rows)."""
    return counts.astype(np.min_scalar_type(int(counts.max(initial=0))))


def _ballot(votes, probas, k, vote) -> Ballot:
    cast = [v for v in votes if v is not None]
    if not cast:
        return Ballot(tuple(votes), (), None, ())
    if vote == "average":
        proba = tuple(sum((p[c] for p in probas), Fraction(0)) / len(probas) for c in range(k))
    else:
        proba = tuple(Fraction(cast.count(c), len(cast)) for c in range(k))
    top = max(proba)
    tied = tuple(c for c in range(k) if proba[c] == top)
    return Ballot(tuple(votes), proba, tied[0], tied if len(tied) > 1 else ())


def grow_trees(data, drawn, draws, options) -> list:
    """The trees of these samples and draws, grown together where the builder can
    (:func:`~infotree.growing.grow_together`), else one by one."""
    from .growing import build_tree, grow_together

    trees = grow_together(data, drawn, draws, **options)
    if trees is None:
        trees = []
        for rows, the_draw in steps(list(zip(drawn, draws)), "forest: growing tree"):
            tree = build_tree(data.sample(rows), feature_draw=the_draw, **options)
            # its sample's values kept as views into the data's (equal, a tenth of the memory)
            tree.domains, tree.numbers = data.sampled_values(rows)
            sampled(tree, data, rows)  # its records grown again from the data's rows, not the sample's copy
            trees.append(tree)
    for the_draw in draws:  # the last depth's draws: the builder's, no longer needed
        if the_draw is not None:
            the_draw.forget()
    return trees


def forest_criterion(name):
    """The criterion called ``name``, refused when it grows regression trees (a forest votes on classes)."""
    from .criteria import CRITERIA

    crit = criterion_named(name)
    if getattr(crit, "regression", False):
        allowed = ", ".join(k for k, c in CRITERIA.items() if not getattr(c, "regression", False))
        raise InfotreeError(f"criterion {crit.name!r} grows regression trees; a forest votes on classes "
                            f"(allowed: {allowed})")
    return crit



def forest_control(control, options, n_trees=None, seed=None) -> ForestControl:
    """The forest's control: ``control`` (or the defaults) with the ForestControl fields among
    ``options`` (taken out of it: the rest are the trees' options) and the legacy ``n_trees``
    and ``seed``."""
    own = {f.name for f in dataclasses.fields(ForestControl)}
    forest_options = {k: options.pop(k) for k in list(options) if k in own}
    if n_trees is not None:
        forest_options["n_estimators"] = n_trees
    if seed is not None:
        forest_options["random_state"] = seed
    return ForestControl(**forest_options) if control is None else dataclasses.replace(control, **forest_options)

def grow_forest(data, control=None, *, criterion="gain", builder="auto", n_trees=None, seed=None, **options) -> Forest:
    """Grow a forest on a :class:`~infotree.data.Dataset`.

    ``n_estimators`` trees (``n_trees``, its older name) from the seed ``random_state``
    (``seed``), each on ``round(sample_fraction·N)`` rows (at least 1) drawn with
    replacement (``bootstrap``) or without, or on the rows of ``samples`` (a list of
    0-based row index lists, one per tree; a repeated index is drawn twice).
    ``max_features`` (see :func:`m_try`) drawn per node (``draw="node"``) or per tree
    (``"tree"``).  ``vote``: ``"majority"`` or ``"average"``.  ``n_jobs``: processes
    growing the trees, as scikit-learn reads it (None: 1; -1: every core; -2: all but
    one); the forest is the same whatever the number (:mod:`infotree.parallel`).  Other
    keywords go to :func:`~infotree.growing.build_tree` (pruning is refused: forests grow
    their trees whole).  ``control``: a :class:`~infotree.controls.ForestControl` (its fields
    may also be given as keywords, which replace a control's).
    """
    fc = forest_control(control, options, n_trees, seed)
    tree_params = options
    crit = forest_criterion(criterion)
    n, m = data.n_rows, data.n_features
    check_tree_options(tree_params)
    if n == 0:
        raise InfotreeError("the data has no rows; a forest needs at least one training row")
    k, n_trees, draws = plan(fc, crit, n, m, data.kinds)
    jobs = n_workers(fc.n_jobs, n_trees)
    drawn = samples_of(fc, n, n_trees)
    options = dict(criterion=crit, builder=builder, **tree_params)
    trees = (grow_trees(data, drawn, draws, options) if jobs == 1
             else in_processes(grow_trees, data, drawn, draws, options, jobs))
    return Forest(data, trees, drawn, forest_params(fc, crit, k, n))


def check_tree_options(tree_params):
    """What a forest's trees refuse: pruning, lookahead, sample weights."""
    if tree_params.get("sample_weight") is not None:  # one per data row, where a tree sees its sample's rows
        raise InfotreeError("a forest weighs a tree's rows by how often its sample draws them; sample_weight is "
                            "not allowed (allowed: None; or the samples option, a row listed k times drawn k times)")
    if tree_params.get("prune", "none") != "none":
        raise InfotreeError("a forest grows its trees unpruned; prune is not allowed (allowed: 'none')")
    if tree_params.get("lookahead", 0):  # its two-level scores would look past the node's drawn features
        raise InfotreeError("a forest's trees choose greedily among drawn features; lookahead is not allowed "
                            "(allowed: 0)")


def plan(fc, crit, n, m, kinds):
    """(features drawn m_try, trees, each tree's feature draw or None) of a forest control on data of
    n rows and these feature kinds; checks the limits."""
    k = m_try(fc.max_features, m)
    fraction = _fraction(fc.sample_fraction)
    n_trees = len(fc.samples) if fc.samples is not None else int(fc.n_estimators)
    if fc.samples is not None and (not fc.samples or any(len(s) == 0 or min(s) < 0 or max(s) >= n
                                                         for s in fc.samples)):
        raise InfotreeError(f"samples must be one non-empty list of row indices 0 to {n - 1} per tree")
    limits.within("trees", n_trees)
    limits.within("forest_rows", sum(map(len, fc.samples)) if fc.samples is not None
                  else n_trees * max(1, round(fraction * n)), f" ({n_trees} trees)")
    seed, draws = int(fc.random_state), []
    for t in range(n_trees):
        if fc.draw == "tree" and k < m:
            tree_mask = np.zeros(m, bool)
            tree_mask[_choose(_stream(seed, t, _SUBSPACE), range(m), k)] = True
        else:
            tree_mask = np.ones(m, bool)
        per_node = k if fc.draw == "node" and k < m else None
        # Bagging needs no draw at all: every node sees what a single tree's node sees.
        draws.append(None if per_node is None and tree_mask.all() else _NodeDraw(seed, t, per_node, tree_mask,
                                                                                 crit.considers_used, kinds))
    return k, n_trees, draws


def samples_of(fc, n, n_trees) -> list:
    """Each tree's rows (sorted 0-based indices, a row drawn twice listed twice): given, drawn as one
    sample (``sampling="draw"``), or each row's count from :mod:`infotree.rowdraw` (``"poisson"``).
    int32 where the rows allow (half of a 100-tree forest's 7.6 MiB of samples at 10^4 rows)."""
    seed, fraction = int(fc.random_state), _fraction(fc.sample_fraction)
    size = max(1, round(fraction * n))
    rows_dtype = np.int32 if n <= 1 << 31 else np.int64
    if fc.samples is not None:
        return [np.sort(np.asarray(s, dtype=np.int64)).astype(rows_dtype) for s in fc.samples]
    if fc.sampling == POISSON:
        table, out = rowdraw.thresholds(fraction, fc.bootstrap), []
        for t in range(n_trees):
            rows = np.repeat(np.arange(n, dtype=rows_dtype), rowdraw.counts(seed, t, n, table))
            if not len(rows):
                raise empty_sample(t, n)
            out.append(rows)
        return out
    if fc.bootstrap:
        return [np.sort(np.asarray(_below(_stream(seed, t, _ROWS), [n] * size), dtype=rows_dtype))
                for t in range(n_trees)]
    if size == n:
        return [np.arange(n, dtype=rows_dtype) for _ in range(n_trees)]
    return [np.asarray(_choose(_stream(seed, t, _ROWS), range(n), size), dtype=rows_dtype) for t in range(n_trees)]


def empty_sample(t, n):
    return InfotreeError(f"tree {t + 1} of the forest took no row of the {n} under sampling 'poisson' (each row's count "
                         f"is random); give another seed, more rows or sampling 'draw'")


def forest_params(fc, crit, k, n) -> dict:
    return dict(criterion=crit.name, seed=int(fc.random_state), m_try=k, max_features=fc.max_features,
                draw=fc.draw, bootstrap=bool(fc.bootstrap), sample_size=max(1, round(_fraction(fc.sample_fraction) * n)),
                given=fc.samples is not None, vote=fc.vote, sampling=fc.sampling,
                fraction=_fraction(fc.sample_fraction))
