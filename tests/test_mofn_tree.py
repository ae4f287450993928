"""Trees grown with M-of-N tests (build_tree(m_of_n=True), infotree tree --m-of-n): the tests,
their exact gains, prediction, every printer, the saved model and the refusals."""

import io
import itertools
import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import build_tree, load
from infotree.data import from_arrays
from infotree.errors import InfotreeError
from infotree.model import dumps, loads
from infotree.mofn import grow_m_of_n
from infotree.printers import FORMATS, render

from exact_check import gain, vector

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
WEATHER = DATA / "weather.csv"


def planted():
    """y = yes when at least 2 of {x0 = 1, x1 = 1, x2 = 1}, over 8 binary features, every combination once
    (benchmarks/m_of_n.py's concept)."""
    X = [list(map(str, bits)) for bits in itertools.product((0, 1), repeat=8)]
    y = ["yes" if sum(int(r[i]) for i in range(3)) >= 2 else "no" for r in X]
    return X, y


def random_data(seed, n=40, m=4):
    rng = np.random.default_rng(seed)
    X = [[f"v{int(c)}" for c in rng.integers(0, 3, m)] for _ in range(n)]
    y = [("a", "b", "c")[int(rng.integers(0, 3))] for _ in range(n)]
    return from_arrays(X, y)


def as_text(data):
    """Each row as {feature: value text}: what routing by hand reads."""
    return [dict(zip(data.features, (data.domains[j][c] for j, c in enumerate(r)))) for r in np.asarray(data.X).tolist()]


def holding(tree, test, row):
    """How many of the test's conditions ``feature = value`` the row's texts satisfy (counted here)."""
    return sum(row[tree.features[j]] == tree.domains[j][v] for j, v in test.conditions)


def walk_with_rows(tree, rows_text):
    """(node, indices of the training rows reaching it), routing by counting conditions by hand."""
    stack = [(tree.root, list(range(len(rows_text))))]
    while stack:
        node, idx = stack.pop()
        yield node, idx
        if not node.is_leaf:
            test = node.test
            at_least = [i for i in idx if holding(tree, test, rows_text[i]) >= test.m]
            fewer = [i for i in idx if holding(tree, test, rows_text[i]) < test.m]
            stack += [(node.children[0], at_least), (node.children[1], fewer)]


DATASETS = [load(WEATHER), from_arrays(*planted())] + [random_data(s) for s in range(4)]


@pytest.mark.parametrize("data", DATASETS, ids=["weather", "planted"] + [f"random{s}" for s in range(4)])
def test_each_test_is_the_search_on_the_node_rows(data):
    """Every internal node's test is grow_m_of_n on exactly the rows that reach it (routed here by counting),
    its counts are those rows' classes, and a leaf is pure, or its grown test has gain 0."""
    tree = build_tree(data, m_of_n=True)
    rows = as_text(data)
    y = np.asarray(data.y)
    seen = 0
    for node, idx in walk_with_rows(tree, rows):
        assert node.class_counts.tolist() == np.bincount(y[idx], minlength=len(data.classes)).tolist()
        if node.is_leaf:
            if node.stop == "no_separation":  # impure, every row alike: no condition separates them
                assert len({tuple(rows[i].values()) for i in idx}) == 1 and len(set(y[idx].tolist())) > 1
            elif node.stop != "pure":
                assert node.stop == "mofn_zero_gain"
                assert grow_m_of_n(data, idx).best.candidate.gain == 0
            continue
        seen += 1
        search = grow_m_of_n(data, idx)
        assert node.test == search.best.split
        assert [(s.operator, s.split, s.candidate.table, s.tried) for s in node.mofn.steps] == \
            [(s.operator, s.split, s.candidate.table, s.tried) for s in search.steps]
    assert seen >= 1
    stops = {n.stop for n in tree.leaves()}
    assert stops <= {"pure", "no_separation", "mofn_zero_gain"}


@pytest.mark.parametrize("data", DATASETS, ids=["weather", "planted"] + [f"random{s}" for s in range(4)])
def test_gains_exact(data):
    """Each split's IG, exactly, against an independent computation (sympy's factorisation) of the table
    of its two branches counted here; and it is positive."""
    tree = build_tree(data, m_of_n=True)
    rows = as_text(data)
    y = np.asarray(data.y).tolist()
    for node, idx in walk_with_rows(tree, rows):
        if node.is_leaf:
            continue
        table = [[0] * len(data.classes) for _ in range(2)]
        for i in idx:
            table[0 if holding(tree, node.test, rows[i]) >= node.test.m else 1][y[i]] += 1
        assert vector(node.chosen.gain) == gain(table)
        assert node.chosen.gain > 0


