"""Regression trees (criterion squared_error, rpart's anova), checked against independent
computations: SSE straight from its definition Σ(y − ȳ)² with Fractions, every threshold
and every subset by brute force, rpart's published numbers on airquality, and R² by sympy."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import CARTRegressor, build_tree, from_records, load
from infotree.criteria import SquaredError
from infotree.errors import InfotreeError
from infotree.printers import render
from infotree.splitters import best_subset

ROOT = Path(__file__).resolve().parents[1]
AIR = ROOT / "tests" / "data" / "airquality.csv"
FLATS = ROOT / "worked_examples" / "regression_sse" / "data.csv"


def sse(ys) -> Fraction:
    """Σ(y − ȳ)², from the definition (not from Σy² − (Σy)²/n as the code computes it)."""
    ys = [Fraction(y) for y in ys]
    if not ys:
        return Fraction(0)
    mean = sum(ys) / len(ys)
    return sum((y - mean) ** 2 for y in ys)


def grow(rows, **kw):
    data = from_records(rows, target="y", numeric=["x"])
    opts = dict(criterion="squared_error", min_samples_split=2, min_leaf=1, surrogates=0, competitors=0)
    opts.update(kw)
    return data, build_tree(data, **opts)


@st.composite
def tables(draw):
    n = draw(st.integers(2, 12))
    return [{"c": draw(st.sampled_from("abcd")), "x": draw(st.integers(0, 5)),
             "y": str(Decimal(draw(st.integers(-20, 20))) / draw(st.sampled_from([1, 2, 4, 10])))}
            for _ in range(n)]


def best_by_brute_force(rows):
    """The largest SSE decrease over every threshold of x and every subset of c's values."""
    ys = [Fraction(r["y"]) for r in rows]
    total = sse(ys)
    best = None
    xs = sorted({r["x"] for r in rows})
    for lo, hi in zip(xs, xs[1:]):
        t = Fraction(lo + hi, 2)
        left = [Fraction(r["y"]) for r in rows if r["x"] <= t]
        right = [Fraction(r["y"]) for r in rows if r["x"] > t]
        d = total - sse(left) - sse(right)
        best = d if best is None else max(best, d)
    cs = sorted({r["c"] for r in rows})
    for m in range(1, len(cs)):
        for left_set in combinations(cs, m):
            left = [Fraction(r["y"]) for r in rows if r["c"] in left_set]
            right = [Fraction(r["y"]) for r in rows if r["c"] not in left_set]
            d = total - sse(left) - sse(right)
            best = d if best is None else max(best, d)
    return best


@settings(max_examples=150, deadline=None)
@given(tables())
def test_every_node_takes_the_largest_exact_decrease(rows):
    """At each node, the chosen split's decrease is the brute-force maximum over all
    thresholds and all subsets, and each side's SSE is Σ(y − ȳ)² of its rows."""
    data, tree = grow(rows)

    def check(node, part):
        ys = [Fraction(r["y"]) for r in part]
        assert node.n == len(part)
        assert node.mean == sum(ys) / len(ys)
        assert node.impurity == sse(ys)
        if node.is_leaf:
            assert node.stop in ("pure", "no_decrease", "no_split")
            if node.stop == "pure":
                assert sse(ys) == 0
            else:
                assert not best_by_brute_force(part) or best_by_brute_force(part) <= 0
            return
        c = node.chosen
        assert c.decrease == best_by_brute_force(part) > 0
        sides = [[r for r in part if node.test.route(_value(data, node.test.feature, r)) == b] for b in (0, 1)]
        for b, side in enumerate(sides):
            assert c.impurities[b] == sse([r["y"] for r in side])
            check(node.children[b], side)

    check(tree.root, rows)


def _value(data, j, row):
    f = data.features[j]
    if data.kinds[j] == "numeric":
        return Fraction(row[f])
    return data.domains[j].index(row[f])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(-30, 30)), min_size=2, max_size=7))
def test_ordering_by_mean_finds_the_exhaustive_optimum(groups):
    """The k − 1 prefixes of the values sorted by mean reach the least SSE of all subsets
    (Breiman et al. 1984, section 9.4; rpart's anova)."""
    stats = [(n, n * y, n * y * y) for n, y in groups]  # n rows of value y each
    crit = SquaredError()
    found = best_subset(stats, 1, crit.cut_key, 10 ** 6, order=crit.subset_order)
    keys = []
    for m in range(1, len(stats)):
        for left in combinations(range(len(stats)), m):
            lt = tuple(map(sum, zip(*(stats[i] for i in left))))
            rt = tuple(map(sum, zip(*(stats[i] for i in range(len(stats)) if i not in left))))
            keys.append(crit.cut_key((lt, rt)))
    assert crit.cut_key(found[1]) == min(keys)


