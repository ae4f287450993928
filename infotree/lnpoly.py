"""Exact values that mix rationals and natural logarithms: Poisson deviances and their kin.

A Poisson node's deviance is ``2·[Σ d·ln(d/t) − D·ln λ − D + λ·T]`` with rational events,
exposures and rate: a rational plus rational multiples of ``ln a`` for integers a.  rpart's cp
table divides such values and its cross-validation squares them, so this module keeps
polynomials in the ``ln a`` with rational coefficients (:class:`LnPoly`), their quotients
(:class:`LnQuotient`) and square roots (:class:`LnRoot`).

The integers a (*atoms*) are primes below 10^6 and, for the cofactors left when those are
divided out, the cofactors themselves: an exp tree's rescaled times have numerators of a
hundred digits, which nobody factors.  Two values are compared exactly by rewriting their
atoms over a *coprime basis* (gcds split shared factors until the integers are pairwise
coprime): pairwise coprime integers above 1 are multiplicatively independent, so their
logarithms are linearly independent over Q, and a difference of degree at most 1 (every
deviance, improvement and cp) is 0 exactly when its coefficients over the basis are, and
otherwise non-zero (1 and the logs are independent over the algebraic numbers: Baker), so
its sign is always decided: a certified float interval, then mpmath at growing precision.
A higher-degree difference (cross products in a cp table's cross-validation) that no
precision up to ``MAX_DIGITS`` separates from 0 raises :class:`UndecidedError`, never a
guess.

    >>> from fractions import Fraction
    >>> d = LnPoly.ln(Fraction(9, 4)) * 2 - 1
    >>> str(d), round(float(d), 6)
    ('-1 - 4*ln(2) + 4*ln(3)', 0.62186)
"""

from __future__ import annotations

import math
from fractions import Fraction

from .exact import Exact, _Ordered
from .lnatoms import _over_basis, atoms, ln_atoms
from .lnprecise import MAX_DIGITS, _rounded, _sign_slow, decimal

__all__ = ["LnPoly", "LnQuotient", "LnRoot", "LnSum", "MAX_DIGITS", "atoms", "decimal"]

_U = 2.0 ** -53


