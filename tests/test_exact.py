"""Tests for infotree.exact: exact values, their order, hashing, ratios and decimals.

Reference values come from outside the code under test: mpmath at high precision,
sympy, or integer identities.  ``mp_of`` evaluates a value's coefficients with
mpmath; it never calls infotree's own comparison machinery.
"""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import infotree.decimals as decimals_module
import infotree.exact as exact_module
from infotree import InfotreeError, UndecidedError
from infotree.exact import Exact, Ratio, log2_of
from infotree.decimals import decimal_text
from infotree.factoring import factorize
from infotree.measures import (
    entropy,
    gain_ratio_from_table,
    information_gain_from_table,
    split_information_from_table,
)

F = Fraction

# Convergents p/q of log2(3): |log2(3) - p/q| shrinks from 1e-9 to 1e-25.
LOG2_3_CONVERGENTS = [
    (24727, 15601), (301994, 190537), (16785921, 10590737), (85137581, 53715833),
    (272500658, 171928773), (357638239, 225644606), (630138897, 397573379),
    (9809721694, 6189245291), (103768467013, 65470613321), (1193652440098, 753110839881),
]


def mp_of(x, dps=100):
    """``x`` (Exact, Ratio or rational) evaluated by mpmath from its coefficients."""
    with mpmath.workdps(dps):
        if isinstance(x, Ratio):
            return mp_of(x.num, dps) / mp_of(x.den, dps)
        if not isinstance(x, Exact):
            q = Fraction(x)
            return mpmath.mpf(q.numerator) / q.denominator
        v = mpmath.mpf(x.c0.numerator) / x.c0.denominator
        for p, c in x.terms:
            v += mpmath.mpf(c.numerator) / c.denominator * mpmath.log(p, 2)
        return +v


def mp_sign(v):
    return (v > 0) - (v < 0)


def sym_of(x):
    """``x`` (Exact or rational) as a sympy expression built from its coefficients."""
    import sympy

    if not isinstance(x, Exact):
        return sympy.Rational(Fraction(x).numerator, Fraction(x).denominator)
    return sympy.Rational(x.c0.numerator, x.c0.denominator) + sum(
        sympy.Rational(c.numerator, c.denominator) * sympy.log(p, 2) for p, c in x.terms)


def ratio_order(r, s, dps=100):
    """The sign of ``r - s`` for a Ratio ``r`` and a Ratio, Exact or rational ``s``.

    Two equal values written differently (log2(27)/log2(9) and 3/2) evaluate to 100-digit
    numbers that differ in their last digits, so a difference within 10^-(dps-20) of 0 is
    not read as a sign: the tie r.num·s.den = s.num·r.den is checked symbolically (sympy),
    and a true near-tie is evaluated again at four times the precision.
    """
    with mpmath.workdps(dps):
        d = mp_of(r, dps) - mp_of(s, dps)
        scale = 1 + abs(mp_of(r, dps)) + abs(mp_of(s, dps))
        if abs(d) > mpmath.mpf(10) ** (20 - dps) * scale:
            return mp_sign(d)
    s_num, s_den = (s.num, s.den) if isinstance(s, Ratio) else (s, 1)
    if sympy_is_zero(sym_of(r.num) * sym_of(s_den) - sym_of(s_num) * sym_of(r.den)):
        return 0
    assert dps < 1600, f"{r!r} and {s!r} agree to {dps} digits without being equal"
    return ratio_order(r, s, dps * 4)


def mp_ig(table, dps=100):
    """IG of a value-by-class table straight from the counts, n·IG = f(n) - Σf(n_y) - Σf(n_x) + Σf(n_xy)."""
    with mpmath.workdps(dps):
        def f(m):
            return mpmath.mpf(m) * mpmath.log(m, 2) if m else mpmath.mpf(0)

        cells = [c for row in table for c in row]
        n = sum(cells)
        ys = [sum(col) for col in zip(*table)]
        xs = [sum(row) for row in table]
        return (f(n) - sum(f(y) for y in ys) - sum(f(x) for x in xs) + sum(f(c) for c in cells)) / n


