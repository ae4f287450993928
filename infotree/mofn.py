"""M-of-N tests grown from the best single condition, in the style of ID2-of-3.

An M-of-N test holds when at least M of its N conditions ``feature = value`` hold
(:class:`~infotree.splits.MofNSplit`): two branches, scored by their information gain
like any binary split.  The search at a node (Murphy & Pazzani 1991, ID2-of-3):

1. the **seed** is the best single condition, 1 of {x_j = v}: the literal whose binary
   split (x_j = v against the rest) has maximal IG, the first (feature, value) in column
   and domain order on an exact tie;
2. from M of C, every literal l on a feature not yet in C gives two candidates:
   **M of C ∪ {l}** (more general: one more way to satisfy the test) and
   **M+1 of C ∪ {l}** (more specific);
3. the best candidate (maximal IG; exact ties to the first generated) replaces the test
   when its gain is strictly larger; otherwise, or when every feature is in C, the
   search stops.

Every gain is exact (:class:`~infotree.records.Candidate` of the test's two branches).
Nominal features only; a row whose value is missing satisfies none of that feature's
conditions.  :func:`grow_m_of_n` derives the test at a node; the reference builder grows
a whole tree of them (``build_tree(data, m_of_n=True)``, ``infotree tree DATA --m-of-n``,
see ``docs/pet_lookahead.md``), and ``infotree measures DATA --m-of-n [--at PATH]`` prints
the derivation at one node.

    >>> from infotree.data import load
    >>> s = grow_m_of_n(load("tests/data/weather.csv"))
    >>> [step.split.text for step in s.steps][:2]
    ['1 of {outlook = overcast}', '1 of {outlook = overcast, humidity = normal}']
    >>> s.best.split.text, str(s.best.candidate.gain)
    ('2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}', '2/7 + log2(7) - 15/14*log2(5)')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InfotreeError
from .records import Candidate
from .splits import MofNSplit

__all__ = ["MofNSearch", "MofNStep", "grow_m_of_n"]

SEED = "best single condition"
GENERAL = "add a condition: M of N+1"
SPECIFIC = "add a condition and raise M: M+1 of N+1"


@dataclass(frozen=True)
class MofNStep:
    """One accepted move of the search: the operator, the test, its record and how many tests were compared."""

    operator: str
    split: MofNSplit
    candidate: Candidate
    tried: int


@dataclass(frozen=True)
class MofNSearch:
    """The accepted steps (the last is the test), why the search stopped, the rejected best
    move (or None) and, for comparison, the best one-feature candidate at the node."""

    steps: tuple
    stopped: str
    rejected: MofNStep | None
    best_feature: Candidate | None
    classes: tuple
    n: int

    @property
    def best(self) -> MofNStep:
        return self.steps[-1]


def grow_m_of_n(data, rows=None) -> MofNSearch:
    """The M-of-N test grown at the node of ``rows`` (all rows by default) of a Dataset."""
    X = np.asarray(data.X)
    y = np.asarray(data.y, dtype=np.int64)
    rows = np.arange(len(y)) if rows is None else np.asarray(rows, dtype=np.int64)
    kinds = getattr(data, "kinds", ("nominal",) * len(data.features))
    nominal = [j for j, k in enumerate(kinds) if k != "numeric"]
    if not nominal:
        raise InfotreeError("M-of-N tests need nominal features; this data has only numeric ones")
    if len(rows) == 0:
        raise InfotreeError("the node has no rows; an M-of-N test needs at least one")
    sub, ys, k = X[rows], y[rows].tolist(), len(data.classes)
    # a condition that holds for every row here, or for none, separates nothing
    literals = []
    for j in nominal:
        counts = np.bincount(sub[:, j][sub[:, j] >= 0], minlength=len(data.domains[j]))
        literals += [(j, v) for v in np.flatnonzero((counts > 0) & (counts < len(rows))).tolist()]
    if not literals:
        raise InfotreeError("no condition feature = value separates the rows here; there is no M-of-N test to grow")
    names = {(j, v): f"{data.features[j]} = {data.domains[j][v]}" for j, v in literals}

    y_sub = np.asarray(ys, dtype=np.int64)
    # each condition's rows as a 0/1 column, made once: a test's count is a sum of a few
    # columns and its table one bincount (an ID-like feature has a literal per row)
    held = {lit: (sub[:, lit[0]] == lit[1]).astype(np.int64) for lit in literals}

    onehot = np.zeros((len(rows), k), dtype=np.int64)
    onehot[np.arange(len(rows)), y_sub] = 1
    class_totals = onehot.sum(axis=0)

    def scores(moves):
        """Each move's n·IG up to a constant, Σ f(n_bc) − Σ f(n_b) with f(m) = m·log2 m, in floats,
        and a bound on its error; the moves' tables by one product a chunk of moves at a time."""
        out, tables = np.empty(len(moves)), np.empty((len(moves), 2 * k), dtype=np.int64)
        step = max(1, (1 << 22) // max(1, len(rows)))  # at most 4M cells at once
        for a in range(0, len(moves), step):
            chunk = moves[a:a + step]
            hold = np.zeros((len(chunk), len(rows)), dtype=np.int64)
            for i, (_, split) in enumerate(chunk):
                for lit in split.conditions:
                    hold[i] += held[lit]
            fails = (hold < np.array([split.m for _, split in chunk])[:, None]).astype(np.int64)
            right = fails @ onehot                     # moves × classes: the rows the test fails
            left = class_totals - right
            cells = np.concatenate([left, right], axis=1).astype(np.float64)
            sizes = np.stack([left.sum(axis=1), right.sum(axis=1)], axis=1).astype(np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                f_cells = np.where(cells > 0, cells * np.log2(np.maximum(cells, 1)), 0.0).sum(axis=1)
                f_sizes = np.where(sizes > 0, sizes * np.log2(np.maximum(sizes, 1)), 0.0).sum(axis=1)
            out[a:a + step] = f_cells - f_sizes
            tables[a:a + step] = np.concatenate([left, right], axis=1)
        n = float(len(rows))
        return out, 16 * (2 * k + 2) * 2.0 ** -52 * n * np.log2(n + 2) + 1e-300, tables

    def best_of(moves):
        """The move of maximal IG, the first on an exact tie: floats rule out the moves they
        certainly separate from the best; the rest are compared exactly, in order."""
        value, bound, tables = scores(moves)
        close = np.flatnonzero(value >= value.max() - 2 * bound).tolist()
        first = {}  # moves of one table have one gain: the first of them stands for all
        for i in close:
            first.setdefault(tables[i].tobytes(), i)
        best = None
        for i in sorted(first.values()):
            op, split = moves[i]
            c = Candidate(split.text, split.feature, tuple(map(tuple, tables[i].reshape(2, k).tolist())), split.labels)
            if best is None or c.gain > best[2].gain:
                best = (op, split, c)
        return best

    seed = best_of([(SEED, MofNSplit(1, (lit,), (names[lit],))) for lit in literals])
    steps = [MofNStep(seed[0], seed[1], seed[2], len(literals))]
    rejected, stopped = None, None
    while stopped is None:
        cur = steps[-1]
        used = {j for j, _ in cur.split.conditions}
        moves = []
        for lit in literals:
            if lit[0] in used:
                continue
            conds, texts = cur.split.conditions + (lit,), cur.split.names + (names[lit],)
            moves.append((GENERAL, MofNSplit(cur.split.m, conds, texts)))
            moves.append((SPECIFIC, MofNSplit(cur.split.m + 1, conds, texts)))
        if not moves:
            stopped = "every feature is in the test"
            break
        op, split, c = best_of(moves)
        if c.gain > cur.candidate.gain:
            steps.append(MofNStep(op, split, c, len(moves)))
        else:
            rejected = MofNStep(op, split, c, len(moves))
            stopped = "no move increases the gain"
    features = []
    for j in nominal:
        tab = [[0] * k for _ in data.domains[j]]
        for x, c in zip(sub[:, j].tolist(), ys):
            if x >= 0:
                tab[x][c] += 1
        features.append(Candidate(data.features[j], j, tuple(map(tuple, tab)), tuple(data.domains[j])))
    best_feature = None
    for c in features:
        if sum(1 for r in c.table if any(r)) < 2:  # constant here (a feature of the path): no split
            continue
        if best_feature is None or c.gain > best_feature.gain:
            best_feature = c
    return MofNSearch(tuple(steps), stopped, rejected, best_feature, tuple(data.classes), len(rows))
