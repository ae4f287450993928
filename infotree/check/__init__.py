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

* :mod:`.names` — the data's names as students write them (any case);
* :mod:`.answers` — the right-hand side: decimals, percentages, expressions in
  students' habits (``log``, ``ln``, implicit products, decimals), read through
  :func:`~infotree.parse.parse_exact`;
* this module — reading the file, the claim grammar (H, I, IG, SplitInfo, GR, textbook
  notations, chains), exact evaluation and grading (right, imprecise, close, wrong);
* :mod:`.diagnosis` — the usual mistake a wrong number matches;
* :mod:`.printed` — infotree's own ``--steps`` and ``measures`` prose, skipped when fed back;
* :mod:`.treetext` — reading tree text (infotree's, J48's, space-indented) in linear time;
* :mod:`.trees` — grading a tree node by node against ``build_tree``, with carry-forward;
* :mod:`.command` — ``infotree check``, with ``tree``'s options from :mod:`infotree.cli`.

No ``eval`` anywhere: the left-hand side has its own small tokenizer, the right-hand side
goes to ``parse_exact``; files, lines, decimals, logarithm arguments and count tables are
bounded (:data:`MAX_FILE_CHARS`, :data:`MAX_LINES`, :data:`MAX_LINE_LENGTH`,
:data:`MAX_DECIMALS`, :data:`MAX_LOG_ARGUMENT`, :data:`MAX_CLAIM_CELLS`).
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from ..criteria import C45GainRatio
from ..errors import InfotreeError
from ..exact import Exact, Ratio, decimal_text
from ..forms import conditional_entropy_form, counts_text, entropy_form, h_of
from ..forms import gini_form, misclassification_form
from ..measures import gini, information_gain_from_table, misclassification, split_information_from_table
from ..measures import (
    conditional_entropy,
    conditional_mutual_information,
    entropy_of_labels,
    mutual_information,
)
from .answers import MAX_DECIMALS, MAX_LOG_ARGUMENT, Answer, read_answer, significant_digits
from .diagnosis import diagnose
from .forests import ForestClaims
from .names import Names, Unreadable, did_you_mean
from .notation import at_region, best_split, region_definition, rewrite, threshold_claim
from .printed import claim_after_facts, context_path, is_prose, is_table_heading
from .pruning import CpTableText, PruningClaims
from .report import SCHEMA_VERSION, VERDICTS, format_text, report_json  # noqa: F401 (the package's API)
from .treetext import (ClaimedLeaf, TreeTextError, arrow_lines, is_arrow_line, is_arrow_root, is_ignored, is_tree_line,
                       read_tree)
from .trees import (Expected, Grower, binary_choices, complement, cond_text, grade_tree, number_text,
                    split_condition, where)

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


class _Undefined(Unreadable):
    """A measure that has no value here (no row; a gain ratio with split information 0)."""


# -- results ---------------------------------------------------------------------------

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


def _clip(s: str, limit: int = 60) -> str:
    return s if len(s) <= limit else s[:limit] + "..."


# -- the left-hand side: a small tokenizer -----------------------------------------------

# punctuation | 'quoted' | "quoted" | a name: a run without punctuation or quotes, trimmed
# | {a set, of values} (CART's subsets)
_LHS_TOKEN = re.compile(r"""\s*(?:([(),;|=≈∣<>≤≥])|'([^']*)'|"([^"]*)"|(\{[^{}]{0,1000}\})|"""
                        r"""([^(),;|=≈∣<>≤≥'"{}\s](?:(?:_\{[^{}]{0,200}\}|[^(),;|=≈∣<>≤≥'"{}])*"""
                        r"""(?:_\{[^{}]{0,200}\}|[^(),;|=≈∣<>≤≥'"{}\s]))?))""")  # S_{sunny}: a subscript


@dataclass(frozen=True)
class _Cut:
    """A numeric condition in place of a value: ``<= t`` or ``> t`` (C4.5's two branches and CART's);
    under CART also rpart's ``< t`` and ``>= t``."""

    op: str
    t: Fraction

    def __str__(self):
        return f"{self.op} {number_text(self.t)}"

    def cond(self, var):
        return (var, self.op, self.t)


@dataclass(frozen=True)
class _Subset:
    """CART's subset condition: ``in {a, b}`` or ``not in {a, b}`` (values in domain order)."""

    op: str
    values: tuple

    def __str__(self):
        return f"{self.op} {{{', '.join(self.values)}}}"

    def cond(self, var):
        return (var, self.op, self.values)


@dataclass(frozen=True)
class _Known:
    """The rows where a feature's value is known: ``SSE(Ozone | Solar.R known)`` (a regression decrease is
    over them when the feature is missing in some rows)."""

    def __str__(self):
        return "known"

    def cond(self, var):
        return (var, "known", None)


def _cond_text(var, value) -> str:
    return f"{var} {value}" if isinstance(value, (_Cut, _Subset, _Known)) else f"{var} = {value}"


def _as_cond(var, value) -> tuple:
    """(feature, op, value) of a path step, as the grader's masks read it."""
    return value.cond(var) if isinstance(value, (_Cut, _Subset, _Known)) else (var, "=", value)
_MEASURES = {
    "h": "H", "entropy": "H", "info": "H",
    "i": "I", "mi": "I", "mutualinformation": "I",
    "ig": "IG", "gain": "IG", "infogain": "IG", "informationgain": "IG",
    "splitinfo": "SplitInfo", "splitinformation": "SplitInfo", "iv": "SplitInfo", "intrinsicvalue": "SplitInfo",
    "gr": "GR", "gainratio": "GR",
    # CART's impurities (exact rationals) and the decrease of the Gini index a split gives.
    "gini": "Gini", "giniindex": "Gini", "giniimpurity": "Gini",
    "me": "ME", "misclassification": "ME", "misclassificationerror": "ME", "classificationerror": "ME",
    "ginigain": "GiniGain", "ginidecrease": "GiniGain", "err": "ME",
    # CART's decrease of the impurity by a feature's best binary split (or by a split written out), and
    # rpart's improvement n × decrease; ΔGini, ΔErr, ΔH as infotree's worked solution writes them.
    "δgini": "Decrease", "δerr": "Decrease", "δme": "Decrease", "δh": "Decrease", "decrease": "Decrease",
    "impuritydecrease": "Decrease", "improvement": "Improvement",
    # regression trees: a node's sum of squared errors Σ(y − ȳ)² and its mean ȳ
    "sse": "SSE", "sumofsquarederrors": "SSE", "rss": "SSE", "residualsumofsquares": "SSE", "δsse": "Decrease", "mean": "Mean", "meanȳ": "Mean", "ȳ": "Mean", "ŷ": "Mean", "yhat": "Mean",
    "y\u0302": "Mean", "y\u0304": "Mean",
}
# The impurity a decrease measures: ΔGini, ΔErr, ΔH; Decrease and Improvement: the criterion's.
_DECREASE_OF = {"δgini": "Gini", "ginigain": "Gini", "ginidecrease": "Gini", "δerr": "ME", "δme": "ME", "δh": "H",
                "δsse": "SSE"}
_IMPURITY = ("H", "Gini", "ME", "SSE", "Mean")   # measures of a node's classes: Entropy(S), Gini(S), Gini(S, A) forms
_TREE_CLAIMS = ("root", "split", "leaf")
# A data set in textbook notation (not a variable of the data): S, D, S_sunny, D_youth, S_{sunny}.
_SAMPLE = re.compile(r"[SD](?:_\{?([^{}]{1,200}?)\}?)?")


def _measure_head(text: str):
    """(measure, subscript) of a claim's head: ``Gain`` → (IG, None), ``Info_age`` → (H, "age")."""
    n = _norm_name(text)
    if n in _MEASURES:
        return _MEASURES[n], None
    for i, c in enumerate(text):
        if c == "_" and i and _norm_name(text[:i]) in _MEASURES and text[i + 1:].strip():
            return _MEASURES[_norm_name(text[:i])], text[i + 1:].strip()
    return None
_KIND = {"H": "entropy", "I": "mutual_information", "IG": "information_gain",
         "SplitInfo": "split_information", "GR": "gain_ratio", "Gini": "gini", "ME": "misclassification",
         "GiniGain": "gini_gain", "Decrease": "impurity_decrease", "Improvement": "improvement", "SSE": "sse",
         "Mean": "mean"}


def _norm_name(word: str) -> str:
    return re.sub(r"[\s_\-]", "", word).lower()


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos  # kind: "p" punctuation or "w" name


