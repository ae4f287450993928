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
* this module — reading the file, one line to one claim (or a tree block), the measure claims'
  parsing, the conventions a sheet is graded under;
* :mod:`.values` — the exact value of a measure; :mod:`.judging` — a number against it (precision,
  tolerance, chains, rounded working); :mod:`.diagnosis` — the usual mistake a wrong number matches;
* :mod:`.treeclaims` — root, split, leaf, regions and whole trees; :mod:`.treetext` — reading tree text
  (infotree's, J48's, rpart's, indented, arrows) in linear time; :mod:`.trees` — grading a tree node by
  node against ``build_tree``, with carry-forward;
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
import sys
from dataclasses import replace
from fractions import Fraction

import numpy as np

from ..criteria import C45GainRatio
from ..errors import InfotreeError
from ..exact import decimal_text
from ..forms import counts_text
from .answers import MAX_DECIMALS, MAX_LOG_ARGUMENT, read_answer
from .diagnosis import diagnose
from .forests import ForestClaims
from .grammar import (_DECREASE_OF, _chain, _EXACTLY, _IMPURITY, _KIND, _SAMPLE, _UNDEFINED, _Cut,
                      _Known, _Measure, _Subset, _Tok, _canonical, _claim_kind, _clip, _cond_text,
                      _cut_item, _inside_parens, _measure_head, _no_equals, _norm_name, _set_item, _show_toks,
                      _split_claim, _split_on)
from .judging import Judging, _tolerance_value
from .names import Names, Unreadable
from .notation import at_region, best_split, region_definition, rewrite, threshold_claim
from .printed import claim_after_facts, context_path, is_prose, is_table_heading
from .pruning import CpTableText, PruningClaims
from .report import SCHEMA_VERSION, VERDICTS, format_text, report_json  # noqa: F401 (the package's API)
from .results import ClaimResult, Report, _Undefined
from .treeclaims import TreeClaims, _where, _where_the
from .treetext import is_ignored
from .trees import Grower
from .values import Values, _exact_text, _simplify, _steps_lines

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

#: Largest answers file (bytes read from a file; characters of text given directly).
MAX_FILE_CHARS = 1_000_000
#: Most lines in an answers file.
MAX_LINES = 10_000
#: Longest line (characters); a longer line is reported unreadable without parsing.
MAX_LINE_LENGTH = 1_000
#: Most cells of the count table a measure claim may need (``--max-claim-cells``).
MAX_CLAIM_CELLS = 100_000

_CRITERIA = {"gain": "gain", "gain_ratio": "gain_ratio", "gain_ratio_plain": "gain_ratio_plain",
             "squared_error": "squared_error", "squared-error": "squared_error",
             "gain-ratio": "gain_ratio", "gain-ratio-plain": "gain_ratio_plain",
             "gini": "gini", "entropy": "entropy", "misclassification": "misclassification"}
_CART = ("gini", "entropy", "misclassification", "squared_error")


class AnswersError(InfotreeError):
    """An answers file that cannot be read at all (missing, too large, binary, not UTF-8)."""


_Unreadable = Unreadable


# -- results ---------------------------------------------------------------------------


# -- reading the file ------------------------------------------------------------------

def read_answers(path) -> str:
    """The text of an answers file (``"-"``: standard input), refusing what is not a small text file."""
    source = os.fspath(path)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_FILE_CHARS + 1)
            source = "<stdin>"
        else:
            with open(source, "rb") as f:
                data = f.read(MAX_FILE_CHARS + 1)
    except FileNotFoundError:
        raise AnswersError(f"no such file {source!r}; expected the answers file, one claim per line") from None
    except IsADirectoryError:
        raise AnswersError(f"{source!r} is a directory; expected the answers file, one claim per line") from None
    except OSError as e:
        raise AnswersError(f"cannot read {source!r}: {e.strerror or e}") from None
    return _decode(data, source)


def _decode(data: bytes, source: str) -> str:
    if len(data) > MAX_FILE_CHARS:
        raise AnswersError(f"{source} has more than {MAX_FILE_CHARS:,} bytes; "
                           f"an answers file may have at most {MAX_FILE_CHARS:,}")
    from ..data import decode_text

    return decode_text(data, source, AnswersError, expected="text with one claim per line", save="save the answers")


