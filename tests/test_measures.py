"""Tests for infotree.measures: exact entropies, gains, ratios and divergences.

Expected values are computed independently of the measure functions: with sympy,
with mpmath, or with the integer identity n·H(counts) = log2(n^n / Π n_y^n_y),
whose right-hand side is the log2 of one exact rational.
"""

import math
from collections import Counter
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import (
    Exact,
    InfotreeError,
    Ratio,
    conditional_entropy,
    conditional_entropy_from_table,
    conditional_mutual_information,
    cross_entropy,
    entropy,
    entropy_of_labels,
    entropy_of_probabilities,
    gain_ratio,
    gain_ratio_from_table,
    information_gain,
    information_gain_from_table,
    joint_entropy,
    kl_divergence,
    mutual_information,
    parse_exact,
    specific_conditional_entropy,
    split_information,
    split_information_from_table,
)
from infotree.decimals import decimal_text

F = Fraction

HORSE_RACE = ["1/2", "1/4", "1/8", "1/16", "1/64", "1/64", "1/64", "1/64"]

# Mitchell's play-tennis data: the outlook column and the class.
OUTLOOK = ["sunny", "sunny", "overcast", "rain", "rain", "rain", "overcast",
           "sunny", "sunny", "rain", "sunny", "overcast", "overcast", "rain"]
PLAY = ["no", "no", "yes", "yes", "yes", "no", "yes", "no", "yes", "yes", "yes", "yes", "yes", "no"]
OUTLOOK_TABLE = [[2, 3], [4, 0], [3, 2]]  # sunny, overcast, rain  x  yes, no


# -- independent references ----------------------------------------------------------

def selfpow(counts):
    """Π m^m over the counts: the integer whose log2 is Σ m·log2(m)."""
    return math.prod(m**m for m in counts)


def n_h(counts):
    """n·H(counts) as Exact.log2 of one rational (integer identity, no measure code)."""
    n = sum(counts)
    return Exact.log2(F(n**n, selfpow(counts)))


def n_h_given(pairs):
    """n·H(A|B) for a list of (a, b) pairs: log2(Π n_b^n_b / Π n_ab^n_ab)."""
    return Exact.log2(F(selfpow(Counter(b for _, b in pairs).values()), selfpow(Counter(pairs).values())))


def table_rows(table):
    return [(i, j) for i, row in enumerate(table) for j, c in enumerate(row) for _ in range(c)]


def n_ig_table(table):
    """n·IG of an integer table: log2(n^n·Π n_xy^n_xy / (Π n_x^n_x · Π n_y^n_y))."""
    cells = [c for row in table for c in row]
    n = sum(cells)
    xs = [sum(r) for r in table]
    ys = [sum(col) for col in zip(*table)]
    return Exact.log2(F(n**n * selfpow(cells), selfpow(xs) * selfpow(ys)))


def sympy_is_zero(expr):
    """True when a sympy expression in logarithms of rationals is identically 0."""
    import sympy

    return sympy.expand(sympy.expand_log(expr, force=True, factor=True)) == 0


def naive_float_gain(table):
    """The textbook float64 formula IG = H(Y) - Σ n_x/n·H(Y|X=x)."""
    def h(counts):
        n = sum(counts)
        return -sum(c / n * math.log2(c / n) for c in counts if c)

    n = sum(map(sum, table))
    ys = [sum(col) for col in zip(*table)]
    return h(ys) - sum(sum(r) / n * h(r) for r in table)


def mp_value(x, dps=60):
    with mpmath.workdps(dps):
        if isinstance(x, Ratio):
            return mp_value(x.num, dps) / mp_value(x.den, dps)
        v = mpmath.mpf(x.c0.numerator) / x.c0.denominator
        for p, c in x.terms:
            v += mpmath.mpf(c.numerator) / c.denominator * mpmath.log(p, 2)
        return +v


# -- strategies ---------------------------------------------------------------------

