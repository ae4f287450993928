"""Tests for infotree.parse: the safe parser of the exact grammar.

Values are checked against sympy or against arithmetic on Fractions; errors are
checked by their whole message.
"""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import Exact, InfotreeError, ParseError, Ratio, parse_exact
from infotree.measures import entropy, gain_ratio_from_table, information_gain_from_table
from infotree.parse import MAX_LENGTH

F = Fraction
ALLOWED = "allowed: integers, + - * / ( ), log2(x), log(x, 2)"


def sympy_is_zero(expr):
    """True when a sympy expression in logarithms of rationals is identically 0."""
    import sympy

    return sympy.expand(sympy.expand_log(expr, force=True, factor=True)) == 0


# -- the grammar ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7", F(7)),
        ("1 + 2", F(3)),
        ("7 - 9", F(-2)),
        ("2 * 3", F(6)),
        ("3/4", F(3, 4)),
        ("-3/4", F(-3, 4)),
        ("+5", F(5)),
        ("--5", F(5)),
        ("2 - -3", F(5)),
        ("(1 + 2) * (3 - 5) / 4", F(-3, 2)),
        ("1 - 2 - 3", F(-4)),
        ("12 / 3 / 2", F(2)),
        ("1 + 2 * 3", F(7)),
        ("  1\t+\n2  ", F(3)),
        ("log2(8)", F(3)),
        ("log2(1/4)", F(-2)),
        ("log(32, 2)", F(5)),
        ("log(2*2, 1+1)", F(2)),
        ("3·4", F(12)),
        ("3×4", F(12)),
        ("3⋅4", F(12)),
        ("3÷4", F(3, 4)),
        ("7 − 9", F(-2)),
        ("−1/2", F(-1, 2)),
    ],
)
def test_rational_expressions(text, value):
    """Every operator, parentheses, unary signs, Unicode aliases and exact logs of powers of two give Fractions."""
    result = parse_exact(text)
    assert result == value
    assert type(result) is Fraction


def test_logarithms_match_sympy():
    """log2(x), log(x, 2) and their combinations parse to the value sympy builds."""
    import sympy

    L = lambda q: sympy.log(q, 2)  # noqa: E731
    R = sympy.Rational
    cases = [
        ("log2(14) - 9/14*log2(9) - 5/14*log2(5)", L(14) - R(9, 14) * L(9) - R(5, 14) * L(5)),
        ("log(9, 2)", L(9)),
        ("log(9/14, 2)", L(R(9, 14))),
        ("−(9/14)·log2(9/14) − (5/14)·log2(5/14)", -R(9, 14) * L(R(9, 14)) - R(5, 14) * L(R(5, 14))),
        ("log2(3) * 2 / 5", L(3) * 2 / 5),
        ("(1 + log2(3)) / 4 - log2(5/3)", (1 + L(3)) / 4 - L(R(5, 3))),
        ("-log2(7)", -L(7)),
    ]
    for text, expected in cases:
        value = parse_exact(text)
        assert isinstance(value, Exact)
        assert sympy_is_zero(value.sympy() - expected), text


def test_log_of_log_of_rational_is_allowed():
    """log2 of a rational-valued expression containing logs (log2(log2(16)) = 2) is exact."""
    assert parse_exact("log2(log2(16))") == 2
    assert parse_exact("log(log2(4) + 2, 2)") == 2


def test_quotient_of_logarithms_is_a_ratio():
    """(A)/(B) with B irrational is a Ratio equal to A/B; a rational B keeps an Exact."""
    r = parse_exact("(log2(9))/(log2(3))")
    assert isinstance(r, Ratio) and r == 2
    g = parse_exact("(9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5))/(3/7 + log2(7) - 5/7*log2(5))")
    assert g == gain_ratio_from_table([[2, 3], [4, 0], [3, 2]])
    assert parse_exact("3/log2(5)") == Ratio(Exact(3), Exact.log2(5))
    assert parse_exact("log2(3)/2") == Exact.log2(3) / 2 and isinstance(parse_exact("log2(3)/2"), Exact)


