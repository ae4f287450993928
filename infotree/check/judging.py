"""Judging a number or an expression against an exact value: precision (decimals or significant
digits), tolerance, chains of working, and values computed from rounded intermediates the sheet shows."""

from __future__ import annotations

import re
from fractions import Fraction

from ..errors import InfotreeError
from ..exact import Exact
from ..decimals import decimal_text
from ..forms import counts_text
from .answers import Answer, read_answer, significant_digits
from .grammar import _chain, _clip
from .names import Unreadable as _Unreadable



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


class Judging:
    """The checker's judging of numbers (a mixin of the checker: it reads its digits, tolerance and log)."""

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
