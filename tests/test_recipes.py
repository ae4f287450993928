"""docs/architecture.md's recipes, followed here step by step with toys that live in this test
module, not in the package: a criterion, an option.  If a recipe stops being true (a step
missing, a place the recipe does not name needing an edit), these tests fail."""

import dataclasses
import io
import math
from fractions import Fraction

import pytest

from infotree import InfotreeError, build_tree, load
from infotree.controls import CONTROLS, ID3Control, _count, _opt, control_for, families_taking
from infotree.criteria import CRITERIA, Criterion, _compare, _first_best
from infotree.printers import render

DATA = "tests/data/weather.csv"


# -- Adding a criterion: one class deriving from Criterion, one line in CRITERIA --------------------

class GainLessSplitInfo(Criterion):
    """A toy: maximal IG − SplitInfo (penalising many branches by subtraction, not division)."""

    name = "gain_less_split_info"
    algorithm = "id3"
    title = "maximal gain less split information"

    def best(self, cands):
        return _first_best(cands, lambda c: c.gain - c.split_info, _compare)


def _entropy(counts):
    n = sum(counts)
    return -sum(k / n * math.log2(k / n) for k in counts if k)


def test_a_criterion_added_as_the_recipe_says(monkeypatch):
    toy = GainLessSplitInfo()
    monkeypatch.setitem(CRITERIA, toy.name, toy)
    data = load(DATA)
    tree = build_tree(data, criterion=toy.name)  # the family's control, the reference builder
    # independently, in floats (no tie here): each feature's IG − SplitInfo at the root
    y = data.y
    scores = []
    for j in range(data.n_features):
        col = data.X[:, j]
        branches = [[int(y[i]) for i in range(len(y)) if col[i] == v] for v in range(len(data.domains[j]))]
        cond = sum(len(b) / len(y) * _entropy([b.count(k) for k in range(len(data.classes))]) for b in branches)
        gain = _entropy([list(y).count(k) for k in range(len(data.classes))]) - cond
        scores.append(gain - _entropy([len(b) for b in branches]))
    assert tree.root.split == max(range(len(scores)), key=scores.__getitem__)
    out = io.StringIO()
    render(tree, out, nodes="root")
    assert "maximal gain less split information" in out.getvalue()


# -- Adding an option: a field of the family's control, checked in __post_init__ --------------------

@dataclasses.dataclass(frozen=True)
class ToyID3Control(ID3Control):
    """ID3 with a toy option: at most this many leaves (checked; read by the builder from the control)."""

    max_leaves: int | None = _opt(None, "grow no more than this many leaves (a toy)")

    def __post_init__(self):
        ID3Control.__post_init__(self)
        if self.max_leaves is not None:
            _count(self.max_leaves, "max_leaves", 2, "at least 2,")


def test_an_option_added_as_the_recipe_says(monkeypatch):
    monkeypatch.setitem(CONTROLS, "id3", ToyID3Control)
    assert families_taking("max_leaves") == ("id3",)          # which algorithms take it: data
    assert isinstance(control_for(criterion="gain", max_leaves=3), ToyID3Control)
    with pytest.raises(InfotreeError, match="max_leaves 1 is not allowed; give a at least 2, integer"):
        control_for(criterion="gain", max_leaves=1)           # checked once, where it is defined
    with pytest.raises(InfotreeError, match="max_leaves applies to ID3"):
        control_for(criterion="gini", max_leaves=3)           # refused where it does nothing
    control = control_for(criterion="gain", max_leaves=3)
    assert build_tree(load(DATA), control).root.split is not None  # build_tree takes the control whole
    assert dataclasses.replace(control, max_leaves=None).max_leaves is None
    assert Fraction(control.confidence) == Fraction(1, 4)


# -- Adding a claim kind: a class with match() and check(), listed in check.checker.CLAIM_KINDS --------

class MajorityShare:
    """A toy claim kind: ``share(yes) = 9/14``, the fraction of the rows in a class."""

    import re as _re
    FORM = _re.compile(r"\s*share\(\s*(?P<cls>[^)]+?)\s*\)\s*=\s*(?P<answer>.+)")

    def __init__(self, checker):
        self.checker = checker

    def match(self, body):
        m = self.FORM.fullmatch(body)
        return None if m is None else ("share", m)

    def check(self, number, body, kind, m):
        from infotree.check.results import ClaimResult

        data = self.checker.data
        c = data.classes.index(m.group("cls"))
        value = Fraction(int((data.y == c).sum()), data.n_rows)
        got, verdict, message = self.checker.judge_chain(value, m.group("answer"))
        return ClaimResult(number, body, kind, verdict, answer=got.text, answer_value=got.value, expected=value,
                           quantity=f"share({m.group('cls')})", message=message)


def test_a_claim_kind_added_as_the_recipe_says(monkeypatch):
    from infotree.check import check_answers
    from infotree.check import checker

    monkeypatch.setattr(checker, "CLAIM_KINDS", [MajorityShare])
    report = check_answers("share(yes) = 9/14\nshare(no) = 0.357\nshare(no) = 0.9\nH(play) = 0.940\n",
                           load(DATA), criterion="gain")
    verdicts = [(r.kind, r.verdict) for r in report.results]
    assert verdicts == [("share", "right"), ("share", "right"), ("share", "wrong"), ("entropy", "right")], verdicts