def test_issue_values_parse():
    """The worked values of the issue parse to the measures that produce them."""
    assert parse_exact("log2(14) - 9/14*log2(9) - 5/14*log2(5)") == entropy([9, 5])
    assert parse_exact("13/4 - 9/8*log2(3) - 5/8*log2(5)") == information_gain_from_table([[1, 1], [4, 2]])
    assert parse_exact("9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)") == information_gain_from_table(
        [[2, 3], [4, 0], [3, 2]])


def test_forty_digit_integers_are_allowed():
    """An integer literal of exactly 40 digits is accepted."""
    assert parse_exact("9" * 40) == 10**40 - 1


def test_fifty_levels_of_nesting_are_allowed():
    """Parentheses nested exactly 50 deep still parse."""
    assert parse_exact("(" * 50 + "1" + ")" * 50) == 1


# -- errors ---------------------------------------------------------------------------

NESTED = "(" * 51 + "1" + ")" * 51
LOG_NESTED = "log2(" * 60 + "2" + ")" * 60


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2**3", f"powers ('**') are not allowed in '2**3'; {ALLOWED}"),
        ("2 ** 3", f"powers ('**') are not allowed in '2 ** 3'; {ALLOWED}"),
        ("2^3", f"powers ('^') are not allowed in '2^3'; {ALLOWED}"),
        ("1" * 41, f"integer with 41 digits in '{'1' * 41}'; at most 40 digits are allowed"),
        ("__import__('os')", f"unexpected character '_' at position 1 in \"__import__('os')\"; {ALLOWED}"),
        ("x", f"unexpected character 'x' at position 1 in 'x'; {ALLOWED}"),
        ("1.5", f"unexpected character '.' at position 2 in '1.5'; {ALLOWED}"),
        ("1e5", f"unexpected character 'e' at position 2 in '1e5'; {ALLOWED}"),
        (NESTED, f"expression nested more than 50 deep in {NESTED[:60] + '...'!r}"),
        ("-" * 51 + "1", f"expression nested more than 50 deep in {'-' * 51 + '1'!r}"),
        (LOG_NESTED, f"expression nested more than 50 deep in {LOG_NESTED[:60] + '...'!r}"),
        ("log2(0)", "log2 of 0 in 'log2(0)'; the argument must be positive"),
        ("log2(-1)", "log2 of -1 in 'log2(-1)'; the argument must be positive"),
        ("log2(3)*log2(5)", "product of two logarithms in 'log2(3)*log2(5)'; multiply logarithms only by numbers"),
        ("log(8, 3)", "log base 3 in 'log(8, 3)'; only base 2 is allowed (log(x, 2) or log2(x))"),
        ("log2(log2(3))",
         "log2 of an irrational value in 'log2(log2(3))'; the argument must be a rational number"),
        ("log2(" + "1" + "0" * 31 + ")",
         f"log2 argument too large in 'log2(1{'0' * 31})'; numerator and denominator must be at most 10**12"),
        ("1/0", "division by zero in '1/0'"),
        ("log2(3)/0", "division by zero in 'log2(3)/0'"),
        ("log2(3)/(log2(3)-log2(3))", "division by zero in 'log2(3)/(log2(3)-log2(3))'"),
        ("", "empty expression; expected a number or log2(x)"),
        ("   ", "empty expression; expected a number or log2(x)"),
        ("1 +", "expected a number, '(' or log2( at position 4, found end of input, in '1 +'"),
        (")", "expected a number, '(' or log2( at position 1, found ')', in ')'"),
        ("(1", "expected ')' at position 3, found end of input, in '(1'"),
        ("1 2", "unexpected 2 at position 3 in '1 2'"),
        ("log2 3", "expected '(' at position 6, found 3, in 'log2 3'"),
        ("log(8)", "expected ',' at position 6, found ')', in 'log(8)'"),
        ("(log2(3))/(log2(5)) + 1",
         "a quotient of logarithms can only stand alone, as (A)/(B), in '(log2(3))/(log2(5)) + 1'"),
        ("(log2(3))/(log2(5)) * 2",
         "a quotient of logarithms can only stand alone, as (A)/(B), in '(log2(3))/(log2(5)) * 2'"),
    ],
)
def test_errors_have_whole_messages(text, message):
    """Text outside the grammar raises ParseError, an InfotreeError and ValueError, with the whole message."""
    with pytest.raises(ParseError) as e:
        parse_exact(text)
    assert str(e.value) == message
    assert isinstance(e.value, InfotreeError) and isinstance(e.value, ValueError)


