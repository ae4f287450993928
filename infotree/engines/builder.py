"""Growing a tree from a provider's count tables: the reference builder's decisions, level
by level.

:class:`EngineBuilder` is :class:`~infotree.grow.reference.ReferenceBuilder` with its rows
replaced by a provider's tables: ``grow`` (the specification's one recursion: stop? →
candidates → choose → partition) runs unchanged on each node, and only where the reference
counts rows, this builder reads the depth's tables (``candidates``, ``class_counts``) or
tells the provider where the rows go (``partition``).  A child is not grown at once but
queued, so that one depth's nodes are counted by one query per feature.  The candidate
records are made from the tables exactly as the reference makes them from rows
(``best_threshold`` on the class counts by rank, ``best_subset`` on the counts by value),
so the tree, its records and every printer's bytes are those of ``build_tree``.

Surrogate splits (CART) are read from the children's tables at the next depth: a
child's (feature, value) counts are its parent's counts of that value in its direction,
which is all rpart's agreement needs (:mod:`.agreement`).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from ..criteria import Gini
from ..grow.reference import ReferenceBuilder
from ..node import Node
from ..records import Candidate
from ..routing import SURROGATES
from ..splits import SubsetSplit, ThresholdSplit
from ..splitters import best_subset, best_threshold, search_reach
from .agreement import surrogates_of
from .memory import MemoryProvider
from .provider import Route

__all__ = ["EngineBuilder", "grow_together"]


class _Handle:
    """A node's place in a provider: its id there, its class counts, its tables at its depth."""

    __slots__ = ("id", "provider", "counts", "tables", "parent", "cuts")

    def __init__(self, id_, provider, counts, parent=None):
        self.id, self.provider, self.counts = id_, provider, counts
        self.tables, self.parent = None, parent
        self.cuts = None

    def __len__(self):  # the node's rows, as the reference's len(rows)
        c = self.counts
        return int(c[0]) if c.dtype == object else int(c.sum())


