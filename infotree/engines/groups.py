"""A node's rows counted where they are: the function Spark runs on each node's rows.

The SQL plan counts a depth as one GROUP BY (node, value) per feature and finds the numeric
cuts with windows over those groups.  Deep in a tree the groups are about as many as the
rows (every node holds most of its values once or twice), and Spark SQL's aggregation,
shuffle and sort of 10^7 groups a feature cost a minute a depth.  Here a depth is one
shuffle of the rows by node (Spark's ``applyInArrow``: every row of a node reaches one
Python function, in Arrow batches) and the counting is numpy's, in the worker: each
feature's (value, class) counts of the node, then for the numeric features the cumulative
sums and the certified filter of :func:`.sql.filter_groups`.  Only the nominal tables and the
surviving cuts leave the worker; no Python code runs per row.

This module runs in Spark's Python workers: it imports numpy and the filter only.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pyarrow as pa

from .sql import filter_groups

__all__ = ["counter", "count_node", "FLUSH"]

# Rows a worker holds before adding them into a node's dense (value, class) counts: a node
# of fewer rows is counted from its rows' keys, sorted, when that is cheaper than the dense
# bins (a small node of a feature with 10^5 values).
FLUSH = 1 << 20


def counter(**params):
    """``count_node`` with its parameters, typed as Spark's ``applyInArrow`` reads an iterator
    of batches (a node's rows are not held at once)."""

    def count(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return count_node(batches, **params)

    return count


def count_node(batches, *, nc, domains, features, cuts, min_side, slack):
    """One node's rows (an iterator of Arrow record batches with ``node``, ``y`` and the
    feature columns ``c<j>``) → record batches of (f, node, code, nxt, k, n0 .. n{nc-1}):
    per feature in ``features`` not in ``cuts``, its table (code, counts; nxt = k = −1);
    per feature in ``cuts``, the cuts the filter keeps (code, next code, left counts) and
    the node's admissible cuts ``k``."""
    node, held, rows, dense = None, [], 0, {}
    for b in batches:
        if not b.num_rows:
            continue
        cols = {name: b.column(i).to_numpy(zero_copy_only=False) for i, name in enumerate(b.schema.names)}
        node = int(cols["node"][0])
        held.append(cols)
        rows += b.num_rows
        if rows >= FLUSH:
            _add(dense, held, features, domains, nc)
            held, rows = [], 0
    if node is None:
        return
    out = {name: [] for name in ("f", "node", "code", "nxt", "k", *(f"n{c}" for c in range(nc)))}
    for j in features:
        code, counts = _counts(dense.get(j), held, j, domains[j], nc)
        if j in cuts:
            found = filter_groups(np.full(len(code), node, np.int64), code, list(counts.T), min_side, slack)
            if node not in found:
                continue
            k, kept = found[node]
            code = np.array([lo for lo, _, _ in kept], np.int64)
            nxt = np.array([hi for _, hi, _ in kept], np.int64)
            counts = np.array([left for _, _, left in kept], np.int64).reshape(len(kept), nc)
            ks = np.full(len(kept), k, np.int64)
        else:
            nxt = ks = np.full(len(code), -1, np.int64)
        out["f"].append(np.full(len(code), j, np.int64))
        out["node"].append(np.full(len(code), node, np.int64))
        out["code"].append(code)
        out["nxt"].append(nxt)
        out["k"].append(ks)
        for c in range(nc):
            out[f"n{c}"].append(counts[:, c])
    arrays = {name: np.concatenate(parts) if parts else np.zeros(0, np.int64) for name, parts in out.items()}
    yield pa.RecordBatch.from_pydict({name: pa.array(a, pa.int64()) for name, a in arrays.items()})


def _add(dense, held, features, domains, nc):
    """The held rows added into each feature's dense (value × class) counts."""
    y = np.concatenate([h["y"] for h in held]).astype(np.int64)
    for j in features:
        V = max(domains[j], 1)
        key = np.concatenate([h[f"c{j}"] for h in held]).astype(np.int64) * nc + y
        got = np.bincount(key, minlength=V * nc)
        dense[j] = got if j not in dense else dense[j] + got


def _counts(dense, held, j, V, nc):
    """A feature's present values (ascending codes) and their class counts."""
    V = max(V, 1)
    if held:
        y = np.concatenate([h["y"] for h in held]).astype(np.int64)
        key = np.concatenate([h[f"c{j}"] for h in held]).astype(np.int64) * nc + y
        if dense is not None or V * nc <= 4 * len(key):
            got = np.bincount(key, minlength=V * nc)
            dense = got if dense is None else dense + got
        else:  # few rows, many values: sort the rows' keys
            keys, n = np.unique(key, return_counts=True)
            code, cls = np.divmod(keys, nc)
            present, at = np.unique(code, return_inverse=True)
            counts = np.zeros((len(present), nc), np.int64)
            counts[at, cls] = n
            return present, counts
    table = dense.reshape(V, nc)
    present = np.flatnonzero(table.any(axis=1))
    return present, table[present]
