"""A provider over SQL: the plan DuckDB and Spark share (one dialect-neutral SQL text).

Preparing (once):

1. Each column's distinct values with the row where each first appears (``min(rid)``,
   the row number given explicitly: no engine promises an order otherwise), in that order.
   Floats are grouped by value and sign (engines merge −0.0 and 0.0; data.py reads a
   nominal float column's texts, where they differ).
2. Those values, one table of at most as many rows as the widest column has values, read by
   :func:`infotree.data.from_records` with the caller's options: the kinds, domains,
   numbers and classes (and every refusal: a value that is not a number in a numeric
   column, ±inf, NaN as missing...) are the file readers' by construction; a message's row is
   mapped back to the row of the data where that value first appears.
3. One coded table ``(node, y, c0, c1, ...)``: each column joined with its (value, code)
   table.  Missing values are refused here (one line, naming the row).

Per depth: one ``GROUP BY node, c_j, y`` per feature; the split rewrites the coded table
with each row's child (a join with the routes: a numeric cut or a per-value branch), rows of
leaves left out.  Nodes small enough come into memory (``take``).
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import DataError, InfotreeError
from .provider import Table, near_best

__all__ = ["SQLProvider", "filter_groups", "quote"]


def narrow(values: int) -> str:
    """The smallest integer type of both dialects holding codes 0 .. values - 1: the coded table
    is rewritten at every depth, and its width is most of what a depth costs."""
    return "TINYINT" if values <= 1 << 7 else "SMALLINT" if values <= 1 << 15 else "INTEGER"


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class SQLProvider:
    """The shared plan; a dialect gives ``query`` (rows as tuples), ``columns`` (a query's
    columns as numpy arrays), ``create`` (a table from a query, materialized), ``view`` (a
    table from a query, materialized where the engine gains by it), ``drop``, ``register``
    (a small table of integer columns from numpy) and ``float_columns``."""

    engine = "sql"
    quote = staticmethod(quote)
    dense_rid = False  # whether ``__rid`` is 0, 1, 2, ... already (else ranked when row numbers are asked)
    float_sign = "({v} < 0 OR ({v} = 0 AND CAST({v} AS STRING) LIKE '-%'))"

    def prepare(self, source, names, *, target=None, on_missing="reject", numeric=None, categorical=(),
                numeric_target=False, where="row", line_offset=0, row_numbers=False):
        """``source``: a relation with the data's columns and a row number ``__rid`` (0 first);
        ``where``: how messages name a row ("row", 0-based, or "line": ``rid + line_offset``);
        ``row_numbers``: the coded table keeps each row's number (0, 1, ... in ``__rid``'s order) as
        ``rid``, which a forest's per-row counts hash (:meth:`weigh`)."""
        from ..data import from_records

        self.source, self.names = source, list(names)
        self.where, self.line_offset = where, line_offset
        floats = self.float_columns()
        distinct, firsts = {}, {}
        for k, name in enumerate(self.names):
            col = self.quote(name)
            sign = self.float_sign.format(v=col) if name in floats else "FALSE"
            self.view(f"__d{k}", f"SELECT v, sgn, f, row_number() OVER (ORDER BY f) - 1 AS i FROM "
                                   f"(SELECT {col} AS v, {sign} AS sgn, min(__rid) AS f FROM {source} "
                                   f"GROUP BY {col}, {sign}) g")
            rows = self.query(f"SELECT v, sgn, f FROM __d{k} ORDER BY i")
            distinct[name] = [self.cell(v, s) for v, s, _ in rows]
            firsts[name] = [int(f) for _, _, f in rows]
        width = max((len(v) for v in distinct.values()), default=0)
        if width == 0:
            raise DataError(f"{self.label}: the data has no rows; a tree needs at least one training row")
        table = {name: vals + [vals[-1]] * (width - len(vals)) for name, vals in distinct.items()}
        try:
            tiny = from_records(table, target=target, on_missing="keep" if on_missing == "reject" else on_missing,
                                source=self.label, numeric=numeric, categorical=categorical,
                                numeric_target=numeric_target)
        except DataError as e:
            raise DataError(self.real_rows(str(e), firsts)) from None
        t = tiny.target
        order = list(tiny.features) + [t]
        X = np.asarray(tiny.X)
        for k, name in enumerate(tiny.features):
            miss = np.flatnonzero(X[:len(distinct[name]), k] < 0)
            if miss.size:
                i = int(miss[0])
                raise InfotreeError(f"{self.at(firsts[name][i])}, column {name!r}: missing value "
                                    f"{distinct[name][i]!r}; the {self.engine} engine does not take missing "
                                    f"values yet (allowed: complete columns; or --engine memory)")
        self.schema = tiny
        # The coded table: one join per column with its (value, sign, code) table.
        joins, cols = [], []
        for k, name in enumerate(order):
            d = self.names.index(name)
            codes = (np.asarray(tiny.y) if name == t else X[:, k])[:len(distinct[name])]
            self.register(f"__c{d}", {"i": np.arange(len(codes), dtype=np.int64), "code": codes.astype(np.int64)})
            self.view(f"__map{d}", f"SELECT d.v, d.sgn, c.code FROM __d{d} d JOIN __c{d} c ON d.i = c.i")
            col = self.quote(name)
            sign = self.float_sign.format(v=f"s.{col}") if name in floats else "FALSE"
            joins.append(f"JOIN __map{d} ON s.{col} = __map{d}.v AND {sign} = __map{d}.sgn")
            cols.append(f"CAST(__map{d}.code AS {narrow(len(codes))}) AS {'y' if name == t else f'c{k}'}")
        self.m = len(order) - 1
        self.features = [f"c{k}" for k in range(self.m)]
        self.level = 0
        self.weighted = False
        if row_numbers:
            cols.append("s.__rid AS rid" if self.dense_rid else "row_number() OVER (ORDER BY s.__rid) - 1 AS rid")
        # The value tables are small: Spark is told to send them to every task (a hash join
        # each, no shuffle of the rows); DuckDB reads the hint as a comment.
        hint = f"/*+ BROADCAST({', '.join(f'__map{self.names.index(name)}' for name in order)}) */"
        self.create("__lvl0", f"SELECT {hint} CAST(0 AS INTEGER) AS node, {', '.join(cols)} FROM {source} s "
                              f"{' '.join(joins)}",
                    stored=True)
        self.n_rows = int(self.query("SELECT count(*) FROM __lvl0")[0][0])
        self.regression = False
        return self

    # -- messages --
    @property
    def label(self):
        return self.source_name

    def at(self, rid):
        return (f"{self.label} line {rid + self.line_offset}" if self.where == "line"
                else f"{self.label} row {rid}")

    def real_rows(self, message, firsts):
        """from_records' message about row i of the distinct values, about the data's row instead."""
        def sub(m):
            i, name = int(m.group(1)), m.group(2)
            f = firsts.get(name)
            rid = f[min(i, len(f) - 1)] if f else i
            return f"{self.at(rid)}, column '{name}'"

        return re.sub(r"^.*? row (\d+), column '((?:[^'\\]|\\.)*)'", sub, message, count=1)

    # -- the distinct values as Python objects --
    def cell(self, v, sign):
        """A distinct value as data.py reads it from memory: −0.0 keeps its sign."""
        if isinstance(v, float) and v == 0 and sign:
            return -0.0
        return v

    # -- per depth --
    def root(self, scaled=None):
        if scaled is not None:
            self.regression = True
            if any(abs(v) >= 1 << 63 for v in scaled):
                raise InfotreeError(f"{self.label}: the target's values over their common denominator pass 2^63; "
                                    f"the {self.engine} engine sums them as 64-bit integers (or --engine memory)")
            self.register("__scale", {"code": np.arange(len(scaled), dtype=np.int64),
                                      "v": np.array(scaled, dtype=np.int64)})
            self.create("__lvl0r", f"SELECT l.*, CAST(s.v AS {self.big}) AS ys FROM __lvl0 l JOIN __scale s "
                                   f"ON l.y = s.code")
            self.drop("__lvl0")
            self.current = "__lvl0r"
            n, S, Q = self.query(f"SELECT count(*), sum(ys), sum(ys * ys) FROM {self.current}")[0]
            return (int(n), int(S or 0), int(Q or 0))
        self.current = "__lvl0"
        nc = len(self.schema.classes)
        out = [0] * nc
        for y, n in self.query(f"SELECT y, {self.n} FROM {self.current} GROUP BY y"):
            out[int(y)] = int(n)
        return tuple(out)

    @property
    def n(self):
        """A group's rows: their count, or the sum of their counts in a forest's tree."""
        return "sum(w)" if self.weighted else "count(*)"

    def weigh(self, trees, seed, table):
        """The coded table once per tree of ``trees`` (tree t's root: node t), each row with its count
        ``w`` for that tree (:func:`infotree.rowdraw.sql_counts`), rows of count 0 left out; the
        class counts of each root."""
        from ..rowdraw import sql_counts

        self.register("__trees", {"t": np.asarray(trees, dtype=np.int64)})
        codes = ["y", *self.features]
        q = sql_counts("__lvl0 CROSS JOIN __trees", [*codes, "t"], "rid", "t", seed, table)
        self.weighted = True
        self.level += 1
        self.current = f"__lvl{self.level}"
        self.create(self.current, f"SELECT t AS node, {', '.join(codes)}, w FROM ({q}) AS q WHERE w > 0", hashed=True)
        out = {int(t): [0] * len(self.schema.classes) for t in trees}
        for t, y, n in self.query(f"SELECT node, y, sum(w) FROM {self.current} GROUP BY node, y"):
            out[int(t)][int(y)] = int(n)
        return {t: tuple(c) for t, c in out.items()}

    def _in(self, nodes):
        return f"node IN ({', '.join(str(int(k)) for k in nodes)})"

    def tables(self, nodes, features=None):
        """Every feature's table (or the listed features'; the others None) in one query (one
        scan per feature, one job): a UNION ALL of the per-feature GROUP BYs."""
        nc = len(self.schema.classes)
        where = f"WHERE {self._in(nodes)}"
        wanted = list(range(len(self.features))) if features is None else list(features)
        if not wanted:
            return [None] * len(self.features)
        if self.regression:
            parts = [f"SELECT {j} AS f, node, {c} AS code, {self.n} AS n, sum(ys) AS s, sum(ys * ys) AS q "
                     f"FROM {self.current} {where} GROUP BY node, {c}" for j, c in self._listed(wanted)]
            rows = self.query(" UNION ALL ".join(parts) + " ORDER BY f, node, code")
            out = [[] for _ in self.features]
            for r in rows:
                out[r[0]].append(r)
            return [Table(np.array([r[1] for r in rs], np.int64), np.array([r[2] for r in rs], np.int64),
                          [(int(r[3]), int(r[4]), int(r[5])) for r in rs]) if j in wanted else None
                    for j, rs in enumerate(out)]
        parts = [f"SELECT {j} AS f, node, {c} AS code, y, {self.n} AS n FROM {self.current} {where} "
                 f"GROUP BY node, {c}, y" for j, c in self._listed(wanted)]
        got = self.columns(" UNION ALL ".join(parts) + " ORDER BY f, node, code, y")
        f, node, code, y, n = (np.asarray(got[k], np.int64) for k in ("f", "node", "code", "y", "n"))
        out = []
        bounds = np.searchsorted(f, np.arange(len(self.features) + 1))
        for j in range(len(self.features)):
            if j not in wanted:
                out.append(None)
                continue
            a, b = bounds[j], bounds[j + 1]
            nj, cj, yj, n_ = node[a:b], code[a:b], y[a:b], n[a:b]
            if not len(nj):
                out.append(Table(nj, cj, []))
                continue
            starts = np.flatnonzero(np.r_[True, (nj[1:] != nj[:-1]) | (cj[1:] != cj[:-1])])
            block = np.zeros((len(starts), nc), np.int64)
            block[np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(nj)])), yj] = n_
            out.append(Table(nj[starts], cj[starts], list(map(tuple, block.tolist()))))
        return out

    def _listed(self, wanted):
        return [(j, self.features[j]) for j in wanted]

    def cuts(self, nodes, features, min_side, slack):
        """Numeric cuts filtered in the engine (classification, the Gini key): per listed feature
        {node: (admissible cuts, [(code, next code, left class counts), ...])}, the cuts whose
        float key is within the certified bound of the node's least ``key + bound`` (so every
        exactly best cut, and every cut tied with it, is among them).  ``slack``: the bound's
        factor on (n + ΣL²/n_L + ΣR²/n_R)/n, the criterion's own bound widened for sums of
        squares past 2^53 and for the engine's order of operations.  Every feature in one
        query (Spark: one set of jobs a depth, not one a feature)."""
        nc = len(self.schema.classes)
        where = self._in(nodes)
        ls = [f"l{c}" for c in range(nc)]
        one = "w" if self.weighted else "1"   # a forest's row counted as many times as drawn
        per = ", ".join(f"sum(CASE WHEN y = {k} THEN {one} ELSE 0 END) AS n{k}" for k in range(nc))
        cum = ", ".join(f"sum(n{k}) OVER w AS l{k}" for k in range(nc))
        tot = ", ".join(f"sum(n{k}) OVER (PARTITION BY node) AS t{k}" for k in range(nc))
        sq_l = " + ".join(f"CAST(l{k} AS DOUBLE) * CAST(l{k} AS DOUBLE)" for k in range(nc))
        sq_r = " + ".join(f"CAST(t{k} - l{k} AS DOUBLE) * CAST(t{k} - l{k} AS DOUBLE)" for k in range(nc))
        nl = " + ".join(ls)
        nt = " + ".join(f"t{k}" for k in range(nc))
        ctes, selects = [], []
        for j in features:
            c = self.features[j]
            ctes.append(f"""
            a{j} AS (SELECT node, {c} AS code, {per} FROM {self.current} WHERE {where} GROUP BY node, {c}),
            c{j} AS (SELECT node, code, {cum}, {tot}, lead(code) OVER (PARTITION BY node ORDER BY code) AS nxt
                     FROM a{j} WINDOW w AS (PARTITION BY node ORDER BY code
                                            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)),
            d{j} AS (SELECT node, code, nxt, {', '.join(ls)}, CAST({nl} AS DOUBLE) AS nl, CAST({nt} AS DOUBLE) AS n,
                            {sq_l} AS ql, {sq_r} AS qr FROM c{j}
                     WHERE nxt IS NOT NULL AND {nl} >= {min_side} AND ({nt}) - ({nl}) >= {min_side}),
            e{j} AS (SELECT node, code, nxt, {', '.join(ls)}, (n - ql / nl - qr / (n - nl)) / n AS v,
                            {slack!r} * (n + ql / nl + qr / (n - nl)) / n + 1e-300 AS b FROM d{j}),
            f{j} AS (SELECT e{j}.*, min(v + b) OVER (PARTITION BY node) AS top, count(*) OVER (PARTITION BY node) AS k
                     FROM e{j})""")
            selects.append(f"SELECT {j} AS f, node, k, code, nxt, {', '.join(ls)} FROM f{j} WHERE v - b <= top")
        out = {j: {} for j in features}
        if not selects:
            return out
        sql = "WITH " + ",".join(ctes) + "\n" + " UNION ALL ".join(selects) + " ORDER BY f, node, code"
        for r in self.query(sql):
            out[int(r[0])].setdefault(int(r[1]), (int(r[2]), []))[1].append(
                (int(r[3]), int(r[4]), tuple(int(x) for x in r[5:])))
        return out

    def split(self, routes):
        self.level += 1
        name = f"__lvl{self.level}"
        if not routes:
            self.drop(self.current)
            self.create(name, f"SELECT * FROM {self.current} WHERE FALSE")
            self.current = name
            return
        rs = list(routes.items())
        self.register("__routes", {"node": np.array([k for k, _ in rs], np.int64),
                                   "feature": np.array([r.feature for _, r in rs], np.int64),
                                   "cut": np.array([-1 if r.cut is None else r.cut for _, r in rs], np.int64),
                                   "first": np.array([r.first for _, r in rs], np.int64)})
        branches = [(k, c, b) for k, r in rs if r.branch is not None for c, b in enumerate(r.branch)] or [(-1, -1, 0)]
        self.register("__branches", {"node": np.array([b[0] for b in branches], np.int64),
                                     "code": np.array([b[1] for b in branches], np.int64),
                                     "branch": np.array([b[2] for b in branches], np.int64)})
        x = "CASE r.feature " + " ".join(f"WHEN {j} THEN l.{c}" for j, c in enumerate(self.features)) + " END"
        keep = ", ".join(["l.y", *(f"l.{c}" for c in self.features)] + (["l.ys"] if self.regression else [])
                         + (["l.w"] if self.weighted else []))
        self.create(name, f"""SELECT CAST(r.first + CASE WHEN r.cut < 0 THEN b.branch WHEN {x} > r.cut THEN 1 ELSE 0
                                     END AS INTEGER) AS node, {keep}
                              FROM {self.current} l JOIN __routes r ON l.node = r.node
                              LEFT JOIN __branches b ON b.node = l.node AND b.code = {x}""")
        self.drop(self.current)
        self.current = name

    def sizes(self, nodes):
        out = {int(k): 0 for k in nodes}
        for k, n in self.query(f"SELECT node, {self.n} FROM {self.current} WHERE {self._in(nodes)} GROUP BY node"):
            out[int(k)] = int(n)
        return out

    def take(self, nodes):
        w = ", w" if self.weighted else ""
        got = self.columns(f"SELECT node, y, {', '.join(self.features)}{w} FROM {self.current} WHERE {self._in(nodes)}")
        X = np.stack([np.asarray(got[c], np.int64) for c in self.features], axis=1) if self.features else \
            np.zeros((len(got["node"]), 0), np.int64)
        node, y = np.asarray(got["node"], np.int64), np.asarray(got["y"], np.int64)
        if self.weighted:  # a row counted k times is k rows in memory
            k = np.asarray(got["w"], np.int64)
            return np.repeat(node, k), np.repeat(X, k, axis=0), np.repeat(y, k)
        return node, X, y

    def rows(self):
        """Every row's (y, feature codes) in row order: the coded data (a forest's votes read it)."""
        got = self.columns(f"SELECT y, {', '.join(self.features)} FROM __lvl0 ORDER BY rid")
        X = np.stack([np.asarray(got[c], np.int64) for c in self.features], axis=1) if self.features else \
            np.zeros((len(got["y"]), 0), np.int64)
        return X, np.asarray(got["y"], np.int64)