class EngineBuilder(ReferenceBuilder):
    """Grows ``tree`` on a provider's rows; ``in_memory``: a node of at most this many rows
    is finished in memory (its rows taken from the provider; at most this many rows in all),
    None: never."""

    def __init__(self, tree, provider, in_memory=None):  # noqa: super().__init__ reads rows
        self.t, self.provider, self.in_memory = tree, provider, in_memory
        self.crit, self.p = tree.criterion, tree.params
        self.nc, self.m = len(tree.classes), len(tree.features)
        self.numeric = [k == "numeric" for k in tree.kinds]
        self.values = tree.values if self.crit.regression else None
        if self.values is not None:  # as the reference: the targets over one common denominator
            self.scale = math.lcm(*(Fraction(v).denominator for v in self.values)) if len(self.values) else 1
            self.scaled = [int(Fraction(v) * self.scale) for v in self.values]
        self.node_type = Node  # (the reference's rate nodes are Poisson's, refused by grow)
        tree.missing_slot = False
        n = provider.n_rows
        many = [len(d) >= 0.3 * n and not num for d, num in zip(tree.domains, self.numeric)]
        self.in_average = [True] * self.m if all(many) else [not x for x in many]
        self.with_surrogates = self.crit.missing is SURROGATES and self.p.get("surrogates", 5) > 0
        # Numeric cuts filtered in the engine (Gini: its float key and certified bound in SQL);
        # surrogates read every value's counts, so with them the tables travel whole.
        self.filtered = type(self.crit) is Gini and not self.with_surrogates
        self.slack = (3 * self.nc + 16) * 2.0 ** -52
        self.ids = _Ids(1)      # node ids in the provider (a forest's trees share one)
        self.budget = None      # rows that may still come into memory (a forest's trees share it); None: any
        self.taken = 0          # rows taken into memory so far (PLANET)
        self.queue = []
        self.deciding = None
        self.routes = {}
        self.parents = []  # (node, handle, left child handle, right child handle): surrogates to find
        self.levels = {}   # id(node) -> the value codes a subset split's rows had

    def run(self, rows=None, path=(), weights=None):
        if rows is not None or path or weights is not None:
            raise ValueError("an engine grows the whole data from the root")
        self.plant(0, self.provider.root(self.scaled if self.values is not None else None))
        grow_together([self])

    def plant(self, id_, counts):
        """The root: node ``id_`` of the provider, with these counts (as ``provider.root`` gives them)."""
        h = _Handle(id_, self.provider, self.node_counts(counts))
        self.t.root = Node(self.t, (), 0, self.class_counts(h, None))
        self.queue = [(self.t.root, h, frozenset())]

    def decide(self, level):
        """The reference's decisions on one depth's nodes (their tables counted); their routes."""
        self.find_surrogates()
        self.routes = {}
        for node, h, used in level:
            self.deciding = h
            super().grow(node, h, None, used)
        return self.routes

    # -- a numeric feature's codes in the provider and in the tree (a forest's tree keeps the
    # values of its sample only, as Dataset.sample) --
    def rank(self, j, code):
        return code

    def code(self, j, rank):
        return rank

    # -- the depth's tables --
    def count(self, level):
        """Each node's tables, one provider query per feature for all nodes of the depth;
        first, the nodes small enough are moved into memory (PLANET)."""
        if self.in_memory is not None and level[0][0].depth > 0:  # the root's tables always the engine's
            self.to_memory([h for _, h, _ in level if not isinstance(h.provider, MemoryProvider)])
        wanted = {}
        for node, h, _ in level:  # a pure node is a leaf without candidates; its parent's surrogates read it
            if not self.crit.pure(node.class_counts.tolist()) or h.parent is not None and self.with_surrogates:
                wanted.setdefault(h.provider, []).append(h)
        numeric = [j for j in range(self.m) if self.numeric[j]]
        for provider, handles in wanted.items():
            at = {h.id: h for h in handles}
            for h in handles:
                h.tables = [None] * self.m
            filtered = self.filtered and numeric and hasattr(provider, "cuts")
            features = [j for j in range(self.m) if not self.numeric[j]] if filtered else None
            if filtered:
                cuts = provider.cuts(list(at), numeric, self.p.get("min_leaf", 1), self.slack)
                for h in handles:
                    h.cuts = {j: cuts[j].get(h.id, (0, [])) for j in numeric}
            for j, table in enumerate(provider.tables(list(at), features)):
                if table is None:
                    continue
                node = table.node
                starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]]) if len(node) else []
                ends = np.r_[starts[1:], len(node)] if len(node) else []
                codes = table.code.tolist()
                for a, b in zip(list(starts), list(ends)):
                    at[int(node[a])].tables[j] = (codes[a:b], table.counts[a:b])
                for h in handles:
                    if h.tables[j] is None:
                        h.tables[j] = ([], [])

    def to_memory(self, handles):
        provider = self.provider
        small = [h.id for h in handles if h.provider is provider]
        if not small:
            return
        sizes = provider.sizes(small)
        # At most in_memory rows are ever taken, in all (smallest nodes first): a depth of
        # many nodes each under the threshold would otherwise bring the whole data in.  A
        # forest's trees also share one budget of rows held in memory.
        take = []
        for k in sorted(small, key=lambda k: (sizes[k], k)):
            if self.taken + sizes[k] > self.in_memory or (self.budget is not None and sizes[k] > self.budget[0]):
                break
            take.append(k)
            self.taken += sizes[k]
            if self.budget is not None:
                self.budget[0] -= sizes[k]
        if not take:
            return
        ids, X, y = provider.take(take)
        memory = MemoryProvider(provider.schema, X, y, ids, scaled=self.scaled if self.values is not None else None)
        take = set(take)
        for h in handles:
            if h.id in take:
                h.provider = memory

    def node_counts(self, row):
        """A provider's counts as the reference's: class counts (int64) or regression's exact
        (n, Σy, Σy²)."""
        if self.values is not None:
            n, S, Q = row
            return np.array([n, Fraction(S, self.scale), Fraction(Q, self.scale * self.scale)], dtype=object)
        return np.array(row, dtype=np.int64)

    def row(self, counts):
        """A table row as the reference's ``table`` makes it."""
        if self.values is not None:
            n, S, Q = counts
            return (n, Fraction(S, self.scale), Fraction(Q, self.scale * self.scale))
        return tuple(counts)

    def zero(self):
        return self.row((0, 0, 0)) if self.values is not None else (0,) * self.nc

    # -- the reference's steps, on tables --
    def grow(self, node, handle, w, used):
        if handle is self.deciding:
            return super().grow(node, handle, w, used)
        self.queue.append((node, handle, used))  # a child: decided with its depth

    def class_counts(self, handle, w):
        return handle.counts

    def candidates(self, node, h, w) -> list:
        out = []
        for j in np.flatnonzero(node.considered).tolist():
            if h.cuts is not None and j in h.cuts:
                cand = self.filtered_cut(j, h)
                if cand is not None:
                    out.append(cand)
                continue
            codes, counts = h.tables[j]
            if not codes:
                continue
            rows = [self.row(c) for c in counts]
            if self.numeric[j]:
                cand = self.cut(j, codes, rows)
            else:
                by_value = [self.zero()] * len(self.t.domains[j])
                for x, r in zip(codes, rows):
                    by_value[x] = r
                by_value = tuple(by_value)
                if self.crit.binary:
                    cand = self.subset(j, by_value, search_reach(self.p["max_depth"], node.depth))
                else:
                    cand = Candidate(self.t.features[j], j, by_value, self.t.domains[j], unknown=None)
            if cand is not None and any(map(any, cand.table)):
                out.append(cand)
        return out

    def sizes_of(self, rows):
        """Rows per value where CART counts rows against min_leaf (regression), as ``sizes``."""
        return [r[0] for r in rows] if self.values is not None and self.crit.binary else None

    def cut(self, j, ranks, by_rank):
        """ReferenceBuilder.best_cut on the node's class counts by value rank."""
        ms = self.crit.min_split(sum(map(sum, by_rank)), sum(self.known(by_rank)), self.nc, self.p)
        found = None if ms is None else best_threshold(by_rank, ms, self.crit.cut_key, self.sizes_of(by_rank),
                                                       getattr(self.crit, "cut_floats", None), None)
        if found is None:
            return None
        best, table, n_cuts = found
        threshold = self.t.threshold_between(j, self.rank(j, ranks[best]), self.rank(j, ranks[best + 1]))
        if self.crit.binary:
            return self.binary(self.t.features[j], j, ThresholdSplit(j, threshold), table, self.crit, n_cuts,
                               unknown=None, every=())
        return Candidate(self.t.features[j], j, table, ThresholdSplit(j, threshold).labels, unknown=None,
                         threshold=threshold, n_cuts=n_cuts, mdl=self.crit.mdl)

    def filtered_cut(self, j, h):
        """The numeric candidate from the cuts the engine kept: the exact least key among them,
        the first on a tie (best_threshold's choice: every cut it could choose was kept)."""
        n_cuts, kept = h.cuts[j]
        if not kept:
            return None
        total = h.counts.tolist()
        best = None
        for lo, hi, left in kept:
            table = (left, tuple(t - x for t, x in zip(total, left)))
            key = self.crit.cut_key(table)
            if best is None or key < best[0]:
                best = (key, lo, hi, table)
        _, lo, hi, table = best
        threshold = self.t.threshold_between(j, self.rank(j, lo), self.rank(j, hi))
        return self.binary(self.t.features[j], j, ThresholdSplit(j, threshold), table, self.crit, n_cuts,
                           unknown=None, every=())

    def known(self, rows):
        """Rows per value (the reference counts the node's known rows)."""
        return [r[0] for r in rows] if self.values is not None else [sum(r) for r in rows]

    def subset(self, j, by_value, reach):
        domain = self.t.domains[j]
        floats = getattr(self.crit, "cut_floats", None)
        found = _subsets_filtered(by_value, self.p.get("min_leaf", 1), self.crit, self.p.get("max_subsets", 1 << 15),
                                  floats, reach) if floats is not None else None
        if found is None:
            found = best_subset(by_value, self.p.get("min_leaf", 1), self.crit.cut_key,
                                self.p.get("max_subsets", 1 << 15), what=f"feature {self.t.features[j]!r}",
                                sizes=self.sizes_of(by_value), order=self.crit.subset_order, every=None,
                                floats=floats, reach=reach)
        elif found is False:
            return None
        if found is None:
            return None
        left, table, tried = found
        return self.binary(self.t.features[j], j, SubsetSplit(j, left, domain), table, self.crit, tried,
                           unknown=None, every=())

    def partition(self, node, h, w):
        """The children's handles (their counts: the chosen record's branches) and the
        provider's route for the node's rows."""
        test, j = node.test, node.test.feature
        chosen = next(c for c in node._candidates if c.index == j)
        first = self.ids.take(len(test.labels))
        if self.numeric[j]:
            route = Route(j, first, cut=self.code(j, bisect.bisect_right(self.t.numbers[j], test.threshold) - 1))
        else:
            route = Route(j, first, branch=tuple(test.route(c) for c in range(len(self.t.domains[j]))))
        self.routes.setdefault(h.provider, {})[h.id] = route
        kids = [_Handle(first + b, h.provider, self.node_counts_of_row(r), h) for b, r in enumerate(chosen.table)]
        if isinstance(test, SubsetSplit):
            self.levels[node] = frozenset(h.tables[j][0])
        if self.crit.missing is SURROGATES:
            node.surrogates = ()
            if self.with_surrogates:
                self.parents.append((node, j, kids))
        return [(k, None) for k in kids]

    def node_counts_of_row(self, r):
        if self.values is not None:
            return np.array(list(r), dtype=object)
        return np.array(r, dtype=np.int64)

    def find_surrogates(self):
        """The surrogates of the last depth's split nodes, from their children's tables."""
        parents, self.parents = self.parents, []
        reg = self.values is not None
        for node, primary, kids in parents:
            sides = [[dict(zip(codes, (c[0] if reg else sum(c) for c in counts))) for codes, counts in k.tables]
                     for k in kids]
            found, majority = surrogates_of(self.t, primary, sides, self.p.get("surrogates", 5),
                                            self.rpart_left(node) == 1, self.p.get("surrogate_style", 0))
            node.surrogates = tuple(replace(s, routed=0) for s in found)
            node.majority = majority


