"""``check`` reads the notations of textbooks and students (issue #31): every value here is the textbook's
own printed number or is recomputed in the test from the rows (Fractions, sympy), never read back from
infotree's output."""

import csv
import io
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from infotree.check import check_answers, format_text
from infotree.cli.check import run_check_command
from infotree.cli import build_parser
from infotree.data import load

DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = Path(__file__).resolve().parent.parent / "worked_examples"
HAN = DATA / "check" / "allelectronics.csv"
FLATS = EXAMPLES / "regression_sse" / "data.csv"
KYPHOSIS = DATA / "kyphosis.csv"


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run(text, path, *options):
    """``infotree check - --data path options`` on ``text``: the JSON report's claims."""
    import sys

    args = build_parser("check").parse_args(["check", "-", "--data", str(path), "--format", "json", *options])
    out, stdin = io.StringIO(), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
    try:
        run_check_command(args, out)
    finally:
        sys.stdin = stdin
    return json.loads(out.getvalue())["claims"]


def verdicts(text, path, *options):
    return [c["verdict"] for c in run(text, path, *options)]


# -- Han, Kamber & Pei's AllElectronics: their printed values ---------------------------------------

def gini(counts):
    n = sum(counts)
    return 1 - sum(Fraction(c, n) ** 2 for c in counts)


def split_gini(table, feature, left):
    """The weighted Gini of the split ``feature in left`` against the rest, from the rows."""
    sides = [Counter(r["buys_computer"] for r in table if (r[feature] in left) == side) for side in (True, False)]
    n = len(table)
    return sum(Fraction(sum(s.values()), n) * gini(list(s.values())) for s in sides)


def test_han_subset_subscripts_and_set_symbols():
    """Han: Gini_{income ∈ {low,medium}}(D) = 0.443, Gini_age(D) = 0.357 (the best binary split of age)."""
    table = rows(HAN)
    assert round(float(split_gini(table, "income", {"low", "medium"})), 3) == 0.443
    sheet = ("Gini(D) = 0.459\n"
             "Gini_{income∈{low,medium}}(D) = 0.443\n"
             "Gini_{income ∈ {low, high}}(D) = 0.458\n"
             "Gini_{income∉{high}}(D) = 0.443\n"
             "Gini_income(D) = 0.443\n"
             "Gini_age(D) = 0.357\n"
             "Gini_{age ∈ {youth, senior}}(D) = 0.357\n"
             "Gini_student(D) = 0.367\n"
             "Gini_credit_rating(D) = 0.429\n"
             "Gini_{income∈{low,medium}}(D) = 0.450\n")
    got = run(sheet, HAN, "--algorithm", "cart")
    assert [c["verdict"] for c in got] == ["right"] * 9 + ["wrong"], got
    assert got[1]["expected"] == str(split_gini(table, "income", {"low", "medium"}))
    # values in the data's order, however written: one quantity for a rubric to match
    assert got[1]["quantity"] == got[3]["quantity"].replace(" not in {high}", " in {medium, low}")
    assert got[1]["quantity"] == "Gini(buys_computer | split on income in {medium, low})"
    # the same subset measure means the same thing under ID3 (a measure may take any rows)
    assert verdicts("Gini_{income∈{low,medium}}(D) = 0.443\n", HAN) == ["right"]


def test_han_gains_at_three_decimals():
    """Han prints Info(D) = 0.940, Info_age(D) = 0.694, Gain(age) = 0.246 (from the two rounded values),
    Gain(income) = 0.029, Gain(credit_rating) = 0.048: all graded right."""
    sheet = ("Info(D) = 0.940\nInfo_age(D) = 0.694\nGain(age) = 0.940 - 0.694 = 0.246\nGain(income) = 0.029\n"
             "Gain(credit_rating) = 0.048\n")
    got = run(sheet, HAN)
    assert [c["verdict"] for c in got] == ["right"] * 5
    assert got[2]["message"] == "computed from the rounded values the sheet shows: 0.940 - 0.694 = 0.246"
    # without the intermediate values on the sheet, 0.246 for 0.2467 is one unit off: close, not right
    assert verdicts("Gain(age) = 0.246\n", HAN) == ["close"]


