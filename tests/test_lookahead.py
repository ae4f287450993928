"""Lookahead 1: each candidate's two-level score, against brute force over every two-level split."""

import io
import itertools
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import CARTClassifier, ID3Classifier, build_tree, load
from infotree.data import from_arrays
from infotree.errors import InfotreeError
from infotree.printers import render

from exact_check import add, clean, entropy, value, vector

ROOT = Path(__file__).resolve().parent.parent
LOOK = ROOT / "worked_examples" / "lookahead" / "data.csv"
F = Fraction



def _cond_entropy(ys, groups) -> dict:
    """H(Y | groups) for rows partitioned by ``groups`` (a key per row)."""
    by = defaultdict(list)
    for y, g in zip(ys, groups):
        by[g].append(y)
    n = len(ys)
    out = defaultdict(Fraction)
    for members in by.values():
        out = add(out, entropy(list(Counter(members).values())), F(len(members), n))
    return out


def brute_lookahead_id3(X, y, j):
    """H(Y) − Σ_v p_v·min(H(Y|X=v), min_g H(Y|X=v,g)) over every other feature g."""
    n, m = len(y), len(X[0])
    total = entropy(list(Counter(y).values()))
    for v in sorted(set(r[j] for r in X)):
        rows = [i for i in range(n) if X[i][j] == v]
        ys = [y[i] for i in rows]
        options = [entropy(list(Counter(ys).values()))]
        options += [_cond_entropy(ys, [X[i][g] for i in rows]) for g in range(m) if g != j]
        best = min(options, key=value)
        total = add(total, best, -F(len(rows), n))
    return clean(total)


table = st.integers(1, 3).flatmap(lambda m: st.lists(
    st.tuples(st.lists(st.integers(0, 2), min_size=m, max_size=m), st.integers(0, 2)), min_size=2, max_size=14))


@settings(max_examples=40, deadline=None)
@given(table)
def test_id3_lookahead_is_the_two_level_gain(rows):
    """Every root candidate's lookahead equals H(Y) − Σ_v p_v·min_g H(Y|X=v,g), computed by brute force
    with sympy's factorisation; the root is the first feature of maximal lookahead."""
    X = [[str(v) for v in r] for r, _ in rows]
    y = [str(c) for _, c in rows]
    tree = build_tree(from_arrays(X, y), lookahead=1)
    if len(set(y)) < 2:
        assert tree.root.is_leaf
        return
    scores = {}
    for c in tree.root.candidates():
        assert clean(vector(c.lookahead)) == brute_lookahead_id3(X, y, c.index)
        scores[c.index] = c.lookahead
    eligible = {j: s for j, s in scores.items() if len(set(r[j] for r in X)) >= 2}
    if eligible and tree.root.split is not None:
        best = max(eligible.values())
        assert tree.root.split == min(j for j, s in eligible.items() if s == best)
        assert set(tree.root.ties) == {j for j, s in eligible.items() if s == best} - {tree.root.split}


def _gini(counts):
    n = sum(counts)
    return 1 - sum(F(k, n) ** 2 for k in counts) if n else F(0)


def _classes(ys, k):
    return [ys.count(c) for c in range(k)]


def _splits(values):
    """Every way to put a non-empty proper subset of the values on the left (each pair once)."""
    vals = sorted(values)
    for r in range(1, len(vals)):
        for left in itertools.combinations(vals, r):
            if vals[0] in left:
                yield set(left)


def _decrease(ys, xs, left, k):
    L = [y for y, x in zip(ys, xs) if x in left]
    R = [y for y, x in zip(ys, xs) if x not in left]
    n = len(ys)
    return _gini(_classes(ys, k)) - F(len(L), n) * _gini(_classes(L, k)) - F(len(R), n) * _gini(_classes(R, k))


def brute_lookahead_gini(X, y, j, k, left):
    """The decrease of X's split ``left`` (which must be a best one), then each side's best split by any feature."""
    n, m = len(y), len(X[0])
    xs = [r[j] for r in X]
    total = _decrease(y, xs, left, k)
    assert total == max(_decrease(y, xs, s, k) for s in _splits(set(xs)))
    for side in (True, False):
        rows = [i for i in range(n) if (X[i][j] in left) == side]
        ys = [y[i] for i in rows]
        best = F(0)
        for g in range(m):
            gs = [X[i][g] for i in rows]
            for s in _splits(set(gs)):
                best = max(best, _decrease(ys, gs, s, k))
        total += F(len(rows), n) * best
    return total


@settings(max_examples=40, deadline=None)
@given(table)
def test_cart_lookahead_is_the_two_level_decrease(rows):
    """Gini: each candidate's lookahead is its split's decrease plus each side's best second decrease,
    over every subset split of every feature (exact fractions)."""
    X = [list(r) for r, _ in rows]
    y = [c for _, c in rows]
    data = from_arrays([[str(v) for v in r] for r in X], [str(c) for c in y])
    tree = build_tree(data, criterion="gini", lookahead=1, min_samples_split=2)
    if tree.root.is_leaf and tree.root.stop == "pure":
        return
    codes = {int(v): i for i, v in enumerate(data.classes)}
    yc = [codes[c] for c in y]
    for c in tree.root.candidates():
        left = {int(data.domains[c.index][v]) for v in c.split.left}
        assert c.lookahead == brute_lookahead_gini(X, yc, c.index, len(data.classes), left)


