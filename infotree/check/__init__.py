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

Claims
------
Variables are the data's features and its target; ``conds`` is a comma-separated
list of variables (averaged over, as in H(Y|X)) and ``variable = value``
restrictions (only the rows with that value count)::

    H(A, B, ... | conds) = v        joint entropy of A, B, ... given conds
    I(A; B | conds) = v             mutual information (also I(A, B) for two variables,
                                    and I(A, B; C) for the joint of A and B with C)
    IG(A | conds) = v               I(A; target | conds)       also Gain, InfoGain
    SplitInfo(A | conds) = v        H(A | conds)               also IV
    GR(A | conds) = v               IG / SplitInfo, exactly    also GainRatio
    root = F                        the feature at the root
    split(F1 = v1, ...) = F         the feature the node at that path splits on
    leaf(F1 = v1, ...) = class      the node at that path is a leaf with this class

Measure names ignore case, spaces, ``_`` and ``-`` (``Split Info``, ``gain_ratio``);
``≈`` may stand for ``=``; ``∣`` for ``|``.  A name or value with ``( ) , ; | =``
in it is quoted: ``'a, b'``.  A *tree* is written as ``infotree tree`` prints it
(Weka's style); consecutive tree lines form one claim, any other line ends it::

    outlook = sunny
    |  humidity = high: no (3)
    |  humidity = normal: yes (2)
    outlook = overcast: yes

Leaf counts are optional; when given (``(3)``, ``(3/1)`` with errors, ``(3.0)``,
``(0, empty)``) they are checked.  Branches with no training rows may be left out;
a branch with rows may not.  The lines ``infotree tree`` prints after a tree
(``Number of leaves: N``, ``Size of the tree: N``, ``single leaf: ...``) are ignored.
A ``#`` starts a comment (quote a value containing ``#``).

Values and verdicts
-------------------
Measures are computed from the data with :mod:`infotree.measures`, independent of
any tree.  An answer is one of

* a decimal (``0.940``): **right** when it is the exact value rounded half away
  from zero to the decimals written (decided exactly by
  :func:`~infotree.exact.decimal_text`), **close** when it is one unit off in the
  last digit (the usual sign of rounded intermediate results), else **wrong**;
* an integer (``1``): a claim of the exact value, **right** only when the value is
  exactly that integer; a value that rounds to it at two decimals (0.9968 for
  ``1``) is **close**: the student should write the decimals;
* an exact expression (``5/14*log2(14/5) + 3/4``, ``log(x, 2)``, ``·``, ``−``):
  parsed by :func:`~infotree.parse.parse_exact` and **right** only when exactly
  equal (never evaluated in floating point); no closeness, no tolerance.

``tolerance=X`` (a rational) also makes a decimal or integer answer right when
``|value - answer| <= X``, decided exactly.

Trees are checked node by node along the claimed splits (:func:`~infotree.tree.node_at`):
where features tie exactly every tied choice is accepted, and the nodes below are
those that choice produces.  A leaf's class may be any class of maximal count
(an empty branch: its parent's majority).  With ``gain_ratio`` (C4.5) a node may be
a leaf when the subtree grown below it (by the builder's choices under the claimed
split) makes no fewer training errors than the leaf; ties deeper in that subtree
are not explored for this test.

A claim that cannot be read (a misspelt name, a value not in the data, ``H(play |``,
an undefined measure) is **unreadable**, reported on its line with what was
expected; the other lines are still checked.  Only **right** counts as correct.
Exit status of the command: 0 when every claim is right, 1 when any is close,
wrong or unreadable (or there is no claim at all), 2 when the answers file or the
data cannot be read.

Limits (student files are hostile)
----------------------------------
No ``eval``: the left-hand side has its own small tokenizer, the right-hand side
goes to ``parse_exact``.  A file has at most :data:`MAX_FILE_CHARS` bytes and
:data:`MAX_LINES` lines, text only (UTF-8, no NUL); a line at most
:data:`MAX_LINE_LENGTH` characters; a decimal at most :data:`MAX_DECIMALS`
decimals; a ``log2`` argument a numerator and denominator of at most
:data:`MAX_LOG_ARGUMENT` and no logarithm inside it (so factorisation stays cheap).

JSON (``report_json``, ``--format json``)
-----------------------------------------
::

    {"version": 1, "data": str|null, "answers": str|null, "target": str, "criterion": str,
     "tolerance": str|null, "digits": int,
     "summary": {"claims": int, "right": int, "close": int, "wrong": int, "unreadable": int,
                 "all_right": bool, "exit_status": int},
     "claims": [{"line": int, "last_line": int, "claim": str, "kind": str, "verdict": str,
                 "quantity": str|null, "answer": str|null, "answer_value": str|null, "expected": str|null,
                 "expected_decimal": str|null, "acceptable": [str]|null,
                 "message": str, "explanation": [str]}],
     "error": str|null}

``kind`` is one of ``entropy``, ``mutual_information``, ``information_gain``,
``split_information``, ``gain_ratio``, ``root``, ``split``, ``leaf``, ``tree``,
``unknown``; ``verdict`` one of ``right``, ``close``, ``wrong``, ``unreadable``.
Exact values are strings of the exact grammar (a :class:`~infotree.exact.Ratio` as
``(num)/(den)``); ``acceptable`` lists the accepted names of a root/split/leaf claim;
``error`` is set only when the answers or the data could not be read (exit 2); then
``summary`` is null, ``claims`` empty and ``target`` the one asked for (null: the default).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..errors import DataError, InfotreeError
from ..exact import Exact, Ratio, decimal_text
from ..forms import conditional_entropy_form, counts_text, entropy_form, h_of
from ..measures import (
    conditional_entropy,
    conditional_mutual_information,
    entropy_of_labels,
    mutual_information,
)
from ..parse import ParseError, parse_exact

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
    "add_check_command",
    "check_answers",
    "format_text",
    "read_answers",
    "report_json",
    "run_check_command",
]

#: Largest answers file (bytes read from a file; characters of text given directly).
MAX_FILE_CHARS = 1_000_000
#: Most lines in an answers file.
MAX_LINES = 10_000
#: Longest line (characters); a longer line is reported unreadable without parsing.
MAX_LINE_LENGTH = 1_000
#: Most decimals in a decimal answer.
MAX_DECIMALS = 50
#: Largest numerator or denominator of a log2 argument in an answer.
MAX_LOG_ARGUMENT = 10 ** 6

VERDICTS = ("right", "close", "wrong", "unreadable")
_MARK = {"right": "✓", "close": "≈", "wrong": "✗", "unreadable": "?"}
_CRITERIA = {"gain": "gain", "gain_ratio": "gain_ratio", "gain_ratio_plain": "gain_ratio_plain",
             "gain-ratio": "gain_ratio", "gain-ratio-plain": "gain_ratio_plain"}


class AnswersError(InfotreeError):
    """An answers file that cannot be read at all (missing, too large, binary, not UTF-8)."""


class _Unreadable(Exception):
    """A claim that cannot be read; the message says what was expected."""


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
        extra = [f"{self.counts[v]} {v}" for v in ("close", "wrong", "unreadable") if self.counts[v]]
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
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise AnswersError(f"{source} is UTF-16 text; save the answers as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise AnswersError(f"{source} line {line} contains a NUL byte; the file looks binary, "
                           f"expected text with one claim per line")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise AnswersError(f"{source} line {line}: byte {data[e.start:e.start + 1]!r} is not UTF-8; "
                           f"save the answers as UTF-8 text") from None


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
_LHS_TOKEN = re.compile(r"""\s*(?:([(),;|=≈∣])|'([^']*)'|"([^"]*)"|"""
                        r"""([^(),;|=≈∣'"\s](?:[^(),;|=≈∣'"]*[^(),;|=≈∣'"\s])?))""")
_MEASURES = {
    "h": "H", "entropy": "H",
    "i": "I", "mi": "I", "mutualinformation": "I",
    "ig": "IG", "gain": "IG", "infogain": "IG", "informationgain": "IG",
    "splitinfo": "SplitInfo", "splitinformation": "SplitInfo", "iv": "SplitInfo", "intrinsicvalue": "SplitInfo",
    "gr": "GR", "gainratio": "GR",
}
_TREE_CLAIMS = ("root", "split", "leaf")
_KIND = {"H": "entropy", "I": "mutual_information", "IG": "information_gain",
         "SplitInfo": "split_information", "GR": "gain_ratio"}


def _norm_name(word: str) -> str:
    return re.sub(r"[\s_\-]", "", word).lower()


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos  # kind: "p" punctuation or "w" name


def _split_claim(body: str):
    """Tokens of the left-hand side up to the first ``=``/``≈`` outside parentheses, and the rest."""
    toks, pos, depth = [], 0, 0
    while pos < len(body):
        m = _LHS_TOKEN.match(body, pos)
        if not m or m.end() == pos:
            rest = body[pos:].lstrip()
            if not rest:
                break
            if rest[0] in "'\"":
                raise _Unreadable(f"quote {rest[0]} at position {len(body) - len(rest) + 1} is never closed")
            raise _Unreadable(f"cannot read {_clip(rest, 30)!r}")
        punct, sq, dq, word = m.groups()
        start = m.end() - len(m.group().lstrip())
        pos = m.end()
        if punct:
            p = {"≈": "=", "∣": "|"}.get(punct, punct)
            if p == "=" and depth == 0:
                return toks, body[pos:]
            depth += p == "("
            depth -= p == ")"
            toks.append(_Tok("p", p, start))
        else:
            toks.append(_Tok("w", sq if sq is not None else dq if dq is not None else word, start))
    return toks, None


# -- the right-hand side ---------------------------------------------------------------

_DECIMAL = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)")
_ALIASES = str.maketrans({"−": "-", "·": "*", "×": "*", "⋅": "*", "÷": "/"})
_EXPR_TOKEN = re.compile(r"\s*(?:(\d+)|(log2|log)|(.))", re.S)


@dataclass(frozen=True)
class _Answer:
    text: str
    form: str            # "decimal", "integer" or "exact"
    value: object        # Fraction, Exact or Ratio
    decimals: int = 0


def _parse_number_answer(rhs: str) -> _Answer:
    text = rhs.strip()
    if not text:
        raise _Unreadable("no answer after '='; write a decimal (0.940), an integer or an exact expression")
    plain = text.translate(_ALIASES)
    if _DECIMAL.fullmatch(plain):
        sign = -1 if plain.startswith("-") else 1
        digits = plain.lstrip("+-")
        if "." in digits:
            whole, frac = digits.split(".")
            if len(frac) > MAX_DECIMALS:
                raise _Unreadable(f"{_clip(text, 30)!r} has {len(frac)} decimals; at most {MAX_DECIMALS} are allowed")
            if len(whole) > 40:
                raise _Unreadable(f"{_clip(text, 30)!r} has {len(whole)} digits before the point; at most 40 are allowed")
            value = sign * Fraction(int((whole or "0") + frac), 10 ** len(frac))
            return _Answer(text, "decimal", value, len(frac))
        if len(digits) > 40:
            raise _Unreadable(f"integer answer with {len(digits)} digits; at most 40 are allowed")
        return _Answer(text, "integer", Fraction(sign * int(digits)))
    if re.fullmatch(r"[+-]?\d+,\d+", plain):
        raise _Unreadable(f"decimal comma in {_clip(text, 30)!r}; write a decimal point: {plain.replace(',', '.')}")
    m = re.search(r"\d\.\d|\.\d|\d\.", text)
    if m:
        raise _Unreadable(f"decimal point in the expression {_clip(text, 40)!r}; a decimal answer stands alone "
                          f"(0.940), an exact expression uses fractions (47/50) and log2(x)")
    _check_logs(text)
    try:
        value = parse_exact(text)
    except ParseError as e:
        raise _Unreadable(str(e)) from None
    return _Answer(text, "exact", value)


def _check_logs(text: str) -> None:
    """Refuse log2 arguments that would be costly to factor, before parse_exact factors them.

    Finds each ``log2(...)``/``log(..., b)`` argument by bracket matching; an argument
    holding another logarithm is refused, one holding none is evaluated exactly (no
    factoring happens there) and its numerator and denominator are bounded.  Text
    that does not tokenize or balance is left to parse_exact to report.
    """
    norm = text.translate(_ALIASES)
    toks = [(m.group().strip(), m.end() - 1) for m in _EXPR_TOKEN.finditer(norm) if m.group().strip()]
    for i, (t, _) in enumerate(toks):
        if t not in ("log2", "log") or i + 1 >= len(toks) or toks[i + 1][0] != "(":
            continue
        depth, j, comma = 0, i + 1, None
        while j < len(toks):
            s = toks[j][0]
            if s == "(":
                depth += 1
            elif s == ")":
                depth -= 1
                if depth == 0:
                    break
            elif s == "," and depth == 1 and comma is None:
                comma = j
            elif s in ("log2", "log"):
                raise _Unreadable(f"a logarithm inside a logarithm in {_clip(text, 40)!r}; "
                                  f"the argument of log2 must be a rational number such as 14/5")
            j += 1
        if j >= len(toks):
            return  # unbalanced: parse_exact says so
        end = comma if t == "log" and comma is not None else j
        arg = norm[toks[i + 1][1] + 1:toks[end][1]]  # positions are each token's last character
        try:
            q = parse_exact(arg)
        except ParseError:
            continue  # parse_exact reports it in context
        if isinstance(q, Fraction) and (abs(q.numerator) > MAX_LOG_ARGUMENT or q.denominator > MAX_LOG_ARGUMENT):
            raise _Unreadable(f"log2 argument {_clip(str(q), 30)} in {_clip(text, 40)!r} is too large; its numerator "
                              f"and denominator must be at most {MAX_LOG_ARGUMENT:,}")


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
    name: str                  # H, I, IG, SplitInfo, GR
    left: tuple                # H: variables; I: (group A, group B); IG/SplitInfo/GR: (variable,)
    given: tuple               # variables averaged over
    fixed: tuple               # ((variable, value), ...)


@dataclass(frozen=True)
class _Decision:
    """What a node may be: the acceptable split features and, if it may be a leaf, its classes."""

    path: tuple
    n: int
    errors: int
    counts: tuple
    splits: tuple              # acceptable split features, the builder's choice first
    leaf_ok: bool
    labels: tuple              # acceptable leaf classes (the builder's first)
    node: object               # the Node from node_at, or None for an empty branch
    reason: str


class _Checker:
    def __init__(self, data, criterion, tolerance, digits):
        self.data = data
        self.criterion = criterion
        self.tolerance = tolerance
        self.digits = digits
        X = np.asarray(data.X)
        self.columns = {f: X[:, j] for j, f in enumerate(data.features)}
        self.columns[data.target] = np.asarray(data.y)
        self.domain = {f: tuple(d) for f, d in zip(data.features, data.domains)}
        self.domain[data.target] = tuple(data.classes)
        self.variables = tuple(data.features) + (data.target,)
        self._decisions = {}
        self._grown = {}
        self._nodes = {}
        self._tree_text = None

    # -- names --
    def variable(self, tok: _Tok) -> str:
        name = tok.text
        if name in self.columns:
            return name
        raise _Unreadable(f"unknown variable {name!r}; variables are: {', '.join(self.variables)}"
                          f"{_did_you_mean(name, self.variables)}")

    def feature(self, name: str) -> str:
        if name in self.data.features:
            return name
        if name == self.data.target:
            raise _Unreadable(f"{name!r} is the target; a node splits on a feature: {', '.join(self.data.features)}")
        raise _Unreadable(f"unknown feature {name!r}; features are: {', '.join(self.data.features)}"
                          f"{_did_you_mean(name, self.data.features)}")

    def value(self, var: str, name: str) -> str:
        dom = self.domain[var]
        if name in dom:
            return name
        raise _Unreadable(f"{name!r} is not a value of {var}; values are: {', '.join(dom)}{_did_you_mean(name, dom)}")

    def label(self, name: str) -> str:
        classes = self.domain[self.data.target]
        if name in classes:
            return name
        raise _Unreadable(f"unknown class {name!r}; classes of {self.data.target} are: {', '.join(classes)}"
                          f"{_did_you_mean(name, classes)}")

    # -- one line --
    def check_line(self, number: int, body: str) -> ClaimResult:
        if len(body) > MAX_LINE_LENGTH:
            return ClaimResult(number, _clip(body, 80), "unknown", "unreadable",
                               message=f"line of {len(body):,} characters; at most {MAX_LINE_LENGTH:,} are allowed")
        kind, answer = "unknown", None
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

    # -- measures --
    def parse_measure(self, toks) -> _Measure:
        head = toks[0].text
        name = _MEASURES[_norm_name(head)]
        inner = _inside_parens(toks, head)
        bars = [i for i, t in enumerate(inner) if t.kind == "p" and t.text == "|"]
        if len(bars) > 1:
            raise _Unreadable(f"more than one '|' in {head}(...); write {head}(variables | conditions)")
        left = inner[:bars[0]] if bars else inner
        right = inner[bars[0] + 1:] if bars else []
        if bars and not right:
            raise _Unreadable(f"nothing after '|' in {head}(...); write conditions such as outlook or outlook = sunny")
        given, fixed = self.conditions(right)
        if name == "I":
            groups = _split_on(left, ";")
            if len(groups) == 1:
                names = self.names(groups[0], head)
                if len(names) != 2:
                    raise _Unreadable(f"{head}(...) needs two variables: I(A; B) or I(A, B), found {len(names)}")
                sides = ((names[0],), (names[1],))
            elif len(groups) == 2:
                sides = (self.names(groups[0], head), self.names(groups[1], head))
            else:
                raise _Unreadable(f"more than one ';' in {head}(...); write I(A; B) or I(A; B | C)")
            return _Measure(name, sides, given, fixed)
        if any(t.kind == "p" and t.text == ";" for t in left):
            raise _Unreadable(f"';' in {head}(...); a ';' separates the two sides of I(A; B)")
        names = self.names(left, head)
        if name != "H" and len(names) != 1:
            raise _Unreadable(f"{head}(...) takes one attribute, found {len(names)}: "
                              f"write {head}(outlook) or {head}(outlook | conditions)")
        return _Measure(name, names, given, fixed)

    def names(self, toks, head) -> tuple:
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
            if len(item) == 1 and item[0].kind == "w":
                given.append(self.variable(item[0]))
            elif len(item) == 3 and item[0].kind == "w" and item[1].text == "=" and item[2].kind == "w":
                var = self.variable(item[0])
                fixed.append((var, self.value(var, item[2].text)))
            elif not item:
                raise _Unreadable("a condition is missing after ','; write conditions such as outlook, humidity = high")
            else:
                raise _Unreadable(f"cannot read the condition {_show_toks(item)}; write a variable (outlook) "
                                  f"or variable = value (outlook = sunny)")
        return tuple(given), tuple(fixed)

    def rows(self, fixed):
        mask = np.ones(len(self.data.y), bool)
        for var, val in fixed:
            mask &= self.columns[var] == self.domain[var].index(val)
        if not mask.any():
            where = ", ".join(f"{v} = {x}" for v, x in fixed)
            raise _Unreadable(f"no row of the data has {where}; the measure is undefined")
        return mask

    def joint(self, names, mask):
        cols = [self.columns[v][mask].tolist() for v in names]
        return list(zip(*cols)) if cols else [()] * int(mask.sum())

    def check_measure(self, number, body, m: _Measure, answer_text) -> ClaimResult:
        kind = _KIND[m.name]
        quantity = _canonical(m)
        mask = self.rows(m.fixed)
        value, steps, before, parts = self.evaluate(m, mask, quantity)
        value = _simplify(value)
        if "=" in answer_text or "≈" in answer_text:
            raise _Unreadable(f"a second '=' after {quantity}; give one answer per claim: a decimal "
                              f"or an exact expression")
        answer = _parse_number_answer(answer_text)
        verdict, message = self.judge(value, answer, parts)
        expected_decimal = decimal_text(value, max(self.digits, answer.decimals))
        explanation = before + _steps_lines(quantity, steps + [_exact_text(value), decimal_text(value, self.digits)])
        return ClaimResult(number, body, kind, verdict, answer=answer.text, answer_value=answer.value,
                           expected=value, expected_decimal=expected_decimal, message=message,
                           explanation=tuple(explanation), quantity=quantity)

    def evaluate(self, m: _Measure, mask, quantity):
        """The exact value (by infotree.measures on label sequences), the textbook steps, the
        derivation lines of its parts, and ``(op, x, y)`` when it is x - y or x / y."""
        target = self.data.target
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
            raise _Unreadable(f"{quantity} is undefined: {si_name} = 0 ({', '.join(a)} has a single value "
                              f"on these rows)")
        d = self.digits
        before = (_steps_lines(ig_name, steps + [_exact_text(_simplify(value)), decimal_text(value, d)])
                  + _steps_lines(si_name, [_h_symbol(a, m.given, m.fixed)] + si_steps
                                 + [_exact_text(_simplify(si)), decimal_text(si, d)]))
        return Ratio(value, si), [f"{ig_name} / {si_name}"], before, ("/", value, si)

    def entropy(self, left, given, mask):
        """H(left | given) on the masked rows, with its textbook form."""
        L = self.joint(left, mask)
        if not given:
            counts = [c for _, c in sorted(Counter(L).items())]
            return entropy_of_labels(L), [h_of(counts), entropy_form(counts, style="inverse")]
        C = self.joint(given, mask)
        return conditional_entropy(L, given=C), [conditional_entropy_form(_table(C, L))]

    def information(self, a, b, given, fixed, mask):
        """I(a; b | given) on the masked rows, its form H(b | given) - H(b | a, given), and those two parts."""
        A, B = self.joint(a, mask), self.joint(b, mask)
        if given:
            value = conditional_mutual_information(A, B, given=self.joint(given, mask))
        else:
            value = mutual_information(A, B)
        h1, (form1, *_) = self.entropy(b, given, mask)
        h2, (form2, *_) = self.entropy(b, tuple(a) + tuple(given), mask)
        symbolic = f"{_h_symbol(b, given, fixed)} - {_h_symbol(b, tuple(a) + tuple(given), fixed)}"
        return value, [symbolic, f"{_bracket(form1)} - {_bracket(form2)}"], ("-", h1, h2)

    def judge(self, value, answer: _Answer, parts=None):
        """(verdict, message) of a number or expression answer against the exact value."""
        tol, digits = self.tolerance, self.digits
        if answer.form == "exact":
            if value == answer.value:
                return "right", ""
            shown = _safe_decimal(answer.value, digits)
            said = f"your expression is {shown}" if shown is not None else "your expression is another value"
            return "wrong", f"not exactly equal: {said}, the value is {decimal_text(value, digits)}"
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
        rounded = decimal_text(value, d)
        r = Fraction(rounded)
        if r == a:
            return "right", ""
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

    # -- trees: one node at a time --
    def count(self, path) -> int:
        mask = np.ones(len(self.data.y), bool)
        for f, v in path:
            mask &= self.columns[f] == self.domain[f].index(v)
        return int(mask.sum())

    def node(self, path):
        """The builder's record of the node at ``path`` (node_at), once per set of conditions."""
        key = frozenset(path)
        node = self._nodes.get(key)
        if node is None:
            from ..tree import node_at

            node = self._nodes[key] = node_at(self.data, list(path), criterion=self.criterion)
        return node

    def decide(self, path) -> _Decision:
        key = frozenset(path)
        d = self._decisions.get(key)
        if d is not None:
            return d
        classes = self.domain[self.data.target]
        if path and self.count(path) == 0:
            parent = self.decide(path[:-1])
            d = _Decision(path, 0, 0, (0,) * len(classes), (), True, parent.labels, None,
                          "empty branch: no training rows; labelled with the parent's majority class")
        else:
            node = self.node(path)
            counts = tuple(int(c) for c in node.class_counts)
            top = max(counts)
            majority = tuple([classes[node.label]] + [c for c, k in zip(classes, counts)
                                                      if k == top and c != classes[node.label]])
            if node.split is None:
                d = _Decision(path, node.n, node.errors, counts, (), True, majority, node, node.reason)
            else:
                choices = (node.split_feature,) + tuple(self.data.features[j] for j in node.ties)
                leaf_ok, keep = False, choices
                if self.criterion == "gain_ratio":
                    keep = tuple(g for g in choices if self.grown_errors(path, g) < node.errors)
                    leaf_ok = len(keep) < len(choices)
                d = _Decision(path, node.n, node.errors, counts, keep, leaf_ok, majority, node, node.reason)
        self._decisions[key] = d
        return d

    def grown_errors(self, path, split=None) -> int:
        """Training errors of the subtree the builder grows below ``path`` (split on ``split`` there)."""
        key = (frozenset(path), split)
        if key in self._grown:
            return self._grown[key]
        if split is None:
            if path and self.count(path) == 0:
                return 0
            node = self.node(path)
            if node.split is None:
                out = node.errors
            else:
                out = self.grown_errors(path, node.split_feature)
        else:
            out = sum(self.grown_errors(path + ((split, v),)) for v in self.domain[split]
                      if self.count(path + ((split, v),)))
        self._grown[key] = out
        return out

    def follow(self, path):
        """The decision at ``path``, or a message naming the first node the path leaves the tree at."""
        for i, (f, v) in enumerate(path):
            d = self.decide(path[:i])
            if f not in d.splits:
                return None, f"the tree has no node {_where(path)}: {_not_split_on(d, _where_the(path[:i]), f)}"
        return self.decide(path), None

    def check_tree_claim(self, number, body, kind, toks, answer) -> ClaimResult:
        if kind == "root":
            if len(toks) != 1:
                raise _Unreadable(f"unexpected {_show_toks(toks[1:])} after 'root'; write root = outlook")
            path = ()
        else:
            path = self.path(_inside_parens(toks, toks[0].text), toks[0].text)
        name = _answer_name(answer, kind)
        if kind == "leaf":
            name = self.label(name)
        else:
            name = self.feature(name)
        d, problem = self.follow(path)
        if d is None:
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, message=problem,
                               explanation=())
        where = _where_the(path)
        expl = tuple(self.node_lines(d))
        if kind == "leaf":
            expected = d.labels if d.leaf_ok else ()
            if d.leaf_ok and name in d.labels:
                return ClaimResult(number, body, kind, "right", answer=answer, answer_value=name,
                                   expected=expected, explanation=expl)
            if d.leaf_ok:
                msg = f"{where} is a leaf of class {_or(d.labels)}, not {name}{_empty_note(d)}"
            else:
                msg = f"{where} is not a leaf: it {_describe(d)}"
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=expected,
                               message=msg, explanation=expl)
        if name in d.splits:
            msg = "" if name == d.splits[0] else (f"{name} ties exactly with {d.splits[0]}, which the builder "
                                                  f"takes (first in column order); both are right")
            return ClaimResult(number, body, kind, "right", answer=answer, answer_value=name, expected=d.splits,
                               message=msg, explanation=expl)
        return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=d.splits,
                           message=_not_split_on(d, where, name), explanation=expl)

    def path(self, toks, head) -> tuple:
        if not toks or (len(toks) == 1 and toks[0].kind == "w" and toks[0].text.lower() == "root"):
            return ()
        out, seen = [], set()
        for item in _split_on(toks, ","):
            if len(item) == 3 and item[0].kind == "w" and item[1].text == "=" and item[2].kind == "w":
                f = self.feature(item[0].text)
                if f in seen:
                    raise _Unreadable(f"feature {f} appears twice in {head}(...); a path fixes each feature once")
                seen.add(f)
                out.append((f, self.value(f, item[2].text)))
            else:
                raise _Unreadable(f"cannot read {_show_toks(item) if item else 'an empty part'} in {head}(...); "
                                  f"write the path from the root: {head}(outlook = sunny, humidity = high)")
        return tuple(out)

    def node_lines(self, d: _Decision) -> list[str]:
        """The candidate measures at a node and its decision, for --explain."""
        classes = self.domain[self.data.target]
        counts = ", ".join(f"{c} {k}" for c, k in zip(classes, d.counts))
        lines = [f"{_where_the(d.path)}: n = {d.n} ({counts})"]
        node = d.node
        if node is not None and node.tables is not None:
            digits = self.digits
            for c in node.candidates():
                parts = [f"IG({c.feature}) = {decimal_text(c.gain, digits)}"]
                if self.criterion != "gain":
                    gr = c.gain_ratio
                    parts.append(f"SplitInfo({c.feature}) = {decimal_text(c.split_info, digits)}")
                    parts.append(f"GR({c.feature}) = {'undefined' if gr is None else decimal_text(gr, digits)}")
                lines.append("  " + ", ".join(parts))
        lines.append(f"decision: {_decision_text(d)}")
        return lines

    # -- trees: a whole tree --
    def check_tree_block(self, block) -> ClaimResult:
        first, last = block[0][0], block[-1][0]
        text = "\n".join(b for _, b in block)
        try:
            claimed = self.parse_tree(block)
        except _Unreadable as e:
            return ClaimResult(first, text, "tree", "unreadable", last_line=last, message=str(e))
        problems = []
        self.compare_tree(claimed, (), problems)
        expected = self.tree_text()
        expl = tuple(["the tree grown with the builder's tie-breaks:"] + ["  " + s for s in expected.split("\n")])
        if not problems:
            return ClaimResult(first, text, "tree", "right", last_line=last, answer=text, expected=expected,
                               explanation=expl)
        msg = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        return ClaimResult(first, text, "tree", "wrong", last_line=last, answer=text, expected=expected,
                           message=msg, explanation=expl)

    def tree_text(self) -> str:
        if self._tree_text is None:
            from ..printers.lines import tree_lines
            from ..tree import build_tree

            tree = build_tree(self.data, criterion=self.criterion)
            self._tree_text = "\n".join("|  " * depth + line for _, depth, line in tree_lines(tree))
        return self._tree_text

    def parse_tree(self, block):
        lines = [_tree_line(number, body) for number, body in block]
        for ln in lines:
            if ln.feature is not None:
                ln.feature = self.feature(ln.feature)
                ln.value = self.value(ln.feature, ln.value)
            if ln.label is not None:
                ln.label = self.label(ln.label)
        if lines[0].feature is None:
            if len(lines) > 1:
                raise _Unreadable(f"line {lines[1].number}: a tree that is a single leaf ': class' has one line")
            return lines[0]
        if lines[0].depth != 0:
            raise _Unreadable(f"line {lines[0].number}: the first line of a tree is not indented; found "
                              f"{lines[0].depth} '|'")
        node, i = _build_claimed(lines, 0, 0)
        if i < len(lines):  # pragma: no cover - _build_claimed consumes or raises
            raise _Unreadable(f"line {lines[i].number}: cannot place this line in the tree")
        return node

    def compare_tree(self, claimed, path, problems):
        d = self.decide(path)
        where = _where_the(path)
        if isinstance(claimed, _TreeLine):  # a leaf
            at = f"line {claimed.number}: "
            if not d.leaf_ok:
                problems.append(f"{at}{where} is not a leaf: it {_describe(d)}")
                return
            if claimed.label not in d.labels:
                problems.append(f"{at}the leaf {_where(path) or 'at the root'} has class {_or(d.labels)}, "
                                f"not {claimed.label}{_empty_note(d)}")
            if claimed.counts is not None:
                n, errors = claimed.counts
                if n != d.n or (errors is not None and errors != d.errors):
                    shown = f"({d.n}/{d.errors})" if d.errors else f"({d.n})"
                    problems.append(f"{at}the leaf {_where(path) or 'at the root'} has {_rows_text(d.n)} and "
                                    f"{d.errors} training errors {shown}, not ({claimed.counts_text})")
            return
        feature, branches, number = claimed
        if feature not in d.splits:
            problems.append(f"line {number}: {_not_split_on(d, where, feature)}")
            return
        for v in self.domain[feature]:
            child = path + ((feature, v),)
            if v in branches:
                self.compare_tree(branches[v], child, problems)
            elif self.count(child):
                problems.append(f"branch {_where(child)} ({_rows_text(self.count(child))}) is missing")