def _split_claim(body: str, split=True):
    """Tokens of the left-hand side up to the first ``=``/``≈`` outside parentheses, and the rest
    (``split=False``: every token, and None)."""
    toks, pos, depth = [], 0, 0
    while pos < len(body):
        m = _LHS_TOKEN.match(body, pos)
        if not m or m.end() == pos:
            rest = body[pos:].lstrip()
            if not rest:
                break
            if rest[0] in "'\"":
                raise _Unreadable(f"quote {rest[0]} at position {len(body) - len(rest) + 1} is never closed")
            if rest[0] == "{":
                raise _Unreadable(f"'{{' at position {len(body) - len(rest) + 1} is never closed; a set of values "
                                  f"is written {{a, b}}")
            raise _Unreadable(f"cannot read {_clip(rest, 30)!r}")
        punct, sq, dq, braces, word = m.groups()
        start = m.end() - len(m.group().lstrip())
        pos = m.end()
        if punct:
            p = {"≈": "=", "∣": "|", "≤": "<=", "≥": ">="}.get(punct, punct)
            if p == "=" and depth == 0 and split:
                return toks, body[pos:]
            depth += p == "("
            depth -= p == ")"
            toks.append(_Tok("p", p, start))
        elif braces is not None:
            toks.append(_Tok("s", braces, start))
        else:
            toks.append(_Tok("w", sq if sq is not None else dq if dq is not None else word, start))
    return toks, None


# -- the right-hand side ---------------------------------------------------------------

def _safe_decimal(value, digits) -> str | None:
    """The decimal of a student's exact value, or None when it is too large to show."""
    if isinstance(value, Fraction):
        if max(abs(value.numerator), value.denominator).bit_length() > 1000:
            return None
        return decimal_text(value, digits)
    parts = [value] if isinstance(value, Exact) else [value.num, value.den]
    for x in parts:
        for c in (x.c0, *(c for _, c in x.terms)):
            if max(abs(c.numerator), c.denominator).bit_length() > 1000:
                return None
    try:
        return decimal_text(value, digits)
    except (OverflowError, ValueError, InfotreeError):
        return None


def _nats_text(x, digits) -> str:
    """x·ln 2 to show (not to grade): a value written in natural logarithms, in nats."""
    import math

    return f"{float(x) * math.log(2):.{digits}f}"


def _exact_text(x) -> str:
    if isinstance(x, Fraction):
        return counts_text(x)
    return str(x)


def _simplify(x):
    """A rational Exact as the Fraction it is."""
    if isinstance(x, Exact) and x.is_rational():
        return x.c0
    return x


# -- the checker -----------------------------------------------------------------------

@dataclass(frozen=True)
class _Measure:
    name: str                  # H, I, IG, SplitInfo, GR, Gini, ME, GiniGain, Decrease, Improvement
    left: tuple                # H: variables; I: (group A, group B); IG/SplitInfo/GR: (variable,)
    given: tuple               # variables averaged over
    fixed: tuple               # ((variable, value), ...)
    split_on: str | None = None   # CART: Gini(Y | split on A), the weighted impurity of A's best binary split
    split: tuple | None = None    # CART: the split a decrease is of, (feature, _Cut or _Subset); None: A's best
    impurity: str | None = None   # Decrease, Improvement: the impurity measured (Gini, ME, H)
    known: bool = False           # H_known(Y): on the rows where the feature just measured is known (C4.5)
    lookahead: bool = False       # IG_lookahead(A), GR_lookahead(A), Decrease_lookahead(A): the two-level score


class _TextbookC45(C45GainRatio):
    """C4.5 as textbooks print it: a numeric attribute's gain is the plain gain at its best cut, without
    Release 8's log2(cuts)/n (``--c45-gain plain``); the tree is grown with that gain too."""

    mdl = False


