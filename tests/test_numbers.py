"""How numbers read in every printer: the formatter's rules, and whole outputs scanned for ``x = x``."""

import io
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import build_tree, load, parse_exact
from infotree.exact import Exact, Ratio
from infotree.roots import SquareRoot
from infotree.printers import render
from infotree.printers.cells import LATEX, MARKDOWN, TEXT, has_derivation, node_title, select_nodes
from infotree.printers.entropy import node_view
from infotree.printers.numbers import approx, exact_and_decimal, float_text, number, ratio_text, rational

ROOT = Path(__file__).resolve().parent.parent


# -- the rules, against hand-written expectations -------------------------------------------------

@pytest.mark.parametrize("x, digits, shown", [
    (0, 4, "0"), (1, 4, "1"), (17010, 4, "17010"), (-3, 4, "-3"), (np.int64(14), 4, "14"),
    (Fraction(1, 2), 4, "0.5"), (Fraction(3, 2), 4, "1.5"), (Fraction(11, 5), 4, "2.2"),
    (Fraction(-1, 4), 4, "-0.25"), (Fraction(1, 16), 4, "0.0625"), (Fraction(1, 32), 4, "0.0313"),
    (Fraction(370, 3), 4, "123.3333"), (Fraction(5, 7), 4, "0.7143"), (Fraction(2, 3), 0, "1"),
    (Fraction(1, 4), 3, "0.25"), (Fraction(1, 8), 3, "0.125"), (Fraction(1, 16), 3, "0.063"),
    # Exact values: rational ones read as rationals, others rounded (Mitchell's 0.940 at 3 digits)
    (Exact(1), 4, "1"), (Exact(Fraction(7, 4)), 4, "1.75"),
    (Exact.from_coefficients(0, {14: 1}) - Exact.from_coefficients(0, {9: Fraction(9, 14), 5: Fraction(5, 14)}) - 0, 3, "0.940"),
    (Exact.log2(3), 4, "1.5850"),
    # a value that only rounds to 0 is not an exact 0
    (Exact.log2(Fraction(100001, 100000)), 4, "0.0000"),
    # a ratio whose value is rational (log2 9 / log2 3 = 2), and one that is not
    (Ratio(Exact.log2(9), Exact.log2(3)), 4, "2"), (Ratio(Exact(1), Exact.log2(3)), 4, "0.6309"),
    (Ratio(Exact(0), Exact.log2(3)), 4, "0"), (Ratio(Exact(Fraction(1, 2)), Exact(2)), 4, "0.25"),
    (SquareRoot(Fraction(1, 4)), 4, "0.5"), (SquareRoot(2), 4, "1.4142"),
])
def test_number(x, digits, shown):
    """An exact decimal of at most ``digits`` places as it is, anything else rounded to ``digits``."""
    assert number(x, digits) == shown


def test_rational():
    """Which exact values are rational, and their value."""
    assert rational(np.int32(3)) == 3 and rational(Fraction(1, 3)) == Fraction(1, 3)
    assert rational(Exact(Fraction(5, 2))) == Fraction(5, 2) and rational(Exact.log2(3)) is None
    assert rational(Ratio(Exact.log2(27), Exact.log2(9))) == Fraction(3, 2)
    assert rational(Ratio(Exact.log2(5), Exact.log2(3))) is None and rational(Ratio(0, Exact.log2(5))) == 0
    assert rational(Ratio(Exact(1, {3: 2}), Exact(2, {3: 4}))) == Fraction(1, 2)  # (1 + 2·log2 3)/(2 + 4·log2 3)
    assert rational(Ratio(Exact(1, {3: 2}), Exact(3, {3: 4}))) is None
    assert rational(SquareRoot(Fraction(9, 4))) == Fraction(3, 2) and rational(SquareRoot(3)) is None


