"""Claims about a forest's votes (docs/forests.md), graded against the forest ``infotree forest`` grows
with the same options (``--trees``, ``--seed``, ``--max-features``, ``--sample``, ...).

``votes(row 17) = 4/5 for 1``: the share of the forest's vote (its class probability: the trees' vote
fractions, or their mean leaf probability with ``--vote average``) for class 1 on row 17;
``prediction(row 17) = 1``; ``vote(tree 3, row 17) = 1``: one tree's vote; ``OOB votes(row 14) = 1/2 for 1``,
``OOB prediction(row 14) = 0``: by the trees that did not draw the row; ``OOB error = 3/16``.  Rows are those
of ``--predict FILE`` when it is given (numbered as ``forest --predict`` prints them), else DATA's, 1-based;
out-of-bag rows are always DATA's.
"""

from __future__ import annotations

import re

from ..errors import InfotreeError
from ..decimals import decimal_text
from .answers import read_answer
from .names import Unreadable
from .pruning import first_match

__all__ = ["ForestClaims"]

_ROW = r"\s*\(\s*row\s+(?P<row>[-+]?\d+)\s*\)\s*=\s*"
_FORMS = [
    ("forest_votes", re.compile(r"(?P<oob>OOB\s*)?votes" + _ROW + r"(?P<answer>.+?)\s+for\s+(?P<label>\S.*)",
                                re.IGNORECASE)),
    ("forest_prediction", re.compile(r"(?P<oob>OOB\s*)?prediction" + _ROW + r"(?P<answer>.+)", re.IGNORECASE)),
    # "majority vote for row 6: yes", "the forest's vote for row 6 = yes"
    ("forest_prediction", re.compile(r"(?:the\s+)?(?P<oob>OOB\s*)?(?:majority\s+vote|forest'?s?\s+vote|bagged\s+"
                                     r"prediction)\s+(?:for|of)\s+row\s+(?P<row>\d+)\s*[:=]\s*(?P<answer>.+)",
                                     re.IGNORECASE)),
    ("tree_vote", re.compile(r"vote\s*\(\s*tree\s+(?P<tree>[-+]?\d+)\s*,\s*row\s+(?P<row>[-+]?\d+)\s*\)\s*=\s*(?P<answer>.+)",
                             re.IGNORECASE)),
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

    def ballot(self, row, oob=False):
        """(ballot, classes, explanation) of row ``row`` (1-based): by every tree, or (``oob``) by the trees
        that did not draw that row of the data."""
        forest, predicted = self.forest()
        if oob:
            ballots, where = forest.oob()[0], "the data (out of bag)"
        elif predicted is not None:
            ballots, where = predicted, "the --predict file"
        else:
            ballots, where = forest.ballots(), "the data"
        k = int(row)
        if not 1 <= k <= len(ballots):
            raise Unreadable(f"{where} has rows 1 to {len(ballots)}, not {k}")
        b = ballots[k - 1]
        if b.prediction is None:
            raise Unreadable(f"every tree drew row {k}: it has no out-of-bag vote")
        classes = forest.classes
        votes = [classes[v] if v is not None else "·" for v in b.votes]
        line = (f"row {k} of {where}: the trees vote {', '.join(votes)}; "
                + ", ".join(f"P({c}) = {p}" for c, p in zip(classes, b.proba)))
        return b, classes, line

    def check(self, number, body, kind, m):
        from .results import ClaimResult

        answer = m.group("answer").strip()
        if kind == "oob_error":
            forest, _ = self.forest()
            ballots, unvoted, error = forest.oob()
            if error is None:
                raise Unreadable("every tree drew every row: no row has an out-of-bag vote, so there is no OOB error")
            voted = len(ballots) - unvoted
            lines = (f"OOB error = {error} over the {voted} rows some tree did not draw ({unvoted} drawn by every tree)",)
            return self.number(number, body, kind, error, answer, "OOB error", lines)
        oob = kind != "tree_vote" and m.group("oob") is not None
        b, classes, line = self.ballot(m.group("row"), oob)
        if kind == "tree_vote":
            t = int(m.group("tree"))
            if not 1 <= t <= len(b.votes):
                raise Unreadable(f"the forest has trees 1 to {len(b.votes)}, not {t}")
            label = self.checker.names.label(answer)
            expected = classes[b.votes[t - 1]]
            verdict = "right" if label == expected else "wrong"
            return ClaimResult(number, body, kind, verdict, answer=answer, answer_value=label, expected=(expected,),
                               message="" if verdict == "right" else f"tree {t} votes {expected}",
                               explanation=(line,))
        kind = ("oob_" + kind.split("_")[1]) if oob else kind
        if kind.endswith("prediction"):
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
        quantity = f"{'OOB ' if oob else ''}votes(row {m.group('row')}) for {label}"
        result = self.number(number, body, kind, value, answer, quantity, (line,))
        if oob and result.verdict == "wrong":
            every, _, _ = self.ballot(m.group("row"))
            if self.checker.judge(every.proba[classes.index(label)], read_answer(answer, log=self.checker.log))[0] \
                    == "right":
                from dataclasses import replace

                result = replace(result, diagnosis="a vote counted from a tree that drew the row: out-of-bag votes "
                                                   "count only the trees whose sample left the row out")
        return result

    def number(self, number, body, kind, value, answer, quantity, lines):
        from .results import ClaimResult

        got, verdict, message = self.checker.judge_chain(value, answer)
        return ClaimResult(number, body, kind, verdict, answer=got.text, answer_value=got.value, expected=value,
                           expected_decimal=decimal_text(value, max(self.checker.digits, got.decimals)),
                           quantity=quantity, message=message, explanation=tuple(lines))