def test_information_gain_of_y_given_x_is_h_y_minus_h_y_given_x():
    """IG(Y | X) = H(Y) - H(Y | X) (Andrew Moore's notes)."""
    h = lambda *c: sum(-sympy.Rational(k, sum(c)) * sympy.log(sympy.Rational(k, sum(c)), 2) for k in c if k)
    ig = h(9, 5) - (sympy.Rational(5, 14) * h(2, 3) + sympy.Rational(4, 14) * h(4) + sympy.Rational(5, 14) * h(3, 2))
    assert f"{float(ig):.4f}" == "0.2467"
    assert verdicts("IG(buys_computer|age) = 0.2467\nIG(buys_computer | age) = 0.5\n", HAN) == ["right", "wrong"]


# -- paths: one parser for every claim kind --------------------------------------------------------------

def kyphosis_risk(cond):
    """Misclassified rows of the node ``cond`` (a predicate on a row): the minority count."""
    c = Counter(r["Kyphosis"] for r in rows(KYPHOSIS) if cond(r))
    return sum(c.values()) - max(c.values())


def test_cost_complexity_claims_take_rpart_paths():
    """``Start >= 8.5`` (rpart) names the node infotree prints as ``Start > 8.5``: every claim kind reads it.
    R(t), R(T_t) and alpha recomputed from the rows and the leaves of rpart's kyphosis tree."""
    s = lambda r: int(r["Start"])
    a = lambda r: int(r["Age"])
    t = lambda r: s(r) >= 8.5
    leaves = [lambda r: t(r) and s(r) < 14.5 and a(r) < 55, lambda r: t(r) and s(r) < 14.5 and 55 <= a(r) < 111,
              lambda r: t(r) and s(r) < 14.5 and a(r) >= 111, lambda r: t(r) and s(r) >= 14.5]
    r_t, r_branch = kyphosis_risk(t), sum(kyphosis_risk(leaf) for leaf in leaves)
    alpha = Fraction(r_t - r_branch, len(leaves) - 1)
    sheet = (f"alpha(Start >= 8.5) = {alpha}\n"
             f"g(Start > 8.5) = {alpha}\n"
             f"R(Start >= 8.5) = {r_t}\n"
             f"R(T_{{Start >= 8.5}}) = {r_branch}\n"
             f"R(Start >= 8.5, Start < 14.5, Age < 55) = {kyphosis_risk(leaves[0])}\n"
             f"Start >= 8.5   R(t) = {r_t}, R(T_t) = {r_branch}, leaves 4: alpha = ({r_t} - {r_branch})/(4 - 1) = "
             f"{alpha}\n"
             "alpha(Start < 8.5) = 1\n")
    got = run(sheet, KYPHOSIS, "--algorithm", "cart", "--target", "Kyphosis")
    assert [c["verdict"] for c in got[:6]] == ["right"] * 6, got
    assert got[6]["verdict"] == "unreadable" and "is a leaf of T0" in got[6]["message"]


def test_weakest_link_line_with_a_tolerance_does_not_crash():
    """A worked weakest-link line under --tolerance: the leaf count is judged as a number (was exit 3)."""
    got = run("Start >= 8.5   R(t) = 6, R(T_t) = 2, leaves 4: alpha = (6 - 2)/(4 - 1) = 4/3\n", KYPHOSIS,
              "--algorithm", "cart", "--target", "Kyphosis", "--tolerance", "0.01")
    assert got[0]["verdict"] == "wrong" and got[0]["message"].startswith("R(T_t):")


# -- ISLR's regions and prose ----------------------------------------------------------------------------

def sse(ys):
    m = sum(ys, Fraction(0)) / len(ys)
    return sum(((y - m) ** 2 for y in ys), Fraction(0))


