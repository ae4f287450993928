"""Array helpers of the fast CART builder: segment starts, cumulative counts, a group's
first best item decided exactly where the floats cannot, regression decreases as exact
numerators and denominators."""


from functools import lru_cache
from fractions import Fraction

import numpy as np

from ..criteria import Entropy, Gini
from ..splits import SubsetSplit



_U = 2.0 ** -53
# Strictly concave impurities: a split decreases them unless both sides have the parent's proportions.
_CONCAVE = (Gini, Entropy)
# Nominal features with at most this many values get their subsets as bit masks in
# bulk (2^V masks per node); wider ones are split node by node by the reference's splitter.
_MASK_VALUES = 10
# Counts below 2^26: sums of squares stay exact in floats, and proportions of different
# values order exactly as floats (two fractions of such denominators differ by > 2^-52).
_COUNT_LIMIT = 1 << 26
_POSITIONS = _COUNT_LIMIT - 1  # as a mask: the low 26 bits
# Sort keys below this are sorted as uint16: numpy radix-sorts them, several times faster.
_KEY16 = 1 << 16
# Value sets of nominal features with at most this many values are kept as int64 bit masks.
_BITS = 62


@lru_cache(maxsize=1 << 12)  # a tree's subset splits repeat a few (feature, value set) pairs
def _subset_split(j, bits, values) -> SubsetSplit:
    return SubsetSplit(j, frozenset(i for i in range(bits.bit_length()) if bits >> i & 1), values)


def _narrowest(a):
    """An integer array in the smallest signed dtype that holds its values (a grown depth's
    records: a forest's fit in 8 or 16 bits)."""
    if not a.size:
        return a
    lo, hi = int(a.min()), int(a.max())
    return a.astype(next(t for t in (np.int8, np.int16, np.int32, np.int64)
                         if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max), copy=False)


def fraction_table(numbers, numeric) -> tuple:
    """Numeric values as int64 numerators and denominators, all features end to end, for the
    features whose values are below 2^30 in both (their midpoints fit in int64): (whether a
    feature's are there, where each feature's start, numerators, denominators)."""
    small, offsets = np.zeros(len(numeric), bool), np.zeros(len(numeric), np.int64)
    num, den, at = [], [], 0
    for j, vals in enumerate(numbers):
        offsets[j] = at
        if not numeric[j] or not vals:
            continue
        nums, dens = [v.numerator for v in vals], [v.denominator for v in vals]
        if max(map(abs, nums)) < 1 << 30 and max(dens) < 1 << 30:
            small[j] = True
            num += nums
            den += dens
            at += len(vals)
    return small, offsets, np.array(num, np.int64), np.array(den, np.int64)


def _short_sum(a, axis):
    """a.sum(axis) over a short axis, as one addition per slice: numpy's reduction over a
    short axis costs several times more."""
    a = np.moveaxis(a, axis, 0)
    if not len(a):  # a feature with no value (every row missing)
        return np.zeros(a.shape[1:], np.int64)
    out = a[0].astype(np.int64)
    for x in a[1:]:
        out += x
    return out


def _cumcount(mask):
    """np.cumsum of a bool array, fast: as int8 into int32 (counts stay below 2^26)."""
    return np.cumsum(mask.view(np.int8), dtype=np.int32)


def _seg_starts(group):
    """Indices where a non-decreasing group array changes (the first item of each run)."""
    if not len(group):
        return np.zeros(0, np.int64)
    changes = np.flatnonzero(group[1:] != group[:-1])
    changes += 1
    return np.concatenate(([0], changes))


