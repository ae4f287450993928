"""rpart's Poisson and exp methods: exact rates, deviances and improvements, checked against
sympy, hand derivations and numbers printed by rpart 4.1.19 (R 4.x, MASS and survival data)."""

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from infotree import build_tree, load
from infotree.complexity import cp_table
from infotree.data import from_records
from infotree.errors import InfotreeError
from infotree.lnpoly import LnPoly
from infotree.model import dumps, loads
from infotree.roles import take_column
from infotree.survival import exp_exposure
from infotree.growing import fold_grower

ROOT = Path(__file__).resolve().parent.parent
INSURANCE = ROOT / "worked_examples" / "poisson_insurance" / "insurance.csv"
AML = ROOT / "worked_examples" / "survival_aml" / "aml.csv"


def insurance():
    """MASS::Insurance: claims of 64 groups of car-insurance holders (District read as a factor, as in R)."""
    data = load(INSURANCE, numeric="auto", categorical=["District"], numeric_target=True, target="Claims")
    return take_column(data, "Holders", "exposure")


def _tree(data, holders, **kw):
    return build_tree(data, criterion="poisson", exposure=holders, min_samples_split=10, min_leaf=3, **kw)


def test_improvement_is_the_deviance_decrease_in_logs():
    """Six rows, x = 1..6, events 0,1,1,3,4,5 over exposures 1,1,2,1,2,3: the root's best cut
    x <= 3 | > 3 improves 2·[2·ln(2/4) + 12·ln(12/6) − 14·ln(14/10)] (poisson.c), checked in sympy."""
    rows = [{"x": str(x), "d": str(d)} for x, d in zip(range(1, 7), (0, 1, 1, 3, 4, 5))]
    data = from_records(rows, target="d", numeric=["x"], numeric_target=True)
    t = build_tree(data, criterion="poisson", exposure=[1, 1, 2, 1, 2, 3], min_leaf=1)
    c = t.root.chosen
    assert c.threshold == Fraction(7, 2)
    expected = 2 * (2 * sympy.log(sympy.Rational(2, 4)) + 12 * sympy.log(2) - 14 * sympy.log(sympy.Rational(14, 10)))
    assert sympy.simplify(c.improvement.sympy() - expected) == 0
    assert c.improvement == LnPoly.ln(Fraction(1, 2)) * 4 + LnPoly.ln(2) * 24 - LnPoly.ln(Fraction(7, 5)) * 28
    # the root predicts the rate D/T exactly (β = α·T/D makes the shrunk root rate the plain one)
    assert t.root.mean == Fraction(14, 10)


def test_insurance_tree_is_rparts():
    """rpart(cbind(Holders, Claims) ~ District + Group + Age, Insurance, method = "poisson",
    minsplit = 10, minbucket = 3): every node's n, deviance and yval as rpart 4.1.19 prints
    them (print(f$frame, digits = 17)), the root's improvement 73.580595960460414 (f$splits)."""
    data, holders = insurance()
    t = _tree(data, holders, cp=Fraction(1, 100))
    rpart = [(64, 236.2589588788604544, 0.134894473222312600), (32, 90.4448457257086176, 0.121212762053063111),
             (16, 28.2397042912136662, 0.113032664804851676), (8, 5.5954729500342992, 0.098091399323786202),
             (8, 10.7645889925098750, 0.119269428213910955), (16, 15.0513012506980317, 0.167792532693844032),
             (8, 1.6539224124121841, 0.149867629214358228), (8, 4.8559402883634046, 0.200832770575832653),
             (32, 72.2335716801536876, 0.167183858434287597), (8, 19.8362232765735662, 0.150413692394986365),
             (24, 25.2028387775866740, 0.207616206448429236), (6, 3.8363017110899476, 0.191713624119781628),
             (18, 19.1584829592807964, 0.221616863829379340), (6, 2.9459599721929299, 0.193752138596420320),
             (12, 12.2870124928159115, 0.250282433060767917)]
    ours = sorted((n.n, float(n.risk), float(n.mean)) for n in t.root.walk())
    for (n, dev, rate), (n2, dev2, rate2) in zip(sorted(rpart), ours):
        assert n == n2 and dev2 == pytest.approx(dev, rel=1e-12) and rate2 == pytest.approx(rate, rel=1e-14)
    assert [t.root.split_feature, float(t.root.chosen.improvement)] == ["Group", pytest.approx(73.580595960460414,
                                                                                                rel=1e-13)]
    assert t.criterion.alpha == 1 and t.criterion.beta == Fraction(sum(holders), 3151)  # k = 1: β = T/D
    leaf = next(n for n in t.root.walk() if n.is_leaf and n.class_counts[1] == 172)  # Group <1l,1-1.5l; Age <25
    assert leaf.mean == (172 + 1) / (854 + t.criterion.beta)


