"""Surrogate splits (CART, as rpart's ``choose_surg.c``): other features that mimic a node's
primary split, ranked by agreement, to route rows whose primary value is missing.

Every row of the node has the primary's direction: 0 (left), 1 (right), or None when
its primary value is missing.  Rows may carry sample weights: as in rpart, the
agreements, totals and majorities below are sums of weights, while the "at least two
rows" conditions count rows (a row of weight 10 is still one row).  For another feature:

* numeric: rows with the feature known (those without a direction included: their
  values are where cuts may fall) sorted by value; a cut between adjacent distinct
  values, with at least two directed rows on each side, weighs the directed rows it
  sends the primary's way, with either side as "left".  The lowest cut of the largest
  weight wins, and it must beat the majority of the directed rows.
* nominal: each value goes the way most of its directed rows' weight goes (a tie: the
  majority side of the directed rows); a value with no directed row gets no direction.
  It counts only with at least two rows against the primary and two with it.

With A the weight of the directed rows the surrogate sends the primary's way, N the
weight of the rows with the primary known and M the larger of its left and right
weights: agree = A/N and adj = (A − M)/(N − M) (rpart's surrogatestyle 0; style 1
takes N and M over the rows known for both features).  A surrogate needs adj > 0; the
list is ranked by agree, ties in column order.  All exact: counts and rationals
(integers when the rows carry no weights).

The two tie rules that name a side (a nominal value with as many rows each way, a
cut as good with either side left) are rpart's, so they are read in rpart's
orientation of the primary split (``flip``: rpart's left is infotree's right).
"""

from __future__ import annotations

from fractions import Fraction

from .records import Surrogate
from .splits import SubsetSplit, ThresholdSplit

__all__ = ["find_surrogates", "majority_of"]


def majority_of(dirs, weights=None) -> int | None:
    """The primary's majority direction over the directed rows, by their weight (rpart's
    ``surrogate.c``; None: 1 each): 0, 1, or None on a tie."""
    ws = [1] * len(dirs) if weights is None else weights
    left = sum(w for d, w in zip(dirs, ws) if d == 0)
    right = sum(w for d, w in zip(dirs, ws) if d == 1)
    return None if left == right else (0 if left > right else 1)


