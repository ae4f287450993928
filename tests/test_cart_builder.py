"""The fast CART builder grows the reference builder's tree, with the same records.

The reference builder (infotree.grow.reference) is the specification; the CART
builder (infotree.grow.cart) the fast path, grown with its compiled loops (C's take data of
any size) and on its numpy path.  Compared node by node: path, test, ties,
stop reason, label, counts, every candidate record (split, table, number tried,
unknown counts, exact decrease and improvement), surrogates (test, sides, agree, adj,
rows routed), the majority direction and cp's Complexity records; and every printer's
bytes.  On the shipped data sets with numeric, nominal and missing values, and on
generated tables with exact ties, few rows, wide and two-class nominal features.
"""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infotree import build_tree, from_arrays, from_records, load
from infotree.grow import cart, kernels
from infotree.errors import InfotreeError
from infotree.growing import node_at
from test_builders import _printed as printed  # every printer's bytes (pytest puts tests/ on the path)

ROOT = Path(__file__).resolve().parent.parent
CART = ("gini", "entropy", "misclassification")


def records(tree):
    """Everything a printer, a model, a checker or rpart's routing can read of a CART tree,
    as plain values."""
    out = []
    for nd in tree.nodes():
        cands = [(c.feature, c.index, c.split, c.table, c.n_tried, c.ties, c.unknown, c.decrease, c.improvement)
                 for c in nd.candidates()]
        out.append((nd.path, nd.depth, nd.test, tuple(nd.ties), nd.stop, nd.label,
                    tuple(Fraction(x) for x in nd.class_counts.tolist()), nd.n, nd.majority, nd.surrogates,
                    nd.pruned, nd.reason, None if nd.considered is None else tuple(nd.considered.tolist()), cands,
                    getattr(nd, "levels", None)))   # the fast builder's own, record_levels' for the reference
    return out