def _first_best(group, val, bnd, exact, starts=None):
    """Per group of items (sorted by group, then in tie order): the first item of maximal
    exact value.  ``val ± bnd`` holds each item's exact value; ``exact(items)`` gives the
    exact values of the listed items (only those the floats cannot separate are asked):
    a list of exact numbers, or (numerators, denominators) as arrays of ints.
    ``starts``: each group's first item, if the caller has them.
    Returns (groups, winner item per group, mask of the items exactly equal to their
    group's winner, winner included)."""
    n = len(group)
    eq = np.zeros(n, bool)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), eq
    if starts is None:
        starts = _seg_starts(group)
    floor = np.maximum.reduceat(val - bnd, starts)
    # The items that may be their group's best (each group has one: its float maximum),
    # usually one a group: the rest of the work is on these.
    items = np.flatnonzero(val + bnd >= np.repeat(floor, np.diff(starts, append=n)))
    g_of = np.searchsorted(starts, items, side="right") - 1
    s1 = _seg_starts(g_of)
    win = np.zeros(len(starts), np.int64)
    many = np.zeros(len(starts), bool)
    win[g_of[s1]] = items[s1]
    many[g_of[s1]] = np.diff(s1, append=len(items)) > 1
    eq[items[s1][~many[g_of[s1]]]] = True
    if many.any():
        sel = many[g_of]
        items, g_of = items[sel], g_of[sel]
        values = exact(items)
        if isinstance(values, tuple):  # rationals: each against its group's float leader, in integers
            num, den = values
            s2 = _seg_starts(g_of)
            rep = np.repeat(np.arange(len(s2)), np.diff(s2, append=len(items)))
            v = val[items]
            top = np.maximum.reduceat(v, s2)
            lead = np.minimum.reduceat(np.where(v == top[rep], np.arange(len(items)), len(items)), s2)[rep]
            diff = num * den[lead] - num[lead] * den
            above = (diff > 0).astype(bool)
            same = (diff == 0).astype(bool)
            bad = np.add.reduceat(above.astype(np.int64), s2) > 0
            ok = ~bad[rep]
            eq[items[same & ok]] = True
            firsts = np.minimum.reduceat(np.where(same, np.arange(len(items)), len(items)), s2)
            good = np.flatnonzero(~bad)
            win[g_of[s2[good]]] = items[firsts[good]]
            if bad.any():  # the floats misordered within their bounds: compare every one exactly
                sel = np.flatnonzero(bad[rep])
                _python_best(items[sel], g_of[sel], [Fraction(int(a), int(b)) for a, b in zip(num[sel], den[sel])], win, eq)
        else:
            _python_best(items, g_of, values, win, eq)
    return group[starts], win, eq


def _decreases(SL, nL, SR, nR):
    """Exact regression decreases d² / (n_L·n_R·n) of cuts (d = S_L·n_R − S_R·n_L, n = n_L + n_R;
    int64 sums of a side's rows, exact) as _first_best's (numerators, denominators): int64
    where every cross product of a numerator and a denominator fits (small nodes, whose
    cuts tie exactly most often), else Python ints."""
    nLf, nRf = nL.astype(np.float64), nR.astype(np.float64)
    # Bounds of |d| and of the denominators, in floats (a few roundings: 2^62 leaves room)
    top_d = (np.abs(SL) * nRf + np.abs(SR) * nLf).max(initial=0)
    top_n = (nLf * nRf * (nLf + nRf)).max(initial=0)
    if max(top_d, 1.0) ** 2 * top_n < 2.0 ** 62:  # the denominators themselves fit too
        d = SL * nR - SR * nL
        return d * d, nL * nR * (nL + nR)
    SL, nL, SR, nR = (a.astype(object) for a in (SL, nL, SR, nR))
    d = SL * nR - SR * nL
    return d * d, nL * nR * (nL + nR)


def _python_best(items, g_of, values, win, eq):
    best = {}
    for i, g, v in zip(items.tolist(), g_of.tolist(), values):
        b = best.get(g)
        if b is None or v > b[1]:
            best[g] = (i, v)
    for i, g, v in zip(items.tolist(), g_of.tolist(), values):
        if v == best[g][1]:
            eq[i] = True
    for g, (i, _) in best.items():
        win[g] = i


class _Stats:
    """A depth's children's regression statistics, as Node.class_counts reads a row of a
    block: the exact (n, Σy, Σy²) of row c, made when read."""

    __slots__ = ("b", "block")

    def __init__(self, b, block):
        self.b, self.block = b, block

    def __getitem__(self, c):
        return self.b.node_counts(self.block[c].tolist())


class Refused(Exception):
    """This tree is the reference builder's: a node's exhaustive subset search is past
    max_subsets (the reference raises the error, at the node it meets first, depth
    first), or a regression this builder does not take."""