# -- tree text ---------------------------------------------------------------------------

_TREE_LINE = re.compile(r"^(?P<bars>(?:\|\s*)*)(?:(?P<feature>[^=:|]+?)\s*=\s*(?P<value>[^:]*?))?\s*"
                        r"(?::\s*(?P<label>[^()]*?)\s*(?:\((?P<counts>[^()]*)\))?)?\s*$")
_COUNT = re.compile(r"\d+(?:\.\d*)?")


class _TreeLine:
    __slots__ = ("number", "depth", "feature", "value", "label", "counts", "counts_text")

    def __init__(self, number, depth, feature, value, label, counts, counts_text):
        self.number, self.depth, self.feature, self.value = number, depth, feature, value
        self.label, self.counts, self.counts_text = label, counts, counts_text


def _is_tree_line(body: str) -> bool:
    s = body.lstrip()
    if s.startswith(("|", ":")):
        return True
    lhs = re.split(r"[=≈]", s, maxsplit=1)
    if len(lhs) < 2 or "(" in lhs[0] or ")" in lhs[0]:
        return False
    word = lhs[0].strip()
    return bool(word) and _norm_name(word) not in _MEASURES and word.lower() not in _TREE_CLAIMS


def _tree_line(number, body) -> _TreeLine:
    m = _TREE_LINE.match(body)
    if not m or (m.group("feature") is None and m.group("label") is None):
        raise _Unreadable(f"line {number}: cannot read the tree line {_clip(body, 40)!r}; expected "
                          f"'feature = value', '|  feature = value: class (n)' or ': class'")
    depth = m.group("bars").count("|")
    label = m.group("label")
    if label is not None and not label:
        raise _Unreadable(f"line {number}: no class after ':'; write '{_clip(body.rstrip(': '), 30)}: class'")
    if m.group("feature") is not None and not m.group("value"):
        raise _Unreadable(f"line {number}: no value after '='; write 'feature = value'")
    counts, ctext = None, m.group("counts")
    if ctext is not None:
        counts = _leaf_counts(number, ctext)
    return _TreeLine(number, depth, m.group("feature"), m.group("value"), label, counts, ctext)