def test_approx_and_exact_and_decimal():
    """Beside its exact form a value says = when exact, ≈ when rounded, and is left out when the same text."""
    assert approx(1) == ("1", True) and approx(Fraction(1, 3)) == ("0.3333", False)
    assert approx(Exact.log2(3), 2) == ("1.58", False)
    assert exact_and_decimal("14", 14) == "14"
    assert exact_and_decimal("855/56", Fraction(855, 56)) == "855/56 ≈ 15.2679"
    assert exact_and_decimal("43/2", Fraction(43, 2)) == "43/2 = 21.5"
    assert exact_and_decimal("1/3", Fraction(1, 3), latex=True) == "1/3 \\approx 0.3333"
    assert ratio_text(7, 14) == "7/14 = 1/2 = 0.5" and ratio_text(14, 14) == "14/14 = 1"
    assert ratio_text(2, 3) == "2/3 ≈ 0.6667"
    assert float_text(4.71352, 4) == "4.7135" and float_text(2.0, 2) == "2.00"


def test_equation_chains_never_end_x_equals_x():
    """A chain ending with an exact value drops a decimal that repeats it, in every markup."""
    chain = [("H(y)", "H(y)"), ("-(1/2)·log2(1/2) - (1/2)·log2(1/2)", "-\\frac{1}{2}\\log_2 \\frac{1}{2}"), ("1", "1")]
    assert TEXT.equation(chain, approx(1)) == "H(y) = -(1/2)·log2(1/2) - (1/2)·log2(1/2) = 1"
    assert MARKDOWN.equation(chain, approx(1)) == "`H(y) = -(1/2)·log2(1/2) - (1/2)·log2(1/2) = 1`"
    assert LATEX.equation(chain, approx(1)) == "$H(y) = -\\frac{1}{2}\\log_2 \\frac{1}{2} = 1$"
    half = [("Gini", "G"), ("1/2", "\\frac{1}{2}")]
    assert TEXT.equation(half, approx(Fraction(1, 2))) == "Gini = 1/2 = 0.5"
    assert LATEX.equation(half, approx(Fraction(1, 2))) == "$G = \\frac{1}{2} = 0.5$"
    third = [("x", "x"), ("1/3", "\\frac{1}{3}")]
    assert TEXT.equation(third, approx(Fraction(1, 3))) == "x = 1/3 = 0.3333"  # textbooks: a chain ends "= 0.940"
    assert LATEX.equation(third, approx(Fraction(1, 3))) == "$x = \\frac{1}{3} \\approx 0.3333$"
    # a chain that does not end with the exact value keeps its decimal
    assert TEXT.equation([("H(y)", ""), ("-(1/2)·log2(1/2) - (1/2)·log2(1/2)", "")], approx(1)).endswith(") = 1")


# -- whole outputs, scanned -----------------------------------------------------------------------

_NUM = r"-?\d+(?:\.\d+)?(?:/\d+)?"
# "a = b" or "a ≈ b" between two plain numbers, the left one not the end of an arithmetic expression
# ("0.97 - 0.02 = 0.95", "1 / 1 = 1", "8 × 0 = 0" compute; "1 = 1.0000" repeats)
_REPEAT = re.compile(r"(?<![\w./])(?<![-−+/×·*] )(?<!_2 )(" + _NUM + r") (=|≈|\\approx) \$?(" + _NUM + r")(?![\d/.])")
# an exact fraction or integer followed by a decimal: "1/2 = 0.5000" must read "1/2 = 0.5"
_EXACT_THEN_DECIMAL = re.compile(r"(?<![\w./·(])(?<![-−+/×·*] )(?<!_2 )(-?\d+(?:/\d+)?) (=|≈|\\approx) (-?\d+\.\d+)(?![\d/])")
_DIGITS = 4

CASES = [  # (data, build options): entropy with exact 1s and 3/2s, C4.5 weights, CART, regression, M-of-N
    ("worked_examples/lookahead/data.csv", {"criterion": "gain"}),
    ("worked_examples/twenty_questions/data.csv", {"criterion": "gain"}),
    ("tests/data/weather.csv", {"criterion": "gain_ratio"}),
    ("worked_examples/c45_missing_and_numeric/data.csv", {"criterion": "gain_ratio"}),
    ("worked_examples/cart_gini/data.csv", {"criterion": "gini"}),
    ("worked_examples/regression_sse/data.csv", {"criterion": "squared_error"}),
    ("worked_examples/m_of_n/data.csv", {"criterion": "gain", "m_of_n": True}),
]
FORMATS = ("text", "markdown", "latex", "html", "dot", "json")


