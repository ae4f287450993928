"""Split tests: a nominal multiway split, a numeric threshold split and a subset split.

A split knows its feature, its branches' labels, the condition of each branch as
printers show it, and which branch a coded value goes to.  Nodes, candidate
records, routing, prediction, pruning and every printer ask the split; nothing else
rebuilds a branch label.

    >>> s = ThresholdSplit(1, Fraction(75))
    >>> s.labels, s.route(Fraction(80))
    (('<= 75', '> 75'), 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .data import number_text
from .data.numbers import coprime

__all__ = ["MofNSplit", "NominalSplit", "SubsetSplit", "ThresholdSplit", "condition_words", "midpoint_splits"]


def condition_words(feature, op, value) -> str:
    """A branch condition as words: ``outlook = sunny``; an M-of-N branch, whose triple
    names no one feature (``feature`` None), ``at least 2 of {outlook = sunny, windy = TRUE}``."""
    return f"{op} {value}" if feature is None else f"{feature} {op} {value}"


@dataclass(frozen=True)
class NominalSplit:
    """One branch per value of a nominal feature, in the feature's domain order."""

    feature: int
    values: tuple

    @property
    def labels(self) -> tuple:
        return self.values

    def condition(self, branch) -> tuple[str, str]:
        """(operator, value text) of a branch: ``("=", "sunny")``."""
        return "=", self.values[branch]

    def route(self, code) -> int:
        """The branch of a value code (an index into the domain)."""
        return code


@dataclass(frozen=True, slots=True)
class ThresholdSplit:
    """Two branches of a numeric feature: ``x <= threshold`` (0) and ``x > threshold`` (1)."""

    feature: int
    threshold: Fraction

    @property
    def text(self) -> str:
        """The threshold in the exact grammar: a decimal when it terminates, else p/q."""
        return number_text(self.threshold)

    @property
    def labels(self) -> tuple:
        return f"<= {self.text}", f"> {self.text}"

    def condition(self, branch) -> tuple[str, str]:
        return ("<=" if branch == 0 else ">"), self.text

    def route(self, value) -> int:
        """The branch of an exact value: a Fraction's or an int's numerator and denominator
        compared in integers (Fraction's own <= dispatches through its operator fallbacks and
        ABC checks: 4.5 µs a comparison, most of a forest's prediction)."""
        t = self.threshold
        try:
            return 0 if value.numerator * t.denominator <= t.numerator * value.denominator else 1
        except AttributeError:  # a float or another number: its own comparison
            return 0 if value <= t else 1

    def __reduce__(self):
        # One call a split to unpickle, where the frozen dataclass's state went through
        # fields() both ways (a forest's worker sends 64,000 of them: 40 % of its pickling)
        return _threshold_split, (self.feature, self.threshold)


def _threshold_split(feature, threshold):
    return _split(feature, threshold)


def _unchecked_split():
    """A ThresholdSplit made without the frozen dataclass's checks: a fit makes one a split
    node (10^5 at 10^5 regression rows).  The checked constructor where this would not agree."""
    new = object.__new__
    set_feature, set_threshold = ThresholdSplit.feature.__set__, ThresholdSplit.threshold.__set__

    def split(j, q):
        s = new(ThresholdSplit)
        set_feature(s, j)
        set_threshold(s, q)
        return s

    try:
        ok = split(2, Fraction(-3, 4)) == ThresholdSplit(2, Fraction(-3, 4))
    except (AttributeError, TypeError):
        ok = False
    return split if ok else ThresholdSplit


_split = _unchecked_split()


def midpoint_splits(features, numerators, denominators, shared=None) -> list:
    """``ThresholdSplit(j, Fraction(n, d))`` of each (j, n, d): Python ints, n/d in lowest
    terms and d > 0 (the caller reduced them).  ``shared``: a dict (j, n, d) -> split that the
    caller keeps from call to call, so that equal splits are one object (a forest's 143,000
    split nodes have 63,000 thresholds: 12 MiB of splits, Fractions and their ints)."""
    split = _split
    if shared is None:
        return [split(j, coprime(n, d)) for j, n, d in zip(features, numerators, denominators)]
    out, get = [], shared.get
    for key in zip(features, numerators, denominators):
        s = get(key)
        if s is None:
            s = shared[key] = split(key[0], coprime(key[1], key[2]))
        out.append(s)
    return out


@dataclass(frozen=True)
class SubsetSplit:
    """Two branches of a nominal feature (CART): values in ``left`` (0) and the rest (1).

    ``left`` holds value codes (indices into ``values``, the feature's domain); a value
    outside it, seen at the node or not, goes right.
    """

    feature: int
    left: frozenset
    values: tuple

    @property
    def left_values(self) -> tuple:
        return tuple(v for i, v in enumerate(self.values) if i in self.left)

    @property
    def right_values(self) -> tuple:
        return tuple(v for i, v in enumerate(self.values) if i not in self.left)

    @property
    def text(self) -> str:
        return "{" + ", ".join(self.left_values) + "}"

    @property
    def labels(self) -> tuple:
        return f"in {self.text}", f"not in {self.text}"

    def condition(self, branch) -> tuple[str, str]:
        return ("in" if branch == 0 else "not in"), self.text

    def route(self, code) -> int:
        return 0 if code in self.left else 1


@dataclass(frozen=True)
class MofNSplit:
    """Two branches of an M-of-N test (ID2-of-3): at least ``m`` of the ``conditions`` hold (0)
    or fewer do (1).

    ``conditions`` holds (feature index, value code) pairs, each ``feature = value``, one per
    feature; ``names`` their text (``outlook = sunny``).  ``feature`` is the first
    condition's feature (the one the test was grown from).  Unlike the one-feature splits,
    :meth:`route` reads a whole row of value codes, and a row whose value of a condition's
    feature is missing counts that condition as not holding.
    """

    m: int
    conditions: tuple
    names: tuple

    @property
    def feature(self) -> int:
        return self.conditions[0][0]

    @property
    def text(self) -> str:
        return f"{self.m} of {{{', '.join(self.names)}}}"

    @property
    def labels(self) -> tuple:
        return f"at least {self.text}", f"fewer than {self.text}"

    def condition(self, branch) -> tuple[str, str]:
        return ("at least" if branch == 0 else "fewer than"), self.text

    def holding(self, row) -> int:
        """How many of the conditions a row of value codes satisfies."""
        return sum(1 for j, v in self.conditions if row[j] == v)

    def route(self, row) -> int:
        """The branch of a row (a sequence of value codes over every feature)."""
        return 0 if self.holding(row) >= self.m else 1
