"""Lookahead 1: a feature scored by the best total gain of a two-level split.

The greedy score of a candidate X at a node is its gain: ID3's IG(X), C4.5's
corrected gain (known fraction × IG on the known rows − MDL), CART's impurity
decrease ΔI.  With lookahead 1 its score is the gain of the two-level split that
splits every child of X once more by that child's best second split:

    LA(X) = gain(X) + k_X · Σ_v p_v · max(0, max_g gain_v(g))

where v runs over X's branches, p_v is branch v's share of the rows whose X is known
(k_X: their share of the node; 1 without missing values, and always 1 for CART,
whose decrease is over the known rows), and gain_v(g) is the criterion's own gain of
candidate g on branch v's rows (the same candidate records a node of the tree would
get: ID3 drops the features of the path and X itself, C4.5 and CART may reuse X, a
numeric g contributes its best cut).  A pure or empty branch, or one without a
second split that separates its rows, stays a leaf and adds 0; so does a second
split whose gain is not positive (C4.5's MDL term can make it negative).  For ID3
this is exactly

    LA(X) = H(Y) − Σ_v p_v · min( H(Y | X=v), min_g H(Y | X=v, g) ),

the information gain of the two-level tree.  The second level ignores the stopping
rules (depth, minimum sizes): it only scores.  The criterion then chooses as it
always does with LA in place of the gain wherever it reads one (C4.5: the average-
gain filter and gain ratio LA(X)/SplitInfo(X); CART: improvement n·LA); ties are
exact and go to the first feature in column order.  Sources: Norton (1989),
"Generating better decision trees", IJCAI; Murthy & Salzberg (1995), "Lookahead and
pathology in decision tree induction", IJCAI (one-level lookahead with the same
goodness measure at the second level, as here).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from .node import _OFF_PATH, Node
from .records import BinaryCandidate
from .splits import NominalSplit, ThresholdSplit

__all__ = ["Scored", "greedy_score", "score", "with_lookahead"]


def greedy_score(c):
    """The criterion's one-level gain of a candidate: IG (C4.5: corrected) or CART's decrease."""
    return c.decrease if isinstance(c, BinaryCandidate) else c.gain


def score(c):
    """The score a criterion ranks by: the lookahead score when one was computed, else the greedy one."""
    return greedy_score(c) if c.lookahead is None else c.lookahead


class Scored:
    """A candidate as a criterion sees it under lookahead: its gain (CART: its decrease,
    and so its improvement) is the two-level one; everything else is the candidate's."""

    __slots__ = ("_c",)

    def __init__(self, c):
        self._c = c

    def __getattr__(self, name):
        return getattr(self._c, name)

    @property
    def gain(self):
        return self._c.lookahead

    @property
    def gain_ratio(self):
        return self._c.lookahead_ratio

    @property
    def decrease(self):
        return self._c.lookahead

    @property
    def improvement(self):
        return self._c.lookahead * self._c.n


def _test_of(builder, c):
    if isinstance(c, BinaryCandidate):
        return c.split
    j = c.index
    return ThresholdSplit(j, c.threshold) if builder.numeric[j] else NominalSplit(j, builder.t.domains[j])


def _branches(builder, c, rows, w):
    """Each branch's (rows, weights or None) of candidate ``c``: the rows whose value is known."""
    test = _test_of(builder, c)
    codes = builder.X[rows, c.index].tolist()
    parts = [([], []) for _ in test.labels]
    weights = [None] * len(codes) if w is None else w
    for r, x, wt in zip(rows.tolist(), codes, weights):
        if x >= 0:
            b = test.route(builder.value(c.index, x))
            parts[b][0].append(r)
            parts[b][1].append(wt)
    return [(np.asarray(r, dtype=np.int64), None if w is None else ws) for r, ws in parts], test


def best_second(builder, node, rows, w, test, v):
    """The best positive gain of a second split on branch v of ``test`` at ``node`` (0: none)."""
    child = Node(builder.t, None, node.depth + 1, builder.class_counts(rows, w), parent=node)
    child.step = (test.feature, v)
    if sum(1 for k in child.class_counts.tolist() if k) <= 1:
        return 0
    child.considered = np.ones(builder.m, bool) if builder.crit.considers_used else _OFF_PATH
    best = 0
    for g in builder.candidates(child, rows, w):
        if sum(1 for b in g.table if any(b)) >= 2:
            s = greedy_score(g)
            if s > best:
                best = s
    return best


def with_lookahead(builder, node, rows, w, cands) -> list:
    """The candidates with their ``lookahead`` score (see the module docstring)."""
    out = []
    for c in cands:
        known = [sum(b) for b in c.table]
        total = sum(known)
        if not total:
            out.append(c)
            continue
        parts, test = _branches(builder, c, rows, w)
        extra = 0
        for v, ((r, wv), n_v) in enumerate(zip(parts, known)):
            if n_v:
                extra = extra + Fraction(n_v) / Fraction(total) * best_second(builder, node, r, wv, test, v)
        k = Fraction(1) if isinstance(c, BinaryCandidate) else c.known_fraction
        out.append(replace(c, lookahead=greedy_score(c) + k * extra))
    return out