def _leaf_counts(number, text):
    s = text.strip()
    if re.fullmatch(r"0(?:\.0*)?\s*(?:,\s*empty)?", s):
        return (0, 0)
    parts = s.split("/")
    if len(parts) <= 2 and all(_COUNT.fullmatch(p.strip()) for p in parts):
        vals = [Fraction(p.strip()) for p in parts]
        if all(v.denominator == 1 for v in vals):
            return (int(vals[0]), int(vals[1]) if len(vals) == 2 else None)
    raise _Unreadable(f"line {number}: cannot read the leaf counts ({_clip(text, 20)}); "
                      f"expected (n), (n/errors) or (0, empty)")


def _build_claimed(lines, i, depth):
    """(feature, {value: subtree}, line number) of the node whose branch lines start at ``lines[i]``."""
    first = lines[i]
    feature, branches = first.feature, {}
    while i < len(lines) and lines[i].depth == depth:
        ln = lines[i]
        if ln.feature is None:
            raise _Unreadable(f"line {ln.number}: ': class' without 'feature = value' inside a tree")
        if ln.feature != feature:
            raise _Unreadable(f"line {ln.number}: the branches of one node test one feature; "
                              f"found {ln.feature} after {feature} (line {first.number})")
        if ln.value in branches:
            raise _Unreadable(f"line {ln.number}: branch {feature} = {ln.value} appears twice")
        i += 1
        if ln.label is not None:
            branches[ln.value] = ln
            if i < len(lines) and lines[i].depth > depth:
                raise _Unreadable(f"line {lines[i].number}: indented below a leaf (line {ln.number} "
                                  f"ends with ': {ln.label}')")
        else:
            if i < len(lines) and lines[i].depth > depth + 1:
                raise _Unreadable(f"line {lines[i].number}: indented {lines[i].depth - depth} levels below line "
                                  f"{ln.number}; each level adds one '|'")
            if i >= len(lines) or lines[i].depth != depth + 1:
                raise _Unreadable(f"line {ln.number}: {feature} = {ln.value} has neither ': class' nor "
                                  f"lines indented one more '|' below it")
            branches[ln.value], i = _build_claimed(lines, i, depth + 1)
    if i < len(lines) and lines[i].depth > depth:  # pragma: no cover - caught above
        raise _Unreadable(f"line {lines[i].number}: indented too deep")
    return (feature, branches, first.number), i


