"""Saving and loading C4.5 trees: numeric splits, thresholds, fractional weights, pruning records."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from infotree.data import load
from infotree.errors import DataError
from infotree.model import dumps, load_model, loads, save_model
from infotree.growing import build_tree

DATA = Path(__file__).parent / "data"
MIXED = Path("/work/shared/datasets/mixed")
_TREES = {}


def dataset(name):
    path = DATA / f"{name}.arff"
    if not path.exists():
        path = MIXED / f"{name}.arff"
    if not path.exists():
        pytest.skip(f"{name}.arff is not available")
    return load(path, on_missing="keep")


def c45(name, prune="none"):
    if (name, prune) not in _TREES:
        data = dataset(name)
        _TREES[name, prune] = (data, build_tree(data, criterion="gain_ratio", prune=prune))
    return _TREES[name, prune]


def rows_of(data):
    """The data's rows as dicts of strings, missing values as '?'."""
    out = []
    for i in range(len(data.y)):
        out.append({f: ("?" if data.X[i, j] < 0 else data.domains[j][data.X[i, j]])
                    for j, f in enumerate(data.features)})
    return out


@pytest.mark.parametrize("name,prune", [("labor", "none"), ("labor", "pessimistic"),
                                        ("weather.numeric", "none"), ("vote", "pessimistic")])
def test_round_trip_predicts_the_same(name, prune, tmp_path):
    """A saved and loaded C4.5 tree gives the same exact probabilities, missing values included."""
    data, tree = c45(name, prune)
    path = tmp_path / "model.json"
    save_model(tree, path)
    loaded = load_model(path)
    rows = rows_of(data)
    # rows with every value missing combine all branches (J48's getProbs)
    rows.append({f: "?" for f in data.features})
    if name == "labor":
        assert sum("?" in r.values() for r in rows) > 50
    assert loaded.predict_proba(rows) == tree.predict_proba(rows)
    assert loaded.predict(rows) == tree.predict(rows)
    # thresholds, weights and pruning records come back exactly
    for a, b in zip(tree.nodes(), loaded.nodes()):
        assert (a.split, a.threshold, a.label, a.n, a.errors) == (b.split, b.threshold, b.label, b.n, b.errors)
        assert a.class_counts.tolist() == b.class_counts.tolist()
        assert a.pruned == b.pruned
    # saving the loaded model again gives the same file as saving it once more
    again = dumps(loaded)
    assert dumps(loads(again)) == again


def test_loaded_model_keeps_types_and_reasons():
    data, tree = c45("labor", "pessimistic")
    loaded = loads(dumps(tree))
    assert loaded.kinds == tree.kinds
    assert loaded.numbers[0] == tree.numbers[0]
    leaf = loaded.root.children[0]
    assert leaf.n == Fraction(855, 56) and leaf.errors == Fraction(127, 56)
    assert leaf.stop == "pruned" and leaf.reason.startswith("pruned (C4.5): estimated errors")
    assert loaded.root.children[1].describe_path() == "wage-increase-first-year > 2.5"
    row = {f: "?" for f in data.features}
    row["wage-increase-first-year"] = "4.5"
    row["statutory-holidays"] = "12"
    assert loaded.predict([row]) == ["good"]


def test_nominal_models_stay_format_1():
    """A nominal tree with integer counts is written as format 1 and read as before."""
    tree = build_tree(load(DATA / "weather.csv"), criterion="gain")
    doc = json.loads(dumps(tree))
    assert doc["format"] == 1
    doc.pop("kinds")
    for node in [doc["root"]]:
        node.pop("threshold"), node.pop("errors"), node.pop("pruned")
    loaded = loads(json.dumps(doc))
    row = dict(outlook="sunny", temperature="hot", humidity="high", windy="FALSE")
    assert loaded.predict([row]) == tree.predict([row]) == ["no"]


def _doc(name="weather.numeric", prune="none"):
    return json.loads(dumps(c45(name, prune)[1]))


def _error(doc) -> str:
    with pytest.raises(DataError) as e:
        loads(json.dumps(doc), source="m.json")
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_tampered_c45_models_name_the_node():
    doc = _doc()
    sunny = doc["root"]["children"][0]["node"]
    sunny["children"][0]["value"] = "<= 80"
    assert _error(doc) == ("m.json: node outlook = sunny: children of a split on 'humidity' at 75 must be "
                           "<= 75, > 75 in order")

    doc = _doc()
    doc["root"]["children"][0]["node"]["threshold"] = "seventy"
    assert _error(doc) == ("m.json: node outlook = sunny: 'seventy' is not a number as infotree writes one "
                           "(75, 2.5, -0.125 or 1/3)")

    doc = _doc()
    leaf = doc["root"]["children"][0]["node"]["children"][1]["node"]
    leaf["class_counts"]["no"] = "5/2"
    assert _error(doc).startswith("m.json: node outlook = sunny, humidity > 75: n = 3 but the class counts sum to")

    doc = _doc()
    doc["format"] = 1
    assert _error(doc) == ("m.json: node outlook = sunny: a split on numeric feature 'humidity' needs model format 2 "
                           "(this file says 1)")

    doc = _doc()
    doc["format"] = 5
    assert "which reads formats 1, 2, 3, 4" in _error(doc)

    doc = _doc("labor", "pessimistic")
    doc["root"]["children"][0]["node"]["pruned"]["estimated_errors"]["leaf"] = "many"
    assert _error(doc) == ("m.json: node wage-increase-first-year <= 2.5: pruning record: estimated errors "
                           "'leaf' must be a non-negative number")

    doc = _doc("labor", "pessimistic")
    doc["root"]["children"][1]["node"]["children"][0]["node"]["errors"] = "1"
    assert _error(doc).startswith("m.json: node wage-increase-first-year > 2.5, statutory-holidays <= 10: errors = 1 but")


def test_fractional_counts_need_format_2():
    tree = build_tree(load(DATA / "weather.csv"), criterion="gain")
    doc = json.loads(dumps(tree))
    leaf = doc["root"]["children"][1]["node"]
    leaf["class_counts"] = {"no": "0", "yes": "7/2"}
    leaf["n"] = "7/2"
    assert _error(doc) == "m.json: node outlook = overcast: count '7/2' is not a non-negative integer string"
