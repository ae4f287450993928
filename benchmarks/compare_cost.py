"""What an exact comparison of two information gains costs, next to a float comparison.

    python benchmarks/compare_cost.py [--repeat 7] [--seed 1]

Prints two tables (no assertions on timings; run it on demand):

1. Comparison ``a < b`` in the steady state (each value's certified float
   ``approx()`` already cached, as in a tree build where a node's candidates are
   compared more than once), against ``x < y`` on two Python floats, for
   * far-apart gains (the typical case: the certified float filter decides),
   * exact ties (equal coefficient vectors from different tables: the filter
     cannot decide, one exact subtraction does),
   * near-ties of large tables differing by less than 1e-12 (here 1e-18 to 1e-16:
     the filter cannot decide, so the sign comes from mpmath).
2. Building the exact gain from a table (factorising counts), reported separately,
   with the textbook float formula for scale.

Each figure is the median over ``--repeat`` timeit repeats and over the pairs of a
case, in nanoseconds per operation, including timeit's loop and two global name
look-ups (the same for the float column).  The comparison table also shows the best
(minimum) time, which is the steadier figure on a busy machine.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import timeit

import mpmath

import infotree.exact as exact_module
from infotree import information_gain_from_table

# Pairs of 2x2 tables with counts in the tens of thousands whose gains differ by
# 6e-18 to 3e-16 (found by a search over random tables, checked at 100 digits).
NEAR_TIES = [
    ([[18669, 28006], [37336, 56009]], [[11520, 23052], [34559, 69154]]),
    ([[26637, 39900], [79913, 119703]], [[39931, 26606], [119796, 79820]]),
    ([[38393, 25618], [76789, 51238]], [[37009, 37011], [74016, 74020]]),
    ([[33131, 33315], [99390, 99942]], [[29451, 29880], [88354, 89641]]),
    ([[12891, 25773], [25783, 51548]], [[21347, 21364], [21348, 21365]]),
    ([[18061, 36158], [36123, 72318]], [[13768, 13756], [41301, 41265]]),
    ([[25160, 25179], [25163, 25182]], [[35361, 35330], [35359, 35328]]),
    ([[35731, 35237], [71461, 70473]], [[29684, 29854], [89055, 89565]]),
]


def float_gain(table):
    """The textbook float64 formula IG = H(Y) - Σ n_x/n·H(Y|X=x)."""
    def h(counts):
        n = sum(counts)
        return -sum(c / n * math.log2(c / n) for c in counts if c)

    n = sum(map(sum, table))
    ys = [sum(col) for col in zip(*table)]
    return h(ys) - sum(sum(r) / n * h(r) for r in table)


def mp_gain(table, dps=100):
    """The gain at ``dps`` digits straight from the counts (an independent check)."""
    with mpmath.workdps(dps):
        def f(m):
            return mpmath.mpf(m) * mpmath.log(m, 2) if m else mpmath.mpf(0)

        cells = [c for row in table for c in row]
        n = sum(cells)
        ys = [sum(col) for col in zip(*table)]
        xs = [sum(row) for row in table]
        return (f(n) - sum(map(f, ys)) - sum(map(f, xs)) + sum(map(f, cells))) / n


def random_table(rng, rows, cols, high):
    while True:
        t = [[rng.randint(0, high) for _ in range(cols)] for _ in range(rows)]
        if sum(map(sum, t)) and all(sum(col) for col in zip(*t)):
            return t


def far_pairs(rng, k):
    """Random small tables whose gains differ by more than 1e-3."""
    out = []
    while len(out) < k:
        a, b = random_table(rng, 3, 2, 20), random_table(rng, 3, 2, 20)
        if abs(float_gain(a) - float_gain(b)) > 1e-3:
            out.append((a, b))
    return out


def tie_pairs(rng, k):
    """Different tables with exactly equal gains: row and class permutations, and EXACT.md's A/B."""
    out = [([[1, 1], [4, 2]], [[1, 1], [2, 1], [2, 1]])]
    while len(out) < k:
        a = random_table(rng, 4, 3, 30)
        rows = a[:]
        rng.shuffle(rows)
        perm = [2, 0, 1]
        b = [[r[j] for j in perm] for r in rows]
        if b != a:
            out.append((a, b))
    return out


