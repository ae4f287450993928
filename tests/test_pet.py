"""Probability estimation trees: raw, Laplace and m-estimate leaf probabilities, exactly."""

import io
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import C45Classifier, CARTClassifier, ID3Classifier, build_tree, load
from infotree.data import from_arrays
from infotree.errors import InfotreeError
from infotree.printers import render
from infotree.smoothing import smoothing_named

ROOT = Path(__file__).resolve().parent.parent
PET = ROOT / "worked_examples" / "pet" / "data.csv"
F = Fraction


def run(*args):
    p = subprocess.run([sys.executable, "-m", "infotree", *args], capture_output=True, text=True,
                       env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    return p.returncode, p.stdout, p.stderr


def test_issue_example_five_of_fifteen():
    """The smooth leaf (5 of 15 pathogenic): raw 1/3, Laplace 6/17, m = 2 with prior 9/20: (5 + 9/10)/17."""
    tree = build_tree(load(PET))
    row = [{"colony": "smooth"}]
    assert tree.predict_proba(row)[0]["yes"] == F(1, 3)
    assert tree.predict_proba(row, smoothing="laplace")[0] == {"yes": F(6, 17), "no": F(11, 17)}
    assert tree.predict_proba(row, smoothing="m=2")[0] == {"yes": (5 + 2 * F(9, 20)) / 17, "no": (10 + 2 * F(11, 20)) / 17}
    # a leaf of one row: raw 0 and 1, smoothed away from them
    assert tree.predict_proba([{"colony": "mucoid"}], smoothing="laplace")[0]["yes"] == F(1, 3)
    assert tree.predict_proba([{"colony": "mucoid"}], smoothing="m=1/2")[0]["yes"] == F(9, 40) / F(3, 2)


def test_c45_fractional_weights_combine_exactly():
    """A row with x missing in training lands in both leaves with weight 1/2; a test row with x
    missing mixes the two leaves' smoothed probabilities by their shares (hand computation)."""
    X = [["a"], ["a"], ["a"], ["a"], ["b"], ["b"], ["b"], ["b"], [None]]
    y = ["yes", "yes", "yes", "no", "no", "no", "no", "yes", "yes"]
    clf = C45Classifier(smoothing="laplace").fit(X, y)
    assert list(clf.classes_) == ["no", "yes"]  # sorted, as scikit-learn
    leaves = {leaf.describe_path(): leaf.class_counts.tolist() for leaf in clf.tree_.leaves()}
    assert leaves == {"x0 = a": [1, F(7, 2)], "x0 = b": [3, F(3, 2)]}
    yes, no = 1, 0
    p = clf.predict_proba_exact([["a"], [None]])
    # leaf a: yes 7/2, no 1, n = 9/2: Laplace yes (9/2)/(13/2) = 9/13, no 2/(13/2) = 4/13
    assert (p[0][yes], p[0][no]) == (F(9, 13), F(4, 13))
    # leaf b: yes 3/2, no 3: yes (5/2)/(13/2) = 5/13, no 4/(13/2) = 8/13; a missing x: 1/2 each
    assert (p[1][yes], p[1][no]) == ((F(9, 13) + F(5, 13)) / 2, (F(4, 13) + F(8, 13)) / 2)
    # m-estimate, m = 2, prior yes 5/9, no 4/9 (the root: yes 5, no 4):
    # a: yes (7/2 + 10/9)/(13/2) = 83/117, no (1 + 8/9)/(13/2) = 34/117; b: 47/117, 70/117
    clf.set_params(smoothing="m=2")
    p = clf.predict_proba_exact([["a"], ["b"], [None]])
    assert (p[0][yes], p[0][no]) == (F(83, 117), F(34, 117))
    assert (p[1][yes], p[1][no]) == (F(47, 117), F(70, 117))
    assert (p[2][yes], p[2][no]) == (F(5, 9), F(4, 9))


def _random_tree(seed_rows, criterion):
    X = [[str(a), str(b)] for a, b, _ in seed_rows]
    y = [str(c) for _, _, c in seed_rows]
    return build_tree(from_arrays(X, y), criterion=criterion)


rows = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)), min_size=2, max_size=20)


@settings(max_examples=40, deadline=None)
@given(rows, st.sampled_from(["gain", "gain_ratio", "gini"]),
       st.sampled_from(["none", "laplace", "m=1", "m=3/2", "m=10"]))
def test_every_distribution_sums_to_one(data, criterion, smoothing):
    """Every leaf's smoothed distribution is Fractions summing to exactly 1, and matches the formula."""
    tree = _random_tree(data, criterion)
    prior = tree.root.class_counts.tolist()
    s = smoothing_named(smoothing)
    k = len(tree.classes)
    for leaf in tree.leaves():
        p = tree.probabilities(leaf, s)
        assert all(isinstance(q, Fraction) for q in p) and sum(p) == 1
        node = leaf if leaf.n else leaf.parent
        counts = [F(c) for c in node.class_counts.tolist()]
        n = sum(counts)
        if s.kind == "laplace":
            assert p == [(c + 1) / (n + k) for c in counts]
        elif s.kind == "m":
            assert p == [(c + s.m * F(q, sum(prior))) / (n + s.m) for c, q in zip(counts, prior)]
        else:
            assert p == [c / n for c in counts]


