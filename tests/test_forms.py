"""Tests for infotree.forms: textbook forms that keep the counts a student writes.

Besides the exact strings, every text form is parsed back with parse_exact (a
separate computation path from the measures) and must equal the measure.
"""

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import (
    InfotreeError,
    conditional_entropy_form,
    conditional_entropy_from_table,
    entropy,
    entropy_form,
    gain_form,
    information_gain_from_table,
    parse_exact,
)
from infotree.forms import counts_text, h_of, ratio_text

F = Fraction
OUTLOOK_TABLE = [[2, 3], [4, 0], [3, 2]]


def expand_h(text):
    """Replace each H(a,b,...) in a form by its parenthesised textbook entropy form."""
    def one(m):
        counts = [F(c) for c in m.group(1).split(",")]
        return "(" + entropy_form(counts) + ")"

    return re.sub(r"H\(([^()]*)\)", one, text)


# -- the textbook strings ------------------------------------------------------------

def test_entropy_form_minus_style():
    """H(9,5) prints as Mitchell writes it, fractions unreduced."""
    assert entropy_form([9, 5]) == "-(9/14)·log2(9/14) - (5/14)·log2(5/14)"
    assert entropy_form([9, 5], style="minus") == entropy_form([9, 5])
    assert entropy_form([2, 2]) == "-(2/4)·log2(2/4) - (2/4)·log2(2/4)"


def test_entropy_form_inverse_style():
    """The inverse style writes p·log2(1/p), with log2(n) when a count is 1."""
    assert entropy_form([1, 15], style="inverse") == "1/16·log2(16) + 15/16·log2(16/15)"
    assert entropy_form([9, 5], style="inverse") == "9/14·log2(14/9) + 5/14·log2(14/5)"


def test_entropy_form_zero_counts_and_pure_nodes():
    """Zero counts are left out; a pure node is its one term; no counts at all print 0."""
    assert entropy_form([4, 0]) == "-(4/4)·log2(4/4)"
    assert entropy_form([0, 3, 0], style="inverse") == "3/3·log2(3/3)"
    assert entropy_form([0, 0]) == "0"


def test_entropy_form_fractional_counts():
    """Weighted (Fraction) counts are parenthesised so the form still reads and parses."""
    counts = [F(3, 2), F(1, 2)]
    assert entropy_form(counts) == "-((3/2)/2)·log2((3/2)/2) - ((1/2)/2)·log2((1/2)/2)"
    assert entropy_form(counts, style="inverse") == "(3/2)/2·log2(2/(3/2)) + (1/2)/2·log2(2/(1/2))"


def test_entropy_form_latex():
    """The LaTeX forms use \\frac and \\log_2 with the same unreduced fractions."""
    assert entropy_form([9, 5], latex=True) == (
        "-\\frac{9}{14}\\log_2 \\frac{9}{14} - \\frac{5}{14}\\log_2 \\frac{5}{14}")
    assert entropy_form([1, 15], style="inverse", latex=True) == (
        "\\frac{1}{16}\\log_2 16 + \\frac{15}{16}\\log_2 \\frac{16}{15}")


def test_unknown_style_is_refused():
    """A misspelt style raises InfotreeError naming the styles instead of silently printing minus."""
    with pytest.raises(InfotreeError) as e:
        entropy_form([9, 5], style="inverted")
    assert str(e.value) == "unknown entropy style 'inverted'; styles are: minus, inverse"


def test_conditional_entropy_form():
    """H(Y|X) for outlook keeps 4/14 (not 2/7) and every row's counts, in text and LaTeX."""
    assert conditional_entropy_form(OUTLOOK_TABLE) == "5/14·H(2,3) + 4/14·H(4,0) + 5/14·H(3,2)"
    assert conditional_entropy_form(OUTLOOK_TABLE, latex=True) == (
        "\\frac{5}{14} \\cdot H(2,3) + \\frac{4}{14} \\cdot H(4,0) + \\frac{5}{14} \\cdot H(3,2)")
    assert conditional_entropy_form([[0, 0], [1, 1]]) == "2/2·H(1,1)"
    assert conditional_entropy_form([[0, 0]]) == "0"