def assert_same(data, **kwargs):
    """The fast builder's tree and records are the reference's: with the compiled loops where
    it takes them (C's at any size), and on the numpy path, the fallback without them."""
    fast = build_tree(data, builder="levelwise", **kwargs)
    was = kernels.use(False)
    try:
        plain = build_tree(data, builder="levelwise", **kwargs)
    finally:
        kernels.use(was)
    ref = build_tree(data, builder="reference", **kwargs)
    b = records(ref)
    for a in (records(fast), records(plain)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert x == y, f"first difference at path {x[0]}"
    return fast, ref


CASES = [
    ("kyphosis.csv", dict(numeric="auto", target="Kyphosis"), dict(min_samples_split=20, min_leaf=7, cp=Fraction(1, 100))),
    ("kyphosis.csv", dict(numeric="auto", target="Kyphosis"), dict()),
    ("stagec.csv", dict(numeric="auto", on_missing="keep"), dict(min_samples_split=20, min_leaf=7)),
    ("stagec.csv", dict(numeric="auto", on_missing="keep"), dict(use_surrogate=1, surrogate_style=1)),
    ("stagec.csv", dict(numeric="auto", on_missing="keep"), dict(surrogates=0, cp=Fraction(1, 50))),
    ("weather.numeric.arff", {}, dict()),
    ("weather.csv", {}, dict()),
    ("contact-lenses.arff", {}, dict()),
    ("vote.arff", dict(on_missing="keep"), dict()),
    ("labor.arff", dict(on_missing="keep"), dict(min_leaf=2, use_surrogate=0)),
    ("breast-cancer.arff", dict(on_missing="keep"), dict(max_depth=4, competitors=2, surrogates=2)),
]


@pytest.mark.parametrize("criterion", CART)
@pytest.mark.parametrize("name, load_kw, build_kw", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_shipped_data(name, load_kw, build_kw, criterion):
    data = load(ROOT / "tests" / "data" / name, **load_kw)
    assert_same(data, criterion=criterion, **build_kw)


@pytest.mark.parametrize("name, load_kw, build_kw", [CASES[0], CASES[3], CASES[8], CASES[10]])
def test_printed_the_same(name, load_kw, build_kw):
    """Every printer writes the same bytes for a tree of either builder."""
    data = load(ROOT / "tests" / "data" / name, **load_kw)
    fast, ref = assert_same(data, criterion="gini", **build_kw)
    assert printed(fast) == printed(ref)


def test_worked_example_and_node_at():
    data = load(ROOT / "worked_examples" / "cart_gini" / "data.csv", numeric="auto")
    assert_same(data, criterion="gini")
    kyphosis = load(ROOT / "tests" / "data" / "kyphosis.csv", numeric="auto", target="Kyphosis")
    node = node_at(kyphosis, [("Start", ">", "8.5")], criterion="gini")
    assert node.tree.root is node and node.candidates()[0].feature == "Age"
    assert node._records is not None  # grown by the fast builder


@st.composite
def tables(draw):
    """Small tables whose few values and classes make exact ties likely: numeric columns,
    nominal ones (up to 12 values: wider ones take the reference's splitter), missing values."""
    n = draw(st.integers(4, 40))
    m = draw(st.integers(1, 4))
    classes = draw(st.integers(2, 4))
    numeric = [draw(st.booleans()) for _ in range(m)]
    missing = draw(st.sampled_from([0, 0, 0.1, 0.3]))
    cols = {}
    for j in range(m):
        k = draw(st.sampled_from([1, 2, 3, 4, 5, 12]))
        vals = [draw(st.integers(0, k - 1)) for _ in range(n)]
        holes = [draw(st.floats(0, 1)) < missing for _ in range(n)]
        cols[f"f{j}"] = [None if h else (str(v) if numeric[j] else f"v{v}") for v, h in zip(vals, holes)]
    cols["y"] = [f"c{draw(st.integers(0, classes - 1))}" for _ in range(n)]
    return cols, [f"f{j}" for j in range(m) if numeric[j]], missing > 0


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.sampled_from(CART), st.sampled_from([None, 1, 3]), st.integers(1, 3), st.integers(2, 6),
       st.sampled_from([0, 1, 5]), st.sampled_from([0, 1, 2]), st.sampled_from([0, 1]),
       st.sampled_from([None, Fraction(1, 100), Fraction(1, 10)]))
def test_generated_tables(table, criterion, max_depth, min_leaf, min_split, surrogates, use, style, cp):
    cols, numeric, has_missing = table
    data = from_records(cols, target="y", numeric=numeric, on_missing="keep" if has_missing else "reject")
    assert_same(data, criterion=criterion, max_depth=max_depth, min_leaf=min_leaf, min_samples_split=min_split,
                surrogates=surrogates, use_surrogate=use, surrogate_style=style, cp=cp)


@pytest.mark.parametrize("use", [0, 1, 2])
@pytest.mark.parametrize("name", ["vote.arff", "labor.arff", "breast-cancer.arff"])
def test_derived_tables_are_the_counts(monkeypatch, name, use):
    """Histogram subtraction: every depth's nominal tables, derived from the parents' (the
    smaller side counted, the other subtracted, rows without the primary's value routed or
    dropped by the surrogates), equal the counts of the depth's rows."""
    data = load(ROOT / "tests" / "data" / name, on_missing="keep")
    cuts, checked = cart.CARTBuilder.subset_cuts, []

    def counted(self, g, rows, nid, K, *rest):
        if self.tables[g] is not None:
            assert np.array_equal(self.tables[g], self.nominal_count(g, rows, nid, K))
            checked.append(K)
        return cuts(self, g, rows, nid, K, *rest)

    monkeypatch.setattr(cart.CARTBuilder, "subset_cuts", counted)
    build_tree(data, criterion="gini", builder="levelwise", use_surrogate=use, min_leaf=1, min_samples_split=2)
    assert len(checked) >= 3


def test_subsets_past_the_limit_refused_as_the_reference_does():
    cols = {"f": [f"v{i % 9}" for i in range(40)], "g": [str(i % 5) for i in range(40)],
            "y": [f"c{i % 3}" for i in range(40)]}
    data = from_records(cols, target="y", numeric=["g"])
    with pytest.raises(InfotreeError) as ref:
        build_tree(data, criterion="gini", builder="reference", max_subsets=100)
    with pytest.raises(InfotreeError) as fast:
        build_tree(data, criterion="gini", builder="levelwise", max_subsets=100)
    assert str(fast.value) == str(ref.value) and "2^8 - 1 = 255 subsets" in str(ref.value)


def test_first_best_decides_ties_exactly():
    """Float values within their bounds of each other go to the exact values: the first
    of the exactly largest wins, and every item exactly equal to it is marked."""
    group = np.array([0, 0, 0, 1, 1, 2])
    val = np.array([1.0, 1.0, 0.5, 2.0, 2.0, 3.0])
    bnd = np.full(6, 1e-9)
    exact = {0: Fraction(1), 1: Fraction(1), 3: Fraction(2), 4: Fraction(2) + Fraction(1, 10 ** 30)}
    groups, win, eq = cart._first_best(group, val, bnd, lambda items: [exact[i] for i in items.tolist()])
    assert groups.tolist() == [0, 1, 2] and win.tolist() == [0, 4, 5]
    assert eq.tolist() == [True, True, False, False, True, True]


def test_orientation_of_a_surrogate_tie_on_equal_mean_class_index():
    """The primary x sends (3, 0, 3) left and (0, 6, 0) right: equal mean class indices,
    so rpart's left is the high side (infotree's right).  Surrogate z's values c and d
    have one row each way and the directed rows split 6 : 6, so they go to rpart's right
    side, which is infotree's left: z in {a, c, d}."""
    rows = [(1, "a", "c0"), (2, "b", "c1"), (1, "a", "c2"), (1, "a", "c0"), (1, "a", "c2"), (1, "c", "c0"),
            (1, "d", "c2")] + [(2, z, "c1") for z in "bbbcd"]
    x, z, y = (list(c) for c in zip(*rows))
    data = from_records({"x": x, "z": z, "y": y}, target="y", numeric=["x"])
    assert data.classes == ("c0", "c1", "c2") and data.domains[1] == ("a", "b", "c", "d")
    for builder in ("levelwise", "reference"):
        root = build_tree(data, criterion="gini", builder=builder).root
        assert root.split_feature == "x"
        (s,) = root.surrogates
        assert s.feature == "z" and s.test.left == frozenset({0, 2, 3}) and (s.agreed, s.total, s.majority) == (10, 12, 6)


# -- regression (criterion squared_error) ------------------------------------------------

REGRESSION = [
    (dict(min_samples_split=20, min_leaf=7, cp=Fraction(1, 100))),
    (dict()),
    (dict(surrogates=2, use_surrogate=1, surrogate_style=1, max_depth=3)),
    (dict(use_surrogate=0, competitors=1)),
]


@pytest.mark.parametrize("build_kw", REGRESSION)
def test_airquality_regression(build_kw):
    """rpart's airquality: numeric features with missing values, a numeric target."""
    data = load(ROOT / "tests" / "data" / "airquality.csv", numeric="auto", on_missing="keep")
    fast, ref = assert_same(data, criterion="squared_error", **build_kw)
    assert fast.root._records is not None  # grown by the fast builder
    if build_kw.get("cp"):
        assert printed(fast) == printed(ref)


def test_regression_with_a_nominal_feature_is_the_reference_builder_s():
    data = load(ROOT / "worked_examples" / "regression_sse" / "data.csv", numeric="auto")
    fast, _ = assert_same(data, criterion="squared_error", min_samples_split=2, min_leaf=1)
    assert fast.root._records is None


@st.composite
def regression_tables(draw):
    """Numeric columns with few values (ties of cuts and of decreases), some missing;
    a decimal target with repeats, sometimes offset far from 0 (1e9 + small differences)."""
    n = draw(st.integers(3, 40))
    m = draw(st.integers(1, 3))
    missing = draw(st.sampled_from([0, 0, 0.2]))
    offset = draw(st.sampled_from([0, 0, 10 ** 9]))
    cols = {}
    for j in range(m):
        k = draw(st.sampled_from([1, 2, 3, 6]))
        cols[f"f{j}"] = [None if draw(st.floats(0, 1)) < missing else str(draw(st.integers(0, k - 1)))
                         for _ in range(n)]
    cols["y"] = [str(offset + Fraction(draw(st.integers(-6, 6)), draw(st.sampled_from([1, 2, 10])))) for _ in range(n)]
    cols["y"] = [str(float(Fraction(v))) if "/" in v else v for v in cols["y"]]
    return cols, missing > 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(regression_tables(), st.sampled_from([None, 2]), st.integers(1, 3), st.integers(2, 5),
       st.sampled_from([0, 1, 5]), st.sampled_from([0, 1, 2]), st.sampled_from([0, 1]),
       st.sampled_from([None, Fraction(1, 100)]))
def test_generated_regression_tables(table, max_depth, min_leaf, min_split, surrogates, use, style, cp):
    cols, has_missing = table
    data = from_records(cols, target="y", numeric=[c for c in cols if c != "y"],
                        on_missing="keep" if has_missing else "reject")
    assert_same(data, criterion="squared_error", max_depth=max_depth, min_leaf=min_leaf, min_samples_split=min_split,
                surrogates=surrogates, use_surrogate=use, surrogate_style=style, cp=cp)


def test_regression_with_a_large_offset_is_grown_exactly_by_the_fast_builder():
    """Targets 10^9 + k/1000: shifted by a middle value, the fast builder's integers stay
    small; its tree and records are the reference's."""
    cols = {"a": [str(i % 7) for i in range(120)], "b": [str(i * 5 % 11) for i in range(120)],
            "y": [f"1000000000.{i * 37 % 101:03d}" for i in range(120)]}
    data = from_records(cols, target="y", numeric=["a", "b"])
    fast, _ = assert_same(data, criterion="squared_error")
    assert fast.root._records is not None and fast.root.split is not None


def test_decreases_in_int64_where_they_fit_else_in_python_ints():
    """_first_best's exact decreases d² / (n_L·n_R·n): int64 when every cross product fits,
    Python ints past that; the same fractions either way."""
    from infotree.grow.cart import _decreases

    rng = np.random.default_rng(7)
    for scale, kind in ((10 ** 3, np.int64), (10 ** 9, object)):
        nL, nR = rng.integers(1, 50, 200), rng.integers(1, 50, 200)
        SL, SR = rng.integers(-scale, scale, 200) * nL, rng.integers(-scale, scale, 200) * nR
        num, den = _decreases(SL, nL, SR, nR)
        assert num.dtype == kind and den.dtype == kind
        for a, b, sl, l, sr, r in zip(num, den, SL.tolist(), nL.tolist(), SR.tolist(), nR.tolist()):
            assert Fraction(int(a), int(b)) == Fraction((sl * r - sr * l) ** 2, l * r * (l + r))


def test_regression_with_a_wide_target_decides_ties_in_python_ints():
    """Targets spread over ±10^8 with repeats: the exact comparisons past int64 (Python
    ints) grow the reference's tree and records."""
    cols = {"a": [str(i % 5) for i in range(80)], "b": [str(i * 3 % 7) for i in range(80)],
            "y": [str((i * 7 % 9 - 4) * 25_000_000) for i in range(80)]}
    data = from_records(cols, target="y", numeric=["a", "b"])
    fast, _ = assert_same(data, criterion="squared_error")
    assert fast.root._records is not None and fast.root.split is not None


def test_wide_sort_keys_grow_the_same_trees(monkeypatch):
    """Past 2^16 sort keys (values of a feature, open nodes of a depth) the builder sorts
    int64 keys instead of uint16: forced here with a bound of 8, the trees and records are
    still the reference's."""
    from infotree.grow import cart, cart_partition

    monkeypatch.setattr(cart, "_KEY16", 8)
    monkeypatch.setattr(cart_partition, "_KEY16", 8)
    cols = {"a": [str(i * 7 % 13) for i in range(90)], "b": [str(i * 5 % 11) for i in range(90)],
            "c": [str(i % 3) for i in range(90)], "y": [str(i * 37 % 17 - 8) for i in range(90)]}
    data = from_records(cols, target="y", numeric=["a", "b", "c"])
    fast, _ = assert_same(data, criterion="squared_error")
    assert fast.root._records is not None and sum(1 for _ in fast.root.walk()) > 50
    data = from_records({**cols, "y": [str(i * 37 % 3) for i in range(90)]}, target="y", numeric=["a", "b", "c"])
    fast, _ = assert_same(data, criterion="gini")
    assert fast.root._records is not None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=2, max_size=4), st.integers(0, 2 ** 32 - 1))
