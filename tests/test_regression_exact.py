"""Issue 21, item 4: the choice between two regression splits never rests on a float.

Two tables with a target around 10^9 where a float implementation splits elsewhere than
the exact SSE says.  The float choices are computed here by plain float64 emulations of
the two peers' scans (no scikit-learn or R needed); ``benchmarks/sklearn_reg_parity.py``
(case ``offset``) and ``benchmarks/rpart_parity.py`` (case ``offset``) show the real
peers making these choices.  infotree's split is checked against an independent brute
force in Fractions, Σ(y − ȳ)² summed row by row.
"""

from fractions import Fraction

import numpy as np
import pytest

from infotree import build_tree
from infotree.data import from_arrays

#: scikit-learn's case: y = 10^9 + small integers.  Its proxy S_L²/n_L + S_R²/n_R is about
#: 1.2·10^19 here, where doubles are 2048 apart: the exact proxies of all cuts differ by
#: less, so every cut looks the same to it and it keeps the first, x ≤ 1.5.
SK_X = list(range(1, 13))
SK_Y = [str(10**9 + d) for d in (5, 6, 9, 7, 6, 5, 5, 9, 2, 8, 6, 0)]

#: rpart's case: y = 1000000000.000000d, more digits than a double holds (ulp(10^9) ≈
#: 1.2·10^-7), so the differences rpart centres and sums are already rounded when read.
RP_X = list(range(1, 11))
RP_Y = [f"1000000000.000000{d}" for d in (0, 4, 6, 5, 6, 3, 4, 1, 4, 8)]


def sse(ys):
    """Σ(y − ȳ)², summed row by row (not Infotree's Σy² − (Σy)²/n)."""
    if not ys:
        return Fraction(0)
    mean = sum(ys, Fraction(0)) / len(ys)
    return sum(((y - mean) ** 2 for y in ys), Fraction(0))


def exact_best(xs, ys):
    """The first cut (lowest threshold) of maximal SSE decrease, as (threshold, decrease)."""
    rows = sorted(zip(map(Fraction, xs), ys))
    total = sse([y for _, y in rows])
    best = None
    for i in range(1, len(rows)):
        if rows[i - 1][0] == rows[i][0]:
            continue
        d = total - sse([y for _, y in rows[:i]]) - sse([y for _, y in rows[i:]])
        if best is None or d > best[1]:
            best = ((rows[i - 1][0] + rows[i][0]) / 2, d)
    return best


def sklearn_float_cut(xs, ys):
    """scikit-learn's BestSplitter on one feature in float64 (``_criterion.pyx``,
    MSE.proxy_impurity_improvement): sum_left accumulated along the sorted rows,
    sum_right = sum_total − sum_left, proxy = sum_left²/n_left + sum_right²/n_right,
    a cut replaces the best on a strict ``>``, starting from −inf."""
    order = np.argsort(xs, kind="stable")
    x = np.asarray(xs, dtype=np.float64)[order]
    y = np.asarray([float(v) for v in ys], dtype=np.float64)[order]
    total = np.float64(0)
    for v in y:
        total += v
    left, best, cut = np.float64(0), -np.inf, None
    for i in range(1, len(y)):
        left += y[i - 1]
        if x[i - 1] == x[i]:
            continue
        right = total - left
        proxy = left * left / i + right * right / (len(y) - i)
        if proxy > best:
            best, cut = proxy, (x[i - 1] + x[i]) / 2
    return cut


def rpart_float_cut(xs, ys):
    """rpart's anova() on one feature in doubles (``anova.c``): y read as doubles, centred
    on their double mean, temp = left_sum²/n_left + right_sum²/n_right, best starting
    at 0, replaced on a strict ``>``."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    y = [float(ys[i]) for i in order]
    x = [float(xs[i]) for i in order]
    mean = sum(y) / len(y)
    c = [v - mean for v in y]
    right = sum(c)
    left, best, cut = 0.0, 0.0, None
    for i in range(1, len(c)):
        left += c[i - 1]
        right -= c[i - 1]
        if x[i - 1] == x[i]:
            continue
        temp = left * left / i + right * right / (len(c) - i)
        if temp > best:
            best, cut = temp, (x[i - 1] + x[i]) / 2
    return cut


def grow(xs, ys):
    data = from_arrays([[str(x)] for x in xs], ys, feature_names=["x"], numeric="auto", target="y")
    return build_tree(data, criterion="squared_error", cp=None, min_samples_split=2, min_leaf=1,
                      competitors=0, surrogates=0)


@pytest.mark.parametrize("xs, ys, float_cut, float_threshold", [
    (SK_X, SK_Y, sklearn_float_cut, 1.5),
    (RP_X, RP_Y, rpart_float_cut, 9.5),
], ids=["sklearn-sums", "rpart-centred"])
def test_float_scan_splits_elsewhere_and_infotree_is_exact(xs, ys, float_cut, float_threshold):
    exact = [Fraction(v) for v in ys]
    threshold, decrease = exact_best(xs, exact)
    cut = float_cut(xs, ys)
    assert cut == float_threshold != threshold
    # the float choice is strictly worse exactly, not a tie
    left = [y for x, y in zip(xs, exact) if x <= cut]
    right = [y for x, y in zip(xs, exact) if x > cut]
    assert sse(exact) - sse(left) - sse(right) < decrease

    root = grow(xs, ys).root
    assert root.test.threshold == threshold
    chosen = root.chosen
    assert chosen.decrease == decrease
    assert root.impurity == sse(exact) and root.mean == sum(exact) / len(exact)
    assert chosen.improvement == decrease / sse(exact)


def test_offset_values():
    """The numbers quoted in benchmarks/README.md and the issue's closing note."""
    exact = [Fraction(v) for v in SK_Y]
    assert exact_best(SK_X, exact) == (Fraction(23, 2), Fraction(1156, 33))
    left = exact[:1]
    assert sse(exact) - sse(left) - sse(exact[1:]) == Fraction(16, 33)  # scikit-learn's x <= 1.5
    exact = [Fraction(v) for v in RP_Y]
    assert exact_best(RP_X, exact) == (Fraction(3, 2), Fraction(1681, 9 * 10**15))


@pytest.mark.parametrize("xs, ys", [(SK_X, SK_Y), (RP_X, RP_Y)], ids=["sklearn-sums", "rpart-centred"])
def test_every_node_is_the_exact_best(xs, ys):
    """Fully grown: every split is the brute force's first best cut of its node's rows,
    and a node is a leaf exactly when no cut lowers its SSE."""
    exact = [Fraction(v) for v in ys]
    tree = grow(xs, ys)
    stack = [(tree.root, list(range(len(xs))))]
    while stack:
        node, rows = stack.pop()
        sub_x, sub_y = [xs[r] for r in rows], [exact[r] for r in rows]
        best = exact_best(sub_x, sub_y) if len(set(sub_x)) > 1 else None
        assert node.mean == sum(sub_y) / len(sub_y)
        if node.test is None:
            assert best is None or best[1] <= 0
            continue
        assert (node.test.threshold, node.chosen.decrease) == best
        t = node.test.threshold
        stack.append((node.children[0], [r for r in rows if xs[r] <= t]))
        stack.append((node.children[1], [r for r in rows if xs[r] > t]))