def sympy_is_zero(expr):
    """True when a sympy expression in logarithms of rationals is identically 0."""
    import sympy

    return sympy.expand(sympy.expand_log(expr, force=True, factor=True)) == 0


# -- strategies ------------------------------------------------------------------

coefficients = st.builds(Fraction, st.integers(-400, 400), st.integers(1, 24))
exacts = st.builds(
    Exact,
    coefficients,
    st.dictionaries(st.sampled_from([2, 3, 5, 7, 11, 13]), coefficients, max_size=4),
)
irrational_exacts = st.builds(
    lambda x, p, c: x + c * Exact.log2(p),
    exacts, st.sampled_from([3, 5, 7]), coefficients.filter(bool),
).filter(lambda x: not x.is_rational())


@st.composite
def tiny_differences(draw):
    """An exact value ``p/q - log2(3)`` of absolute size 1e-9 down to 1e-25, either sign."""
    p, q = draw(st.sampled_from(LOG2_3_CONVERGENTS))
    d = Exact(F(p, q)) - Exact.log2(3)
    return d if draw(st.booleans()) else -d


@st.composite
def near_pairs(draw):
    """Two exact values that differ by a tiny non-zero amount."""
    a = draw(exacts)
    return a, a + draw(tiny_differences())


values_with_near_ties = st.one_of(exacts, near_pairs().map(lambda ab: ab[1]))


# -- construction and factorisation ------------------------------------------------

def test_factorize_matches_sympy_factorint():
    """factorize agrees with sympy.factorint for a rational and for integers beyond trial division."""
    import sympy

    assert factorize(F(9, 14)) == {2: -1, 3: 2, 7: -1}
    for n in (360, 2**5 * 3**7 * 101, 1000000007 * 998244353, 10**12 + 39):
        assert factorize(n) == dict(sympy.factorint(n))


def test_factorize_beyond_the_miller_rabin_range():
    """Numbers past 3.3e24: small factors, large primes and a 28-digit semiprime are factored as sympy does."""
    import sympy

    p25, p14 = sympy.nextprime(10 ** 25), sympy.nextprime(7 * 10 ** 13)
    big = sympy.nextprime(10 ** 60)
    for n in (2 ** 90 * 3, 6 * big, p25 * 1009 ** 2, p14 * sympy.nextprime(3 * 10 ** 13) * 10 ** 6):
        assert factorize(n) == dict(sympy.factorint(n))


def test_factorize_refuses_a_large_hard_part_in_one_line():
    """A composite part of more than 45 digits with no factor below 10^5 is refused, not searched for hours."""
    import sympy

    p, q = sympy.nextprime(10 ** 30), sympy.nextprime(3 * 10 ** 30)
    with pytest.raises(InfotreeError) as e:
        factorize(12 * p * q)
    assert str(e.value) == (
        "an exact value needs the prime factors of a 62-digit integer with a 61-digit part that has no prime "
        "factor below 10^5; infotree factors such parts up to 45 digits (C4.5's missing-value weights grow this "
        "large deep in a tree: limit the depth, or read missing values as a value)")


def test_factorize_refuses_non_positive():
    """log2 of zero or a negative number is an InfotreeError with the value shown."""
    with pytest.raises(InfotreeError) as e:
        factorize(0)
    assert str(e.value) == "log2 needs a positive number, got 0"
    with pytest.raises(InfotreeError) as e:
        Exact.log2(F(-3, 4))
    assert str(e.value) == "log2 needs a positive number, got Fraction(-3, 4)"


def test_log2_matches_sympy():
    """Exact.log2 of integers, fractions and fraction strings equals sympy's log(q, 2)."""
    import sympy

    for q in (1, 2, 360, F(9, 14), "16/15", F(1, 1024)):
        expected = sympy.log(sympy.Rational(str(q)), 2)
        assert sympy_is_zero(Exact.log2(q).sympy() - expected)
    assert log2_of("9/14") == Exact.log2(F(9, 14))


def test_powers_of_two_are_rational():
    """log2 of a power of two is the rational exponent, equal to the int and Fraction."""
    assert Exact.log2(1024) == 10
    assert Exact.log2(F(1, 8)) == F(-3)
    assert Exact.log2(1024).is_rational()
    assert str(Exact.log2(F(1, 8))) == "-3"


