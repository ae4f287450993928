"""The atoms of a logarithm: a positive rational's ln as Σ e_a·ln a over its primes below 1000
and an unfactored cofactor, and a polynomial in such logarithms rewritten over a pairwise
coprime basis (so that equal values have equal coefficients)."""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["atoms", "ln_atoms"]

_PRIMES = tuple(p for p in range(2, 1000) if all(p % q for q in range(2, int(p ** 0.5) + 1)))


def atoms(n: int) -> dict:
    """n > 0 as {atom: exponent}: its primes below 1000, then the cofactor (prime when below
    10^6; else kept whole, unfactored)."""
    out = {}
    for p in _PRIMES:
        if p * p > n:
            break
        while n % p == 0:
            n //= p
            out[p] = out.get(p, 0) + 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def ln_atoms(q) -> dict:
    """ln q of a positive rational as {atom: coefficient}."""
    q = Fraction(q)
    out = atoms(q.numerator)
    for a, e in atoms(q.denominator).items():
        out[a] = out.get(a, 0) - e
    return {a: e for a, e in out.items() if e}


def _coprime_basis(numbers) -> list:
    """Pairwise coprime integers > 1 whose products give every one of ``numbers``."""
    basis: list = []
    for x in numbers:
        stack = [x]
        while stack:
            y = stack.pop()
            if y == 1:
                continue
            for i, b in enumerate(basis):
                g = math.gcd(y, b)
                if g > 1:
                    basis.pop(i)
                    stack.extend((b // g, g, y // g))
                    break
            else:
                basis.append(y)
    return basis


def _over_basis(poly: dict) -> dict:
    """A polynomial in the ln a rewritten over the coprime basis of its atoms."""
    used = sorted({a for m in poly for a in m})
    basis = _coprime_basis(used)
    if len(basis) == len(used) and set(basis) == set(used):
        return poly
    expand = {}
    for a in used:
        e, rest = {}, a
        for b in basis:
            while rest % b == 0:
                rest //= b
                e[b] = e.get(b, 0) + 1
        expand[a] = e
    out: dict = {}
    for m, c in poly.items():
        parts = [{(): c}]
        for a in m:  # multiply out Π (Σ e_b ln b)
            nxt = {}
            for mono, k in parts[0].items():
                for b, e in expand[a].items():
                    key = tuple(sorted(mono + (b,)))
                    nxt[key] = nxt.get(key, 0) + k * e
            parts = [nxt]
        for mono, k in parts[0].items():
            out[mono] = out.get(mono, 0) + k
    return {m: c for m, c in out.items() if c}
