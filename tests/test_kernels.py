"""The fast CART builder with and without its compiled loops (infotree.grow.kernels).

tests/test_cart_builder.py compares the numpy path (small data, or no numba) with the
reference builder; here the compiled loops, taken on every size of data, are compared
with the reference builder on the same shipped and generated tables, and the two paths
with each other on data with many nodes, exact ties of cuts and of
surrogates, missing values, and a forest's counted rows (multiplicities)."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infotree import build_tree, from_arrays, from_records, grow_forest, load
from infotree.grow import kernels
from infotree.printers.forest import write
from test_cart_builder import CART, CASES, assert_same, records, regression_tables, tables

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not kernels._installed,
                                reason="no compiled loops (no C compiler at install, no numba)")


@pytest.fixture(params=kernels.backends())
def compiled_path(request, monkeypatch):
    """The compiled loops (each backend: C, numba) on data of any size; yields their calls,
    counted."""
    monkeypatch.setattr(kernels, "MIN_CELLS", 0)
    was = kernels.use(request.param)
    kernels.load()
    calls = []
    for name in kernels._ENTRIES:  # not the loops only the loops call
        loop = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *a, _loop=loop, _name=name: calls.append(_name) or _loop(*a))
    yield calls
    kernels.use(was)


def both(grow):
    """grow() with the compiled loops (the backend on), then without."""
    was = kernels.use(kernels._backend)
    try:
        assert kernels.active(kernels.MIN_CELLS)
        a = grow()
        kernels.use(False)
        return a, grow()
    finally:
        kernels.use(was)


@pytest.mark.parametrize("name, load_kw, build_kw", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_compiled_path_is_the_reference(compiled_path, name, load_kw, build_kw):
    data = load(ROOT / "tests" / "data" / name, **load_kw)
    assert_same(data, criterion="gini", **build_kw)
    assert bool({"gini_cuts", "cuts_all"} & set(compiled_path)) == ("numeric" in data.kinds)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(tables(), st.sampled_from(CART), st.integers(1, 3), st.sampled_from([0, 5]), st.sampled_from([0, 2]))
def test_compiled_path_on_generated_tables(compiled_path, table, criterion, min_leaf, surrogates, use):
    cols, numeric, has_missing = table
    data = from_records(cols, target="y", numeric=numeric, on_missing="keep" if has_missing else "reject")
    assert_same(data, criterion=criterion, min_leaf=min_leaf, surrogates=surrogates, use_surrogate=use)


@pytest.mark.parametrize("exact_rows", [0, kernels.EXACT_GINI_ROWS])
@pytest.mark.parametrize("name, load_kw, build_kw", CASES[:4], ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES[:4])])
def test_near_tied_gini_cuts_decided_in_the_loop_or_in_python(compiled_path, monkeypatch, exact_rows, name, load_kw,
                                                               build_kw):
    """A node's cuts the floats cannot separate are decided exactly by the Gini loop (in
    int64, nodes of EXACT_GINI_ROWS rows or fewer) or handed to Python (0: every node): the
    reference's tree and records either way."""
    monkeypatch.setattr(kernels, "EXACT_GINI_ROWS", exact_rows)
    data = load(ROOT / "tests" / "data" / name, **load_kw)
    assert_same(data, criterion="gini", **build_kw)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(regression_tables(), st.integers(1, 3), st.sampled_from([0, 5]))
def test_compiled_path_on_generated_regression_tables(compiled_path, table, min_leaf, surrogates):
    cols, has_missing = table
    data = from_records(cols, target="y", numeric=[c for c in cols if c != "y"],
                        on_missing="keep" if has_missing else "reject")
    assert_same(data, criterion="squared_error", min_leaf=min_leaf, surrogates=surrogates)


