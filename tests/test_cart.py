"""CART: Gini, entropy and misclassification on binary threshold and subset splits, exactly.

Values are checked against an independent brute force in sympy rationals (every
threshold and every subset of every feature), not against infotree's own arithmetic.
"""

import json
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import build_tree, from_records, load
from infotree.criteria import Gini
from infotree.errors import InfotreeError
from infotree.measures import gini, misclassification
from infotree.model import loads
from infotree.printers.json import write as write_json
from infotree.splitters import best_subset

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.numeric.arff"


def test_published_gini_values():
    """Gini(D) = 1 − (9/14)² − (5/14)² = 45/98 (play tennis); the misclassification error 5/14."""
    assert gini([9, 5]) == Fraction(45, 98)
    assert misclassification([9, 5]) == Fraction(5, 14)
    assert gini([7, 3]) == Fraction(21, 50) and gini([4, 0]) == 0
    # Han & Kamber's income ∈ {low, medium} split of buys_computer: 10/14·Gini(7,3) + 4/14·Gini(2,2) = 0.443
    assert round(float(Fraction(10, 14) * gini([7, 3]) + Fraction(4, 14) * gini([2, 2])), 3) == 0.443


# -- an independent brute force --------------------------------------------------------

def _sym_gini(counts):
    n = sum(counts)
    return 1 - sum(sympy.Rational(c, n) ** 2 for c in counts)


def _sym_entropy(counts):
    n = sum(counts)
    return -sum(sympy.Rational(c, n) * sympy.log(sympy.Rational(c, n), 2) for c in counts if c)


def _splits(column, numeric, y=None, classes=None):
    """Every binary split of one column as a row predicate: thresholds between adjacent
    distinct values, or every subset of the values present (up to complement).  With two
    classes and ``y`` given, only the ordering theorem's prefixes (what rpart compares:
    with a minimum leaf size they need not include the unconstrained optimum)."""
    values = sorted(set(column))
    if numeric:
        for a, b in zip(values, values[1:]):
            t = sympy.Rational(a + b, 2)
            yield f"<= {t}", (lambda x, t=t: x <= t)
    elif y is not None and len(classes) == 2:
        def share(v):
            ys = [yv for x, yv in zip(column, y) if x == v]
            return sympy.Rational(ys.count(classes[0]), len(ys))
        order = sorted(values, key=lambda v: (share(v), column.index(v)))
        for m in range(1, len(order)):
            left = set(order[:m])
            yield left, (lambda x, left=left: x in left)
    else:
        first, rest = values[0], values[1:]
        for m in range(len(rest)):
            for extra in combinations(rest, m):
                left = {first, *extra}
                yield left, (lambda x, left=left: x in left)


def _best(cols, y, classes, impurity, min_leaf):
    """The largest decrease over every feature's every admissible split, and who reaches it."""
    n = len(y)
    parent = impurity([y.count(c) for c in classes])
    best, who = None, []
    for name, (col, numeric) in cols.items():
        for label, goes_left in _splits(col, numeric, *((y, classes) if min_leaf > 1 else ())):
            left = [yv for x, yv in zip(col, y) if goes_left(x)]
            right = [yv for x, yv in zip(col, y) if not goes_left(x)]
            if len(left) < min_leaf or len(right) < min_leaf:
                continue
            w = sum(sympy.Rational(len(s), n) * impurity([s.count(c) for c in classes]) for s in (left, right))
            d = sympy.nsimplify(parent - w) if impurity is _sym_gini else sympy.simplify(parent - w)
            if best is None or sympy.simplify(d - best) > 0:
                best, who = d, [name]
            elif sympy.simplify(d - best) == 0 and name not in who:
                who.append(name)
    return best, who


@st.composite
def tables(draw):
    n = draw(st.integers(4, 14))
    m = draw(st.integers(1, 3))
    cols, numeric = {}, []
    for j in range(m):
        num = draw(st.booleans())
        k = draw(st.integers(2, 4))
        cols[f"f{j}"] = [draw(st.integers(0, k - 1)) for _ in range(n)]
        if num:
            numeric.append(f"f{j}")
        else:
            cols[f"f{j}"] = [f"v{v}" for v in cols[f"f{j}"]]
    cols["y"] = [f"c{draw(st.integers(0, draw(st.integers(1, 2))))}" for _ in range(n)]
    return cols, numeric