def test_airquality_matches_rpart_anova():
    """rpart(Ozone ~ ., airquality) (116 rows with Ozone): the tree it prints, and its root's
    improvements, exactly: Temp < 82.5 improve 0.480718198223977655 = 2266426449/4714667465,
    Solar.R (111 rows known) 67934240/322268409 over the 116-row SSE."""
    data = load(AIR, numeric="auto", on_missing="keep")
    tree = build_tree(data, criterion="squared_error", min_samples_split=20, min_leaf=7, cp="0.01")
    root = tree.root
    assert root.n == 116 and root.impurity == Fraction(14516595, 116)  # 125143.1 printed by rpart
    by = {c.feature: c for c in root.candidates()}
    assert root.split_feature == "Temp" and root.threshold == Fraction(165, 2)
    assert by["Temp"].improvement == Fraction(2266426449, 4714667465)
    assert by["Solar.R"].improvement == Fraction(67934240, 322268409) and by["Solar.R"].n == 111
    assert abs(float(by["Wind"].improvement) - 0.404266943488098829) < 1e-15
    # rpart's frame: (n, yval) of each leaf, left to right with rpart's smaller-mean-left order
    leaves = sorted((int(n.n), float(n.mean)) for n in tree.leaves())
    rpart = sorted([(18, 12.22222), (33, 21.18182), (18, 34.55556), (10, 55.6), (7, 45.57143), (13, 72.30769),
                    (17, 90.05882)])
    assert [n for n, _ in leaves] == [n for n, _ in rpart]
    assert [m for _, m in leaves] == pytest.approx([m for _, m in rpart], abs=5e-6)
    s = root.surrogates[0]
    assert (s.feature, s.agree, s.adj) == ("Wind", Fraction(45, 58), Fraction(11, 37))  # 0.7758620689655172, 0.2972972972972973


def test_worked_example_is_rpart_s_tree():
    data = load(FLATS, numeric="auto")
    tree = build_tree(data, criterion="squared_error", min_samples_split=2, min_leaf=1, max_depth=2, cp="0.01")
    by = {c.feature: c for c in tree.root.candidates()}
    assert by["area"].improvement == Fraction(1701, 3361)  # rpart 0.506099375185957
    assert by["size"].improvement == Fraction(7921, 20166)  # rpart 0.392789844292373
    assert [float(n.impurity) for n in tree.nodes()] == pytest.approx(
        [33610, 11600, 1266.6666666666667, 3275, 5000, 0, 1250])


def test_sample_weights_equal_repeated_rows():
    rows = [{"c": "a", "x": 1, "y": "1.5"}, {"c": "b", "x": 2, "y": "4"}, {"c": "a", "x": 3, "y": "2"},
            {"c": "b", "x": 4, "y": "7"}, {"c": "c", "x": 5, "y": "7.5"}]
    weights = [2, 1, 3, 1, 2]
    repeated = [r for r, w in zip(rows, weights) for _ in range(w)]
    _, a = grow(rows, sample_weight=weights)
    _, b = grow(repeated, min_leaf=1)
    assert [(n.n, n.mean, n.impurity, n.test and n.test.condition(0)) for n in a.nodes()] == \
           [(n.n, n.mean, n.impurity, n.test and n.test.condition(0)) for n in b.nodes()]


def test_tree_is_invariant_under_row_order():
    data = load(AIR, numeric="auto", on_missing="keep")
    text = io.StringIO()
    render(build_tree(data, criterion="squared_error"), text, fmt="json", nodes="none")
    rows = data.subset(list(range(len(data.y)))[::-1])
    again = io.StringIO()
    render(build_tree(rows, criterion="squared_error"), again, fmt="json", nodes="none")
    strip = json.loads(text.getvalue()), json.loads(again.getvalue())
    assert strip[0]["root"]["children"] and _shape(strip[0]["root"]) == _shape(strip[1]["root"])


def _shape(node):
    return (node["n"], node["mean"], node["impurity"]["exact"], node["split"], json.dumps(node["test"]),
            [_shape(c["node"]) for c in node["children"]])


def test_regressor_r2_is_exact():
    X = [[1, "a"], [2, "a"], [3, "b"], [4, "b"], [5, "c"], [6, "c"]]
    y = ["1.5", "2", "10", "11", "3", "12.5"]
    reg = CARTRegressor(max_depth=1).fit(X, y, feature_names=["x", "c"])
    pred = reg.predict_exact(X)
    assert all(isinstance(p, Fraction) for p in pred)
    ys = [sympy.Rational(v) for v in y]
    mean = sum(ys) / len(ys)
    r2 = 1 - sum((t - sympy.Rational(p.numerator, p.denominator)) ** 2 for t, p in zip(ys, pred)) / \
        sum((t - mean) ** 2 for t in ys)
    assert reg.score_exact(X, y) == Fraction(int(r2.p), int(r2.q))
    assert not hasattr(reg, "predict_proba")  # a regressor predicts numbers
    with pytest.raises(InfotreeError, match="not a CART criterion"):
        CARTRegressor(criterion="gini").fit(X, y)