def _rows(n, seed, regression=False, holes=0.0):
    """n rows of 6 numeric features with few distinct values (many exactly tied cuts and
    surrogates), some missing; 3 classes, or a decimal target."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 12, size=(n, 6)).astype(float) / 4
    X[:, 5] = np.round(rng.normal(size=n), 2)          # one with many values
    if holes:
        X[rng.random((n, 6)) < holes] = np.nan
    score = np.nan_to_num(X[:, 0]) - np.nan_to_num(X[:, 1]) + 0.5 * np.nan_to_num(X[:, 5])
    if regression:  # one decimal: equal sums on both sides of different cuts, exactly tied decreases
        return X, np.round(score + rng.normal(size=n) / 4, 1)
    y = np.digitize(score, [-0.5, 0.5])
    flip = rng.random(n) < 0.2
    y[flip] = rng.integers(0, 3, size=int(flip.sum()))
    return X, np.array([f"c{v}" for v in y])


@pytest.mark.parametrize("seed, holes, options", [
    (1, 0.0, dict(criterion="gini")),
    (2, 0.1, dict(criterion="gini", min_leaf=3)),
    (3, 0.0, dict(criterion="gini", surrogates=0, min_leaf=2)),
    (4, 0.2, dict(criterion="gini", use_surrogate=1, surrogate_style=1)),
])
def test_compiled_and_numpy_grow_the_same_classification_tree(compiled_path, seed, holes, options):
    X, y = _rows(2000, seed, holes=holes)
    data = from_arrays(X, y, numeric="auto", on_missing="keep")
    fast, slow = both(lambda: build_tree(data, **options))
    assert fast.root._records is not None
    assert len(list(fast.nodes())) > 200
    assert {"cuts_all", "regroup_all"} <= set(compiled_path)
    assert records(fast) == records(slow)


@pytest.mark.parametrize("seed, holes, options", [
    (5, 0.0, dict()),
    (6, 0.15, dict(min_leaf=4)),
    (7, 0.0, dict(surrogates=0)),
])
def test_compiled_and_numpy_grow_the_same_regression_tree(compiled_path, seed, holes, options):
    X, y = _rows(800, seed, regression=True, holes=holes)
    data = from_arrays(X, y, numeric="auto", on_missing="keep")
    fast, slow = both(lambda: build_tree(data, criterion="squared_error", **options))
    assert fast.root._records is not None
    assert {"cuts_all", "child_stats"} <= set(compiled_path)
    assert records(fast) == records(slow)


@pytest.mark.parametrize("holes", [0.0, 0.1])
def test_compiled_and_numpy_grow_the_same_forest(compiled_path, holes):
    """A forest's trees count a bootstrap sample's repeated rows once each, with their
    multiplicities (the weighted loop), and draw features per node: the compiled loops keep
    every feature's rows sorted and score the drawn ones (C skips the others), numpy's path
    sorts a drawn feature's rows at each depth."""
    import io

    X, y = _rows(600, 8, holes=holes)
    data = from_arrays(X, y, numeric="auto", on_missing="keep")

    def text():
        out = io.StringIO()
        forest = grow_forest(data, n_estimators=4, random_state=4, criterion="gini", surrogates=0,
                             max_features=3)
        write(forest, out, fmt="json", nodes="all", show_samples=True, oob=forest.oob(), show_oob=True)
        return out.getvalue()

    a, b = both(text)
    assert {"cuts_all", "regroup_all", "draw_all"} <= set(compiled_path)
    assert a == b


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=400))
def test_compiled_blake2b_is_hashlibs(compiled_path, message):
    """The forest's draws hash in the compiled loops: BLAKE2b with an 8-byte digest, as
    hashlib's, across block boundaries (0, 1, 127, 128, 129, ... bytes)."""
    import hashlib

    buf = np.frombuffer(message + b"\0", np.uint8)
    want = int.from_bytes(hashlib.blake2b(message, digest_size=8).digest(), "little")
    assert int(kernels.blake2b8(buf, len(message))) == want


@pytest.mark.parametrize("length", [0, 1, 111, 112, 119, 120, 127, 128, 129, 248, 255, 256, 257, 1000])
def test_compiled_blake2b_at_block_edges(compiled_path, length):
    import hashlib

    message = bytes(range(256)) * 4
    message = message[:length]
    buf = np.frombuffer(message + b"\0", np.uint8)
    assert int(kernels.blake2b8(buf, length)) == int.from_bytes(hashlib.blake2b(message, digest_size=8).digest(),
                                                               "little")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.binary(min_size=16, max_size=300), st.integers(2, 40)), min_size=1, max_size=5),
       st.integers(1, 40))