labels_x = st.sampled_from([0, 1, 2])
labels_y = st.sampled_from(["a", "b", "c"])
pairs = st.lists(st.tuples(labels_x, labels_y), min_size=1, max_size=30)
triples = st.lists(st.tuples(labels_x, labels_y, st.sampled_from([True, False])), min_size=1, max_size=30)
count_lists = st.lists(st.integers(0, 40), min_size=1, max_size=6).filter(lambda cs: sum(cs) > 0)


@st.composite
def tables(draw):
    """Small value-by-class tables; half of them built as outer products (independent)."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    if draw(st.booleans()):
        r = draw(st.lists(st.integers(0, 4), min_size=rows, max_size=rows))
        c = draw(st.lists(st.integers(0, 4), min_size=cols, max_size=cols))
        table = [[a * b for b in c] for a in r]
    else:
        table = draw(st.lists(st.lists(st.integers(0, 6), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    if sum(map(sum, table)) == 0:
        table[0][0] = 1
    return table


@st.composite
def distributions(draw, size):
    """An exact probability vector of the given size from small integer weights (zeros allowed)."""
    w = draw(st.lists(st.integers(0, 9), min_size=size, max_size=size).filter(any))
    return [F(k, sum(w)) for k in w]


# -- the worked values ----------------------------------------------------------

def test_horse_race_entropy_is_exactly_two():
    """H(1/2, 1/4, 1/8, 1/16, 1/64 x4) is exactly 2 bits, as an Exact and by sympy."""
    import sympy

    h = entropy_of_probabilities(HORSE_RACE)
    assert h == 2 and h.is_rational() and str(h) == "2"
    assert entropy_of_probabilities([F(p) for p in HORSE_RACE]) == 2
    assert entropy([32, 16, 8, 4, 1, 1, 1, 1]) == 2
    ps = [sympy.Rational(p) for p in HORSE_RACE]
    assert sympy.simplify(-sum(p * sympy.log(p, 2) for p in ps)) == 2
    assert sympy_is_zero(h.sympy() - 2)


def test_entropy_9_5_matches_parsed_and_sympy_forms():
    """H(9,5) equals log2(14) - 9/14*log2(9) - 5/14*log2(5) parsed, built in sympy, and by the integer identity."""
    import sympy

    h = entropy([9, 5])
    assert h == parse_exact("log2(14) - 9/14*log2(9) - 5/14*log2(5)")
    expected = sympy.log(14, 2) - sympy.Rational(9, 14) * sympy.log(9, 2) - sympy.Rational(5, 14) * sympy.log(5, 2)
    assert sympy_is_zero(h.sympy() - expected)
    assert h * 14 == Exact.log2(F(14**14, 9**9 * 5**5))
    assert decimal_text(h) == "0.9403"


@settings(deadline=None, max_examples=60)
@given(count_lists)
def test_entropy_integer_identity(counts):
    """n·H(counts) is exactly log2(n^n / Π n_y^n_y) for any integer counts."""
    n = sum(counts)
    assert entropy(counts) * n == Exact.log2(F(n**n, selfpow(counts)))


def test_equal_gains_of_different_tables_are_equal():
    """Tables A = [[1,1],[4,2]] and B = [[1,1],[2,1],[2,1]] have exactly the same gain (float formulas disagree)."""
    table_a, table_b = [[1, 1], [4, 2]], [[1, 1], [2, 1], [2, 1]]
    a, b = information_gain_from_table(table_a), information_gain_from_table(table_b)
    assert a == b
    assert not a < b and not a > b and a.compare(b) == 0
    assert hash(a) == hash(b)
    assert a == parse_exact("13/4 - 9/8*log2(3) - 5/8*log2(5)")
    assert a * 8 == n_ig_table(table_a) and b * 8 == n_ig_table(table_b)
    # The textbook float formula approximates the same number, but on IEEE doubles it
    # puts B ahead: naive_float_gain(B) - naive_float_gain(A) == 1.1e-16 (EXACT.md §3).
    # Only closeness is asserted here; whether the float gap shows is a float quirk.
    assert abs(naive_float_gain(table_a) - naive_float_gain(table_b)) < 1e-15


def test_independent_feature_has_exactly_zero_gain():
    """A feature with table [[1,1],[2,2],[2,2],[2,2]] has gain exactly 0 (floats give 1.1e-16)."""
    table = [[1, 1], [2, 2], [2, 2], [2, 2]]
    ig = information_gain_from_table(table)
    assert ig == 0 and str(ig) == "0"
    assert ig.sign() == 0 and not ig > 0
    # naive_float_gain(table) is 1.1e-16 > 0 on IEEE doubles; only closeness is asserted.
    assert abs(naive_float_gain(table)) < 1e-15


def test_play_tennis_outlook():
    """Outlook's IG, split information and gain ratio from labels and from the table agree with the identities."""
    ig = information_gain(PLAY, given=OUTLOOK)
    assert ig == information_gain_from_table(OUTLOOK_TABLE)
    assert ig * 14 == n_ig_table(OUTLOOK_TABLE)
    assert ig == parse_exact("9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)")
    si = split_information(OUTLOOK)
    assert si == split_information_from_table(OUTLOOK_TABLE)
    assert si * 14 == n_h([5, 4, 5])
    gr = gain_ratio(PLAY, given=OUTLOOK)
    assert gr == gain_ratio_from_table(OUTLOOK_TABLE) == Ratio(ig, si)
    assert (decimal_text(ig), decimal_text(si), decimal_text(gr)) == ("0.2467", "1.5774", "0.1564")
    assert conditional_entropy(PLAY, given=OUTLOOK) * 14 == n_h_given(list(zip(PLAY, OUTLOOK)))