class _Checker:
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
            from ..tree import target_numbers

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
            if node is None:   # a region is a node of the tree itself: no carry-forward below another split
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

    def node_of_tree(self, path):
        """(the expected tree's node at ``path``, None) or (None, why the tree has no such node)."""
        node, conds = self.grower.tree.root, ()
        for i, (var, val) in enumerate(path):
            cond = _as_cond(var, val)
            b = None
            if node.split is not None and self.grower.binary:
                b = self.grower.side_named(conds, node.test, node.split_feature, cond)
            elif node.split is not None and node.split_feature == var:
                b = _branch_of(node.test, var, val)
            if b is None:
                here = _where_the(path[:i])
                did = "is a leaf" if node.split is None else f"splits on {node.split_feature}"
                return None, f"the tree has no node {_where(path)}: {here} {did}, not on {_cond_text(var, val)}"
            if self.grower.binary:
                conds += (split_condition(node.test, b, node.split_feature),)
            node = node.children[b]
        return node, None

    def check_threshold(self, number, body, feature_text, answer_text) -> ClaimResult:
        """``best threshold for humidity = 82.5``: the cut of the feature's best split at the current node."""
        f = self.names.feature(feature_text)
        if self.names.kinds[f] != "numeric":
            raise _Unreadable(f"{f} is nominal: it has no threshold (give --numeric {f} if it holds numbers)")
        quantity = f"threshold({_with_conditions('', f, (), self.in_context(()))[1:-1]})" if self.context else \
            f"threshold({f})"
        c = self.candidate(self.in_context(()), f, quantity)
        t = c.threshold if c.threshold is not None else getattr(getattr(c, "split", None), "threshold", None)
        if t is None:
            raise _Undefined(f"{quantity}: {f} has no cut here (a single value on these rows)")
        answer = read_answer(answer_text, log=self.log)
        verdict, message = ("right", "") if answer.value == t else ("wrong", f"{answer.text} is not the cut {number_text(t)}")
        if verdict == "wrong":
            rule = self.grower.threshold_rule
            other = self.midpoint_of(f, t, rule)
            if other is not None and answer.value == other:
                message = (f"under --threshold {rule} the cut of {f} is {number_text(t)}"
                           + (" (the largest data value below the midpoint {})".format(number_text(other))
                              if rule == "data" else " (the midpoint between the two data values)")
                           + f"; {answer.text} is the {'midpoint' if rule == 'data' else 'data value'} rule's")
        return ClaimResult(number, body, "threshold", verdict, answer=answer.text, answer_value=answer.value,
                           expected=t, expected_decimal=number_text(t), quantity=quantity, message=message)

    def midpoint_of(self, f, t, rule):
        """The same cut under the other threshold rule: the midpoint above a data threshold, or the largest
        data value below a midpoint."""
        j = self.data.features.index(f)
        values = sorted({x for x in self.grower.numbers(j) if x is not None})
        if rule == "data":
            above = [x for x in values if x > t]
            return (t + above[0]) / 2 if above else None
        below = [x for x in values if x < t]
        return below[-1] if below else None

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

    def rows(self, fixed):
        target = self.data.target
        mask = self.grower.mask([_as_cond(var, val) for var, val in fixed if var != target])
        for var, val in fixed:
            if var == target:  # H(outlook | play = yes): the target as a condition
                mask &= self.columns[var] == self.domain[var].index(val)
        if not mask.any():
            where = ", ".join(_cond_text(v, x) for v, x in fixed)
            raise _Undefined(f"no row of the data has {where}; the measure is undefined")
        return mask

    def joint(self, names, mask):
        for v in names:
            if self.names.kinds[v] == "numeric":
                # C4.5 measures a numeric feature at its best cut (with an MDL term); reading each value
                # as a category would grade such claims against another quantity.
                raise _Unreadable(f"{v} is numeric: it is measured at its best cut, one feature at a time "
                                  f"(IG({v}), GR({v}), SplitInfo({v}), H({self.data.target} | {v})); "
                                  f"--categorical {v} reads its values as categories")
            if (self.columns[v][mask] < 0).any():
                raise _Unreadable(f"{v} has missing values on these rows: C4.5 measures it one feature at a time "
                                  f"(IG({v}), GR({v}), SplitInfo({v}), H({self.data.target} | {v})); this form "
                                  f"needs complete columns")
        cols = [self.columns[v][mask].tolist() for v in names]
        return list(zip(*cols)) if cols else [()] * int(mask.sum())

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

    def c45_gain_note(self, m: _Measure, answer):
        """For C4.5's gain (or gain ratio) of a numeric attribute answered in the other convention (with or
        without Release 8's log2(cuts)/n), the message that says so; None otherwise."""
        if self.criterion != "gain_ratio" or m.name not in ("IG", "GR") or m.given or len(m.left) != 1 or m.split or \
                self.names.kinds.get(m.left[0]) != "numeric":
            return None
        try:
            c = self.candidate(m.fixed, m.left[0], _canonical(m))
        except _Unreadable:
            return None
        if not c.n_cuts or c.n_cuts < 2:
            return None
        penalty = Exact.log2(c.n_cuts) / Fraction(c.n)
        plain = c.gain + penalty if self.c45_gain == "mdl" else c.gain
        reduced = plain - penalty
        other = plain if self.c45_gain == "mdl" else reduced
        if m.name == "GR":
            if not c.split_info:
                return None
            other = Ratio(other, c.split_info)
        if self.judge(other, answer)[0] != "right":
            return None
        term = f"log2(cuts)/n = log2({c.n_cuts})/{number_text(Fraction(c.n))} = {decimal_text(penalty, self.digits)}"
        if self.c45_gain == "mdl":
            return (f"under C4.5 Release 8 (--c45-gain mdl) the gain of a numeric attribute is reduced by {term}; "
                    f"your value is the plain gain at the cut (--c45-gain plain grades it so)")
        return (f"your value is C4.5 Release 8's gain, reduced by {term}; this sheet is graded with the plain gain "
                f"at the cut (--c45-gain plain; --c45-gain mdl grades Release 8's)")

    def evaluate(self, m: _Measure, mask, quantity):
        """The exact value (by infotree.measures on label sequences), the textbook steps, the
        derivation lines of its parts, and ``(op, x, y)`` when it is x - y or x / y."""
        target = self.data.target
        at_node = self.node_value(m, quantity)
        if at_node is not None:
            return at_node
        if mask is None:
            mask = self.rows(m.fixed)
        if m.name in ("Gini", "ME"):
            value, steps = self.impurity(m.name, m.left, m.given, mask)
            return value, steps, [], None
        if m.name == "GiniGain":
            parent, p_steps = self.impurity("Gini", (target,), (), mask)
            child, c_steps = self.impurity("Gini", (target,), tuple(m.left) + tuple(m.given), mask)
            sym = (f"{_with_conditions('Gini', target, m.given, m.fixed)} - "
                   f"{_with_conditions('Gini', target, tuple(m.left) + tuple(m.given), m.fixed)}")
            return parent - child, [sym, f"[{p_steps[-1]}] - [{c_steps[-1]}]"], [], ("-", parent, child)
        if m.name in ("H", "SplitInfo"):
            value, steps = self.entropy(m.left, m.given, mask)
            if m.name == "SplitInfo":
                steps = [_h_symbol(m.left, m.given, m.fixed)] + steps
            return value, steps, [], None
        a, b = m.left if m.name == "I" else (m.left, (target,))
        value, steps, parts = self.information(a, b, m.given, m.fixed, mask)
        if m.name != "GR":
            return value, steps, [], parts
        si, si_steps = self.entropy(a, m.given, mask)
        ig_name = _with_conditions("IG", ", ".join(a), m.given, m.fixed)
        si_name = _with_conditions("SplitInfo", ", ".join(a), m.given, m.fixed)
        if not si:
            raise _Undefined(f"{quantity} is undefined: {si_name} = 0 ({', '.join(a)} has a single value "
                              f"on these rows)")
        d = self.digits
        before = (_steps_lines(ig_name, steps + [_exact_text(_simplify(value)), decimal_text(value, d)])
                  + _steps_lines(si_name, [_h_symbol(a, m.given, m.fixed)] + si_steps
                                 + [_exact_text(_simplify(si)), decimal_text(si, d)]))
        return Ratio(value, si), [f"{ig_name} / {si_name}"], before, ("/", value, si)

    # -- measures from the builder's records at a node: C4.5's weights and cuts, CART's binary splits --
    def tree_node(self, fixed):
        """The builder's node (of the expected tree) at the path ``fixed``, or None."""
        node = self.grower.tree.root
        for var, val in fixed:
            if node is None or node.split_feature != var:
                return None
            b = _branch_of(node.test, var, val)
            if b is None:
                return None
            node = node.children[b]
        return node

    def node_at(self, fixed):
        """The node whose candidates a measure of a feature at ``fixed`` reads: the expected tree's (C4.5
        weights included), else the builder's examination of the rows that satisfy ``fixed``."""
        node = self.tree_node(fixed)
        if node is not None and node.candidates():
            return node
        return self.grower.examined_at(tuple(_as_cond(v, x) for v, x in fixed if v != self.data.target))

    def candidate(self, fixed, feature, quantity):
        """The builder's record of ``feature`` at the node of ``fixed``: the expected tree's, else (a node the
        tree does not split, or one where a minimum size left the feature out) the builder's examination of
        the node's rows with no minimum size."""
        node = self.node_at(fixed)
        for c in (() if node is None else node.candidates()):
            if c.feature == feature:
                return c
        node = self.grower.examined_at(tuple(_as_cond(v, x) for v, x in fixed if v != self.data.target))
        for c in (() if node is None else node.candidates()):
            if c.feature == feature:
                return c
        raise _Unreadable(f"{quantity}: {feature} is no candidate at this node (the builder does not "
                          f"examine it here)")

    def node_value(self, m: _Measure, quantity):
        """(value, steps, [], parts) of a measure read from the builder's records at a node, or None when
        the rows give it (complete nominal columns, no weights): C4.5's measures of a numeric feature (at
        its cut, with the MDL term) or of one with missing values (gain × known fraction, split information
        with the missing branch), measures at a node reached with fractional weights (an ``At`` line of the
        worked solution), and CART's binary splits (ΔGini, improvement, split on A)."""
        target = self.data.target
        if m.lookahead:
            c = self.candidate(m.fixed, m.left[0], quantity)
            value = c.lookahead_ratio if m.name == "GR" else c.lookahead
            if value is None:
                raise _Unreadable(f"{quantity}: no two-level score here; the tree is grown with --lookahead 0 "
                                  f"(give --lookahead 1, as tree was)")
            return value, [f"the two-level score of {m.left[0]} at this node"], [], None
        if self.regression or m.name in ("SSE", "Mean"):
            return self.regression_value(m, quantity)
        if m.name in ("IG", "GR", "SplitInfo") and m.split is not None:
            return self.split_measure(m, quantity)
        numbers = {"Gini": gini, "ME": misclassification, "H": _entropy_of_counts}
        if m.name in ("Decrease", "Improvement") or m.split_on:
            impurity = numbers[m.impurity or m.name if not m.split_on else m.name]
            table = self.split_table(m, quantity)
            n = sum(map(sum, table))
            weighted = sum((Fraction(sum(r), n) * impurity(list(r)) for r in table if sum(r)), Fraction(0))
            if m.split_on:
                return weighted, [" + ".join(f"{sum(r)}/{n}·{m.name}({','.join(map(str, r))})" for r in table)], [], None
            parent = impurity([sum(c) for c in zip(*table)])
            decrease = parent - weighted
            if m.name == "Improvement":
                return decrease * n, [f"{n} × {_exact_text(_simplify(decrease))}"], [], None
            return decrease, [f"{m.impurity}({','.join(map(str, (sum(c) for c in zip(*table))))}) - "
                              f"[{' + '.join(f'{sum(r)}/{n}·{m.impurity}({chr(44).join(map(str, r))})' for r in table)}]"], \
                [], ("-", parent, weighted)
        if m.known:
            c = self.candidate(m.fixed, self.last_feature, quantity)
            counts = [sum(col) for col in zip(*c.table)]
            return _entropy_of_counts(counts), [h_of(counts)], [], None
        single = len(m.left) == 1 and not isinstance(m.left[0], tuple)
        weighted_data = not self.grower.complete
        if m.name in ("IG", "GR", "SplitInfo") and single and not m.given and (
                self.names.kinds[m.left[0]] == "numeric" or weighted_data) and not self.grower.binary:
            # (CART's candidates are binary splits: its IG and GR of a nominal feature stay its values')
            c = self.candidate(m.fixed, m.left[0], quantity)
            if m.name == "IG":
                return c.gain, [f"C4.5's gain of {m.left[0]} at this node"], [], None
            if m.name == "SplitInfo":
                return c.split_info, [f"C4.5's split information of {m.left[0]} at this node"], [], None
            if c.gain_ratio is None:
                raise _Undefined(f"{quantity} is undefined: its split information is 0")
            return c.gain_ratio, [f"IG({m.left[0]}) / SplitInfo({m.left[0]})"], [], ("/", c.gain, c.split_info)
        if m.name == "H" and m.left == (target,) and len(m.given) == 1 and not self.grower.binary and (
                self.names.kinds[m.given[0]] == "numeric" or weighted_data):
            c = self.candidate(m.fixed, m.given[0], quantity)
            return c.conditional_entropy, [f"the branches of {m.given[0]} at this node"], [], None
        if m.name in _IMPURITY and m.left == (target,) and not m.given and (weighted_data or self.grower.binary
                                                                             or self.context):
            f = numbers[m.name]
            if m.fixed and isinstance(m.fixed[-1][1], _Known):
                # the node's rows with the feature known: its candidate's branches together
                c = self.candidate(m.fixed[:-1], m.fixed[-1][0], quantity)
                counts = [sum(col) for col in zip(*c.table)]
                return f(counts), [_counts_symbol(m.name, counts)], [], None
            if m.fixed and m.fixed == self.context:
                node = self.tree_node(m.fixed)
                if node is not None:
                    counts = node.class_counts.tolist()
                    return f(counts), [_counts_symbol(m.name, counts)], [], None
            if m.fixed:
                node = self.tree_node(m.fixed[:-1])
                var, val = m.fixed[-1]
                if node is not None and var in self.data.features:
                    for c in node.candidates():
                        if c.feature == var:
                            split = getattr(c, "split", None) or _test_of(c, self.data.features.index(var))
                            b = _branch_of(split, var, val)
                            if b is not None:
                                counts = list(c.table[b])
                                return f(counts), [_counts_symbol(m.name, counts)], [], None
        return None

    def split_measure(self, m: _Measure, quantity):
        """IG, SplitInfo or GR of a split written out (``Gain(S, hours <= 4.5)``): its two branches on the
        node's rows with the feature known; C4.5's known fraction and missing branch when some are missing."""
        rows = self.rows(m.fixed)
        f, v = m.split
        known = rows & (self.columns[f] >= 0)
        side = known & self.grower.side_mask(*_as_cond(f, v))
        table = (self.class_counts(side), self.class_counts(known & ~side))
        unknown = self.class_counts(rows & ~known)
        gain = information_gain_from_table(table)
        n, n_known = int(rows.sum()), int(known.sum())
        if n_known < n:
            gain = gain * Fraction(n_known, n)
        si = split_information_from_table(table + ((unknown,) if n_known < n else ()))
        shown = _cond_text(f, v)
        if m.name == "IG":
            return gain, [f"the gain of the split {shown}: {table[0]} | {table[1]}"], [], None
        if m.name == "SplitInfo":
            return si, [f"the split information of {shown}: {sum(table[0])} | {sum(table[1])} rows"], [], None
        if not si:
            raise _Undefined(f"{quantity} is undefined: the split information of {shown} is 0")
        return Ratio(gain, si), [f"IG({shown}) / SplitInfo({shown})"], [], ("/", gain, si)

    def regression_value(self, m: _Measure, quantity):
        """A regression tree's measures (exact): SSE(Y | node) = Σ(y − ȳ)², Mean(Y | node), SSE(Y | split on A)
        = SSE(left) + SSE(right), ΔSSE(A) and rpart's improvement ΔSSE / SSE(node)."""
        target = self.data.target
        if not self.regression:
            raise _Unreadable(f"{quantity}: SSE and Mean are a regression tree's measures; check with "
                              f"--criterion squared-error")
        if m.name not in ("SSE", "Mean", "Decrease", "Improvement") or (m.left != (target,) and m.name in (
                "SSE", "Mean")) or m.given:
            raise _Unreadable(f"{quantity}: a regression tree's measures are SSE({target} | node), "
                              f"Mean({target} | node), SSE({target} | split on A), ΔSSE(A) and Improvement(A)")
        if m.split_on or m.name in ("Decrease", "Improvement"):
            if m.split is not None:
                table, whole = self.split_table(m, quantity), self.stats(self.rows(m.fixed))
            else:
                c = self.candidate(m.fixed, m.split_on or m.left[0], quantity)
                table, whole = c.table, None
            parts = [_sse(r) for r in table]
            if m.split_on:
                return sum(parts, Fraction(0)), [" + ".join(_exact_text(p) for p in parts)], [], None
            parent = _sse([sum(col) for col in zip(*table)])
            decrease = parent - sum(parts, Fraction(0))
            if m.name == "Decrease":
                return decrease, [f"{_exact_text(parent)} - ({' + '.join(_exact_text(p) for p in parts)})"], [], \
                    ("-", parent, sum(parts, Fraction(0)))
            node_sse = _sse(whole) if whole is not None else c.node_sse
            return decrease / node_sse, [f"({_exact_text(decrease)})/({_exact_text(node_sse)})"], [], None
        stats = None
        if m.fixed and isinstance(m.fixed[-1][1], _Known):
            # the rows of the node with the feature known: its candidate's two sides together
            c = self.candidate(m.fixed[:-1], m.fixed[-1][0], quantity)
            stats = tuple(sum(col) for col in zip(*c.table))
        elif m.fixed and m.fixed == self.context:
            node = self.tree_node(m.fixed)
            stats = None if node is None else tuple(node.class_counts.tolist())
        elif m.fixed:
            node = self.tree_node(m.fixed[:-1])
            var, val = m.fixed[-1]
            if node is not None and var in self.data.features:
                for c in node.candidates():
                    b = _branch_of(c.split, var, val) if c.feature == var else None
                    if b is not None:
                        stats = c.table[b]
        if stats is None:
            stats = self.stats(self.rows(m.fixed))
        n, sy, sq = stats
        if m.name == "Mean":
            return Fraction(sy) / n, [f"{_exact_text(Fraction(sy))}/{_exact_text(Fraction(n))}"], [], None
        return _sse(stats), [f"{_exact_text(Fraction(sq))} - {_exact_text(Fraction(sy))}²/{_exact_text(Fraction(n))}"], \
            [], None

    def stats(self, mask):
        """(n, Σy, Σy²) of a regression target on the masked rows, exact."""
        ys = [self.y_numbers[c] for c in np.asarray(self.data.y)[mask].tolist()]
        return len(ys), sum(ys, Fraction(0)), sum((y * y for y in ys), Fraction(0))

    def split_table(self, m: _Measure, quantity):
        """CART: the class counts of the two branches of the split a measure is of (a split written out,
        on the node's rows with its value known, or the feature's best split at the node)."""
        if m.split is None:
            return self.candidate(m.fixed, m.split_on or m.left[0], quantity).table
        rows = self.rows(m.fixed)
        f, v = m.split
        side = rows & self.grower.side_mask(*_as_cond(f, v))
        other = rows & ~side & (self.columns[f] >= 0)
        count = self.stats if self.regression else self.class_counts
        return count(side), count(other)

    def class_counts(self, mask):
        return tuple(np.bincount(np.asarray(self.data.y)[mask], minlength=len(self.data.classes)).tolist())

    def entropy(self, left, given, mask):
        """H(left | given) on the masked rows, with its textbook form."""
        L = self.joint(left, mask)
        if not given:
            counts = [c for _, c in sorted(Counter(L).items())]
            self.budget(left, (), len(counts), 1)
            return entropy_of_labels(L), [h_of(counts), entropy_form(counts, style="inverse")]
        C = self.joint(given, mask)
        self.budget(left, given, len(set(L)), len(set(C)))
        return conditional_entropy(L, given=C), [conditional_entropy_form(_table(C, L))]

    def impurity(self, kind, left, given, mask):
        """Gini(left | given) or ME(left | given) on the masked rows: the impurity of each group of
        ``given`` weighted by its share of the rows, exactly, with its textbook form."""
        f, form = (gini, gini_form) if kind == "Gini" else (misclassification, misclassification_form)
        L = self.joint(left, mask)
        C = self.joint(given, mask) if given else [()] * len(L)
        self.budget(left, given, len(set(L)), len(set(C)))
        n = len(L)
        rows = _table(C, L)  # every class that occurs on these rows, zero counts kept: Gini(0,4)
        value = sum((Fraction(sum(r), n) * f(r) for r in rows), Fraction(0))
        if not given:
            return value, [form(rows[0])]
        return value, [" + ".join(f"{sum(r)}/{n}·{kind}({','.join(map(str, r))})" for r in rows)]

    def budget(self, left, given, n_left, n_given):
        """Refuse a claim whose count table (values of ``given`` by values of ``left``) is too large:
        its derivation is printed cell by cell (I(a,b,c;d,e|f) on 5,000 rows of ID-like columns
        took 15 s and 700 MB before this limit)."""
        cells = n_left * n_given
        if cells > self.max_claim_cells:
            what = _h_symbol(left, given, ())
            raise _Unreadable(f"{what} needs a count table of {n_given:,} x {n_left:,} = {cells:,} cells; at most "
                              f"{self.max_claim_cells:,} are allowed (raise the limit with --max-claim-cells)")

    def information(self, a, b, given, fixed, mask):
        """I(a; b | given) on the masked rows, its form H(b | given) - H(b | a, given), and those two parts."""
        h1, (form1, *_) = self.entropy(b, given, mask)
        h2, (form2, *_) = self.entropy(b, tuple(a) + tuple(given), mask)
        A, B = self.joint(a, mask), self.joint(b, mask)
        if given:
            value = conditional_mutual_information(A, B, given=self.joint(given, mask))
        else:
            value = mutual_information(A, B)
        symbolic = f"{_h_symbol(b, given, fixed)} - {_h_symbol(b, tuple(a) + tuple(given), fixed)}"
        return value, [symbolic, f"{_bracket(form1)} - {_bracket(form2)}"], ("-", h1, h2)

    def judge_chain(self, value, answer_text, parts=None):
        """(final answer, verdict, message) of an answer that may be a chain ``= expr = ... = 0.971``."""
        *steps_written, final = _chain(answer_text)
        answer = read_answer(final, log=self.log)
        verdict, message = self.judge(value, answer, parts)
        # A chain "= H(3,2) = -(3/5)log2(3/5) - ... = 0.971": every step that reads as a number or an
        # expression must be right too; steps written with measure names are working, not graded.
        exact_step = False
        for k, step in enumerate(steps_written, 1):
            try:
                a = read_answer(step, log=self.log)
            except _Unreadable:
                continue
            v, msg = self.judge(value, a, parts)
            exact_step |= v == "right" and a.form == "exact"
            if v == "wrong":
                verdict, message = "wrong", f"step {k} ({_clip(step.strip(), 40)}): {msg}"
                break
        if verdict == "imprecise" and exact_step:
            # "= 7/900 = 0.0078": the exact value is written; the decimal after it only shows its size
            verdict, message = "right", ""
        if verdict == "close" and answer.form == "decimal" and parts is not None:
            via = _rounded_parts(parts, answer.decimals)
            if via is not None and via[1] == answer.value and self.shows(via[2], steps_written):
                # 0.940 - 0.694 = 0.246: the sheet's own rounded values, subtracted right
                verdict, message = "right", f"computed from the rounded values the sheet shows: {via[0]}"
        if verdict == "close" and answer.form == "decimal":
            for step in steps_written:
                shown = self.rounded_working(value, step, answer)
                if shown is not None:
                    verdict, message = "right", f"computed from the rounded values the sheet shows: {shown}"
                    break
        if verdict in ("right", "close") and answer.form == "decimal":
            self.stated.add(answer.value)
        return answer, verdict, message

    def rounded_working(self, value, step, answer):
        """The working of a step such as ``0.980 - (10/12)(0.881)`` when it explains a final answer one unit
        off: its value rounds to the answer and lies within the rounding of its own k decimals (k half-units
        of the coarsest, times the largest factor it could be multiplied by, 1) of the exact value; else None."""
        try:
            a = read_answer(step, log=self.log)
        except _Unreadable:
            return None
        if a.form != "approximate" or Fraction(decimal_text(a.value, answer.decimals)) != answer.value:
            return None
        literals = re.findall(r"\d*\.(\d+)", step)
        if not literals:
            return None
        coarsest = min(len(d) for d in literals)
        bound = Fraction(len(literals), 2 * 10 ** coarsest)
        if not _within(value, a.value, bound):
            return None
        return f"{_clip(step.strip(), 60)} = {decimal_text(a.value, answer.decimals)}"

    def shows(self, values, steps) -> bool:
        """Whether every value is written on the sheet: in this line's chain, as a claim's answer, or anywhere
        else on the sheet (a gain ratio from the gain and split information a student writes after it)."""
        written = set(self.stated) | self.sheet_numbers
        for step in steps:
            written.update(Fraction(x) for x in re.findall(r"(?<![\d.])\d*\.\d+|(?<![\d.])\d+(?![\d.])", step))
        return all(v in written for v in values)

    def judge(self, value, answer: Answer, parts=None):
        """(verdict, message) of a number or expression answer against the exact value."""
        tol, digits = self.tolerance, self.digits
        if isinstance(value, int):   # a count (leaves, rows): every grading path takes an exact rational
            value = Fraction(value)
        if answer.form == "exact":
            if value == answer.value:
                return "right", ""
            shown = _safe_decimal(answer.value, digits)
            said = f"your expression is {shown}" if shown is not None else "your expression is another value"
            return "wrong", f"not exactly equal: {said}, the value is {decimal_text(value, digits)}"
        if answer.form == "nats":
            shown = _safe_decimal(answer.value, digits + 2)
            nats = "" if shown is None else f" = {_nats_text(answer.value, digits)}"
            return "wrong", (f"your expression uses natural logarithms: it is a value in nats{nats}; the value is "
                             f"{decimal_text(value, digits)} bits")
        a = answer.value
        within = tol is not None and _within(value, a, tol)
        if answer.form == "integer":
            k = counts_text(a)
            if value == a:
                return "right", ""
            if within:
                return "right", f"within the tolerance {counts_text(tol)} of {decimal_text(value, digits)}"
            if decimal_text(value, 2) == decimal_text(a, 2):
                return "close", (f"the value is {decimal_text(value, digits)}, not exactly {k}; an integer "
                                 f"answer claims the exact value, so write the decimals")
            return "wrong", f"{k} is not the value {decimal_text(value, digits)}"
        d = answer.decimals
        if answer.form == "approximate":
            unit = Fraction(1, 10 ** d)
            at = decimal_text(value, d)
            if within:
                return "right", f"within the tolerance {counts_text(tol)} of {decimal_text(value, max(digits, d))}"
            if _within(value, a, unit):
                if significant_digits(at) < self.min_digits and d < self.min_decimals and _cmp(value, 0):
                    return "imprecise", (f"rounded values to {d} decimals give {at} ({significant_digits(at)} "
                                         f"significant digits); at least {self.min_digits} are asked for: "
                                         f"{self.precise(value, d)}")
                return "right", ""
            shown = _safe_decimal(a, d + 2)
            if _within(value, a, 2 * unit):
                return "close", (f"your expression is {shown}, the value {decimal_text(value, d + 2)}: more than one "
                                 f"unit of the last decimal off; round the intermediate values less")
            return "wrong", f"your expression is {shown}, the value is {decimal_text(value, max(digits, d))}"
        rounded = decimal_text(value, d)
        r = Fraction(rounded)
        if r == a:
            if a == value or answer.significant >= self.min_digits or d >= self.min_decimals:
                return "right", ""
            if within:
                return "right", f"within the tolerance {counts_text(tol)} of {decimal_text(value, max(digits, d))}"
            return "imprecise", (f"{answer.text} is the value rounded to {d} decimal{'' if d == 1 else 's'}, with "
                                 f"{answer.significant} significant digit{'' if answer.significant == 1 else 's'}; "
                                 f"at least {self.min_decimals} decimals or {self.min_digits} significant digits "
                                 f"are asked for: {self.precise(value, d)}")
        if within:
            return "right", f"within the tolerance {counts_text(tol)} of {decimal_text(value, max(digits, d))}"
        if abs(r - a) != Fraction(1, 10 ** d):
            return "wrong", f"{answer.text} is not the value rounded to {d} decimals ({rounded})"
        via = _rounded_parts(parts, d)
        if via is not None and via[1] == a:
            cause = f"rounded intermediate values give it: {via[0]}"
        elif a == _truncated(value, d):
            cause = f"{answer.text} is the value cut off instead of rounded"
        else:
            cause = f"{answer.text} likely comes from rounded intermediate values"
        return "close", f"one unit off in the last digit: the value {decimal_text(value, d + 2)} rounds to {rounded}; {cause}"

    def precise(self, value, d) -> str:
        """The value to the first number of decimals (at least ``d``) precise enough to be right."""
        for k in range(d, 51):
            text = decimal_text(value, k)
            if significant_digits(text) >= self.min_digits or k >= self.min_decimals:
                return text
        return decimal_text(value, 50)

    # -- trees: one node at a time --
    def expected_at(self, path):
        """The expected node at ``path`` [(feature, value), ...], or a message naming where the path leaves
        the tree.  Below a feature tied exactly with the builder's, the nodes are those that choice grows."""
        exp = self.grower.root()
        for i, (f, v) in enumerate(path):
            if self.grower.binary:
                exp, problem = self.binary_step(exp, path, i)
                if exp is None:
                    return None, problem
                continue
            if isinstance(v, _Cut):
                if f == exp.feature and exp.threshold == v.t:
                    exp = exp.child((v.op, ""))
                    continue
                if f in exp.splits and f != exp.feature and self.grower.can_carry() and (
                        grown := self.grower.grown_at(exp.conds + ((f, v.op, v.t),), exp.labels)) is not None:
                    exp = grown
                    continue
                at = "" if f != exp.feature else f" at {number_text(exp.threshold)}"
                return None, (f"the tree has no node {_where(path)}: {_where_the(path[:i])} "
                              f"{exp.describe() if f != exp.feature else f'cuts {f}' + at}, not {f} {v}")
            if f == exp.feature and exp.threshold is None:
                exp = exp.child(("=", v))
            elif f in exp.splits and exp.threshold is None and self.grower.can_carry() and (
                    grown := self.grower.grown_at(exp.conds + ((f, "=", v),), exp.labels)) is not None:
                exp = grown
            else:
                return None, (f"the tree has no node {_where(path)}: "
                              f"{_not_split_on(exp, _where_the(path[:i]), f)}")
        return exp, None

    def leaf_label(self, text, where):
        """A leaf's class as in the data (any case), or a regression leaf's mean as written (a number)."""
        if not self.regression:
            return self.names.label(text)
        try:
            Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise _Unreadable(f"{where + ': ' if where else ''}a regression leaf predicts a number (its mean), "
                              f"not {_clip(text, 20)!r}") from None
        return text

    def binary_step(self, exp, path, i):
        """CART: the node one step down ``path[i]``: the builder's child whose rows the condition
        selects, else (carry-forward) the tree grown on those rows."""
        g = self.grower
        cond = _as_cond(*path[i])
        if cond[1] == "=":  # CART: a value is the subset of that value
            cond = (cond[0], "in", (cond[2],))
        rows = g.mask(exp.conds)
        chosen = rows & g.side_mask(*cond)
        if exp.feature is not None:
            for b in (0, 1):
                side = split_condition(exp.node.test, b, exp.feature)
                if np.array_equal(chosen, rows & g.side_mask(*side)):
                    child = exp.child(("side", b))
                    return Expected(g, exp.conds + (cond,), child.node, child.parent_labels, child.forced), None
        if g.can_carry() and chosen.any() and not np.array_equal(chosen, rows):
            # the student's split forced here: the builder's tree below it, under rpart's cp rule
            forced = dict(exp.forced)
            forced[rows.tobytes()] = (cond[0], (cond, complement(cond)))
            view = g.forced(forced, rows)
            if view is not None:
                below = view.kept if view.kept is not None else view.children
                return Expected(g, exp.conds + (cond,), below[0], exp.labels, forced), None
        here = _where_the(path[:i])
        return None, (f"the tree has no node {_where(path)}: {here} "
                      f"{exp.describe() if exp.feature is not None else 'is ' + exp.leaf_text}"
                      f", not {_cond_text(*path[i])}")

    def binary_answer(self, exp, answer, where):
        """CART's ``root = Start < 8.5`` or ``= Start``: (verdict, message, acceptable splits as text)."""
        toks, _ = _split_claim(answer, split=False)
        choices = binary_choices(exp)
        shown = tuple(cond_text(split_condition(t, 0, f)) for f, t in choices)
        if len(toks) == 1 and toks[0].kind == "w":
            feature = self.names.feature(toks[0].text)
            if any(f == feature for f, _ in choices):
                return "right", "", shown
            return "wrong", _not_split_on(exp, where, feature), shown
        f, v = self.cut(toks)
        g = self.grower
        rows = g.mask(exp.conds)
        chosen = rows & g.side_mask(*_as_cond(f, v))
        for k, (feature, test) in enumerate(choices):
            if feature == f and any(np.array_equal(chosen, rows & g.side_mask(*split_condition(test, b, feature)))
                                    for b in (0, 1)):
                note = "" if not k else (f"{f} {v} decreases the impurity exactly as much as the builder's "
                                         f"{shown[0]}; both are right")
                return "right", note, shown
        return "wrong", _not_split_on(exp, where, _cond_text(f, v)), shown

    def check_tree_claim(self, number, body, kind, toks, answer) -> ClaimResult:
        if kind == "root":
            if len(toks) != 1:
                raise _Unreadable(f"unexpected {_show_toks(toks[1:])} after 'root'; write root = outlook")
            path = ()
        else:
            path = self.path(_inside_parens(toks, toks[0].text), toks[0].text)
        if self.grower.binary and kind != "leaf":
            exp, problem = self.expected_at(path)
            if exp is None:
                return ClaimResult(number, body, kind, "wrong", answer=answer, message=problem)
            verdict, msg, shown = self.binary_answer(exp, _answer_name(answer, kind), _where_the(path))
            return ClaimResult(number, body, kind, verdict, answer=answer, answer_value=answer.strip(),
                               expected=shown, message=msg, explanation=tuple(self.node_lines(exp)))
        name = _answer_name(answer, kind)
        cut = None
        if kind != "leaf":
            parts, _ = _split_claim(name, split=False)
            if _cut_item(parts) or _set_item(parts):  # root = humidity <= 75: C4.5's cut (a set: CART's)
                name, cut = self.cut(parts, tree=True)
        name = self.leaf_label(name, "") if kind == "leaf" else self.names.feature(name)
        exp, problem = self.expected_at(path)
        if exp is None:
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, message=problem)
        where = _where_the(path)
        expl = tuple(self.node_lines(exp))
        if kind == "leaf":
            expected = exp.labels if exp.feature is None else ()
            if exp.feature is None and exp.has_label(name):
                return ClaimResult(number, body, kind, "right", answer=answer, answer_value=name,
                                   expected=expected, explanation=expl)
            if exp.feature is None:
                msg = f"{where} is {exp.leaf_text}, not {name}{_empty_note(exp)}"
            else:
                msg = f"{where} is not a leaf: it {exp.describe()}"
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=expected,
                               message=msg, explanation=expl)
        if cut is not None and name == exp.feature and cut.t != exp.threshold:
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=exp.splits,
                               message=f"{where} {exp.describe()}, not at {cut}", explanation=expl)
        if name in exp.splits:
            msg = "" if name == exp.feature else (f"{name} ties exactly with {exp.feature}, which the builder "
                                                  f"takes (first in column order); both are right")
            return ClaimResult(number, body, kind, "right", answer=answer, answer_value=name, expected=exp.splits,
                               message=msg, explanation=expl)
        return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=exp.splits,
                           message=_not_split_on(exp, where, name), explanation=expl)

    def path(self, toks, head) -> tuple:
        if not toks or (len(toks) == 1 and toks[0].kind == "w" and toks[0].text.lower() == "root"):
            return ()
        out, seen = [], set()
        for item in _split_on(toks, ","):
            if len(item) == 3 and item[0].kind == "w" and item[1].text == "=" and item[2].kind == "w":
                f = self.names.feature(item[0].text)
                if f in seen:
                    raise _Unreadable(f"feature {f} appears twice in {head}(...); a path fixes each feature once")
                seen.add(f)
                out.append((f, self.names.value(f, item[2].text)))
            elif _cut_item(item) or _set_item(item):
                out.append(self.cut(item, tree=True))  # a numeric feature may be cut again below (CART: any)
            else:
                raise _Unreadable(f"cannot read {_show_toks(item) if item else 'an empty part'} in {head}(...); "
                                  f"write the path from the root: {head}(outlook = sunny, humidity = high)")
        return tuple(out)

    def node_lines(self, exp) -> list[str]:
        """The candidate measures at a node and its decision, for --explain."""
        classes = self.names.domain[self.data.target]
        node = exp.node
        counts = [0] * len(classes) if node is None else node.class_counts.tolist()
        if self.regression and node is not None and exp.n:
            lines = [f"{_where_the(exp.conds)}: n = {_count_text(exp.n)}, mean {number_text(node.mean)}, "
                     f"SSE {number_text(node.risk)}"]
        else:
            lines = [f"{_where_the(exp.conds)}: n = {_count_text(exp.n)} "
                     f"({', '.join(f'{c} {_count_text(k)}' for c, k in zip(classes, counts))})"]
        if node is not None and exp.n:
            digits = self.digits
            for c in node.candidates():
                if self.grower.binary:
                    lines.append(f"  {cond_text(split_condition(c.split, 0, c.feature))}: decrease "
                                 f"{decimal_text(c.decrease, digits)}, improvement {decimal_text(c.improvement, digits)}")
                    continue
                parts = [f"IG({c.feature}) = {decimal_text(c.gain, digits)}"]
                if self.criterion != "gain":
                    gr = c.gain_ratio
                    parts.append(f"SplitInfo({c.feature}) = {decimal_text(c.split_info, digits)}")
                    parts.append(f"GR({c.feature}) = {'undefined' if gr is None else decimal_text(gr, digits)}")
                lines.append("  " + ", ".join(parts))
        lines.append(f"decision: {_decision_text(exp)}")
        return lines

    # -- trees: a whole tree --
    def is_tree_part(self, body, block, lines, number) -> bool:
        """Whether a line belongs to a tree block: a tree line (``|``, ``feature = value: class``, J48's,
        rpart's, arrows) that no claim form reads, or ``age?`` opening a tree drawn with arrows."""
        if self.is_claim_form(body):
            return False
        if is_arrow_line(body):
            return True
        if is_arrow_root(body) and not block:
            following = next((ln.strip() for ln in lines[number:number + 20] if ln.strip()), "")
            return is_arrow_line(following)
        return is_tree_line(body, _CLAIM_NAMES)

    def is_claim_form(self, body) -> bool:
        """Whether a line is one of the claim forms that look like tree lines (regions, prose, the
        cost-complexity and forest families)."""
        return bool(region_definition(body) or at_region(body) or threshold_claim(body) or best_split(body)
                    or self.family(body) is not None)

    def check_block(self, block) -> list:
        """A tree block's result; when the block is no tree, each of its lines on its own (one line, one
        verdict: an unreadable line never hides its neighbours)."""
        try:
            read_tree(arrow_lines(block) if any(is_arrow_line(b) for _, _, b in block) else block)
        except TreeTextError as e:
            problem = str(e)
        else:
            return [self.check_tree_block(block)]   # a tree: graded node by node, names resolved there
        if len(block) == 1:
            return [ClaimResult(block[0][0], block[0][2], "tree", "unreadable", message=problem)]
        out = []
        for number, _, body in block:
            r = self.check_line(number, body)
            if r.verdict == "unreadable":
                why = problem if problem.startswith(f"line {number}:") else \
                    f"not a claim, and the tree around it cannot be read ({problem})"
                r = ClaimResult(number, body, "tree", "unreadable", message=why)
            out.append(r)
        return out

    def check_tree_block(self, block) -> ClaimResult:
        first, last = block[0][0], block[-1][0]
        text = "\n".join(b for _, _, b in block)
        try:
            if any(is_arrow_line(b) for _, _, b in block):
                block = arrow_lines(block)
            claimed = read_tree(block)
            self.resolve_tree(claimed)
        except (TreeTextError, _Unreadable) as e:
            return ClaimResult(first, text, "tree", "unreadable", last_line=last, message=str(e))
        nodes = tuple(grade_tree(self.grower, claimed, self.names))
        expected = self.tree_text()
        expl = tuple(["the tree grown with the builder's tie-breaks:"] + ["  " + s for s in expected.split("\n")])
        wrong = [v for v in nodes if v.verdict == "wrong"]
        ungraded = [v for v in nodes if v.verdict == "ungraded"]
        if not wrong and not ungraded:
            return ClaimResult(first, text, "tree", "right", last_line=last, answer=text, expected=expected,
                               explanation=expl, nodes=nodes)
        msgs = [f"line {v.line}: {v.message}" if not v.message.startswith("branch ") else v.message for v in wrong]
        msg = "; ".join(msgs[:5]) + (f"; and {len(msgs) - 5} more" if len(msgs) > 5 else "")
        graded = [v for v in nodes if v.verdict != "ungraded"]
        right = sum(v.verdict == "right" for v in graded)
        carried = sum(v.carried for v in graded)
        tally = f"{right} of {len(graded)} nodes right"
        if carried:
            tally += f" ({carried} graded against the tree grown from your own earlier choice)"
        if ungraded:
            tally += f"; {len(ungraded)} not graded ({ungraded[0].message[len('not graded: '):]})"
        verdict = "wrong" if wrong else "unreadable"
        return ClaimResult(first, text, "tree", verdict, last_line=last, answer=text, expected=expected,
                           message=f"{msg}; {tally}" if msg else tally, explanation=expl, nodes=nodes)

    def resolve_tree(self, claimed):
        """Names as in the data (any case); numeric tests on numeric features with numbers; under CART
        every branch key becomes its condition (op, threshold or values in domain order)."""
        if isinstance(claimed, ClaimedLeaf):
            claimed.label = self.leaf_label(claimed.label, f"line {claimed.number}")
            return
        claimed.feature = f = self.names.feature(claimed.feature)
        numeric = self.names.kinds[f] == "numeric"
        cart = self.grower.binary
        where = f"line {claimed.number}"
        ops = {k[0] for k in claimed.branches}
        if claimed.threshold is not None:
            if not numeric:
                raise _Unreadable(f"{where}: {f} is nominal; test it with " +
                                  ("'in {a, b}'" if cart else "'=', not '<=' or '>'"))
            try:
                t = Fraction(claimed.threshold)
            except (ValueError, ZeroDivisionError):
                raise _Unreadable(f"{where}: threshold {_clip(claimed.threshold, 20)!r} of {f} is "
                                  f"not a number") from None
            if not cart and ops - {"<=", ">"}:
                raise _Unreadable(f"{where}: '{f} {sorted(ops - {'<=', '>'})[0]} {claimed.threshold}': a numeric "
                                  f"branch is written '<= t' or '> t' (as C4.5 and J48 print it; '<' and '>=' "
                                  f"are rpart's: check with --algorithm cart)")
        elif numeric:
            raise _Unreadable(f"{where}: {f} is numeric; its branches are '{f} <= t' and '{f} > t'")
        elif not cart and ops - {"="}:
            raise _Unreadable(f"{where}: '{f} in {{...}}' is CART's subset split; check with --algorithm cart")
        branches = {}
        for (op, value), child in claimed.branches.items():
            if not cart:
                key = (op, self.names.value(f, value) if op == "=" else "")
            elif op in ("<=", ">", "<", ">="):
                key = (op, t)
            else:  # a value or a set of values: CART's subset, values in domain order
                chosen = {self.names.value(f, v) for v in ((value,) if op == "=" else value)}
                key = ("not in" if op == "not in" else "in", tuple(v for v in self.domain[f] if v in chosen))
            if key in branches:
                raise _Unreadable(f"{where}: two branches of {f} test {_cond_text(f, key[1]) if key[0] == '=' else cond_text((f, *key))}")
            branches[key] = child
            self.resolve_tree(child)
        claimed.branches = branches

    def tree_text(self) -> str:
        if self._tree_text is None:
            from ..printers.lines import tree_lines

            self._tree_text = "\n".join("|  " * depth + line for _, depth, line in tree_lines(self.grower.tree))
        return self._tree_text


