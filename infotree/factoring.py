"""Prime factors of the integers an exact logarithm is made of: log2(q) is the sum of its
primes' logarithms (:class:`infotree.exact.Exact`), so a count's factors are found exactly:
trial division, deterministic Miller-Rabin and Brent's rho below 3.3·10^24, sympy past it."""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from functools import lru_cache

from .errors import InfotreeError

__all__ = ["factorize"]

# Below this bound Miller-Rabin with the first 13 prime bases is a proof of primality
# (Sorenson and Webster 2015: 3.3·10^24); larger numbers are factored by sympy.
_MR_LIMIT = 3317044064679887385961981
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_SMALL_PRIMES = tuple(p for p in range(3, 1000, 2) if all(p % q for q in range(3, int(p ** 0.5) + 1, 2)))


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < _MR_LIMIT (n odd, no factor below 1000)."""
    if n < 1_000_000:
        return True  # no factor below 1000 and below 1000²
    d, s = n - 1, 0
    while not d & 1:
        d >>= 1
        s += 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x == 1 or x == n - 1:
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _brent(n: int) -> int:
    """A non-trivial factor of an odd composite n (Pollard's rho, Brent's variant)."""
    for c in range(1, n):
        y, r, q, g, m = 2, 1, 1, 1, 128
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(m, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += m
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g
    raise AssertionError("unreachable: n is composite")


@lru_cache(maxsize=65536)
def _factor_int(n: int) -> tuple[tuple[int, int], ...]:
    """Prime factorisation of a positive integer as ((p, e), ...), p ascending."""
    if n >= _MR_LIMIT:
        return _factor_big(n)
    out: dict = {}
    e = (n & -n).bit_length() - 1
    if e:
        out[2] = e
        n >>= e
    for p in _SMALL_PRIMES:
        if p * p > n:
            break
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            out[p] = e
    stack = [n] if n > 1 else []
    while stack:
        m = stack.pop()
        if _is_prime(m):
            out[m] = out.get(m, 0) + 1
        else:
            f = _brent(m)
            stack += [f, m // f]
    return tuple(sorted(out.items()))


# sympy factors a 44-digit product of two 22-digit primes in about 10 s here and a
# 48-digit one in over two minutes; a C4.5 weight deep in a tree can have hundreds of
# digits.  Above this many digits, once the factors below 10^5 are out, only a prime is
# accepted: an error in a second, not an hours-long search.
_FACTOR_DIGITS = 45


def _factor_big(n: int) -> tuple[tuple[int, int], ...]:
    from sympy import factorint, isprime

    if len(str(n)) <= _FACTOR_DIGITS:
        return tuple(sorted(factorint(n).items()))
    out = factorint(n, limit=10 ** 5)  # the last factor may be composite
    rest = max(out)
    if rest > 10 ** 5 and not isprime(rest):
        if len(str(rest)) > _FACTOR_DIGITS:
            raise InfotreeError(
                f"an exact value needs the prime factors of a {len(str(n))}-digit integer with a "
                f"{len(str(rest))}-digit part that has no prime factor below 10^5; infotree factors such parts "
                f"up to {_FACTOR_DIGITS} digits (C4.5's missing-value weights grow this large deep in a tree: "
                "limit the depth, or read missing values as a value)")
        e = out.pop(rest)
        for p, k in factorint(rest).items():
            out[p] = out.get(p, 0) + k * e
    return tuple(sorted(out.items()))


def factorize(n) -> dict[int, int]:
    """Prime exponents of a positive rational: ``factorize(Fraction(9, 14)) == {2: -1, 3: 2, 7: -1}``."""
    q = Fraction(int(n)) if isinstance(n, numbers.Integral) else Fraction(n)
    if q <= 0:
        raise InfotreeError(f"log2 needs a positive number, got {n!r}")
    out: dict[int, int] = {}
    for p, e in _factor_int(q.numerator):
        out[p] = e
    for p, e in _factor_int(q.denominator):
        out[p] = out.get(p, 0) - e
    return out
