"""The DuckDB engine grows build_tree's tree, byte for byte: every printer and the model JSON,
on the shipped data sets (CSV and Parquet) and on adversarial columns; what it does not take
is refused in one line."""

import random
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import build_tree, load
from infotree.engines import grow
from infotree.engines.memory import MemoryProvider
from infotree.errors import InfotreeError
from infotree.model import dumps
from test_builders import _printed as printed  # every printer's bytes (pytest puts tests/ on the path)

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from infotree.engines.duckdb import DuckDBProvider  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def same(path, read, **options):
    """The engine's tree and build_tree's on the same file: printers and model equal."""
    data = load(path, **read)
    ref = build_tree(data, **options)
    with_engine = DuckDBProvider(path, **read)
    try:
        got = grow(with_engine, engine="duckdb", **options)
    finally:
        with_engine.close()
    assert with_engine.schema.domains == data.domains and with_engine.schema.numbers == data.numbers
    assert printed(got) == printed(ref)
    assert dumps(got) == dumps(ref)
    return ref


FILES = [("tests/data/weather.csv", {}), ("tests/data/weather.numeric.csv", dict(numeric="auto")),
         ("tests/data/contact-lenses.csv", {}), ("tests/data/kyphosis.csv", dict(numeric="auto", target="Kyphosis")),
         ("tests/data/bacteria.csv", {}), ("worked_examples/cart_gini/data.csv", dict(numeric="auto")),
         ("worked_examples/xor/data.csv", {}), ("worked_examples/horse_race/data.csv", dict(numeric="auto"))]
CRITERIA = [dict(criterion="gain"), dict(criterion="gain_ratio"), dict(criterion="gini"),
            dict(criterion="gini", surrogates=0, min_leaf=2),  # numeric cuts filtered in SQL
            dict(criterion="entropy", min_leaf=3, cp=Fraction(1, 100), surrogates=2)]


def parquet_of(csv, tmp_path):
    """The CSV file as Parquet with the column types Arrow reads (int64, double, string)."""
    import pyarrow.csv as pcsv

    out = tmp_path / (Path(csv).stem + ".parquet")
    pq.write_table(pcsv.read_csv(str(csv)), out)
    return out


@pytest.mark.parametrize("path, read", FILES, ids=[Path(f).parent.name + "/" + Path(f).name for f, _ in FILES])
def test_shipped_data_sets_csv_and_parquet(path, read, tmp_path):
    for p in (ROOT / path, parquet_of(ROOT / path, tmp_path)):
        for options in CRITERIA:
            same(p, read, **options)


def test_regression_with_decimal_and_float32_columns(tmp_path):
    r = random.Random(3)
    n = 200
    a = [r.randint(0, 30) for _ in range(n)]
    b = [r.choice(["x", "y", "z"]) for _ in range(n)]
    t = [Decimal(x) / 4 + (Decimal("2.25") if y == "x" else 0) + Decimal(r.randint(0, 3)) / 10 for x, y in zip(a, b)]
    f = np.array([r.randint(0, 12) / 10 for _ in range(n)], np.float32)  # 0.1 in float32 is not 0.1
    table = pa.table({"a": pa.array(a, pa.int32()), "b": b, "f": pa.array(f, pa.float32()),
                      "t": pa.array(t, pa.decimal128(12, 4))})
    path = tmp_path / "reg.parquet"
    pq.write_table(table, path)
    read = dict(numeric="auto", numeric_target=True)
    for options in (dict(criterion="squared_error"), dict(criterion="squared_error", min_leaf=7, cp="0.005")):
        same(path, read, **options)