@settings(max_examples=60, deadline=None)
@given(tables(), st.sampled_from(["gini", "entropy"]), st.integers(1, 3))
def test_root_split_is_the_best_binary_split(table, criterion, min_leaf):
    """The root's decrease is the largest over every threshold and subset (a brute force
    in sympy), the split feature is the first that reaches it, and its ties are the others."""
    cols, numeric = table
    y = cols["y"]
    data = from_records(cols, target="y", numeric=numeric)
    tree = build_tree(data, criterion=criterion, min_leaf=min_leaf)
    classes = list(data.classes)
    impurity = _sym_gini if criterion == "gini" else _sym_entropy
    feats = {f: ([int(v) for v in cols[f]] if f in numeric else cols[f], f in numeric) for f in data.features}
    best, who = _best(feats, y, classes, impurity, min_leaf)
    root = tree.root
    if len(set(y)) == 1:
        assert root.stop == "pure"
        return
    if best is None or sympy.simplify(best) <= 0:
        assert root.split is None and root.stop in ("no_decrease", "no_split")
        return
    assert root.split_feature == who[0]
    assert [tree.features[j] for j in root.ties] == who[1:]
    chosen = root.chosen.decrease
    assert sympy.simplify(sympy.nsimplify(str(chosen)) - best) == 0 if criterion == "gini" else \
        abs(float(chosen) - float(best)) < 1e-12


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=7))
def test_ordering_theorem_finds_the_exhaustive_optimum(rows):
    """Two classes: the k − 1 prefixes of the categories sorted by proportion reach the
    same least weighted Gini as all 2^(k−1) − 1 subsets (Breiman et al., Theorem 4.5)."""
    rows = [r for r in rows if any(r)]
    if len(rows) < 2:
        return

    def key(table):
        n = sum(map(sum, table))
        return sum(Fraction(sum(r), n) * gini(r) for r in table if any(r))

    found = best_subset(rows, 1, key, 10 ** 6, order=Gini().subset_order)
    present = list(range(len(rows)))
    exhaustive = []
    for m in range(1, len(present)):
        for left in combinations(present, m):
            lt = tuple(map(sum, zip(*(rows[i] for i in left))))
            rt = tuple(map(sum, zip(*(rows[i] for i in present if i not in left))))
            exhaustive.append(key((lt, rt)))
    assert key(found[1]) == min(exhaustive)
    assert found[2] == len(present) - 1


def test_subsets_past_the_limit_are_refused():
    rows = [(1, 0, 2)] * 3 + [(0, 1, 1)] * 3 + [(2, 2, 0)] * 3
    with pytest.raises(InfotreeError) as e:
        best_subset(rows, 1, lambda t: 0, 100, what="feature 'x'")
    assert str(e.value) == ("feature 'x' has 9 values here and 3 classes: an exact CART split compares "
                            "2^8 - 1 = 255 subsets, beyond the limit of 100 (max_subsets; --max-subsets 255 allows it)")


def test_weather_tree_and_children_respect_min_leaf():
    data = load(WEATHER)
    tree = build_tree(data, criterion="gini", min_leaf=2)
    assert tree.root.split_feature == "outlook" and tree.root.chosen.decrease == Fraction(5, 49)
    assert tree.root.test.left_values == ("sunny", "rainy")
    for node in tree.nodes():
        if node.split is not None:
            assert all(ch.n >= 2 for ch in node.children)