# -- small helpers -------------------------------------------------------------------------

def _did_you_mean(name, names) -> str:
    close = difflib.get_close_matches(str(name), list(names), n=1)
    if not close:
        low = {n.lower(): n for n in names}
        if str(name).lower() in low:
            close = [low[str(name).lower()]]
    return f" (did you mean {close[0]!r}?)" if close else ""


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
    if _norm_name(head.text) in _MEASURES:
        return _KIND[_MEASURES[_norm_name(head.text)]]
    raise _Unreadable(f"unknown claim {_clip(head.text, 30)!r}; expected H, I, IG (Gain), SplitInfo (IV), "
                      f"GR (GainRatio), root, split or leaf{_did_you_mean(head.text, _CLAIM_WORDS)}")


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
    else:
        inner = ", ".join(m.left)
    return _with_conditions(m.name, inner, m.given, m.fixed)


def _with_conditions(name, inner, given, fixed):
    conds = list(given) + [f"{v} = {x}" for v, x in fixed]
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
    if isinstance(x, Fraction):
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
    return f"{xs} {op} {ys} = {qs}", q


def _where(path) -> str:
    return ", ".join(f"{f} = {v}" for f, v in path)


def _where_the(path) -> str:
    return f"the node {_where(path)}" if path else "the root"


