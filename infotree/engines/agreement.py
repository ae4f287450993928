"""rpart's surrogate splits from counts (:func:`infotree.surrogates.find_surrogates` on
rows, here on each value's rows in each direction of the primary split).

Without sample weights and without missing values every row is directed and weighs 1, so
a surrogate's agreement, total and majority, and the "at least two rows" rules, are sums
of those counts; the order of the rows never matters (within a value, rows are
interchangeable).  The two functions below follow ``_numeric`` and ``_nominal`` line by
line, one value at a time instead of one row at a time.
"""

from __future__ import annotations

from ..surrogates import ranked, surrogate_of

__all__ = ["surrogates_of"]


def surrogates_of(tree, primary, sides, most, flip, style):
    """(surrogates best first, the primary's majority direction) of a node split on feature
    ``primary``; ``sides[b][j]``: {value code: rows} of feature j in the node's branch b."""
    n_side = [sum(sides[b][primary].values()) for b in (0, 1)]
    majority = None if n_side[0] == n_side[1] else (0 if n_side[0] > n_side[1] else 1)
    if flip:
        sides, n_side = sides[::-1], n_side[::-1]
    n0, majority0 = n_side[0] + n_side[1], max(n_side)
    found = []
    for j in range(len(tree.features)):
        if j == primary:
            continue
        left, right = sides[0][j], sides[1][j]
        codes = sorted(set(left) | set(right))
        if not codes:
            continue
        per = [(c, left.get(c, 0), right.get(c, 0)) for c in codes]
        numeric = tree.kinds[j] == "numeric"
        found.append(surrogate_of(tree, j, _numeric(per, tree.numbers[j]) if numeric else _nominal(per), numeric,
                                  flip, style, n0, majority0))
    return ranked(found, most), majority


def _numeric(per, numbers):
    """surrogates._numeric on (code, rows left, rows right) in ascending code order."""
    ll = sum(a for _, a, _ in per)
    rl = sum(b for _, _, b in per)
    agree = max(ll, rl)
    lr = rr = 0
    both, most = ll + rl, agree
    best, last = None, None
    for code, a, b in per:
        if ll + rl < 2:
            break
        if last is not None and lr + rr >= 2:
            if ll + rr > agree:
                agree, best = ll + rr, (last, code, False)
            elif lr + rl > agree:
                agree, best = lr + rl, (last, code, True)
        ll, lr, rl, rr = ll - a, lr + a, rl - b, rr + b
        last = code
    if best is None:
        return None
    lo, hi, left_le = best
    return agree, ((numbers[lo] + numbers[hi]) / 2, left_le), both, most


def _nominal(per):
    """surrogates._nominal on (code, rows left, rows right)."""
    total_left, total_right = sum(a for _, a, _ in per), sum(b for _, _, b in per)
    default = 0 if total_left > total_right else 1
    goes_left, goes_right, agree, n_agree, n_against = set(), set(), 0, 0, 0
    for code, a, b in per:
        if not a and not b:
            continue
        if a < b or (a == b and default == 1):
            goes_right.add(code)
            agree, n_agree, n_against = agree + b, n_agree + b, n_against + a
        else:
            goes_left.add(code)
            agree, n_agree, n_against = agree + a, n_agree + a, n_against + b
    if n_against < 2 or n_agree < 2:
        return None
    return agree, (frozenset(goes_left), frozenset(goes_right)), total_left + total_right, max(total_left, total_right)
