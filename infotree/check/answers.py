"""The right-hand side of a claim: a number or an expression, written as students write them.

Forms (each ends optionally in ``bits``; small powers ``(9/14)^2``, ``(9/14)²`` for Gini)::

    0.940   .94   1.     a decimal: graded at its own decimals and significant digits
    1                    an integer: a claim of the exact value
    24.7%                a percentage: 0.247, three significant digits
    -(9/14)log2(9/14) - (5/14)log(5/14)      an exact expression
    9/14*ln(14/9)/ln(2)  ln is the natural logarithm; ln(x)/ln(2) is log2(x) exactly
    0.940 - 0.694        an expression with decimals: approximate (rounded intermediate values)

``log`` is base 2 (``log(x, 2)`` too) unless the grader says ``log="e"``; then ``log``
is ln and base 2 is written ``log2``.  Multiplication may be implicit: ``2log2(3)``,
``(9/14)(log2 9 - log2 14)`` needs ``log2(...)`` with parentheses; ``·``, ``×``, ``−`` are read.

Nothing is evaluated in floating point except to *show* a value.  The text is
tokenized here, rewritten into :func:`~infotree.parse.parse_exact`'s grammar (decimals as
fractions, ``%`` as ``/100``, implicit products as ``*``) and parsed there: no ``eval``,
bounded length, digits, nesting and logarithm arguments.  An expression with ``ln`` is
parsed twice, once with each ``ln(x)`` as ``log2(x)`` and once as ``2*log2(x)``: when
both give the same value the natural logarithms cancel (``ln(x)/ln(2)``) and the value
is exact; when the second is twice the first the expression is ``ln 2`` times the
first, a value in nats; anything else mixes ln with other terms and is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..exact import Exact, Ratio
from ..parse import ParseError, parse_exact
from .names import Unreadable

__all__ = ["Answer", "MAX_DECIMALS", "MAX_LOG_ARGUMENT", "read_answer", "significant_digits"]

#: Most decimals in a decimal answer.
MAX_DECIMALS = 50
#: Largest numerator or denominator of a logarithm's argument in an answer.
MAX_LOG_ARGUMENT = 10 ** 6

_ALIASES = str.maketrans({"−": "-", "·": "*", "×": "*", "⋅": "*", "÷": "/", "∗": "*"})
_DECIMAL = re.compile(r"[+-]?(?:\d{1,60}\.\d{0,60}|\.\d{1,60}|\d{1,60})")
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?|\.\d+)|(log2|log|ln|lg)|(\*\*|[-+*/(),%^²³])|(\S))")
#: Highest power an answer may write (``(9/14)^2``, ``(5/14)²``): the operand is repeated that often.
MAX_POWER = 4


@dataclass(frozen=True)
class Answer:
    """A student's answer.

    ``form``: ``decimal``, ``integer``, ``exact`` (an exact expression), ``approximate``
    (an expression with decimals) or ``nats`` (an expression in natural logarithms: its
    value is ``value`` times ln 2).  ``decimals``: the decimals written (the finest, for
    an approximate expression); ``significant``: significant digits of a decimal.
    """

    text: str
    form: str
    value: object
    decimals: int = 0
    significant: int = 0


def significant_digits(digits: str) -> int:
    """Significant digits of a written decimal: ``0.0292`` → 3, ``0.940`` → 3, ``1.`` → 1, ``0.0`` → 0."""
    s = digits.lstrip("+-").replace(".", "").lstrip("0")
    return len(s)


def _decimal(text: str, plain: str) -> Answer:
    sign = -1 if plain.startswith("-") else 1
    digits = plain.lstrip("+-")
    if "." in digits:
        whole, frac = digits.split(".")
        if len(frac) > MAX_DECIMALS:
            raise Unreadable(f"{_clip(text, 30)!r} has {len(frac)} decimals; at most {MAX_DECIMALS} are allowed")
        if len(whole) > 40:
            raise Unreadable(f"{_clip(text, 30)!r} has {len(whole)} digits before the point; at most 40 are allowed")
        value = sign * Fraction(int((whole or "0") + frac), 10 ** len(frac))
        return Answer(text, "decimal", value, len(frac), significant_digits(digits))
    if len(digits) > 40:
        raise Unreadable(f"integer answer with {len(digits)} digits; at most 40 are allowed")
    return Answer(text, "integer", Fraction(sign * int(digits)), 0, significant_digits(digits))


def read_answer(rhs: str, *, log: str = "2") -> Answer:
    """The answer written after ``=``; :class:`Unreadable` with what is allowed when it cannot be read."""
    text = rhs.strip()
    if not text:
        raise Unreadable("no answer after '='; write a decimal (0.940), an integer or an exact expression")
    plain = text.translate(_ALIASES)
    low = plain.lower()
    for unit in ("bits", "bit"):
        if low.endswith(unit) and (len(low) == len(unit) or not low[-len(unit) - 1].isalpha()):
            plain = plain[:-len(unit)].rstrip()
            break
    if not plain:
        raise Unreadable(f"no number before {unit!r}; write e.g. 0.940 bits")
    if _DECIMAL.fullmatch(plain):
        return _decimal(text, plain)
    if plain.endswith("%") and _DECIMAL.fullmatch(plain[:-1].rstrip()):
        a = _decimal(text, plain[:-1].rstrip())
        d = a.decimals + 2
        if d > MAX_DECIMALS:
            raise Unreadable(f"{_clip(text, 30)!r} has too many decimals; at most {MAX_DECIMALS} are allowed")
        return Answer(text, "decimal", a.value / 100, d, a.significant)
    if re.fullmatch(r"[+-]?\d{1,40},\d{1,50}", plain):
        raise Unreadable(f"decimal comma in {_clip(text, 30)!r}; write a decimal point: {plain.replace(',', '.')}")
    return _expression(text, plain, log)


def _clip(s: str, limit: int) -> str:
    return s if len(s) <= limit else s[:limit] + "..."


def _tokens(text: str):
    out = []
    for m in _TOKEN.finditer(text):
        num, name, op, bad = m.groups()
        if bad is not None:
            raise Unreadable(f"unexpected {bad!r} at position {m.start(4) + 1} in {_clip(text, 40)!r}; allowed: "
                             f"numbers, + - * / ( ), %, log2(x), log(x), ln(x)")
        out.append(("num", num) if num is not None else ("name", name) if name is not None else ("op", op))
    return out


def _expression(text: str, plain: str, log: str) -> Answer:
    toks = _tokens(plain)
    decimals = [len(t[1].partition(".")[2]) for t in toks if t[0] == "num" and "." in t[1]]
    if any(d > MAX_DECIMALS for d in decimals):
        raise Unreadable(f"a number in {_clip(text, 40)!r} has more than {MAX_DECIMALS} decimals")
    has_ln = any(t == ("name", "ln") or (t == ("name", "log") and log == "e") for t in toks)
    first = _rewrite(toks, log, ln_scale=1, text=text)
    value = _parse(first, text)
    form = "approximate" if decimals else "exact"
    if has_ln:
        doubled = _parse(_rewrite(toks, log, ln_scale=2, text=text), text)
        if doubled == value:
            pass  # every ln cancels against another: exact in bits
        elif isinstance(value, Ratio) or isinstance(doubled, Ratio) or doubled != 2 * value:
            raise Unreadable(f"{_clip(text, 40)!r} mixes natural logarithms with other terms; write the whole "
                             f"expression with log2 (or divide every ln by ln(2))")
        else:
            form = "nats"
    return Answer(text, form, value, max(decimals, default=0))


def _rewrite(toks, log: str, *, ln_scale: int, text: str) -> str:
    """parse_exact's grammar: decimals as fractions, % as /100, implicit products as *, ln(x) as
    ``(ln_scale*log2(x))``, a one-argument log as log2 (or as ln when log is e)."""
    out = []
    closers = []        # for each open parenthesis: what to write when it closes, and where it opened
    prev = None         # kind of the previous token: "value" (ends an operand), "op", "name" or None
    operand = None      # where in ``out`` the last complete operand starts (for a power)
    i = 0
    powered = False     # the last token closed a power: another power right after it is ambiguous
    while i < len(toks):
        kind, t = toks[i]
        if t in ("^", "**", "²", "³"):
            if powered:
                # (9/14)^1^2 is 9/14 to mathematicians (right to left) and (9/14)^2 to a calculator read
                # left to right: no reading is safe to grade
                raise Unreadable(f"a chained power in {_clip(text, 40)!r} can be read two ways (right to left "
                                 f"or left to right); write one power, or parentheses: ((9/14)^1)^2")
            powered = True
            k = {"²": 2, "³": 3}.get(t)
            if k is None:
                nxt = toks[i + 1] if i + 1 < len(toks) else None
                if nxt is None or nxt[0] != "num" or not nxt[1].isdigit() or not 1 <= int(nxt[1]) <= MAX_POWER:
                    raise Unreadable(f"a power in {_clip(text, 40)!r} must be a whole number from 1 to {MAX_POWER} "
                                     f"(as in (9/14)^2)")
                k = int(nxt[1])
                i += 1
            if prev != "value" or operand is None:
                raise Unreadable(f"{t!r} after no number or parenthesis in {_clip(text, 40)!r}")
            base = " ".join(out[operand:])
            if len(base) * k > 2_000:  # nested powers grow as 4^depth: bounded before they are written out
                raise Unreadable(f"the powers in {_clip(text, 40)!r} expand beyond 2,000 characters; write the "
                                 f"value out")
            # (9/14)^2 as ((9/14) * (9/14)): parse_exact has no powers; the parentheses keep 1/2^2 = 1/4.
            out[operand:] = ["(" + " * ".join([base] * k) + ")"]
            i += 1
            continue
        powered = False
        if kind in ("num", "name") or t == "(":
            if prev in ("value", "percent"):
                out.append("*")  # implicit multiplication: 2log2(3), (1/2)(3/4), 2(3)
        if kind == "num":
            operand = len(out)
            if "." in t:
                whole, frac = t.split(".")
                out.append(f"({int((whole or '0') + frac)}/{10 ** len(frac)})" if frac else whole)
            else:
                out.append(t)
            prev = "value"
        elif kind == "name":
            if i + 1 >= len(toks) or toks[i + 1] != ("op", "("):
                raise Unreadable(f"{t} needs parentheses in {_clip(text, 40)!r}: write {t}(x)")
            natural = t == "ln" or (t == "log" and log == "e" and not _has_base_two(toks, i + 1))
            start = len(out)
            if natural:
                out.append(f"({ln_scale}*log2(")
                closers.append(("))", start))
            elif t == "lg":
                raise Unreadable(f"'lg' is ambiguous in {_clip(text, 40)!r}; write log2(x) or ln(x)")
            else:
                out.append("log2(" if t in ("log2",) or not _has_base_two(toks, i + 1) else "log(")
                closers.append((")", start))
            i += 2
            prev = "op"
            continue
        else:
            if t == "(":
                closers.append((")", len(out)))
                out.append("(")
                prev = "op"
            elif t == ")":
                closer, operand = closers.pop() if closers else (")", None)
                out.append(closer)
                prev = "value"
            elif t == "%":
                if prev != "value":
                    raise Unreadable(f"'%' after no number in {_clip(text, 40)!r}")
                out.append("/100")
                prev = "percent"
            else:
                out.append(t)
                prev = "op"
        i += 1
    return " ".join(out)


def _has_base_two(toks, open_index) -> bool:
    """Whether the call whose '(' is at ``open_index`` has a second argument (``log(x, 2)``)."""
    depth = 0
    for _, t in toks[open_index:]:
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
            if depth == 0:
                return False
        elif t == "," and depth == 1:
            return True
    return False


def _parse(expr: str, text: str):
    _check_logs(expr, text)
    try:
        return parse_exact(expr)
    except ParseError as e:
        # The message quotes the rewritten text; show the student's, without positions in the other.
        msg = re.sub(r" at position \d+", "", str(e))
        raise Unreadable(msg.replace(repr(expr if len(expr) <= 60 else expr[:60] + "..."), repr(_clip(text, 60)))) from None


_LOG_ARG = re.compile(r"log2?\(")


def _check_logs(expr: str, text: str) -> None:
    """Refuse a logarithm of a costly argument before parse_exact factors it: an argument holding
    another logarithm, or with a numerator or denominator above MAX_LOG_ARGUMENT."""
    for m in _LOG_ARG.finditer(expr):
        depth, j = 0, m.end() - 1
        while j < len(expr):
            c = expr[j]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            elif c == "," and depth == 1:
                break
            j += 1
        arg = expr[m.end():j]
        if "log" in arg:
            raise Unreadable(f"a logarithm inside a logarithm in {_clip(text, 40)!r}; the argument of a "
                             f"logarithm must be a rational number such as 14/5")
        try:
            q = parse_exact(arg)
        except ParseError:
            continue  # parse_exact reports it in context
        if isinstance(q, Fraction) and (abs(q.numerator) > MAX_LOG_ARGUMENT or q.denominator > MAX_LOG_ARGUMENT):
            raise Unreadable(f"logarithm argument {_clip(str(q), 30)} in {_clip(text, 40)!r} is too large; its "
                             f"numerator and denominator must be at most {MAX_LOG_ARGUMENT:,}")


def is_exact_value(x) -> bool:
    return isinstance(x, (Fraction, Exact, Ratio))