def test_one_megabyte_line_is_refused_before_parsing():
    """A 1 MB line is refused by its length alone."""
    with pytest.raises(ParseError) as e:
        parse_exact("1+" * 500_000)
    assert str(e.value) == f"expression of 1000000 characters; at most {MAX_LENGTH} are allowed"


def test_non_text_is_refused():
    """Only str is parsed; other types are named in the error."""
    for value, name in ((5, "int"), (b"1+2", "bytes"), (None, "NoneType")):
        with pytest.raises(ParseError) as e:
            parse_exact(value)
        assert str(e.value) == f"expected text, got {name}"


# -- round trips and fuzzing ------------------------------------------------------------

coefficients = st.builds(Fraction, st.integers(-10**6, 10**6), st.integers(1, 10**4))
exacts = st.builds(
    Exact,
    coefficients,
    st.dictionaries(st.sampled_from([2, 3, 5, 7, 11, 13, 101, 65537]), coefficients, max_size=5),
)


@settings(deadline=None, max_examples=80)
@given(exacts)
def test_str_of_exact_parses_back(x):
    """str(x) of any Exact parses back to an equal value (a Fraction when x is rational)."""
    y = parse_exact(str(x))
    assert y == x and x == y
    assert hash(y) == hash(x)


@settings(deadline=None, max_examples=40)
@given(exacts, exacts.filter(bool))
def test_str_of_ratio_parses_back(a, b):
    """str(Ratio) parses back to an equal value."""
    r = Ratio(a, b)
    assert parse_exact(str(r)) == r


@settings(deadline=None, max_examples=25)
@given(st.integers(2, 3).flatmap(
    lambda width: st.lists(st.lists(st.integers(0, 30), min_size=width, max_size=width), min_size=2, max_size=4))
    .filter(lambda t: sum(map(sum, t)) > 0))
def test_str_of_measures_parses_back(table):
    """Information gains of tables print as text that parses back to the same value."""
    ig = information_gain_from_table(table)
    assert parse_exact(str(ig)) == ig


def test_str_with_many_primes_sharing_a_coefficient_parses_back():
    """log2 of the product of the odd primes below 100 prints in chunks the parser accepts."""
    primes = [p for p in range(3, 100, 2) if all(p % d for d in range(3, math.isqrt(p) + 1, 2))]
    x = Exact.log2(math.prod(primes))
    assert parse_exact(str(x)) == x


@settings(deadline=None, max_examples=300)
@given(st.one_of(
    st.text(max_size=200),
    st.text(alphabet="0123456789+-*/()^ ,·−log2", max_size=120),
    st.lists(st.sampled_from(["log2(", "log(", ",2)", "(", ")", "+", "-", "*", "/", "**", "9", "14", "0", "7/3"]),
             max_size=40).map("".join),
))
def test_fuzz_only_values_or_parse_errors(text):
    """Arbitrary text yields a Fraction, Exact or Ratio, or raises ParseError, and nothing else."""
    try:
        value = parse_exact(text)
    except ParseError:
        return
    assert isinstance(value, (Fraction, Exact, Ratio))