def test_regions_rss_and_prose_claims():
    """R1 = {X | ...}, ŷ_R1, RSS(R1), RSS(split), best split, best threshold (regression_sse's flats)."""
    table = rows(FLATS)
    price = lambda cond: [Fraction(r["price"]) for r in table if cond(r)]
    r1 = price(lambda r: r["area"] in ("north", "south"))
    r2 = price(lambda r: r["area"] == "east")
    small, large = price(lambda r: int(r["size"]) < 65), price(lambda r: int(r["size"]) >= 65)
    sheet = ("best split: area in {north, south}\n"
             "R1 = {X | area ∈ {north, south}}\n"
             "R2 = {X | area ∉ {north, south}}\n"
             f"ŷ_R1 = {sum(r1) / len(r1)}\n"
             f"ȳ_{{R2}} = {sum(r2) / len(r2)}\n"
             f"RSS(R2) = {sse(r2)}\n"
             f"RSS(size < 65) = {sse(small) + sse(large)}\n"
             "best threshold for size = 65\n"
             "R3 = {X | area in {north, south}, size < 65}\n"
             f"mean(R3) = {float(sum(price(lambda r: r['area'] != 'east' and int(r['size']) < 65)) / 3):.2f}\n"
             "ŷ_R9 = 1\n"
             "best split: size <= 65\n")
    options = ("--algorithm", "cart", "--criterion", "squared-error", "--min-samples-split", "2", "--min-leaf", "1",
               "--max-depth", "2", "--numeric", "auto")
    got = run(sheet, FLATS, *options)
    assert [c["verdict"] for c in got] == ["right"] * 10 + ["unreadable", "wrong"], got
    assert got[10]["message"].startswith("R9 is not defined on an earlier line")


def test_branch_subscripts():
    """Entropy(S_{humidity ≤ 82.5}): the rows of that branch (weather.numeric, recomputed)."""
    table = rows(DATA / "weather.numeric.csv")
    c = Counter(r["play"] for r in table if Fraction(r["humidity"]) <= Fraction("82.5"))
    h = -sum(Fraction(k, sum(c.values())) * math.log2(k / sum(c.values())) for k in c.values())
    got = run(f"Entropy(S_{{humidity ≤ 82.5}}) = {h:.3f}\nH(S_{{humidity > 82.5}}) = 0.1\n",
              DATA / "weather.numeric.csv", "--numeric", "auto")
    assert [g["verdict"] for g in got] == ["right", "wrong"]


# -- trees and rules ------------------------------------------------------------------------------------

ARROWS = """age?
  youth -> student?
    no -> no
    yes -> yes
  middle_aged -> yes
  senior -> credit_rating?
    fair -> yes
    excellent -> no
"""


def test_trees_drawn_with_arrows_and_if_then_rules():
    """Han's tree drawn with arrows is graded node by node; each IF-THEN rule is one leaf claim (any case),
    a wrong rule graded wrong."""
    got = run(ARROWS, HAN)
    assert len(got) == 1 and got[0]["verdict"] == "right" and got[0]["kind"] == "tree"
    got = run(ARROWS.replace("excellent -> no", "excellent -> yes"), HAN)
    assert got[0]["verdict"] == "wrong"
    rules = ("IF age = youth AND student = no THEN buys_computer = no\n"
             "if age = senior and credit_rating = fair then yes\n"
             "IF (age = senior) ∧ (credit_rating = excellent) THEN buys_computer = yes\n"
             "R4: IF age = middle_aged THEN buys_computer = yes\n")
    assert verdicts(rules, HAN) == ["right", "right", "wrong", "right"]


def test_regression_leaf_with_its_count_only():
    tree = ("area in {north, south}\n|  size <= 65: 370/3 (n = 3)\n|  size > 65: 187.5 (n = 4)\n"
            "area not in {north, south}\n|  size <= 65: 200 (n = 1)\n|  size > 65: 275 (n = 2)\n")
    got = run(tree, FLATS, "--algorithm", "cart", "--criterion", "squared-error", "--min-samples-split", "2",
              "--min-leaf", "1", "--max-depth", "2", "--numeric", "auto")
    assert [g["verdict"] for g in got] == ["right"]


def test_one_line_one_verdict():
    """Unreadable lines next to each other are each their own verdict; a wrong rule among them is graded."""
    sheet = ("youth -> student?\n"
             "this is not a claim\n"
             "IF age = senior AND credit_rating = excellent THEN yes\n"
             "outlook -> sunny\n"
             "Gini(D) = 0.459\n")
    got = run(sheet, HAN)
    assert [(g["line"], g["verdict"]) for g in got] == [(1, "unreadable"), (2, "unreadable"), (3, "wrong"),
                                                       (4, "unreadable"), (5, "right")]
    assert got[0]["message"].startswith("line 1: 'youth ->' names no feature")