# -- small helpers -------------------------------------------------------------------------

def _sse(stats):
    """Σ(y − ȳ)² = Σy² − (Σy)²/n from (n, Σy, Σy²)."""
    n, s, q = stats
    return Fraction(0) if not n else Fraction(q) - Fraction(s) ** 2 / n


def _entropy_of_counts(counts):
    from ..measures import entropy

    return entropy(list(counts))


def _counts_symbol(name, counts) -> str:
    return f"{name}({','.join(_count_text(c) for c in counts)})"


def _test_of(candidate, j):
    """The split a C4.5/ID3 candidate record stands for."""
    from ..splits import NominalSplit, ThresholdSplit

    if candidate.threshold is not None:
        return ThresholdSplit(j, candidate.threshold)
    return NominalSplit(j, candidate.values)


def _branch_of(test, var, val):
    """The branch (index) of split ``test`` that the path step (var, val) names, or None."""
    cond = _as_cond(var, val)
    _, op, v = cond
    if getattr(test, "threshold", None) is not None:
        if op in ("<=", ">") and v == test.threshold:
            return 0 if op == "<=" else 1
        return None
    if hasattr(test, "left"):  # CART's subset
        left, right = test.left_values, test.right_values
        if op in ("in", "not in") and tuple(v) in (left, right):
            return (0 if tuple(v) == left else 1) if op == "in" else (1 if tuple(v) == left else 0)
        return None
    if op == "=" and v in test.values:
        return test.values.index(v)
    return None


