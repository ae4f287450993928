"""A safe parser for the exact grammar (no eval, bounded work).

The grammar: integers, ``+ - * /``, parentheses, ``log2(x)`` and ``log(x, 2)``,
where ``x`` is a positive rational expression.  The result is a ``Fraction``,
an :class:`~infotree.exact.Exact` or, for a quotient of two non-rational values,
a :class:`~infotree.exact.Ratio`.

    >>> str(parse_exact("9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)"))
    '9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)'
"""

from __future__ import annotations

import re
from fractions import Fraction

from .errors import InfotreeError, LimitError
from .exact import Exact, Ratio

__all__ = ["ParseError", "parse_exact", "parse_rational", "MAX_LENGTH"]

#: Longest text accepted (characters); longer input is refused before parsing.
MAX_LENGTH = 10_000
_MAX_DIGITS = 40          # an integer literal; keeps factorisation fast
_MAX_DEPTH = 50           # parentheses / unary signs nested
_MAX_LOG_ARG = 10 ** 12   # log2 arguments: trial division factors them in milliseconds


class ParseError(InfotreeError):
    """Text that is not an expression of the exact grammar."""


_TOKEN = re.compile(r"\s*(?:([0-9]+)|(log2|log)|(\*\*|[-+*/(),^])|(\S))")
_ALIASES = str.maketrans({"·": "*", "×": "*", "−": "-", "⋅": "*", "÷": "/"})


def _tokens(text):
    out = []
    for m in _TOKEN.finditer(text):
        num, name, op, bad = m.groups()
        if bad is not None:
            raise ParseError(f"unexpected character {bad!r} at position {m.start(4) + 1} in {_show(text)}; "
                             "allowed: integers, + - * / ( ), log2(x), log(x, 2)")
        if num is not None:
            if len(num) > _MAX_DIGITS:
                raise ParseError(f"integer with {len(num)} digits in {_show(text)}; at most {_MAX_DIGITS} digits are allowed")
            out.append(("num", int(num), m.start(1)))
        elif name is not None:
            out.append(("name", name, m.start(2)))
        else:
            if op in ("**", "^"):
                raise ParseError(f"powers ({op!r}) are not allowed in {_show(text)}; "
                                 "allowed: integers, + - * / ( ), log2(x), log(x, 2)")
            out.append(("op", op, m.start(3)))
    return out


def _show(text, limit=60):
    return repr(text if len(text) <= limit else text[:limit] + "...")


class _Parser:
    def __init__(self, text):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None, len(self.text))

    def take(self, kind, value=None):
        t = self.peek()
        if t[0] != kind or (value is not None and t[1] != value):
            want = repr(value) if value else kind
            got = "end of input" if t[0] is None else repr(t[1])
            raise ParseError(f"expected {want} at position {t[2] + 1}, found {got}, in {_show(self.text)}")
        self.i += 1
        return t

    def parse(self):
        if not self.toks:
            raise ParseError("empty expression; expected a number or log2(x)")
        v = self.expr()
        t = self.peek()
        if t[0] is not None:
            raise ParseError(f"unexpected {t[1]!r} at position {t[2] + 1} in {_show(self.text)}")
        return v

    def expr(self):
        v = self.term()
        while self.peek()[0] == "op" and self.peek()[1] in "+-":
            op = self.take("op")[1]
            w = self.term()
            v = _add(v, w, op, self.text)
        return v

    def term(self):
        v = self.factor()
        while self.peek()[0] == "op" and self.peek()[1] in "*/":
            op = self.take("op")[1]
            w = self.factor()
            v = _mul(v, w, op, self.text)
        return v

    def factor(self):
        t = self.peek()
        if t[0] == "op" and t[1] in "+-":
            self.i += 1
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise ParseError(f"expression nested more than {_MAX_DEPTH} deep in {_show(self.text)}")
            v = self.factor()
            self.depth -= 1
            return -v if t[1] == "-" else v
        return self.atom()

    def atom(self):
        t = self.peek()
        if t[0] == "num":
            self.i += 1
            return Fraction(t[1])
        if t[0] == "op" and t[1] == "(":
            self.i += 1
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise ParseError(f"expression nested more than {_MAX_DEPTH} deep in {_show(self.text)}")
            v = self.expr()
            self.take("op", ")")
            self.depth -= 1
            return v
        if t[0] == "name":
            self.i += 1
            self.take("op", "(")
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise ParseError(f"expression nested more than {_MAX_DEPTH} deep in {_show(self.text)}")
            arg = self.expr()
            if t[1] == "log":
                self.take("op", ",")
                base = self.expr()
                if base != 2:
                    raise ParseError(f"log base {base} in {_show(self.text)}; only base 2 is allowed (log(x, 2) or log2(x))")
            self.take("op", ")")
            self.depth -= 1
            return _log2(arg, self.text)
        got = "end of input" if t[0] is None else repr(t[1])
        raise ParseError(f"expected a number, '(' or log2( at position {t[2] + 1}, found {got}, in {_show(self.text)}")


