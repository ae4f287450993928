"""Deciding and rounding a logarithmic value at growing precision (mpmath): the sign of a value
its float interval cannot separate from 0, a decimal correctly rounded at any magnitude, a
float correctly rounded.  Each works on any value with ``mp()`` (and ``approx()``): an
:class:`~infotree.lnpoly.LnPoly`, ``LnQuotient`` or ``LnRoot``."""

from __future__ import annotations

from .errors import UndecidedError

__all__ = ["MAX_DIGITS", "decimal"]

#: working precision (decimal digits) past which a non-linear difference is reported undecided
MAX_DIGITS = 4000


def _sign_slow(x) -> int:
    """The sign of a non-zero polynomial whose float interval holds 0: mpmath at growing precision."""
    from mpmath import mp, mpf

    s = sum(abs(float(c)) for c in x.terms.values()) + 1.0
    dps = 40
    while dps <= MAX_DIGITS:
        with mp.workdps(dps + 20):
            v = x.mp()
            bound = mpf(s) * 10 ** (x.degree + 2) * mpf(10) ** (-dps)
            if v > bound:
                return 1
            if v < -bound:
                return -1
        dps *= 4
    raise UndecidedError(f"cannot decide the sign of {x}: below 1e-{MAX_DIGITS} in absolute value but not "
                         f"identically 0")


def decimal(x, digits: int = 4) -> str:
    """x (an LnPoly, LnQuotient or LnRoot) rounded to ``digits`` decimals, half away from zero,
    at any magnitude: mpmath at growing precision until the value's distance from a rounding
    boundary exceeds the working error (never on a boundary unless rational, which decides
    exactly)."""
    from mpmath import mp, mpf, nint

    r = x.rational() if hasattr(x, "rational") else None  # an LnPoly
    if r is not None:
        from .decimals import decimal_text

        return decimal_text(r, digits)
    dps = 40
    while dps <= MAX_DIGITS:
        with mp.workdps(dps + 20):
            v = x.mp() * mpf(10) ** digits
            k = nint(v)
            if abs(abs(v - k) - mpf(1) / 2) > abs(v) * mpf(10) ** (-dps) + mpf(10) ** (-dps):
                k = int(mp.floor(abs(v) + mpf(1) / 2)) * (1 if v >= 0 else -1)
                sign, k = ("-" if k < 0 else ""), abs(k)
                whole, frac = divmod(k, 10 ** digits)
                return f"{sign}{whole}" + (f".{frac:0{digits}d}" if digits else "")
        dps *= 4
    raise UndecidedError(f"cannot round {x} to {digits} decimals")


def _rounded(x) -> float:
    """float(x), correctly rounded: the float interval when it is within 2^-60 of the value,
    else mpmath at 60 digits (a cross-validation's squares cancel many digits)."""
    v, b = x.approx()
    if b <= abs(v) * 2.0 ** -60:
        return v
    from mpmath import mp

    with mp.workdps(60):
        return float(x.mp())