class LnSum:
    """Σ c_a·ln a as a mapping atom -> coefficient: a node's saturated log-likelihood
    Σw·d·ln(d/t), added and subtracted row by row many times over while cuts are scored, so
    kept as a plain dict with integer coefficients where they are integers (an
    :class:`LnPoly` adds Fractions, several times slower).  A rational q added is q·ln e:
    not allowed (it never happens: sums start from 0)."""

    __slots__ = ("terms",)

    def __init__(self, terms=None):
        self.terms = terms or {}

    @classmethod
    def of(cls, d, q) -> "LnSum":
        """d·ln(q): integer coefficients for integer d."""
        d = int(d) if Fraction(d).denominator == 1 else Fraction(d)
        return cls({a: d * e for a, e in ln_atoms(q).items()} if d else {})

    def _merge(self, other, sign):
        if not isinstance(other, LnSum):
            if not other:
                return self
            return NotImplemented
        out = dict(self.terms)
        for a, c in other.terms.items():
            c = out.get(a, 0) + sign * c
            if c:
                out[a] = c
            else:
                del out[a]
        return LnSum(out)

    def __add__(self, other):
        return self._merge(other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return self._merge(other, -1)

    def __mul__(self, w):
        return LnSum({a: c * w for a, c in self.terms.items()} if w else {})

    __rmul__ = __mul__

    def __bool__(self):
        return bool(self.terms)

    def poly(self) -> "LnPoly":
        return LnPoly({(a,): c for a, c in self.terms.items()})

    def __str__(self):
        return str(self.poly())

    def __repr__(self):
        return f"LnSum({self})"


def _q(x):
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Fraction(x)
    return None


class LnPoly(_Ordered):
    """``Σ c_m·Π_{p∈m} ln p``: a polynomial in the natural logarithms of primes, rational
    coefficients; ``()`` is the constant monomial."""

    __slots__ = ("terms", "_approx")

    def __init__(self, terms=None):
        clean = {}
        for m, c in (terms or {}).items():
            c = Fraction(c)
            if c:
                m = tuple(sorted(m))
                clean[m] = clean.get(m, 0) + c
        self.terms = {m: c for m, c in clean.items() if c}
        self._approx = None

    @classmethod
    def _raw(cls, terms: dict) -> "LnPoly":
        """From sorted monomials and non-zero Fraction coefficients, unchecked."""
        out = object.__new__(cls)
        out.terms, out._approx = terms, None
        return out

    @classmethod
    def ln(cls, q) -> "LnPoly":
        """ln of a positive rational."""
        return cls({(a,): e for a, e in ln_atoms(q).items()})

    @classmethod
    def bits(cls, x: Exact) -> "LnPoly":
        """ln 2 · x for an :class:`~infotree.exact.Exact` ``c0 + Σ c_p log2 p`` (bits), in nats."""
        out = {(p,): c for p, c in x.terms}
        if x.c0:
            out[(2,)] = x.c0
        return cls(out)

    @classmethod
    def of_sum(cls, x) -> "LnPoly":
        """An :class:`LnSum` (or an LnPoly, or 0) as an LnPoly."""
        if isinstance(x, LnSum):
            return x.poly()
        return x if isinstance(x, LnPoly) else cls.of(x)

    @classmethod
    def parse(cls, text: str) -> "LnPoly":
        """The value :meth:`__str__` wrote (``-1 - 4*ln(2) + 4/3*ln(3)``); ValueError otherwise."""
        import re

        s = text.strip()
        if not s:
            raise ValueError("empty")
        terms: dict = {}
        pos, sign = 0, 1
        if s.startswith("-"):
            sign, pos = -1, 1
        term = re.compile(r"(?:(\d+(?:/\d+)?)(?:\*|$|(?= )))?((?:ln\(\d+\)\*?)*)")
        while True:
            m = term.match(s, pos)
            if m is None or m.end() == pos:
                raise ValueError(f"cannot read {text!r} at {pos}")
            coef = Fraction(m.group(1)) if m.group(1) else Fraction(1)
            primes = tuple(sorted(int(p) for p in re.findall(r"ln\((\d+)\)", m.group(2) or "")))
            if m.group(2) and m.group(2).endswith("*"):
                raise ValueError(f"cannot read {text!r}")
            terms[primes] = terms.get(primes, 0) + sign * coef
            pos = m.end()
            if pos == len(s):
                break
            op = s[pos:pos + 3]
            if op not in (" + ", " - "):
                raise ValueError(f"cannot read {text!r} at {pos}")
            sign, pos = (1 if op == " + " else -1), pos + 3
        for m in terms:
            if any(a < 2 for a in m):
                raise ValueError(f"{text!r}: ln of a number below 2")
        return cls(terms)

    @classmethod
    def of(cls, x) -> "LnPoly":
        if isinstance(x, LnPoly):
            return x
        q = _q(x)
        if q is None:
            raise TypeError(f"not an exact value: {x!r}")
        return cls({(): q})

    @property
    def degree(self) -> int:
        return max((len(m) for m in self.terms), default=0)

    def rational(self) -> Fraction | None:
        """The value as a Fraction when no logarithm is left, else None."""
        if all(not m for m in self.terms):
            return self.terms.get((), Fraction(0))
        return None

    # -- arithmetic --
    def __add__(self, other):
        if not isinstance(other, LnPoly):
            q = _q(other)
            if q is None:
                return NotImplemented
            other = LnPoly({(): q})
        out = dict(self.terms)
        for m, c in other.terms.items():
            c = out.get(m, 0) + c
            if c:
                out[m] = c
            else:
                del out[m]
        return LnPoly._raw(out)

    __radd__ = __add__

    def __neg__(self):
        return LnPoly._raw({m: -c for m, c in self.terms.items()})

    def __sub__(self, other):
        if not isinstance(other, LnPoly) and _q(other) is None:
            return NotImplemented
        return self + (-other if isinstance(other, LnPoly) else -_q(other))

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, LnPoly):
            out = {}
            for m1, c1 in self.terms.items():
                for m2, c2 in other.terms.items():
                    m = tuple(sorted(m1 + m2))
                    out[m] = out.get(m, 0) + c1 * c2
            return LnPoly(out)
        q = _q(other)
        if q is None:
            return NotImplemented
        return LnPoly._raw({m: c * q for m, c in self.terms.items()} if q else {})

    __rmul__ = __mul__

    def __pow__(self, k):
        if k != 2:
            return NotImplemented
        return self * self

    def __truediv__(self, other):
        q = _q(other)
        if q is not None:
            if not q:
                raise ZeroDivisionError("division of an exact value by zero")
            return self * (1 / q)
        if isinstance(other, LnPoly):
            r = other.rational()
            if r is None and self.terms == other.terms:
                return Fraction(1)
            return self / r if r is not None else LnQuotient(self, other)
        return NotImplemented

    def __rtruediv__(self, other):
        q = _q(other)
        if q is None:
            return NotImplemented
        return LnQuotient(LnPoly({(): q}), self)

    # -- equality and order --
    def __bool__(self):
        return bool(self.terms)

    def __eq__(self, other):
        if isinstance(other, (LnQuotient, LnRoot)):
            return other == self
        if not isinstance(other, LnPoly):
            q = _q(other)
            if q is None:
                return NotImplemented
            other = LnPoly({(): q})
        return self.terms == other.terms or (self - other).is_zero()

    def is_zero(self) -> bool:
        """Exactly 0: every coefficient over the coprime basis of the atoms is 0."""
        return not self.terms or not _over_basis(self.terms)

    def __hash__(self):
        # equal values may be written over different atoms: only a rational has a canonical hash
        r = self.rational()
        return hash(r) if r is not None else hash("infotree.LnPoly")

    def approx(self) -> tuple[float, float]:
        """``(value, bound)``, ``|value − exact| ≤ bound`` rigorously (math.log within an ulp
        or two, every product and sum rounded once)."""
        a = self._approx
        if a is None:
            v = s = 0.0
            try:
                for m, c in sorted(self.terms.items()):
                    t = float(c)
                    for p in m:
                        t *= math.log(p)
                    v += t
                    s += abs(t)
                a = (v, (8 + 4 * self.degree + len(self.terms)) * _U * s + 1e-300)
            except OverflowError:
                a = (0.0, math.inf)
            if not math.isfinite(a[1]) or not math.isfinite(a[0]):
                a = (0.0, math.inf)
            self._approx = a
        return a

    def __float__(self):
        """The value correctly rounded (mpmath when the float sum's bound is above an ulp)."""
        v, b = self.approx()
        if b <= abs(v) * 2.0 ** -60:
            return v
        from mpmath import mp

        with mp.workdps(60):
            return float(self.mp())

    def sign(self) -> int:
        if not self.terms:
            return 0
        r = self.rational()
        if r is not None:
            return (r > 0) - (r < 0)
        v, b = self.approx()
        if v > b:
            return 1
        if v < -b:
            return -1
        if self.is_zero():
            return 0
        return _sign_slow(self)

    def compare(self, other) -> int:
        if isinstance(other, (LnQuotient, LnRoot)):
            return -other.compare(self)
        o = other if isinstance(other, LnPoly) else LnPoly.of(other)
        v1, b1 = self.approx()
        v2, b2 = o.approx()
        d = v1 - v2
        if abs(d) > (b1 + b2) * (1 + 4 * _U) + abs(d) * _U:  # the float intervals decide
            return 1 if d > 0 else -1
        return (self - o).sign()

    def mp(self):
        """The value in mpmath at the working precision."""
        from mpmath import log, mpf

        v = mpf(0)
        for m, c in sorted(self.terms.items()):
            t = mpf(c.numerator) / c.denominator
            for p in m:
                t *= log(p)
            v += t
        return v

    def sympy(self):
        import sympy

        out = sympy.Integer(0)
        for m, c in self.terms.items():
            t = sympy.Rational(c.numerator, c.denominator)
            for p in m:
                t *= sympy.log(p)
            out += t
        return out

    def __str__(self):
        if not self.terms:
            return "0"
        parts = []
        for m, c in sorted(self.terms.items(), key=lambda mc: (len(mc[0]), mc[0])):
            mono = "*".join(f"ln({p})" for p in m)
            if not m:
                text = str(c)
            elif c == 1:
                text = mono
            elif c == -1:
                text = "-" + mono
            else:
                text = f"{c}*{mono}"
            parts.append(text)
        out = parts[0]
        for t in parts[1:]:
            out += f" - {t[1:]}" if t.startswith("-") else f" + {t}"
        return out

    def latex(self) -> str:
        """A LaTeX math fragment: ``-1 - 4\\ln 2 + 4\\ln 3``."""
        text = str(self)
        import re

        text = re.sub(r"(\d+)/(\d+)\*", r"\\frac{\1}{\2}", text)
        return re.sub(r"ln\((\d+)\)", r"\\ln \1", text).replace("*", " ")

    def __repr__(self):
        return f"LnPoly({str(self)!r})"

    def __format__(self, spec):
        return format(float(self), spec) if spec else str(self)