def _lines_of(text_or_lines) -> list[str]:
    """Lines split at \\n, \\r\\n or \\r (as editors count them), within the size limits."""
    if isinstance(text_or_lines, (bytes, bytearray)):
        text = _decode(bytes(text_or_lines), "answers")
    elif isinstance(text_or_lines, str):
        text = text_or_lines
    else:
        parts, size = [], 0
        for i, line in enumerate(text_or_lines):
            if i >= MAX_LINES:
                raise AnswersError(f"answers have more than {MAX_LINES:,} lines; at most {MAX_LINES:,} are allowed")
            if not isinstance(line, str):
                raise AnswersError(f"answers line {i + 1} is {type(line).__name__}, not text")
            size += len(line) + 1
            if size > MAX_FILE_CHARS + 1:
                raise AnswersError(f"answers have more than {MAX_FILE_CHARS:,} characters; "
                                   f"at most {MAX_FILE_CHARS:,} are allowed")
            parts.append(line.rstrip("\r\n"))
        text = "\n".join(parts)
    if text.startswith("\ufeff"):
        text = text[1:]
    if len(text) > MAX_FILE_CHARS:
        raise AnswersError(f"answers have more than {MAX_FILE_CHARS:,} characters; at most {MAX_FILE_CHARS:,} are allowed")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise AnswersError(f"answers line {line} contains a NUL character; the text looks binary, "
                           f"expected one claim per line")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise AnswersError(f"answers have {len(lines):,} lines; at most {MAX_LINES:,} are allowed")
    return lines


def _strip_comment(line: str) -> str:
    """The line without a ``#`` comment (a ``#`` inside quotes is kept), stripped."""
    if "#" not in line:
        return line.strip()
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#":
            return line[:i].strip()
    return line.strip()


# -- the left-hand side: a small tokenizer -----------------------------------------------


# -- the right-hand side ---------------------------------------------------------------


# -- the checker -----------------------------------------------------------------------


class _TextbookC45(C45GainRatio):
    """C4.5 as textbooks print it: a numeric attribute's gain is the plain gain at its best cut, without
    Release 8's log2(cuts)/n (``--c45-gain plain``); the tree is grown with that gain too."""

    mdl = False


