"""Per-row sample counts (infotree.rowdraw): the formula, its thresholds and its distribution."""

import math

import mpmath
import numpy as np
import pytest

from infotree import rowdraw

P, Q = 2**31 - 1, 1073741789


def _independent_count(seed, t, r, table):
    """The documented formula, written again from docs/forests.md with pow(): a round is
    h = ((h + v + c) mod p)^5 mod p."""
    consts = [c % P for c in (0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1)]
    h, s = 0, seed
    while True:
        h = pow((h + s % 2**30 + consts[0]) % P, 5, P)
        s >>= 30
        if s == 0:
            break
    for v, c in zip((t, r % P, r % Q, 0, 0), consts[1:]):
        h = pow((h + v + c) % P, 5, P)
    return sum(1 for x in table if h >= x)


def test_numpy_counts_equal_an_independent_implementation():
    """numpy's counts equal the formula computed with Python's pow, for small and 2^40-sized
    seeds and row numbers past 2^31 (both residues matter)."""
    table = rowdraw.thresholds()
    for seed, t, start in ((0, 0, 0), (7, 99, 0), (2**40 + 5, 3, 2**33 - 50)):
        got = rowdraw.counts(seed, t, 100, table, start=start).tolist()
        assert got == [_independent_count(seed, t, r, table) for r in range(start, start + 100)]


def test_thresholds_are_the_floors_of_the_poisson_cdf():
    """T_k = floor(p·F(k)) for Poisson(1) and Poisson(1/2), checked at 60 digits with mpmath;
    the last is p − 1; Bernoulli's one threshold."""
    mpmath.mp.dps = 60
    for lam, table in ((1, rowdraw.thresholds()), (mpmath.mpf(1) / 2, rowdraw.thresholds("1/2"))):
        want = [int(mpmath.floor(P * mpmath.exp(-lam) * sum(lam**j / mpmath.factorial(j) for j in range(k + 1))))
                for k in range(len(table))]
        assert list(table) == want
        assert table[-1] == P - 1 and table[-2] < P - 1
    assert rowdraw.thresholds(1)[0] == 790015083  # floor((2^31 − 1)/e)
    assert rowdraw.thresholds("1/4", replace=False) == ((P * 3) // 4,)
    assert rowdraw.thresholds(1, replace=False) == (0,)  # every row once


def test_counts_are_poisson_one():
    """On 10^5 rows: the mean is 1 and P(0) is e^−1 within 4 standard errors, the counts'
    frequencies pass a chi-square test, and a tree's counts are uncorrelated with the next
    tree's and with the next row's."""
    n = 10**5
    table = rowdraw.thresholds()
    c = rowdraw.counts(0, 0, n, table)
    assert abs(c.mean() - 1) < 4 / math.sqrt(n)  # Poisson(1): variance 1
    e = math.exp(-1)
    assert abs((c == 0).mean() - e) < 4 * math.sqrt(e * (1 - e) / n)
    observed = np.bincount(np.minimum(c, 5), minlength=6)
    pk = [math.exp(-1) / math.factorial(k) for k in range(5)]
    expected = np.array(pk + [1 - sum(pk)]) * n
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < 20.5  # 5 degrees of freedom: P(chi2 > 20.5) < 0.001
    other = rowdraw.counts(0, 1, n, table)
    assert abs(np.corrcoef(c, other)[0, 1]) < 4 / math.sqrt(n)
    assert abs(np.corrcoef(c[:-1], c[1:])[0, 1]) < 4 / math.sqrt(n)
    assert not np.array_equal(c, rowdraw.counts(1, 0, n, table))


def test_bernoulli_counts():
    """Without replacement each row is taken once with probability λ."""
    n = 10**5
    c = rowdraw.counts(3, 2, n, rowdraw.thresholds("1/4", replace=False))
    assert set(np.unique(c).tolist()) == {0, 1}
    assert abs(c.mean() - 0.25) < 4 * math.sqrt(0.25 * 0.75 / n)


def test_sql_counts_in_duckdb_equal_numpy():
    """The SQL formula, run by DuckDB over three trees at once, gives numpy's counts."""
    duckdb = pytest.importorskip("duckdb")
    table = rowdraw.thresholds()
    con = duckdb.connect()
    con.execute("CREATE TABLE s AS SELECT range AS rid FROM range(5000)")
    con.execute("CREATE TABLE tr AS SELECT range AS t FROM range(3)")
    got = con.execute(rowdraw.sql_counts("s CROSS JOIN tr", ["rid", "t"], "rid", "t", 2**45 + 1, table)
                      + " ORDER BY t, rid").fetchnumpy()
    for t in range(3):
        assert got["w"][got["t"] == t].tolist() == rowdraw.counts(2**45 + 1, t, 5000, table).tolist()


def test_poisson_forest_samples_are_the_row_counts():
    """sampling='poisson': tree t takes row r as many times as the formula says (checked with the
    independent implementation); its out-of-bag rows are those of count 0; the estimator and the
    control grow the same forest."""
    from infotree import RandomForestClassifier, grow_forest, load
    from infotree.controls import ForestControl

    data = load("worked_examples/play_tennis/data.csv")
    forest = grow_forest(data, n_estimators=6, random_state=2**33 + 1, sampling="poisson", sample_fraction="1/2")
    table = rowdraw.thresholds("1/2")
    for t in range(6):
        want = [_independent_count(2**33 + 1, t, r, table) for r in range(14)]
        assert forest.in_bag[t].tolist() == want
        assert forest.samples[t].tolist() == [r for r in range(14) for _ in range(want[r])]
    assert "each of the 14 rows taken Poisson(1/2) times by a hash of (row, seed, tree)" in forest.describe()
    again = grow_forest(data, ForestControl(n_estimators=6, random_state=2**33 + 1, sampling="poisson",
                                            sample_fraction="1/2"))
    assert [t.root.class_counts.tolist() for t in again.trees] == [t.root.class_counts.tolist() for t in forest.trees]
    import csv

    with open("worked_examples/play_tennis/data.csv", newline="") as f:
        rows = list(csv.reader(f))[1:]
    clf = RandomForestClassifier(n_estimators=3, random_state=1, sampling="poisson", criterion="gain",
                                 max_features=None).fit([r[:-1] for r in rows], [r[-1] for r in rows])
    assert clf.get_params()["sampling"] == "poisson"
    assert [s.tolist() for s in clf.forest_.samples] == [
        [r for r in range(14) for _ in range(_independent_count(1, t, r, rowdraw.thresholds()))] for t in range(3)]


def test_poisson_refusals():
    """An unknown sampling, and poisson with samples given, are refused in one line."""
    from infotree import InfotreeError, grow_forest, load
    from infotree.controls import ForestControl

    with pytest.raises(InfotreeError, match=r"^sampling 'binomial' is not allowed; allowed: draw, poisson$"):
        ForestControl(sampling="binomial")
    with pytest.raises(InfotreeError, match=r"^sampling 'poisson' draws each tree's rows; samples given"):
        ForestControl(sampling="poisson", samples=[[0, 1]])
    data = load("worked_examples/play_tennis/data.csv")
    with pytest.raises(InfotreeError, match=r"^tree \d+ of the forest took no row of the 1 under sampling 'poisson'"):
        grow_forest(data.sample([0]), n_estimators=20, sampling="poisson")
