"""M-of-N tests: the split, the ID2-of-3-style search and its exact gains, the measures command."""

import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infotree import load
from infotree.data import from_arrays
from infotree.errors import InfotreeError
from infotree.mofn import GENERAL, SEED, SPECIFIC, grow_m_of_n
from infotree.splits import MofNSplit

from exact_check import gain, value, vector

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.csv"


def test_split():
    """Labels, condition and routing of 2 of {x0 = 1, x2 = 0}."""
    s = MofNSplit(2, ((0, 1), (2, 0)), ("x0 = 1", "x2 = 0"))
    assert s.feature == 0 and s.text == "2 of {x0 = 1, x2 = 0}"
    assert s.labels == ("at least 2 of {x0 = 1, x2 = 0}", "fewer than 2 of {x0 = 1, x2 = 0}")
    assert s.condition(1) == ("fewer than", "2 of {x0 = 1, x2 = 0}")
    assert [s.route(r) for r in ([1, 5, 0], [1, 5, 1], [0, 5, 0], [-1, 5, 0])] == [0, 1, 1, 1]


def test_planted_two_of_three():
    """y = at least 2 of {x0 = 1, x1 = 1, x2 = 1} over 6 binary features: the search finds the same split
    as 2 of {x0 = 0, x1 = 0, x2 = 0} (its complement: the value 0 comes first), with gain H(Y) = 1."""
    X = [list(map(str, bits)) for bits in itertools.product((0, 1), repeat=6)]
    y = ["yes" if sum(int(r[i]) for i in range(3)) >= 2 else "no" for r in X]
    s = grow_m_of_n(from_arrays(X, y))
    assert s.best.split.m == 2 and s.best.split.names == ("x0 = 0", "x1 = 0", "x2 = 0")
    assert [st.operator for st in s.steps] == [SEED, GENERAL, SPECIFIC]
    assert s.best.candidate.gain == 1  # 32 of 64 rows each way: a pure split of a balanced class
    assert s.best.candidate.gain > s.best_feature.gain


def _brute(X, y, split):
    rows = np.asarray(X)
    classes = sorted(set(y))
    tab = [[0] * len(classes), [0] * len(classes)]
    for r, c in zip(rows.tolist(), y):
        tab[split.route(r)][classes.index(c)] += 1
    return tab


table = st.integers(2, 4).flatmap(lambda m: st.lists(
    st.tuples(st.lists(st.integers(0, 2), min_size=m, max_size=m), st.integers(0, 1)), min_size=3, max_size=16))


@settings(max_examples=40, deadline=None)
@given(table)
def test_search_gains_are_exact_and_greedy(rows):
    """Each step's gain equals the IG of its two branches computed independently (sympy's factorint),
    strictly increases, and is the best of every move the operators allow (brute force)."""
    X = [[str(v) for v in r] for r, _ in rows]
    y = [str(c) for _, c in rows]
    data = from_arrays(X, y)
    codes = np.asarray(data.X).tolist()
    try:
        s = grow_m_of_n(data)
    except InfotreeError as e:
        assert "separates" in str(e)
        return
    labels = [data.classes[c] for c in data.y.tolist()]
    for step in s.steps:
        assert vector(step.candidate.gain) == gain(_brute(codes, labels, step.split))
    for a, b in zip(s.steps, s.steps[1:]):
        assert b.candidate.gain > a.candidate.gain
    literals = [(j, v) for j in range(len(data.features)) for v in range(len(data.domains[j]))
                if 0 < sum(1 for r in codes if r[j] == v) < len(codes)]
    seed = max(value(gain(_brute(codes, labels, MofNSplit(1, (lit,), ("",))))) for lit in literals)
    assert abs(value(vector(s.steps[0].candidate.gain)) - seed) < 1e-12
    last = s.best.split
    used = {j for j, _ in last.conditions}
    moves = [MofNSplit(m, last.conditions + (lit,), ("",) * (len(last.conditions) + 1))
             for lit in literals if lit[0] not in used for m in (last.m, last.m + 1)]
    best_move = max((value(gain(_brute(codes, labels, mv))) for mv in moves), default=None)
    if best_move is not None:
        assert best_move <= value(vector(s.best.candidate.gain)) + 1e-12


def test_weather_search_and_cli():
    """measures --m-of-n prints each step with its exact gain; a numeric path and latex are refused."""
    s = grow_m_of_n(load(WEATHER))
    assert [st.split.text for st in s.steps][-1] == \
        "2 of {outlook = overcast, humidity = normal, windy = FALSE, temperature = mild}"
    assert str(s.best.candidate.gain) == "2/7 + log2(7) - 15/14*log2(5)"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    p = subprocess.run([sys.executable, "-m", "infotree", "measures", str(WEATHER), "--m-of-n"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0
    assert "step 4: add a condition: M of N+1 (6 tests compared)" in p.stdout
    assert "IG = 2/7 + log2(7) - 15/14*log2(5) = 0.6053" in p.stdout
    assert "is more than the best one-feature split's: outlook (one branch per value), IG 0.2467" in p.stdout
    p = subprocess.run([sys.executable, "-m", "infotree", "measures", str(ROOT / "tests" / "data" / "weather.numeric.csv"),
                        "--m-of-n", "--numeric", "auto", "--at", "humidity<=80"], capture_output=True, text=True, env=env)
    assert p.returncode == 1 and p.stderr == ("infotree: error: --m-of-n follows nominal paths only; 'humidity' "
                                              "is numeric\n")
    p = subprocess.run([sys.executable, "-m", "infotree", "measures", str(WEATHER), "--m-of-n", "--format", "latex"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "\\textbf{M-of-N test at root (14 rows; grown from the best single condition, as ID2-of-3)}" in p.stdout
    assert "$\\mathrm{IG} = " in p.stdout and "\\begin{longtable}" in p.stdout


def test_nothing_to_separate():
    """A node where no condition separates the rows is a one-line error."""
    with pytest.raises(InfotreeError, match="no condition feature = value separates the rows here"):
        grow_m_of_n(from_arrays([["a"], ["a"]], ["x", "y"]))
