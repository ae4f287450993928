"""The seam between counting and deciding: what a count-table provider gives the builder.

A provider holds the rows (in memory, in DuckDB, in Spark) and answers questions about
the open nodes of one depth with count tables only; every decision is made in Python, exactly,
by :class:`infotree.engines.builder.EngineBuilder` (the reference builder's decisions on
those tables).  The tree depends on the rows only through these tables and through the
first appearance of each value (the domains' order), so any provider that counts right
grows the same tree byte for byte.

``schema``
    A :class:`~infotree.data.Dataset` with the data's features, target, kinds, domains
    (first-appearance order, as the file readers give them), numbers and classes, and
    no rows (``n_rows`` says how many the provider holds).
``root(scaled)``
    The root's class counts (classification) or its (n, Σy, Σy²) over the target's scaled
    integers ``scaled[code]`` (regression): a tuple of ints.
``tables(nodes)``
    For the listed node ids: per feature j a :class:`Table`, the (node, code, class) counts
    of the rows of those nodes (regression: (node, code) → (n, Σy, Σy²)), sorted by
    node then code, only the cells present.
``cuts(nodes, features, min_side, slack)`` (optional)
    CART's Gini without surrogates: per numeric feature and node, only the cuts whose
    certified float key may be the node's best (every exactly best cut and its ties), with
    their exact left class counts and the number of admissible cuts.
``split(routes)``
    The rows of each routed node go to its children (:class:`Route`); rows of every other
    node leave the computation (their nodes are leaves).
``sizes(nodes)`` / ``take(nodes)``
    PLANET's finishing: a node small enough is grown in memory from its rows (``take``:
    ``(node ids, X codes, y codes)``, the node's rows in any order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

__all__ = ["Provider", "Route", "Table"]


@dataclass(frozen=True)
class Table:
    """One feature's counts at a depth: row i is (node[i], code[i]) with ``counts[i]`` (classes,
    or regression's n, Σy, Σy²), sorted by node then code; only non-zero cells."""

    node: np.ndarray
    code: np.ndarray
    counts: list  # of tuples of Python ints


@dataclass(frozen=True)
class Route:
    """Where a split node's rows go: feature ``feature``; ``cut`` (a numeric code: codes ≤ cut
    go to the first child) or ``branch`` (per value code, the child's index); the children
    get the ids ``first``, ``first + 1``, ..."""

    feature: int
    first: int
    cut: int | None = None
    branch: tuple | None = None

    def child_of(self, codes: np.ndarray) -> np.ndarray:
        if self.cut is not None:
            return self.first + (codes > self.cut).astype(np.int64)
        return self.first + np.asarray(self.branch, dtype=np.int64)[codes]


class Provider(Protocol):
    schema: object
    n_rows: int

    def root(self, scaled) -> tuple: ...

    def tables(self, nodes: list[int], features=None) -> list[Table | None]: ...

    def split(self, routes: dict[int, Route]) -> None: ...

    def sizes(self, nodes: list[int]) -> dict[int, int]: ...

    def take(self, nodes: list[int]) -> tuple: ...

    def close(self) -> None: ...


def near_best(n, nl, ql, qr, group, slack):
    """The certified Gini filter on cuts listed group by group (floats: a cut's rows, its
    left rows, and ΣL², ΣR² of its sides' class counts): the cuts whose float key is within
    the bound of their group's least ``key + bound`` (so every exactly best cut is among
    them).  Returns each group's first cut, its number of cuts and the cuts kept."""
    value = (n - ql / nl - qr / (n - nl)) / n
    bound = slack * (n + ql / nl + qr / (n - nl)) / n + 1e-300
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    top = np.minimum.reduceat(value + bound, starts)
    counts = np.diff(np.r_[starts, len(group)])
    return starts, counts, np.flatnonzero(value - bound <= np.repeat(top, counts))