def test_constant_must_be_rational():
    """A float constant is refused with a TypeError naming the requirement."""
    with pytest.raises(TypeError) as e:
        Exact(0.5)
    assert str(e.value) == "Exact needs a rational constant"


def test_prime_two_folds_into_the_constant():
    """A coefficient on log2(2) becomes part of the rational constant."""
    x = Exact.from_coefficients(1, {2: F(1, 2), 3: 1})
    assert x.c0 == F(3, 2)
    assert x.terms == ((3, F(1)),)


def test_from_coefficients_factors_composite_bases():
    """Composite and fractional bases are factored, so the result equals (and hashes like) the canonical value."""
    x = Exact.from_coefficients(0, {9: 1, F(5, 14): F(1, 2)})
    expected = 2 * Exact.log2(3) + F(1, 2) * Exact.log2(F(5, 14))
    assert x == expected and hash(x) == hash(expected)
    assert str(x) == "-1/2 + 2*log2(3) + 1/2*log2(5/7)"


# -- arithmetic ---------------------------------------------------------------------

def test_arithmetic_with_rationals_matches_sympy():
    """+, -, * and / with ints and Fractions give the value sympy computes."""
    import sympy

    a = Exact.log2(14) - F(9, 14) * Exact.log2(9)
    x = (3 + a) * F(2, 7) - 1 / F(2) + a / 3 - F(1, 5) - a * 2
    L = lambda q: sympy.log(q, 2)  # noqa: E731
    sa = L(14) - sympy.Rational(9, 14) * L(9)
    sx = (3 + sa) * sympy.Rational(2, 7) - sympy.Rational(1, 2) + sa / 3 - sympy.Rational(1, 5) - sa * 2
    assert sympy_is_zero(x.sympy() - sx)


def test_product_of_two_logarithms_is_not_an_exact_value():
    """Multiplying two irrational Exacts raises TypeError (the result is outside the form)."""
    with pytest.raises(TypeError):
        Exact.log2(3) * Exact.log2(5)
    assert Exact(2) * Exact.log2(3) == Exact.log2(9)
    assert Exact.log2(3) * Exact(2) == Exact.log2(9)


def test_division_by_zero():
    """Dividing by a zero rational or a zero Exact raises ZeroDivisionError with a clear message."""
    for zero in (0, F(0), Exact(0), Exact.log2(3) - Exact.log2(3)):
        with pytest.raises(ZeroDivisionError) as e:
            Exact.log2(3) / zero
        assert str(e.value) == "division of an exact value by zero"


def test_exact_over_exact_is_a_ratio():
    """Exact / irrational Exact is a Ratio; dividing by a rational Exact stays Exact."""
    r = Exact.log2(3) / Exact.log2(5)
    assert isinstance(r, Ratio)
    assert isinstance(Exact.log2(3) / Exact(2), Exact)
    assert isinstance(1 / Exact.log2(3), Ratio)


# -- equality and hashing -----------------------------------------------------------

def test_equal_values_built_differently_compare_equal():
    """log2(9/14) built four ways is equal, neither < nor >, and hashes alike."""
    ways = [
        Exact.log2(F(9, 14)),
        Exact.log2(9) - Exact.log2(14),
        2 * Exact.log2(3) - 1 - Exact.log2(7),
        Exact.from_coefficients(-1, {3: 2, 7: -1}),
    ]
    for a in ways:
        for b in ways:
            assert a == b
            assert not a < b and not a > b
            assert a <= b and a >= b
            assert a.compare(b) == 0
            assert hash(a) == hash(b)


@settings(deadline=None, max_examples=50)
@given(exacts, exacts)
def test_hash_agrees_with_equality(a, b):
    """Values equal after different arithmetic hash alike; rational values hash like their Fraction."""
    b_again = (a + b) - b
    assert a == b_again
    assert hash(a) == hash(b_again)
    if a.is_rational():
        assert a == a.c0 and hash(a) == hash(a.c0)
        assert len({a, a.c0}) == 1
    if a == b:
        assert hash(a) == hash(b)