def test_gain_ratio_with_zero_split_information_raises():
    """A feature with a single value has no gain ratio; the error says why, for tables and labels."""
    message = "gain ratio is undefined: split information is 0 (all rows have one value of X)"
    with pytest.raises(InfotreeError) as e:
        gain_ratio_from_table([[2, 3], [0, 0]])
    assert str(e.value) == message
    with pytest.raises(InfotreeError) as e:
        gain_ratio(["yes", "no", "yes"], given=["sunny", "sunny", "sunny"])
    assert str(e.value) == message


# -- properties on labels ---------------------------------------------------------------

@settings(deadline=None, max_examples=40)
@given(pairs)
def test_mutual_information_is_symmetric_and_equals_gain(rows):
    """I(X;Y) = I(Y;X) = IG(Y; X) exactly, and n·I matches the integer identity."""
    x, y = [a for a, _ in rows], [b for _, b in rows]
    i_xy = mutual_information(x, y)
    assert i_xy == mutual_information(y, x)
    assert i_xy == information_gain(y, given=x) == information_gain(x, given=y)
    n = len(rows)
    expected = Exact.log2(F(n**n * selfpow(Counter(rows).values()),
                            selfpow(Counter(x).values()) * selfpow(Counter(y).values())))
    assert i_xy * n == expected


@settings(deadline=None, max_examples=40)
@given(pairs)
def test_chain_rule(rows):
    """H(X,Y) = H(X) + H(Y|X) exactly, each side checked against the integer identity."""
    x, y = [a for a, _ in rows], [b for _, b in rows]
    n = len(rows)
    assert joint_entropy(x, y) == entropy_of_labels(x) + conditional_entropy(y, given=x)
    assert joint_entropy(x, y) * n == n_h(list(Counter(rows).values()))
    assert conditional_entropy(y, given=x) * n == n_h_given([(b, a) for a, b in rows])


@settings(deadline=None, max_examples=40)
@given(pairs)
def test_gain_is_between_zero_and_class_entropy(rows):
    """0 ≤ IG ≤ H(Y), decided exactly."""
    x, y = [a for a, _ in rows], [b for _, b in rows]
    ig = information_gain(y, given=x)
    h_y = entropy_of_labels(y)
    assert 0 <= ig <= h_y
    assert ig.sign() >= 0 and (h_y - ig).sign() >= 0


