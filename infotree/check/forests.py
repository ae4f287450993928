"""Claims about a forest's votes (docs/forests.md), graded against the forest ``infotree forest`` grows
with the same options (``--trees``, ``--seed``, ``--max-features``, ``--sample``, ...).

``votes(row 17) = 4/5 for 1``: the share of the forest's vote (its class probability: the trees' vote
fractions, or their mean leaf probability with ``--vote average``) for class 1 on row 17;
``prediction(row 17) = 1``; ``OOB error = 3/16``.  Rows are those of ``--predict FILE`` when it is
given (numbered as ``forest --predict`` prints them), else DATA's, 1-based.
"""

from __future__ import annotations

import re

from ..errors import InfotreeError
from ..exact import decimal_text
from .names import Unreadable
from .pruning import first_match

__all__ = ["ForestClaims"]

_ROW = r"\s*\(\s*row\s+(?P<row>\d+)\s*\)\s*=\s*"
_FORMS = [
    ("forest_votes", re.compile(r"votes" + _ROW + r"(?P<answer>.+?)\s+for\s+(?P<label>\S.*)", re.IGNORECASE)),
    ("forest_prediction", re.compile(r"prediction" + _ROW + r"(?P<answer>.+)", re.IGNORECASE)),
    ("oob_error", re.compile(r"OOB[\s_-]*error\s*=\s*(?P<answer>.+)", re.IGNORECASE)),
]


class ForestClaims:
    """Grades forest claims for one checker; ``grow`` returns (forest, ballots of --predict's rows or None)."""

    def __init__(self, checker, grow):
        self.checker = checker
        self.grow = grow
        self._forest = None

    def match(self, body):
        return first_match(_FORMS, body)

    def forest(self):
        if self._forest is None:
            if self.grow is None:
                raise Unreadable("forest claims need the forest's options: check from the command line with "
                                 "'forest's options (--trees, --seed, ...)")
            try:
                self._forest = self.grow()
            except InfotreeError as e:
                raise Unreadable(f"the forest cannot be grown: {e}") from None
        return self._forest

    def ballot(self, row):
        forest, predicted = self.forest()
        ballots = predicted if predicted is not None else forest.ballots()
        where = "the --predict file" if predicted is not None else "the data"
        k = int(row)
        if not 1 <= k <= len(ballots):
            raise Unreadable(f"{where} has rows 1 to {len(ballots)}, not {k}")
        b = ballots[k - 1]
        classes = forest.classes
        votes = [classes[v] if v is not None else "-" for v in b.votes]
        line = (f"row {k} of {where}: the trees vote {', '.join(votes)}; "
                + ", ".join(f"P({c}) = {p}" for c, p in zip(classes, b.proba)))
        return b, classes, line

    def check(self, number, body, kind, m):
        from . import ClaimResult

        answer = m.group("answer").strip()
        if kind == "oob_error":
            forest, _ = self.forest()
            ballots, unvoted, error = forest.oob()
            if error is None:
                raise Unreadable("every tree drew every row: no row has an out-of-bag vote, so there is no OOB error")
            voted = len(ballots) - unvoted
            lines = (f"OOB error = {error} over the {voted} rows some tree did not draw ({unvoted} drawn by every tree)",)
            return self.number(number, body, kind, error, answer, "OOB error", lines)
        b, classes, line = self.ballot(m.group("row"))
        if kind == "forest_prediction":
            label = self.checker.names.label(answer)
            expected = classes[b.prediction]
            tie = (f"; {', '.join(classes[i] for i in b.tied)} tie and the first in class order wins"
                   if len(b.tied) > 1 else "")
            verdict = "right" if label == expected else "wrong"
            return ClaimResult(number, body, kind, verdict, answer=answer, answer_value=label, expected=(expected,),
                               message="" if verdict == "right" else f"the forest predicts {expected}{tie}",
                               explanation=(line,))
        label = self.checker.names.label(m.group("label").strip())
        value = b.proba[classes.index(label)]
        return self.number(number, body, kind, value, answer, f"votes(row {m.group('row')}) for {label}", (line,))

    def number(self, number, body, kind, value, answer, quantity, lines):
        from . import ClaimResult

        got, verdict, message = self.checker.judge_chain(value, answer)
        return ClaimResult(number, body, kind, verdict, answer=got.text, answer_value=got.value, expected=value,
                           expected_decimal=decimal_text(value, max(self.checker.digits, got.decimals)),
                           quantity=quantity, message=message, explanation=tuple(lines))