class LnQuotient(_Ordered):
    """``num / den`` of two :class:`LnPoly` (den ≠ 0): rpart's CP, rel error and xerror of a
    Poisson tree (each over R(root))."""

    __slots__ = ("num", "den")

    def __init__(self, num, den):
        self.num, self.den = LnPoly.of(num), LnPoly.of(den)
        if not self.den:
            raise ZeroDivisionError("quotient with a zero denominator")

    @staticmethod
    def of(x) -> "LnQuotient":
        return x if isinstance(x, LnQuotient) else LnQuotient(LnPoly.of(x), LnPoly({(): 1}))

    def _pair(self, other):
        if isinstance(other, LnQuotient):
            return other
        if isinstance(other, LnPoly) or _q(other) is not None:
            return LnQuotient.of(other)
        return None

    def __add__(self, other):
        o = self._pair(other)
        if o is None:
            return NotImplemented
        if o.den == self.den:
            return LnQuotient(self.num + o.num, self.den)
        return LnQuotient(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self):
        return LnQuotient(-self.num, self.den)

    def __sub__(self, other):
        o = self._pair(other)
        return NotImplemented if o is None else self + (-o)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        o = self._pair(other)
        if o is None:
            return NotImplemented
        return LnQuotient(self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def __pow__(self, k):
        return self * self if k == 2 else NotImplemented

    def __truediv__(self, other):
        o = self._pair(other)
        if o is None:
            return NotImplemented
        return LnQuotient(self.num * o.den, self.den * o.num)

    def approx(self) -> tuple[float, float]:
        vn, bn = self.num.approx()
        vd, bd = self.den.approx()
        if not abs(vd) > bd:
            return (vn / vd if vd else 0.0, math.inf)
        q = vn / vd
        return q, (bn + abs(q) * bd) / (abs(vd) - bd) + 4 * _U * abs(q) + 1e-300

    def mp(self):
        return self.num.mp() / self.den.mp()

    def __float__(self):
        return _rounded(self)

    def compare(self, other) -> int:
        if isinstance(other, LnRoot):
            return -other.compare(self)
        o = self._pair(other)
        if o is None:
            raise TypeError(f"cannot compare a quotient with {type(other).__name__}")
        v1, b1 = self.approx()
        v2, b2 = o.approx()
        d = v1 - v2
        if math.isfinite(b1 + b2) and abs(d) > (b1 + b2) * (1 + 4 * _U) + abs(d) * _U:
            return 1 if d > 0 else -1
        s = self.den.sign() * o.den.sign()
        if self.den == o.den:  # one denominator (a cp table's R(root)): compare the numerators
            return self.num.compare(o.num) * s
        return (self.num * o.den - o.num * self.den).sign() * s

    def __eq__(self, other):
        o = self._pair(other) if not isinstance(other, LnRoot) else None
        if o is None:
            return NotImplemented if not isinstance(other, LnRoot) else other == self
        return self.num * o.den == o.num * self.den

    def __hash__(self):
        r = self.den.rational()
        return hash(self.num / r) if r is not None else hash("infotree.LnQuotient")

    def sympy(self):
        return self.num.sympy() / self.den.sympy()

    def __str__(self):
        return f"({self.num})/({self.den})"

    def __repr__(self):
        return f"LnQuotient({str(self)!r})"

    def __format__(self, spec):
        return format(float(self), spec) if spec else str(self)


class LnRoot(_Ordered):
    """``sqrt(square)`` of a non-negative :class:`LnQuotient` (rpart's xstd of a Poisson tree),
    compared by squaring (both sides non-negative)."""

    __slots__ = ("square",)

    def __init__(self, square):
        self.square = LnQuotient.of(square)

    def compare(self, other) -> int:
        if isinstance(other, LnRoot):
            return self.square.compare(other.square)
        o = LnQuotient.of(other)
        if o.compare(0) < 0:
            return 1
        return self.square.compare(o * o)

    def __eq__(self, other):
        return self.compare(other) == 0

    def __hash__(self):
        return hash(("sqrt", hash(self.square)))

    def approx(self) -> tuple[float, float]:
        v, b = self.square.approx()
        if not math.isfinite(b):
            return (math.sqrt(max(v, 0.0)), math.inf)
        r = math.sqrt(max(v, 0.0))
        # |sqrt(v) − sqrt(x)| = |v − x| / (sqrt(v) + sqrt(x)) ≤ min(sqrt(b), b / sqrt(v))
        return r, (min(math.sqrt(b), b / r) if r > 0 else math.sqrt(b)) + 4 * _U * r + 1e-300

    def mp(self):
        from mpmath import sqrt

        return sqrt(self.square.mp())

    def __float__(self):
        return _rounded(self)

    def __str__(self):
        return f"sqrt({self.square})"

    def __format__(self, spec):
        return format(float(self), spec) if spec else str(self)