@settings(deadline=None, max_examples=80)
@given(tables())
def test_gain_is_zero_exactly_when_independent(table):
    """IG == 0 iff n·n_xy == n_x·n_y in every cell (an integer-only test)."""
    n = sum(map(sum, table))
    xs = [sum(r) for r in table]
    ys = [sum(col) for col in zip(*table)]
    independent = all(n * table[i][j] == xs[i] * ys[j] for i in range(len(table)) for j in range(len(ys)))
    ig = information_gain_from_table(table)
    assert (ig == 0) == independent
    assert (ig > 0) == (not independent)
    assert ig * n == n_ig_table(table)


@settings(deadline=None, max_examples=40)
@given(triples)
def test_conditional_mutual_information_identity(rows):
    """I(X;Y|Z) = H(X|Z) - H(X|Y,Z), is symmetric in X and Y, non-negative, and matches the integer identity."""
    x, y, z = ([r[k] for r in rows] for k in range(3))
    cmi = conditional_mutual_information(x, y, given=z)
    assert cmi == conditional_entropy(x, given=z) - conditional_entropy(x, given=list(zip(y, z)))
    assert cmi == conditional_mutual_information(y, x, given=z)
    assert cmi >= 0
    n = len(rows)
    xz, yz, xyz = Counter(zip(x, z)), Counter(zip(y, z)), Counter(rows)
    expected = Exact.log2(F(selfpow(xyz.values()) * selfpow(Counter(z).values()),
                            selfpow(xz.values()) * selfpow(yz.values())))
    assert cmi * n == expected


def test_joint_entropy_of_one_and_three_columns():
    """H(X) of one column is its entropy; H(X,Y,Z) counts the distinct triples."""
    x, y, z = [0, 0, 1, 1, 2], ["a", "b", "a", "a", "b"], [1, 1, 1, 2, 2]
    assert joint_entropy(x) == entropy_of_labels(x)
    assert joint_entropy(x, y, z) * 5 == n_h([1, 1, 1, 1, 1])
    assert joint_entropy(x, y, z) == Exact.log2(5)


@settings(deadline=None, max_examples=25)
@given(pairs, st.builds(Fraction, st.integers(1, 50), st.integers(1, 50)))
def test_weighted_counts_scale_invariance(rows, k):
    """Scaling every count of a table by a rational weight leaves H, H(Y|X) and IG unchanged."""
    table = [[0] * 3 for _ in range(3)]
    for a, b in rows:
        table[a]["abc".index(b)] += 1
    weighted = [[k * c for c in row] for row in table]
    assert information_gain_from_table(weighted) == information_gain_from_table(table)
    assert conditional_entropy_from_table(weighted) == conditional_entropy_from_table(table)
    ys = [sum(col) for col in zip(*table)]
    assert entropy([k * c for c in ys]) == entropy(ys)


def test_weighted_counts_match_sympy():
    """entropy([3/2, 1/2]) is H(3/4, 1/4) = 2 - 3/4·log2(3), as sympy computes."""
    import sympy

    h = entropy([F(3, 2), F(1, 2)])
    R = sympy.Rational
    expected = -R(3, 4) * sympy.log(R(3, 4), 2) - R(1, 4) * sympy.log(R(1, 4), 2)
    assert sympy_is_zero(h.sympy() - expected)
    assert h == 2 - F(3, 4) * Exact.log2(3)
    table = [[F(1, 2), F(3, 2)], [F(5, 2), 0]]  # C4.5-style fractional instances
    assert information_gain_from_table(table) == information_gain_from_table([[1, 3], [5, 0]])


# -- label containers ---------------------------------------------------------------------

