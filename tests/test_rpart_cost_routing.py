"""rpart's per-variable costs (``cost=``) and rpart's routing of new rows (issue 35).
Every value is derived by hand in the docstrings (rpart's gini.c and branch.c rules)."""

import json
import pickle
from fractions import Fraction

import pytest

from infotree.cli import main
from infotree.data import from_records
from infotree.errors import InfotreeError
from infotree.model import dumps, loads
from infotree.growing import build_tree

# x1 separates the classes; x2 = p holds three a's, x2 = q one a and four b's.
COST = {"x1": [1, 1, 1, 1, 2, 2, 2, 2], "x2": list("pppqqqqq"), "y": list("aaaabbbb")}


def _cost_tree(cost):
    return build_tree(from_records(COST, target="y", numeric=["x1"]), criterion="gini", min_samples_split=2,
                      min_leaf=1, cp=0, surrogates=0, cost=cost)


def test_a_cost_divides_the_improvement_before_ranking():
    """Root Gini 1/2 over 8 rows.  x1's cut is pure: improvement 8 · 1/2 = 4.  x2: {p} holds
    3 a, {q} 1 a and 4 b, Gini 8/25 on 5 of 8 rows, decrease 1/2 − 1/5 = 3/10, improvement
    12/5.  With x1 costing 2, x1 ranks at 4/2 = 2 < 12/5 and x2 wins (rpart: x2 2.4, x1 2.0)."""
    plain = _cost_tree(None)
    assert plain.features[plain.root.split] == "x1" and plain.root.chosen.improvement == 4
    t = _cost_tree({"x1": 2})
    assert t.features[t.root.split] == "x2"
    assert t.root.chosen.improvement == Fraction(12, 5)
    assert {c.feature: c.improvement for c in t.root._candidates} == {"x1": 2, "x2": Fraction(12, 5)}
    assert t.params["cost"] == {"x1": "2"}
    # the node's risk and the children are those of the x2 split, unscaled
    assert [c.n for c in t.root.children] == [3, 5] and t.root.risk == 4


def test_an_exact_cost_tie_goes_to_the_first_column():
    """x1 costing 5/3 ranks at 4 · 3/5 = 12/5, exactly x2's: the first column, x1, wins."""
    t = _cost_tree([Fraction(5, 3), 1])
    assert t.features[t.root.split] == "x1" and t.root.chosen.improvement == Fraction(12, 5)
    assert [t.features[j] for j in t.root.ties] == ["x2"]


def test_costs_survive_a_saved_model_and_are_checked():
    t = loads(dumps(_cost_tree({"x1": "2"})))
    assert t.criterion.cost == (2, 1) and t.params["cost"] == {"x1": "2"}
    p = pickle.loads(pickle.dumps(_cost_tree({"x1": "2"})))
    assert p.criterion.cost == (2, 1) and p.root.chosen.improvement == Fraction(12, 5)
    with pytest.raises(InfotreeError, match="must be positive"):
        _cost_tree({"x1": 0})
    with pytest.raises(InfotreeError, match="names feature 'z'"):
        _cost_tree({"z": 2})
    with pytest.raises(InfotreeError, match="CART"):
        build_tree(from_records(COST, target="y", numeric=["x1"]), criterion="gain", cost={"x1": 2})