def test_compiled_draws_are_the_node_streams(compiled_path, nodes, k):
    """draw_all draws what _NodeDraw.choose draws from each node's stream (the prefix's
    blocks hashed once, the counter's block per word)."""
    from infotree.nodedraw import _NodeDraw

    n = min(n for _, n in nodes)
    k = min(k, n)
    prefixes = [p for p, _ in nodes]
    lens = np.array([len(p) for p in prefixes])
    ends = np.cumsum(lens)
    got = kernels.draw_all(np.frombuffer(b"".join(prefixes), np.uint8), ends - lens, ends, n, k)
    assert [tuple(row) for row in got.tolist()] == [_NodeDraw.choose(p, list(range(n)), k) for p in prefixes]


@pytest.mark.parametrize("backend", kernels.backends())
def test_small_data_takes_numpys_path_for_numba_and_use_switches(backend):
    """numba's loads pay from MIN_CELLS values; C's at any size."""
    was = kernels.use(backend)
    try:
        assert kernels.active(kernels.MIN_CELLS - 1) == (backend == "c")
        assert kernels.active(kernels.MIN_CELLS)
        assert kernels.use(False) == backend
        assert not kernels.active(kernels.MIN_CELLS)
    finally:
        kernels.use(was)


def test_compiled_regression_decides_float_ties_exactly(compiled_path):
    """Two cuts of exactly equal decrease, 16199999340000006 and ...08 in floats (the
    numerators pass 2^53 and round apart), the later one larger: the first cut is the
    best, as the exact decision (and the reference) says, which the float maximum alone
    would miss (found by a search over random targets of ±10^8)."""
    y = [29999999, -119999997, -89999997, 119999998, 120000002, -120000000, -60000001, 2, 119999998]
    data = from_records({"x": [str(i) for i in range(9)], "y": [str(v) for v in y]}, target="y", numeric=["x"])
    fast, _ = assert_same(data, criterion="squared_error", max_depth=1)
    assert "cuts_all" in compiled_path
    assert fast.root.test.threshold == Fraction(5, 2)   # after the third row, not the eighth


def test_compiled_path_with_more_classes_than_a_byte_holds(compiled_path):
    """130 classes: the compiled loops gather the classes as int32, not int8 (a byte would
    wrap class 128 to -128); the tree and records are the reference's."""
    rng = np.random.default_rng(9)
    n = 520
    X = np.round(rng.normal(size=(n, 3)), 1)
    X[:, 0] = np.arange(n) % 130 + np.round(rng.random(n), 1)      # the class, nearly, with noise
    y = np.array([f"k{v}" for v in (np.arange(n) + (rng.random(n) < 0.1)) % 130])
    data = from_arrays(X, y, numeric="auto")
    assert len(data.classes) > 128
    assert_same(data, criterion="gini", surrogates=2)
    assert "cuts_all" in compiled_path


@pytest.mark.parametrize("values, codes", [(1 << 15, np.int32), ((1 << 15) - 1, np.int16)])
def test_value_codes_past_int16_on_the_compiled_path(compiled_path, monkeypatch, values, codes):
    """A numeric feature of 2^15 values or more: its value codes int32 in the depth's arrays
    (int16 below: half the memory), both read by the loops; the numpy path's tree, with
    missing values and surrogates moving codes through every loop."""
    rng = np.random.default_rng(11)
    n = values + 500
    X = np.empty((n, 3))
    X[:, 0] = np.r_[np.arange(values), rng.integers(0, values, n - values)] / 8   # exactly `values` values
    X[:, 1] = np.round(rng.normal(size=n), 1)
    X[:, 2] = rng.integers(0, 5, n)
    X[rng.random(n) < 0.05, 1] = np.nan
    y = np.array([f"c{v}" for v in ((X[:, 0] > values / 16) ^ (rng.random(n) < 0.1)).astype(int)])
    data = from_arrays(X, y, numeric="auto", on_missing="keep")
    assert len(data.numbers[0]) == values
    seen = []
    regroup = kernels.regroup_all
    monkeypatch.setattr(kernels, "regroup_all", lambda O, V, *a: seen.append(V.dtype) or regroup(O, V, *a))
    fast, slow = both(lambda: build_tree(data, criterion="gini", max_depth=4, surrogates=2))
    assert seen and set(seen) == {np.dtype(codes)}
    assert {"cuts_all", "surrogate_cuts_all"} <= set(compiled_path)
    assert records(fast) == records(slow)


