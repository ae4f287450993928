"""Splitters: a feature's candidate splits at a node, from its counts, and the best one.

Pure functions on class counts (ints, or Fractions with C4.5's weights), so each rule
can be tested on its own:

``best_threshold(by_value, min_side, key)``
    A numeric feature, its distinct values in ascending order with their class counts:
    the cut between adjacent values that minimises ``key(table)``, among the cuts that
    leave at least ``min_side`` weight on each side; the first (lowest) on a tie.
``best_subset(by_value, min_side, key, limit)``
    A nominal feature (CART): the subset S of its values present at the node, against
    the rest, that minimises ``key``.  Two classes: Breiman's ordering theorem (values
    sorted exactly by their proportion of the first class, ties by domain order; the
    k − 1 prefixes, as rpart compares them: with a minimum leaf size the theorem's
    optimum may be a prefix that is too small, and a non-prefix subset that would be
    admissible is not compared).  More classes: every one of the 2^(k−1) − 1 subsets, refused
    beyond ``limit`` with the count named.  S is written as the side holding the first
    present value in domain order.  On a tie: with two classes the first prefix wins
    (rpart's order of moves), with more the smallest S as a bit mask over the domain.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from .errors import InfotreeError

__all__ = ["best_subset", "best_threshold"]


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _minus(a, b):
    return tuple(x - y for x, y in zip(a, b))


def best_threshold(by_value, min_side, key, sizes=None, floats=None, every=None):
    """(position, (left, right), number of admissible cuts) or None; a cut at position r
    sends values 0..r left.  ``sizes`` (per value) is what ``min_side`` counts: the rows
    (CART with sample weights), or by default the weight.  ``floats(left, right)``, given
    integer count matrices (cuts × classes), returns each cut's key in floats and a bound
    on its error: then only the cuts the floats cannot separate from the least are keyed
    exactly (the decision never rests on a float).  ``every``, a list, receives (position,
    (left, right)) of every admissible cut."""
    if (floats is not None and every is None and len(by_value) >= 2 and all(type(c) is int for r in by_value for c in r)
            and sum(map(sum, by_value)) < 2 ** 26):  # squares of counts stay exact in floats
        return _best_threshold_filtered(by_value, min_side, key, sizes, floats)
    sizes = [sum(r) for r in by_value] if sizes is None else sizes
    total, n = tuple(map(sum, zip(*by_value))), sum(sizes)
    left, n_left = (0,) * len(total), 0
    cuts = []
    for r in range(len(by_value) - 1):
        left = _add(left, by_value[r])
        n_left += sizes[r]
        right = _minus(total, left)
        if n_left >= min_side and n - n_left >= min_side:
            cuts.append((r, (left, right)))
    if every is not None:
        every.extend(cuts)
    if not cuts:
        return None
    best, table = cuts[0]
    best_key = key(table)
    for r, tab in cuts[1:]:
        k = key(tab)
        if k < best_key:
            best, table, best_key = r, tab, k
    return best, table, len(cuts)


def _best_threshold_filtered(by_value, min_side, key, sizes, floats):
    """best_threshold on integer counts: cumulative counts in arrays, a certified float key,
    the exact key only where the float intervals overlap the least one."""
    import numpy as np

    counts = np.asarray(by_value, dtype=np.int64)
    n_of = counts.sum(axis=1) if sizes is None else np.asarray(sizes, dtype=np.int64)
    left = counts.cumsum(axis=0)[:-1]
    right = counts.sum(axis=0) - left
    n_left = n_of.cumsum()[:-1]
    ok = (n_left >= min_side) & (n_of.sum() - n_left >= min_side)
    if not ok.any():
        return None
    rows = np.flatnonzero(ok)
    value, bound = floats(left[rows], right[rows])
    lowest = (value + bound).min()
    close = rows[value - bound <= lowest]
    best, table, best_key = None, None, None
    for r in close.tolist():  # ascending: the first of equal keys stays
        tab = (tuple(left[r].tolist()), tuple(right[r].tolist()))
        k = key(tab)
        if best is None or k < best_key:
            best, table, best_key = r, tab, k
    return best, table, len(rows)


def best_subset(by_value, min_side, key, limit, *, what="this feature", sizes=None, order=None, every=None):
    """(left value codes, (left, right), number of subsets compared) or None.  ``order(counts)``
    ranks a value for the ordering theorem (two classes: its share of the first class;
    regression: its mean), or is None where every subset must be compared.  ``every``, a
    list, receives (left value codes, (left, right)) of every admissible subset."""
    sizes = [sum(r) for r in by_value] if sizes is None else sizes
    present = [i for i, r in enumerate(by_value) if any(r)]
    k = len(present)
    if k < 2:
        return None
    ordered = order is not None and order(by_value[present[0]]) is not None
    if ordered:
        ranked = sorted(present, key=lambda i: (order(by_value[i]), i))
        sides = [ranked[:m] for m in range(1, k)]
    else:
        count = 2 ** (k - 1) - 1
        if count > limit:
            classes = len(by_value[present[0]])
            raise InfotreeError(f"{what} has {k} values here and {classes} classes: an exact CART split compares "
                                f"2^{k - 1} - 1 = {count} subsets, beyond the limit of {limit} (max_subsets; "
                                f"--max-subsets {count} allows it)")
        rest = present[1:]
        sides = [[present[0], *extra] for m in range(k - 1) for extra in combinations(rest, m)]
    total = tuple(map(sum, zip(*by_value)))
    best = None
    tried = 0
    for side in sides:
        left_set = frozenset(side) if present[0] in side else frozenset(present) - frozenset(side)
        left = (0,) * len(total)
        for i in left_set:
            left = _add(left, by_value[i])
        right = _minus(total, left)
        n_left = sum(sizes[i] for i in left_set)
        if n_left < min_side or sum(sizes) - n_left < min_side:
            continue
        tried += 1
        if every is not None:
            every.append((left_set, (left, right)))
        mask = tried if ordered else sum(1 << i for i in left_set)
        k_ = key((left, right))
        if best is None or k_ < best[0] or (k_ == best[0] and mask < best[1]):
            best = (k_, mask, left_set, (left, right))
    if best is None:
        return None
    return best[2], best[3], tried
