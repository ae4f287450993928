"""The Spark provider (``pip install 'infotree[spark]'``): the coded rows of :mod:`.sql`'s plan,
stored once by Spark; each row's node computed from the routes so far, and each depth's
nodes counted by numpy in Spark's Python workers (:mod:`.groups`), a node's rows at a time.
Only the count tables, the surviving cuts and the routes cross between the driver and the
executors: no Python code runs per row.  Regression and forests take the SQL plan (each
depth's table written again, checkpointed)."""

from __future__ import annotations

import os

import numpy as np

from ..errors import DataError, InfotreeError
from .provider import Table
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
            .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")  # the plan's small windows warn about one partition, rightly
    return spark


class SparkProvider(SQLProvider):
    engine = "spark"
    big = "DECIMAL(38,0)"

    @staticmethod
    def quote(name):
        return "`" + name.replace("`", "``") + "`"

    def __init__(self, spark, df, *, order=None, source_name="the DataFrame", lines=False, **options):
        from pyspark.sql import functions as F

        self.spark, self.views = spark, []
        self.source_name = source_name
        # in its own order (no order column), a row's id is not its position: see at
        self.counted, self.lines = order is None, lines and order is None
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
        return cls(spark, df, source_name=path, lines=not path.lower().endswith((".parquet", ".pq")), **options)

    def at(self, rid):
        """A row in its own order as its position, 0-based (a CSV file's as its line, the
        header line 1, as DuckDB names it): the rows before it counted, one Spark job for a
        message, as monotonically_increasing_id jumps between partitions."""
        if not self.counted:
            return super().at(rid)
        from pyspark.sql import functions as F

        before = self.df.filter(F.col("__rid") < rid).count()
        return f"{self.label} line {before + 2}" if self.lines else f"{self.label} row {before}"

    def float_columns(self):
        from pyspark.sql.types import DoubleType, FloatType

        return {f.name for f in self.df.schema.fields if isinstance(f.dataType, (DoubleType, FloatType))}

    def _view(self, name, df):
        df.createOrReplaceTempView(name)
        self.views.append((name, df))

    # -- per depth (classification): each row's node an expression of its codes --
    paths = None   # node id -> its Route, every depth's since the base table; None: the SQL plan
    # Routes an expression holds at most: past that, the rows' nodes are written once (a new
    # base table) and the expression starts again from them (Spark compiles an expression
    # into one Java method, 64 KB at most).
    ROUTES = 256

    def root(self, scaled=None):
        counts = super().root(scaled)
        if scaled is None:
            self.paths, self.open, self.memo = {}, {0}, None
            self.base, self.bases = self.current, {0}   # the base table and its rows' nodes
        return counts

    def weigh(self, trees, seed, table):
        self.paths = None
        return super().weigh(trees, seed, table)

    def split(self, routes):
        if self.paths is None:
            return super().split(routes)
        self.level += 1
        self.memo = None
        self.paths.update(routes)
        self.open = {r.first + b for r in routes.values() for b in ((0, 1) if r.cut is not None else set(r.branch))}
        if len(self.paths) > self.ROUTES:
            name = f"__lvl{self.level}"
            self.create(name, self.open_rows())
            if self.base != "__lvl0":   # the coded rows stay (a forest's votes read them); a later base goes
                self.drop(self.base)
            self.base, self.paths, self.bases = name, {}, self.open
        self.current = f"__cur{self.level}"
        self._view(self.current, self.spark.sql(self.open_rows()))   # lazy: computed by each query

    def open_rows(self):
        """The base table's rows of open nodes, each with its node (:meth:`node_of`)."""
        keep = ", ".join(["y", *self.features])
        return (f"SELECT * FROM (SELECT CAST({self.node_of()} AS INTEGER) AS node, {keep} FROM {self.base}) s "
                f"WHERE node >= 0")

    def node_of(self):
        """Each row's node (−1: a leaf's row, or a row taken into memory) as one SQL expression of
        the base table's ``node`` and the codes: the routes as nested CASEs, a branch per cut
        side or per group of codes."""
        def at(k):
            r = self.paths.get(k)
            if r is None:
                return str(k) if k in self.open else "-1"
            c = self.features[r.feature]
            if r.cut is not None:
                a, b = at(r.first), at(r.first + 1)
                return a if a == b else f"CASE WHEN {c} <= {r.cut} THEN {a} ELSE {b} END"
            kids = {}
            for code, b in enumerate(r.branch):
                kids.setdefault(b, []).append(code)
            parts = [(at(r.first + b), codes) for b, codes in sorted(kids.items())]
            parts = [f"WHEN {c} IN ({', '.join(map(str, codes))}) THEN {e}" for e, codes in parts if e != "-1"]
            return f"CASE {' '.join(parts)} ELSE -1 END" if parts else "-1"

        if self.base == "__lvl0":   # every row at the root
            return at(0)
        parts = [f"WHEN node = {k} THEN {at(k)}" for k in sorted(self.bases)]
        return f"CASE {' '.join(parts)} ELSE -1 END"

    def cuts(self, nodes, features, min_side, slack):
        if self.paths is None:
            return super().cuts(nodes, features, min_side, slack)
        rest = sorted(set(range(len(self.features))) - set(features))
        got = self.grouped(nodes, features, rest, min_side, slack)
        self.memo = (sorted(nodes), rest, got)
        out = {j: {} for j in features}
        for j in features:
            node, code, nxt, k, counts = got.get(j, (np.zeros(0, np.int64),) * 5)
            for i in range(len(node)):
                out[j].setdefault(int(node[i]), (int(k[i]), []))[1].append(
                    (int(code[i]), int(nxt[i]), tuple(counts[i].tolist())))
        return out

    def tables(self, nodes, features=None):
        if self.paths is None:
            return super().tables(nodes, features)
        wanted = list(range(len(self.features))) if features is None else list(features)
        memo = self.memo
        if memo is not None and memo[0] == sorted(nodes) and set(wanted) <= set(memo[1]):
            got = memo[2]
        else:
            got = self.grouped(nodes, [], wanted, 1, 0.0)
        out = [None] * len(self.features)
        for j in wanted:
            node, code, _, _, counts = got.get(j, (np.zeros(0, np.int64),) * 5)
            out[j] = Table(node, code, list(map(tuple, counts.tolist())))
        return out

    def grouped(self, nodes, cut, table, min_side, slack):
        """One Spark job for the depth: the rows of ``nodes`` grouped by node, each node counted
        by :func:`.groups.count_node`; per feature (node, code, nxt, k, counts), sorted."""
        from .groups import counter, layout

        nc = len(self.schema.classes)
        features = sorted(set(cut) | set(table))
        if not nodes or not features:
            return {}
        domains = [len(d) for d in self.schema.domains]
        names = ["y", *features]
        places = dict(zip(names, layout([nc, *(domains[j] for j in features)])))
        words = {}
        for name, (w, shift, _) in places.items():
            words.setdefault(w, []).append(f"shiftleft(CAST({'y' if name == 'y' else self.features[name]} AS BIGINT), "
                                           f"{shift})")
        cols = "".join(f", {' + '.join(parts)} AS w{w}" for w, parts in sorted(words.items()))
        df = self.spark.sql(f"SELECT node{cols} FROM {self.current} WHERE {self._in(nodes)}")
        schema = "f BIGINT, node BIGINT, code BIGINT, nxt BIGINT, k BIGINT, " + ", ".join(
            f"n{c} BIGINT" for c in range(nc))
        count = counter(nc=nc, domains=domains, features=features, cuts=frozenset(cut), min_side=min_side,
                        slack=slack, places=places)
        got = df.groupBy("node").applyInArrow(count, schema).toArrow()
        a = {name: got.column(name).to_numpy() for name in got.column_names}
        order = np.lexsort((a["code"], a["node"], a["f"]))
        a = {name: v[order] for name, v in a.items()}
        bounds = np.searchsorted(a["f"], np.arange(len(self.features) + 1))
        counts = np.stack([a[f"n{c}"] for c in range(nc)], axis=1)
        return {j: (a["node"][lo:hi], a["code"][lo:hi], a["nxt"][lo:hi], a["k"][lo:hi], counts[lo:hi])
                for j, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])) if j in features}

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

    def view(self, name, sql):
        """A small table (a column's distinct values, their codes) kept by Spark once computed:
        the driver reads it, then the coded table's joins do."""
        self._view(name, self.spark.sql(sql).cache())

    def drop(self, name):
        for n, df in self.views:
            if n == name:
                df.unpersist()
        self.spark.catalog.dropTempView(name)

    def register(self, name, columns):
        names = list(columns)
        rows = list(zip(*(columns[c].tolist() for c in names)))
        df = self.spark.createDataFrame(rows, ", ".join(f"{self.quote(c)} BIGINT" for c in names))
        self._view(name, df)

    def close(self):
        for name, df in getattr(self, "views", ()):
            try:
                df.unpersist()
                self.spark.catalog.dropTempView(name)
            except Exception:  # the session may be gone already
                pass
        self.views = []
