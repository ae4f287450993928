"""C4.5 in full: numeric attributes, missing values with exact weights, pruning.

The reference trees in tests/data/j48/ are Weka 3.6.14 J48's own output (see the
README there).  The tests print our trees in J48's line format with a formatter
written here from J48's rules (roundDouble to 2 places, doubleToString to 6), not
with infotree's printers, and compare line for line.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree.data import load
from infotree.errors import InfotreeError
from infotree.prune import add_errs
from infotree.growing import build_tree

DATA = Path(__file__).parent / "data"


def _half_up(x: Fraction, places: int) -> Fraction:
    scale = 10 ** places
    return Fraction(math.floor(Fraction(x) * scale + Fraction(1, 2)), scale)


def _java_double(x: Fraction) -> str:
    """Java's Double.toString of a value with at most 2 decimals (as J48 prints weights)."""
    if x.denominator == 1:
        return f"{x.numerator}.0"
    s = f"{float(x):.2f}".rstrip("0")
    return s


def _threshold(t: Fraction) -> str:
    """Weka's Utils.doubleToString(t, 6): half away from zero at 6 places, zeros stripped."""
    r = _half_up(abs(t), 6) * (1 if t >= 0 else -1)
    s = f"{float(r):.6f}".rstrip("0").rstrip(".")
    return s


def j48_lines(tree) -> list[str]:
    lines = []

    def label(node):
        e = node.errors
        w = _java_double(_half_up(Fraction(node.n), 2))
        if e > Fraction(1, 10 ** 6):
            return f"{node.label_name} ({w}/{_java_double(_half_up(Fraction(e), 2))})"
        return f"{node.label_name} ({w})"

    def walk(node, depth):
        f = tree.features[node.split]
        for i, child in enumerate(node.children):
            if node.threshold is not None:
                cond = f"{f} {'<=' if i == 0 else '>'} {_threshold(node.threshold)}"
            else:
                cond = f"{f} = {tree.domains[node.split][i]}"
            line = "|   " * depth + cond
            if child.split is None:
                lines.append(f"{line}: {label(child)}")
            else:
                lines.append(line)
                walk(child, depth + 1)

    if tree.root.split is None:
        lines.append(f": {label(tree.root)}")
    else:
        walk(tree.root, 0)
    return lines


def fixture_lines(name, mode) -> list[str]:
    text = (DATA / "j48" / f"{name}.{mode}.txt").read_text()
    tree_part = text.split("\n\nNumber of Leaves")[0]
    return [ln for ln in tree_part.splitlines() if ln.strip()]


def _load(name):
    return load(DATA / f"{name}.arff", on_missing="keep")


CASES = [(name, mode) for name in ("weather.numeric", "labor", "vote", "breast-cancer")
         for mode in ("unpruned", "pruned")]


@pytest.mark.parametrize("name,mode", CASES)
def test_same_tree_as_j48(name, mode):
    data = _load(name)
    tree = build_tree(data, criterion="gain_ratio", prune="pessimistic" if mode == "pruned" else "none")
    got = j48_lines(tree)
    want = fixture_lines(name, mode)
    # J48 prints an error weight in (1e-6, 0.005) as "/0.0"; ours rounds the same way.
    assert got == want


def test_weather_numeric_tree_and_exact_threshold():
    tree = build_tree(_load("weather.numeric"), criterion="gain_ratio")
    root = tree.root
    assert tree.features[root.split] == "outlook"
    sunny = root.children[tree.domains[root.split].index("sunny")]
    assert tree.features[sunny.split] == "humidity"
    assert sunny.threshold == Fraction(75)
    assert [c.n for c in sunny.children] == [2, 3]
    rainy = root.children[tree.domains[root.split].index("rainy")]
    assert tree.features[rainy.split] == "windy"


def test_midpoint_threshold_is_exact():
    tree = build_tree(_load("weather.numeric"), criterion="gain_ratio", threshold="midpoint")
    sunny = tree.root.children[0]
    # humidity at sunny: 70, 70, 85, 90, 95; the cut lies between 70 and 85.
    assert sunny.threshold == Fraction(155, 2)


def _column(data, name):
    j = data.features.index(name)
    return [None if c < 0 else (data.numbers[j][c] if data.kinds[j] == "numeric" else data.domains[j][c])
            for c in data.X[:, j].tolist()]


def test_labor_fractional_weights_are_exact():
    """The root's left leaf: 15 known rows plus the one missing row times 15/56."""
    data = _load("labor")
    tree = build_tree(data, criterion="gain_ratio", prune="pessimistic")
    root = tree.root
    assert tree.features[root.split] == "wage-increase-first-year"
    assert root.threshold == Fraction(5, 2)
    # Independent count from the raw column: known values <= 2.5, > 2.5, and missing.
    col = _column(data, "wage-increase-first-year")
    classes = [data.classes[c] for c in data.y.tolist()]
    left = [c for v, c in zip(col, classes) if v is not None and v <= Fraction(5, 2)]
    known = sum(v is not None for v in col)
    missing = [c for v, c in zip(col, classes) if v is None]
    share = Fraction(len(left), known)
    leaf = root.children[0]
    want = {k: left.count(k) + share * missing.count(k) for k in data.classes}
    assert dict(zip(tree.classes, leaf.class_counts.tolist())) == want
    assert leaf.n == Fraction(855, 56)            # J48 prints 15.27
    assert leaf.errors == Fraction(127, 56)       # J48 prints 2.27
    assert leaf.label_name == "bad"


