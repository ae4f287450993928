"""Forests on engines: with sampling='poisson' a forest grown on DuckDB is the forest grown in
memory with the same options and seed, byte for byte (every tree, every sample, the OOB votes),
on CSV and Parquet files, PLANET's in-memory finishing, groups of trees and shuffled rows with
their row numbers in a column; what an engine forest does not take is refused in one line."""

import io
import random
from pathlib import Path

import numpy as np
import pytest

from infotree import grow_forest, load
from infotree.errors import InfotreeError
from infotree.printers.forest import write

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from infotree.engines.duckdb import DuckDBProvider  # noqa: E402
from infotree.engines.forest import grow_forest as engine_forest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WHOLE = dict(min_leaf=1, cp=None, competitors=0, surrogates=0, max_depth=None)  # scikit-learn's whole CART trees


def printed(forest):
    """The forest's JSON with each tree's rows and OOB rows, the OOB votes and the importances."""
    out = io.StringIO()
    mdi, share = forest.mdi_shares()
    write(forest, out, fmt="json", oob=forest.oob(), show_samples=True, show_oob=True, mdi=mdi, share=share,
          permutation=forest.permutation_importance()[0])
    return out.getvalue()


def on_duckdb(path, read, **options):
    provider = DuckDBProvider(path, row_numbers=True, **read)
    try:
        return engine_forest(provider, **options)
    finally:
        provider.close()


def parquet_of(csv, tmp_path):
    import pyarrow.csv as pcsv

    out = tmp_path / (Path(csv).stem + ".parquet")
    pq.write_table(pcsv.read_csv(str(csv)), out)
    return out


FILES = [("tests/data/weather.numeric.csv", dict(numeric="auto")), ("tests/data/contact-lenses.csv", {}),
         ("tests/data/kyphosis.csv", dict(numeric="auto", target="Kyphosis")),
         ("worked_examples/cart_gini/data.csv", dict(numeric="auto"))]
FORESTS = [dict(criterion="gini", max_features="sqrt", vote="average", **WHOLE),
           dict(criterion="gain", max_features=2, sample_fraction="1/2", bootstrap=False),
           dict(criterion="gain_ratio", max_features="all", draw="tree", sample_fraction="3/4"),
           dict(criterion="entropy", max_features=1, draw="tree", min_leaf=2, cp=None, surrogates=0)]


@pytest.mark.parametrize("path, read", FILES, ids=[Path(f).name for f, _ in FILES])
def test_forests_on_duckdb_are_the_in_memory_forests(path, read, tmp_path):
    """CSV and Parquet, four kinds of forest: the JSON (trees, samples, OOB, importances) equal."""
    for p in (ROOT / path, parquet_of(ROOT / path, tmp_path)):
        data = load(p, **read)  # (Arrow reads TRUE as a boolean: the Parquet copy's texts are its own)
        for options in FORESTS:
            ref = printed(grow_forest(data, n_estimators=4, random_state=7, sampling="poisson", **options))
            assert printed(on_duckdb(p, read, n_estimators=4, random_state=7, sampling="poisson", **options)) == ref


def test_planet_and_groups_of_trees():
    """Nodes finished in memory within a shared budget, and trees grown in groups, change nothing."""
    path, read = ROOT / "tests/data/kyphosis.csv", dict(numeric="auto", target="Kyphosis")
    options = dict(n_estimators=6, random_state=3, sampling="poisson", criterion="gini", max_features="sqrt", **WHOLE)
    ref = printed(grow_forest(load(path, **read), **options))
    for in_memory, together in ((None, 10**9), (30, 10**9), (100, 200), (0, 81)):
        assert printed(on_duckdb(path, read, in_memory=in_memory, together=together, **options)) == ref


def test_shuffled_rows_with_their_row_numbers(tmp_path):
    """A Parquet file whose rows are shuffled, with each row's number in a column (order=), grows
    the forest of the file in its order."""
    path, read = ROOT / "tests/data/kyphosis.csv", dict(numeric="auto", target="Kyphosis")
    options = dict(n_estimators=5, random_state=11, sampling="poisson", criterion="gini", max_features="sqrt", **WHOLE)
    ref = printed(grow_forest(load(path, **read), **options))
    import pyarrow.csv as pcsv

    table = pcsv.read_csv(str(path))
    table = table.append_column("row", pa.array(np.arange(table.num_rows) * 3 + 5))  # any increasing numbers
    order = list(range(table.num_rows))
    random.Random(1).shuffle(order)
    shuffled = tmp_path / "shuffled.parquet"
    pq.write_table(table.take(order), shuffled)
    provider = DuckDBProvider(shuffled, row_numbers=True, order="row", **read)
    try:
        assert printed(engine_forest(provider, **options)) == ref
    finally:
        provider.close()


def test_refusals():
    """Sampling 'draw', surrogates and pruning are refused in one line."""
    path = ROOT / "tests/data/weather.csv"
    with pytest.raises(InfotreeError, match=r"^the duckdb engine grows forests with sampling 'poisson'"):
        on_duckdb(path, {}, n_estimators=2)
    with pytest.raises(InfotreeError, match=r"^the duckdb engine does not take surrogates"):
        on_duckdb(path, {}, n_estimators=2, sampling="poisson", criterion="gini", surrogates=3)
    with pytest.raises(InfotreeError, match=r"^a forest grows its trees unpruned"):
        on_duckdb(path, {}, n_estimators=2, sampling="poisson", prune="pessimistic")


def test_command_line(tmp_path):
    """infotree forest DATA --engine duckdb --sampling poisson prints the in-memory forest's bytes;
    without --sampling poisson it is refused in one line (exit 1)."""
    import subprocess
    import sys

    path = str(parquet_of(ROOT / "tests/data/kyphosis.csv", tmp_path))
    base = [sys.executable, "-m", "infotree", "forest", path, "--target", "Kyphosis", "--trees", "4", "--seed", "3",
            "--format", "json", "--show-samples", "--show-oob", "--jobs", "1"]
    run = lambda *more: subprocess.run(base + list(more), capture_output=True, text=True, cwd=ROOT)  # noqa: E731
    memory, engine = run("--sampling", "poisson"), run("--sampling", "poisson", "--engine", "duckdb")
    assert memory.returncode == 0 and '"sampling": "poisson"' in memory.stdout
    assert engine.stdout == memory.stdout
    refused = run("--engine", "duckdb")
    assert refused.returncode == 1 and refused.stderr.startswith("infotree: error: --engine duckdb grows forests "
                                                                  "with --sampling poisson")
