"""Exact numbers of decimal text: ``[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`` read from its
digits (never through a float), at most 40 significant digits and a decimal exponent from -400 to
400; a number's canonical text (``75``, ``2.45``, ``-1/3``).

>>> exact_number("7.5e1"), exact_number(0.1), number_text(Fraction(49, 20))
(Fraction(75, 1), Fraction(1, 10), '2.45')
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np

from ..errors import DataError
from .cells import _missing_kind, _MISSING_TOKENS
from .messages import _clip

__all__ = ["exact_number", "number_text"]


_MAX_DIGITS, _MAX_EXPONENT = 40, 400
# A decimal number: sign, integer digits, fraction digits (or only fraction digits), exponent.
_NUMBER = re.compile(r"([+-]?)(?:([0-9]+)(?:\.([0-9]+))?|\.([0-9]+))(?:[eE]([+-]?)([0-9]+))?", re.ASCII)
_NUMBERS_ARE = "a numeric column takes decimal numbers such as 75, -2.45 or 1.5e3"
_RANGE = (f"a number may have at most {_MAX_DIGITS} significant digits and a decimal exponent "
          f"from -{_MAX_EXPONENT} to {_MAX_EXPONENT}")


def _unchecked_fraction():
    """``coprime(n, d)``: the Fraction n/d of coprime ints with d > 0, made without
    Fraction's checks and gcd, as Python 3.12's ``Fraction._from_coprime_ints`` does (a 10^5
    fit makes 10^5 thresholds and reads as many distinct values).  Fraction itself where
    its slots are not as expected."""
    new = object.__new__

    def coprime(n, d):
        q = new(Fraction)
        q._numerator, q._denominator = n, d
        return q

    try:
        q = coprime(-3, 4)
        ok = q == Fraction(-3, 4) and hash(q) == hash(Fraction(-3, 4)) and str(q) == "-3/4" and q + 1 == Fraction(1, 4)
    except (AttributeError, TypeError):
        ok = False
    return coprime if ok else Fraction


coprime = _unchecked_fraction()
#: ints below this in size have at most _MAX_DIGITS digits: always in range
_BELOW = 10 ** _MAX_DIGITS


def _parse_decimal(text):
    """The exact Fraction of decimal text, else ``'nan'`` (not a number) or ``'range'`` (beyond the bounds).

    Built from the digits, never through a float or an unbounded power of ten.
    """
    m = _NUMBER.fullmatch(text)
    if m is None:
        return "nan"
    sign, whole, frac, only_frac, exp_sign, exp_digits = m.groups()
    if only_frac is not None:
        whole, frac = "", only_frac
    frac = frac or ""
    digits = (whole + frac).lstrip("0")
    significant = digits.rstrip("0")
    exp_digits = (exp_digits or "0").lstrip("0") or "0"
    if len(significant) > _MAX_DIGITS or len(exp_digits) > 4:
        return "range"
    if not significant:
        return Fraction(0)
    power = (-int(exp_digits) if exp_sign == "-" else int(exp_digits)) - len(frac) + len(digits) - len(significant)
    if abs(power + len(significant) - 1) > _MAX_EXPONENT:  # the exponent in scientific notation
        return "range"
    mantissa = -int(significant) if sign == "-" else int(significant)
    return Fraction(mantissa * 10 ** power) if power >= 0 else Fraction(mantissa, 10 ** -power)


def exact_number(value) -> Fraction | None:
    """The exact number of one cell: decimal text or an int, float (shortest text), Decimal or
    Fraction; None for a missing cell (``?``, ``''``, None, NaN).  Anything else: a DataError."""
    if _missing_kind(value) or isinstance(value, Decimal) and value.is_nan():
        return None
    label = value.strip() if isinstance(value, str) else str(value).strip()
    if label in _MISSING_TOKENS:
        return None
    number = _number_of(value, label)
    if not isinstance(number, Fraction):
        raise DataError(_not_a_number(number, label))
    return number


def number_text(q: Fraction) -> str:
    """Canonical text of a number: the exact decimal without superfluous zeros or exponent, else ``p/q``."""
    return _number_text(q)


def _number_of(cell, label):
    """The Fraction of a cell (an in-memory object, or None for file text) whose stripped text is ``label``.

    Fractions are taken as they are; ints, floats and Decimals are read from their text
    (a float's shortest repr); bools are not numbers.  Else ``'nan'`` or ``'range'``.
    """
    if isinstance(cell, (bool, np.bool_)):
        return "nan"
    if isinstance(cell, Fraction):
        return cell
    if type(cell) is int and -_BELOW < cell < _BELOW:  # its text's number, without reading the text
        return coprime(cell, 1)
    return _parse_decimal(label)


def _not_a_number(problem, label):
    if problem == "range":
        return f"value {_clip(label)!r} is out of range; {_RANGE}"
    return f"value {_clip(label)!r} is not a number; {_NUMBERS_ARE}"


def _number_text(q: Fraction) -> str:
    """Canonical text of a number: the exact decimal without superfluous zeros or exponent, else ``p/q``."""
    p, d = q.numerator, q.denominator
    if d == 1:
        return str(p)
    twos = (d & -d).bit_length() - 1
    rest = d >> twos
    fives = round(math.log(rest, 5)) if rest > 1 else 0  # a guess, checked exactly: no loop over the digits
    if 5 ** fives != rest:
        return f"{p}/{d}"
    # d = 2^a·5^b: p/d has max(a, b) decimal places, the last not 0 (p/d is in lowest terms)
    places = max(twos, fives)
    digits = str(abs(p) * (10 ** places // d)).rjust(places + 1, "0")
    return ("-" if p < 0 else "") + digits[:-places] + "." + digits[-places:]