def _or(names) -> str:
    return " or ".join(names)


def _describe(d: _Decision) -> str:
    if not d.splits:
        return f"is a leaf of class {_or(d.labels)}"
    if len(d.splits) > 1:
        return f"splits on {_or(d.splits)} (tied exactly)"
    return f"splits on {d.splits[0]}"


def _not_split_on(d: _Decision, where: str, feature: str) -> str:
    """``the node outlook = rainy splits on windy, not on humidity`` (or: is a leaf ...)."""
    if not d.splits:
        return f"{where} is a leaf of class {_or(d.labels)}, not a split on {feature}"
    return f"{where} {_describe(d)}{' or is a leaf' if d.leaf_ok else ''}, not on {feature}"


def _empty_note(d: _Decision) -> str:
    return " (no training row reaches it: an empty branch takes its parent's majority class)" if not d.n else ""


def _rows_text(n: int) -> str:
    return f"{n} row" if n == 1 else f"{n} rows"


def _decision_text(d: _Decision) -> str:
    if not d.splits:
        return f"leaf {_or(d.labels)}: {d.reason}"
    text = f"split on {_or(d.splits)}: {d.reason}"
    if d.leaf_ok:
        text += "; a leaf is also right (the subtree would be collapsed)"
    return text


# -- the public entry ---------------------------------------------------------------------

