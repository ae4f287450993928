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

__all__ = ["MAX_SUBSETS", "SUBSET_WORK", "best_subset", "best_threshold", "search_reach"]


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


#: The most subsets an exhaustive search may be allowed (``max_subsets``' ceiling): past it the
#: search takes hours (about 150 µs a subset).
MAX_SUBSETS = 1 << 20
#: The most subsets an exhaustive search may compare in a tree, counted before it starts as
#: its subsets × the most nodes where it may run again (:func:`search_reach`).  The search
#: reads a count table, so its rows cost nothing; they bound only how often it repeats.
SUBSET_WORK = 1 << 32


def search_reach(max_depth, depth):
    """The most nodes, a node at ``depth`` and those below it, that a search there may run at
    again: a full binary tree down to ``max_depth`` (at depth 8, 511), or None where only the
    node's rows bound them (one node a row)."""
    return None if max_depth is None else (2 << max(max_depth - depth, 0)) - 1


def _best_prefix(by_value, ranked, first, sizes, min_side, key, every, floats=None):
    """Breiman's ordering: the k − 1 prefixes of ``ranked``, in one pass with running sums
    (O(k log k) with the sort, not O(k²)); the first of equal keys wins, as rpart's moves.
    A subset is written as the side holding ``first`` (the lowest present value).
    ``floats`` as for :func:`best_threshold`: only the prefixes the floats cannot separate
    from the least are keyed exactly."""
    total = tuple(map(sum, zip(*by_value)))
    n = sum(sizes)
    at = ranked.index(first)
    left, n_left = (0,) * len(total), 0
    cuts = []  # (m, left, right) of every admissible prefix
    for m, i in enumerate(ranked[:-1], 1):
        left = _add(left, by_value[i])
        n_left += sizes[i]
        if n_left >= min_side and n - n_left >= min_side:
            cuts.append((m, left, _minus(total, left)))
    if not cuts:
        return None
    if every is not None:
        every.extend((_prefix_side(ranked, m, at), (l, r) if at < m else (r, l)) for m, l, r in cuts)
    close = cuts
    if (floats is not None and len(cuts) > 2 and all(type(c) is int for c in total) and sum(total) < 2 ** 26):
        import numpy as np

        value, bound = floats(np.array([c[1] for c in cuts], dtype=np.int64),
                              np.array([c[2] for c in cuts], dtype=np.int64))
        keep = value - bound <= (value + bound).min()
        close = [c for c, k in zip(cuts, keep.tolist()) if k]  # in prefix order: the first equal stays
    best = None
    for m, l, r in close:
        table = (l, r) if at < m else (r, l)
        k_ = key(table)
        if best is None or k_ < best[0]:
            best = (k_, m, table)
    return _prefix_side(ranked, best[1], at), best[2], len(cuts)


def _prefix_side(ranked, m, at):
    """The values of the prefix ``ranked[:m]``, or of the rest when ``at`` (the lowest value) is not in it."""
    return frozenset(ranked[:m]) if at < m else frozenset(ranked[m:])


def best_subset(by_value, min_side, key, limit, *, what="this feature", sizes=None, order=None, every=None,
                floats=None, reach=None):
    """(left value codes, (left, right), number of subsets compared) or None.  ``order(counts)``
    ranks a value for the ordering theorem (two classes: its share of the first class;
    regression: its mean), or is None where every subset must be compared.  ``every``, a
    list, receives (left value codes, (left, right)) of every admissible subset.  ``reach``:
    :func:`search_reach` for this node (at most its rows)."""
    sizes = [sum(r) for r in by_value] if sizes is None else sizes
    present = [i for i, r in enumerate(by_value) if any(r)]
    k = len(present)
    if k < 2:
        return None
    if order is not None and order(by_value[present[0]]) is not None:
        ranked = sorted(present, key=lambda i: (order(by_value[i]), i))
        return _best_prefix(by_value, ranked, present[0], sizes, min_side, key, every, floats)
    count = 2 ** (k - 1) - 1
    classes = len(by_value[present[0]])
    head = f"{what} has {k} values here and {classes} classes: an exact CART split compares 2^{k - 1} - 1 = {count} subsets"
    reach = sum(sizes) if reach is None else min(reach, sum(sizes))
    work = count * reach
    if count > MAX_SUBSETS or work > SUBSET_WORK:  # refused before any subset is made, whatever max_subsets says
        raise InfotreeError(f"{head} at each of up to {reach} nodes ({work} in all), beyond the budget of "
                            f"{MAX_SUBSETS} subsets at a node and 2^{SUBSET_WORK.bit_length() - 1} in a tree (merge "
                            f"values, limit the depth, or choose another algorithm)")
    if count > limit:
        raise InfotreeError(f"{head}, beyond the limit of {limit} (max_subsets; --max-subsets {count} allows it)")
    rest = present[1:]
    sides = (  # a generator: the subsets are never all held at once
        [present[0], *extra] for m in range(k - 1) for extra in combinations(rest, m))
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
        mask = sum(1 << i for i in left_set)
        k_ = key((left, right))
        if best is None or k_ < best[0] or (k_ == best[0] and mask < best[1]):
            best = (k_, mask, left_set, (left, right))
    if best is None:
        return None
    return best[2], best[3], tried
