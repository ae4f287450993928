"""node_at (``measures --at``, ``check``) evaluates a node as the tree does, numeric columns included."""

import subprocess
import sys
from pathlib import Path

import pytest

from infotree import build_tree, load, node_at
from infotree.errors import InfotreeError

ROOT = Path(__file__).resolve().parent.parent


def _same_as_tree(data, criterion):
    tree = build_tree(data, criterion=criterion, collapse=False)
    compared = 0
    for node in tree.nodes():
        if node.split is None:
            continue
        at = node_at(data, node.path_conditions(), criterion=criterion)
        assert at.path_conditions() == node.path_conditions()
        assert (at.split, at.threshold, at.ties) == (node.split, node.threshold, node.ties)
        assert [(c.feature, c.table, c.threshold) for c in at.candidates()] == \
               [(c.feature, c.table, c.threshold) for c in node.candidates()]
        compared += 1
    return compared


@pytest.mark.parametrize("name, criterion", [
    ("tests/data/weather.numeric.arff", "gain_ratio"),
    ("tests/data/weather.numeric.csv", "gain_ratio_plain"),
    ("tests/data/weather.numeric.arff", "gain"),
])
def test_every_split_node_of_the_tree(name, criterion):
    """At every split node of a tree on numeric columns, node_at reaches the same rows and
    makes the same choice (the numeric columns were read as nominal below the root before)."""
    data = load(ROOT / name, numeric="auto" if name.endswith(".csv") else None)
    if (data.X < 0).any():  # node_at drops rows with a missing value on the path; the tree weighs them
        pytest.skip("missing values")
    assert _same_as_tree(data, criterion) >= 2


def test_numeric_root_is_cut():
    """At the root a numeric column is cut, not split per value (issue 25, item 1)."""
    data = load(ROOT / "tests/data/weather.numeric.arff")
    root = node_at(data, [], criterion="gain_ratio")
    assert [c.values for c in root.candidates() if c.feature == "humidity"] == [("<= 80", "> 80")]
    assert root.split_feature == build_tree(data, criterion="gain_ratio").root.split_feature == "outlook"


def test_step_of_the_wrong_kind():
    data = load(ROOT / "tests/data/weather.numeric.arff")
    with pytest.raises(InfotreeError, match=r"feature 'humidity' is numeric: a path step on it is humidity<=t or humidity>t"):
        node_at(data, [("humidity", "70")], criterion="gain_ratio")
    with pytest.raises(InfotreeError, match=r"feature 'outlook' is nominal: a path step on it is outlook=value"):
        node_at(data, [("outlook", "<=", "3")])


def test_measures_at_a_numeric_step():
    """`measures --at 'outlook=sunny,humidity<=75'` prints the node the C4.5 tree has there."""
    p = subprocess.run([sys.executable, "-m", "infotree", "measures", str(ROOT / "tests/data/weather.numeric.arff"),
                        "--criterion", "gain-ratio", "--at", "outlook=rainy,temperature<=70"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("Node: outlook = rainy, temperature <= 70\n")