def check_answers(text_or_lines, data, *, criterion="gain", tolerance=None, digits=4) -> Report:
    """Check every claim of an answers text (str, bytes or lines) against ``data``.

    ``data`` is a :class:`~infotree.data.Dataset` or a path for :func:`~infotree.data.load`;
    ``criterion`` is ``gain``, ``gain_ratio`` or ``gain_ratio_plain`` (hyphens allowed);
    ``tolerance`` a non-negative rational (``"1/100"``, ``0.01`` as a string or Fraction).
    An answers text that cannot be read raises :class:`AnswersError`; bad lines do not.
    """
    if criterion not in _CRITERIA:
        raise InfotreeError(f"unknown criterion {criterion!r}; allowed: gain, gain_ratio, gain_ratio_plain")
    criterion = _CRITERIA[criterion]
    tolerance = _tolerance_value(tolerance)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 50:
        raise InfotreeError(f"digits {digits!r} is not allowed; give an integer from 0 to 50")
    if isinstance(data, (str, os.PathLike)):
        from ..data import load

        data = load(data)
    if np.asarray(data.X).size and np.asarray(data.X).min() < 0:
        raise DataError("the data has missing values; checking needs complete data")
    lines = _lines_of(text_or_lines)
    checker = _Checker(data, criterion, tolerance, digits)
    results, block = [], []

    def flush():
        if block:
            results.append(checker.check_tree_block(list(block)))
            block.clear()

    for number, raw in enumerate(lines, 1):
        body = _strip_comment(raw) if len(raw) <= MAX_LINE_LENGTH else raw.strip()
        if not body or _IGNORED.fullmatch(body):
            flush()
            continue
        if len(body) <= MAX_LINE_LENGTH and _is_tree_line(body):
            block.append((number, body))
            continue
        flush()
        results.append(checker.check_line(number, body))
    flush()
    return Report(tuple(results), target=data.target, criterion=criterion, tolerance=tolerance, digits=digits)


