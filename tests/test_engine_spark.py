"""The Spark engine grows build_tree's tree byte for byte (local[1], small data: a Spark
session takes seconds to start, so one session and few trees)."""

import os
import shutil
from pathlib import Path

import pytest

from infotree import build_tree, load
from infotree.model import dumps
from test_builders import _printed as printed

pyspark = pytest.importorskip("pyspark")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs a Java runtime", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def spark():
    from infotree.engines.spark import session

    s = session("local[1]")
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def test_repartitioned_frame_grows_the_memory_tree(spark):
    """infotree.spark.grow on a DataFrame repartitioned into 7, its row order given by a column."""
    import infotree.spark
    from pyspark.sql import functions as F

    path = ROOT / "tests/data/weather.numeric.csv"
    data = load(path, numeric="auto")
    df = spark.read.csv(str(path), header=True).withColumn("row", F.monotonically_increasing_id()).repartition(7)
    for options in (dict(criterion="gini", min_leaf=2, surrogates=2),):
        got = infotree.spark.grow(df, order="row", **options)
        ref = build_tree(data, **options)
        assert printed(got) == printed(ref) and dumps(got) == dumps(ref)


def test_file_with_nodes_finished_on_the_driver(spark):
    from infotree.engines import grow
    from infotree.engines.spark import SparkProvider

    path = ROOT / "tests/data/contact-lenses.csv"
    p = SparkProvider.of_file(spark, path)
    try:
        got = grow(p, engine="spark", in_memory=8, criterion="gain")
    finally:
        p.close()
    assert printed(got) == printed(build_tree(load(path), criterion="gain"))


def test_forest_on_a_repartitioned_frame_is_the_memory_forest(spark):
    """A Poisson-sampled forest grown by Spark on a DataFrame repartitioned into 7 (row order from a
    column) is the in-memory forest: every tree, sample and OOB vote (the root depth counted by
    Spark, the rest on the driver)."""
    import io

    import infotree.spark
    from infotree import grow_forest
    from infotree.printers.forest import write
    from pyspark.sql import functions as F

    def printed_forest(forest):
        out = io.StringIO()
        write(forest, out, fmt="json", oob=forest.oob(), show_samples=True, show_oob=True)
        return out.getvalue()

    path = ROOT / "tests/data/weather.csv"  # nominal: fewer Spark jobs (each costs seconds here)
    options = dict(n_estimators=3, random_state=5, sampling="poisson", criterion="gain", max_features=2)
    df = spark.read.csv(str(path), header=True).withColumn("row", F.monotonically_increasing_id()).repartition(7)
    got = infotree.spark.grow_forest(df, order="row", in_memory=100, **options)
    assert printed_forest(got) == printed_forest(grow_forest(load(path), **options))


@pytest.mark.parametrize("name, options", [
    ("kyphosis.csv", dict(criterion="gini", surrogates=0, min_leaf=3)),   # the numeric cuts filtered in the workers
    ("contact-lenses.csv", dict(criterion="gain")),                        # multiway branches
])
def test_nodes_from_the_routes_and_a_new_base(spark, monkeypatch, name, options):
    """Each row's node is an expression of the routes; past ``ROUTES`` routes the nodes are written
    once and the expression starts again from them (forced here after one or two routes)."""
    from infotree.engines import grow
    from infotree.engines.spark import SparkProvider

    monkeypatch.setattr(SparkProvider, "ROUTES", 2)
    path = ROOT / "tests/data" / name
    p = SparkProvider.of_file(spark, path, numeric="auto")
    try:
        got = grow(p, engine="spark", **options)
        assert p.base != "__lvl0"   # the base was written again
    finally:
        p.close()
    ref = build_tree(load(path, numeric="auto"), **options)
    assert printed(got) == printed(ref) and dumps(got) == dumps(ref)


@pytest.mark.parametrize("name, read, options", [
    ("worked_examples/horse_race/data.csv", dict(numeric="auto"), dict(criterion="gini", surrogates=0, min_leaf=2)),
    ("worked_examples/cart_gini/data.csv", dict(numeric="auto"), dict(criterion="gain_ratio")),
    ("tests/data/bacteria.csv", {}, dict(criterion="entropy", min_leaf=3, cp="1/100", surrogates=2)),
    ("tests/data/weather.numeric.csv", dict(numeric="auto"), dict(criterion="gain")),
], ids=["horse_race gini", "cart_gini gain_ratio", "bacteria entropy", "weather.numeric gain"])
def test_shipped_data_sets_as_parquet(spark, tmp_path, name, read, options):
    """Shipped data sets written as Parquet (Arrow's column types: a CSV's TRUE is a boolean), each
    grown by Spark's workers as build_tree grows the same file read in memory: every printer's
    bytes and the model JSON."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow.csv as pcsv
    from infotree.engines import grow
    from infotree.engines.spark import SparkProvider

    path = ROOT / name
    parquet = tmp_path / "data.parquet"
    pq.write_table(pcsv.read_csv(str(path)), parquet)
    p = SparkProvider.of_file(spark, parquet, **read)
    try:
        got = grow(p, engine="spark", **options)
    finally:
        p.close()
    ref = build_tree(load(parquet, **read), **options)
    assert printed(got) == printed(ref) and dumps(got) == dumps(ref)


def test_regression_takes_the_sql_plan(spark):
    """Regression on Spark: the SQL plan (each depth's table written again, the sums exact)."""
    from infotree.engines import grow
    from infotree.engines.spark import SparkProvider

    path = ROOT / "worked_examples/regression_sse/data.csv"
    options = dict(criterion="squared_error", min_leaf=2)
    p = SparkProvider.of_file(spark, path, numeric="auto", numeric_target=True)
    try:
        got = grow(p, engine="spark", **options)
        assert p.paths is None
    finally:
        p.close()
    ref = build_tree(load(path, numeric="auto"), **options)
    assert printed(got) == printed(ref) and dumps(got) == dumps(ref)


def test_a_csv_files_refusal_names_its_line(spark, tmp_path):
    """A bad cell of a CSV file is named by its line, as DuckDB names it, also when Spark
    reads the file in several partitions (monotonically_increasing_id then jumps)."""
    from infotree.engines.spark import SparkProvider
    from infotree.errors import InfotreeError

    path = tmp_path / "m.csv"
    rows = [f"{i},{'x' if i % 3 else 'y'},{'pq'[i % 2]}" for i in range(40)]
    rows[29] = "29,?,q"
    path.write_text("a,b,y\n" + "\n".join(rows) + "\n")
    was = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "64")
    try:
        assert spark.read.csv(str(path), header=True).rdd.getNumPartitions() > 1
        with pytest.raises(InfotreeError, match=r"m\.csv line 31, column 'b': missing value '\?'"):
            SparkProvider.of_file(spark, path)
        df = spark.read.csv(str(path), header=True)
        with pytest.raises(InfotreeError, match=r"the DataFrame row 29, column 'b': missing value '\?'"):
            SparkProvider(spark, df)
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", was)