def test_rational_exact_equals_int_and_fraction():
    """A rational Exact equals the int or Fraction of the same value and shares its hash."""
    assert Exact(3) == 3 and hash(Exact(3)) == hash(3)
    assert Exact(F(1, 2)) == F(1, 2) and hash(Exact(F(1, 2))) == hash(F(1, 2))
    assert {Exact(F(1, 2)): "x"}[F(1, 2)] == "x"
    assert Exact.log2(3) != 1 and Exact.log2(3) != F(3, 2)


def test_exact_does_not_equal_a_float():
    """Exact values never equal floats and cannot be ordered against them."""
    assert Exact(F(1, 2)) != 0.5
    with pytest.raises(TypeError) as e:
        Exact.log2(3) < 1.5
    assert str(e.value) == "cannot compare Exact with float"


# -- ordering -----------------------------------------------------------------------

@settings(deadline=None, max_examples=60)
@given(values_with_near_ties, values_with_near_ties)
def test_order_matches_mpmath(a, b):
    """compare and the rich comparisons agree with 100-digit mpmath for arbitrary pairs."""
    expected = mp_sign(mp_of(a) - mp_of(b))
    assert a.compare(b) == expected
    assert (a < b) == (expected < 0)
    assert (a > b) == (expected > 0)
    assert (a == b) == (expected == 0)
    assert b.compare(a) == -expected


@settings(deadline=None, max_examples=40)
@given(near_pairs())
def test_near_ties_are_ordered_exactly(pair):
    """Values differing by 1e-9 down to 1e-25 are ordered as mpmath says, in both directions."""
    a, b = pair
    expected = mp_sign(mp_of(b) - mp_of(a))
    assert expected != 0
    assert b.compare(a) == expected
    assert a.compare(b) == -expected
    assert a != b


@settings(deadline=None, max_examples=50)
@given(exacts)
def test_sign_matches_mpmath(a):
    """sign() is -1, 0 or 1 exactly as the 100-digit value says."""
    assert a.sign() == mp_sign(mp_of(a))


@settings(deadline=None, max_examples=30)
@given(st.lists(values_with_near_ties, min_size=1, max_size=8))
def test_sorted_and_max_agree_with_mpmath(xs):
    """sorted() yields non-decreasing high-precision values and max() is the first largest."""
    values = [mp_of(x) for x in xs]
    ordered = [mp_of(x) for x in sorted(xs)]
    assert ordered == sorted(values)
    top = max(values)
    assert mp_of(max(xs)) == top
    assert max(xs) is xs[values.index(top)]


def test_ordering_against_rationals():
    """An Exact compares with ints and Fractions, on both sides of the operator."""
    x = Exact.log2(3)  # 1.58496...
    assert 1 < x < 2
    assert F(3, 2) < x < F(8, 5)
    assert x > F(3, 2) and F(8, 5) > x
    assert sorted([2, x, F(3, 2)]) == [F(3, 2), x, 2]


def test_convergent_ties_decided_by_precise_fallback():
    """p/q vs log2(3) for convergents down to 1e-25 apart is ordered by the exact fallback."""
    for p, q in LOG2_3_CONVERGENTS:
        r = Exact(F(p, q))
        expected = mp_sign(mp_of(r) - mp_of(Exact.log2(3)))
        assert r.compare(Exact.log2(3)) == expected
        assert (r - Exact.log2(3)).sign() == expected


# Pairs of 2x2 tables with counts in the tens of thousands whose information gains
# differ by less than 1e-16 (found by a search over random tables, then checked
# below at 100 digits).  On IEEE doubles the textbook float formula orders the first
# two pairs the wrong way round (float gaps of 1.1e-16 with the opposite sign) and
# gives the exactly-zero gain of the last table 1.1e-16; nothing below relies on it.
NEAR_EQUAL_GAINS = [
    ([[18669, 28006], [37336, 56009]], [[11520, 23052], [34559, 69154]]),  # differ by -5.9e-18
    ([[26637, 39900], [79913, 119703]], [[39931, 26606], [119796, 79820]]),  # differ by +3.3e-17
    ([[30059, 30067], [30058, 30066]], [[32573, 37587], [65146, 75174]]),  # 3.5e-18 vs exactly 0
]