def test_insurance_cp_table_is_rparts():
    """rpart's cptable with xval = rep(1:4, 16) (print(f$cptable, digits = 17), the factors read
    as character): CP, rel error, xerror and xstd to 12 digits.  Each fold holds out one Age
    level, which no node of its tree saw: such a row is missing there and, with no surrogate
    and a 50-50 majority, rpart's xval sends it to the right son (branch.c); shrink 0 gives
    the plain rates D/T (rpart's largest yval 0.251953125 = 129/512)."""
    data, holders = insurance()
    t = _tree(data, holders, cp=Fraction(1, 100))
    table = cp_table(t, cp=Fraction(1, 100), data=data, folds=[i % 4 + 1 for i in range(64)],
                     grow=fold_grower(criterion="poisson", min_samples_split=10, min_leaf=3), sequence="rpart")
    rpart = [(0.311440217218284854, 0.99999999999999989, 1.9262400237537742, 0.47492552934366761),
             (0.199585405808778649, 0.68855978278171504, 1.9619211506682275, 0.47919069048770935),
             (0.115104670548968141, 0.48897437697293633, 1.7317080234662465, 0.33634982436249289),
             (0.050282293653721992, 0.37386970642396822, 1.4043710682171642, 0.28035879280416220),
             (0.036152866288985827, 0.32358741277024622, 1.5284576648561272, 0.29315937934629255),
             (0.012980596864123171, 0.28743454648126038, 1.5597879892424358, 0.29161481850943138),
             (0.010000000000000000, 0.26147335275301398, 2.1461713879682449, 0.45127635575971015)]
    assert len(table.rows) == len(rpart)
    for row, expected in zip(table.rows, rpart):
        got = (float(row.cp), float(row.rel_error), float(row.xerror), float(row.xstd))
        assert got == pytest.approx(expected, rel=1e-12)
    assert table.rows[0].cp == (t.root.risk - t.root.children[0].risk - t.root.children[1].risk) / t.root.risk
    plain = _tree(data, holders, cp=Fraction(1, 100), shrink=0)
    assert sorted(n.mean for n in plain.root.walk())[-1] == Fraction(129, 512)


def test_deviance_decrease_is_never_negative():
    """With the unshrunk rates a split never raises the deviance (log-sum inequality), decided
    exactly for every candidate of random count data."""
    rnd = random.Random(7)
    for _ in range(4):
        rows = [{"a": str(rnd.randint(1, 5)), "b": rnd.choice("xyz"), "d": str(rnd.randint(0, 6))} for _ in range(30)]
        data = from_records(rows, target="d", numeric=["a"], numeric_target=True)
        t = build_tree(data, criterion="poisson", exposure=[Fraction(rnd.randint(1, 9), 2) for _ in rows], min_leaf=1)
        for node in t.root.walk():
            for c in node.candidates():
                assert c.decrease.sign() >= 0
                assert c.decrease == c.improvement


def test_exp_scaling_by_hand_and_rpart():
    """rpart.exp's rescaled times: times 1,2,3,4 with deaths at 1, 3, 4 make pieces (0,1], (1,3],
    (3,4] of rates 1/4, 1/5, 1 (deaths over person-time), so the times map to 1/4, 9/20, 13/20,
    33/20 (their sum is the 3 deaths); on survival::aml the 23 values equal rpart's to 1e-15."""
    assert exp_exposure([1, 2, 3, 4], [1, 0, 1, 1]) == tuple(map(Fraction, ("1/4", "9/20", "13/20", "33/20")))
    data = load(AML, numeric_target=True, target="status")
    times, status = take_column(data, "time", "time")[1], [int(data.classes[c]) for c in data.y]
    scaled = exp_exposure(times, status)
    assert sum(scaled) == sum(status)
    rpart = [0.234826195924594083, 0.349205280891914327, 0.349205280891914327, 0.417698431576845830,
             0.571544585422999685, 0.698167962046376323, 0.894596533474947719, 1.204120342998757254,
             1.654120342998757209, 1.679330427032370565, 2.628910258965143854, 0.086956521739130432,
             0.086956521739130432, 0.182194616977225665, 0.182194616977225665, 0.290381751480149664,
             0.390301171302873229, 0.571544585422999685, 0.662453676332090624, 0.769596533474947719,
             1.037453676332090513, 1.404120342998757209, 1.654120342998757209]
    assert [float(x) for x in scaled] == pytest.approx(rpart, rel=1e-15)