def test_weather_root_gain_by_hand():
    """The weather root: 2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}
    sends 10 rows (1 no, 9 yes) one way and 4 (4 no) the other: IG = H(5,9) − 10/14·H(1,9)."""
    tree = build_tree(load(WEATHER), m_of_n=True)
    root = tree.root
    assert root.test.text == "2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}"
    assert [c.class_counts.tolist() for c in root.children] == [[1, 9], [4, 0]]
    assert str(root.chosen.gain) == "2/7 + log2(7) - 15/14*log2(5)"
    # H(5,9) = log2 14 − (5 log2 5 + 9 log2 9)/14, H(1,9) = log2 10 − 9 log2 9 / 10
    expected = {2: Fraction(1) - Fraction(10, 14), 7: Fraction(1), 5: Fraction(-5, 14) - Fraction(10, 14),
                3: Fraction(-18, 14) + Fraction(10, 14) * Fraction(18, 10)}
    assert vector(root.chosen.gain) == {p: c for p, c in expected.items() if c}


def test_planted_concept_learned_exactly():
    """The planted 2-of-3 concept is one M-of-N test: a tree of two leaves that predicts every row."""
    X, y = planted()
    tree = build_tree(from_arrays(X, y), m_of_n=True)
    assert sum(1 for _ in tree.leaves()) == 2 and len(tree) == 3
    assert tree.root.test.m == 2 and len(tree.root.test.conditions) == 3
    assert {j for j, _ in tree.root.test.conditions} == {0, 1, 2}
    assert tree.predict(X) == y
    # ID3 needs more leaves for the same concept
    assert sum(1 for _ in build_tree(from_arrays(X, y)).leaves()) > 2


def test_prediction_routes_by_counting():
    """predict, predict_proba and explain route every row by the number of conditions that hold."""
    data = load(WEATHER)
    tree = build_tree(data, m_of_n=True)
    for row in as_text(data) + [dict(outlook="overcast", temperature="mild", humidity="high", windy="TRUE"),
                                dict(outlook="sunny", temperature="hot", humidity="high", windy="TRUE")]:
        node = tree.root
        while not node.is_leaf:
            node = node.children[0 if holding(tree, node.test, row) >= node.test.m else 1]
        counts = node.class_counts.tolist()
        assert tree.predict([row]) == [node.label_name]
        assert tree.predict_proba([row]) == [{k: Fraction(c, sum(counts)) for k, c in zip(tree.classes, counts)}]
        lines = tree.explain(row)
        held = holding(tree, tree.root.test, row)
        assert lines[0].startswith(f"{held} of the 4 conditions {'holds' if held == 1 else 'hold'} (")
        branch = "at least" if held >= 2 else "fewer than"
        assert f"): {branch} 2 of {{outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}}" in lines[0]
        assert lines[-1].startswith(f"predict {node.label_name} (leaf: n = {node.n};")


def test_unseen_value_satisfies_no_condition():
    tree = build_tree(load(WEATHER), m_of_n=True)
    row = dict(outlook="foggy", temperature="mild", humidity="normal", windy="TRUE")  # 2 conditions hold
    with pytest.raises(InfotreeError, match="not seen in training"):
        tree.predict([row])
    assert tree.predict([row], unseen="majority") == tree.predict([dict(row, outlook="sunny")])


def _render(tree, fmt, **kw):
    buf = io.BytesIO() if fmt == "png" else io.StringIO()
    render(tree, buf, fmt=fmt, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f not in ("svg", "png", "dot", "tikz")])
def test_every_format_shows_the_tests(fmt):
    tree = build_tree(load(WEATHER), m_of_n=True)
    out = _render(tree, fmt, **({"steps": True} if fmt in ("text", "markdown", "latex") else {}))
    needle = "at least 2 of \\{outlook" if fmt == "latex" else "at least 2 of {outlook"
    assert needle in out
    assert ("fewer than 2 of \\{outlook" if fmt == "latex" else "fewer than 2 of {outlook") in out
    assert "None" not in out.replace('"none"', "").replace("value is None", "").replace("missing: None", "") or fmt == "json"
    assert "outlook at least" not in out and "outlook fewer" not in out