class _Ids:
    """Consecutive node ids, handed out in blocks (a split's children)."""

    def __init__(self, first):
        self.next = first

    def take(self, k):
        first, self.next = self.next, self.next + k
        return first


def grow_together(builders):
    """Builders on one provider (a forest's trees, their roots planted) grown depth by depth: each
    depth's nodes of every tree counted by one query per feature, each tree's nodes decided by
    its builder, the rows moved by one split."""
    while any(b.queue for b in builders):
        levels = [(b, b.queue) for b in builders if b.queue]
        for b, _ in levels:
            b.queue = []
        levels[0][0].count([item for _, level in levels for item in level])
        moves = {}
        for b, level in levels:
            for provider, routes in b.decide(level).items():
                moves.setdefault(provider, {}).update(routes)
        for provider, routes in moves.items():
            provider.split(routes)


def _subsets_filtered(by_value, min_side, crit, limit, floats, reach=None):
    """best_subset's exhaustive search (more than two classes) with the certified float filter
    the fast CART builder uses: every admissible subset scored in floats at once, the exact key
    asked only where the bounds overlap the least; the same (key, value mask) order decides.
    None where best_subset must search (ordered values, budgets, weights, large counts); False
    when no subset is admissible."""
    from ..splitters import MAX_SUBSETS, SUBSET_WORK

    present = [i for i, r in enumerate(by_value) if any(r)]
    k = len(present)
    if k < 3 or (crit.subset_order is not None and crit.subset_order(by_value[present[0]]) is not None):
        return None
    if not all(type(c) is int for r in by_value for c in r):
        return None
    counts = np.array([by_value[i] for i in present], dtype=np.int64)
    total = counts.sum(axis=0)
    n = int(total.sum())
    count = 2 ** (k - 1) - 1
    if n >= 1 << 26 or count > min(limit, MAX_SUBSETS) or count * min(n, reach or n) > SUBSET_WORK:
        return None
    bits = (np.arange(count)[:, None] >> np.arange(k - 1)) & 1       # the values of present[1:] on the left
    left = counts[0] + bits @ counts[1:]
    sizes = counts.sum(axis=1)
    n_left = sizes[0] + bits @ sizes[1:]
    ok = np.flatnonzero((n_left >= min_side) & (n - n_left >= min_side))
    if not len(ok):
        return False
    right = total - left[ok]
    value, bound = floats(left[ok], right)
    close = ok[value - bound <= (value + bound).min()]
    codes = np.array(present[1:], dtype=np.int64)
    best = None
    for c in close.tolist():
        side = (present[0], *codes[bits[c] == 1].tolist())
        table = (tuple(left[c].tolist()), tuple((total - left[c]).tolist()))
        key, mask = crit.cut_key(table), sum(1 << i for i in side)
        if best is None or key < best[0] or (key == best[0] and mask < best[1]):
            best = (key, mask, frozenset(side), table)
    return best[2], best[3], len(ok)
