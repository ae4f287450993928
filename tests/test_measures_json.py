"""``infotree measures --format json`` (issue 31, item 8): every measure of a node, exact and as a float, in
the shape of ``tree``'s JSON. Values are checked against sympy and integer identities, not the printer."""

import json
import re
from pathlib import Path

import pytest
import sympy

from infotree.cli import main

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parent.parent / "worked_examples"


def measures(capsys, *argv):
    assert main(["measures", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def sym(exact: str):
    """An exact value of infotree's grammar ('1 + log2(7) - 9/7*log2(3)') as a sympy expression."""
    return sympy.sympify(re.sub(r"log2\(", "_log2(", exact), locals={"_log2": lambda x: sympy.log(x, 2)})


def h(*counts):
    n = sum(counts)
    return -sum(sympy.Rational(c, n) * sympy.log(sympy.Rational(c, n), 2) for c in counts if c)


def same(value, expected):
    """The JSON's {"exact", "float"} is the expected sympy value: exactly (50 digits) and as the float."""
    assert abs(sympy.N(sym(value["exact"]) - expected, 60)) < sympy.Rational(1, 10 ** 50)
    assert value["float"] == pytest.approx(float(expected), abs=1e-12)


def test_root_of_weather_every_measure(capsys):
    doc = measures(capsys, str(DATA / "weather.csv"))
    assert (doc["target"], doc["criterion"], doc["at"]) == ("play", "gain", [])
    node = doc["node"]
    assert node["n"] == "14" and node["class_counts"] == {"no": "5", "yes": "9"}
    same(node["entropy"], h(9, 5))
    assert round(node["entropy"]["float"], 4) == 0.9403
    by = {c["feature"]: c for c in node["candidates"]}
    assert list(by) == ["outlook", "temperature", "humidity", "windy"]
    # outlook: sunny (2 yes, 3 no), overcast (4, 0), rainy (3, 2)
    cond = sympy.Rational(5, 14) * h(3, 2) + sympy.Rational(4, 14) * h(4) + sympy.Rational(5, 14) * h(2, 3)
    same(by["outlook"]["conditional_entropy"], cond)
    same(by["outlook"]["gain"], h(9, 5) - cond)
    same(by["outlook"]["split_info"], h(5, 4, 5))
    same(by["outlook"]["gain_ratio"], (h(9, 5) - cond) / h(5, 4, 5))
    assert [(b["value"], b["n"], b["class_counts"]) for b in by["outlook"]["branches"]] == [
        ("sunny", "5", {"no": "3", "yes": "2"}), ("overcast", "4", {"no": "0", "yes": "4"}),
        ("rainy", "5", {"no": "2", "yes": "3"})]
    # windy: FALSE (6 yes, 2 no), TRUE (3, 3)
    same(by["windy"]["gain"], h(9, 5) - sympy.Rational(8, 14) * h(6, 2) - sympy.Rational(6, 14) * h(3, 3))
    assert node["split"] == "outlook" and "children" not in node


def test_at_a_node_and_cart(capsys):
    doc = measures(capsys, str(DATA / "weather.csv"), "--at", "outlook=sunny")
    assert doc["at"] == [["outlook", "sunny"]] and doc["node"]["n"] == "5"
    by = {c["feature"]: c for c in doc["node"]["candidates"]}
    same(by["humidity"]["gain"], h(2, 3))   # humidity separates sunny's rows: the gain is all of H
    # CART Gini at the root: Gini(play) = 1 - (9/14)^2 - (5/14)^2 = 45/98
    doc = measures(capsys, str(DATA / "weather.csv"), "--criterion", "gini")
    assert sym(doc["node"]["impurity"]["exact"]) == sympy.Rational(45, 98)


def test_regression_decrease(capsys):
    """ΔSSE of each feature's best split, recomputed here from the CSV with fractions."""
    import csv
    from fractions import Fraction

    path = EXAMPLES / "regression_sse" / "data.csv"
    rows = list(csv.DictReader(open(path)))
    doc = measures(capsys, str(path), "--criterion", "squared-error")
    assert doc["classes"] is None

    def sse(ys):
        mean = Fraction(sum(ys), len(ys))
        return sum((y - mean) ** 2 for y in ys)

    price = [Fraction(r["price"]) for r in rows]
    for c in doc["node"]["candidates"]:
        test = c["test"]
        if test["kind"] == "subset":
            left = [r[c["feature"]] in test["left"] for r in rows]
        else:
            left = [Fraction(r[c["feature"]]) <= Fraction(test["threshold"]) for r in rows]
        expected = sse(price) - sse([p for p, s in zip(price, left) if s]) - sse([p for p, s in zip(price, left) if not s])
        assert sym(c["decrease"]["exact"]) == sympy.Rational(expected.numerator, expected.denominator), c["feature"]
    assert [c["feature"] for c in doc["node"]["candidates"]] == ["area", "size"]


def test_json_is_deterministic_and_m_of_n(capsys):
    argv = [str(DATA / "weather.csv"), "--at", "outlook=rainy"]
    assert main(["measures", *argv, "--format", "json"]) == 0
    first = capsys.readouterr().out
    assert main(["measures", *argv, "--format", "json"]) == 0
    assert capsys.readouterr().out == first
    doc = measures(capsys, str(DATA / "weather.csv"), "--m-of-n")
    assert doc["m_of_n_search"]["steps"][0]["text"] == "1 of {outlook = overcast}"
