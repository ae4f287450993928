"""The criterion protocol's base (:class:`Criterion`; the protocol is in :mod:`infotree.criteria`),
a criterion's decision (:class:`Choice`) and the exact first-best rule every criterion ranks by."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .measures import conditional_entropy_from_table


@dataclass(frozen=True)
class Choice:
    """A criterion's decision at a node: the split feature and its exact ties, or a stop.

    ``valid`` and ``gain_ok`` (C4.5) are the features that passed J48's minimum-branch
    and average-gain tests, as bit masks over the features (None when not asked).
    """

    feature: int | None = None
    ties: tuple = ()
    stop: str | None = None
    valid: int | None = None
    gain_ok: int | None = None


def _bits(features) -> int:
    out = 0
    for j in features:
        out |= 1 << j
    return out


def _first_best(cands, key, compare):
    """The first candidate (column order) of maximal key, and every one exactly equal to it."""
    best, best_v, tied = None, None, []
    for c in cands:
        v = key(c)
        if best is None:
            best, best_v = c, v
            continue
        order = compare(v, best_v)
        if order > 0:
            best, best_v, tied = c, v, []
        elif order == 0:
            tied.append(c)
    return best, tuple(c.index for c in tied)


def _compare(a, b) -> int:
    return (a > b) - (a < b)


class Criterion:
    """The protocol (see the module docstring); subclasses set the class attributes."""

    name = title = algorithm = ""
    ratio = False
    considers_used = False
    missing = None
    threshold = "midpoint"
    collapse = False
    reads_numbers = False
    mdl = False
    binary = False
    scores_m_of_n = False
    #: True for a regression criterion: a node's "counts" are then its statistics
    #: (weight, Σy, Σy²) rather than one count per class
    regression = False

    def min_split(self, known, known_cases, classes, params):
        return 0

    @staticmethod
    def label(counts) -> int:
        """The class a node predicts: the most frequent, the first on a tie."""
        return counts.index(max(counts))

    @staticmethod
    def loss_of(truth, predicted):
        """A held-out row's loss (rpart's xval): 0/1."""
        return Fraction(int(truth != predicted))

    def pure(self, counts) -> bool:
        """Nothing left to split: at most one class present."""
        return sum(1 for c in counts if c) <= 1

    def cut_key(self, table):
        return conditional_entropy_from_table(table)

    def choose(self, node, cands, context) -> Choice:
        """Among the candidates that separate the rows (two non-empty branches) and are
        not used on the path: the best score, first in column order."""
        eligible = [c for c in cands if context.eligible(c)]
        if not eligible:
            return Choice(stop="no_features" if context.all_used else "no_separation")
        best, ties = self.best(eligible)
        return Choice(best.index, ties)

    def best(self, cands):
        raise NotImplementedError

    def __repr__(self):
        return f"<criterion {self.name}>"