def test_unreadable_at_line_grades_nothing_below_it():
    """After an unreadable 'At' line the claims below are not graded at another node (#33)."""
    weather = DATA / "weather.csv"
    sheet = ("At outlook = sunny:\nIG(humidity) = 0.971\nAt outlook = sunnny:\nIG(humidity) = 0.971\n"
             "At outlook = rainy: 5 rows\nIG(windy) = 0.971\nat outlook = rainyy:\nIG(windy) = 0.971\n")
    got = run(sheet, weather)
    assert [g["verdict"] for g in got] == ["right", "unreadable", "unreadable", "right", "unreadable", "unreadable"]
    assert got[2]["message"].startswith("the node of line 3")


def test_chained_powers_are_refused():
    """(9/14)^1^2 is 9/14 right to left and (9/14)^2 left to right: refused, never graded right (#33)."""
    got = run("Gini(play) = 1 - (9/14)^1^2 - (5/14)^1^2\nGini(play) = 1 - (9/14)^2 - (5/14)²\n", DATA / "weather.csv")
    assert [g["verdict"] for g in got] == ["unreadable", "right"]
    assert "chained power" in got[0]["message"]


# -- conventions ----------------------------------------------------------------------------------------

def plain_gain_of_humidity():
    """Weather.numeric's humidity: the plain gain at its best cut, recomputed over every cut (sympy)."""
    table = rows(DATA / "weather.numeric.csv")
    ys = [(Fraction(r["humidity"]), r["play"]) for r in table]
    h = lambda c: sum(-sympy.Rational(k, sum(c.values())) * sympy.log(sympy.Rational(k, sum(c.values())), 2)
                      for k in c.values() if k)
    whole = h(Counter(y for _, y in ys))
    best = None
    for t in sorted({x for x, _ in ys})[:-1]:
        left, right = Counter(y for x, y in ys if x <= t), Counter(y for x, y in ys if x > t)
        n = len(ys)
        g = whole - sympy.Rational(sum(left.values()), n) * h(left) - sympy.Rational(sum(right.values()), n) * h(right)
        best = g if best is None or float(g) > float(best) else best
    # J48's count of cuts (C4.5 Release 8): the places between distinct values that leave at least its
    # minimum split, max(2, min(25, 0.1·14/2)) = 2 rows, on each side
    xs = sorted(x for x, _ in ys)
    cuts = sum(1 for a, b in zip(xs, xs[1:]) if a != b and 2 <= xs.index(b) <= len(xs) - 2)
    return best, cuts


def test_c45_gain_conventions():
    """--c45-gain plain grades the textbook's gain at the cut; mdl (Release 8) names the log2(cuts)/n term."""
    plain, cuts = plain_gain_of_humidity()
    reduced = plain - sympy.log(cuts, 2) / 14
    data = load(DATA / "weather.numeric.csv", numeric="auto")
    textbook = check_answers(f"IG(humidity) = {float(plain):.4f}\n", data, criterion="gain_ratio", c45_gain="plain")
    assert textbook.results[0].verdict == "right"
    assert ("c45_gain", "plain", "the gain of a numeric attribute is the plain gain at its best cut (textbooks)") \
        in textbook.conventions
    release8 = check_answers(f"IG(humidity) = {float(plain):.4f}\nIG(humidity) = {float(reduced):.4f}\n", data,
                             criterion="gain_ratio")
    first, second = release8.results
    assert (first.verdict, second.verdict) == ("wrong", "right")
    assert first.message.startswith(f"under C4.5 Release 8 (--c45-gain mdl) the gain of a numeric attribute is "
                                    f"reduced by log2(cuts)/n = log2({cuts})/14")


def test_risk_units():
    """Breiman's R(t) = r(t)·p(t): --risk-units rate divides risks and alphas by n; a count where a rate is
    graded (and the reverse) is named."""
    data = load(KYPHOSIS, target="Kyphosis", numeric="auto")
    n = len(rows(KYPHOSIS))
    root = kyphosis_risk(lambda r: True)
    rate = check_answers(f"R(root) = {Fraction(root, n)}\nR(root) = {root}\n", data, criterion="gini",
                         risk_units="rate")
    assert [r.verdict for r in rate.results] == ["right", "wrong"]
    assert "misclassified rows" in rate.results[1].message
    count = check_answers(f"R(root) = {Fraction(root, n)}\n", data, criterion="gini")
    assert count.results[0].message.startswith(f"your value is Breiman's normalised risk, divided by the n = {n}")