def _data(path):
    if "c45" in path:  # C4.5's fractional weights for missing values, and numeric cuts
        return load(ROOT / path, on_missing="keep", numeric="auto")
    return load(ROOT / path)


def _outputs(path, options):
    tree = build_tree(_data(path), **options)
    out = {}
    for fmt in FORMATS:
        buf = io.StringIO()
        render(tree, buf, fmt=fmt, digits=_DIGITS, nodes="all", steps=fmt in ("text", "markdown", "latex"))
        out[fmt] = buf.getvalue()
    return out


@pytest.fixture(scope="module", params=CASES, ids=[f"{Path(p).parent.name}-{Path(p).stem}" for p, _ in CASES])
def outputs(request):
    return _outputs(*request.param)


def repeats(text: str) -> list[str]:
    """The ``x = x`` of ``text``: a number followed by ``=``/``≈`` and the same number written the
    same way (``47/57 = 47/57``) or padded with zeros (``1 = 1.0000``, ``11/5 ≈ 2.2000``); a fraction
    reduced (``94/114 = 47/57``) or followed by its exact decimal (``3/2 = 1.5``) says something."""
    bad = []
    for m in _REPEAT.finditer(text):
        left, right = m.group(1), m.group(3)
        padded = "." in right and right.endswith("0")
        if Fraction(left) == Fraction(right) and (left == right or padded):
            bad.append(m.group(0))
    return bad


def mixed(text: str) -> list[str]:
    """Exact values followed by a decimal the formatter would not print for them (``1/2 = 0.5000``,
    ``11/5 ≈ 2.2000``), or with the wrong sign (``5/7 ≈`` is rounded, ``3/4 =`` exact)."""
    bad = []
    for m in _EXACT_THEN_DECIMAL.finditer(text):
        q = Fraction(m.group(1))
        a = approx(q, len(m.group(3).split(".")[1]) if not approx(q, _DIGITS).exact else _DIGITS)
        if m.group(3) != a.text or (a.exact and m.group(2) != "="):
            bad.append(m.group(0))
    return bad


def test_the_scanners_catch_what_they_look_for():
    """The scanners flag the old outputs' faults and pass their corrections."""
    assert repeats("H(y) = -(1/2)·log2(1/2) - (1/2)·log2(1/2) = 1 = 1.0000") == ["1 = 1.0000"]
    assert repeats("accuracy = 47/57 = 47/57") == ["47/57 = 47/57"]
    assert repeats("$H = 1 \\approx 1.0000$") == ["1 \\approx 1.0000"]
    assert repeats("n = 11/5 ≈ 2.2000: no 2") == ["11/5 ≈ 2.2000"]
    assert repeats("ΔSSE = 17010 = 17010.0000") == ["17010 = 17010.0000"]
    assert repeats("IG = 0.9710 - 0.0200 = 0.9510") == [] and repeats("GR = 1 / 1 = 1") == []
    assert repeats("H(y) = 1") == [] and repeats("Gini = 1/2 = 0.5") == []
    assert mixed("Gini = 1/2 = 0.5000") == ["1/2 = 0.5000"] and mixed("Gini = 1/2 = 0.5") == []
    assert mixed("n = 11/5 ≈ 2.2") == ["11/5 ≈ 2.2"] and mixed("n = 855/56 ≈ 15.2679") == []
    assert mixed("x = 1/3 = 0.3333") == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_number_repeats_itself(outputs, fmt):
    """No output says ``x = x``: ``1 = 1.0000``, ``11/5 ≈ 2.2000``, ``17010 = 17010.0000``."""
    assert repeats(outputs[fmt]) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_exact_values_read_one_way(outputs, fmt):
    """An exact value beside its decimal has the decimal the formatter gives it, with the right sign."""
    assert mixed(outputs[fmt]) == []


def _decimals(text: str) -> set[str]:
    # LaTeX's layout lengths (p{0.22\linewidth}, \hspace*{1.5em}) are not quantities
    return set(re.findall(r"(?<![\w.])-?\d+\.\d+(?![\d/])(?!\\linewidth|em\b)", text))