def test_graphs_name_the_test_in_the_box():
    """DOT and TikZ: the box names the test and its IG, the edges how many conditions hold."""
    tree = build_tree(load(WEATHER), m_of_n=True)
    dot = _render(tree, "dot")
    assert ('n0 [shape=box, label="2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}'
            '\\nIG = 0.6053"];') in dot
    assert 'n0 -> n1 [label="at least 2"];' in dot and 'n0 -> n4 [label="fewer than 2"];' in dot
    tikz = _render(tree, "tikz")
    assert "\\textbf{2 of \\{outlook = sunny, humidity = high\\}}" in tikz
    assert "branch={at least 2}" in tikz and "branch={fewer than 2}" in tikz


def test_text_tree_and_derivation():
    tree = build_tree(load(WEATHER), m_of_n=True)
    out = _render(tree, "text", nodes="root", steps=True)
    assert out.startswith(
        "at least 2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}\n"
        "|  at least 2 of {outlook = sunny, humidity = high}: no (1)\n"
        "|  fewer than 2 of {outlook = sunny, humidity = high}: yes (9)\n"
        "fewer than 2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}: no (4)\n")
    # the derivation: the one-feature table (nothing marked chosen), then the search with each step's gain
    assert "M-of-N test at root (14 rows; grown from the best single condition, as ID2-of-3)" in out
    assert "step 4: add a condition: M of N+1 (6 tests compared)" in out
    assert "IG = 2/7 + log2(7) - 15/14*log2(5) = 0.6053" in out
    assert "* chosen" not in out
    assert ("decision: split on 2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}: "
            "the M-of-N test grown from the best single condition (ID2-of-3)") in out
    # the worked solution too
    assert "step 1 (best single condition, 10 tests compared): 1 of {outlook = overcast}" in out


def test_j48_layout_and_probabilities():
    tree = build_tree(load(WEATHER), m_of_n=True)
    j48 = _render(tree, "text", nodes="none", weights="j48")
    assert "|   at least 2 of {outlook = sunny, humidity = high}: no (1.0)\n" in j48
    md = _render(tree, "markdown", nodes="none", smoothing="laplace")
    assert "|  fewer than 2 of {outlook = sunny, humidity = high}: yes (9) [no 1/11, yes 10/11]\n" in md


def test_rules_and_python_code():
    data = load(WEATHER)
    tree = build_tree(data, m_of_n=True)
    rules = _render(tree, "rules")
    assert ("Rule 3: if fewer than 2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}\n"
            in rules)
    code = _render(tree, "python")
    assert "held = (_text(row[\"outlook\"]) == \"overcast\")" in code and "if held >= 2:" in code
    space: dict = {}
    exec(code, space)
    rows = as_text(data)
    assert [space["predict"](r) for r in rows] == tree.predict(rows)