@pytest.mark.parametrize(("table_a", "table_b"), NEAR_EQUAL_GAINS)
def test_certified_filter_orders_gains_of_large_tables(table_a, table_b):
    """Information gains of big tables 1e-17 apart are ordered as mpmath at 100 digits says."""
    diff = mp_ig(table_a) - mp_ig(table_b)
    assert 0 < abs(diff) < mpmath.mpf("1e-16")
    a, b = information_gain_from_table(table_a), information_gain_from_table(table_b)
    assert a.compare(b) == mp_sign(diff)
    assert b.compare(a) == -mp_sign(diff)
    assert a != b
    assert (a > b) == (diff > 0) and (a < b) == (diff < 0)


def test_independent_big_table_has_exactly_zero_gain():
    """The zero-gain partner in the near-tie list is exactly 0, not merely tiny."""
    zero = information_gain_from_table([[32573, 37587], [65146, 75174]])
    assert zero == 0 and str(zero) == "0"
    tiny = information_gain_from_table([[30059, 30067], [30058, 30066]])
    assert tiny.sign() == 1 and tiny > 0


# -- printing -----------------------------------------------------------------------

def test_text_and_latex_printing():
    """Terms print positive first, sharing coefficients combine into one logarithm."""
    h = Exact.log2(14) - F(9, 14) * Exact.log2(9) - F(5, 14) * Exact.log2(5)
    assert str(h) == "1 + log2(7) - 9/7*log2(3) - 5/14*log2(5)"
    assert h.latex() == "1 + \\log_2 7 - \\frac{9}{7}\\log_2 3 - \\frac{5}{14}\\log_2 5"
    assert str(F(15, 16) * Exact.log2(F(16, 15))) == "15/4 - 15/16*log2(15)"
    assert str(F(1, 2) * Exact.log2(F(3, 5))) == "1/2*log2(3/5)"
    assert Exact(F(1, 2)).latex() == "\\frac{1}{2}"
    assert str(-Exact.log2(3)) == "-log2(3)"
    assert str(Exact(0)) == "0"
    assert repr(Exact.log2(6)) == "Exact('1 + log2(3)')"
    assert format(Exact.log2(3), ".3f") == "1.585"
    assert format(Exact.log2(3)) == "log2(3)"


def test_sympy_conversion():
    """sympy() gives the same real number as sympy's own construction."""
    import sympy

    h = Exact.log2(14) - F(9, 14) * Exact.log2(9) - F(5, 14) * Exact.log2(5)
    expected = sympy.log(14, 2) - sympy.Rational(9, 14) * sympy.log(9, 2) - sympy.Rational(5, 14) * sympy.log(5, 2)
    assert sympy.simplify(h.sympy() - expected) == 0


# -- ratios ---------------------------------------------------------------------------

def test_ratio_equality_from_identical_cross_products():
    """Ratios whose cross-products are the same polynomial are equal, and hash alike."""
    r = Ratio(Exact.log2(3), Exact.log2(5))
    same = [Ratio(2 * Exact.log2(3), 2 * Exact.log2(5)), Ratio(Exact.log2(9), Exact.log2(25)),
            Exact.log2(27) / Exact.log2(125)]
    for s in same:
        assert r == s and s == r
        assert r.compare(s) == 0
        assert hash(r) == hash(s)
    assert r != Ratio(Exact.log2(5), Exact.log2(3))


def test_ratio_with_rational_value_equals_and_hashes_like_it():
    """log2(9)/log2(3) equals 2 and hashes like 2, so sets and dicts treat them as one key."""
    r = Ratio(Exact.log2(9), Exact.log2(3))
    assert r == 2 and r == F(2) and r == Exact(2) and Exact(2) == r
    assert hash(r) == hash(2)
    assert len({r, 2, F(2), Exact(2)}) == 1
    half = Ratio(Exact.log2(3), 2)
    assert half == Exact.log2(3) / 2 and hash(half) == hash(Exact.log2(3) / 2)
    zero = Ratio(0, Exact.log2(3))
    assert zero == 0 and hash(zero) == hash(0)