class _Checker(TreeClaims, Values, Judging):
    def __init__(self, data, criterion, tolerance, digits, options, *, min_digits=3, log="2",
                 max_claim_cells=MAX_CLAIM_CELLS, forest=None, min_decimals=3, c45_gain="mdl", risk_units="count",
                 shared=None):
        self.min_digits = min_digits
        self.min_decimals, self.c45_gain, self.risk_units = min_decimals, c45_gain, risk_units
        self.log = log
        self.max_claim_cells = max_claim_cells
        self.data = data
        self.criterion = criterion
        self.tolerance = tolerance
        self.digits = digits
        self.names = Names(data)
        X = np.asarray(data.X)
        self.columns = {f: X[:, j] for j, f in enumerate(data.features)}
        self.columns[data.target] = np.asarray(data.y)
        self.domain = self.names.domain
        self.variables = self.names.variables
        grown_by = _TextbookC45() if criterion == "gain_ratio" and c45_gain == "plain" else criterion
        # A class's sheets share the trees grown for them (the expected tree, the subtrees below students'
        # choices, the examinations, the pruning sequence): one Grower and one PruningClaims cache per
        # data set and options; the data object is kept in the key's value so its id is never reused.
        key = (id(data), repr(sorted(options.items())), criterion, c45_gain)
        cached = (shared or {}).get(key)
        if cached is None:
            cached = (data, Grower(data, dict(options, criterion=grown_by)), {})
            if shared is not None:
                shared[key] = cached
        _, self.grower, pruning_cache = cached
        self.grower.new_sheet()
        # claims with their own grammar: cost-complexity (the grown tree's sequence) and a forest's votes
        self.families = (PruningClaims(self, dict(options, criterion=self.grower.criterion), pruning_cache),
                         ForestClaims(self, forest))
        self.context = ()   # the node of an "At outlook = sunny:" line: IG, GR, SplitInfo claims below are there
        self.context_error = None   # why the last "At" line could not be read: the claims below are not graded
        self.stated = set()         # the decimal answers of the claims so far (rounded values the sheet shows)
        self.sheet_numbers = set()  # every decimal written on the sheet
        self.regions = {}           # ISLR's R1 = {X | Years < 4.5}: region name -> path
        self.last_feature = None   # the feature the last claim measured: H_known(Y), improvement (rpart)
        self.regression = criterion == "squared_error"
        if self.regression:
            from ..growing import target_numbers

            self.y_numbers = target_numbers(data)   # the exact number of each target code
        self._tree_text = None

    def set_context(self, number, body, path_text):
        """Read an ``At path:`` line; an unreadable path is reported (and clears the context)."""
        self.context, self.context_error = (), None
        try:
            self.context = self.path(_split_claim(rewrite(path_text), split=False)[0], "At")
        except _Unreadable as e:
            # the claims below are about the node this line meant: graded at no node rather than at another
            self.context_error = f"the node of line {number} ({_clip(body, 40)}) could not be read, so this claim " \
                                 f"about it is not graded"
            return ClaimResult(number, body, "context", "unreadable", message=str(e))
        return None

    def variable(self, tok: _Tok) -> str:
        return self.names.variable(tok.text)

    def value(self, var: str, name: str) -> str:
        return self.names.value(var, name)

    # -- one line --
    def check_line(self, number: int, body: str) -> ClaimResult:
        if len(body) > MAX_LINE_LENGTH:
            return ClaimResult(number, _clip(body, 80), "unknown", "unreadable",
                               message=f"line of {len(body):,} characters; at most {MAX_LINE_LENGTH:,} are allowed")
        result = self.check_rewritten(number, rewrite(body))
        return result if result.text == body else replace(result, text=body)

    def check_rewritten(self, number: int, body: str) -> ClaimResult:
        kind, answer = "unknown", None
        try:
            prose = self.prose_claim(number, body)
        except _Unreadable as e:
            return ClaimResult(number, body, "unknown", "unreadable", message=str(e))
        if prose is not None:
            return prose
        special = _EXACTLY.fullmatch(body) or _UNDEFINED.fullmatch(body)
        if special:
            try:
                return self.check_special(number, body, special)
            except _Unreadable as e:
                return ClaimResult(number, body, kind, "unreadable", message=str(e))
        family = self.family(body)
        if family is not None:  # alpha(path), R(T_t), alpha_k, CP(row k), weakest link; votes, OOB error
            handler, kind, m = family
            try:
                return handler.check(number, body, kind, m)
            except _Unreadable as e:
                return ClaimResult(number, body, kind, "unreadable", message=str(e))
        try:
            toks, rhs = _split_claim(body)
            kind = _claim_kind(toks)
            if rhs is None:
                raise _Unreadable(_no_equals(body, toks))
            answer = rhs.strip()
            if kind in ("root", "split", "leaf"):
                return self.check_tree_claim(number, body, kind, toks, answer)
            measure = self.parse_measure(toks)
            return self.check_measure(number, body, measure, answer)
        except _Unreadable as e:
            return ClaimResult(number, body, kind, "unreadable", answer=answer, message=str(e))

    def prose_claim(self, number, body):
        """The result of a claim in ISLR's region notation or in short prose, or None for other lines."""
        region = region_definition(body)
        if region is not None:
            name, path_text = region
            path = self.path(_split_claim(path_text, split=False)[0], name)
            self.regions[name] = path
            node, problem = self.node_of_tree(path)
            if problem is not None:   # a region is a node of the tree itself: no carry-forward below another split
                return ClaimResult(number, body, "region", "wrong", answer=path_text, message=problem,
                                   quantity=name)
            what = "a leaf" if node.split is None else f"a node that splits on {node.split_feature}"
            return ClaimResult(number, body, "region", "right", answer=path_text, quantity=name,
                               message=f"{name} = {_where_the(path)}, {what}")
        found = at_region(body)
        if found is not None:
            measure, name, answer = found
            if name not in self.regions:
                raise _Unreadable(f"{name} is not defined on an earlier line; define it as {name} = {{X | Years < 4.5}}")
            m = _Measure(measure, (self.data.target,), (), self.regions[name])
            return self.check_measure(number, body, m, answer)
        found = threshold_claim(body)
        if found is not None:
            return self.check_threshold(number, body, *found)
        answer = best_split(body)
        if answer is not None:
            path = self.context if not self.context_error else None
            if path is None:
                raise _Unreadable(self.context_error)
            toks = [_Tok("w", "split", 0), _Tok("p", "(", 0)] + _split_claim(_where(path), split=False)[0] + \
                [_Tok("p", ")", 0)] if path else [_Tok("w", "root", 0)]
            return self.check_tree_claim(number, body, "split" if path else "root", toks, answer)
        return None


    def family(self, body):
        """(handler, kind, match) of a cost-complexity or forest claim, or None."""
        for handler in self.families:
            found = handler.match(body)
            if found is not None:
                return (handler, *found)
        return None

    def lhs_measure(self, text) -> _Measure:
        toks, _ = _split_claim(text.strip(), split=False)
        kind = _claim_kind(toks)
        if kind in ("root", "split", "leaf"):
            raise _Unreadable(f"{_clip(text.strip(), 30)!r} is not a measure; expected H(...), IG(...), GR(...)")
        return self.parse_measure(toks)

    def check_special(self, number, body, m) -> ClaimResult:
        """``IG(a) = IG(b) exactly (each 0.0200)`` and ``GR(a): undefined (split info 0)``."""
        if m.re is _UNDEFINED:
            measure = self.lhs_measure(m.group(1))
            quantity = _canonical(measure)
            try:
                value = _simplify(self.evaluate(measure, None, quantity)[0])
            except _Undefined as e:
                return ClaimResult(number, body, _KIND[measure.name], "right", answer="undefined",
                                   quantity=quantity, explanation=(str(e),))
            return ClaimResult(number, body, _KIND[measure.name], "wrong", answer="undefined", expected=value,
                               expected_decimal=decimal_text(value, self.digits), quantity=quantity,
                               message=f"{quantity} is defined: it is {decimal_text(value, self.digits)}")
        measures = [self.lhs_measure(part) for part in _chain(m.group(1))]
        values = []
        for measure in measures:
            q = _canonical(measure)
            values.append((q, _simplify(self.evaluate(measure, None, q)[0])))
        answer = read_answer(m.group(2), log=self.log)
        (q0, v0), kind = values[0], _KIND[measures[0].name]
        differ = [(q, v) for q, v in values[1:] if v != v0]
        if differ:
            q, v = differ[0]
            return ClaimResult(number, body, kind, "wrong", answer=answer.text, expected=v0, quantity=q0,
                               expected_decimal=decimal_text(v0, self.digits),
                               message=f"not equal: {q0} = {decimal_text(v0, self.digits)}, "
                                       f"{q} = {decimal_text(v, self.digits)}")
        verdict, message = self.judge(v0, answer)
        return ClaimResult(number, body, kind, verdict, answer=answer.text, answer_value=answer.value, expected=v0,
                           expected_decimal=decimal_text(v0, max(self.digits, answer.decimals)), quantity=q0,
                           message=message)

    # -- measures --
    def parse_measure(self, toks) -> _Measure:
        head = toks[0].text
        name, sub = _measure_head(head)
        if name in ("Mean", "SSE") and len(toks) == 1:  # "mean ȳ = 1870/10", "ȳ = 187", "RSS = Σ(y - ȳ)² = 548.4"
            return _Measure(name, (self.data.target,), (), self.in_context(()))
        inner = _inside_parens(toks, head)
        counts = self.class_counts_claim(name, inner)
        if counts is not None:   # Han's I(9,5), Mitchell's Entropy([9+, 5-]) written as counts
            return _Measure("Gini" if name == "Gini" else "ME" if name == "ME" else "H", (), (), (), counts=counts)
        known = sub is not None and sub.lower() == "known" and name == "H"
        lookahead = sub is not None and sub.lower() == "lookahead" and name in ("IG", "GR", "Decrease", "GiniGain")
        if known or lookahead:
            sub = None
        bars = [i for i, t in enumerate(inner) if t.kind == "p" and t.text == "|"]
        if len(bars) > 1:
            raise _Unreadable(f"more than one '|' in {head}(...); write {head}(variables | conditions)")
        left = inner[:bars[0]] if bars else inner
        right = inner[bars[0] + 1:] if bars else []
        if bars and not right:
            raise _Unreadable(f"nothing after '|' in {head}(...); write conditions such as outlook or outlook = sunny")
        right, split_on = self.split_on_item(right)
        given, fixed = self.conditions(right)
        if lookahead:
            names = self.var_names(left, head)
            if len(names) != 1 or names[0] == self.data.target or given:
                raise _Unreadable(f"{head}(...) takes one feature and the node's path: {head}(outlook | outlook = "
                                  f"sunny)")
            kind = "Decrease" if name in ("Decrease", "GiniGain") else name
            return _Measure(kind, names, (), self.in_context(fixed), lookahead=True,
                            impurity="lookahead" if kind == "Decrease" else None)
        if name in ("Decrease", "Improvement") or (name == "GiniGain" and self.grower.binary):
            return self.decrease_measure(head, name, left, given, fixed)
        if known:
            if self.last_feature is None:
                raise _Unreadable(f"{head}(...) is the entropy on the rows where a feature is known; write it after "
                                  f"a claim about that feature, as infotree's worked solution does")
            names = self.var_names(left, head)
            return _Measure("H", names, given, self.in_context(fixed), known=True)
        if split_on is not None:
            shown = split_on if isinstance(split_on, str) else _cond_text(*split_on)
            if name not in _IMPURITY or (not self.grower.binary and isinstance(split_on, str)):
                raise _Unreadable(f"'split on {shown}' is CART's binary split: write Gini(target | split on A) "
                                  f"with --algorithm cart")
            node, rest = self.sample_node(_split_on(left, ","), head)
            if node is not None and not rest:   # Han: Gini_{income in {low, medium}}(D), the split of D
                left_names, fixed = (self.data.target,), tuple(node) + tuple(fixed)
            else:
                left_names = self.var_names(left, head)
            if isinstance(split_on, str):
                return _Measure(name, left_names, given, self.in_context(fixed), split_on=split_on)
            return _Measure(name, left_names, given, self.in_context(fixed), split_on=split_on[0], split=split_on)
        if _norm_name(head) in ("rss", "residualsumofsquares") and (_cut_item(left) or _set_item(left)):
            # ISLR: RSS(Years < 4.5) is the RSS of the two regions that split makes
            f, v = self.cut(left)
            return _Measure("SSE", (self.data.target,), given, self.in_context(fixed), split_on=f, split=(f, v))
        node, rest = self.sample_node(_split_on(left, ","), head) if name != "I" else (None, None)
        if node is not None:
            return self.textbook_measure(head, name, sub, node, rest, given, fixed)
        if sub is not None:
            raise _Unreadable(f"{head}(...) names the attribute {sub!r} as a subscript; the subscript form is "
                              f"{head}(D) or {head}(S_sunny), with the data set (a node) in the parentheses")
        if name == "I":
            groups = _split_on(left, ";")
            if len(groups) == 1:
                names = self.var_names(groups[0], head)
                if len(names) != 2:
                    raise _Unreadable(f"{head}(...) needs two variables: I(A; B) or I(A, B), found {len(names)}")
                sides = ((names[0],), (names[1],))
            elif len(groups) == 2:
                sides = (self.var_names(groups[0], head), self.var_names(groups[1], head))
            else:
                raise _Unreadable(f"more than one ';' in {head}(...); write I(A; B) or I(A; B | C)")
            return _Measure(name, sides, given, fixed)
        if any(t.kind == "p" and t.text == ";" for t in left):
            raise _Unreadable(f"';' in {head}(...); a ';' separates the two sides of I(A; B)")
        names = self.var_names(left, head)
        target = self.data.target
        if name not in _IMPURITY and len(names) != 1:
            raise _Unreadable(f"{head}(...) takes one attribute, found {len(names)}: "
                              f"write {head}(outlook) or {head}(outlook | conditions)")
        if name == "IG" and names == (target,) and given:
            # IG(Y | X) = H(Y) - H(Y | X): the gain of X, in Andrew Moore's notation and the courses that use it
            return _Measure("I", ((target,), tuple(given)), (), self.in_context(fixed))
        if name == "GR" and names == (target,) and given:
            # GR(play | outlook) is literally a ratio about play given outlook: almost surely GR(outlook).
            x = ", ".join(given)
            raise _Unreadable(f"{head}({target} | {x}) reads as the gain of {target} given {x}, which is 0; "
                              f"did you mean {head}({x}) = I({target}; {x})?")
        return _Measure(name, names, given, self.in_context(fixed))

    def class_counts_claim(self, name, inner):
        """The counts of ``I(9,5)``, ``H(9, 5)``, ``Gini(9,5)``: every argument a whole number that names no
        variable; None otherwise."""
        if name not in ("I", "H", "Gini", "ME") or not inner:
            return None
        items = _split_on(inner, ",")
        if len(items) < 2 or any(len(i) != 1 or i[0].kind != "w" or not i[0].text.isdigit() for i in items):
            return None
        if any(self.names.find_variable(i[0].text) is not None for i in items):
            return None
        counts = tuple(int(i[0].text) for i in items)
        if not any(counts) or len(counts) > 1000 or max(counts) > 10 ** 12:
            raise _Unreadable(f"{name}({', '.join(map(str, counts))}): give class counts, at least one positive "
                              f"and each at most 10^12")
        return counts

    def in_context(self, fixed):
        """The conditions of a claim below an ``At path:`` line of infotree's solution: the path first."""
        if self.context_error and not fixed:   # a claim that names its own node is graded there
            raise _Unreadable(self.context_error)
        ctx = self.context
        return fixed if not ctx or tuple(fixed[:len(ctx)]) == ctx else ctx + tuple(fixed)

    def split_on_item(self, inner):
        """The tokens without a ``split on A`` condition, and A (or None); a split written out
        (``split on income in {low, medium}``, ``split on Years < 4.5``) gives (A, its condition)."""
        out, found = [], None
        for i, item in enumerate(_split_on(inner, ",")):
            if item and item[0].kind == "w" and item[0].text.lower().startswith("split on "):
                rest = item[0].text[len("split on "):].strip()
                if len(item) == 1 and " in" not in f" {rest}":
                    found = self.names.feature(rest)
                else:
                    found = self.cut([_Tok("w", rest, item[0].pos)] + item[1:])
                continue
            if out:
                out.append(_Tok("p", ",", item[0].pos if item else 0))
            out.extend(item)
        return (out if found is not None else inner), found

    def decrease_measure(self, head, name, left, given, fixed) -> _Measure:
        """CART: ΔGini(A), Decrease(Age <= 55 | Start > 8.5), improvement (rpart), GiniGain(A)."""
        if not self.grower.binary:
            raise _Unreadable(f"{head}(...) is CART's decrease by a binary split; check with --algorithm cart")
        if given:
            raise _Unreadable(f"{head}(... | {', '.join(given)}): the conditions of a decrease fix the node: "
                              f"{head}(Age | Start > 8.5)")
        low = _norm_name(head)
        name = "Decrease" if name == "GiniGain" else name  # under CART: the decrease by a binary split
        impurity = _DECREASE_OF.get(low) or {"gini": "Gini", "misclassification": "ME", "entropy": "H",
                                                "squared_error": "SSE"}[self.criterion]
        fixed = self.in_context(fixed)
        if len(left) == 1 and left[0].kind == "w" and left[0].text.lower() == "rpart" and name == "Improvement":
            if self.last_feature is None:
                raise _Unreadable("improvement (rpart) is n × the decrease of the feature just measured; write "
                                  "Improvement(feature)")
            return _Measure(name, (self.last_feature,), (), fixed, impurity=impurity)
        if _cut_item(left) or _set_item(left):
            f, v = self.cut(left)
            return _Measure(name, (f,), (), fixed, split=(f, v), impurity=impurity)
        names = self.var_names(left, head)
        if len(names) != 1 or names[0] == self.data.target:
            raise _Unreadable(f"{head}(...) takes one feature or one split: {head}(outlook), {head}(Age <= 55)")
        return _Measure(name, names, (), fixed, impurity=impurity)

    def sample_node(self, items, head):
        """The node of a textbook claim and the items after it: ``S``, ``D``, ``S_sunny``, ``D_youth`` (a
        data set, or its rows with a value) or ``outlook = sunny, ...`` (a path); (None, None) otherwise."""
        if not items or not items[0]:
            return None, None
        first = items[0]
        if len(first) == 1 and first[0].kind == "w" and self.names.find_variable(first[0].text) is None:
            m = _SAMPLE.fullmatch(first[0].text)
            if m:
                return self.subscript_path(m.group(1) or "", first[0].text), items[1:]
            return None, None
        path = []
        for i, item in enumerate(items):
            if len(item) == 3 and item[0].kind == "w" and item[1].text == "=" and item[2].kind == "w":
                f = self.names.feature(item[0].text)
                path.append((f, self.names.value(f, item[2].text)))
            elif _cut_item(item) or _set_item(item):
                path.append(self.cut(item))
            else:
                break
        else:
            i = len(items)
        return (tuple(path), items[i:]) if path else (None, None)

    def subscript_path(self, sub: str, symbol: str) -> tuple:
        """``sunny`` → ((outlook, sunny),); ``sunny_high`` → two steps; a value of two features is a question."""
        if not sub:
            return ()
        parts = [sub] if self.value_owners(sub) else sub.split("_")
        path = []
        for v in parts:
            owners = self.value_owners(v)
            if not owners:
                raise _Unreadable(f"{symbol}: no feature has the value {v!r}; write the node as a path, e.g. "
                                  f"H({self.data.target} | feature = value)")
            if len(owners) > 1:
                opts = " or ".join(f"{f} = {x}" for f, x in owners)
                raise _Unreadable(f"{symbol}: {v!r} is a value of {len(owners)} features; did you mean {opts}?")
            path.append(owners[0])
        return tuple(path)

    def value_owners(self, v: str):
        out = []
        for f in self.data.features:
            if self.names.kinds[f] != "nominal":
                continue
            try:
                out.append((f, self.names.value(f, v)))
            except _Unreadable:
                pass
        return out

    def textbook_measure(self, head, name, sub, node, rest, given, fixed) -> _Measure:
        """Entropy(S) = H(target) at S; Info_A(D) = H(target | A) at D; Gain(S, A) = IG(A) at S; ..."""
        fixed = tuple(node) + tuple(fixed)
        seen = [f for f, v in fixed if not isinstance(v, _Cut)]   # a numeric feature may be cut twice
        if len(set(seen)) < len(seen):
            raise _Unreadable(f"a feature is fixed twice in {head}(...); a node fixes each feature once")
        target = self.data.target
        attrs = [self.names.feature(sub)] if sub is not None else []
        for item in rest:
            if len(item) == 1 and item[0].kind == "w":
                attrs.append(self.names.feature(item[0].text))
            elif (_cut_item(item) or _set_item(item)) and name in ("IG", "GR", "SplitInfo"):
                attrs.append(self.cut(item))
            else:
                raise _Unreadable(f"cannot read {_show_toks(item) if item else 'an empty part'} in {head}(...); "
                                  f"expected an attribute, as in Gain(S, outlook)")
        if len(attrs) > 1:
            raise _Unreadable(f"{head}(...) names {len(attrs)} attributes ({', '.join(attrs)}); it takes one")
        if name in _IMPURITY:
            if given:
                raise _Unreadable(f"{head}(S | ...) is not a textbook form; write {name}({target} | conditions)")
            if attrs and self.grower.binary and name in ("Gini", "ME"):
                # CART (Han's Gini_income(D)): the impurity of A's best binary split, not of its values
                return _Measure(name, (target,), (), fixed, split_on=attrs[0])
            # Entropy(S); Info_A(D) = H(target | A); Gini(S, A) = Gini(target | A)
            return _Measure(name, (target,), tuple(attrs), fixed)
        if isinstance(attrs[0] if attrs else None, tuple):   # Gain(S, hours <= 4.5): the gain of that cut
            f, v = attrs[0]
            return _Measure(name, (f,), tuple(given), fixed, split=(f, v))
        if not attrs and fixed and isinstance(fixed[-1][1], (_Cut, _Subset)) and name in ("IG", "GR", "SplitInfo"):
            f, v = fixed[-1]   # Gain(hours <= 11.5): a gain is of a split, so the condition is the split
            return _Measure(name, (f,), tuple(given), fixed[:-1], split=(f, v))
        if not attrs:
            raise _Unreadable(f"{head}(...) needs an attribute: {head}(S, outlook) or {head}(outlook)")
        return _Measure(name, (attrs[0],), tuple(given), fixed)

    def var_names(self, toks, head) -> tuple:
        items = _split_on(toks, ",")
        out = []
        for item in items:
            if len(item) == 1 and item[0].kind == "w":
                out.append(self.variable(item[0]))
            elif not item:
                raise _Unreadable(f"a variable is missing in {head}(...); variables are: {', '.join(self.variables)}")
            elif any(t.kind == "p" and t.text == "=" for t in item):
                raise _Unreadable(f"'=' before '|' in {head}(...); a value is a condition: "
                                  f"{head}(play | outlook = sunny)")
            else:
                raise _Unreadable(f"unexpected {_show_toks(item)} in {head}(...); expected a variable name")
        return tuple(out)

    def conditions(self, toks):
        given, fixed = [], []
        if not toks:
            return (), ()
        for item in _split_on(toks, ","):
            if len(item) == 1 and item[0].kind == "w" and item[0].text.endswith(" known") and \
                    self.names.find_variable(item[0].text) is None:
                fixed.append((self.names.feature(item[0].text[:-len(" known")].strip()), _Known()))
            elif len(item) == 1 and item[0].kind == "w":
                given.append(self.variable(item[0]))
            elif len(item) == 3 and item[0].kind == "w" and item[1].text == "=" and item[2].kind == "w":
                var = self.variable(item[0])
                fixed.append((var, self.value(var, item[2].text)))
            elif _cut_item(item) or _set_item(item):
                fixed.append(self.cut(item))
            elif not item:
                raise _Unreadable("a condition is missing after ','; write conditions such as outlook, humidity = high")
            else:
                raise _Unreadable(f"cannot read the condition {_show_toks(item)}; write a variable (outlook) "
                                  f"or variable = value (outlook = sunny)")
        return tuple(given), tuple(fixed)

    def cut(self, item, tree=False):
        """(feature, _Cut) of ``humidity <= 75`` / ``humidity > 75`` (CART also ``< t``, ``>= t``), or
        (feature, _Subset) of CART's ``outlook in {sunny, rainy}``."""
        cart = self.criterion in _CART
        if _set_item(item):
            name, op, text = _set_item(item)
            f = self.names.feature(name)
            if tree and not cart:   # a measure may take any rows; a node of an ID3/C4.5 tree is one value's
                raise _Unreadable(f"{f} {op} {_clip(text, 20)}: a set of values is CART's split; "
                                  f"check with --algorithm cart")
            if self.names.kinds[f] != "nominal":
                raise _Unreadable(f"{f} is numeric: a condition on it is {f} <= t or {f} > t, not {op} a set")
            given = [v.strip() for v in text[1:-1].split(",")]
            if not all(given):
                raise _Unreadable(f"an empty value in {f} {op} {_clip(text, 30)}")
            chosen = {self.names.value(f, v) for v in given}
            return f, _Subset(op, tuple(v for v in self.domain[f] if v in chosen))
        if not _cut_item(item):
            raise _Unreadable(f"cannot read the split {_show_toks(item)}; write it as humidity <= 75, "
                              f"Start >= 8.5 or outlook in {{sunny, rainy}}")
        name, op, text = _cut_item(item)
        f = self.names.feature(name)
        if self.names.kinds[f] != "numeric":
            what = "CART's subset: {f} in {{a, b}}" if cart else "{f} = value"
            raise _Unreadable(f"{f} is nominal: a condition on it is {what.format(f=f)}, not {op} "
                              f"{_clip(text, 20)}")
        if op not in ("<=", ">") and not cart:
            raise _Unreadable(f"{f} {op} {_clip(text, 20)}: a numeric condition is {f} <= t or {f} > t "
                              f"(C4.5's two branches)")
        try:
            t = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise _Unreadable(f"{f} {op} {_clip(text, 20)!r}: the threshold is not a number") from None
        return f, _Cut(op, t)


    def check_measure(self, number, body, m: _Measure, answer_text) -> ClaimResult:
        kind = _KIND[m.name]
        target = self.data.target
        mentioned = [v for v in tuple(m.left) + tuple(m.given) + ((m.split_on,) if m.split_on else ())
                     if isinstance(v, str) and v != target]
        if len(mentioned) == 1:
            self.last_feature = mentioned[0]
        quantity = _canonical(m)
        value, steps, before, parts = self.evaluate(m, None, quantity)
        value = _simplify(value)
        answer, verdict, message = self.judge_chain(value, answer_text, parts)
        expected_decimal = decimal_text(value, max(self.digits, answer.decimals))
        explanation = before + _steps_lines(quantity, steps + [_exact_text(value), decimal_text(value, self.digits)])
        try:
            diagnosis = diagnose(self, m, value, answer) if verdict == "wrong" else None
        except _Unreadable:  # a mistake computed from the rows of a numeric or incomplete column
            diagnosis = None
        if verdict == "wrong":
            message = self.c45_gain_note(m, answer) or message
        return ClaimResult(number, body, kind, verdict, answer=answer.text, answer_value=answer.value,
                           expected=value, expected_decimal=expected_decimal, message=message,
                           explanation=tuple(explanation), quantity=quantity, diagnosis=diagnosis)