@pytest.mark.parametrize(
    "labels",
    [
        ["a", "b", "a", "c", "a"],
        ("a", "b", "a", "c", "a"),
        np.array(["a", "b", "a", "c", "a"]),
        np.array([7, 8, 7, 9, 7]),
        [None, (1, 2), None, frozenset({3}), None],
    ],
)
def test_labels_from_any_sequence(labels):
    """Lists, tuples, numpy arrays and mixed hashable labels give 5·H = log2(5^5 / 3^3)."""
    assert entropy_of_labels(labels) * 5 == Exact.log2(F(5**5, 3**3))


def test_numpy_columns_in_two_column_measures():
    """numpy label arrays give the same gains, entropies and MI as lists."""
    x, y = np.array([0, 0, 1, 1, 2, 2]), np.array(["p", "q", "p", "p", "q", "q"])
    assert information_gain(y, given=x) == information_gain(list(y), given=list(x))
    assert mutual_information(x, y) == mutual_information(list(x), list(y))
    assert joint_entropy(x, y) * 6 == n_h([1, 1, 2, 2])
    assert specific_conditional_entropy(y, given=x, value=np.int64(2)) == 0
    assert specific_conditional_entropy(y, given=x, value=np.int64(0)) == 1


def test_specific_conditional_entropy():
    """H(Y|X=x) is the entropy of the class counts on the rows with X = x."""
    sunny = specific_conditional_entropy(PLAY, given=OUTLOOK, value="sunny")
    assert sunny * 5 == Exact.log2(F(5**5, 2**2 * 3**3))
    assert specific_conditional_entropy(PLAY, given=OUTLOOK, value="overcast") == 0
    weighted = sum(F(OUTLOOK.count(v), 14) * specific_conditional_entropy(PLAY, given=OUTLOOK, value=v)
                   for v in ("sunny", "overcast", "rain"))
    assert weighted == conditional_entropy(PLAY, given=OUTLOOK)


# -- distributions -------------------------------------------------------------------------

def test_kl_divergence_and_cross_entropy_match_sympy():
    """D(p‖q) and H(p,q) = H(p) + D(p‖q) equal sympy's Σ p·log2(p/q) and -Σ p·log2(q)."""
    import sympy

    p, q = ["1/2", "1/3", "1/6", "0"], ["1/4", "1/4", "1/3", "1/6"]
    ps, qs = [sympy.Rational(v) for v in p], [sympy.Rational(v) for v in q]
    d = kl_divergence(p, q)
    h_pq = cross_entropy(p, q)
    assert sympy_is_zero(d.sympy() - sum(a * sympy.log(a / b, 2) for a, b in zip(ps, qs) if a))
    assert sympy_is_zero(h_pq.sympy() + sum(a * sympy.log(b, 2) for a, b in zip(ps, qs) if a))
    assert h_pq == entropy_of_probabilities(p) + d


@settings(deadline=None, max_examples=30)
@given(st.integers(2, 5).flatmap(lambda k: st.tuples(distributions(k), distributions(k))))
def test_divergence_properties(pq):
    """D(p‖p) = 0, D(p‖q) ≥ 0 (Gibbs) and matches mpmath; H(p,q) = H(p) + D(p‖q) where finite."""
    p, q = pq
    assert kl_divergence(p, p) == 0
    assert cross_entropy(p, p) == entropy_of_probabilities(p)
    if any(a and not b for a, b in zip(p, q)):
        return
    d = kl_divergence(p, q)
    assert d >= 0 and (d == 0) == (p == q)
    with mpmath.workdps(60):
        expected = sum(mpmath.mpf(a.numerator) / a.denominator
                       * mpmath.log(mpmath.mpf(a.numerator * b.denominator) / (a.denominator * b.numerator), 2)
                       for a, b in zip(p, q) if a)
        assert abs(mp_value(d) - expected) < mpmath.mpf("1e-50")
    assert cross_entropy(p, q) == entropy_of_probabilities(p) + d