def test_formats_print_the_same_decimals(outputs):
    """Text, Markdown and LaTeX show each quantity with the same digits: they print the same decimals."""
    text = _decimals(outputs["text"])
    assert text and _decimals(outputs["markdown"]) == text
    assert _decimals(outputs["latex"]) == text


def test_worked_examples_read_numbers_one_way():
    """The worked examples (infotree's own output, with the textbooks' figures) never say x = x either."""
    readmes = sorted((ROOT / "worked_examples").glob("*/README.md"))
    assert len(readmes) >= 15
    for path in readmes:
        text = path.read_text(encoding="utf-8")
        assert (path.parent.name, repeats(text), mixed(text)) == (path.parent.name, [], [])



def _same_quantity_pairs(tree, node):
    """(decimal cell, exact cell) pairs of one quantity in a node's text view: each branch's
    decimal and exact value, and each candidate's decimals against its row of exact values."""
    v = node_view(tree, node, digits=_DIGITS, markup=TEXT)
    pairs = [(row[-2], row[-1]) for row in v.branches.rows if row[-1] != "—"]
    exact = {row[0]: row[1:] for row in v.exact.rows}
    first = 3 if v.summary.headers[2].endswith("form") else 5  # ID3/C4.5: H(Y|X) IG SplitInfo; CART: weighted ...
    for row in v.summary.rows:
        if row[1] in exact and row[first] != "—":
            pairs += list(zip(row[first:first + 3], exact[row[1]][:3]))
    return pairs


def test_decimal_and_exact_columns_show_one_quantity_one_way():
    """In every table a decimal is its exact neighbour as the formatter writes it (``1``, not ``1.0000``);
    the exact text is read back by infotree's parser, not taken from the printer's value."""
    checked = 0
    for path, options in CASES:
        tree = build_tree(_data(path), **options)
        for node in select_nodes(tree, "all"):
            if has_derivation(node):
                for decimal, exact in _same_quantity_pairs(tree, node):
                    assert decimal == number(parse_exact(exact), _DIGITS), (path, node_title(node), decimal, exact)
                    checked += 1
    assert checked > 300


def test_unchecked_fractions_and_thresholds_are_the_checked_ones():
    """The fit's makers that skip the constructors' checks (data.numbers.coprime,
    splits.midpoint_splits) give the values, hashes, texts and arithmetic of Fraction and
    ThresholdSplit, for reduced n/d of any size and sign."""
    import math
    import random
    from fractions import Fraction

    from infotree.data.numbers import coprime
    from infotree.splits import ThresholdSplit, midpoint_splits

    r = random.Random(3)
    pairs = []
    for _ in range(2000):
        n, d = r.randint(-10 ** r.randint(1, 30), 10 ** 30), r.randint(1, 10 ** r.randint(1, 30))
        g = math.gcd(n, d)
        pairs.append((n // g, d // g))
    for n, d in pairs:
        q, want = coprime(n, d), Fraction(n, d)
        assert (q, hash(q), str(q), q * 3 - 1, q < Fraction(1, 3)) == (want, hash(want), str(want), want * 3 - 1,
                                                                       want < Fraction(1, 3))
    made = midpoint_splits([k % 7 for k in range(len(pairs))], *zip(*pairs))
    assert made == [ThresholdSplit(k % 7, Fraction(n, d)) for k, (n, d) in enumerate(pairs)]
    assert [s.text for s in made[:50]] == [ThresholdSplit(k % 7, Fraction(n, d)).text for k, (n, d) in enumerate(pairs[:50])]


def test_int_cells_are_their_texts_numbers():
    """An int cell is read as its text is (the fast path below 10^40 in size, the text past
    it, where the digit bound applies); a bool is not a number."""
    from infotree.data.numbers import _number_of, _parse_decimal

    for v in [0, 1, -1, 7, 10 ** 39, 10 ** 40 - 1, -(10 ** 40 - 1), 10 ** 40, 10 ** 40 + 1, -(10 ** 41) - 3,
              12345678901234567890123456789012345678901, 2 ** 63, -(2 ** 63)]:
        got, want = _number_of(v, str(v)), _parse_decimal(str(v))
        assert got == want and type(got) is type(want), v
    assert _number_of(True, "True") == "nan"