def test_gini_features_compared_in_int64_as_exact_gini(parent, seed):
    """A node's features' best cuts, compared in int64 where no value is missing, order as
    their exact Gini decreases n·G(P) − n·G(L) − n·G(R) (n·G(c) = n − Σc²/n, Fractions),
    equal ones included."""
    from types import SimpleNamespace

    from infotree.impurities import Gini

    rng = np.random.default_rng(seed)
    P = np.array(parent, dtype=np.int64)
    L = np.array([rng.integers(0, P + 1) for _ in range(30)] + [P // 2, P - P // 2, P // 2])
    L = L[(L.sum(axis=1) > 0) & ((P - L).sum(axis=1) > 0)]
    m = len(L)
    lv = SimpleNamespace(L=L[None], R=(P - L)[None])
    b = cart.CARTBuilder.__new__(cart.CARTBuilder)
    b.reg, b.crit, b.has_missing = False, Gini(), False
    num, den = b.exact_improvements(lv, np.zeros(m, np.int64), np.arange(m))

    def n_gini(c):
        n = sum(c)
        return n - Fraction(sum(x * x for x in c), n)

    exact = [n_gini(P.tolist()) - n_gini(l.tolist()) - n_gini((P - l).tolist()) for l in L]
    for i in range(m):
        for j in range(m):
            fast = int(num[i]) * int(den[j]) - int(num[j]) * int(den[i])
            assert (fast > 0) == (exact[i] > exact[j]) and (fast == 0) == (exact[i] == exact[j])


def test_a_cut_keeping_every_row_on_one_side_fails_instead_of_growing_forever(monkeypatch):
    """A wrong cut from a loop (a compiled one's defect: a wrong value code) that sends all of
    a node's rows to one child would grow those rows deeper forever; the builder stops with
    an error at that depth."""
    rng = np.random.default_rng(3)
    data = from_arrays(np.round(rng.normal(size=(60, 2)), 1), np.array(["a", "b"] * 30), numeric="auto")
    partition = cart.CARTBuilder.partition

    def wrong(self, nodes, split, chosen, lv, *a):
        lv.lo[...] = 1 << 30   # every known value at or below the cut: all rows to the left
        return partition(self, nodes, split, chosen, lv, *a)

    monkeypatch.setattr(cart.CARTBuilder, "partition", wrong)
    with pytest.raises(RuntimeError, match="sent every row of its node to one child"):
        build_tree(data, criterion="gini", builder="levelwise", max_depth=40)  # without the guard: fails, not hangs


@pytest.mark.parametrize("criterion,name,read", [
    ("gini", "kyphosis.csv", dict(target="Kyphosis")), ("entropy", "stagec.csv", dict(on_missing="keep")),
    ("squared_error", "airquality.csv", dict(on_missing="keep"))])
@pytest.mark.parametrize("min_gain", [Fraction(1, 100), Fraction(1, 10), Fraction(3)])
def test_min_gain_stops_where_the_reference_does(criterion, name, read, min_gain):
    """min_gain against CART's decrease (a candidate's gain is ID3's and C4.5's record)."""
    data = load(ROOT / "tests" / "data" / name, numeric="auto", **read)
    assert_same(data, criterion=criterion, min_gain=min_gain)