@pytest.mark.parametrize("bad", ["lap", "m=", "m=0", "m=-1", "m=x", "M=2", "laplace2", ""])
def test_bad_smoothing_is_one_line(bad):
    """A bad smoothing names itself and what is allowed."""
    with pytest.raises(InfotreeError) as e:
        smoothing_named(bad)
    assert str(e.value) == (f"unknown smoothing {bad!r}; allowed: none, laplace, m=M with M a positive number "
                            f"(m=2, m=1/2)")
    with pytest.raises(InfotreeError):
        ID3Classifier(smoothing=bad).fit([["a"], ["b"]], ["x", "y"])


def test_estimators_take_smoothing():
    """ID3, C4.5 and CART estimators smooth predict_proba; predict keeps the leaf's majority."""
    X, y = [["a"], ["a"], ["a"], ["b"]], ["p", "p", "q", "q"]
    for cls in (ID3Classifier, C45Classifier, CARTClassifier):
        clf = cls(smoothing="laplace", **({"min_samples_leaf": 1} if cls is CARTClassifier else {"min_objects": 1}))
        clf.fit(X, y)
        assert "smoothing" in clf.get_params()
        assert clf.predict_proba_exact([["a"]]).tolist() == [[F(3, 5), F(2, 5)]]
        assert clf.predict([["a"]]).tolist() == ["p"]


def _render(tree, fmt, smoothing):
    out = io.StringIO()
    render(tree, out, fmt=fmt, nodes="none", smoothing=smoothing)
    return out.getvalue()


def test_every_printer_shows_leaf_probabilities():
    """text, markdown, latex, dot print `[yes 6/17, no 11/17]`-style leaves; JSON has them exactly."""
    tree = build_tree(load(PET))
    assert "colony = smooth: no (15/5) [yes 6/17, no 11/17]" in _render(tree, "text", "laplace")
    assert "leaf probabilities: Laplace, (n_c + 1)/(n + 2)" in _render(tree, "text", "laplace")
    assert "colony = smooth: no (15/5) [yes 59/170, no 111/170]" in _render(tree, "markdown", "m=2")
    latex = _render(tree, "latex", "m=2")
    assert "[yes 59/170, no 111/170]\\par" in latex and "prior p\\_c the root's class distribution (yes 9/20, no 11/20)" in latex
    assert 'label="no (15/5)\\nyes 5, no 10\\nP: yes 1/3, no 2/3"' in _render(tree, "dot", "none")
    doc = json.loads(_render(tree, "json", "laplace"))
    assert doc["smoothing"] == "laplace"
    leaves = [c["node"] for c in doc["root"]["children"]]
    assert [leaf["probabilities"] for leaf in leaves] == [{"yes": "6/17", "no": "11/17"}, {"yes": "5/6", "no": "1/6"},
                                                          {"yes": "1/3", "no": "2/3"}]
    assert "probabilities" not in doc["root"]
    assert "probabilities" not in json.loads(_render(tree, "json", None))["root"]["children"][0]["node"]


def test_printer_refusals():
    """Formats without leaf probabilities, and J48's own text, refuse a smoothing in one line."""
    tree = build_tree(load(PET))
    with pytest.raises(InfotreeError, match="smoothing prints leaf probabilities in formats text, markdown, latex, "
                                            "json, dot, not 'rules'"):
        _render(tree, "rules", "laplace")
    regression = build_tree(load(ROOT / "tests" / "data" / "weather.numeric.csv", target="temperature", numeric="auto"),
                            criterion="squared_error")
    with pytest.raises(InfotreeError, match="smoothing gives class probabilities; a regression tree's leaves hold means"):
        _render(regression, "text", "laplace")
    with pytest.raises(InfotreeError, match="J48's own tree text, which has no leaf probabilities"):
        render(tree, io.StringIO(), weights="j48", smoothing="laplace")


def test_cli(tmp_path):
    """tree --smoothing and predict --proba --smoothing; bad values are usage errors on one line."""
    code, out, err = run("tree", str(PET), "--nodes", "none", "--smoothing", "m=2")
    assert code == 0 and "colony = rough: yes (4) [yes 49/60, no 11/60]" in out
    code, out, err = run("predict", "--train", str(PET), str(PET), "--proba", "--smoothing", "laplace")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "prediction,yes,no" and lines[1] == "no,6/17,11/17"
    code, out, err = run("tree", str(PET), "--smoothing", "m=0")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "argument --smoothing: invalid value 'm=0'; give none, laplace or m=M" in err
    code, out, err = run("predict", "--train", str(PET), str(PET), "--smoothing", "laplace")
    assert code == 2 and err == ("infotree predict: error: --smoothing applies to --proba (the predicted class is "
                                 "the leaf's majority either way)\n")
    code, out, err = run("tree", str(PET), "--format", "rules", "--smoothing", "laplace")
    assert code == 1 and err.count("\n") == 1 and "not 'rules'" in err