def _is_rat(v):
    return isinstance(v, Fraction) or (isinstance(v, Exact) and v.is_rational())


def _rat(v):
    return v if isinstance(v, Fraction) else v.c0


def _log2(arg, text):
    if not _is_rat(arg):
        raise ParseError(f"log2 of an irrational value in {_show(text)}; the argument must be a rational number")
    q = _rat(arg)
    if q <= 0:
        raise ParseError(f"log2 of {q} in {_show(text)}; the argument must be positive")
    if q.numerator > _MAX_LOG_ARG or q.denominator > _MAX_LOG_ARG:
        raise ParseError(f"log2 argument too large in {_show(text)}; numerator and denominator must be at most 10**12")
    return Exact.log2(q)


def _add(v, w, op, text):
    if isinstance(v, Ratio) or isinstance(w, Ratio):
        raise ParseError(f"a quotient of logarithms can only stand alone, as (A)/(B), in {_show(text)}")
    return v + w if op == "+" else v - w


def _mul(v, w, op, text):
    if isinstance(v, Ratio) or isinstance(w, Ratio):
        raise ParseError(f"a quotient of logarithms can only stand alone, as (A)/(B), in {_show(text)}")
    if op == "*":
        if not (_is_rat(v) or _is_rat(w)):
            raise ParseError(f"product of two logarithms in {_show(text)}; multiply logarithms only by numbers")
        r = v * w
        return r
    if _is_rat(w):
        if _rat(w) == 0:
            raise ParseError(f"division by zero in {_show(text)}")
        return v / _rat(w)
    if not w:
        raise ParseError(f"division by zero in {_show(text)}")
    return Ratio(v if isinstance(v, Exact) else Exact(v), w)


def parse_exact(text: str):
    """Parse ``text`` in the exact grammar; raise :class:`ParseError` if it is not."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ParseError(f"expression of {len(text)} characters; at most {MAX_LENGTH} are allowed")
    text = text.translate(_ALIASES)
    v = _Parser(text).parse()
    if isinstance(v, Fraction):
        return v
    if isinstance(v, Exact) and v.is_rational():
        return v.c0
    return v


_RATIONAL = re.compile(r"([+-]?)(?:([0-9]+)/([0-9]+)|([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?|\.([0-9]+)(?:[eE]([+-]?[0-9]+))?)",
                       re.ASCII)


def parse_rational(text: str, *, what="value") -> Fraction:
    """An exact rational from ``75``, ``-2.5``, ``1.5e3`` or ``1/3``, in bounded work.

    ``Fraction(text)`` would expand ``1e999999999`` into a billion-digit integer (a
    hang); here the text and the digits its exponent expands into are both bounded by
    the value-length budget (:mod:`infotree.limits`; beyond it a :class:`LimitError`).
    ``what`` names the value in the one-line :class:`ParseError`.
    """
    from . import limits

    budget = limits.current().value_length
    if not isinstance(text, str):
        raise ParseError(f"{what} must be text such as 0.01 or 1/100, not {type(text).__name__}")
    t = text.strip()
    if len(t) > budget:
        raise LimitError(f"{what} {_show(t)} has {len(t)} characters; the limit is {budget} "
                         f"(raise it with {limits.option('value_length')})")
    m = _RATIONAL.fullmatch(t)
    if m is None:
        raise ParseError(f"{what} {_show(t)} is not a rational number; write it like 0.01, 1.5e3 or 1/100")
    sign, num, den, whole, frac, exp, only_frac, exp2 = m.groups()
    if num is not None:
        if int(den) == 0:
            raise ParseError(f"{what} {_show(t)} divides by zero; write a non-zero denominator")
        q = Fraction(int(num), int(den))
    else:
        if only_frac is not None:
            whole, frac, exp = "0", only_frac, exp2
        frac = frac or ""
        power = (int(exp) if exp else 0) - len(frac)
        digits = (whole + frac).lstrip("0")
        if digits and abs(power) + len(digits) > budget:
            raise LimitError(f"{what} {_show(t)} expands to more than {budget} digits; the limit is {budget} "
                             f"(raise it with {limits.option('value_length')})")
        if not digits:
            q = Fraction(0)  # 0e999999999: no power of ten to build
        else:
            q = Fraction(int(digits) * 10 ** power) if power >= 0 else Fraction(int(digits), 10 ** -power)
    return -q if sign == "-" else q