# -- errors -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: entropy([]), "entropy of nothing: the counts sum to 0 (n = 0); at least one count must be positive"),
        (lambda: entropy([0, 0]),
         "entropy of nothing: the counts sum to 0 (n = 0); at least one count must be positive"),
        (lambda: entropy([3, -1]), "count -1 is negative; counts must be non-negative"),
        (lambda: entropy([F(-1, 2), 1]), "count Fraction(-1, 2) is negative; counts must be non-negative"),
        (lambda: entropy([1.5, 2]), "count 1.5 is a float; counts must be ints or Fractions (write Fraction('0.5'))"),
        (lambda: entropy(np.array([1.0, 2.0])),
         f"count {np.float64(1.0)!r} is a float; counts must be ints or Fractions (write Fraction('0.5'))"),
        (lambda: entropy([True, 2]), "count True is a bool; counts must be non-negative ints or Fractions"),
        (lambda: entropy(["a"]), "count 'a' is not a number; counts must be non-negative ints or Fractions"),
        (lambda: entropy_of_labels([]), "entropy of nothing: no labels (n = 0)"),
        (lambda: entropy_of_labels("abc"), "labels must be a sequence of labels, got the string 'abc'"),
        (lambda: entropy_of_labels(5), "labels must be a sequence of labels, got int"),
        (lambda: entropy_of_labels([[1], [2]]), "label [1] in labels is not hashable; labels must be hashable values"),
        (lambda: conditional_entropy([1, 2], given=[1, 2, 3]),
         "label sequences of different lengths [2, 3]; they must be the same length"),
        (lambda: joint_entropy(), "joint_entropy needs at least one sequence of labels"),
        (lambda: specific_conditional_entropy(PLAY, given=OUTLOOK, value="foggy"),
         "no row has the value 'foggy'; H(Y|X=x) needs at least one row with X = x"),
        (lambda: information_gain_from_table([]), "empty table; a table needs at least one row of class counts"),
        (lambda: information_gain_from_table([[1, 2], [3]]),
         "ragged table: rows have 2 and 1 class counts; all rows need the same number"),
        (lambda: information_gain_from_table([[0, 0], [0, 0]]),
         "entropy of nothing: the table's counts sum to 0 (n = 0)"),
        (lambda: entropy_of_probabilities(["1/2", "1/3"]),
         "p sums to 5/6, not 1; a distribution's probabilities must sum to exactly 1"),
        (lambda: entropy_of_probabilities([0.5, 0.5]),
         "probability 0.5 is a float; give exact rationals such as '1/64' or Fraction(1, 64)"),
        (lambda: entropy_of_probabilities(["3/2", "-1/2"]), "probability '3/2' is outside [0, 1]"),
        (lambda: entropy_of_probabilities(["abc"]),
         "probability 'abc' is not a rational number; write it like '1/64' or '0.25'"),
        (lambda: kl_divergence(["1/2", "1/2"], ["1", "0"]), "D(p‖q) is infinite: q[1] is 0 where p[1] = 1/2"),
        (lambda: kl_divergence(["1/2", "1/2"], ["1/3", "1/3", "1/3"]),
         "p has 2 probabilities and q has 3; they must have the same length"),
        (lambda: kl_divergence(["1/2", "1/2"], ["1/2", "1/4"]),
         "q sums to 3/4, not 1; a distribution's probabilities must sum to exactly 1"),
    ],
)
def test_errors_have_whole_messages(call, message):
    """Each bad input raises an InfotreeError (a ValueError) whose whole message is as written."""
    with pytest.raises(InfotreeError) as e:
        call()
    assert str(e.value) == message
    assert isinstance(e.value, ValueError)


# -- the fast path for plain ints ---------------------------------------------------------

