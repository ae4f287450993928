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

__all__ = ["counter", "count_node", "layout", "FLUSH"]

# Rows a worker holds before adding them into a node's dense (value, class) counts: a node
# of fewer rows is counted from its rows' keys, sorted, when that is cheaper than the dense
# bins (a small node of a feature with 10^5 values).
FLUSH = 1 << 20
# A feature's dense counts of one node hold at most this many bins (128 MB); past that (a
# column of millions of distinct values) its rows' keys are sorted and counted instead.
DENSE = 1 << 24


def counter(**params):
    """``count_node`` with its parameters, typed as Spark's ``applyInArrow`` reads an iterator
    of batches (a node's rows are not held at once)."""

    def count(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return count_node(batches, **params)

    return count


def layout(widths):
    """Where each column's code sits in the 63-bit words a row is shuffled as: (word, shift,
    bits) per column of ``widths`` values.  Spark shuffles a row's integers 8 bytes each,
    whatever their type: 21 small codes packed into 2-4 words are a quarter of the bytes."""
    out, word, used = [], 0, 0
    for V in widths:
        bits = max(1, (max(V, 1) - 1).bit_length())
        if used + bits > 63:
            word, used = word + 1, 0
        out.append((word, used, bits))
        used += bits
    return out


def count_node(batches, *, nc, domains, features, cuts, min_side, slack, places):
    """One node's rows (an iterator of Arrow record batches with ``node`` and the words
    ``w0, w1, ...`` holding ``y`` and each listed feature's code at ``places[name]``, as
    :func:`layout` gives them) → record batches of (f, node, code, nxt, k, n0 .. n{nc-1}):
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
            _add(dense, _words(held), features, domains, nc, places)
            held, rows = [], 0
    if node is None:
        return
    words = _words(held)
    y = _column(words, places["y"]) if held else None
    out = {name: [] for name in ("f", "node", "code", "nxt", "k", *(f"n{c}" for c in range(nc)))}
    for j in features:
        code, counts = _counts(dense.get(j), words, y, j, domains[j], nc, places)
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


def _words(held):
    """The held batches' words, each one array."""
    return {name: np.concatenate([h[name] for h in held]) for name in held[0] if name != "node"} if held else {}


def _column(words, place):
    """One column's codes, from its word."""
    word, shift, bits = place
    return (words[f"w{word}"] >> shift) & ((1 << bits) - 1)


def _add(acc, words, features, domains, nc, places):
    """Rows added into each feature's counts: dense (value × class) bins, or, for a feature of
    more than DENSE bins, the sorted keys' counts, merged at the end."""
    y = _column(words, places["y"])
    for j in features:
        V = max(domains[j], 1)
        key = _column(words, places[j]) * nc + y
        if V * nc <= DENSE:
            got = np.bincount(key, minlength=V * nc)
            acc[j] = got if j not in acc else acc[j] + got
        else:
            acc.setdefault(j, []).append(np.unique(key, return_counts=True))


def _counts(acc, words, y, j, V, nc, places):
    """A feature's present values (ascending codes) and their class counts: what ``acc`` holds
    (:func:`_add`) and the rows not yet added (``words``, their classes ``y``; None: none)."""
    V = max(V, 1)
    dense = acc if isinstance(acc, np.ndarray) else None
    sparse = list(acc) if isinstance(acc, list) else []
    if y is not None:
        key = _column(words, places[j]) * nc + y
        if dense is not None or V * nc <= min(DENSE, 4 * len(key)):
            got = np.bincount(key, minlength=V * nc)
            dense = got if dense is None else dense + got
        else:  # few rows, many values: sort the rows' keys
            sparse.append(np.unique(key, return_counts=True))
    if dense is not None:
        table = dense.reshape(V, nc)
        present = np.flatnonzero(table.any(axis=1))
        return present, table[present]
    keys = np.concatenate([k for k, _ in sparse])
    n = np.concatenate([c for _, c in sparse])
    order = np.argsort(keys, kind="stable")
    keys, n = keys[order], n[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    code, cls = np.divmod(keys[starts], nc)
    present, at = np.unique(code, return_inverse=True)
    counts = np.zeros((len(present), nc), np.int64)
    counts[at, cls] = np.add.reduceat(n, starts)
    return present, counts