def test_weights_are_conserved_exactly():
    """Every row's weight ends up in the leaves: the leaf weights sum to the row count."""
    for name in ("labor", "vote", "breast-cancer"):
        data = _load(name)
        tree = build_tree(data, criterion="gain_ratio", collapse=False)
        total = sum((Fraction(leaf.n) for leaf in tree.leaves()), Fraction(0))
        assert total == len(data.y)
        for node in tree.nodes():
            if node.split is not None:
                assert sum((Fraction(c.n) for c in node.children), Fraction(0)) == Fraction(node.n)


def test_gain_with_missing_values_is_known_fraction_times_known_gain():
    from infotree.measures import information_gain_from_table, split_information_from_table

    tree = build_tree(_load("vote"), criterion="gain_ratio")
    cand = tree.root.chosen
    assert cand.unknown is not None
    table = [list(r) for r in cand.table]
    known = sum(map(sum, table))
    n = known + sum(cand.unknown)
    assert cand.gain == information_gain_from_table(table) * Fraction(known, n)
    assert cand.split_info == split_information_from_table(table + [list(cand.unknown)])


def test_numeric_gain_has_the_mdl_term():
    from infotree.exact import Exact
    from infotree.measures import information_gain_from_table

    tree = build_tree(_load("weather.numeric"), criterion="gain_ratio")
    node = tree.root
    temp = node.candidate("temperature")
    assert temp.n_cuts >= 2
    assert temp.gain == information_gain_from_table([list(r) for r in temp.table]) - Exact.log2(temp.n_cuts) / 14


def test_prediction_with_missing_value_combines_branches():
    data = _load("weather.numeric")
    tree = build_tree(data, criterion="gain_ratio")
    row = {"outlook": "sunny", "temperature": 70, "humidity": "?", "windy": "FALSE"}
    p = tree.predict_proba([row])[0]
    # sunny: humidity <= 75 holds 2 rows (yes), > 75 holds 3 (no): shares 2/5 and 3/5.
    assert p == {"yes": Fraction(2, 5), "no": Fraction(3, 5)}
    assert tree.predict([row]) == ["no"]
    assert tree.predict([{**row, "humidity": "75"}]) == ["yes"]
    assert tree.predict([{**row, "humidity": 75.5}]) == ["no"]


def test_id3_refuses_missing_values_with_a_clear_error():
    with pytest.raises(InfotreeError, match="has missing values; criterion 'gain' does not accept them"):
        build_tree(_load("vote"), criterion="gain")


def test_add_errs_matches_weka():
    # Values from Weka 3.6.14's Stats.addErrs (docs/c45_rules.md 6.3); z differs by one ulp.
    assert add_errs(6, 0, 0.25) == pytest.approx(1.2377968440954012, abs=1e-12)
    assert add_errs(6, 1, 0.25) == pytest.approx(1.3035065579682552, abs=1e-12)
    assert add_errs(6, 0.5, 0.25) == pytest.approx(1.2706517010318281, abs=1e-12)
    assert add_errs(6, 5.6, 0.25) == pytest.approx(0.4, abs=1e-12)


def test_reduced_error_pruning_counts_validation_errors_exactly():
    data = _load("weather.numeric")
    grown = build_tree(data, criterion="gain_ratio")
    # Validation = the training rows: the grown tree is perfect on them, so nothing is pruned.
    same = build_tree(data, criterion="gain_ratio", prune="reduced-error", validation=data)
    assert len(same) == len(grown)
    assert same.root.pruned.validation_subtree == 0
    # Validation rows whose classes are all flipped: every split loses, the root becomes a leaf.
    flipped = data.subset(np.arange(len(data.y)))
    object.__setattr__(flipped, "y", np.asarray(1 - data.y, dtype=np.int32))
    pruned = build_tree(data, criterion="gain_ratio", prune="reduced-error", validation=flipped)
    assert pruned.root.split is None
    assert pruned.root.stop == "pruned"
    # As a leaf (majority yes) it misclassifies the 9 flipped "no" rows... of 14.
    assert pruned.root.pruned.validation_leaf == 9


def test_reduced_error_needs_validation():
    with pytest.raises(InfotreeError, match="needs a validation set"):
        build_tree(_load("weather.numeric"), criterion="gain_ratio", prune="reduced-error")


def test_c45_classifier_takes_numbers_and_nan():
    """The estimator reads float columns as numeric and NaN as missing (exact weights)."""
    from infotree import C45Classifier

    data = _load("weather.numeric")
    X = np.array([[data.numbers[1][r[1]], data.numbers[2][r[2]]] for r in data.X.tolist()], dtype=float)
    y = [data.classes[c] for c in data.y.tolist()]
    X[3, 1] = np.nan
    clf = C45Classifier().fit(X, y, feature_names=["temperature", "humidity"])
    assert clf.tree_.kinds == ("numeric", "numeric")
    assert clf.tree_.missing_slot
    total = sum((Fraction(leaf.n) for leaf in clf.tree_.leaves()), Fraction(0))
    assert total == 14
    p = clf.predict_proba_exact([[70.0, np.nan]])[0]
    assert sum(p) == 1 and all(isinstance(q, Fraction) for q in p)