# -- small helpers -------------------------------------------------------------------------


# -- the public entry ---------------------------------------------------------------------

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
    if criterion not in _CRITERIA:
        raise InfotreeError(f"unknown criterion {criterion!r}; allowed: gain, gain_ratio, gain_ratio_plain, "
                            f"gini, entropy, misclassification")
    criterion = _CRITERIA[criterion]
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


def _conventions(checker, tolerance, min_digits, min_decimals, log) -> tuple:
    """((name, value, meaning), ...): the conventions a sheet is graded under, for the report's header."""
    out = [("precision", f"{min_decimals} decimals or {min_digits} significant digits",
            f"a rounded decimal is right with at least {min_decimals} decimal places or {min_digits} significant "
            f"digits")]
    if tolerance is not None:
        out.append(("tolerance", counts_text(tolerance), f"numbers within {counts_text(tolerance)} are right"))
    out.append(("log", log, "'log' in answers is " + ("log2" if log == "2" else "ln")))
    g = checker.grower
    if g.criterion.name in ("gain_ratio",):
        out.append(("c45_gain", checker.c45_gain,
                    "the gain of a numeric attribute is C4.5 Release 8's, less log2(cuts)/n" if checker.c45_gain == "mdl"
                    else "the gain of a numeric attribute is the plain gain at its best cut (textbooks)"))
    if g.numeric_any:
        out.append(("threshold", g.threshold_rule,
                    "a numeric cut is at the largest data value below the midpoint" if g.threshold_rule == "data"
                    else "a numeric cut is at the midpoint between two data values"))
    if g.binary:
        out.append(("risk_units", checker.risk_units,
                    "cost-complexity risks R(t) and alphas count misclassified rows" if checker.risk_units == "count"
                    else "cost-complexity risks are rates: R(t) = r(t)·p(t), alphas divided by n"))
    return tuple(out)


_DECIMAL = re.compile(r"(?<![\d.])\d{0,20}\.\d{1,50}(?![\d.])")
# CART's worked solution with --lookahead 1: "decrease with lookahead 1 (outlook, each side split once more at
# best) = 113/490", read as Decrease_lookahead(outlook) = 113/490.
_LOOKAHEAD_LINE = re.compile(r"^decrease with lookahead 1 \(([^(),]{1,200}), each side split once more at best\)")


