"""The DuckDB provider (``pip install 'infotree[duckdb]'``): the SQL plan of :mod:`.sql` on an
embedded DuckDB that spills to disk past ``memory_limit``, reading Parquet or CSV files
directly."""

from __future__ import annotations

import os
import shutil
import tempfile

import numpy as np

from ..errors import DataError, InfotreeError
from .provider import Table
from .scan import RowNodes
from .sql import SQLProvider, filter_groups, quote

__all__ = ["DuckDBProvider", "connect"]

# The (node, value) groups of one feature brought into Python at once, at most: 2^23 groups
# are about 300 MB with their class counts.  A depth's nodes are counted in as many queries
# as it takes (a node with more distinct values than this: the SQL windows decide its cuts).
GROUPS = 1 << 23

# Rows per batch when the coded rows are read into numpy (RowNodes): 2^21 rows of this
# benchmark's 23 columns are about 120 MB.
BATCH = 1 << 21


def connect(memory_limit=None, threads=None):
    """A DuckDB connection with its spill directory (removed by ``DuckDBProvider.close``)."""
    try:
        import duckdb
    except ImportError:
        raise InfotreeError("the duckdb engine needs DuckDB: pip install 'infotree[duckdb]'") from None
    spill = tempfile.mkdtemp(prefix="infotree-duckdb-")
    # A database file in the spill directory: the coded rows are stored there once, compressed
    # (about half their width in memory), and read back at every depth; a block of a stored
    # table leaves memory without being written again, a spilled block of an in-memory table
    # is written out each time it is evicted.  Every other table is a TEMP table (in memory).
    con = duckdb.connect(os.path.join(spill, "rows.duckdb"))
    try:
        if memory_limit is not None:
            con.execute(f"SET memory_limit = '{_size(memory_limit)}'")
        if threads is not None:
            if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
                raise InfotreeError(f"threads {threads!r} is not allowed; give a positive integer")
            con.execute(f"SET threads = {threads}")
    except Exception as e:
        shutil.rmtree(spill, ignore_errors=True)
        if isinstance(e, InfotreeError):
            raise
        raise InfotreeError(f"memory_limit {memory_limit!r} is not allowed; give a size such as 4GB or 500MB") from None
    con.execute(f"SET temp_directory = '{_literal(spill)}'")
    # Row order is read from an explicit row number, never from a scan's order; tables made
    # by this plan need none (so DuckDB may reorder freely and run in parallel).
    con.execute("SET preserve_insertion_order = false")
    return con, spill


def _size(text):
    import re

    text = str(text).strip()
    if not re.fullmatch(r"\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", text, re.IGNORECASE):
        raise InfotreeError(f"memory limit {text!r} is not allowed; give a size such as 4GB or 500MB")
    return text


def _bytes(text):
    """A size as DuckDB reads it (KB, MB...: powers of 1000; KiB, MiB...: of 1024), in bytes."""
    import re

    number, unit = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([A-Za-z]+)", str(text).strip()).groups()
    unit = unit.upper()
    power = "BKMGT".index(unit[0]) if unit != "B" else 0
    return int(float(number) * (1024 if unit.endswith("IB") else 1000) ** power)


def _literal(text):
    return str(text).replace("'", "''")