def test_ratio_zero_denominator():
    """A Ratio with a zero denominator raises ZeroDivisionError with a clear message."""
    with pytest.raises(ZeroDivisionError) as e:
        Ratio(Exact.log2(3), Exact.log2(5) - Exact.log2(5))
    assert str(e.value) == "ratio with a zero denominator"


ratios = st.builds(Ratio, exacts, exacts.filter(bool))


# Equal values written differently: their 100-digit evaluations differ in the last digits.
RATIO_TIES = [
    (Ratio(Exact(0, {11: F(29, 7)}), Exact(0, {11: F(29, 5)})), F(5, 7)),
    (Ratio(Exact.log2(27), Exact.log2(9)), F(3, 2)),
    (Ratio(Exact(1, {3: F(1, 3)}), Exact(0, {5: 2})), Ratio(Exact(3, {3: 1}), Exact(0, {5: 6}))),
    (Ratio(Exact(F(1, 3), {7: -1}), Exact(2, {13: F(2, 3)})), Ratio(Exact(F(1, 2), {7: F(-3, 2)}),
                                                                     Exact(3, {13: 1}))),
    (Ratio(Exact(0, {5: 1}), Exact(0, {3: 1})), Ratio(Exact(0, {5: 3}), Exact(0, {3: 3}))),
]


def test_ratio_ties_are_ties():
    """The oracle calls each tie a tie, sees the smallest move off it, and infotree agrees."""
    nudge = Exact(F(1, 10 ** 30))
    for r, s in RATIO_TIES:
        assert ratio_order(r, s) == 0 and r.compare(s) == 0 and r == s
        up = Ratio(r.num + nudge * r.den, r.den)  # r + 10^-30
        assert ratio_order(up, s) == 1 and up.compare(s) == 1 and up > s


@settings(deadline=None, max_examples=60, derandomize=True)
@given(ratios, st.one_of(ratios, exacts, coefficients, tiny_differences().map(lambda d: ("near", d))))
def test_ratio_order_matches_mpmath(r, s):
    """Ratio ordering against ratios, exacts and rationals agrees with 100-digit mpmath,
    ties proved by sympy; ("near", d) stands for (r.num + d) / r.den, d/r.den away from r
    with |d| from 1e-9 down to 1e-25."""
    if isinstance(s, tuple):
        s = Ratio(r.num + s[1], r.den)
    expected = ratio_order(r, s)
    assert r.compare(s) == expected
    assert (r < s) == (expected < 0)
    assert (r > s) == (expected > 0)
    if expected == 0:
        assert r == s and hash(r) == hash(s)


@settings(deadline=None, max_examples=30)
@given(ratios, st.builds(Fraction, st.integers(1, 100), st.integers(1, 10)))
def test_scaled_ratio_equals_original(r, q):
    """Scaling numerator and denominator by the same rational keeps a Ratio equal, with equal hash."""
    scaled = Ratio(r.num * q, r.den * q)
    assert scaled == r and hash(scaled) == hash(r)
    assert scaled.compare(r) == 0 and not scaled < r and not scaled > r


def test_ratio_near_tie_with_rational():
    """log2(3)/log2(5) against convergents 1e-8 to 1e-23 away is ordered like mpmath."""
    r = Ratio(Exact.log2(3), Exact.log2(5))
    for p, q in [(1142, 1673), (2469289, 3617443), (141142233, 206769634), (221442182, 324406933),
                 (99442652099, 145680852155)]:
        expected = mp_sign(mp_of(r) - mp_of(F(p, q)))
        assert r.compare(F(p, q)) == expected
        assert Ratio(Exact(F(p, q)), Exact(1)).compare(r) == -expected