def test_exp_tree_is_rparts():
    """rpart(Surv(time, status) ~ x, aml, minsplit = 4, minbucket = 2, cp = 0): root deviance
    26.441841054758115, yval 0.68483032772857622 and 1.44260690184896179, improve 3.04871627622038."""
    data = load(AML, numeric_target=True, target="status")
    data, times = take_column(data, "time", "time")
    t = build_tree(data, criterion="exp", exposure=times, min_samples_split=4, min_leaf=2, cp=0)
    assert float(t.root.risk) == pytest.approx(26.441841054758115, rel=1e-14)
    assert t.root.mean == 1  # the rescaled times sum to the deaths: the root's rate is 1
    assert [float(c.mean) for c in t.root.children] == pytest.approx([0.68483032772857622, 1.44260690184896179],
                                                                      rel=1e-14)
    assert float(t.root.chosen.improvement) == pytest.approx(3.04871627622038, rel=1e-13)


def test_model_round_trip_and_refusals(tmp_path):
    """A saved Poisson model loads with the same rates, deviances and predictions; rpart's
    refusals are one-line errors."""
    data, holders = insurance()
    t = _tree(data, holders, cp=Fraction(1, 100))
    u = loads(dumps(t))
    assert u.predict(data) == t.predict(data) and u.root.risk == t.root.risk
    assert dumps(loads(dumps(u))) == dumps(u)
    with pytest.raises(InfotreeError, match="exposure 0 is not allowed"):
        build_tree(data, criterion="poisson", exposure=[0] + holders[1:])
    with pytest.raises(InfotreeError, match="shrink -1 is not allowed"):
        build_tree(data, criterion="poisson", exposure=holders, shrink=-1)
    with pytest.raises(InfotreeError, match="exposure and shrink are rpart's Poisson"):
        build_tree(data, criterion="squared_error", exposure=holders)


def test_cli_poisson_and_exp(tmp_path):
    """--method poisson --exposure COL and --method exp --time COL as rpart's cbind(Holders,
    Claims) ~ . and Surv(time, status) ~ x; the exposure column is no feature."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "infotree", *map(str, args)], capture_output=True, text=True,
                              cwd=ROOT)

    out = run("tree", INSURANCE, "--method", "poisson", "--target", "Claims", "--exposure", "Holders",
              "--categorical", "District", "--min-samples-split", "10", "--min-leaf", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["features"] == ["District", "Group", "Age"] and doc["params"]["shrink"] == "1"
    assert doc["root"]["stats"]["events"] == "3151" and doc["root"]["label"] == "3151/23359"
    out = run("tree", AML, "--method", "exp", "--target", "status", "--time", "time", "--min-samples-split", "4",
              "--min-leaf", "2", "--cp", "0")
    assert out.returncode == 0, out.stderr
    assert "x = Maintained: rate ≈ 0.684830 (n = 11, events 7" in out.stdout.replace("x in {Maintained}", "x = Maintained")
    lines = INSURANCE.read_text().splitlines()
    (tmp_path / "bad.csv").write_text("\n".join([lines[0], lines[1].replace(",197,", ",0,")] + lines[2:]) + "\n")
    bad = run("tree", tmp_path / "bad.csv", "--method", "poisson", "--target", "Claims", "--exposure", "Holders")
    assert bad.returncode == 1 and bad.stderr == (f"infotree: error: {tmp_path / 'bad.csv'} line 2, column 'Holders': "
                                                  f"exposure '0' is not a positive number; an exposure or observation "
                                                  f"time is a number above 0 such as 1, 2.5 or 1/3\n")
