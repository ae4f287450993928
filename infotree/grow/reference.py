"""The reference builder: the textbook recursion, for any criterion and split kind.

    grow(rows):  stop?  →  candidates  →  choose  →  partition  →  recurse

Every step is the plain exact one: a node's candidates are counted from its rows
(weighted rows, with C4.5's missing values), each numeric feature contributes its
best cut, the criterion (:mod:`infotree.criteria`) chooses exactly, and the routing
(:mod:`infotree.routing`) sends rows with a missing value down every branch.  It is
the specification: the level-wise builder must grow the identical tree with the
identical records, and the tests check that it does.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from ..lookahead import Scored, score, with_lookahead
from ..measures import is_independent
from ..node import _OFF_PATH, Node
from ..records import BinaryCandidate, Candidate, RegressionCandidate
from ..splits import NominalSplit, SubsetSplit, ThresholdSplit
from ..routing import SURROGATES
from ..splitters import best_subset, best_threshold, search_reach
from ..surrogates import find_surrogates, majority_of

__all__ = ["ReferenceBuilder"]


class ReferenceBuilder:
    """Grows ``tree`` on coded rows ``X`` (``-1``: missing) and class codes ``y``."""

    def __init__(self, tree, X, y):
        self.t, self.X, self.y = tree, np.asarray(X), np.asarray(y, dtype=np.int64)
        self.crit, self.p = tree.criterion, tree.params
        self.nc, self.m = len(tree.classes), len(tree.features)
        self.numeric = [k == "numeric" for k in tree.kinds]
        # regression: a row adds (w, w·y, w·y²) to its node's statistics, not w to its class
        self.values = tree.values if self.crit.regression else None
        if self.values is not None:
            # the targets over one common denominator: a node's sums are integer sums (decimal data with 17
            # digits would otherwise pay a gcd per addition), divided once
            self.scale = math.lcm(*(Fraction(v).denominator for v in self.values)) if len(self.values) else 1
            self.scaled = [int(Fraction(v) * self.scale) for v in self.values]
        # Poisson and exp: a row adds (w, w·d, w·t, w·d·ln(d/t)), t its exposure (tree.exposure)
        self.node_type = Node
        if getattr(self.crit, "counts_events", False):
            from ..survival import RateNode, row_terms

            self.node_type = RateNode
            self.row_terms = row_terms([self.values[c] for c in self.y.tolist()], tree.exposure)
        tree.missing_slot = bool(self.X.size and self.X.min() < 0)
        # C4.5's many-values rule: a nominal feature with at least 0.3·N declared values
        # counts towards the average gain only when every feature has that many.
        many = [len(d) >= 0.3 * len(self.y) and not num for d, num in zip(tree.domains, self.numeric)]
        self.in_average = [True] * self.m if all(many) else [not x for x in many]

    def run(self, rows=None, path=(), weights=None):
        """Grow from ``rows`` (all by default) at ``path``; ``weights``: one exact positive
        weight per row (sample weights), or None for weight 1 each."""
        rows = np.arange(len(self.y)) if rows is None else np.asarray(rows, dtype=np.int64)
        w = None if weights is None else [weights[r] for r in rows.tolist()]
        root = self.node_type(self.t, tuple(path), len(path), self.class_counts(rows, w))
        self.t.root = root
        self.grow(root, rows, w, frozenset(f for f, _ in path if not self.numeric[f]))

    # -- the recursion --
    def grow(self, node, rows, w, used) -> None:
        """Decide ``node`` (its rows, their weights or None for all 1) and grow its children."""
        p = self.p
        counts = node.class_counts.tolist()
        node.label = 0 if self.values is not None else self.crit.label(counts)  # first class on a tie
        if self.crit.pure(counts):
            node.stop = "pure"
            return
        # An M-of-N tree may test a feature again below (a test does not exhaust it): every
        # feature is a candidate of the one-feature table shown beside the node's search.
        node.considered = (np.ones(self.m, bool) if self.crit.considers_used or p.get("m_of_n")
                           else _OFF_PATH)
        cands = self.candidates(node, rows, w)
        node._candidates = cands
        if p["max_depth"] is not None and node.depth >= p["max_depth"]:
            node.stop = "max_depth"
            return
        # CART counts rows against min_samples_split, whatever they weigh (rpart's
        # partition.c, scikit-learn); ID3 and C4.5 their (fractional) weight.
        if (len(rows) if self.crit.binary else node.n) < p["min_samples_split"]:
            node.stop = "min_samples_split"
            return
        if p.get("m_of_n"):
            self.grow_m_of_n(node, rows)
            return
        if p.get("lookahead"):  # each candidate's two-level score (infotree.lookahead), where a choice is made
            cands = node._candidates = with_lookahead(self, node, rows, w, cands)
        choice = self.crit.choose(node, [Scored(c) for c in cands] if p.get("lookahead") else cands,
                                  _Context(p, self.in_average, used, self.m))
        node._valid, node._gain_ok = choice.valid, choice.gain_ok
        if choice.valid is not None:  # the criterion's verdicts join the candidate records
            node._candidates = [replace(c, valid=bool(choice.valid >> c.index & 1),
                                        passes_average_gain=None if choice.gain_ok is None
                                        else bool(choice.gain_ok >> c.index & 1)) for c in cands]
        if choice.feature is None:
            node.stop = choice.stop
            return
        best = next(c for c in cands if c.index == choice.feature)
        if p["stop_at_zero_gain"] and (is_independent(best.table) if best.lookahead is None else not best.lookahead):
            node.stop = "zero_gain"
            return
        if p["min_gain"] is not None and score(best) < p["min_gain"]:
            node.stop = "min_gain"
            return
        j = best.index
        node.test = getattr(best, "split", None) or (ThresholdSplit(j, best.threshold) if self.numeric[j]
                                                     else NominalSplit(j, self.t.domains[j]))
        node.ties = choice.ties
        below = used if self.numeric[j] or self.crit.binary else used | {j}
        node.children = []
        for v, (r, wv) in enumerate(self.partition(node, rows, w)):
            child = self.node_type(self.t, None, node.depth + 1, self.class_counts(r, wv), parent=node)
            child.step = (j, v)
            node.children.append(child)
            if child.n:
                self.grow(child, r, wv, below)
            else:  # an empty branch is a record only: no rows reach it
                child.stop, child.label = "empty", node.label

    def grow_m_of_n(self, node, rows) -> None:
        """Split ``node`` on the M-of-N test grown at it (:mod:`infotree.mofn`) when its gain is
        positive (and at least min_gain); its two children are grown alike."""
        from ..mofn import grow_m_of_n

        sub = self.X[rows]
        if not (sub != sub[0]).any():  # every row alike: no condition holds for some rows only
            node.stop = "no_separation"
            return
        t = self.t
        search = node.mofn = grow_m_of_n(_Coded(t, self.X, self.y), rows)
        gain = search.best.candidate.gain
        if not gain > 0:
            node.stop = "mofn_zero_gain"
            return
        if self.p["min_gain"] is not None and gain < self.p["min_gain"]:
            node.stop = "min_gain"
            return
        node.test = test = search.best.split
        node.children = []
        branch = np.array([test.route(r) for r in sub.tolist()], dtype=np.int64)
        for b in range(2):
            r = rows[branch == b]
            child = Node(t, None, node.depth + 1, self.class_counts(r, None), parent=node)
            child.step = (test.feature, b)
            node.children.append(child)
            self.grow(child, r, None, frozenset())

    # -- counts, candidates, partition --
    def class_counts(self, rows, w):
        """Class counts of the rows: ints, or exact Fractions once rows carry weights
        (regression: their statistics (Σw, Σw·y, Σw·y²))."""
        if self.values is not None:
            return np.array(self.stats_of(rows.tolist(), w), dtype=object)
        if w is None:
            return np.bincount(self.y[rows], minlength=self.nc).astype(np.int64)
        out = np.array([Fraction(0)] * self.nc, dtype=object)
        for c, x in zip(self.y[rows].tolist(), w):
            out[c] += x
        return out

    def stats_of(self, rows, w):
        """The statistics of rows (indices) with weights ``w`` (None: 1 each)."""
        if self.node_type is Node:
            return self.stats(self.y[rows].tolist() if len(rows) else [], w)
        terms = self.row_terms
        if w is None:
            return [len(rows)] + [sum((terms[r][k] for r in rows), zero) for k, zero in enumerate(_ZEROS)]
        return [sum(w, Fraction(0))] + [sum((x * terms[r][k] for r, x in zip(rows, w)), zero)
                                         for k, zero in enumerate(_ZEROS)]

    def stats(self, ys, w):
        """(Σw, Σw·y, Σw·y²) of target codes ``ys`` with weights ``w`` (None: 1 each), exact."""
        v = self.values
        if w is None:
            s, d = self.scaled, self.scale
            return [len(ys), Fraction(sum(s[c] for c in ys), d), Fraction(sum(s[c] * s[c] for c in ys), d * d)]
        return [sum(w, Fraction(0)), sum(x * v[c] for c, x in zip(ys, w)),
                sum(x * v[c] * v[c] for c, x in zip(ys, w))]

    def table(self, rows, w, codes, size):
        """Class counts per code 0..size-1 (a tuple of tuples), and of the missing rows (or None)."""
        if self.values is not None:
            return self.stats_table(rows, w, codes, size)
        zero = 0 if w is None else Fraction(0)
        tab = [[zero] * self.nc for _ in range(size + 1)]  # the last row: missing values
        weights = [1] * len(rows) if w is None else w
        for x, c, wt in zip(codes, self.y[rows].tolist(), weights):
            tab[x if x >= 0 else size][c] += wt
        unknown = tuple(tab[size])
        return tuple(map(tuple, tab[:size])), unknown if any(unknown) else None

    def stats_table(self, rows, w, codes, size):
        """Regression's table: the statistics per code 0..size-1, and of the missing rows (or None)."""
        rs, ws = [[] for _ in range(size + 1)], [[] for _ in range(size + 1)]
        weights = [1] * len(rows) if w is None else w
        for x, r, wt in zip(codes, rows.tolist(), weights):
            rs[x if x >= 0 else size].append(r)
            ws[x if x >= 0 else size].append(wt)
        tab = [tuple(self.stats_of(a, None if w is None else b)) for a, b in zip(rs, ws)]
        return tuple(tab[:size]), tab[size] if rs[size] else None

    def candidates(self, node, rows, w) -> list:
        """One record per feature considered here that has known values (and, if numeric, a cut)."""
        out = []
        for j in np.flatnonzero(node.considered).tolist():
            codes = self.X[rows, j].tolist()
            if self.numeric[j]:
                cand = self.best_cut(j, rows, w, codes)
            elif self.crit.binary:
                cand = self.best_subset(j, rows, w, codes, node.depth)
            else:
                table, unknown = self.table(rows, w, codes, len(self.t.domains[j]))
                cand = Candidate(self.t.features[j], j, table, self.t.domains[j], unknown=unknown)
            if cand is not None and any(map(any, cand.table)):
                out.append(cand)
        return out

    def best_cut(self, j, rows, w, codes):
        """The numeric candidate of feature j: its best cut between adjacent distinct values
        present here (least H(Y|cut), the first on a tie), among the cuts that leave the
        criterion's min_split weight on each side; None when there is no such cut."""
        ranks = sorted(set(x for x in codes if x >= 0))
        pos = {x: i for i, x in enumerate(ranks)}
        by_rank, unknown = self.table(rows, w, [pos.get(x, -1) for x in codes], len(ranks))
        ms = self.crit.min_split(sum(map(getattr(self.crit, "weight", sum), by_rank)), sum(1 for x in codes if x >= 0), self.nc, self.p)
        every = [] if self.p.get("every_split") else None
        found = None if ms is None else best_threshold(by_rank, ms, self.crit.cut_key, self.sizes(codes, pos, w),
                                                       getattr(self.crit, "cut_floats", None), every)
        if found is None:
            return None
        best, table, n_cuts = found
        threshold = self.t.threshold_between(j, ranks[best], ranks[best + 1])
        if self.crit.binary:
            tried = tuple((ThresholdSplit(j, self.t.threshold_between(j, ranks[r], ranks[r + 1])), tab)
                          for r, tab in every or ())
            return self.binary(self.t.features[j], j, ThresholdSplit(j, threshold), table, self.crit, n_cuts,
                               unknown=unknown, every=tried)
        return Candidate(self.t.features[j], j, table, ThresholdSplit(j, threshold).labels, unknown=unknown,
                         threshold=threshold, n_cuts=n_cuts, mdl=self.crit.mdl)

    def best_subset(self, j, rows, w, codes, depth):
        """The nominal candidate of feature j for a binary criterion: its best subset split."""
        domain = self.t.domains[j]
        by_value, unknown = self.table(rows, w, codes, len(domain))
        every = [] if self.p.get("every_split") else None
        found = best_subset(by_value, self.p.get("min_leaf", 1), self.crit.cut_key, self.p.get("max_subsets", 1 << 15),
                            what=f"feature {self.t.features[j]!r}", sizes=self.sizes(codes, None, w, len(domain)),
                            order=self.crit.subset_order, every=every,
                            reach=search_reach(self.p["max_depth"], depth))
        if found is None:
            return None
        left, table, tried = found
        return self.binary(self.t.features[j], j, SubsetSplit(j, left, domain), table, self.crit, tried,
                           unknown=unknown, every=tuple((SubsetSplit(j, s, domain), t) for s, t in every or ()))

    @property
    def binary(self):
        """The record of a binary candidate: regression's shows means and SSEs."""
        if self.node_type is not Node:
            from ..survival import RateCandidate

            return RateCandidate
        return RegressionCandidate if self.values is not None else BinaryCandidate

    def sizes(self, codes, pos, w, size=None):
        """Rows per value when CART counts rows against min_leaf though they carry sample
        weights (or regression statistics); None (the weight counts) otherwise."""
        if (w is None and self.values is None) or not self.crit.binary:
            return None
        out = [0] * (len(pos) if pos is not None else size)
        for x in codes:
            if x >= 0:
                out[pos[x] if pos is not None else x] += 1
        return out

    def partition(self, node, rows, w):
        """Each branch's (rows, weights): a known value goes down its branch; a missing one
        by the criterion's routing: C4.5 down every branch, its weight times the branch's
        share of the known weight; CART by the node's surrogates (which are found here)."""
        test = node.test
        x = self.X[rows, test.feature].tolist()
        branch = [-1 if c < 0 else test.route(self.value(test.feature, c)) for c in x]
        weights = [Fraction(1)] * len(rows) if w is None else w
        parts = [([], []) for _ in test.labels]
        for r, b, wt in zip(rows.tolist(), branch, weights):
            if b >= 0:
                parts[b][0].append(r)
                parts[b][1].append(wt)
        if self.crit.missing is SURROGATES:
            self.surrogates(node, rows, branch, parts, w)
        elif -1 in branch:
            shares = self.crit.missing.shares([sum(p[1], Fraction(0)) for p in parts])
            for r, b, wt in zip(rows.tolist(), branch, weights):
                if b < 0:
                    for v, wv in self.crit.missing.spread(wt, shares):
                        parts[v][0].append(r)
                        parts[v][1].append(wv)
        plain = w is None and (-1 not in branch or self.crit.missing is SURROGATES)
        return [(np.asarray(r, dtype=np.int64), None if plain else ws) for r, ws in parts]

    @staticmethod
    def rpart_left(node) -> int:
        """The branch rpart puts on the left: the smaller mean class index Σ c·p_c, or the
        smaller mean (anova); equal means: the high side of a cut, else the subset's own side."""
        means = [node.tree.criterion.side_mean(r) for r in node.chosen.table]
        if means[0] != means[1]:
            return 0 if means[0] < means[1] else 1
        return 1 if node.threshold is not None else 0

    def value(self, j, code):
        """A row's value of feature j as splits read it: exact number or value code."""
        return self.t.numbers[j][code] if self.numeric[j] else code

    def surrogates(self, node, rows, branch, parts, w):
        """CART: the node's surrogate splits and majority, and its rows with the primary
        missing sent down by them (rpart's usesurrogate); a row that stays goes nowhere."""
        most, use = self.p.get("surrogates", 5), self.p.get("use_surrogate", 2)
        dirs = [None if b < 0 else b for b in branch]
        if most > 0:
            columns = [self.X[rows, j].tolist() for j in range(self.m)]
            node.surrogates = find_surrogates(self.t, node.test.feature, dirs, columns, most,
                                              flip=self.rpart_left(node) == 1, style=self.p.get("surrogate_style", 0),
                                              weights=w)
            node.majority = majority_of(dirs, w)
        routed = [0] * len(node.surrogates)
        weights = [Fraction(1)] * len(rows) if w is None else w
        for r, b, wt in zip(rows.tolist(), branch, weights):
            if b >= 0:
                continue

            def value_of(j, r=r):
                c = int(self.X[r, j])
                return None if c < 0 else self.value(j, c)

            d, by = SURROGATES.route(node, value_of, use)
            if d is not None:
                parts[d][0].append(r)
                parts[d][1].append(wt)
                if by is not None:
                    routed[by] += 1
        node.surrogates = tuple(replace(s, routed=k) for s, k in zip(node.surrogates, routed))


# the zeros the sums of a Poisson row's terms (w·d, w·t, w·d·ln(d/t)) start from
_ZEROS = (Fraction(0), Fraction(0), 0)


class _Coded:
    """The tree's coded rows as :func:`infotree.mofn.grow_m_of_n` reads a Dataset."""

    def __init__(self, tree, X, y):
        self.X, self.y = X, y
        self.features, self.domains, self.classes, self.kinds = tree.features, tree.domains, tree.classes, tree.kinds


class _Context:
    """What a criterion's choice may ask beyond the candidates: the parameters, C4.5's
    average-gain features, and the features used on the path."""

    def __init__(self, params, in_average, used, m):
        self.params, self.in_average, self.used = params, in_average, used
        self.all_used = len(used) == m

    def eligible(self, c) -> bool:
        """Not tested on the path (nominal) and separating: two non-empty branches."""
        return c.index not in self.used and sum(1 for b in c.table if any(b)) >= 2
