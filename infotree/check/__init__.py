"""Homework checking: a student's answers, claim by claim, checked exactly against a data set.

``check_answers(text, data)`` reads an answers file (one claim per line, blank lines
and ``#`` comments ignored) and returns a :class:`Report` with one
:class:`ClaimResult` per claim; :func:`format_text` and :func:`report_json` print
it; ``infotree check ANSWERS --data DATA`` is the command line.

    >>> from infotree.data import load
    >>> report = check_answers('''
    ... H(play) = 0.940
    ... IG(outlook) = 0.246
    ... root = outlook
    ... ''', load("tests/data/weather.csv"))
    >>> print(format_text(report), end="")
    ✓ line 2: H(play) = 0.940
    ≈ line 3: IG(outlook) = 0.246
        close: one unit off in the last digit: the value 0.24675 rounds to 0.247; rounded intermediate values give it: 0.940 - 0.694 = 0.246
        correct: IG(outlook) = 0.2467 = 9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)
    ✓ line 4: root = outlook
    <BLANKLINE>
    2/3 correct (1 close)

The grammar, every answer form, the verdicts, the limits and the JSON schema are in
``docs/check.md``.  The package's modules, by concept:

* :mod:`.notation` — textbook and student notations rewritten into the grammar (∈, Han's subscripts,
  ISLR's regions, prose, IF-THEN rules), before a line is parsed;
* :mod:`.grammar` — the left-hand side's tokenizer, path conditions, measure names, a measure's
  canonical text (the quantity a rubric matches);
* :mod:`.names` — the data's names as students write them (any case);
* :mod:`.answers` — the right-hand side: decimals, percentages, expressions in
  students' habits (``log``, ``ln``, implicit products, decimals), read through
  :func:`~infotree.parse.parse_exact`;
* :mod:`.sheet` — reading the file: its size limits, its lines, ``#`` comments;
* :mod:`.checker` — one line to one claim (or a tree block), each claim kind to its reader, the conventions a
  sheet is graded under; :mod:`.paths` — the one path parser (a node's path in every claim kind);
  :mod:`.measures` — measure claims read and graded; :mod:`.decreases` — CART's decreases and
  improvements; :mod:`.regression` — a regression tree's SSE and means;
* this module — the entry, :func:`check_answers`: the sheet's lines through the checker;
* :mod:`.values` — the exact value of a measure; :mod:`.judging` — a number against it (precision,
  tolerance, chains, rounded working); :mod:`.diagnosis` — the usual mistake a wrong number matches;
* :mod:`.treeclaims` — root, split, leaf, regions and whole trees; :mod:`.treetext` — reading tree text
  (infotree's, J48's, rpart's, indented, arrows) in linear time; :mod:`.trees` — grading a tree node by
  node against ``build_tree``, over :mod:`.expected` (the expected tree's nodes and their text) and
  :mod:`.grower` (the trees grown, below a student's wrong choice too: carry-forward);
* :mod:`.pruning` and :mod:`.forests` — cost-complexity and forest claims;
* :mod:`.printed` — infotree's own ``--steps`` and ``measures`` prose, skipped when fed back;
* :mod:`.results`, :mod:`.report` — the results and their text, JSON and HTML reports;
* :mod:`.rubric`, :mod:`.profile`, :mod:`.classroom` — a class: rubrics, course profiles,
  gradebook and feedback; the ``infotree check`` command is :mod:`infotree.cli.check`, with
  ``tree``'s options from :mod:`infotree.cli.parser`.

No ``eval`` anywhere: the left-hand side has its own small tokenizer, the right-hand side
goes to ``parse_exact``; files, lines, decimals, logarithm arguments and count tables are
bounded (:data:`MAX_FILE_CHARS`, :data:`MAX_LINES`, :data:`MAX_LINE_LENGTH`,
:data:`MAX_DECIMALS`, :data:`MAX_LOG_ARGUMENT`, :data:`MAX_CLAIM_CELLS`).
"""

from __future__ import annotations

import os
import re
from fractions import Fraction

from ..criteria import CRITERIA
from ..errors import InfotreeError
from .answers import MAX_DECIMALS, MAX_LOG_ARGUMENT
from .checker import MAX_CLAIM_CELLS, _Checker
from .checker import conventions as _conventions
from .judging import _tolerance_value
from .notation import rewrite
from .printed import claim_after_facts, context_path, is_prose, is_table_heading
from .pruning import CpTableText
from .report import SCHEMA_VERSION, VERDICTS, format_text, report_json  # noqa: F401 (the package's API)
from .results import ClaimResult, Report
from .sheet import MAX_FILE_CHARS, MAX_LINE_LENGTH, MAX_LINES, AnswersError, _lines_of, _strip_comment, read_answers
from .treetext import is_ignored

__all__ = [
    "AnswersError",
    "ClaimResult",
    "MAX_DECIMALS",
    "MAX_FILE_CHARS",
    "MAX_LINES",
    "MAX_LINE_LENGTH",
    "MAX_LOG_ARGUMENT",
    "Report",
    "VERDICTS",
    "check_answers",
    "format_text",
    "read_answers",
    "report_json",
]