@st.composite
def int_tables(draw, big=70000):
    """Value-by-class tables of ints, zeros and empty rows included, some counts up to ``big``."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    count = st.one_of(st.integers(0, 6), st.integers(0, big))
    table = draw(st.lists(st.lists(count, min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    if sum(map(sum, table)) == 0:
        table[-1][-1] = draw(st.integers(1, 9))
    return table


def same_exact(a, b):
    """Equal values with the same representation: the printed text cannot differ."""
    return type(a) is type(b) is Exact and a.c0 == b.c0 and a.terms == b.terms and str(a) == str(b)


@settings(deadline=None, max_examples=200)
@given(int_tables())
def test_int_tables_take_the_fast_path_to_the_general_result(table):
    """Tables of plain ints give the same Exact as the same counts as Fractions (the validating path)."""
    as_fractions = [[F(c) for c in row] for row in table]
    for fn in (conditional_entropy_from_table, information_gain_from_table, split_information_from_table):
        assert same_exact(fn(table), fn(as_fractions))
        assert same_exact(fn([tuple(r) for r in table]), fn(as_fractions))
    for row in table:
        if any(row):
            assert same_exact(entropy(row), entropy([F(c) for c in row]))


@settings(deadline=None, max_examples=60)
@given(int_tables(big=60))
def test_int_tables_match_the_integer_identities(table):
    """The fast path's n·H, n·IG and n·SplitInfo are the log2 of one rational each (no measure code)."""
    n = sum(map(sum, table))
    assert information_gain_from_table(table) * n == n_ig_table(table)
    xs = [sum(r) for r in table]
    assert split_information_from_table(table) * n == n_h(xs)
    nh_y = n_h([sum(col) for col in zip(*table)])
    assert (nh_y - conditional_entropy_from_table(table) * n) == n_ig_table(table)


def test_int_fast_path_matches_sympy():
    """One table through the fast path against sympy's logarithms."""
    import sympy

    table = [[12, 0, 3], [5, 5, 1], [0, 7, 2]]
    rows = [[sympy.Integer(c) for c in r] for r in table]
    n = sum(map(sum, rows))

    def h(counts):
        m = sum(counts)
        return -sum(c / m * sympy.log(c / m, 2) for c in counts if c)

    ce = sum(sum(r) / n * h(r) for r in rows if sum(r))
    ig = h([sum(col) for col in zip(*rows)]) - ce
    assert sympy_is_zero(conditional_entropy_from_table(table).sympy() - ce)
    assert sympy_is_zero(information_gain_from_table(table).sympy() - ig)
    assert sympy_is_zero(split_information_from_table(table).sympy() - h([sum(r) for r in rows]))


def test_fast_path_inputs_numpy_and_generators():
    """numpy integer arrays and one-shot generators give the same values as lists."""
    assert same_exact(entropy(np.array([9, 5], dtype=np.int32)), entropy([F(9), F(5)]))
    assert same_exact(entropy(c for c in [9, 5]), entropy([9, 5]))
    assert same_exact(information_gain_from_table(np.array(OUTLOOK_TABLE)), information_gain_from_table(OUTLOOK_TABLE))
    assert same_exact(information_gain_from_table(iter([iter(r) for r in OUTLOOK_TABLE])),
                      information_gain_from_table(OUTLOOK_TABLE))
    assert same_exact(conditional_entropy_from_table(tuple(r for r in OUTLOOK_TABLE)),
                      conditional_entropy_from_table(OUTLOOK_TABLE))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: entropy([3, -1]), "count -1 is negative; counts must be non-negative"),
        (lambda: entropy(np.array([3, -1])), "count np.int64(-1) is negative; counts must be non-negative"),
        (lambda: entropy([True, 2]), "count True is a bool; counts must be non-negative ints or Fractions"),
        (lambda: entropy(c for c in [0, 0]),
         "entropy of nothing: the counts sum to 0 (n = 0); at least one count must be positive"),
        (lambda: conditional_entropy_from_table([[1, 2], [3, -4]]), "count -4 is negative; counts must be non-negative"),
        (lambda: split_information_from_table([[1, 2], (3,)]),
         "ragged table: rows have 2 and 1 class counts; all rows need the same number"),
    ],
)
def test_ints_the_fast_path_refuses_get_the_general_messages(call, message):
    """Counts the fast path does not take (negative, bool, ragged, all zero) get the validating path's errors."""
    with pytest.raises(InfotreeError) as e:
        call()
    assert str(e.value) == message