def test_adversarial_columns(tmp_path):
    """−0.0 and 0.0 (one number), a float column with inf (data.py reads it as nominal, and so
    does the engine: −0.0 and 0.0 then differ), exact ties, min_leaf at its endpoints,
    counts past 2^26 are the in-memory test's (tests/test_cart_builder.py)."""
    r = random.Random(5)
    n = 240
    zero = [r.choice([0.0, -0.0, 1.5, 2.5]) for _ in range(n)]
    infs = [r.choice([0.0, -0.0, float("inf"), 1.0]) for _ in range(n)]
    tie = [i % 4 for i in range(n)]   # two columns that split the classes equally well
    tie2 = [(i % 4) * 10 for i in range(n)]
    cls = ["p" if (i % 4) < 2 else "q" for i in range(n)]
    cls = [c if r.random() < 0.8 else ("q" if c == "p" else "p") for c in cls]
    path = tmp_path / "adv.parquet"
    pq.write_table(pa.table({"zero": zero, "infs": infs, "tie": tie, "tie2": tie2, "class": cls}), path)
    read = dict(numeric="auto")
    ref = same(path, read, criterion="gini", min_leaf=1)
    assert ref.root.ties  # the exact tie is there, and kept
    for min_leaf in (1, n // 2, n // 2 + 1):
        for surrogates in (0, 5):  # 0: the numeric cuts filtered in SQL
            same(path, read, criterion="gini", min_leaf=min_leaf, min_samples_split=2, surrogates=surrogates)
    same(path, read, criterion="gain_ratio")
    assert load(path, **read).kinds[1] == "nominal"


def test_shuffled_rows_give_the_readers_tree(tmp_path):
    """Row order reaches the tree only through the domains' first appearance: read from an explicit
    row number, never from a scan's order (DuckDB runs with preserve_insertion_order off)."""
    rows = (ROOT / "tests/data/kyphosis.csv").read_text().splitlines()
    for seed in (1, 2):
        body = rows[1:]
        random.Random(seed).shuffle(body)
        path = tmp_path / f"k{seed}.csv"
        path.write_text("\n".join([rows[0], *body]) + "\n")
        same(path, dict(numeric="auto", target="Kyphosis"), criterion="gini")
        same(parquet_of(path, tmp_path), dict(numeric="auto", target="Kyphosis"), criterion="entropy")


def test_nodes_finished_in_memory_grow_the_same_tree(tmp_path):
    path = ROOT / "tests/data/kyphosis.csv"
    read = dict(numeric="auto", target="Kyphosis")
    for surrogates in (3, 0):  # 0: the numeric cuts filtered, in SQL and then in numpy
        ref = build_tree(load(path, **read), criterion="gini", surrogates=surrogates)
        for rows in (0, 10, 40):
            p = DuckDBProvider(path, **read)
            try:
                got = grow(p, in_memory=rows, criterion="gini", surrogates=surrogates)
            finally:
                p.close()
            assert printed(got) == printed(ref)


def test_memory_provider_is_the_reference_on_generated_tables():
    r = random.Random(7)
    from infotree.data import from_records

    for trial in range(3):
        n = r.randint(5, 80)
        cols = {f"n{i}": [r.randint(0, 5) for _ in range(n)] for i in range(2)}
        cols.update({f"c{i}": [r.choice("abcd"[:r.randint(1, 4)]) for _ in range(n)] for i in range(2)})
        cols["y"] = [r.choice("uvw"[:r.randint(2, 3)]) for _ in range(n)]
        data = from_records(cols, target="y", numeric=["n0", "n1"])
        for options in CRITERIA[:4] + [dict(criterion="misclassification", min_leaf=2)]:
            assert printed(grow(MemoryProvider.of(data), **options)) == printed(build_tree(data, **options))


def test_refusals_are_one_line(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("a,b,y\n1,x,p\n2,?,q\n3,y,p\n")
    with pytest.raises(InfotreeError, match=r"line 3, column 'b': missing value '\?'; the duckdb engine does not "
                                            r"take missing values"):
        DuckDBProvider(path, on_missing="keep")
    with pytest.raises(InfotreeError, match=r"line 3, column 'b': missing value '\?'"):
        DuckDBProvider(path)
    p = DuckDBProvider(ROOT / "tests/data/weather.csv")
    try:
        for bad in (dict(sample_weight=[1] * 14), dict(prune="pessimistic"), dict(lookahead=1)):
            with pytest.raises(InfotreeError, match="the duckdb engine does not"):
                grow(p, engine="duckdb", **bad)
    finally:
        p.close()
    with pytest.raises(InfotreeError, match="memory limit 'lots' is not allowed"):
        DuckDBProvider(ROOT / "tests/data/weather.csv", memory_limit="lots")


def test_command_line(tmp_path):
    args = ["tree", str(ROOT / "tests/data/kyphosis.csv"), "--target", "Kyphosis", "--algorithm", "cart"]

    def run(*extra):
        done = subprocess.run([sys.executable, "-m", "infotree", *args, *extra], capture_output=True, text=True,
                              cwd=ROOT)
        return done.returncode, done.stdout, done.stderr

    memory = run()
    assert memory[0] == 0
    assert run("--engine", "duckdb", "--memory-limit", "500MB", "--threads", "1") == memory
    assert run("--engine", "auto") == memory  # within the budget: in memory
    code, out, err = run("--engine", "memory", "--threads", "2")
    assert code != 0 and "--threads apply to --engine duckdb" in err


def test_filtered_subset_search_is_best_subset():
    """The engines' float-filtered exhaustive subset search (three classes or more) against the
    splitter's exact one: the same subset, table and number of subsets compared."""
    from infotree.criteria import criterion_named
    from infotree.engines.builder import _subsets_filtered
    from infotree.splitters import best_subset

    r = random.Random(11)
    for _ in range(300):
        crit = criterion_named("gini")  # the impurity with a float filter (cut_floats)
        V, C = r.randint(3, 7), r.randint(3, 4)
        table = tuple(tuple(r.choice([0, 0, 1, 2, 5]) for _ in range(C)) for _ in range(V))
        min_leaf = r.randint(1, 6)
        got = _subsets_filtered(table, min_leaf, crit, 1 << 15, crit.cut_floats)
        if got is None:
            continue
        want = best_subset(table, min_leaf, crit.cut_key, 1 << 15, order=crit.subset_order)
        assert (want is None) if got is False else got == want


def test_cuts_filtered_in_sql_keep_every_best_cut(monkeypatch, tmp_path):
    """Gini without surrogates: only the cuts within the certified bound of each node's best leave
    DuckDB, and the tree is the same; many exact ties (every value class-balanced but two)."""
    kept = []
    real = DuckDBProvider.cuts

    def spy(self, nodes, features, min_side, slack):
        out = real(self, nodes, features, min_side, slack)
        kept.extend(len(v[1]) for got in out.values() for v in got.values())
        return out

    monkeypatch.setattr(DuckDBProvider, "cuts", spy)
    n = 600
    x = [i % 50 for i in range(n)]
    z = [(i * 7) % 30 for i in range(n)]
    cls = ["a" if (v in (3, 40) or i % 2) else "b" for i, v in enumerate(x)]
    path = tmp_path / "ties.parquet"
    pq.write_table(pa.table({"x": x, "z": z, "class": cls}), path)
    same(path, dict(numeric="auto"), criterion="gini", surrogates=0, max_depth=4)
    assert kept and sum(kept) < 49 * len(kept)  # filtered: fewer than every cut travels


def test_auto_takes_duckdb_past_the_budget(monkeypatch, capsys):
    from infotree.cli import main
    from infotree.engines import command

    chosen = []
    real = DuckDBProvider.__init__

    def spy(self, *a, **k):
        chosen.append("duckdb")
        real(self, *a, **k)

    monkeypatch.setattr(DuckDBProvider, "__init__", spy)
    args = ["tree", str(ROOT / "tests/data/weather.csv"), "--engine", "auto"]
    assert main(args) in (0, None)
    memory = capsys.readouterr().out
    assert chosen == []
    assert command.budget("8GB") == 1 << 30
    monkeypatch.setattr(command, "budget", lambda limit: 100)  # bytes of file; weather.csv has more
    assert main(args) in (0, None)
    assert chosen == ["duckdb"] and capsys.readouterr().out == memory


# -- the builder tests' generated tables, through DuckDB ------------------------------

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_cart_builder import CART, tables as cart_tables  # noqa: E402
from test_builders import FAST  # noqa: E402


def parquet_of_records(cols, numeric, tmp):
    """A generated table as Parquet: numeric columns as int64, the others as text."""
    table = pa.table({c: pa.array([int(v) for v in vals], pa.int64()) if c in numeric else pa.array(vals, pa.string())
                      for c, vals in cols.items()})
    path = tmp / "generated.parquet"
    pq.write_table(table, path)
    return path


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(cart_tables(), st.sampled_from([*CART, *FAST]), st.sampled_from([None, 1, 3]), st.integers(1, 3),
       st.integers(2, 6), st.sampled_from([0, 1, 5]), st.sampled_from([None, Fraction(1, 10)]))
def test_generated_tables_grow_build_tree_s_tree(tmp_path, table, criterion, max_depth, min_leaf, min_split,
                                                surrogates, cp):
    """The builder tests' generated tables (few values: exact ties, empty branches, impure
    leaves), without missing values, written to Parquet: every printer's bytes equal."""
    cols, numeric, has_missing = table
    assume(not has_missing)
    options = dict(criterion=criterion, max_depth=max_depth)
    if criterion in CART:
        options.update(min_leaf=min_leaf, min_samples_split=min_split, surrogates=surrogates, cp=cp)
    same(parquet_of_records(cols, numeric, tmp_path), dict(numeric="auto"), **options)


# -- counts past 2^26 -----------------------------------------------------------------

def _float_key(left, right):
    """The engines' float Gini key of a cut, in their order of operations (sql.py, filter_groups)."""
    n, nl = float(sum(left) + sum(right)), float(sum(left))
    ql, qr = sum(float(x) * float(x) for x in left), sum(float(x) * float(x) for x in right)
    return (n - ql / nl - qr / (n - nl)) / n


@pytest.mark.parametrize("plan", ["rows", "groups", "windows"],
                         ids=["rows counted in numpy", "groups in numpy", "windows in SQL"])
def test_counts_past_2_26_keep_the_exact_first_best_cut(tmp_path, monkeypatch, plan):
    """A node of 73,292,079 rows (past 2^26: squares of counts past 2^53 are rounded): values
    0, 1, 2 of x with class counts (p, q), (r, s), (p, q), so the two cuts' tables mirror each
    other and their Gini keys are exactly equal, the first chosen (best_threshold); in floats
    the first is the larger (checked below), so a filter without its certified bound keeps
    only the second.  The rows are made inside DuckDB (range()), not written to a file."""
    import infotree.engines.duckdb as engine

    p, q, r, s = 16594333, 16153671, 4070890, 3725181
    n = 2 * (p + q) + r + s
    assert n > 1 << 26
    first, second = ((p, q), (p + r, q + s)), ((p + r, q + s), (p, q))
    key = lambda L, R: n - Fraction(sum(x * x for x in L), sum(L)) - Fraction(sum(x * x for x in R), n - sum(L))
    assert key(*first) == key(*second) and _float_key(*first) > _float_key(*second)
    path = tmp_path / "few.parquet"  # one row per (x, class): the schema; the counts come below
    pq.write_table(pa.table({"x": [0, 0, 1, 1, 2, 2], "class": ["u", "v"] * 3}), path)
    if plan != "rows":  # the SQL plan (a forest's): DuckDB groups (node, value), or its windows
        monkeypatch.setattr(DuckDBProvider, "hold", False)
    if plan == "windows":
        monkeypatch.setattr(engine, "GROUPS", 0)  # every node's cuts by the SQL plan's windows
    provider = DuckDBProvider(path, numeric="auto")
    try:
        weights = {(0, 0): p, (0, 1): q, (1, 0): r, (1, 1): s, (2, 0): p, (2, 1): q}
        provider.con.execute("ALTER TABLE __lvl0 RENAME TO __few")
        provider.con.execute("CREATE VIEW __lvl0 AS " + " UNION ALL ".join(
            f"SELECT l.* FROM (SELECT * FROM __few WHERE c0 = {x} AND y = {y}) l, range({w})"
            for (x, y), w in weights.items()))
        provider.n_rows = n
        tree = grow(provider, engine="duckdb", criterion="gini", surrogates=0, max_depth=0)
    finally:
        provider.close()
    assert tree.root.class_counts.tolist() == [2 * p + r, 2 * q + s]
    (cand,) = tree.root.candidates()
    assert cand.split.threshold == Fraction(1, 2) and cand.n_tried == 2
    assert [list(row) for row in cand.table] == [list(first[0]), list(first[1])]


@pytest.mark.parametrize("groups", [1, 40])
def test_cuts_counted_a_batch_of_nodes_at_a_time(monkeypatch, groups):
    """The SQL plan: at most GROUPS (node, value) groups come into memory at once: 40 makes
    several batches a depth, 1 sends every node to the SQL windows; the tree is the same."""
    import infotree.engines.duckdb as engine

    monkeypatch.setattr(DuckDBProvider, "hold", False)
    monkeypatch.setattr(engine, "GROUPS", groups)
    same(ROOT / "tests/data/kyphosis.csv", dict(numeric="auto", target="Kyphosis"), criterion="gini", surrogates=0,
         min_leaf=2)


@pytest.mark.parametrize("bins, batch, add_at", [(7, 16, True), (200, 64, False)])
def test_rows_counted_a_scan_of_units_at_a_time(monkeypatch, bins, batch, add_at):
    """Rows held in numpy: a scan counts at most BINS bins, in batches of BATCH rows; 7 bins count
    one node and 3 values of a feature at a time (more scans than values), 200 a few nodes;
    the tree is the same, with every criterion's tables and with nodes taken into memory,
    counted by np.add.at or (numpy before 1.25) by bincount."""
    import infotree.engines.duckdb as engine
    import infotree.engines.scan as scan

    monkeypatch.setattr(scan, "BINS", bins)
    monkeypatch.setattr(scan, "ADD_AT", add_at)
    monkeypatch.setattr(engine, "BATCH", batch)
    path, read = ROOT / "tests/data/kyphosis.csv", dict(numeric="auto", target="Kyphosis")
    for options in (dict(criterion="gini", surrogates=0, min_leaf=2), dict(criterion="gain_ratio"),
                    dict(criterion="gini", surrogates=2)):
        same(path, read, **options)
    ref = build_tree(load(path, **read), criterion="gini", surrogates=0)
    p = DuckDBProvider(path, **read)
    try:
        got = grow(p, in_memory=30, criterion="gini", surrogates=0)
    finally:
        p.close()
    assert dumps(got) == dumps(ref)


@pytest.mark.parametrize("path, read", FILES[2:4], ids=[Path(f).name for f, _ in FILES[2:4]])
def test_sql_plan_and_rows_in_numpy_grow_one_tree(monkeypatch, path, read):
    """Classification's two plans (rows' nodes in numpy; the coded table rewritten each depth, as
    regression and forests grow) give build_tree's tree."""
    monkeypatch.setattr(DuckDBProvider, "hold", False)
    for options in CRITERIA:
        same(ROOT / path, read, **options)


def test_subset_budget_counts_the_nodes_a_search_may_repeat_at(monkeypatch, tmp_path):
    """The exhaustive subset search (three classes) reads a count table, so the budget counts
    its subsets × the nodes where it may run again: the node's rows, or at most a full tree
    down to max_depth.  10^8 rows to depth 8 pass (127 × 511 subsets); every builder and the
    engine refuse or grow alike."""
    from infotree import splitters
    from infotree.criteria import criterion_named
    from infotree.splitters import best_subset, search_reach

    crit = criterion_named("gini")
    big = tuple((12_500_000 - 3 * v, 2 * v, v) for v in range(8))   # 10^8 rows, 8 values, 3 classes
    assert search_reach(8, 0) == 511 and search_reach(8, 8) == 1 and search_reach(None, 3) is None
    found = best_subset(big, 1, crit.cut_key, 1 << 15, reach=search_reach(8, 0))
    assert found is not None and found[2] == 127
    with pytest.raises(InfotreeError, match=r"127 subsets at each of up to 100000000 nodes \(12700000000 in all\)"):
        best_subset(big, 1, crit.cut_key, 1 << 15)

    r = random.Random(5)
    f = tmp_path / "v8.csv"
    f.write_text("c,d,y\n" + "".join(f"v{r.randrange(8)},w{r.randrange(3)},{r.choice('abc')}\n" for _ in range(400)))
    monkeypatch.setattr(splitters, "SUBSET_WORK", 127 * 200)  # 400 rows' 127 subsets pass it at the root only
    data = load(f)
    for builder in ("reference", "auto"):
        with pytest.raises(InfotreeError, match=r"127 subsets at each of up to 400 nodes"):
            build_tree(data, criterion="gini", builder=builder)
    ref = build_tree(data, criterion="gini", builder="reference", max_depth=3)   # 127 × 15 at the root
    assert dumps(build_tree(data, criterion="gini", max_depth=3)) == dumps(ref)
    assert ref.root.split_feature == "c"
    same(f, {}, criterion="gini", max_depth=3)
    with pytest.raises(InfotreeError, match=r"127 subsets at each of up to 400 nodes"):
        same(f, {}, criterion="gini")