class DuckDBProvider(SQLProvider):
    engine = "duckdb"
    big = "HUGEINT"
    dense_rid = True  # Parquet's file_row_number, a CSV table's rowid


    def __init__(self, path, *, memory_limit=None, threads=None, con=None, order=None, **options):
        """``order``: a column giving the rows' order (an integer per row; it is not a feature),
        instead of their order in the file."""
        self.source_name = os.fspath(path)
        self.memory_bytes = None if memory_limit is None else _bytes(_size(memory_limit))
        if not os.path.isfile(self.source_name):
            raise DataError(f"no such file {self.source_name!r}")
        self.con, self.spill = connect(memory_limit, threads) if con is None else (con, None)
        try:
            source, names, where, offset = self.open(self.source_name, options.pop("delimiter", None))
            if order is not None:
                source, names, where = self.ordered(source, names, order), [c for c in names if c != order], "row"
            self.prepare(source, names, where=where, line_offset=offset, **dict(options, row_numbers=True))
        except BaseException:
            self.close()
            raise

    def open(self, path, delimiter):
        """The source relation with ``__rid``: Parquet's file row number; a CSV file loaded in
        file order first (``preserve_insertion_order`` on for that load), its rowid."""
        p = _literal(path)
        suffix = os.path.splitext(path)[1].lower()
        if suffix == ".arff":
            raise InfotreeError(f"{path}: the duckdb engine reads Parquet and CSV files (allowed: .parquet, .pq, "
                                f".csv, .tsv; ARFF with --engine memory)")
        try:
            if suffix in (".parquet", ".pq"):
                rel = f"(SELECT file_row_number AS __rid, * EXCLUDE (file_row_number) FROM read_parquet('{p}', file_row_number = true))"
                names = [r[0] for r in self.query(f"DESCRIBE SELECT * FROM read_parquet('{p}')")]
                return rel, [n.strip() for n in names], "row", 0
            delim = delimiter or ("\t" if suffix == ".tsv" else ",")
            self.con.execute("SET preserve_insertion_order = true")
            self.con.execute(f"CREATE TABLE __raw AS SELECT * FROM read_csv('{p}', header = true, all_varchar = true, "
                             f"delim = '{_literal(delim)}', quote = '\"', escape = '\"', auto_detect = false, "
                             f"columns = {self.csv_columns(p, delim)})")
            self.con.execute("SET preserve_insertion_order = false")
            names = [r[0] for r in self.query("DESCRIBE __raw")]
            return "(SELECT rowid AS __rid, * FROM __raw)", names, "line", 2
        except InfotreeError:
            raise
        except Exception as e:
            raise DataError(f"{path}: DuckDB cannot read it: {str(e).splitlines()[0]}") from None

    def ordered(self, source, names, order):
        if order not in names:
            raise InfotreeError(f"order column {order!r} is not in {self.source_name}; columns are: {', '.join(names)}")
        self.dense_rid = False
        rest = ", ".join(quote(c) for c in names if c != order)
        return f"(SELECT CAST({quote(order)} AS BIGINT) AS __rid, {rest} FROM {source})"

    def csv_columns(self, p, delim):
        """The header's names, every column read as text (as data.py reads a CSV file's cells)."""
        import csv

        with open(p, newline="", encoding="utf-8-sig") as f:
            header = next(csv.reader(f, delimiter=delim), [])
        cols = ", ".join(f"'{_literal(h.strip())}': 'VARCHAR'" for h in header)
        return "{" + cols + "}"

    def float_columns(self):
        types = dict((r[0], r[1]) for r in self.query(f"DESCRIBE SELECT * FROM {self.source}"))
        return {n for n in self.names if types.get(n) in ("DOUBLE", "FLOAT", "REAL")}

    # -- per depth: each row's node in numpy (RowNodes), the stored rows read once a scan --
    held = None
    hold = True   # False: classification takes the SQL plan too (the tests compare both)

    def root(self, scaled=None):
        """The root's counts; a classification tree grows with its rows' nodes held in numpy
        (:mod:`.scan`): the coded rows are never written again.  Regression's sums and a
        forest's counted rows take the SQL plan (the table rewritten at each depth)."""
        counts = super().root(scaled)
        if scaled is None and self.hold:
            threads = self.query("SELECT current_setting('threads')")[0][0]
            self.held = RowNodes(self.n_rows, self._batches, self.schema.domains, len(self.schema.classes), threads)
            if self.memory_bytes is not None:
                # The limit bounds the engine: DuckDB keeps what the counting does not hold, less
                # an eighth for Python's own objects and the nodes finished in memory.
                rest = self.memory_bytes - self.held.footprint(BATCH) - self.memory_bytes // 8
                self.con.execute(f"SET memory_limit = '{max(rest, self.memory_bytes // 4) // 1000}KB'")
        return counts

    def weigh(self, trees, seed, table):
        self.held = None
        return super().weigh(trees, seed, table)

    def _batches(self, columns):
        """The coded rows' row numbers and the listed columns, in batches of numpy arrays."""
        reader = self.con.sql(f"SELECT rid, {', '.join(columns)} FROM {self.current}").to_arrow_reader(BATCH)
        for b in reader:
            yield {name: b.column(i).to_numpy() for i, name in enumerate(b.schema.names)}

    def tables(self, nodes, features=None):
        if self.held is None:
            return super().tables(nodes, features)
        wanted = list(range(len(self.features))) if features is None else list(features)
        got = self.held.counts(nodes, wanted, self.features)
        out = [None] * len(self.features)
        for j in wanted:
            node, code, cnt = got[j]
            out[j] = Table(node.astype(np.int64), code.astype(np.int64), list(map(tuple, cnt.tolist())))
        return out

    def split(self, routes):
        if self.held is None:
            return super().split(routes)
        self.level += 1
        self.held.split(routes, self.features)

    def sizes(self, nodes):
        return super().sizes(nodes) if self.held is None else self.held.sizes(nodes)

    def take(self, nodes):
        return super().take(nodes) if self.held is None else self.held.take(nodes, self.features)

    def cuts(self, nodes, features, min_side, slack):
        if self.held is not None:
            got = self.held.counts(nodes, features, self.features)
            return {j: filter_groups(got[j][0], got[j][1], list(got[j][2].T), min_side, slack) for j in features}
        return self.grouped_cuts(nodes, features, min_side, slack)

    def grouped_cuts(self, nodes, features, min_side, slack):
        """SQLProvider.cuts with the windows in numpy: DuckDB groups each feature's rows by
        (node, value) with their class counts (the AVC sets), and the cumulative sums and the
        certified filter run on those groups in this process (DuckDB's windows over millions
        of groups take 10 times the grouping's time).  Nodes are counted a batch at a time so
        that at most GROUPS groups are in memory; a node with more values than that takes the
        SQL plan (its windows in DuckDB)."""

        nc = len(self.schema.classes)
        sizes = self.sizes(nodes) if len(nodes) > 1 else {int(k): self.n_rows for k in nodes}
        per = ", ".join(f"{self.n} FILTER (WHERE y = {k}) AS n{k}" for k in range(nc))   # a forest's rows: their counts
        out = {}
        for j in features:
            c, V = self.features[j], max(len(self.schema.domains[j]), 1)
            out[j], batch, held = {}, [], 0
            big = [k for k in sizes if min(sizes[k], V) > GROUPS]
            if big:
                out[j].update(super().cuts(big, [j], min_side, slack)[j])
            for k in sorted(k for k in sizes if sizes[k] and k not in big):
                if held + min(sizes[k], V) > GROUPS and batch:
                    out[j].update(self._groups(batch, c, per, nc, V, min_side, slack))
                    batch, held = [], 0
                batch.append(k)
                held += min(sizes[k], V)
            if batch:
                out[j].update(self._groups(batch, c, per, nc, V, min_side, slack))
        return out

    def _groups(self, nodes, c, per, nc, V, min_side, slack):
        # One integer key (node, value): DuckDB hashes one column, numpy sorts one.
        got = self.columns(f"SELECT CAST(node AS BIGINT) * {V} + {c} AS key, {per} FROM {self.current} "
                           f"WHERE {self._in(nodes)} GROUP BY key")
        key = np.asarray(got["key"], np.int64)
        order = np.argsort(key)
        node, code = np.divmod(key[order], V)
        return filter_groups(node, code, [np.asarray(got[f"n{k}"], np.int64)[order] for k in range(nc)], min_side,
                             slack)

    # -- the dialect --
    def query(self, sql):
        return self.con.execute(sql).fetchall()

    def columns(self, sql):
        return self.con.execute(sql).fetchnumpy()

    def create(self, name, sql, hashed=False, stored=False):
        self.con.execute(f"CREATE OR REPLACE {'' if stored else 'TEMP '}TABLE {name} AS {sql}")

    def view(self, name, sql):  # the distinct values: scanned once, not once per use
        self.create(name, sql)

    def drop(self, name):
        self.con.execute(f"DROP TABLE IF EXISTS {name}")

    def register(self, name, columns):
        self.con.execute(f"DROP TABLE IF EXISTS {name}")
        arrays = {k: np.ascontiguousarray(v, dtype=np.int64) for k, v in columns.items()}
        view = f"__view_{name}"
        self.con.register(view, _frame(arrays))
        self.con.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM {view}")
        self.con.unregister(view)

    def close(self):
        if self.held is not None:
            self.held.close()
        con = getattr(self, "con", None)
        if con is not None:
            con.close()
            self.con = None
        if getattr(self, "spill", None):
            shutil.rmtree(self.spill, ignore_errors=True)
            self.spill = None


def _frame(arrays):
    """Integer columns as a table DuckDB scans: an Arrow table (pyarrow is DuckDB's own
    exchange format)."""
    try:
        import pyarrow as pa
    except ImportError:
        raise InfotreeError("the duckdb engine needs pyarrow too: pip install 'infotree[duckdb]'") from None
    return pa.table(arrays)