def test_cli_cart_tree_and_model_round_trip(tmp_path):
    """`--algorithm cart` prints the tree with subsets and midpoints; its JSON model loads back."""
    out = tmp_path / "m.json"
    p = subprocess.run([sys.executable, "-m", "infotree", "tree", str(WEATHER), "--algorithm", "cart",
                        "--min-samples-split", "2", "--cp", "0", "--nodes", "none"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[:3] == ["outlook in {sunny, rainy}", "|  humidity <= 82.5",
                                         "|  |  temperature <= 66.5: no (1)"]
    data = load(WEATHER)
    tree = build_tree(data, criterion="gini")
    with open(out, "w") as f:
        write_json(tree, f)
    doc = json.loads(out.read_text())
    assert doc["format"] == 3 and doc["root"]["test"] == {"kind": "subset", "left": ["sunny", "rainy"],
                                                          "right": ["overcast"]}
    assert doc["root"]["improvement"] == "10/7"
    back = loads(out.read_text())
    assert back.predict_proba(data) == tree.predict_proba(data)


def test_algorithm_and_criterion_must_agree():
    p = subprocess.run([sys.executable, "-m", "infotree", "tree", str(WEATHER), "--algorithm", "c45",
                        "--criterion", "gini"], capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stderr == ("infotree: error: --criterion gini belongs to --algorithm cart; with --algorithm c45 "
                        "the criteria are: gain-ratio\n")


KYPHOSIS = ROOT / "tests" / "data" / "kyphosis.csv"  # rpart's kyphosis data set (81 rows), written by R


def _frame_complexity(tree):
    """rpart's frame$complexity × R(root): a node's own value, floored along its path."""
    out = {}
    for node in tree.nodes():
        own = node.pruned.complexity if node.pruned is not None else None
        parent = out.get(id(node.parent)) if node.parent is not None else None
        if own is None:
            out[id(node)] = node.pruned.alpha if node.pruned is not None else tree.root.pruned.alpha
        else:
            out[id(node)] = own if parent is None else min(own, parent)
    return [out[id(n)] for n in tree.nodes()]


def test_kyphosis_as_rpart():
    """rpart(Kyphosis ~ ., kyphosis) with its defaults: the same five leaves (rpart puts
    Start >= 8.5 on the left; infotree keeps <= t left), the root's improve
    322624/47709 (rpart: 6.76232995870800), and frame$complexity × R(root) = 3, 1/3, 1/3, 1/3."""
    data = load(KYPHOSIS, target="Kyphosis", numeric="auto")
    tree = build_tree(data, criterion="gini", min_samples_split=20, min_leaf=7, max_depth=30, cp="0.01")
    assert tree.root.chosen.improvement == Fraction(322624, 47709)
    leaves = sorted((n.describe_path(), n.label_name, n.n, n.errors) for n in tree.leaves())
    assert leaves == sorted([
        ("Start <= 8.5", "present", 19, 8),
        ("Start > 8.5, Start <= 14.5, Age <= 55", "absent", 12, 0),
        ("Start > 8.5, Start <= 14.5, Age > 55, Age <= 111", "present", 7, 3),
        ("Start > 8.5, Start <= 14.5, Age > 55, Age > 111", "absent", 14, 2),
        ("Start > 8.5, Start > 14.5", "absent", 29, 0)])
    internal = [n for n in tree.nodes() if n.split is not None]
    frame = dict(zip([id(n) for n in tree.nodes()], _frame_complexity(tree)))
    assert [frame[id(n)] for n in internal] == [3, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]


def test_cp_collapses_exactly():
    """Weather: rpart's complexities are 3/2 at the root and 1 at the humidity nodes
    (cp·R(root) = 1/20 keeps them); with cp = 1/4 (alpha 5/4) rpart never tries to split the
    humidity nodes (their risk 1 is at most alpha)."""
    data = load(WEATHER)
    grown = build_tree(data, criterion="gini", cp="0.01")
    assert len(grown) == 9 and grown.root.pruned.complexity == Fraction(3, 2)
    cut = build_tree(data, criterion="gini", cp="1/4")
    assert len(cut) == 5
    collapsed = [n for n in cut.nodes() if n.stop == "cp"]
    assert [(n.describe_path(), n.pruned.action, n.pruned.complexity) for n in collapsed] == [
        ("outlook in {sunny, rainy}, humidity <= 82.5", "not tried", None),
        ("outlook in {sunny, rainy}, humidity > 82.5", "not tried", None)]
    assert collapsed[0].reason == "not split (rpart's cp rule): its risk bound 1 <= alpha = cp·R(root) = 5/4"
    # rpart(Kyphosis ~ ., kyphosis, cp = 0.03): root and two leaves; Start >= 8.5 (risk 6 > alpha
    # = 51/100) is tried, and its subtree, which lowers no risk there, is collapsed
    ky = build_tree(load(KYPHOSIS, target="Kyphosis", numeric="auto"), criterion="gini", min_samples_split=20,
                    min_leaf=7, cp="0.03")
    assert len(ky) == 3
    assert [(n.describe_path(), n.pruned.action, n.pruned.complexity) for n in ky.nodes() if n.stop == "cp"] == [
        ("Start > 8.5", "collapsed", 0)]


def test_integer_sample_weights_are_duplicated_rows():
    """A row of weight k counts as k copies of it: the same splits and exact decreases."""
    data = load(WEATHER)
    weights = [1 + (i % 3) for i in range(len(data.y))]
    rows = [dict(zip(data.features, r)) for r in _rows(data)]
    labels = [data.classes[c] for c in data.y.tolist()]
    dup_rows = [r for r, w in zip(rows, weights) for _ in range(w)]
    dup_labels = [lab for lab, w in zip(labels, weights) for _ in range(w)]
    cols = {f: [r[f] for r in dup_rows] for f in data.features}
    cols["play"] = dup_labels
    dup = from_records(cols, target="play", numeric=["temperature", "humidity"])
    a = build_tree(data, criterion="gini", sample_weight=weights)
    b = build_tree(dup, criterion="gini")
    for x, z in zip(a.nodes(), b.nodes()):
        assert (x.describe_path(), x.n) == (z.describe_path(), z.n)
        assert (x.chosen is None) == (z.chosen is None)
        if x.chosen is not None:
            assert x.chosen.decrease == z.chosen.decrease and x.chosen.improvement == z.chosen.improvement


def _rows(data):
    out = []
    for r in data.X.tolist():
        out.append([data.numbers[j][c] if data.kinds[j] == "numeric" else data.domains[j][c] for j, c in enumerate(r)])
    return out


def test_cart_classifier():
    from infotree import CARTClassifier

    X = [[1, "a"], [2, "b"], [3, "a"], [4, "b"], [5, "a"], [6, "b"]]
    y = ["n", "n", "y", "y", "y", "n"]
    clf = CARTClassifier().fit(X, y)
    assert clf.score_exact(X, y) == 1 and clf.tree_.criterion.name == "gini"
    assert clf.predict_proba_exact([[2, "a"]]).tolist() == [[Fraction(1), Fraction(0)]]
    weighted = CARTClassifier(max_depth=1).fit(X, y, sample_weight=[1, 1, 1, 1, 1, "1/2"])
    assert weighted.tree_.root.n == Fraction(11, 2)
    flipped = ["y"] + y[1:]  # the first row's label is wrong now: it weighs 2 of 7
    assert clf.score_exact(X, flipped, sample_weight=[2, 1, 1, 1, 1, 1]) == Fraction(5, 7)
    with pytest.raises(InfotreeError, match="ccp_alpha='x' is not allowed"):  # pruning itself: test_complexity.py
        CARTClassifier(ccp_alpha="x").fit(X, y)
    with pytest.raises(InfotreeError, match="criterion 'gain' is not a CART criterion"):
        CARTClassifier(criterion="gain").fit(X, y)
    with pytest.raises(InfotreeError, match=r"sample_weight\[1\] = -1 is not allowed; weights are non-negative numbers"):
        CARTClassifier().fit(X, y, sample_weight=[1, -1, 1, 1, 1, 1])


STAGEC = ROOT / "tests" / "data" / "stagec.csv"  # rpart's stagec (146 rows; g2, gleason, eet missing in some)


def _stagec(**kw):
    data = load(STAGEC, on_missing="keep", numeric="auto")
    return data, build_tree(data, criterion="gini", min_samples_split=20, min_leaf=7, cp="0.01", **kw)


def test_stagec_surrogates_as_rpart():
    """summary(rpart(progstat ~ ., stagec)): at the root grade < 2.5 with surrogate
    gleason < 5.5 agree=0.863 adj=0.672 (exactly 126/146 and 41/61); at node 3 g2 < 13.2
    with ploidy agree=0.962 adj=0.914 (76/79, 32/35) routing the 6 rows with g2 missing."""
    data, tree = _stagec()
    root = tree.root
    assert root.split_feature == "grade" and root.majority == 1
    g = root.surrogates[0]
    assert (g.feature, g.test.threshold, g.sides, g.agree, g.adj) == ("gleason", Fraction(11, 2), (0, 1),
                                                                       Fraction(63, 73), Fraction(41, 61))
    node3 = root.children[1]
    assert node3.split_feature == "g2" and node3.threshold == Fraction(66, 5)
    p = node3.surrogates[0]
    assert (p.feature, p.agree, p.adj, p.routed) == ("ploidy", Fraction(76, 79), Fraction(32, 35), 6)
    assert sum(ch.n for ch in node3.children) == node3.n  # use_surrogate 2: every row goes down
    from infotree.printers.impurity import impurity_steps

    steps = "\n".join(impurity_steps(tree, root))
    assert ("surrogate 1: gleason <= 5.5 goes left: it agrees with grade <= 2.5 on 126 of 146 rows "
            "(agree = 63/73); going with the majority agrees on 85, so adj = (126 - 85)/(146 - 85) = 41/61") in steps


def test_rows_stay_without_surrogates_and_predict_routes_as_training():
    """use_surrogate 0: the 6 rows with g2 missing stay at node 3 (its children hold 79 of 85);
    predicting a row with g2 missing follows ploidy, as the training rows did."""
    data, tree = _stagec(use_surrogate=0)
    node3 = tree.root.children[1]
    assert node3.n == 85 and sum(ch.n for ch in node3.children) == 79
    _, full = _stagec()
    row = dict(age=60, eet="yes", g2=None, grade=3, gleason=7, ploidy="diploid")
    lines = full.explain(row)
    assert lines[:2] == ["grade > 2.5 (split on grade: " + full.root.reason + ")",
                         "g2 is missing: surrogate ploidy sends it to g2 <= 13.2"]
    stay = tree.predict_proba([row])[0]  # use_surrogate 0: the row stops at node 3
    assert [stay[c] for c in tree.classes] == [Fraction(k, 85) for k in node3.class_counts.tolist()]


def test_cart_model_with_surrogates_round_trips(tmp_path):
    data, tree = _stagec()
    out = tmp_path / "m.json"
    with open(out, "w") as f:
        write_json(tree, f)
    doc = json.loads(out.read_text())
    s = doc["root"]["surrogates"][0]
    assert s == {"feature": "gleason", "test": {"kind": "threshold", "threshold": "5.5", "left_op": "<="},
                 "agree": "63/73", "adj": "41/61", "agreed": 126, "total": 146, "majority": 85, "count": 0}
    back = loads(out.read_text())
    assert back.predict_proba(data) == tree.predict_proba(data)


def test_numeric_column_without_known_values_at_a_node():
    """A numeric column missing in every row of a node has no cut (the float filter met an
    empty table: found by rpart_parity.py on car90 and cu.summary)."""
    data = from_records({"x": [None] * 4 + [1, 2, 3, 4], "g": ["a"] * 4 + ["b"] * 4,
                         "h": ["u", "v", "u", "v", "u", "u", "v", "v"], "y": ["p", "p", "p", "q", "q", "q", "q", "p"]},
                        target="y", numeric=["x"], on_missing="keep")
    tree = build_tree(data, criterion="gini", min_leaf=1)
    at = next(n for n in tree.nodes() if n.describe_path() == "x <= 3.5, g in {a}")  # x missing in all 4 rows
    assert [c.feature for c in at.candidates()] == ["h"]


def test_every_split_lists_each_threshold_and_subset_tried():
    """``every_split``: each feature lists every admissible cut and subset, each scored
    independently (Gini of the rows on each side, by sympy), its best among them, and
    as many as it says it tried; the tree itself does not change."""
    data = load(ROOT / "worked_examples" / "cart_gini" / "data.csv", numeric="auto")
    plain = build_tree(data, criterion="gini", min_samples_split=2, min_leaf=2)
    tree = build_tree(data, criterion="gini", min_samples_split=2, min_leaf=2, every_split=True)
    assert [n.test for n in tree.nodes()] == [n.test for n in plain.nodes()]
    rows = load_rows(ROOT / "worked_examples" / "cart_gini" / "data.csv")
    root = tree.root
    for c in root.candidates():
        every = c.every_split()
        assert len(every) == c.n_tried and max(s.decrease for s in every) == c.decrease
        j = c.index
        for s in every:
            left = [r for r in rows if s.split.route(_coded(data, j, r[data.features[j]])) == 0]
            right = [r for r in rows if r not in left]
            assert min(len(left), len(right)) >= 2

            def g(part):
                n = len(part)
                return 1 - sum(sympy.Rational(sum(1 for r in part if r["play"] == k), n) ** 2 for k in ("yes", "no"))
            decrease = g(rows) - sympy.Rational(len(left), 14) * g(left) - sympy.Rational(len(right), 14) * g(right)
            assert Fraction(int(decrease.p), int(decrease.q)) == s.decrease
    temps = sorted({Fraction(r["temperature"]) for r in rows})
    assert [s.split.threshold for s in by_feature(root, "temperature").every_split()] == \
           [(a + b) / 2 for a, b in zip(temps, temps[1:])][1:-1]  # min_leaf 2: not the outermost cuts


def by_feature(node, name):
    return next(c for c in node.candidates() if c.feature == name)


def load_rows(path):
    import csv

    with open(path, newline="", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f)]


def _coded(data, j, text):
    return Fraction(text) if data.kinds[j] == "numeric" else data.domains[j].index(text)


def test_splits_all_at_the_command_line(capsys):
    from infotree.cli import main

    path = str(ROOT / "worked_examples" / "regression_sse" / "data.csv")
    assert main(["tree", path, "--algorithm", "cart", "--criterion", "squared-error", "--min-samples-split", "2",
                 "--max-depth", "1", "--splits", "all", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for c in doc["root"]["candidates"]:
        assert len(c["every"]) == c["tried"]
        assert max(Fraction(e["decrease"]["exact"]) for e in c["every"]) == Fraction(c["decrease"]["exact"])
    assert main(["tree", path, "--splits", "all"]) == 1
    assert capsys.readouterr().err.strip() == ("infotree: error: --splits all applies to --algorithm cart "
                                               "(each feature's thresholds and subsets)")
