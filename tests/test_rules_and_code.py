"""The tree as if-then rules (printers/rules.py) and as a Python function (printers/python_code.py)."""

import doctest
import io
import re
from fractions import Fraction
from pathlib import Path

import pytest

from infotree import build_tree, from_records, load
from infotree.data import number_text
from infotree.errors import InfotreeError
from infotree.printers import python_code, render, rules

ROOT = Path(__file__).resolve().parent.parent
RULE = re.compile(r"Rule (\d+): +if (.*)\n +then (.+?) = (\S+) +covers (.*)\n")
COVER = re.compile(r"(\S+) \((.*)\), errors (\S+)")


def rendered(tree, fmt, **opts):
    out = io.StringIO()
    render(tree, out, fmt=fmt, **opts)
    return out.getvalue()


def holds(data, row, condition):
    """Whether row ``row`` of ``data`` meets ``feature op value``, read from the data, not the tree."""
    feature, op, value = condition
    j = data.features.index(feature)
    code = int(data.X[row, j])
    if code < 0:
        return False
    if op == "=":
        return data.domains[j][code] == value
    if op in ("in", "not in"):  # CART: a subset of the values, {a, b}
        inside = data.domains[j][code] in value[1:-1].split(", ")
        return inside if op == "in" else not inside
    x, t = data.numbers[j][code], Fraction(value)
    return x <= t if op == "<=" else x > t


def parse_conditions(text):
    out = []
    for part in text.split(" and "):
        m = re.fullmatch(r"(.+?) (=|<=|>|in|not in) (.+)", part)
        out.append(m.groups())
    return out


def test_docstring_examples(monkeypatch):
    """The examples in the two modules' docstrings run."""
    monkeypatch.chdir(ROOT)
    for module in (rules, python_code):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_rules_cover_what_the_data_says(worked_trees):
    """Every worked example without missing values: rule k's coverage and class counts are the rows of
    the data that meet its conditions, counted from the data; the rules partition the rows."""
    checked = 0
    for key, (tree, data) in worked_trees.items():
        if (data.X < 0).any():
            continue
        text = rendered(tree, "rules")
        found = RULE.findall(text)
        assert len(found) == sum(1 for _ in tree.leaves()), key
        owner = [0] * data.n_rows
        for k, conds, target, label, coverage in found:
            conds = parse_conditions(conds)
            rows = [i for i in range(data.n_rows) if all(holds(data, i, c) for c in conds)]
            for i in rows:
                owner[i] += 1
            if coverage == "0 (an empty branch: the parent's majority class)":
                assert rows == [], (key, k)
                continue
            if tree.criterion.regression:  # n, Σy, Σy², mean and SSE of the rows it covers
                ys = [Fraction(data.classes[data.y[i]]) for i in rows]
                mean = sum(ys) / len(ys)
                assert coverage == (f"{len(ys)} (Σy = {number_text(sum(ys))}, Σy² = {number_text(sum(y * y for y in ys))}, "
                                    f"mean {number_text(mean)}), SSE {number_text(sum((y - mean) ** 2 for y in ys))}"), (key, k)
                assert label == number_text(mean)
                continue
            cover, counts, errors = COVER.fullmatch(coverage).groups()
            by_class = [sum(1 for i in rows if data.y[i] == c) for c in range(len(data.classes))]
            assert target == data.target
            assert int(cover) == len(rows), (key, k)
            assert counts == ", ".join(f"{c}: {n}" for c, n in zip(data.classes, by_class)), (key, k)
            if rows:
                assert int(errors) == len(rows) - by_class[data.classes.index(label)], (key, k)
        assert owner == [1] * data.n_rows, key  # mutually exclusive and exhaustive
        checked += 1
    assert checked == len([1 for _, d in worked_trees.values() if not (d.X < 0).any()]) >= 11


def test_rules_fractional_weights(worked_trees):
    """C4.5 with a missing value: coverage and counts as J48's decimals, or exact fractions."""
    tree, _ = worked_trees["c45_missing_and_numeric/gain_ratio"]
    assert ("Rule 2: if outlook = sunny and humidity > 75\n        then play = no      "
            "covers 3.38 (no: 3, yes: 0.38), errors 0.38\n") in rendered(tree, "rules")
    assert "covers 44/13 (no: 3, yes: 5/13), errors 5/13" in rendered(tree, "rules", weights="exact")


def test_rules_single_leaf_and_empty_branch():
    """A single-leaf tree is one unconditional rule; an empty branch says it covers no rows."""
    one = build_tree(from_records([{"a": "x", "y": "k"}, {"a": "z", "y": "k"}]))
    assert "Rule 1: if always (the tree is a single leaf)\n        then y = k" in rendered(one, "rules")
    small = build_tree(from_records([
        {"a": "z", "b": "p", "y": "1"}, {"a": "z", "b": "q", "y": "1"}, {"a": "z", "b": "q", "y": "1"},
        {"a": "x", "b": "p", "y": "1"}, {"a": "x", "b": "r", "y": "0"}, {"a": "x", "b": "p", "y": "0"}]))
    assert "covers 0 (an empty branch: the parent's majority class)" in rendered(small, "rules")