def _claim_kind(toks) -> str:
    if not toks:
        raise _Unreadable("nothing before '='; expected H(...), I(...), IG(...), SplitInfo(...), GR(...), "
                          "root, split(...) or leaf(...)")
    head = toks[0]
    if head.kind != "w":
        raise _Unreadable(f"a claim starts with a name such as H, IG or root; found {head.text!r}")
    low = head.text.lower()
    if low == "root":
        return "root"
    if low in ("split", "leaf"):
        return low
    if _measure_head(head.text):
        return _KIND[_measure_head(head.text)[0]]
    raise _Unreadable(f"unknown claim {_clip(head.text, 30)!r}; expected H, I, IG (Gain), SplitInfo (IV), "
                      f"GR (GainRatio), root, split or leaf{did_you_mean(head.text, _CLAIM_WORDS)}")


_CLAIM_WORDS = ("H", "I", "IG", "Gain", "SplitInfo", "IV", "GR", "GainRatio", "root", "split", "leaf")


def _no_equals(body, toks) -> str:
    opened = []
    for t in toks:
        if t.kind == "p" and t.text == "(":
            opened.append(t)
        elif t.kind == "p" and t.text == ")" and opened:
            opened.pop()
    if opened:
        return (f"'(' at position {opened[0].pos + 1} is never closed; expected a claim such as "
                f"H(play | outlook) = 0.694")
    return "no '=' in the line; expected a claim such as H(play) = 0.940, root = outlook, or a tree line"