def test_ratio_undecided_raises_with_whole_message(monkeypatch):
    """Below the allowed precision a ratio comparison raises UndecidedError rather than guessing."""
    monkeypatch.setattr(exact_module, "MAX_RATIO_DIGITS", 20)
    r = Ratio(Exact.log2(3), Exact.log2(5))
    with pytest.raises(UndecidedError) as e:
        r.compare(F(221442182, 324406933))
    assert str(e.value) == (
        "cannot decide the order of two gain ratios: their cross-product difference "
        "1*log2(3) + -221442182/324406933*log2(5) is below 1e-20 in absolute value but not identically 0"
    )
    assert isinstance(e.value, InfotreeError) and isinstance(e.value, ValueError)


def test_ratio_printing():
    """A Ratio prints as (num)/(den) in text and as a fraction in LaTeX."""
    r = Ratio(Exact.log2(3), Exact.log2(5))
    assert str(r) == "(log2(3))/(log2(5))"
    assert r.latex() == "\\frac{\\log_2 3}{\\log_2 5}"
    assert repr(r) == "Ratio('(log2(3))/(log2(5))')"
    assert format(r, ".4f") == "0.6826"


def test_play_tennis_outlook_gain_ratio():
    """Outlook's gain ratio is 0.1564 and its split information 1.5774, both matching mpmath."""
    table = [[2, 3], [4, 0], [3, 2]]
    gr = gain_ratio_from_table(table)
    si = split_information_from_table(table)
    assert decimal_text(gr) == "0.1564"
    assert decimal_text(si) == "1.5774"
    with mpmath.workdps(50):
        si_mp = -sum(mpmath.mpf(k) / 14 * mpmath.log(mpmath.mpf(k) / 14, 2) for k in (5, 4, 5))
        assert abs(mp_of(si) - si_mp) < mpmath.mpf("1e-45")
        assert abs(mp_of(gr) - mp_ig(table, 50) / si_mp) < mpmath.mpf("1e-45")


# -- decimal_text ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (F(1, 8), 2, "0.13"),
        (F(-1, 8), 2, "-0.13"),
        (F(1, 8), 3, "0.125"),
        (F(5, 2), 0, "3"),
        (F(-5, 2), 0, "-3"),
        (F(1, 2), 0, "1"),
        (F(3, 2), 0, "2"),
        (F(-1, 1000), 2, "0.00"),
        (0, 3, "0.000"),
        (7, 2, "7.00"),
        (F(2, 3), 4, "0.6667"),
        (Exact(F(1, 8)), 2, "0.13"),
        (Exact(F(-1, 8)), 2, "-0.13"),
        (Exact(F(-5, 2)), 0, "-3"),
        (Exact(F(-1, 1000)), 2, "0.00"),
    ],
)
def test_decimal_text_rounds_half_away_from_zero(value, digits, text):
    """Exact rounding boundaries round half away from zero; no negative zero is printed."""
    assert decimal_text(value, digits) == text


@pytest.mark.parametrize("sign", [1, -1])
def test_decimal_text_just_beside_a_boundary(sign):
    """1/8 ± 1e-17 (irrational) rounds to 0.13 or 0.12 as its exact side of the boundary says."""
    for p, q in LOG2_3_CONVERGENTS:
        d = Exact(F(p, q)) - Exact.log2(3)
        x = F(1, 8) + sign * d
        above = mp_of(x) > mpmath.mpf(1) / 8
        assert decimal_text(x, 2) == ("0.13" if above else "0.12")
        assert decimal_text(-x, 2) == ("-0.13" if above else "-0.12")


def mp_round_text(v, digits):
    """Round half away from zero with mpmath at 120 digits, as text."""
    with mpmath.workdps(120):
        k = int(mpmath.floor(abs(v) * 10**digits + mpmath.mpf(1) / 2))
    whole, frac = divmod(k, 10**digits)
    sign = "-" if v < 0 and k else ""
    return f"{sign}{whole}" if digits == 0 else f"{sign}{whole}.{frac:0{digits}d}"


@settings(deadline=None, max_examples=30)
@given(irrational_exacts, st.integers(min_value=0, max_value=50))
def test_decimal_text_of_irrationals_matches_mpmath(x, digits):
    """Irrational values print the digits mpmath computes at 120 digits, for 0 to 50 decimals."""
    assert decimal_text(x, digits) == mp_round_text(mp_of(x, 120), digits)


