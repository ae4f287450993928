"""The worked examples: each README is infotree's own output, and the published figures hold."""

import importlib.util
from fractions import Fraction
from pathlib import Path

import pytest

from infotree import (build_tree, conditional_entropy, entropy_of_labels, entropy_of_probabilities,
                      information_gain, load, parse_exact)
from infotree.decimals import decimal_text

ROOT = Path(__file__).resolve().parent.parent / "worked_examples"
spec = importlib.util.spec_from_file_location("generate", ROOT / "generate.py")
generate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate)


@pytest.mark.parametrize("name", generate.EXAMPLES)
def test_readme_is_current(name):
    """The committed README.md is byte for byte what infotree prints now."""
    assert (ROOT / name / "README.md").read_text(encoding="utf-8") == generate.build(name)


def test_main_readme_links_every_example():
    """The project README links to every worked example."""
    text = (ROOT.parent / "README.md").read_text(encoding="utf-8")
    for name in generate.EXAMPLES:
        assert f"worked_examples/{name}" in text


def cols(name):
    return generate._columns(ROOT / name / "data.csv")


def test_antibiotic_published_figures():
    """H(x1) = 0.3373, H(x1|y) = 0.125, I = 0.2123; x3 useless; the second level; predictions."""
    c = cols("antibiotic_resistance")
    y = c["y"]
    for x in ("x1", "x2"):
        hx = entropy_of_labels(c[x])
        assert hx == parse_exact("1/16*log2(16) + 15/16*log2(16/15)")
        assert decimal_text(hx, 4) == "0.3373"
        assert conditional_entropy(c[x], given=y) == Fraction(1, 8)
        assert decimal_text(hx - conditional_entropy(c[x], given=y), 4) == "0.2123"
        assert hx - conditional_entropy(c[x], given=y) == information_gain(y, given=c[x])
    assert entropy_of_labels(c["x3"]) == 1 and conditional_entropy(c["x3"], given=y) == 1
    sub = [i for i, v in enumerate(c["x1"]) if v == "1"]
    x2, x3, ys = ([c[k][i] for i in sub] for k in ("x2", "x3", "y"))
    assert decimal_text(entropy_of_labels(ys), 4) == "0.3534"
    assert decimal_text(entropy_of_labels(x2), 4) == "0.3534" and conditional_entropy(x2, given=ys) == 0
    assert decimal_text(entropy_of_labels(x3), 4) == "0.9968"
    assert decimal_text(conditional_entropy(x3, given=ys), 4) == "0.9333"
    assert decimal_text(entropy_of_labels(x3) - conditional_entropy(x3, given=ys), 4) == "0.0635"
    tree = build_tree(load(ROOT / "antibiotic_resistance" / "data.csv"))
    assert tree.root.split_feature == "x1" and [tree.features[j] for j in tree.root.ties] == ["x2"]
    new = [dict(x1=a, x2=b, x3=d) for a, b, d in [("0", "1", "0"), ("1", "0", "1"), ("1", "1", "0"), ("0", "0", "1")]]
    assert tree.predict(new) == ["1", "0", "1", "1"]


def test_play_tennis_published_figures():
    """Gains 0.2467/0.1518/0.0481/0.0292 (Mitchell's 0.246...); C4.5 outlook GR 0.1564, SI 1.5774."""
    data = load(ROOT / "play_tennis" / "data.csv")
    root = build_tree(data).root
    g = {c.feature: c.gain for c in root.candidates()}
    assert {k: decimal_text(v, 4) for k, v in g.items()} == {
        "outlook": "0.2467", "temperature": "0.0292", "humidity": "0.1518", "windy": "0.0481"}
    assert {k: decimal_text(v, 3) for k, v in g.items() if k != "outlook"} == {
        "temperature": "0.029", "humidity": "0.152", "windy": "0.048"}
    c45 = build_tree(data, criterion="gain_ratio").root.candidate("outlook")
    assert decimal_text(c45.gain_ratio, 4) == "0.1564" and decimal_text(c45.split_info, 4) == "1.5774"


def test_horse_race_and_twenty_questions():
    """The horse race has entropy exactly 2 bits; four equal outcomes 2 questions, the skewed 7/4."""
    assert entropy_of_probabilities(cols("horse_race")["probability"]) == 2
    c = cols("twenty_questions")
    assert entropy_of_probabilities(c["uniform"]) == 2
    assert entropy_of_probabilities(c["skewed"]) == Fraction(7, 4)


def test_xor_figures():
    """Every root gain is exactly 0; stopping at zero gain gives a leaf; the default a perfect tree."""
    data = load(ROOT / "xor" / "data.csv")
    full = build_tree(data)
    assert all(c.gain == 0 for c in full.root.candidates())
    assert build_tree(data, stop_at_zero_gain=True).root.is_leaf
    assert all(leaf.errors == 0 for leaf in full.leaves()) and full.root.split_feature == "x1"


def test_gain_ratio_vs_id_figures():
    """Information gain picks the id; gain ratio (plain and C4.5) does not."""
    data = load(ROOT / "gain_ratio_vs_id" / "data.csv")
    assert build_tree(data).root.split_feature == "id"
    assert build_tree(data, criterion="gain_ratio_plain").root.split_feature == "tear-prod-rate"
    assert build_tree(data, criterion="gain_ratio").root.split_feature == "tear-prod-rate"


def test_c45_missing_and_numeric_published_figures():
    """Quinlan (1993), ch. 3: 0.961, 0.747, 0.199, 1.809 bits, and leaves 3.4/0.4, 3.2, 2.4/0.4."""
    from infotree.measures import entropy

    data = load(ROOT / "c45_missing_and_numeric" / "data.csv", on_missing="keep", numeric="auto")
    tree = build_tree(data, criterion="gain_ratio")
    out = tree.root.candidate("outlook")
    known = [sum(c) for c in zip(*out.table)]
    assert known == [5, 8] and out.unknown == (0, 1)
    assert decimal_text(entropy(known), 3) == "0.961"
    assert decimal_text(out.conditional_entropy, 3) == "0.747"
    assert out.gain == Fraction(13, 14) * (entropy(known) - out.conditional_entropy)
    assert decimal_text(out.gain, 3) == "0.199"
    assert decimal_text(out.split_info, 3) == "1.809"
    assert tree.root.split_feature == "outlook"
    leaves = {(n.describe_path(), n.n, n.errors) for n in tree.leaves()}
    assert {l[1:] for l in leaves} == {(2, 0), (Fraction(44, 13), Fraction(5, 13)), (Fraction(42, 13), 0),
                                       (3, 0), (Fraction(31, 13), Fraction(5, 13))}
    # Rounded to one decimal as Quinlan prints them: 3.4/0.4, 3.2, 2.4/0.4.
    assert sorted(decimal_text(Fraction(n), 1) for _, n, _ in leaves) == ["2.0", "2.4", "3.0", "3.2", "3.4"]
    sunny = tree.root.children[0]
    assert sunny.split_feature == "humidity" and sunny.threshold == 75