def test_a_target_that_is_not_a_number_names_its_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y\n1,2.5\n2,3\n3,lots\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "infotree", "tree", str(bad), "--algorithm", "cart", "--criterion",
                          "squared-error"], capture_output=True, text=True)
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr.strip() == (f"infotree: error: {bad} line 4, column 'y': value 'lots' is not a number; a regression "
                                  f"target (criterion squared_error) is read as numbers, such as 12, -0.5 or 1e3")


def test_an_arff_numeric_class_is_a_regression_target(tmp_path):
    f = tmp_path / "d.arff"
    f.write_text("@relation r\n@attribute x numeric\n@attribute y numeric\n@data\n1,1.5\n2,1.5\n3,9\n4,10\n",
                 encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "infotree", "tree", str(f), "--algorithm", "cart", "--criterion",
                          "squared-error", "--min-samples-split", "2", "--min-leaf", "1", "--nodes", "none"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("x <= 2.5: 1.5 (n = 2, SSE = 0)\nx > 2.5: 9.5 (n = 2, SSE = 0.5)\n")


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json", "dot", "rules", "python", "tikz"])
def test_every_printer_shows_means_and_sse(fmt):
    data = load(FLATS, numeric="auto")
    tree = build_tree(data, criterion="squared_error", min_samples_split=2, min_leaf=1, max_depth=2)
    out = io.StringIO()
    render(tree, out, fmt=fmt, steps=fmt in ("text", "markdown", "latex"))
    text = out.getvalue()
    assert "187.5" in text  # the mean of the four larger north/south flats
    if fmt in ("text", "markdown"):
        assert "SSE(price) = Σ(y - ȳ)² = Σy² - (Σy)²/n = 383300 - 1870²/10 = 33610" in text
        assert "improvement (rpart) = ΔSSE / SSE(node) = (17010)/(33610) = 1701/3361" in text
    if fmt == "python":
        namespace = {}
        exec(compile(text, "tree.py", "exec"), namespace)
        assert namespace["predict"]({"area": "east", "size": 80}) == Fraction(275)


def test_a_saved_model_predicts_the_same_means(tmp_path):
    from infotree.model import load_model

    data = load(AIR, numeric="auto", on_missing="keep")
    tree = build_tree(data, criterion="squared_error")
    path = tmp_path / "m.json"
    with open(path, "w", encoding="utf-8") as f:
        render(tree, f, fmt="json", nodes="none")
    again = load_model(path)
    rows = [dict(zip(data.features, r)) for r in
            [["?", "7.4", "67", "5", "1"], ["190", "3", "95", "7", "4"], ["?", "?", "80", "8", "9"]]]
    assert again.predict(rows) == tree.predict(rows)
    assert [n.mean for n in again.nodes()] == [n.mean for n in tree.nodes()]
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["root"]["label"] = "42"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InfotreeError, match="is not the mean sum/n = 4887/116"):
        load_model(path)


def test_steps_say_which_rows_a_decrease_is_over():
    """With Solar.R missing in 5 of 116 rows, the decrease is taken over the 111 known rows
    and rpart's improvement divides it by the whole node's SSE (docs/cart_rules.md, section 9)."""
    data = load(AIR, numeric="auto", on_missing="keep")
    out = io.StringIO()
    render(build_tree(data, criterion="squared_error"), out, fmt="text", steps=True, nodes="root")
    text = out.getvalue()
    known = [Fraction(r) for r, s in zip(_column(AIR, "Ozone"), _column(AIR, "Solar.R")) if s != "?"]
    assert len(known) == 111
    assert (f"Solar.R is missing in 5 rows: the decrease is over the 111 rows with it known, SSE(Ozone | Solar.R known) "
            f"= 318531 - 4673²/111 = {sse(known)} = ") in text
    assert "improvement (rpart) = ΔSSE / SSE(node) = (2928200/111)/(14516595/116) = 67934240/322268409" in text


def _column(path, name):
    import csv

    with open(path, newline="", encoding="utf-8") as f:
        return [r[name] for r in csv.DictReader(f)]


def test_float_targets_read_per_distinct_value_as_one_by_one():
    """read_targets reads a float array's distinct values once each: the same exact numbers
    (each float's shortest text) as reading the values one by one; a NaN or an infinity
    is still named by its row."""
    from fractions import Fraction

    import numpy as np

    from infotree import CARTRegressor
    from infotree.errors import InfotreeError
    from infotree.sklearn_base import read_targets

    y = np.array([0.1, -0.0, 0.0, 2.5, 0.1, 1e-300, 1.7976931348623157e308, -3.0, 0.30000000000000004])
    assert read_targets(None, y) == [Fraction(repr(v)) for v in y.tolist()]
    assert read_targets(None, y) == read_targets(None, y.astype(object))
    for bad in (np.nan, np.inf):
        z = y.copy()
        z[4] = bad
        with pytest.raises(InfotreeError, match=r"y\[4\]"):
            read_targets(CARTRegressor(), z)