def _inside_parens(toks, head):
    if len(toks) < 2 or toks[1].text != "(" or toks[1].kind != "p":
        raise _Unreadable(f"{head} needs parentheses: {head}(...) = ...")
    depth, end = 0, None
    for i, t in enumerate(toks[1:], 1):
        if t.kind == "p" and t.text == "(":
            depth += 1
            if depth > 1:
                raise _Unreadable(f"unexpected '(' inside {head}(...); quote names with parentheses: '(a)'")
        elif t.kind == "p" and t.text == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    if end is None:
        raise _Unreadable(f"'(' after {head} is never closed")
    if end != len(toks) - 1:
        raise _Unreadable(f"unexpected {_show_toks(toks[end + 1:])} after {head}(...); expected '='")
    return toks[2:end]


# "IG(a) = IG(b) exactly (each 0.0200)" and "GainRatio(a): undefined (split info 0)", as --steps prints them.
_EXACTLY = re.compile(r"([^()]{1,100}\([^()]{0,300}\)(?:\s{0,5}=\s{0,5}[^()]{1,100}\([^()]{0,300}\)){1,20})"
                      r" exactly \(each ([^()]{1,100})\)")
_UNDEFINED = re.compile(r"([^()]{1,100}\([^()]{0,300}\)):\s{0,5}undefined(?: \([^()]{0,200}\))?")