def _numeric(values, dirs, numbers, ws):
    """(A, (threshold, left_is_le), both-known total, both-known majority) of the best cut,
    or None; values: ranks into ``numbers``, the column's sorted distinct exact values (so
    sorting and comparing ranks is comparing values, in integers); ws: the rows' weights.
    The ``ll``… are rows (the two-each-way rule), the ``…w`` their weights (agreement)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ll = sum(1 for d in dirs if d == 0)   # directed rows still on the high side
    rl = sum(1 for d in dirs if d == 1)
    llw = sum(w for d, w in zip(dirs, ws) if d == 0)
    rlw = sum(w for d, w in zip(dirs, ws) if d == 1)
    agree = max(llw, rlw)
    lr = rr = lrw = rrw = 0                # directed rows passed to the low side
    both, most = llw + rlw, agree
    best = None
    last = values[order[0]] if order else None
    for i in order:
        if ll + rl < 2:
            break
        if lr + rr >= 2 and values[i] != last:
            if llw + rrw > agree:          # high side with the primary's left
                agree, best = llw + rrw, (last, values[i], False)
            elif lrw + rlw > agree:        # low side with the primary's left
                agree, best = lrw + rlw, (last, values[i], True)
        if dirs[i] == 0:
            ll, lr, llw, lrw = ll - 1, lr + 1, llw - ws[i], lrw + ws[i]
        elif dirs[i] == 1:
            rl, rr, rlw, rrw = rl - 1, rr + 1, rlw - ws[i], rrw + ws[i]
        last = values[i]
    if best is None:
        return None
    lo, hi, left_le = best
    return agree, ((numbers[lo] + numbers[hi]) / 2, left_le), both, most


def _nominal(codes, dirs, k, ws):
    """(A, (left codes, right codes), both-known total, both-known majority) or None: each
    value's side by its rows' weight; the two-each-way rule by rows (``choose_surg.c``)."""
    left, right = [0] * k, [0] * k        # weights
    nleft, nright = [0] * k, [0] * k      # rows
    for x, d, w in zip(codes, dirs, ws):
        if d == 0:
            left[x] += w
            nleft[x] += 1
        elif d == 1:
            right[x] += w
            nright[x] += 1
    default = 0 if sum(left) > sum(right) else 1
    goes_left, goes_right, agree, n_agree, n_against = set(), set(), 0, 0, 0
    for i in range(k):
        if not nleft[i] and not nright[i]:
            continue
        if left[i] < right[i] or (left[i] == right[i] and default == 1):
            goes_right.add(i)
            agree, n_agree, n_against = agree + right[i], n_agree + nright[i], n_against + nleft[i]
        else:
            goes_left.add(i)
            agree, n_agree, n_against = agree + left[i], n_agree + nleft[i], n_against + nright[i]
    if n_against < 2 or n_agree < 2:
        return None
    return agree, (frozenset(goes_left), frozenset(goes_right)), sum(left) + sum(right), max(sum(left), sum(right))


def find_surrogates(tree, primary_feature, dirs, columns, most, *, flip=False, style=0, weights=None) -> tuple:
    """Up to ``most`` surrogates of a node's primary split, best first.

    ``dirs``: the primary's direction per row of the node; ``columns``: per feature, the
    rows' codes (``-1`` missing) in the same order; ``weights``: the rows' sample weights
    (None: 1 each, and every agreement an integer count).
    """
    if flip:
        dirs = [None if d is None else 1 - d for d in dirs]
    ws = [1] * len(dirs) if weights is None else list(weights)
    n0 = sum(w for d, w in zip(dirs, ws) if d is not None)
    majority0 = max(sum(w for d, w in zip(dirs, ws) if d == 0), sum(w for d, w in zip(dirs, ws) if d == 1))
    found = []
    for j, codes in enumerate(columns):
        if j == primary_feature:
            continue
        rows = [i for i, c in enumerate(codes) if c >= 0]
        if not rows:
            continue
        ds, wj = [dirs[i] for i in rows], [ws[i] for i in rows]
        numeric = tree.kinds[j] == "numeric"
        got = (_numeric([codes[i] for i in rows], ds, tree.numbers[j], wj) if numeric
               else _nominal([codes[i] for i in rows], ds, len(tree.domains[j]), wj))
        found.append(surrogate_of(tree, j, got, numeric, flip, style, n0, majority0))
    return ranked(found, most)


def surrogate_of(tree, j, got, numeric, flip, style, n0, majority0):
    """(agreement, j, Surrogate) of feature j's best surrogate cut ``got`` (from ``_numeric`` or
    ``_nominal``; None: no cut), or None when it does no better than the majority (adj <= 0).
    Shared with the engines, which count the same cuts from tables."""
    if got is None:
        return None
    if numeric:
        agree, (t, left_le), both, both_most = got
        test, sides, rights = ThresholdSplit(j, t), ((0, 1) if left_le != flip else (1, 0)), None
    else:
        agree, (lefts, rights), both, both_most = got
        if flip:
            lefts, rights = rights, lefts
        test, sides = SubsetSplit(j, lefts, tree.domains[j]), None
    n, majority = (n0, majority0) if style == 0 else (both, both_most)
    if n == majority or Fraction(agree - majority, n - majority) <= 0:
        return None
    return Fraction(agree, n), j, Surrogate(tree.features[j], j, test, sides, rights, agree, n, majority)


def ranked(found, most) -> tuple:
    """The best ``most`` surrogates: by agreement, ties in column order."""
    found = sorted((f for f in found if f is not None), key=lambda s: (-s[0], s[1]))
    return tuple(s for _, _, s in found[:most])
