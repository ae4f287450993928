"""rpart's parms (issue 35): class priors, a loss matrix, split = "information".
Every value is derived by hand in the docstring (rpart's gini.c formulas)."""

from fractions import Fraction

import pytest

from infotree.cli import main
from infotree.data import from_records
from infotree.errors import InfotreeError
from infotree.model import dumps, loads
from infotree.growing import build_tree

DATA = {"x": [1, 2, 3, 4], "y": list("aaab")}


def _grow(**options):
    return build_tree(from_records(DATA, target="y", numeric=["x"]), criterion=options.pop("criterion", "gini"),
                      min_samples_split=2, min_leaf=1, cp=0, **options)


def test_priors_alter_the_counts_and_the_risk():
    """Priors 1/2, 1/2 on shares 3/4, 1/4: a row weighs π/f = 2/3 (a) or 2 (b).  The root's
    altered counts are (2, 2), Gini 1/2 over weight 4, so the perfect cut x < 3.5 improves
    4 · 1/2 = 2; the root's risk is min(1 · 2, 3 · 2/3) = 2 (a tie: class a)."""
    t = _grow(prior={"a": "1/2", "b": "1/2"})
    assert t.root.risk == 2 and t.root.label == 0
    assert t.root.chosen.improvement == 2 and t.root.chosen.decrease == Fraction(1, 2)
    assert [c.risk for c in t.root.children] == [0, 0]


def test_a_loss_matrix_changes_the_predicted_class():
    """Loss 4 for calling a b an a: predicting a risks 1 · 4, b risks 3 · 1, so the root
    predicts b with risk 3.  Altered priors a_i = π_i·ΣL[i] / Σπ·ΣL / f_i with π = f:
    Σπ·ΣL = 3/4 + 1/4 · 4 = 7/4, a = (3/4)/(7/4)/(3/4) = 4/7, b = 1/(7/4)/(1/4) = 16/7;
    altered counts (12/7, 16/7), weight 4, Gini 24/49, improvement 96/49."""
    t = _grow(loss=[[0, 1], [4, 0]])
    assert (t.root.label, t.root.risk, t.root.errors) == (1, 3, 3)
    assert t.root.chosen.improvement == Fraction(96, 49)


def test_information_with_a_loss_matrix_is_exact():
    """split = "information": the entropy of the altered proportions (3/7, 4/7), in bits,
    times the altered weight 4 is the improvement of the perfect cut."""
    import sympy

    t = _grow(criterion="entropy", loss=[[0, 1], [4, 0]])
    p, q = sympy.Rational(3, 7), sympy.Rational(4, 7)
    expected = 4 * -(p * sympy.log(p, 2) + q * sympy.log(q, 2))
    assert sympy.simplify(sympy.sympify(str(t.root.chosen.improvement).replace("log2", "_l2"),
                                        locals={"_l2": lambda v: sympy.log(v, 2)}) - expected) == 0


def test_costs_are_checked_as_rpart_checks_them():
    """Priors sum to 1, one per class; the loss matrix is square with a zero diagonal."""
    with pytest.raises(InfotreeError, match=r"^priors 1/2, 1/4 are not allowed: each at least 0, summing to 1"):
        _grow(prior=["1/2", "1/4"])
    with pytest.raises(InfotreeError, match=r"^the loss matrix must have zeros on its diagonal; row 'a' has 1$"):
        _grow(loss=[[1, 1], [1, 0]])
    with pytest.raises(InfotreeError, match=r"^priors and losses are rpart's"):
        _grow(criterion="misclassification", loss=[[0, 1], [1, 0]])


def test_costs_survive_a_json_model():
    """A saved model keeps the priors and losses; loaded, its risks are the same."""
    t = _grow(prior=["2/3", "1/3"], loss=[[0, 1], [2, 0]])
    back = loads(dumps(t))
    assert back.params["prior"] == {"a": "2/3", "b": "1/3"}
    assert [n.risk for n in back.nodes()] == [n.risk for n in t.nodes()]


def test_cli_split_prior_loss(tmp_path, capsys):
    """--split information is --criterion entropy; --prior and --loss inline or from a file."""
    path = tmp_path / "d.csv"
    path.write_text("x,y\n1,a\n2,a\n3,a\n4,b\n")
    (tmp_path / "loss.txt").write_text("0 1\n4 0\n")
    args = ["tree", str(path), "--numeric", "x", "--min-samples-split", "2", "--min-leaf", "1", "--format", "json"]
    assert main(args + ["--split", "information", "--loss", "0,1;4,0"]) == 0
    inline = capsys.readouterr().out
    assert '"criterion": "entropy"' in inline
    assert main(args + ["--split", "information", "--loss", str(tmp_path / "loss.txt")]) == 0
    assert capsys.readouterr().out == inline
    assert main(args + ["--algorithm", "cart", "--prior", "a=1/2,b=1/2"]) == 0
    assert '"prior": {"a": "1/2", "b": "1/2"}' in capsys.readouterr().out
    assert main(args + ["--split", "gini", "--criterion", "entropy"]) == 1
    assert "--split gini is --criterion gini" in capsys.readouterr().err
