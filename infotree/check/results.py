"""The results of a check: one :class:`ClaimResult` per claim, the :class:`Report` of a sheet."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from .names import Unreadable
from .report import VERDICTS

__all__ = ["ClaimResult", "Report"]


class _Undefined(Unreadable):
    """A measure that has no value here (no row; a gain ratio with split information 0)."""


@dataclass(frozen=True)
class ClaimResult:
    """The check of one claim.

    ``expected`` is the exact value of a measure (:class:`~infotree.exact.Exact`,
    :class:`~infotree.exact.Ratio` or ``Fraction``), the accepted names of a
    root/split/leaf claim (a tuple, the builder's choice first), the builder's tree
    text of a tree claim, or None when the claim could not be read.
    ``answer_value`` is the student's value: a ``Fraction`` (decimal or integer), an
    exact value (expression) or a name.
    """

    line: int
    text: str
    kind: str
    verdict: str
    last_line: int = 0
    answer: str | None = None
    answer_value: object = None
    expected: object = None
    expected_decimal: str | None = None
    message: str = ""
    explanation: tuple[str, ...] = ()
    quantity: str | None = None
    nodes: tuple = ()
    diagnosis: str | None = None

    def __post_init__(self):
        if not self.last_line:
            object.__setattr__(self, "last_line", self.line)

    @property
    def right(self) -> bool:
        return self.verdict == "right"


@dataclass(frozen=True)
class Report:
    """Every claim of an answers file, in file order, with the settings they were checked under."""

    results: tuple[ClaimResult, ...]
    target: str
    criterion: str
    tolerance: Fraction | None = None
    digits: int = 4
    min_digits: int = 3
    log: str = "2"
    min_decimals: int = 3
    conventions: tuple = ()   # ((name, value, what it means), ...): the course conventions in force
    counts: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        c = Counter(r.verdict for r in self.results)
        object.__setattr__(self, "counts", {v: c.get(v, 0) for v in VERDICTS})

    @property
    def all_right(self) -> bool:
        """True when there is at least one claim and every claim is right."""
        return bool(self.results) and self.counts["right"] == len(self.results)

    @property
    def exit_status(self) -> int:
        """0 when every claim is right, else 1 (close, wrong, unreadable, or no claim)."""
        return 0 if self.all_right else 1

    def summary(self) -> str:
        """``11/12 correct (1 close)``."""
        if not self.results:
            return "0/0 correct (no claims: every line is blank or a comment)"
        extra = [f"{self.counts[v]} {v}" for v in VERDICTS[1:] if self.counts[v]]
        tail = f" ({', '.join(extra)})" if extra else ""
        return f"{self.counts['right']}/{len(self.results)} correct{tail}"
