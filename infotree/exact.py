"""Exact values ``c0 + Σ c_p·log2(p)`` and quotients of two of them.

Every entropy, conditional entropy, information gain and split information of
rational counts is such a value (see EXACT.md): a rational ``c0`` plus rational
multiples of the base-2 logarithms of odd primes.  The logarithms of distinct
primes are linearly independent over the rationals, so

* two values are equal iff their coefficients are equal, and
* the sign of a non-zero value can always be decided (with big integers at worst).

Ordering first asks a *certified float filter*: each value carries a float and a
rigorous bound on that float's error; only when the intervals of two values
overlap does the comparison fall back to exact work.

    >>> h = Exact.log2(14) - Fraction(9, 14) * Exact.log2(9) - Fraction(5, 14) * Exact.log2(5)
    >>> str(h)
    '1 + log2(7) - 9/7*log2(3) - 5/14*log2(5)'
    >>> round(float(h), 4)
    0.9403
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from numbers import Rational

from .errors import UndecidedError
from .factoring import factorize

__all__ = ["Exact", "Ratio", "log2_of"]

# Unit roundoff of IEEE double; bounds below are stated in multiples of it.
_U = 2.0 ** -53
# Largest numerator or denominator of a printed log2 argument (the parser's limit).
_PRINT_LIMIT = 10 ** 12


@lru_cache(maxsize=4096)
def _log2_prime(p: int) -> float:
    return math.log2(p)


def _as_fraction(x):
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, Rational)) and not isinstance(x, bool):
        return Fraction(x)
    return None


class _Ordered:
    """Rich comparisons through an exact three-way ``compare``."""

    __slots__ = ()

    def __lt__(self, other):
        return self.compare(other) < 0

    def __le__(self, other):
        return self.compare(other) <= 0

    def __gt__(self, other):
        return self.compare(other) > 0

    def __ge__(self, other):
        return self.compare(other) >= 0


class Exact(_Ordered):
    """An exact real ``c0 + Σ c_p·log2(p)`` with rational coefficients, p odd prime.

    Supports ``+``, ``-`` with other exact values and rationals, ``*`` and ``/`` by
    rationals, exact ``==``/``hash`` and exact ordering.  ``Exact / Exact`` is a
    :class:`Ratio`.
    """

    __slots__ = ("c0", "terms", "_approx", "_hash", "_text")

    def __init__(self, c0=0, terms=()):
        c0 = _as_fraction(c0)
        if c0 is None:
            raise TypeError("Exact needs a rational constant")
        self.c0 = c0
        items = terms.items() if isinstance(terms, dict) else terms
        clean = {}
        for p, c in items:
            c = Fraction(c)
            if not c:
                continue
            if p == 2:
                self.c0 += c
            else:
                clean[p] = clean.get(p, 0) + c
        #: ((p, c_p), ...) with p ascending and every c_p non-zero
        self.terms = tuple((p, c) for p, c in sorted(clean.items()) if c)
        self._approx = None
        self._hash = None
        self._text = None

    # -- construction -------------------------------------------------------
    @classmethod
    def _raw(cls, c0: Fraction, terms: tuple) -> "Exact":
        obj = object.__new__(cls)
        obj.c0 = c0
        obj.terms = terms
        obj._approx = None
        obj._hash = None
        obj._text = None
        return obj

    @classmethod
    def log2(cls, q) -> "Exact":
        """``log2(q)`` of a positive rational ``q`` (int, Fraction or ``"9/14"``)."""
        return cls(0, factorize(Fraction(q)))

    @classmethod
    def from_coefficients(cls, c0, coefficients: dict) -> "Exact":
        """Build ``c0 + Σ c·log2(b)`` from a ``{b: c}`` mapping; each b is factored into primes."""
        acc: dict = {}
        for b, c in coefficients.items():
            for p, e in factorize(b).items():
                acc[p] = acc.get(p, 0) + Fraction(c) * e
        return cls(c0, acc)

    # -- predicates and conversions ------------------------------------------
    def is_rational(self) -> bool:
        return not self.terms

    def __bool__(self):
        return bool(self.c0) or bool(self.terms)

    def approx(self) -> tuple[float, float]:
        """``(value, bound)`` with ``|value - exact| <= bound``, rigorously."""
        a = self._approx
        if a is None:
            try:
                v = float(self.c0)
                s = abs(v)
                for p, c in self.terms:
                    t = float(c) * _log2_prime(p)
                    v += t
                    s += abs(t)
                # float(Fraction) is correctly rounded (u); math.log2 is trusted to a
                # few ulps (EXACT.md: np.log2 and math.log2 can differ by one); one
                # rounding per product and per addition.  8 + k units is generous.
                bound = (8 + len(self.terms)) * _U * s + 1e-300
            except OverflowError:
                v, bound = 0.0, math.inf
            if not math.isfinite(bound):
                v, bound = 0.0, math.inf  # beyond floats: every comparison goes exact
            a = self._approx = (v, bound)
        return a

    def __float__(self):
        return self.approx()[0]

    def sympy(self):
        """The value as a sympy expression (sympy is imported here only)."""
        import sympy

        expr = sympy.Rational(self.c0.numerator, self.c0.denominator)
        for p, c in self.terms:
            expr += sympy.Rational(c.numerator, c.denominator) * sympy.log(p, 2)
        return expr

    # -- equality and hashing -------------------------------------------------
    def __eq__(self, other):
        if isinstance(other, Exact):
            return self.c0 == other.c0 and self.terms == other.terms
        if isinstance(other, Ratio):
            return other == self
        q = _as_fraction(other)
        if q is not None:
            return not self.terms and self.c0 == q
        return NotImplemented

    def __hash__(self):
        h = self._hash
        if h is None:
            # A rational Exact hashes like the Fraction it equals.
            h = self._hash = hash(self.c0) if not self.terms else hash((self.c0, self.terms))
        return h

    # -- arithmetic -----------------------------------------------------------
    def _coerce(self, other):
        if isinstance(other, Exact):
            return other
        q = _as_fraction(other)
        if q is not None:
            return Exact._raw(q, ())
        return None

    def __add__(self, other):
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        if not o.terms:
            return Exact._raw(self.c0 + o.c0, self.terms)
        acc = dict(self.terms)
        for p, c in o.terms:
            acc[p] = acc.get(p, 0) + c
        return Exact._raw(self.c0 + o.c0, tuple((p, c) for p, c in sorted(acc.items()) if c))

    __radd__ = __add__

    def __neg__(self):
        return Exact._raw(-self.c0, tuple((p, -c) for p, c in self.terms))

    def __pos__(self):
        return self

    def __sub__(self, other):
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self + (-o)

    def __rsub__(self, other):
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return o + (-self)

    def __mul__(self, other):
        q = _as_fraction(other)
        if q is None:
            if isinstance(other, Exact) and other.is_rational():
                q = other.c0
            elif isinstance(other, Exact) and self.is_rational():
                return other * self.c0
            else:
                return NotImplemented
        if not q:
            return Exact._raw(Fraction(0), ())
        return Exact._raw(self.c0 * q, tuple((p, c * q) for p, c in self.terms))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Exact):
            if other.is_rational():
                other = other.c0
            else:
                return Ratio(self, other)
        q = _as_fraction(other)
        if q is None:
            return NotImplemented
        if not q:
            raise ZeroDivisionError("division of an exact value by zero")
        return self * (1 / q)

    def __rtruediv__(self, other):
        q = _as_fraction(other)
        if q is None:
            return NotImplemented
        return Ratio(Exact._raw(q, ()), self)

    # -- ordering ---------------------------------------------------------------
    def sign(self) -> int:
        """-1, 0 or 1, decided exactly."""
        if not self.terms:
            return (self.c0 > 0) - (self.c0 < 0)
        v, b = self.approx()
        if v > b:
            return 1
        if v < -b:
            return -1
        return _sign_slow(self)

    def compare(self, other) -> int:
        """-1, 0 or 1 as ``self`` is below, equal to or above ``other``, exactly."""
        if isinstance(other, Ratio):
            return -other.compare(self)
        o = self._coerce(other)
        if o is None:
            raise TypeError(f"cannot compare Exact with {type(other).__name__}")
        v1, b1 = self.approx()
        v2, b2 = o.approx()
        d = v1 - v2
        # The subtraction itself rounds once.
        if abs(d) > (b1 + b2) * (1 + 4 * _U) + abs(d) * _U:
            return 1 if d > 0 else -1
        if self.c0 == o.c0 and self.terms == o.terms:
            return 0  # an exact tie: equal coefficients, nothing to evaluate
        return (self - o).sign()

    # -- text -------------------------------------------------------------------
    def groups(self):
        """Terms grouped for printing: ``[(coef, numerator, denominator)]``.

        Primes sharing a coefficient up to sign combine into one logarithm:
        ``15/16*log2(15)`` and ``c*log2(n/m)``.  Positive groups come first.
        """
        return [(-Fraction(a, d) if neg else Fraction(a, d), num, den) for neg, a, d, num, den in self._groups()]

    def _groups(self):
        """:meth:`groups` as ``[(negative, |coef| numerator, coef denominator, numerator, denominator)]``, ints."""
        by_abs: dict = {}
        for p, c in self.terms:
            a, d = c.numerator, c.denominator
            by_abs.setdefault((a if a > 0 else -a, d), []).append((p, a > 0))
        keyed = []  # (negative, smallest prime of the group, group)
        for (a, d), members in by_abs.items():
            # Keep every printed log2 argument within what parse_exact accepts.
            chunks, num, den, low = [], 1, 1, 1
            for p, positive in members:
                if (num if positive else den) * p > _PRINT_LIMIT and (num > 1 or den > 1):  # never an empty chunk
                    chunks.append((num, den, low))
                    num, den, low = 1, 1, 1
                if low == 1:
                    low = p  # members are in ascending order of p
                if positive:
                    num *= p
                else:
                    den *= p
            chunks.append((num, den, low))
            for num, den, low in chunks:
                if num > 1:
                    keyed.append((False, low, (False, a, d, num, den)))
                else:
                    keyed.append((True, low, (True, a, d, den, 1)))
        keyed.sort(key=lambda k: k[:2])
        return [g for _, _, g in keyed]

    def __str__(self):
        t = self._text
        if t is None:
            t = self._text = _render(self, _TEXT)
        return t

    def latex(self) -> str:
        """A LaTeX math fragment: ``1 + \\log_2 7 - \\frac{9}{7}\\log_2 3``."""
        return _render(self, _LATEX)

    def __repr__(self):
        return f"Exact({str(self)!r})"

    def __format__(self, spec):
        if spec:
            return format(float(self), spec)
        return str(self)


def log2_of(q) -> Exact:
    """``log2(q)`` for a positive rational ``q``; shorthand for :meth:`Exact.log2`."""
    return Exact.log2(q)


# -- printing ---------------------------------------------------------------

def _frac_text(n: int, d: int) -> str:
    return str(n) if d == 1 else f"{n}/{d}"


def _frac_latex(n: int, d: int) -> str:
    if d == 1:
        return str(n)
    return f"\\frac{{{n}}}{{{d}}}"


class _Style:
    def __init__(self, frac, log, times):
        self.frac, self.log, self.times = frac, log, times


def _log_text(num, den):
    return f"log2({num})" if den == 1 else f"log2({num}/{den})"


def _log_latex(num, den):
    return f"\\log_2 {num}" if den == 1 else f"\\log_2 \\frac{{{num}}}{{{den}}}"


_TEXT = _Style(_frac_text, _log_text, "*")
_LATEX = _Style(_frac_latex, _log_latex, "")


def _render(x: Exact, st: _Style) -> str:
    parts = []  # (negative, magnitude text)
    c0 = x.c0
    if c0:
        n = c0.numerator
        parts.append((n < 0, st.frac(-n if n < 0 else n, c0.denominator)))
    for neg, a, d, num, den in x._groups():
        mag = st.log(num, den) if a == 1 and d == 1 else f"{st.frac(a, d)}{st.times}{st.log(num, den)}"
        parts.append((neg, mag))
    if not parts:
        return "0"
    neg, mag = parts[0]
    out = [("-" if neg else "") + mag]
    for neg, mag in parts[1:]:
        out.append(("- " if neg else "+ ") + mag)
    return " ".join(out)


# -- exact sign of a linear form ----------------------------------------------

def _sign_slow(x: Exact) -> int:
    """Sign of a non-rational Exact whose float interval contains 0."""
    from mpmath import mp, mpf, log as mlog

    for dps in (50, 400):
        with mp.workdps(dps + 10):
            v = mpf(x.c0.numerator) / x.c0.denominator
            s = abs(v)
            for p, c in x.terms:
                t = mpf(c.numerator) / c.denominator * mlog(p, 2)
                v += t
                s += abs(t)
            bound = s * mpf(10) ** (-dps) + mpf(10) ** (-(dps + 5))
            if v > bound:
                return 1
            if v < -bound:
                return -1
    # The linear form is non-zero (coefficients are not all zero and the log2 of
    # distinct primes are independent), so compare 2^a0·Π p^a_p with 1 exactly.
    d = math.lcm(x.c0.denominator, *(c.denominator for _, c in x.terms))
    pos, neg = 1, 1
    a0 = x.c0 * d
    if a0 > 0:
        pos <<= int(a0)
    elif a0 < 0:
        neg <<= int(-a0)
    for p, c in x.terms:
        a = int(c * d)
        if a > 0:
            pos *= p ** a
        else:
            neg *= p ** (-a)
    return 1 if pos > neg else -1


# -- quotients -------------------------------------------------------------------

def _product(a: Exact, b: Exact) -> dict:
    """``a·b`` as a polynomial in the log2(p): {(p,) or (p, q) or (): coefficient}."""
    la = [((), a.c0)] + [((p,), c) for p, c in a.terms]
    lb = [((), b.c0)] + [((p,), c) for p, c in b.terms]
    out: dict = {}
    for ma, ca in la:
        if not ca:
            continue
        for mb, cb in lb:
            if not cb:
                continue
            m = tuple(sorted(ma + mb))
            out[m] = out.get(m, 0) + ca * cb
    return {m: c for m, c in out.items() if c}


# Highest working precision (decimal digits) for deciding the sign of a
# difference of products of logarithms before giving up as undecided.
MAX_RATIO_DIGITS = 2000


class Ratio(_Ordered):
    """An exact quotient ``num / den`` of two :class:`Exact` values (den ≠ 0).

    Equality is exact when the cross-products are identical polynomials in the
    log2(p).  Otherwise the order is found by certified evaluation at increasing
    precision; two different forms that cannot be separated by
    ``MAX_RATIO_DIGITS`` digits raise :class:`UndecidedError` (never a guess).
    """

    __slots__ = ("num", "den", "_approx")

    def __init__(self, num, den):
        num = num if isinstance(num, Exact) else Exact(num)
        den = den if isinstance(den, Exact) else Exact(den)
        if not den:
            raise ZeroDivisionError("ratio with a zero denominator")
        self.num, self.den = num, den
        self._approx = None

    def approx(self) -> tuple[float, float]:
        a = self._approx
        if a is None:
            vn, bn = self.num.approx()
            vd, bd = self.den.approx()
            if abs(vd) <= bd:
                a = (vn / vd if vd else math.copysign(math.inf, vn), math.inf)
            else:
                q = vn / vd
                bound = (bn + abs(q) * bd) / (abs(vd) - bd) + 4 * _U * abs(q) + 1e-300
                a = (q, bound)
            self._approx = a
        return a

    def __float__(self):
        return self.approx()[0]

    def _coerce(self, other):
        if isinstance(other, Ratio):
            return other
        if isinstance(other, Exact):
            return Ratio(other, Exact._raw(Fraction(1), ()))
        q = _as_fraction(other)
        if q is not None:
            return Ratio(Exact._raw(q, ()), Exact._raw(Fraction(1), ()))
        return None

    def _cross(self, o: "Ratio") -> tuple[dict, dict]:
        return _product(self.num, o.den), _product(o.num, self.den)

    def __eq__(self, other):
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        left, right = self._cross(o)
        return left == right

    def __hash__(self):
        # Equal ratios can have unrelated num/den, so only a rational denominator or
        # a rational value gives a canonical form; every other Ratio shares one hash.
        if self.den.is_rational():
            return hash(self.num / self.den.c0)
        # With an irrational denominator the value is rational iff num = k·den
        # (e.g. log2(9)/log2(3) == 2); it must then hash like k.
        p, c = self.den.terms[0]
        k = dict(self.num.terms).get(p, 0) / c
        if self.num == self.den * k:
            return hash(k)
        return hash("infotree.Ratio")

    def compare(self, other) -> int:
        o = self._coerce(other)
        if o is None:
            raise TypeError(f"cannot compare Ratio with {type(other).__name__}")
        v1, b1 = self.approx()
        v2, b2 = o.approx()
        d = v1 - v2
        if math.isfinite(b1) and math.isfinite(b2) and abs(d) > (b1 + b2) * (1 + 4 * _U) + abs(d) * _U:
            return 1 if d > 0 else -1
        left, right = self._cross(o)
        if left == right:
            return 0
        # sign(a/b - c/d) = sign(a·d - c·b) · sign(b·d)
        s = _sign_poly({m: left.get(m, 0) - right.get(m, 0) for m in set(left) | set(right)})
        return s * self.den.sign() * o.den.sign()

    def sympy(self):
        return self.num.sympy() / self.den.sympy()

    def __str__(self):
        return f"({self.num})/({self.den})"

    def latex(self) -> str:
        return f"\\frac{{{self.num.latex()}}}{{{self.den.latex()}}}"

    def __repr__(self):
        return f"Ratio({str(self)!r})"

    def __format__(self, spec):
        if spec:
            return format(float(self), spec)
        return str(self)


def _sign_poly(poly: dict) -> int:
    """Sign of a non-identically-zero polynomial in the log2(p), degree <= 2."""
    from mpmath import mp, mpf, log as mlog

    dps = 30
    while dps <= MAX_RATIO_DIGITS:
        with mp.workdps(dps + 10):
            v = mpf(0)
            s = mpf(0)
            for mono, c in poly.items():
                t = mpf(c.numerator) / c.denominator
                for p in mono:
                    t *= mlog(p, 2)
                v += t
                s += abs(t)
            bound = s * mpf(10) ** (-dps) + mpf(10) ** (-(dps + 5))
            if v > bound:
                return 1
            if v < -bound:
                return -1
        dps *= 4
    text = " + ".join(f"{c}*" + "*".join(f"log2({p})" for p in m) for m, c in sorted(poly.items()))
    raise UndecidedError(
        f"cannot decide the order of two gain ratios: their cross-product difference "
        f"{text} is below 1e-{MAX_RATIO_DIGITS} in absolute value but not identically 0"
    )