def filter_groups(node, code, counts, min_side, slack):
    """SQLProvider.cuts' filter on one feature's (node, code) class counts, in numpy: the rows
    sorted by node then code, ``counts`` one array per class; each node's cuts between
    consecutive codes present, their left counts (cumulative sums), the Gini key in doubles
    and its certified bound, and the cuts whose interval meets their node's least
    ``key + bound``.  The same formula and bound as the SQL (the exact keys decide among what
    is kept)."""
    out = {}
    if len(node) < 2:
        return out
    starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
    sizes = np.diff(np.r_[starts, len(node)])
    cut = np.flatnonzero(node[:-1] == node[1:])  # the last group below each cut
    if not len(cut):
        return out
    g = np.repeat(np.arange(len(starts)), sizes)[cut]
    lefts, totals = [], []
    for c in counts:  # per class: the left count of each cut and its node's total
        cum = np.cumsum(c)
        before = np.r_[0, cum[starts[1:] - 1]]
        lefts.append(cum[cut] - before[g])
        totals.append((cum[starts + sizes - 1] - before)[g])
    nl, n = sum(lefts), sum(totals)
    ok = np.flatnonzero((nl >= min_side) & (n - nl >= min_side))
    if not len(ok):
        return out
    cut, g, nl, n = cut[ok], g[ok], nl[ok].astype(float), n[ok].astype(float)
    lefts = [x[ok] for x in lefts]
    ql = sum(x.astype(float) * x for x in lefts)
    qr = sum((t[ok] - x).astype(float) * (t[ok] - x) for x, t in zip(lefts, totals))
    first, tried, keep = near_best(n, nl, ql, qr, g, slack)
    admissible = dict(zip(node[cut[first]].tolist(), tried.tolist()))
    left = np.stack([x[keep] for x in lefts], axis=1).tolist()
    for k, lo, hi, lft in zip(node[cut[keep]].tolist(), code[cut[keep]].tolist(), code[cut[keep] + 1].tolist(), left):
        out.setdefault(k, (admissible[k], []))[1].append((lo, hi, tuple(lft)))
    return out