def compiled(tree):
    namespace = {}
    exec(compile(rendered(tree, "python"), "<predict>", "exec"), namespace)
    return namespace["predict"]


def test_python_predicts_as_the_tree_on_every_worked_example(worked_trees):
    """The generated function's answer equals Tree.predict on every row of every worked example;
    a C4.5 row with a missing value gets None (the function says why) and Tree.predict its weighted answer."""
    n_missing = 0
    for key, (tree, data) in worked_trees.items():
        predict = compiled(tree)
        rows = [{f: ("?" if c < 0 else data.domains[j][c]) for j, (f, c) in enumerate(zip(data.features, r))}
                for r in data.X.tolist()]
        missing = [any(c < 0 for c in r) for r in data.X.tolist()]
        expected = tree.predict(rows)
        got = [predict(r) for r in rows]
        assert [g for g, m in zip(got, missing) if not m] == [e for e, m in zip(expected, missing) if not m], key
        assert all(g is None for g, m in zip(got, missing) if m), key
        n_missing += sum(missing)
    assert n_missing == 1  # the C4.5 example's one missing outlook


def test_python_unseen_value_and_numbers(worked_trees):
    """An unseen value raises ValueError naming it; numbers are read exactly ("75.0" is 75, 75.5 is > 75)."""
    tree, _ = worked_trees["play_tennis/gain"]
    with pytest.raises(ValueError, match=r"outlook = 'foggy' was not seen in training"):
        compiled(tree)({"outlook": "foggy", "temperature": "hot", "humidity": "high", "windy": "TRUE"})
    tree, _ = worked_trees["c45_missing_and_numeric/gain_ratio"]
    predict = compiled(tree)
    base = {"outlook": "sunny", "temperature": 70, "windy": "TRUE"}
    for humidity in ("75.0", 75, "75", 75.5, "7.55e1", 90):
        assert predict({**base, "humidity": humidity}) == tree.predict([{**base, "humidity": humidity}])[0]
    assert predict({**base, "humidity": None}) is None


def test_python_names_that_are_not_identifiers():
    """Features named like keywords, with spaces, quotes or digits first become valid variables;
    values and classes with quotes and backslashes stay exact string literals."""
    rows = [{"class": 'a"b', "2nd col": "x\\y", "row": "1", "y": "k'1"},
            {"class": "c", "2nd col": "x\\y", "row": "2", "y": "k2"},
            {"class": "c", "2nd col": "z", "row": "1", "y": "k'1"},
            {"class": 'a"b', "2nd col": "z", "row": "2", "y": "k2"}]
    tree = build_tree(from_records(rows))
    predict = compiled(tree)
    assert [predict(r) for r in rows] == tree.predict(rows) == ["k'1", "k2", "k'1", "k2"]


def test_python_threshold_literals():
    """A threshold prints as an integer, or as an exact Fraction literal (never a float)."""
    assert python_code._number("75") == "75"
    assert python_code._number("-2") == "-2"
    assert python_code._number("2.45") == 'Fraction("2.45")'
    assert python_code._number("1/3") == 'Fraction("1/3")'


def chain(n):
    """A tree n - 1 levels deep: one numeric feature cut again and again."""
    data = from_records({"x": [str(i) for i in range(n)], "y": ["a" if i % 2 else "b" for i in range(n)]},
                        numeric=["x"])
    return build_tree(data, criterion="gain_ratio_plain")


def test_python_deep_trees():
    """A tree 90 levels deep is written without recursion and runs; past Python's 100 levels of
    indentation the printer says so in one line instead of writing code that does not compile."""
    tree = chain(91)
    predict = compiled(tree)
    assert [predict({"x": str(i)}) for i in range(91)] == tree.predict([{"x": str(i)} for i in range(91)])
    with pytest.raises(InfotreeError) as e:
        rendered(chain(120), "python")
    assert str(e.value) == ("--format python writes nested if statements, and Python allows 100 levels; "
                            "this tree is 119 levels deep (grow it with --max-depth 95, or use --format rules)")


def test_cli_formats(tmp_path):
    """`infotree tree --format rules|python` write the same text as the printers."""
    from infotree.cli import main

    path = ROOT / "tests" / "data" / "weather.csv"
    tree = build_tree(load(path))
    for fmt in ("rules", "python"):
        out = tmp_path / f"t.{fmt}"
        assert main(["tree", str(path), "--format", fmt, "-o", str(out)]) == 0
        assert out.read_text(encoding="utf-8") == rendered(tree, fmt)