def test_precision_rule():
    """3 decimals or 3 significant digits: 0.048 for 0.0481 is right, 0.2 for 0.1518 imprecise."""
    weather = load(DATA / "weather.csv")
    got = [r.verdict for r in check_answers("IG(windy) = 0.048\nIG(humidity) = 0.2\nIG(humidity) = 0.15\n"
                                            "IG(humidity) = 0.152\n", weather).results]
    assert got == ["right", "imprecise", "imprecise", "right"]
    got = [r.verdict for r in check_answers("IG(windy) = 0.048\n", weather, min_decimals=4).results]
    assert got == ["imprecise"]


# -- diagnoses: each fires on its own mistake ---------------------------------------------------------------

def test_diagnoses_fit_the_measure():
    weather = load(DATA / "weather.csv")
    one = lambda text: check_answers(text, weather).results[0]
    # Gini has no logarithm: 1 - 9/14 - 5/14 = 0 is the unsquared proportions, not a logarithm mistake
    r = one("Gini(D) = 1 - 9/14 - 5/14 = 0")
    assert r.diagnosis.startswith("forgot to square the proportions")
    # an integer answer is matched exactly: Info(D) = 0 is no logarithm mistake
    assert one("Info(D) = 0").diagnosis is None
    assert one("IG(outlook) = 0.694").diagnosis.startswith("forgot to subtract from the parent")
    assert one("IG(outlook) = 0.156").diagnosis.startswith("gain and gain ratio swapped")
    assert one("GR(outlook) = 0.247").diagnosis.startswith("gain and gain ratio swapped")
    # SplitInfo(outlook) - H(play | outlook) = 1.5774 - 0.6935
    assert one("IG(outlook) = 0.884").diagnosis.startswith("split information taken for the class entropy")
    assert one("H(play) = 0.5").diagnosis is None


def test_regression_and_pruning_diagnoses():
    flats = load(FLATS, numeric="auto")
    opts = dict(min_samples_split=2, min_leaf=1, max_depth=2)
    table = rows(FLATS)
    east = [Fraction(r["price"]) for r in table if r["area"] == "east"]
    one = lambda text: check_answers(text, flats, criterion="squared_error", tree_options=opts).results[0]
    assert one(f"SSE(price | area in {{east}}) = {sse(east) / 3}").diagnosis.startswith("MSE for SSE")
    whole = [Fraction(r["price"]) for r in table]
    mean = sum(whole) / len(whole)
    off = sum((y - mean) ** 2 for y in east)
    assert one(f"SSE(price | area in {{east}}) = {off}").diagnosis.startswith("deviations from the parent's mean")
    ns = [Fraction(r["price"]) for r in table if r["area"] != "east"]
    assert one(f"Decrease(area in {{east}}) = {sse(ns) + sse(east)}").diagnosis.startswith("the children's SSE")
    kyph = load(KYPHOSIS, target="Kyphosis", numeric="auto")
    rpart = dict(min_samples_split=20, min_leaf=7, cp=Fraction(1, 100))
    wrong = check_answers("alpha(Start >= 8.5) = (6 - 5)/4\n", kyph, criterion="gini", tree_options=rpart).results[0]
    assert wrong.verdict == "wrong" and wrong.diagnosis.startswith("|leaves(T_t)| in the denominator")


# -- no option set crashes any claim kind ---------------------------------------------------------------

