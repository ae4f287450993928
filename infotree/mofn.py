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
    literals = [(j, v) for j in nominal for v in range(len(data.domains[j]))
                if (sub[:, j] == v).any() and not (sub[:, j] == v).all()]
    if not literals:
        raise InfotreeError("no condition feature = value separates the rows here; there is no M-of-N test to grow")
    names = {(j, v): f"{data.features[j]} = {data.domains[j][v]}" for j, v in literals}

    def record(split):
        tab = [[0] * k, [0] * k]
        hold = np.zeros(len(rows), dtype=np.int64)
        for j, v in split.conditions:
            hold += sub[:, j] == v
        for b, c in zip((hold < split.m).astype(int).tolist(), ys):
            tab[b][c] += 1
        return Candidate(split.text, split.feature, tuple(map(tuple, tab)), split.labels)

    def best_of(moves):
        best = None
        for op, split in moves:
            c = record(split)
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