_IGNORED = re.compile(r"(?:Number of leaves|Size of the tree)\s*:\s*\d+|single leaf:.*", re.I)


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


# -- printers --------------------------------------------------------------------------------

def _safe(s: str) -> str:
    """Text for a terminal: control and format characters (escapes, bidi overrides) shown as \\x.. codes."""
    return "".join(c if c == "\n" or unicodedata.category(c) not in ("Cc", "Cf") else
                   f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}" for c in s)


def _expected_text(r: ClaimResult) -> str | None:
    e = r.expected
    if e is None:
        return None
    if isinstance(e, tuple):
        return _or(e) if e else None
    if isinstance(e, str):
        return e
    return _exact_text(e)


def format_text(report: Report, *, explain=False) -> str:
    """One line per claim (✓ right, ≈ close, ✗ wrong, ? unreadable), notes below, then the summary."""
    out = []
    for r in report.results:
        lines = _safe(r.text).split("\n")
        label = f"line {r.line}" if r.last_line == r.line else f"lines {r.line}-{r.last_line}"
        out.append(f"{_MARK[r.verdict]} {label}: {lines[0]}")
        out.extend(f"{' ' * (len(label) + 4)}{s}" for s in lines[1:])
        if r.message:
            prefix = {"close": "close: ", "unreadable": ""}.get(r.verdict, "")
            out.append(f"    {prefix}{_safe(r.message)}")
        if not r.right and r.quantity is not None:
            out.append(f"    correct: {r.quantity} = {r.expected_decimal} = {_exact_text(r.expected)}")
        if explain and r.explanation:
            out.append("    explanation:")
            out.extend(f"      {_safe(s)}" for s in r.explanation)
    out.append("")
    out.append(report.summary())
    return "\n".join(out) + "\n"