CLAIMS = {
    "weather.csv": ["H(play) = 0.940", "IG(outlook) = 0.246", "GR(outlook) = 0.156", "SplitInfo(outlook) = 1.577",
                    "Gini(play) = 0.459", "ME(play) = 5/14", "I(outlook; play) = 0.247", "root = outlook",
                    "split(outlook = sunny) = humidity", "leaf(outlook = overcast) = yes", "IG(play|outlook) = 0.2467",
                    "Gain(S, windy) = 0.048", "Entropy(S_sunny) = 0.971", "best split: outlook",
                    "IF outlook = overcast THEN play = yes", "Gini_{outlook∈{sunny}}(D) = 0.394",
                    "ΔGini(outlook) = 0.102", "Improvement(outlook) = 1.43", "alpha(outlook in {overcast}) = 1",
                    "R(root) = 5", "weakest link = root", "alpha_1 = 1", "votes(row 1) = 1/2 for yes",
                    "OOB error = 1/2", "outlook = sunny\n|  humidity = high: no (3)", "At outlook = sunny:",
                    "IG(humidity) = 0.971", "age?\n  youth -> no", "CP(row 1) = 1", "garbage line",
                    "Gini(D) = 1 - (9/14)^2 - (5/14)^2"],
    "weather.numeric.csv": ["IG(humidity) = 0.152", "best threshold for humidity = 82.5", "H(play | humidity <= 75) = 0.7",
                            "Entropy(S_{humidity ≤ 82.5}) = 0.9", "RSS(humidity < 80) = 3", "SSE(play) = 1",
                            "R1 = {X | humidity < 80}", "ŷ_R1 = 3"],
}
OPTION_SETS = [[], ["--tolerance", "0.01"], ["--min-digits", "1"], ["--log", "e"], ["--explain"],
               ["--algorithm", "c45"], ["--algorithm", "cart"], ["--algorithm", "cart", "--tolerance", "1/100"],
               ["--criterion", "gain-ratio", "--explain", "--tolerance", "0.001"]]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[" ".join(o) or "defaults" for o in OPTION_SETS])
def test_no_claim_kind_crashes_under_any_option_set(options, capsys):
    """Every claim kind crossed with every grading option: a verdict for each, never an internal error."""
    for name, claims in CLAIMS.items():
        extra = ["--numeric", "auto"] if "numeric" in name else []
        text = "\n".join(claims) + "\n"
        args = build_parser("check").parse_args(["check", "-", "--data", str(DATA / name), *extra, *options,
                                                 "--trees", "3"])
        import sys

        stdin = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
        out = io.StringIO()
        try:
            status = run_check_command(args, out)
        finally:
            sys.stdin = stdin
        assert status in (0, 1)
        assert "internal error" not in out.getvalue() + capsys.readouterr().err
        assert out.getvalue().strip().splitlines()[-1].split("/")[0].isdigit()


def test_m_of_n_and_negative_rows_are_read():
    """#33: check takes tree's --m-of-n; votes(row -1) is a row out of range, not an unknown claim."""
    weather = DATA / "weather.csv"
    got = run("leaf(outlook = overcast) = yes\n", weather, "--m-of-n")
    assert got[0]["verdict"] == "wrong" and "2 of {" in got[0]["message"]
    got = run("votes(row -1) = 1/2 for yes\nvote(tree 0, row 1) = yes\n", weather, "--trees", "10")
    assert [g["message"] for g in got] == ["the data has rows 1 to 14, not -1", "the forest has trees 1 to 10, not 0"]


def test_counts_braced_subscripts_and_prose_measures():
    """Han's I(9,5) (the entropy of class counts), Info_{age}(D), 'the Gini index of D = 0.459'."""
    h = lambda *c: -sum(sympy.Rational(k, sum(c)) * sympy.log(sympy.Rational(k, sum(c)), 2) for k in c)
    assert f"{float(h(9, 5)):.3f}" == "0.940"
    sheet = ("I(9,5) = 0.940\nH(3, 2) = 0.971\nGini(9,5) = 0.459\nI(9,5) = 0.65\n"
             "Info_{age}(D) = 0.694\nSplitInfo_{age}(D) = 1.577\nGini_{student}(D) = 0.367\n"
             "the Gini index of D = 0.459\nentropy of D_youth = 0.971\nGain of age = 0.246\n")
    got = run(sheet, HAN, "--algorithm", "cart")
    assert [g["verdict"] for g in got] == ["right", "right", "right", "wrong", "right", "right", "right", "right",
                                          "right", "right"], got
    assert got[3]["diagnosis"].startswith("natural logarithm") and got[0]["quantity"] == "H(9,5)"
    # 0.246 for 0.2467 is right here: the sheet shows 0.940 and Info_age(D) = 0.694
    assert got[9]["message"] == "computed from the rounded values the sheet shows: 0.940 - 0.694 = 0.246"