def test_worked_example_roots():
    """XOR-like data: greedy ID3 and CART split on c; with lookahead both split on a, tied with b."""
    data = load(LOOK)
    for criterion in ("gain", "gini", "gain_ratio"):
        greedy = build_tree(data, criterion=criterion)
        ahead = build_tree(data, criterion=criterion, lookahead=1)
        assert greedy.root.split_feature == "c"
        assert ahead.root.split_feature == "a" and [ahead.features[j] for j in ahead.root.ties] == ["b"]
    by = {c.feature: c for c in build_tree(data, lookahead=1).root.candidates()}
    assert (by["a"].lookahead, by["b"].lookahead, by["c"].lookahead) == (1, 1, F(1, 2))
    by = {c.feature: c for c in build_tree(data, criterion="gini", lookahead=1).root.candidates()}
    assert (by["a"].lookahead, by["c"].decrease, by["c"].lookahead) == (F(1, 2), F(1, 8), F(1, 4))


def test_printers_show_both_scores():
    """The candidate table has the greedy and the lookahead column; JSON has "lookahead"; the reason says so."""
    tree = build_tree(load(LOOK), lookahead=1)
    out = io.StringIO()
    render(tree, out, nodes="root")
    text = out.getvalue()
    assert "IG (lookahead)" in text and "lookahead 1: IG (lookahead) = IG + (known fraction)" in text
    assert "split on a: maximal information gain after lookahead 1 (each feature scored by its best two-level " \
           "split); tied exactly with b" in text
    out = io.StringIO()
    render(tree, out, fmt="json", nodes="root")
    doc = json.loads(out.getvalue())
    assert doc["params"]["lookahead"] == 1
    assert [c["lookahead"]["exact"] for c in doc["root"]["candidates"]] == ["1", "1", "1/2"]
    out = io.StringIO()
    render(build_tree(load(LOOK)), out, fmt="json", nodes="root")
    assert "lookahead" not in out.getvalue()
    for fmt in ("markdown", "latex", "dot"):
        out = io.StringIO()
        render(tree, out, fmt=fmt, nodes="root")
        assert "lookahead" in out.getvalue()


def test_c45_lookahead_with_missing_values():
    """C4.5 with missing values: the lookahead is at least the greedy gain, and the tree still predicts."""
    data = load(ROOT / "tests" / "data" / "labor.arff", on_missing="keep", numeric="auto")
    tree = build_tree(data, criterion="gain_ratio", lookahead=1)
    for c in tree.root.candidates():
        if c.lookahead is not None:
            assert c.lookahead >= c.gain
    assert tree.root.split is not None


def test_bad_lookahead():
    """lookahead is 0 or 1; the level-wise builder refuses it; the CLI says so in one line."""
    data = load(LOOK)
    with pytest.raises(InfotreeError, match=r"lookahead 2 is not allowed; allowed: 0 \(greedy\), 1"):
        build_tree(data, lookahead=2)
    with pytest.raises(InfotreeError, match="lookahead=1 scores classification splits; criterion 'squared_error'"):
        build_tree(load(ROOT / "tests" / "data" / "weather.numeric.csv", target="temperature", numeric="auto"),
                   criterion="squared_error", lookahead=1)
    with pytest.raises(InfotreeError, match="lookahead=1 needs the reference builder"):
        build_tree(data, lookahead=1, builder="levelwise")
    assert ID3Classifier(lookahead=1).fit([["a", "x"], ["b", "x"]], ["p", "q"]).tree_.params["lookahead"] == 1
    assert CARTClassifier(lookahead=1).fit([["a"], ["b"]], ["p", "q"]).get_params()["lookahead"] == 1
    p = subprocess.run([sys.executable, "-m", "infotree", "tree", str(LOOK), "--lookahead", "2"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1 and "--lookahead" in p.stderr


def test_measures_at_a_node():
    """measures --lookahead 1 --at PATH shows both scores at that node (and node_at(lookahead=1) records them)."""
    from infotree.growing import node_at

    node = node_at(load(LOOK), [("c", "0")], lookahead=1)
    by = {c.feature: c for c in node.candidates()}
    # either feature, then the other, leaves pure grandchildren: the whole H(Y) of the node, 2 - 3/4*log2(3)
    assert by["a"].lookahead == by["b"].lookahead == node.entropy and by["a"].gain != by["b"].gain
    p = subprocess.run([sys.executable, "-m", "infotree", "measures", str(LOOK), "--lookahead", "1", "--at", "c=0"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0 and "IG (lookahead)" in p.stdout
