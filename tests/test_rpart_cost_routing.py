"""rpart's per-variable costs (``cost=``) and rpart's routing of new rows (issue 35).
Every value is derived by hand in the docstrings (rpart's gini.c and branch.c rules)."""

import json
from fractions import Fraction

import pytest

from infotree.cli import main
from infotree.data import from_records
from infotree.errors import InfotreeError
from infotree.model import dumps, loads
from infotree.tree import build_tree

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
