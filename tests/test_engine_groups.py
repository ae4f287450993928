"""What Spark's workers run on a node's rows (infotree.engines.groups), without Spark: the codes
packed into 63-bit words and unpacked, each feature's (value, class) counts, and the numeric
cuts the certified filter keeps, checked against counts made row by row and the exact Gini
of every cut."""

from fractions import Fraction

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

from infotree.engines import groups  # noqa: E402


def _gini_key(left, total):
    """The Gini cut key exactly: the children's weighted impurity (smaller is better)."""
    right = [t - x for t, x in zip(total, left)]
    n = sum(total)
    return sum(Fraction(sum(s) * sum(s) - sum(c * c for c in s), sum(s)) for s in (left, right)) / n


@pytest.mark.parametrize("flush", [7, 1 << 20])   # rows added into dense counts often, or never
def test_a_node_counted_from_packed_words(monkeypatch, flush):
    monkeypatch.setattr(groups, "FLUSH", flush)
    rng = np.random.default_rng(7)
    nc, n = 3, 400
    domains = [5, 1 << 17, 40, (1 << 35) - 5, 2, (1 << 40) + 3, 900]   # the first word filled to bit 62
    cuts = {1, 2, 6}
    features = list(range(len(domains)))
    y = rng.integers(0, nc, n)
    codes = [rng.integers(0, V, n) if V < 1000 else rng.integers(0, 60, n) * (V // 60) for V in domains]
    for j in (3, 5):   # the largest codes of the widest columns
        codes[j][:3] = domains[j] - 1
    places = dict(zip(["y", *features], groups.layout([nc, *domains])))
    assert max(w for w, _, _ in places.values()) >= 1   # more than one word
    words = {}
    for name, (w, shift, bits) in places.items():
        col = y if name == "y" else codes[name]
        assert shift + bits <= 63
        words[w] = words.get(w, 0) + (col.astype(np.int64) << shift)
    cols = {"node": np.full(n, 9, np.int64), **{f"w{w}": v for w, v in words.items()}}
    batches = [pa.RecordBatch.from_pydict({k: v[a:a + 64] for k, v in cols.items()}) for a in range(0, n, 64)]
    out = list(groups.count_node(iter(batches), nc=nc, domains=domains, features=features, cuts=frozenset(cuts),
                                 min_side=2, slack=(3 * nc + 16) * 2.0 ** -52, places=places))
    got = pa.Table.from_batches(out).to_pydict()
    assert set(got["node"]) == {9}
    for j in features:
        rows = [i for i, f in enumerate(got["f"]) if f == j]
        by_code = {}
        for v, c in zip(codes[j].tolist(), y.tolist()):
            by_code.setdefault(v, [0] * nc)[c] += 1
        present = sorted(by_code)
        if j not in cuts:
            assert [got["code"][i] for i in rows] == present
            assert [[got[f"n{c}"][i] for c in range(nc)] for i in rows] == [by_code[v] for v in present]
            continue
        total = [int((y == c).sum()) for c in range(nc)]
        left, admissible = [0] * nc, []
        for a, b in zip(present, present[1:]):
            left = [x + z for x, z in zip(left, by_code[a])]
            if min_side_ok(left, total, 2):
                admissible.append((a, b, tuple(left), _gini_key(left, total)))
        best = min(k for *_, k in admissible)
        kept = {(got["code"][i], got["nxt"][i], tuple(got[f"n{c}"][i] for c in range(nc))) for i in rows}
        assert {got["k"][i] for i in rows} == {len(admissible)}
        assert {(a, b, lft) for a, b, lft, k in admissible if k == best} <= kept   # every best cut is kept
        assert kept <= {(a, b, lft) for a, b, lft, _ in admissible}


def min_side_ok(left, total, m):
    return sum(left) >= m and sum(total) - sum(left) >= m