def test_decimal_text_many_digits_of_log2_3():
    """log2(3) to 50 decimals is mpmath's, and a Ratio to 40 decimals too (no float-step crawl)."""
    assert decimal_text(Exact.log2(3), 50) == "1.58496250072115618145373894394781650875981440769248"
    r = Ratio(Exact.log2(3), Exact.log2(5))
    assert decimal_text(r, 40) == mp_round_text(mp_of(r, 120), 40)


# -- the certified float shortcut of decimal_text ---------------------------------------

@st.composite
def near_boundaries(draw):
    """A value at, or within 1e-9..1e-25 of, a rounding boundary (2k+1)/(2·10^d), and its d."""
    digits = draw(st.integers(0, 8))
    k = draw(st.integers(-10**6, 10**6))
    boundary = Exact(F(2 * k + 1, 2 * 10**digits))
    how = draw(st.sampled_from(["at", "beside", "beside_scaled"]))
    if how == "at":
        return boundary, digits
    d = draw(tiny_differences())
    if how == "beside_scaled":
        d = d * F(1, 10**digits)
    return boundary + d, digits


decimal_cases = st.one_of(
    st.tuples(exacts, st.integers(0, 12)),
    st.tuples(irrational_exacts, st.integers(0, 50)),
    st.tuples(st.builds(Ratio, irrational_exacts, irrational_exacts), st.integers(0, 12)),
    near_boundaries(),
)


@settings(deadline=None, max_examples=300)
@given(decimal_cases)
def test_certified_decimals_equal_the_exact_path(case):
    """decimal_text with its float shortcut prints what the exact comparisons print, boundaries included."""
    x, digits = case
    fast = decimals_module._certified_digits(x, 10**digits)
    exact_text = decimals_module._decimal_exact(x, digits)
    assert decimal_text(x, digits) == exact_text
    if fast is not None:
        assert decimals_module._digits_text(fast, digits, 10**digits) == exact_text
        assert exact_text == mp_round_text(mp_of(x, 120), digits)


def test_certified_decimals_leave_boundaries_to_exact_comparisons():
    """0.24675 and values 1e-20 beside it are not decided by floats; they round by their exact side."""
    for x in (Exact(F(24675, 100000)), -Exact(F(24675, 100000))):
        assert decimals_module._certified_digits(x, 10**4) is None
    assert decimal_text(Exact(F(24675, 100000)), 4) == "0.2468"
    assert decimal_text(-Exact(F(24675, 100000)), 4) == "-0.2468"
    p, q = LOG2_3_CONVERGENTS[-1]
    d = Exact(F(p, q)) - Exact.log2(3)  # about 1e-25, sign from mpmath
    below = mp_of(d) < 0
    x = Exact(F(24675, 100000)) + d
    assert decimals_module._certified_digits(x, 10**4) is None
    assert decimal_text(x, 4) == ("0.2467" if below else "0.2468")


def test_certified_decimals_decide_ordinary_values():
    """Away from a boundary the float interval decides: the shortcut answers for H(9,5) and a gain ratio."""
    h = Exact.log2(14) - F(9, 14) * Exact.log2(9) - F(5, 14) * Exact.log2(5)
    assert decimals_module._certified_digits(h, 10**4) == 9403
    r = Ratio(h, Exact.log2(3))
    assert decimals_module._certified_digits(r, 10**6) is not None


def test_a_prime_beyond_the_print_limit_prints_alone():
    """A prime above 10**12 is its own log2 argument, with no empty log2(1) group before it."""
    big = 10 ** 12 + 39  # prime
    assert str(Exact(0, {big: 1})) == f"log2({big})"
    assert str(Exact(0, {3: 1, big: -1})) == f"log2(3) - log2({big})"
    h = entropy([big, 1])
    assert str(h) == f"3 + log2(125000000005) - {big}/{big + 1}*log2({big})"
    with mpmath.workdps(40):
        p = mpmath.mpf(big) / (big + 1)
        assert abs(h.approx()[0] - (-p * mpmath.log(p, 2) - (1 - p) * mpmath.log(1 - p, 2))) < 1e-12