def test_gain_form():
    """IG is H(class counts) minus the bracketed conditional form."""
    assert gain_form(OUTLOOK_TABLE) == "H(9,5) - [5/14·H(2,3) + 4/14·H(4,0) + 5/14·H(3,2)]"
    assert gain_form(OUTLOOK_TABLE, latex=True) == (
        "H(9,5) - [\\frac{5}{14} \\cdot H(2,3) + \\frac{4}{14} \\cdot H(4,0) + \\frac{5}{14} \\cdot H(3,2)]")


def test_small_helpers():
    """counts_text, ratio_text and h_of write counts as the exact grammar does."""
    assert counts_text(9) == "9" and counts_text(F(15, 4)) == "15/4"
    assert ratio_text(4, 14) == "4/14"
    assert ratio_text(F(1, 2), 3) == "(1/2)/3"
    assert ratio_text(4, 14, latex=True) == "\\frac{4}{14}"
    assert h_of([9, 5]) == "H(9,5)" and h_of([F(1, 2), 1]) == "H(1/2,1)"


# -- the forms are the measures ------------------------------------------------------

def test_issue_forms_evaluate_to_the_measures():
    """The printed forms of H(9,5), H(1,15) and outlook's H(Y|X) and IG parse to the exact measures."""
    assert parse_exact(entropy_form([9, 5])) == entropy([9, 5])
    assert parse_exact(entropy_form([1, 15], style="inverse")) == entropy([1, 15])
    assert parse_exact(expand_h(conditional_entropy_form(OUTLOOK_TABLE))) == conditional_entropy_from_table(
        OUTLOOK_TABLE)
    gain_text = expand_h(gain_form(OUTLOOK_TABLE)).replace("[", "(").replace("]", ")")
    assert parse_exact(gain_text) == information_gain_from_table(OUTLOOK_TABLE)


counts = st.one_of(st.integers(0, 30), st.builds(Fraction, st.integers(0, 30), st.integers(1, 6)))
count_lists = st.lists(counts, min_size=1, max_size=5).filter(lambda cs: sum(cs) > 0)


@settings(deadline=None, max_examples=50)
@given(count_lists, st.sampled_from(["minus", "inverse"]))
def test_entropy_forms_parse_to_entropy(cs, style):
    """Both text styles of entropy_form parse back to exactly entropy(counts), for int and Fraction counts."""
    assert parse_exact(entropy_form(cs, style=style)) == entropy(cs)


@settings(deadline=None, max_examples=25)
@given(st.integers(1, 3).flatmap(
    lambda width: st.lists(st.lists(counts, min_size=width, max_size=width), min_size=1, max_size=4))
    .filter(lambda t: sum(map(sum, t)) > 0))
def test_conditional_and_gain_forms_parse_to_the_measures(table):
    """Expanding each H(...) of the conditional and gain forms gives exactly H(Y|X) and IG."""
    assert parse_exact(expand_h(conditional_entropy_form(table))) == conditional_entropy_from_table(table)
    gain_text = expand_h(gain_form(table)).replace("[", "(").replace("]", ")")
    assert parse_exact(gain_text) == information_gain_from_table(table)


@settings(deadline=None, max_examples=100)
@given(st.lists(st.lists(st.integers(0, 30), min_size=2, max_size=2), min_size=1, max_size=4))
def test_int_tables_print_as_their_fractions_do(table):
    """A table of plain ints (the tree's records, a shortcut) prints as the same counts given as Fractions."""
    as_fractions = [[Fraction(c) for c in row] for row in table]
    for latex in (False, True):
        assert conditional_entropy_form(table, latex=latex) == conditional_entropy_form(as_fractions, latex=latex)
        assert conditional_entropy_form([tuple(r) for r in table], latex=latex) == \
            conditional_entropy_form(as_fractions, latex=latex)
