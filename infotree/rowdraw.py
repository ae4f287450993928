"""Per-row sample counts from a counter-based hash: how many times tree ``t`` of a forest
seeded ``seed`` takes row ``r``, computed alike by numpy, DuckDB SQL and Spark SQL.

A bootstrap sample (``size`` row indices drawn with replacement) is one draw over all the
rows: it needs them all in one place, in one order.  Here each row's count depends on
(row number, seed, tree) only, so any engine, on any partitioning, gives every row the count
numpy gives it.  The counts are Poisson(λ) (``replace=True``; λ the sample fraction) or
Bernoulli(λ) (without replacement), as Spark MLlib's ``BaggedPoint`` samples and as the
out-of-core bagging literature does (Oza and Russell 2001): a sample's size is then itself
random (mean λ·N), which is why this is not the exact multinomial bootstrap.

The hash uses integers below 2^63 only (DuckDB raises on BIGINT overflow and Spark's ANSI
mode too): with p = 2^31 − 1 (a prime) and P(x) = x^5 mod p (a permutation of 0..p−1, as
gcd(5, p − 1) = 1), one round absorbs a value v < p with a constant c:

    h ← P((h + v + c) mod p)          (every product below p² < 2^62)

The key is h = 0 after one round per 30-bit limb of the seed (least significant first;
constant C[0]); then the tree (C[1]), r mod p (C[2]), r mod q (C[3]; q = 1073741789, a
prime: the two residues determine r below p·q ≈ 2.3·10^18), and two rounds of v = 0
(C[4], C[5]) give u in 0..p−1.  The count is the number of thresholds T_k ≤ u (so k when
T_(k−1) ≤ u < T_k), with T_k = ⌊p·F(k)⌋, F the Poisson(λ) distribution function, computed
once, exactly (:func:`thresholds`), up to the first k with T_k = p − 1.  So P(count ≤ k) = T_k / p differs from F(k) by less than
1/p < 4.7·10^-10 for every k.  Bernoulli(λ): one threshold ⌊p·(1 − λ)⌋.

The constants C are the first six round constants of SHA-256 (FIPS 180-4) mod p.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["P", "Q", "C", "key", "thresholds", "counts", "counts_py", "sql_counts"]

P = (1 << 31) - 1
Q = 1073741789
C = tuple(c % P for c in (0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1))
_LIMB = 1 << 30


def _perm(x: int) -> int:
    x2 = x * x % P
    return x2 * x2 % P * x % P


def key(seed: int) -> int:
    """The seed's part of every row's hash (a round per 30-bit limb, least significant first)."""
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed {seed!r} is not allowed; give a non-negative integer")
    h = 0
    while True:
        h = _perm((h + seed % _LIMB + C[0]) % P)
        seed //= _LIMB
        if not seed:
            return h


def _uniform_py(seed, t, r) -> int:
    h = key(seed)
    for v, c in ((t, C[1]), (r % P, C[2]), (r % Q, C[3]), (0, C[4]), (0, C[5])):
        h = _perm((h + v + c) % P)
    return h


def counts_py(seed, t, rows, table) -> list[int]:
    """The counts of ``rows`` (row numbers) for tree ``t``, in plain Python integers."""
    out = []
    for r in rows:
        u = _uniform_py(seed, t, r)
        out.append(sum(1 for x in table if u >= x))
    return out


def _check(t, n):
    if not 0 <= t < _LIMB:
        raise ValueError(f"tree index {t} is not allowed; trees are numbered 0 to {_LIMB - 1}")
    if n > P * Q:
        raise ValueError(f"{n} rows: a row's number must stay below {P * Q}")


def counts(seed, t, n, table, start=0) -> np.ndarray:
    """The counts of rows ``start .. start + n − 1`` for tree ``t`` (int64; the same integers as
    :func:`counts_py`, in numpy's 64-bit arithmetic: every intermediate stays below 2^62)."""
    _check(t, start + n)
    r = np.arange(start, start + n, dtype=np.int64)
    h = np.full(n, key(seed), dtype=np.int64)
    for v, c in ((np.int64(t), C[1]), (r % P, C[2]), (r % Q, C[3]), (np.int64(0), C[4]), (np.int64(0), C[5])):
        x = (h + v + c) % P
        x2 = x * x % P
        h = x2 * x2 % P * x % P
    out = np.zeros(n, dtype=np.int64)
    for x in table:
        out += h >= x
    return out


def thresholds(fraction=1, replace=True) -> tuple[int, ...]:
    """T_k = ⌊p·F(k)⌋ for k = 0, 1, ... up to the first equal to p − 1, F the Poisson(λ)
    distribution function (λ = ``fraction``), exactly: e^−λ between two partial sums of its
    alternating series, refined until both floors agree (p·F(k) is irrational for λ > 0, so
    they do).  ``replace=False``: Bernoulli(λ), the one threshold ⌊p·(1 − λ)⌋."""
    lam = Fraction(fraction)
    if not 0 < lam <= 1:
        raise ValueError(f"sample fraction {fraction!r} is not allowed; give a fraction in (0, 1]")
    if not replace:
        return (P * (1 - lam).numerator // (1 - lam).denominator,)
    out, terms = [], 40
    while True:
        lo, hi = _exp_bounds(lam, terms)
        out, partial, term, k = [], Fraction(0), Fraction(1), 0
        while True:
            partial += term
            a, b = P * lo * partial, P * hi * partial
            if a.numerator // a.denominator != b.numerator // b.denominator:
                break
            out.append(a.numerator // a.denominator)
            if out[-1] >= P - 1:
                return tuple(out)
            k += 1
            term = term * lam / k
        terms *= 2


def _exp_bounds(lam, terms):
    """e^−λ between two consecutive partial sums of Σ (−λ)^j / j! (its terms decrease for λ ≤ 1)."""
    s, term = Fraction(0), Fraction(1)
    for j in range(terms):
        s += term
        term = -term * lam / (j + 1)
    return min(s, s + term), max(s, s + term)


def sql_counts(source, columns, rid, tree, seed, table) -> str:
    """A query over ``source`` giving ``columns`` and ``w``, the row's count for the tree in
    column ``tree`` (its row number in column ``rid``): the formula of :func:`counts` in SQL
    that DuckDB and Spark read alike (``%``, ``*``, ``+``, CASE and BIGINT only; one nested
    SELECT per round, so that no round's expression is repeated inside the next)."""
    keep = ", ".join(columns)
    q = f"SELECT {keep}, CAST({rid} AS BIGINT) AS r__, CAST({key(seed)} AS BIGINT) AS h__, " \
        f"CAST({tree} AS BIGINT) AS t__ FROM {source}"
    steps = (("t__", C[1]), (f"r__ % {P}", C[2]), (f"r__ % {Q}", C[3]), ("0", C[4]), ("0", C[5]))
    for i, (v, c) in enumerate(steps):  # one SELECT a round: x five times, each a short expression
        x = f"((h__ + {v} + {c}) % {P})"
        q = f"SELECT {keep}, r__, t__, ({x} * {x} % {P}) * ({x} * {x} % {P}) % {P} * {x} % {P} AS h__ FROM ({q}) AS a{i}"
    w = " + ".join(f"CASE WHEN h__ >= {x} THEN 1 ELSE 0 END" for x in table)
    return f"SELECT {keep}, CAST({w} AS BIGINT) AS w FROM ({q}) AS d"
