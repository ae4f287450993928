"""The Spark provider (``pip install 'infotree[spark]'``): the SQL plan of :mod:`.sql` run by
Spark SQL on temporary views; each depth's table is checkpointed (its lineage cut), and only
the count tables and the routes cross between the driver and the executors: no Python UDF
touches a row."""

from __future__ import annotations

import os

from ..errors import DataError, InfotreeError
from .sql import SQLProvider

__all__ = ["SparkProvider", "session"]


def session(master="local[2]"):
    """A Spark session for the engine: no UI, as many shuffle partitions as local cores (the
    count tables are small; Spark's default of 200 tasks per GROUP BY costs seconds a query)."""
    import re

    local = re.fullmatch(r"local\[(\d+)\]", master or "")
    partitions = local.group(1) if local else "200"
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise InfotreeError("the spark engine needs PySpark: pip install 'infotree[spark]'") from None
    spark = (SparkSession.builder.master(master).appName("infotree")
            .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", partitions)
            .config("spark.sql.session.timeZone", "UTC").config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.codegen.wholeStage", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")  # the plan's small windows warn about one partition, rightly
    return spark


class SparkProvider(SQLProvider):
    engine = "spark"
    big = "DECIMAL(38,0)"

    @staticmethod
    def quote(name):
        return "`" + name.replace("`", "``") + "`"

    def __init__(self, spark, df, *, order=None, source_name="the DataFrame", **options):
        from pyspark.sql import functions as F

        self.spark, self.views = spark, []
        self.source_name = source_name
        if order is None:  # the DataFrame's own order, as its partitions hold it now
            df = df.withColumn("__rid", F.monotonically_increasing_id())
        else:
            if order not in df.columns:
                raise InfotreeError(f"order column {order!r} is not in the DataFrame; columns are: {', '.join(df.columns)}")
            df = df.withColumnRenamed(order, "__rid")
        self.df = df
        names = [c for c in df.columns if c != "__rid"]
        self._view("__src", df)
        try:
            self.prepare("__src", names, where="row", **options)
        except BaseException:
            self.close()
            raise

    @classmethod
    def of_file(cls, spark, path, **options):
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise DataError(f"no such file {path!r}")
        if os.path.splitext(path)[1].lower() == ".arff":
            raise InfotreeError(f"{path}: the spark engine reads Parquet and CSV files (allowed: .parquet, .pq, "
                                f".csv, .tsv; ARFF with --engine memory)")
        if os.path.splitext(path)[1].lower() in (".parquet", ".pq"):
            df = spark.read.parquet(path)
        else:  # every cell as text, as data.py reads a CSV file
            df = spark.read.csv(path, header=True, inferSchema=False, sep="\t" if path.endswith(".tsv") else ",",
                                quote='"', escape='"')
        return cls(spark, df, source_name=path, **options)

    def float_columns(self):
        from pyspark.sql.types import DoubleType, FloatType

        return {f.name for f in self.df.schema.fields if isinstance(f.dataType, (DoubleType, FloatType))}

    def _view(self, name, df):
        df.createOrReplaceTempView(name)
        self.views.append((name, df))

    # -- the dialect --
    def query(self, sql):
        return [tuple(r) for r in self.spark.sql(sql).collect()]

    def columns(self, sql):
        import numpy as np

        df = self.spark.sql(sql)
        rows = df.collect()
        return {c: np.array([r[i] for r in rows], dtype=np.int64) for i, c in enumerate(df.columns)}

    def create(self, name, sql, hashed=False, stored=False):
        if hashed:  # pushing the filter on w down through the hash's rounds inlines each round five times
            # over (5^5 copies): minutes of planning for a few rows
            conf = self.spark.conf
            before = conf.get("spark.sql.optimizer.excludedRules", None)
            conf.set("spark.sql.optimizer.excludedRules", ",".join(
                filter(None, [before, "org.apache.spark.sql.catalyst.optimizer.PushDownPredicates"])))
            try:
                return self.create(name, sql)
            finally:
                conf.unset("spark.sql.optimizer.excludedRules") if before is None else \
                    conf.set("spark.sql.optimizer.excludedRules", before)
        df = self.spark.sql(sql).localCheckpoint(eager=True)
        self._view(name, df)

    def view(self, name, sql):  # lazy: the coded table's one job computes it
        self._view(name, self.spark.sql(sql))

    def drop(self, name):
        self.spark.catalog.dropTempView(name)

    def register(self, name, columns):
        names = list(columns)
        rows = list(zip(*(columns[c].tolist() for c in names)))
        df = self.spark.createDataFrame(rows, ", ".join(f"{self.quote(c)} BIGINT" for c in names))
        self._view(name, df)

    def close(self):
        for name, _ in getattr(self, "views", ()):
            try:
                self.spark.catalog.dropTempView(name)
            except Exception:  # the session may be gone already
                pass
        self.views = []