def test_cost_on_the_command_line(tmp_path, capsys):
    f = tmp_path / "d.csv"
    f.write_text("x1,x2,y\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(*COST.values())))
    assert main(["tree", str(f), "--algorithm", "cart", "--min-samples-split", "2", "--min-leaf", "1", "--cp", "0",
                 "--cost", "x1=2", "--format", "json"]) == 0
    root = json.loads(capsys.readouterr().out)["root"]
    assert root["split"] == "x2" and root["improvement"] == "12/5"
    assert main(["tree", str(f), "--algorithm", "cart", "--cost", "x1"]) != 0
    assert "is not COL=FACTOR" in capsys.readouterr().err


# Root: x < 8.5 sends the c's right; the left node (x 1..5) splits g = p (a) against q (b):
# level r never reaches it.  rpart 4.1.19 (maxsurrogate 0) predicts the held-out rows below
# a, c, b, a; infotree's own rules b, a, b, a.
ROUTE = {"x": [1, 2, 3, 4, 5, 12, 13, 14, 15, 16], "g": list("pqpqprrrrp"), "y": list("ababaccccc")}
NEW = {"x": ["3", "8.5", "2.5", "4"], "g": ["r", "p", "q", "s"], "y": list("aaaa")}


def _route_tree(**options):
    return build_tree(from_records(ROUTE, target="y", numeric=["x"]), criterion="gini", min_samples_split=2,
                      min_leaf=1, cp=0, surrogates=0, **options)


def test_rpart_routing_of_thresholds_and_absent_levels():
    """Row 1 (x 3, g r): r is absent at the g node, so rpart treats it as missing; with
    maxsurrogate 0 rpart keeps no majority direction either (its lastsurrogate stays 0), so
    the row stops at the g node, which predicts a (3 of its 5 rows); infotree sends a level
    outside {p} right, b.
    Row 2 (x = 8.5, the threshold): rpart's x < 8.5 fails, c; infotree's x <= 8.5 holds,
    then g = p, a.  Row 3 goes alike (b).  Row 4's level s was never seen: missing for rpart
    (a, the majority); infotree predicts the node's majority, a."""
    t = _route_tree()
    rows = [dict(zip(NEW, r)) for r in zip(*NEW.values())]
    assert t.predict(rows, unseen="majority", routing="rpart") == ["a", "c", "b", "a"]
    assert t.predict(rows, unseen="majority") == ["b", "a", "b", "a"]
    probs = t.predict_proba(rows[:2], unseen="majority", routing="rpart")
    assert probs[0] == {"a": Fraction(3, 5), "b": Fraction(2, 5), "c": 0} and probs[1]["c"] == 1
    g = next(n for n in t.nodes() if n.split is not None and t.features[n.split] == "g")
    assert sorted(g.test.values[i] for i in g.levels) == ["p", "q"]
    with pytest.raises(InfotreeError, match="routing 'weka' is not allowed"):
        t.predict(rows, routing="weka")


def test_a_saved_model_keeps_the_absent_levels():
    """The g node's test lists r as absent; the loaded model routes as the grown one.  A
    model whose test lacks the key (all levels present) loads with every level present."""
    t = _route_tree()
    text = dumps(t)
    assert '"absent": ["r"]' in text
    rows = [dict(zip(NEW, r)) for r in zip(*NEW.values())]
    assert loads(text).predict(rows, unseen="majority", routing="rpart") == ["a", "c", "b", "a"]
    assert loads(text.replace(', "absent": ["r"]', "")).predict(rows, unseen="majority", routing="rpart") == \
        ["b", "c", "b", "a"]
    with pytest.raises(InfotreeError, match='"absent" must list values'):
        loads(text.replace('"absent": ["r"]', '"absent": ["z"]'))


def test_routing_on_the_command_line(tmp_path, capsys):
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    train.write_text("x,g,y\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(*ROUTE.values())))
    test.write_text("x,g,y\n3,r,a\n8.5,p,a\n2.5,q,a\n")
    common = ["predict", "--train", str(train), str(test), "--algorithm", "cart", "--min-samples-split", "2",
              "--min-leaf", "1", "--cp", "0", "--surrogates", "0"]
    assert main(common + ["--routing", "rpart"]) == 0
    assert capsys.readouterr().out.split() == ["a", "c", "b"]
    assert main(common) == 0
    assert capsys.readouterr().out.split() == ["b", "a", "b"]
    assert main(["evaluate", str(train), "--test", str(test), "--algorithm", "cart", "--min-samples-split", "2",
                 "--min-leaf", "1", "--cp", "0", "--surrogates", "0", "--routing", "rpart", "--format", "json"]) == 0
    assert '"accuracy": "1/3"' in capsys.readouterr().out.replace(" ", "").replace('":"', '": "')


def _coded(tmp_path):
    f = tmp_path / "coded.csv"
    f.write_text("a,b,x,y\n" + "".join(f"{a},{b},{x},{y}\n" for a, b, x, y in
                                       zip([1, 2, 3, 1, 2, 3, 1, 3], [1, 1, 2, 2, 1, 2, 2, 1], range(8),
                                           "pqqpqqpq")))
    return f


def test_categorical_all_reads_every_feature_as_a_factor(tmp_path, capsys):
    """The integer codes 1, 2, 3 of a: as numbers, CART's best cut is a <= 1.5 (1 against 2, 3);
    as a factor, the subset {1} against {2, 3}: the same rows, written as levels."""
    f = _coded(tmp_path)
    common = ["tree", str(f), "--algorithm", "cart", "--min-samples-split", "2", "--min-leaf", "1", "--format", "json"]
    assert main(common) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["root"]["test"] == {"kind": "threshold", "threshold": "1.5"}
    assert doc["kinds"] == {"a": "numeric", "b": "numeric", "x": "numeric"}
    assert main(common + ["--categorical", "all"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["root"]["test"]["kind"] == "subset" and doc["root"]["split"] == "a"
    assert doc["domains"]["a"] == ["1", "2", "3"] and "numeric" not in doc["kinds"].values()
    # all but the one named numeric; a comma list is the repeated flag
    assert main(common + ["--categorical", "all", "--numeric", "x"]) == 0
    one = capsys.readouterr().out
    assert [k for k, v in json.loads(one)["kinds"].items() if v == "numeric"] == ["x"]
    assert main(common + ["--numeric", "x", "--categorical", "a,b"]) == 0
    assert capsys.readouterr().out == one
    assert main(common + ["--numeric", "x", "--categorical", "a", "--categorical", "b"]) == 0
    assert capsys.readouterr().out == one
    assert main(common + ["--categorical", "all,a"]) != 0
    assert "cannot be combined" in capsys.readouterr().err
    assert main(common + ["--categorical", "all", "--numeric", "all"]) != 0
    assert "cannot both hold" in capsys.readouterr().err


def test_numeric_all_refuses_a_word(tmp_path, capsys):
    f = tmp_path / "w.csv"
    f.write_text("a,b,y\n1,u,p\n2,v,q\n")
    assert main(["tree", str(f), "--numeric", "all"]) != 0
    assert "'b'" in capsys.readouterr().err
    assert main(["tree", str(f), "--numeric", "all", "--categorical", "b", "--format", "rules"]) == 0