def test_drawings():
    pytest.importorskip("matplotlib")
    tree = build_tree(load(WEATHER), m_of_n=True)
    svg = _render(tree, "svg")
    assert svg.lstrip().startswith("<?xml") and "</svg>" in svg
    assert _render(tree, "png")[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_and_model_round_trip():
    data = load(WEATHER)
    tree = build_tree(data, m_of_n=True)
    doc = json.loads(_render(tree, "json", nodes="root"))
    assert doc["format"] == 4 and doc["params"]["m_of_n"] is True
    root = doc["root"]
    assert root["test"] == {"kind": "m_of_n", "m": 2, "conditions": [
        {"feature": "outlook", "value": "overcast"}, {"feature": "humidity", "value": "normal"},
        {"feature": "windy", "value": "FALSE"}, {"feature": "temperature", "value": "mild"}]}
    assert [s["text"] for s in root["m_of_n_search"]["steps"]][0] == "1 of {outlook = overcast}"
    assert root["m_of_n_search"]["stopped"] == "every feature is in the test"
    assert [c["value"] for c in root["children"]] == list(tree.root.test.labels)
    loaded = loads(dumps(tree))
    rows = as_text(data) + [dict(outlook="overcast", temperature="hot", humidity="high", windy="TRUE")]
    assert loaded.predict(rows) == tree.predict(rows)
    assert loaded.predict_proba(rows) == tree.predict_proba(rows)
    assert [n.test for n in loaded.nodes()] == [n.test for n in tree.nodes()]
    assert _render(loaded, "rules") == _render(tree, "rules")


def test_model_reader_refuses_bad_m_of_n():
    tree = build_tree(load(WEATHER), m_of_n=True)
    doc = json.loads(dumps(tree))
    for change, message in (
            (lambda d: d["root"]["test"].update(m=5), "an M-of-N node needs"),
            (lambda d: d["root"]["test"]["conditions"][0].update(value="foggy"), "'foggy' is not a value of 'outlook'"),
            (lambda d: d["root"].update(split="outlook"), "must read '2 of {"),
            (lambda d: d.update(format=3), "needs model format 4")):
        bad = json.loads(json.dumps(doc))
        change(bad)
        with pytest.raises(InfotreeError, match=message.replace("{", "\\{").replace("(", "\\(")):
            loads(json.dumps(bad))


def test_stops():
    data = load(WEATHER)
    assert build_tree(data, m_of_n=True, max_depth=1).root.children[0].stop == "max_depth"
    t = build_tree(data, m_of_n=True, min_samples_split=11)
    assert t.root.children[0].stop == "min_samples_split" and t.root.children[0].n == 10
    assert build_tree(data, m_of_n=True, min_gain="0.7").root.stop == "min_gain"
    # a feature independent of the class: every test grown has gain 0
    flat = build_tree(from_arrays([["a"], ["a"], ["b"], ["b"]], ["yes", "no", "yes", "no"]), m_of_n=True)
    assert flat.root.is_leaf and flat.root.stop == "mofn_zero_gain"
    assert flat.root.reason == "stopped: the M-of-N test grown here has information gain 0; majority leaf"
    same = build_tree(from_arrays([["a", "x"], ["a", "x"]], ["yes", "no"]), m_of_n=True)
    assert same.root.stop == "no_separation"


def test_reduced_error_pruning():
    data = load(WEATHER)
    rows = as_text(data)
    flipped = from_arrays([list(r.values()) for r in rows], ["yes"] * len(rows), feature_names=list(data.features),
                          target=data.target)
    t = build_tree(data, m_of_n=True, prune="reduced-error", validation=flipped)
    assert t.root.is_leaf and t.root.label_name == "yes"  # a leaf makes no validation error
    kept = build_tree(data, m_of_n=True, prune="reduced-error", validation=data)
    assert len(kept) == 5


@pytest.mark.parametrize("kw, message", [
    (dict(criterion="gain_ratio"), "criterion 'gain_ratio' is not allowed with m_of_n=True; allowed: 'gain'"),
    (dict(builder="levelwise"), "m_of_n=True needs the reference builder"),
    (dict(lookahead=1), "m_of_n=True cannot be combined with lookahead=1"),
    (dict(prune="pessimistic"), "prune 'pessimistic' is not allowed with m_of_n=True; allowed: none, reduced-error"),
    (dict(sample_weight=[1] * 14), "sample_weight is not allowed"),
    (dict(m_of_n="yes"), "m_of_n 'yes' is not allowed; give True (M-of-N tests) or False"),
])
def test_refusals(kw, message):
    with pytest.raises(InfotreeError, match=message.replace("(", "\\(").replace(")", "\\)")):
        build_tree(load(WEATHER), **{"m_of_n": True, **kw})


def test_refuses_numeric_and_missing():
    with pytest.raises(InfotreeError, match="feature 'temperature' is numeric; M-of-N tests"):
        build_tree(load(DATA / "weather.numeric.csv", numeric="auto"), m_of_n=True)
    with pytest.raises(InfotreeError, match="has missing values; M-of-N tests"):
        build_tree(load(DATA / "labor.csv", on_missing="keep"), m_of_n=True)


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "infotree", "tree", *map(str, args)], capture_output=True, text=True,
                          env=env)


def test_cli():
    p = _cli(WEATHER, "--m-of-n", "--nodes", "none")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "at least 2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}"
    for args, message in (
            ((DATA / "weather.numeric.csv", "--numeric", "auto"), "feature 'temperature' is numeric"),
            ((DATA / "labor.csv",), "has missing values; M-of-N tests (--m-of-n) need every value known"),
            ((WEATHER, "--criterion", "gain-ratio"), "--criterion gain-ratio is not allowed with --m-of-n"),
            ((WEATHER, "--algorithm", "cart"), "--criterion gini is not allowed with --m-of-n")):
        p = _cli(*args, "--m-of-n")
        assert p.returncode != 0 and p.stdout == ""
        assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
        assert message in p.stderr


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles(tmp_path):
    tree = build_tree(load(WEATHER), m_of_n=True)
    (tmp_path / "doc.tex").write_text(_render(tree, "latex", standalone=True, steps=True))
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]