def report_json(report: Report, *, data=None, answers=None) -> dict:
    """The report as JSON-ready data (keys in the module docstring)."""
    claims = []
    for r in report.results:
        v = r.answer_value
        claims.append({
            "line": r.line,
            "last_line": r.last_line,
            "claim": r.text,
            "kind": r.kind,
            "verdict": r.verdict,
            "quantity": r.quantity,
            "answer": r.answer,
            "answer_value": None if v is None else v if isinstance(v, str) else _exact_text(v),
            "expected": _expected_text(r),
            "expected_decimal": r.expected_decimal,
            "acceptable": list(r.expected) if isinstance(r.expected, tuple) else None,
            "message": r.message,
            "explanation": list(r.explanation),
        })
    c = report.counts
    return {
        "version": 1,
        "data": data,
        "answers": answers,
        "target": report.target,
        "criterion": report.criterion,
        "tolerance": None if report.tolerance is None else counts_text(report.tolerance),
        "digits": report.digits,
        "summary": {"claims": len(report.results), "right": c["right"], "close": c["close"],
                    "wrong": c["wrong"], "unreadable": c["unreadable"], "all_right": report.all_right,
                    "exit_status": report.exit_status},
        "claims": claims,
        "error": None,
    }


# -- the command ---------------------------------------------------------------------------------

def _digits_arg(text):
    try:
        d = int(text)
    except ValueError:
        d = -1
    if not 0 <= d <= 50:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50")
    return d


def _tolerance_arg(text):
    try:
        return _tolerance_value(text)
    except InfotreeError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_check_command(sub, parents=(), *, help):
    """Add ``infotree check`` to the argparse subparsers ``sub`` (``parents`` is not used; ``help``
    is the one-line help the command line also shows without importing this module)."""
    c = sub.add_parser(
        "check", help=help,
        description="Check claims such as 'H(play) = 0.940', 'IG(outlook) = 0.246', 'root = outlook' or a "
                    "Weka-style tree, one per line. Exit status: 0 all right, 1 any not right, 2 unreadable input.")
    c.add_argument("answers", metavar="ANSWERS", help="the answers file ('-' for standard input)")
    c.add_argument("--data", required=True, metavar="DATA", help="CSV or ARFF file the answers are about")
    c.add_argument("--target", metavar="T", help="the class column (default: the last column)")
    c.add_argument("--drop", action="append", metavar="COL", help="leave column COL out (repeatable)")
    c.add_argument("--columns", action="append", metavar="A,B,...", help="read only these columns, the target among them")
    c.add_argument("--criterion", choices=["gain", "gain-ratio", "gain-ratio-plain"], default="gain",
                   help="how trees are grown: gain (ID3, default), gain-ratio (C4.5 as J48), gain-ratio-plain")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.add_argument("--tolerance", type=_tolerance_arg, metavar="X",
                   help="also accept numbers within X of the exact value (a rational: 0.01 or 1/100)")
    c.add_argument("--explain", action="store_true", help="show the derivation of each value")
    c.add_argument("--digits", type=_digits_arg, default=4, help="decimals of the values shown (default 4)")
    c.set_defaults(func=run_check_command)
    return c


def run_check_command(args, out) -> int:
    """Run ``infotree check``: 0 all right, 1 any claim not right, 2 unreadable answers or data."""
    try:
        text = read_answers(args.answers)
        from ..cli import as_flags, selection
        from ..data import load

        try:
            data = load(args.data, target=args.target, **selection(args))
        except DataError as e:
            raise DataError(as_flags(str(e))) from None
        report = check_answers(text, data, criterion=args.criterion, tolerance=args.tolerance,
                               digits=args.digits)
    except InfotreeError as e:
        sys.stderr.write(f"infotree: error: {e}\n")
        if getattr(args, "format", "text") == "json":
            tolerance = getattr(args, "tolerance", None)
            doc = {"version": 1, "data": args.data, "answers": args.answers, "target": args.target,
                   "criterion": _CRITERIA.get(args.criterion, args.criterion),
                   "tolerance": None if tolerance is None else counts_text(tolerance), "digits": args.digits,
                   "summary": None, "claims": [], "error": str(e)}
            out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return 2
    if args.format == "json":
        out.write(json.dumps(report_json(report, data=args.data, answers=args.answers),
                             ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(format_text(report, explain=args.explain))
    return report.exit_status