def check_answers(text_or_lines, data, *, criterion="gain", tolerance=None, digits=4, min_digits=3, log="2",
                  max_claim_cells=MAX_CLAIM_CELLS, tree_options=None, forest=None, min_decimals=3,
                  c45_gain="mdl", risk_units="count", shared=None) -> Report:
    """Check every claim of an answers text (str, bytes or lines) against ``data``.

    ``data`` is a :class:`~infotree.data.Dataset` or a path for :func:`~infotree.data.load`;
    ``criterion`` is ``gain``, ``gain_ratio`` or ``gain_ratio_plain`` (hyphens allowed);
    ``tolerance`` a non-negative rational (``"1/100"``, ``0.01`` as a string or Fraction);
    ``min_digits``, ``min_decimals``: a rounded decimal answer is right when it has at least ``min_decimals``
    decimal places or ``min_digits`` significant digits (neither: "imprecise");
    ``c45_gain``: under C4.5, the gain of a numeric attribute ``"mdl"`` (Release 8: less log2(cuts)/n, as
    J48 grows the tree) or ``"plain"`` (the gain at the best cut, as textbooks print it; the tree is grown
    with it);
    ``risk_units``: cost-complexity risks and alphas in misclassified rows (``"count"``, rpart) or as
    rates over the n rows (``"rate"``, Breiman's R(t) = r(t)·p(t));
    ``shared``: a dict the caller keeps across the sheets of a class: the trees grown for one sheet (the
    expected tree, carry-forward subtrees, the pruning sequence) are reused by the next;
    ``log``: ``"2"`` (``log`` in answers is log2) or ``"e"`` (``log`` is ln);
    ``max_claim_cells``: the largest count table a measure claim may need.
    ``tree_options``: keywords of :func:`~infotree.growing.build_tree` other than ``criterion``
    (``prune``, ``min_objects``, ``max_depth``, ...): tree claims are graded against the tree
    grown with them.
    ``forest``: a function returning (a :class:`~infotree.ensemble.Forest`, its ballots on the rows
    votes claims name, or None for the data's rows), called at the first forest claim.
    An answers text that cannot be read raises :class:`AnswersError`; bad lines do not.
    """
    # gain-ratio, squared-error as the command line writes them
    named = criterion.replace("-", "_") if isinstance(criterion, str) and "_" not in criterion else criterion
    if named not in CRITERIA:
        raise InfotreeError(f"unknown criterion {criterion!r}; allowed: gain, gain_ratio, gain_ratio_plain, "
                            f"gini, entropy, misclassification")
    criterion = named
    tolerance = _tolerance_value(tolerance)
    if c45_gain not in ("mdl", "plain"):
        raise InfotreeError(f"c45_gain {c45_gain!r} is not allowed; give 'mdl' (C4.5 Release 8) or 'plain'")
    if risk_units not in ("count", "rate"):
        raise InfotreeError(f"risk_units {risk_units!r} is not allowed; give 'count' (misclassified rows) or "
                            f"'rate' (Breiman's R(t) = r(t)·p(t))")
    for name, v, high in (("digits", digits, 50), ("min_digits", min_digits, 50), ("min_decimals", min_decimals, 50),
                          ("max_claim_cells", max_claim_cells, 10 ** 9)):
        if isinstance(v, bool) or not isinstance(v, int) or not (name == "max_claim_cells") <= v <= high:
            raise InfotreeError(f"{name} {v!r} is not allowed; give an integer from "
                                f"{int(name == 'max_claim_cells')} to {high:,}")
    if log not in ("2", "e"):
        raise InfotreeError(f"log {log!r} is not allowed; give '2' (log is log2) or 'e' (log is ln)")
    if isinstance(data, (str, os.PathLike)):
        from ..data import load

        data = load(data)
    lines = _lines_of(text_or_lines)
    checker = _Checker(data, criterion, tolerance, digits, dict(tree_options or {}), min_digits=min_digits,
                       log=log, max_claim_cells=max_claim_cells, forest=forest, min_decimals=min_decimals,
                       c45_gain=c45_gain, risk_units=risk_units, shared=shared)
    conventions = _conventions(checker, tolerance, min_digits, min_decimals, log)
    results, block = [], []

    def flush():
        if block:
            results.extend(checker.check_block(list(block)))
            block.clear()

    checker.sheet_numbers = {Fraction(x) for line in lines if len(line) <= MAX_LINE_LENGTH
                             for x in _DECIMAL.findall(line)}
    in_table = False
    cptable = CpTableText()
    for number, raw in enumerate(lines, 1):
        body = _strip_comment(raw) if len(raw) <= MAX_LINE_LENGTH else raw.strip()
        stated = cptable.claims(body) if len(body) <= MAX_LINE_LENGTH else None
        if stated is not None:  # 'infotree cptable' output fed back: each row's claims
            flush()
            results.extend(checker.check_line(number, claim) for claim in stated)
            continue
        if in_table and body:
            continue  # a table of infotree's node report, up to its blank line
        in_table = is_table_heading(body)
        if not body or in_table or (len(body) <= MAX_LINE_LENGTH and (is_ignored(body) or is_prose(body))):
            flush()
            continue
        body = claim_after_facts(body) or _LOOKAHEAD_LINE.sub(r"Decrease_lookahead(\1)", body)
        at = context_path(body)
        if at is not None:
            flush()
            result = checker.set_context(number, body, at)
            if result is not None:
                results.append(result)
            continue
        if len(body) <= MAX_LINE_LENGTH and checker.is_tree_part(rewrite(body), block, lines, number):
            indent = raw.expandtabs(4)
            block.append((number, len(indent) - len(indent.lstrip()), body))
            continue
        flush()
        results.append(checker.check_line(number, body))
    flush()
    return Report(tuple(results), target=data.target, criterion=criterion, tolerance=tolerance, digits=digits,
                  min_digits=min_digits, log=log, min_decimals=min_decimals, conventions=conventions)


_DECIMAL = re.compile(r"(?<![\d.])\d{0,20}\.\d{1,50}(?![\d.])")
# CART's worked solution with --lookahead 1: "decrease with lookahead 1 (outlook, each side split once more at
# best) = 113/490", read as Decrease_lookahead(outlook) = 113/490.
_LOOKAHEAD_LINE = re.compile(r"^decrease with lookahead 1 \(([^(),]{1,200}), each side split once more at best\)")