def test_the_c_loops_are_built_where_a_compiler_is():
    """pip install builds the C library (setup.py) where a C compiler is found; the tests
    above then run it beside numba's loops, and a fit loads no numba."""
    import os
    import shutil
    import subprocess
    import sys

    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler: the install took numba's or numpy's loops")
    assert kernels.backends()[0] == "c", "the C loops were not built: pip install -e . builds them (setup.py)"
    code = ("import sys, numpy as np; from infotree import from_arrays, build_tree; from infotree.grow import kernels; "
            "kernels.MIN_CELLS = 0; X = np.arange(40.0).reshape(20, 2) % 7; y = ['a', 'b'] * 10; "
            "build_tree(from_arrays(X, y, numeric='auto'), criterion='gini'); "
            "print(kernels._bound, 'numba' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k != "INFOTREE_KERNELS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.stdout.split() == ["c", "False"], out.stderr


def test_a_library_built_from_other_sources_is_not_loaded(tmp_path):
    """A checkout installed in place whose C source changed after the build (a pull, an
    edit): its library's functions could differ from cloops' signatures, so it is not taken.
    The library carries the digest of its sources; a build's time stamp may be older than
    the edit it followed (whole seconds)."""
    import ctypes
    import shutil

    from infotree.grow import cloops

    if not cloops.available():
        pytest.skip("no C library")
    here = Path(cloops.__file__).parent
    lib = ctypes.CDLL(str(next(here.glob("_clib*"))))
    assert not cloops._stale(lib, here / "_clib.so")       # the library built from these sources
    assert not cloops._stale(lib, tmp_path / "_clib.so")   # an installed package: no source beside it
    for name in cloops._SOURCES:
        shutil.copy(here / name, tmp_path / name)
    assert not cloops._stale(lib, tmp_path / "_clib.so")
    with open(tmp_path / "_draws.c", "a") as f:
        f.write("\n")
    assert cloops._stale(lib, tmp_path / "_clib.so")


def test_compiled_partition_with_a_nominal_feature_past_the_bit_masks(compiled_path):
    """A depth's directions in the compiled loop: numeric codes against the cut, nominal codes
    by their bit in the left set, and a nominal feature of more than 62 values (its left set a
    Python set) and missing values left to Python: the reference's tree and records."""
    rng = np.random.default_rng(7)
    n = 600
    wide = rng.integers(0, 70, n)
    narrow = rng.integers(0, 5, n)
    x = rng.integers(0, 30, n) / 2
    y = np.where((wide % 3 == 0) ^ (x > 7) ^ (narrow == 2) ^ (rng.random(n) < 0.1), "a", "b")
    cols = {"wide": [f"w{v}" for v in wide], "narrow": [f"n{v}" for v in narrow],
            "x": [None if i % 17 == 0 else float(v) for i, v in enumerate(x)], "y": list(y)}
    cols["wide"] = [None if i % 23 == 0 else v for i, v in enumerate(cols["wide"])]
    data = from_records(cols, target="y", numeric=["x"], on_missing="keep")
    for surrogates in (0, 3):
        fast, _ = assert_same(data, criterion="gini", surrogates=surrogates, max_depth=6)
        assert any(n.split == 0 for n in fast.root.walk())  # the wide feature splits somewhere
    assert {"directions", "children"} <= set(compiled_path)