def per_op_ns(stmt, env, number, repeat):
    times = timeit.Timer(stmt, globals=env).repeat(repeat=repeat, number=number)
    return [t / number * 1e9 for t in times]


def bench_compare(pairs, repeat, number, check_needs_fallback=False):
    """(median, best) ns per comparison for the exact values and for floats."""
    exact_ns, float_ns = [], []
    for ta, tb in pairs:
        a, b = information_gain_from_table(ta), information_gain_from_table(tb)
        fa, fb = float(a), float(b)  # float(x) caches the certified approx()
        d = mp_gain(ta) - mp_gain(tb)  # 100 digits: ties show as rounding noise
        expected = 0 if abs(d) < mpmath.mpf("1e-80") else int(mpmath.sign(d))
        assert a.compare(b) == expected, (ta, tb)
        if check_needs_fallback:
            (va, ba), (vb, bb) = a.approx(), b.approx()
            assert abs(va - vb) <= ba + bb, "pair is decided by the float filter"
        env = {"a": a, "b": b, "x": fa, "y": fb}
        exact_ns += per_op_ns("a < b", env, number, repeat)
        float_ns += per_op_ns("x < y", env, number * 10, repeat)
    return (statistics.median(exact_ns), min(exact_ns)), (statistics.median(float_ns), min(float_ns))


def bench_build(tables, repeat, number):
    warm, cold, flt = [], [], []
    clear = exact_module._factor_int.cache_clear
    for t in tables:
        env = {"ig": information_gain_from_table, "fg": float_gain, "t": t, "clear": clear}
        warm += per_op_ns("ig(t)", env, number, repeat)
        cold += per_op_ns("clear(); ig(t)", env, max(1, number // 10), repeat)
        flt += per_op_ns("fg(t)", env, number, repeat)
    return statistics.median(warm), statistics.median(cold), statistics.median(flt), min(warm) / min(flt)


def table(headers, rows):
    widths = [max(len(str(r[i])) for r in [headers] + rows) for i in range(len(headers))]
    line = lambda r: "| " + " | ".join(str(c).rjust(w) if i else str(c).ljust(w)  # noqa: E731
                                      for i, (c, w) in enumerate(zip(r, widths))) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), sep] + [line(r) for r in rows])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=7, help="timeit repeats per pair (default 7)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)

    cases = [
        ("far apart (filter decides)", far_pairs(rng, 20), 20000, False),
        ("exact tie (equal coefficients)", tie_pairs(rng, 20), 2000, False),
        ("near-tie < 1e-12 (mpmath fallback)", NEAR_TIES, 50, True),
    ]
    rows = []
    for name, pairs, number, fallback in cases:
        (e, e_best), (f, f_best) = bench_compare(pairs, args.repeat, number, fallback)
        rows.append([name, len(pairs), f"{e:,.0f}", f"{f:,.0f}", f"{e / f:,.1f}x",
                     f"{e_best:,.0f}", f"{f_best:,.0f}", f"{e_best / f_best:,.1f}x"])
    print("Comparing two information gains, a < b (steady state: approx() cached)")
    print()
    print(table(["case", "pairs", "infotree ns/cmp", "float ns/cmp", "ratio",
                 "best infotree", "best float", "best ratio"], rows))
    print()

    builds = [
        ("3x2, counts <= 20 (play-tennis size)",
         [[[2, 3], [4, 0], [3, 2]]] + [random_table(rng, 3, 2, 20) for _ in range(9)], 500),
        ("10x3, counts <= 1000", [random_table(rng, 10, 3, 1000) for _ in range(10)], 100),
        ("2x2, counts 1e4-1e5 (near-tie tables)", [t for pair in NEAR_TIES for t in pair][:10], 200),
    ]
    rows = []
    for name, tables, number in builds:
        warm, cold, flt, best_ratio = bench_build(tables, args.repeat, number)
        rows.append([name, len(tables), f"{warm / 1000:,.1f}", f"{cold / 1000:,.1f}", f"{flt / 1000:,.1f}",
                     f"{warm / flt:,.1f}x", f"{best_ratio:,.1f}x"])
    print("Building the gain from a table (not part of the comparison)")
    print()
    print(table(["table", "tables", "exact µs (factor cache warm)", "exact µs (cache cleared)",
                 "float formula µs", "warm/float", "best warm/float"], rows))


if __name__ == "__main__":
    main()