def test_estimator_and_html():
    from infotree.estimators import ID3Classifier
    from infotree.printers.html import show

    X, y = planted()
    clf = ID3Classifier(m_of_n=True).fit(X, y)
    assert clf.get_params()["m_of_n"] is True and len(clf.tree_) == 3
    assert clf.predict(X).tolist() == y
    assert ID3Classifier().fit(X, y).tree_.root.test.__class__.__name__ == "NominalSplit"
    html = show(build_tree(load(WEATHER), m_of_n=True))._repr_html_()
    assert "M-of-N test at root (14 rows" in html and "at least 2 of {outlook" in html


def test_cli_predict_and_report(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "infotree", *map(str, args)], capture_output=True, text=True,
                              env=env)

    expected = build_tree(load(WEATHER), m_of_n=True).predict(as_text(load(WEATHER)))
    p = run("predict", "--train", WEATHER, WEATHER, "--m-of-n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == expected
    model = tmp_path / "m.json"
    assert run("tree", WEATHER, "--m-of-n", "--format", "json", "-o", model).returncode == 0
    p = run("predict", model, WEATHER)
    assert p.returncode == 0 and p.stdout.split() == expected
    p = run("predict", model, WEATHER, "--m-of-n")
    assert p.returncode != 0 and "--m-of-n grows the tree" in p.stderr and "Traceback" not in p.stderr
    report = tmp_path / "r.html"
    assert run("report", WEATHER, "--m-of-n", "-o", report).returncode == 0
    assert "M-of-N test at root" in report.read_text()


def test_forests_do_not_take_m_of_n():
    """A forest's feature draw is refused, and grow_together leaves M-of-N trees to the reference builder."""
    from infotree.growing import grow_together

    data = load(WEATHER)
    with pytest.raises(InfotreeError, match="a forest's feature draw is not allowed"):
        build_tree(data, m_of_n=True, feature_draw=lambda node: np.ones(4, bool))
    assert grow_together(data, [np.arange(14)], [None], m_of_n=True) is None


def test_worked_example():
    """worked_examples/m_of_n: the committee's rule is one test, 2 of the three referees' yes."""
    data = load(ROOT / "worked_examples" / "m_of_n" / "data.csv")
    tree = build_tree(data, m_of_n=True)
    assert tree.root.test.text == "2 of {referee1 = yes, referee2 = yes, referee3 = yes}"
    assert [c.class_counts.tolist() for c in tree.root.children] == [[8, 0], [0, 8]]
    assert tree.predict(as_text(data)) == [data.classes[c] for c in data.y.tolist()]
    assert [str(s.candidate.gain) for s in tree.root.mofn.steps] == ["-1 + 3/4*log2(3)", "3/2 - 3/4*log2(3)", "1"]
    assert vector(tree.root.mofn.steps[1].candidate.gain) == gain([[8, 4], [0, 4]])


def test_cli_evaluate():
    """evaluate --m-of-n cross-validates M-of-N trees: the pooled accuracy is recomputed here fold by fold."""
    from infotree.folds import assign

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    data = load(WEATHER)
    p = subprocess.run([sys.executable, "-m", "infotree", "evaluate", str(WEATHER), "--m-of-n", "--folds", "3"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("gain, unpruned, M-of-N tests\n")
    right = 0
    folds = assign(np.asarray(data.y), 3, 0)  # the folds evaluate draws; each fold's tree is grown here
    rows = as_text(data)
    for k in range(1, 4):
        tree = build_tree(data.subset(np.flatnonzero(folds != k)), m_of_n=True)
        held = [rows[i] for i in np.flatnonzero(folds == k)]
        truth = [data.classes[data.y[i]] for i in np.flatnonzero(folds == k)]
        right += sum(a == b for a, b in zip(tree.predict(held, unseen="majority"), truth))
    assert 0 < right < 14
    from infotree.printers.numbers import ratio_text

    assert f"accuracy = {ratio_text(right, 14)}\n" in p.stdout