def _set_item(item):
    """(name, "in" | "not in", "{...}") of ``outlook in {sunny, rainy}`` (tokens), or None."""
    if len(item) == 2 and item[0].kind == "w" and item[1].kind == "s":
        head = item[0].text
        for op in ("not in", "in"):
            if head.endswith(" " + op) and head[:-len(op)].strip():
                return head[:-len(op)].strip(), op, item[1].text
    return None


def _cut_item(item):
    """(name, op, threshold text) of ``humidity <= 75``, ``humidity > 75`` (tokens), or None."""
    if len(item) >= 3 and item[0].kind == "w" and item[-1].kind == "w" and all(t.kind == "p" for t in item[1:-1]):
        op = "".join(t.text for t in item[1:-1])
        if op in ("<=", ">", "<", ">="):
            return item[0].text, op, item[-1].text
    return None


def _chain(text: str) -> list[str]:
    """``a = b = c`` split at each ``=`` or ``≈`` outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "=≈" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _split_on(toks, sep):
    out, cur = [], []
    for t in toks:
        if t.kind == "p" and t.text == sep:
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    out.append(cur)
    return out


def _show_toks(toks) -> str:
    return repr(_clip(" ".join(t.text for t in toks), 30))


def _answer_name(answer: str, kind: str) -> str:
    s = answer.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1]
    if not s:
        what = "class" if kind == "leaf" else "feature"
        raise _Unreadable(f"no {what} after '='")
    return s


def _canonical(m: _Measure) -> str:
    if m.name == "I":
        inner = f"{', '.join(m.left[0])}; {', '.join(m.left[1])}"
    elif m.split is not None and not m.split_on:
        inner = _cond_text(*m.split)
    else:
        inner = ", ".join(m.left)
    name = {"Decrease": f"Δ{m.impurity}", "H": "H_known" if m.known else "H"}.get(m.name, m.name)
    if m.lookahead:
        name = {"Decrease": "Decrease"}.get(m.name, m.name) + "_lookahead"
    on = None if not m.split_on else _cond_text(*m.split) if m.split is not None else m.split_on
    given = tuple(m.given) + ((f"split on {on}",) if on else ())
    return _with_conditions(name, inner, given, m.fixed)


def _with_conditions(name, inner, given, fixed):
    conds = list(given) + [_cond_text(v, x) for v, x in fixed]
    return f"{name}({inner} | {', '.join(conds)})" if conds else f"{name}({inner})"


def _h_symbol(left, given, fixed):
    return _with_conditions("H", ", ".join(left), given, fixed)


def _bracket(form: str) -> str:
    return form if form.startswith("H(") and form.count("H(") == 1 else f"[{form}]"


def _table(C, L):
    """Rows: values of the conditioning joint; columns: values of the left joint (occurring ones), code order."""
    cols = sorted(set(L))
    index = {k: j for j, k in enumerate(cols)}
    rows: dict = {}
    for c, l in zip(C, L):
        rows.setdefault(c, [0] * len(cols))[index[l]] += 1
    return [rows[c] for c in sorted(rows)]


def _steps_lines(lhs, steps):
    out, pad = [], " " * len(lhs)
    seen = []
    for s in steps:
        if s not in seen:
            seen.append(s)
    for i, s in enumerate(seen):
        out.append(f"{lhs if i == 0 else pad} = {s}")
    return out


def _cmp(x, q) -> int:
    """-1, 0 or 1 as the exact value ``x`` is below, at or above the rational ``q``."""
    if isinstance(x, (Fraction, int)):
        return (x > q) - (x < q)
    return x.compare(q)


def _within(value, a, tol) -> bool:
    return _cmp(value, a + tol) <= 0 and _cmp(value, a - tol) >= 0


def _truncated(value, d) -> Fraction:
    """``value`` cut off (toward zero) at ``d`` decimals, exactly."""
    r = Fraction(decimal_text(value, d))
    step = Fraction(1, 10 ** d)
    if _cmp(value, 0) >= 0:
        return r if _cmp(value, r) >= 0 else r - step
    return r if _cmp(value, r) <= 0 else r + step


def _rounded_parts(parts, d):
    """``("0.940 - 0.694 = 0.246", 0.246)``: the value recomputed from its parts rounded to ``d`` decimals."""
    if parts is None:
        return None
    op, x, y = parts
    xs, ys = decimal_text(x, d), decimal_text(y, d)
    fx, fy = Fraction(xs), Fraction(ys)
    if op == "-":
        q = fx - fy
    elif fy:
        q = Fraction(decimal_text(fx / fy, d))
    else:
        return None
    qs = decimal_text(q, d)
    return f"{xs} {op} {ys} = {qs}", q, (fx, fy)


def _where(path) -> str:
    """``outlook = sunny, humidity <= 75`` from (feature, value) or (feature, op, value) steps."""
    return where(tuple(p if len(p) == 3 else _as_cond(*p) for p in path))


def _where_the(path) -> str:
    return f"the node {_where(path)}" if path else "the root"


def _or(names) -> str:
    return " or ".join(names)


def _not_split_on(exp, where: str, feature: str) -> str:
    """``the node outlook = rainy splits on windy, not on humidity`` (or: is a leaf ...)."""
    if exp.feature is None:
        return f"{where} is {exp.leaf_text}, not a split on {feature}"
    return f"{where} {exp.describe()}, not on {feature}"


def _empty_note(exp) -> str:
    return " (no training row reaches it: an empty branch takes its parent's majority class)" if not exp.n else ""


def _count_text(x) -> str:
    q = Fraction(x)
    return str(q.numerator) if q.denominator == 1 else decimal_text(q, 2)


def _decision_text(exp) -> str:
    if exp.feature is None:
        return f"leaf {_or(exp.labels)}: {exp.reason}"
    return f"split on {_or(exp.splits)}: {exp.reason}"


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
    ``tree_options``: keywords of :func:`~infotree.tree.build_tree` other than ``criterion``
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


_CLAIM_NAMES = frozenset(_MEASURES) | frozenset(_TREE_CLAIMS)
_DECIMAL = re.compile(r"(?<![\d.])\d{0,20}\.\d{1,50}(?![\d.])")
# CART's worked solution with --lookahead 1: "decrease with lookahead 1 (outlook, each side split once more at
# best) = 113/490", read as Decrease_lookahead(outlook) = 113/490.
_LOOKAHEAD_LINE = re.compile(r"^decrease with lookahead 1 \(([^(),]{1,200}), each side split once more at best\)")


def _tolerance_value(tolerance):
    if tolerance is None:
        return None
    if isinstance(tolerance, bool):
        raise InfotreeError(f"tolerance {tolerance!r} is not a number; give a rational such as 0.01 or 1/100")
    try:
        t = Fraction(str(tolerance)) if isinstance(tolerance, float) else Fraction(tolerance)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InfotreeError(f"tolerance {tolerance!r} is not a number; give a rational such as 0.01 or 1/100") from None
    if t < 0:
        raise InfotreeError(f"tolerance {tolerance!r} is negative; give a non-negative rational such as 0.01")
    return t
