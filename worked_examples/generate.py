"""Regenerate every worked example's README.md from infotree's own output.

    python worked_examples/generate.py          # rewrite the READMEs
    python worked_examples/generate.py --check  # exit 1 if any README differs

Each README is a few lines of context plus what infotree prints (Markdown).
``tests/test_worked_examples.py`` regenerates them and compares byte for byte.
"""

from __future__ import annotations

import csv
import io
import sys
from fractions import Fraction
from pathlib import Path

from infotree import (build_tree, conditional_entropy, entropy_of_labels, entropy_of_probabilities,
                      load, mutual_information, parse_exact)
from infotree.exact import Exact, decimal_text
from infotree.forms import conditional_entropy_form, entropy_form
from infotree.printers import render

HERE = Path(__file__).resolve().parent
EXAMPLES = ("antibiotic_resistance", "play_tennis", "horse_race", "twenty_questions", "xor",
            "gain_ratio_vs_id", "contact_lenses", "c45_missing_and_numeric", "cart_gini", "regression_sse", "pet",
            "lookahead", "cost_complexity", "bagging", "m_of_n", "poisson_insurance", "survival_aml")

#: every tree the examples grow: (example, criterion, how its data is read); the tests draw
#: each one and run its rules and predict function
TREES = (("antibiotic_resistance", "gain", {}), ("play_tennis", "gain", {}), ("play_tennis", "gain_ratio", {}),
         ("xor", "gain", {}), ("gain_ratio_vs_id", "gain", {}), ("gain_ratio_vs_id", "gain_ratio_plain", {}),
         ("contact_lenses", "gain", {}), ("contact_lenses", "gain_ratio", {}),
         ("c45_missing_and_numeric", "gain_ratio", {"on_missing": "keep", "numeric": "auto"}),
         # CART on the same data: subset and threshold splits
         ("play_tennis", "gini", {}), ("contact_lenses", "gini", {}),
         ("c45_missing_and_numeric", "gini", {"on_missing": "value", "numeric": "auto"}),
         ("cart_gini", "gini", {"numeric": "auto"}), ("regression_sse", "squared_error", {"numeric": "auto"}),
         ("pet", "gain", {}), ("lookahead", "gain", {}), ("m_of_n", "gain", {}))


def _tree_md(tree, *, steps=True, nodes="all") -> str:
    out = io.StringIO()
    render(tree, out, fmt="markdown", steps=steps, nodes=nodes)
    # Demote the printer's headings by one level under the example's own sections.
    return "\n".join("#" + line if line.startswith("#") else line for line in out.getvalue().splitlines()) + "\n"


def _columns(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return {name: [r[i] for r in rows[1:]] for i, name in enumerate(rows[0])}


def _d(x, digits=4):
    return decimal_text(x, digits)


def _table(rows_of, cols_of):
    """Value-by-class table of cols_of given rows_of, in first-appearance order."""
    rv = list(dict.fromkeys(rows_of))
    cv = list(dict.fromkeys(cols_of))
    return [[sum(1 for a, b in zip(rows_of, cols_of) if a == r and b == c) for c in cv] for r in rv]


def _counts(col):
    return [col.count(v) for v in dict.fromkeys(col)]


def _code(lines):
    return "```text\n" + "\n".join(lines) + "\n```\n"


# -- 1 -----------------------------------------------------------------------------------

def antibiotic_resistance() -> str:
    path = HERE / "antibiotic_resistance" / "data.csv"
    c = _columns(path)
    y = c["y"]
    lines = []
    for x in ("x1", "x2", "x3"):
        hx = entropy_of_labels(c[x])
        hxy = conditional_entropy(c[x], given=y)
        hy = entropy_of_labels(y)
        hyx = conditional_entropy(y, given=c[x])
        lines += [
            f"H({x}) = {entropy_form(_counts(c[x]), style='inverse')} = {_d(hx)}",
            f"H({x}|y) = {conditional_entropy_form(_table(y, c[x]))} = {_d(hxy)}",
            f"I({x},y) = H({x}) - H({x}|y) = {_d(hx - hxy)}      exact: {hx - hxy}",
            f"         = H(y) - H(y|{x}) = {_d(hy - hyx)}      exact: {hy - hyx}"
            f"   (equal exactly: {hx - hxy == hy - hyx})",
            "",
        ]
    sub = [i for i, v in enumerate(c["x1"]) if v == "1"]
    cy = [y[i] for i in sub]
    second = []
    for x in ("x2", "x3"):
        cx = [c[x][i] for i in sub]
        hx = entropy_of_labels(cx)
        hxy = conditional_entropy(cx, given=cy)
        second += [
            f"H({x}|x1=1) = {entropy_form(_counts(cx), style='inverse')} = {_d(hx)}",
            f"H({x}|y,x1=1) = {conditional_entropy_form(_table(cy, cx))} = {_d(hxy)}",
            f"I({x},y|x1=1) = H({x}|x1=1) - H({x}|y,x1=1) = {_d(hx - hxy)}      exact: {hx - hxy}",
            "",
        ]
    tree = build_tree(load(path))
    new = [dict(x1=a, x2=b, x3=cc) for a, b, cc in [("0", "1", "0"), ("1", "0", "1"), ("1", "1", "0"), ("0", "0", "1")]]
    preds = tree.predict(new)
    pred_lines = [f"(x1,x2,x3) = ({r['x1']},{r['x2']},{r['x3']}) -> y = {p}" for r, p in zip(new, preds)]
    return "".join([
        "# Antibiotic resistance: 16 bacteria, 3 genes\n\n",
        "Lecture-notes exercise: which gene (x1, x2, x3) best predicts resistance y?\n",
        "The notes compute the mutual information as I(x;y) = H(x) - H(x|y); ID3 texts use\n",
        "H(y) - H(y|x). infotree shows both, and that they are equal exactly (not just to 4 digits).\n\n",
        "Data: [`data.csv`](data.csv). Regenerate this page with `python worked_examples/generate.py`.\n\n",
        "## Mutual information at the root, both ways\n\n",
        _code(lines[:-1]),
        "\nx1 and x2 tie exactly; ID3 takes x1 (first in column order) and records the tie.\n\n",
        "## Given x1 = 1\n\n",
        _code([f"H(y|x1=0) = {_d(entropy_of_labels([y[i] for i, v in enumerate(c['x1']) if v == '0']))}",
               f"H(y|x1=1) = {_d(entropy_of_labels(cy))}", ""] + second[:-1]),
        "\n## New bacteria\n\n",
        _code(pred_lines),
        "\n## The ID3 tree and its derivation (`infotree tree data.csv --format markdown --steps`)\n\n",
        _tree_md(tree),
    ])


# -- 2 -----------------------------------------------------------------------------------

def play_tennis() -> str:
    path = HERE / "play_tennis" / "data.csv"
    data = load(path)
    id3 = build_tree(data)
    c45 = build_tree(data, criterion="gain_ratio")
    g = {c.feature: c.gain for c in id3.root.candidates()}
    # Mitchell's arithmetic: every intermediate rounded to 3 decimals.
    h, h_sunny = Fraction("0.940"), Fraction("0.971")
    rounded = h - Fraction(5, 14) * h_sunny - Fraction(5, 14) * h_sunny
    out = c45.root.candidate("outlook")
    return "".join([
        "# Play tennis: Quinlan's 14 days\n\n",
        "The classic ID3 example (Mitchell, *Machine Learning*, ch. 3; Quinlan 1986).\n",
        "Data: [`data.csv`](data.csv) (Weka's `weather.nominal`).\n\n",
        "## Why the textbook prints 0.246\n\n",
        f"Exact root gains: outlook {_d(g['outlook'])}, humidity {_d(g['humidity'])}, "
        f"windy {_d(g['windy'])}, temperature {_d(g['temperature'])}.\n",
        "Mitchell prints 0.246, 0.151, 0.048 and 0.029: he rounds H(S) to 0.940 and H(S_sunny) to 0.971\n",
        "before combining them, so\n\n",
        _code([f"Gain(outlook) ~ 0.940 - 5/14*0.971 - 4/14*0 - 5/14*0.971 = {decimal_text(rounded, 5)}  -> 0.246",
               f"exact: {g['outlook']} = {_d(g['outlook'], 5)}  -> 0.247"]),
        "\n(and 0.151 for humidity is 0.15184 truncated). `infotree check` calls such an answer\n",
        "\"close\" and names rounded intermediates as the likely cause.\n\n",
        "## C4.5 (gain ratio)\n\n",
        f"At the root, outlook has gain ratio {_d(out.gain_ratio)} with split information "
        f"{_d(out.split_info)}; C4.5 grows the same tree here.\n\n",
        "## ID3 (`infotree tree data.csv --format markdown --steps`)\n\n",
        _tree_md(id3),
        "\n## C4.5 (`infotree tree data.csv --criterion gain-ratio --format markdown --nodes root`)\n\n",
        _tree_md(c45, steps=False, nodes="root"),
    ])


# -- 3 -----------------------------------------------------------------------------------

def _probability_lines(name, probs):
    h = entropy_of_probabilities(probs)
    terms = " + ".join(f"{p}·log2({Fraction(1) / Fraction(p)})" for p in probs)
    return h, f"H({name}) = {terms} = {h}"


def horse_race() -> str:
    c = _columns(HERE / "horse_race" / "data.csv")
    probs = [Fraction(p) for p in c["probability"]]
    h, line = _probability_lines("X", c["probability"])
    lengths = [Exact.log2(1 / p) for p in probs]
    expected = sum((p * ln for p, ln in zip(probs, lengths)), Exact(0))
    rows = [f"horse {k}: p = {p}, code length log2(1/p) = {ln}" for k, p, ln in zip(c["horse"], c["probability"], lengths)]
    return "".join([
        "# Horse race (Cover & Thomas, *Elements of Information Theory*, example 2.1.2)\n\n",
        "Eight horses win with probabilities 1/2, 1/4, 1/8, 1/16 and 1/64 (four times).\n",
        "Data: [`data.csv`](data.csv). `infotree entropy --probs 1/2 1/4 1/8 1/16 1/64 1/64 1/64 1/64`\n\n",
        _code([line, f"H(X) = {_d(h)} bits, exactly {h}"]),
        "\nA fixed-length code for 8 horses needs log2(8) = 3 bits. A code with lengths log2(1/p):\n\n",
        _code(rows + [f"expected length = {expected} bits = H(X)"]),
        f"\nExactly {h} bits against {Exact.log2(len(probs))} bits.\n",
    ])


# -- 4 -----------------------------------------------------------------------------------

def twenty_questions() -> str:
    c = _columns(HERE / "twenty_questions" / "data.csv")
    hu, lu = _probability_lines("uniform", c["uniform"])
    hs, ls = _probability_lines("skewed", c["skewed"])
    # Yes/no questions that halve the probability: "is it A?", then "is it B?", then "is it C?".
    q = [1, 2, 3, 3]
    expected = sum(Fraction(p) * k for p, k in zip(c["skewed"], q))
    return "".join([
        "# Twenty questions\n\n",
        "How many yes/no questions does it take to find which of A, B, C, D happened?\n",
        "Data: [`data.csv`](data.csv).\n\n",
        "Equally likely outcomes need log2(4) questions:\n\n",
        _code([lu, f"= {_d(hu)}: two questions (\"is it A or B?\", then one more)"]),
        "\nA skewed distribution needs fewer, in expectation:\n\n",
        _code([ls, f"= {_d(hs)}",
               "questions: is it A? (1) -> is it B? (2) -> is it C? (3, and D is known too)",
               f"expected number = 1/2·1 + 1/4·2 + 1/8·3 + 1/8·3 = {expected} = H(skewed): {hs == expected}"]),
    ])


# -- 5 -----------------------------------------------------------------------------------

def xor() -> str:
    path = HERE / "xor" / "data.csv"
    data = load(path)
    full = build_tree(data)
    stopped = build_tree(data, stop_at_zero_gain=True)
    gains = [f"IG({cand.feature}) = {cand.gain}" for cand in full.root.candidates()]
    return "".join([
        "# XOR myopia\n\n",
        "y = x1 XOR x2, with an irrelevant x3. Data: [`data.csv`](data.csv).\n\n",
        "At the root every single attribute has information gain exactly 0:\n\n",
        _code(gains),
        "\nStopping at zero gain (`--stop-at-zero-gain`, Weka's Id3) gives a useless leaf:\n\n",
        _tree_md(stopped, steps=False, nodes="none"),
        "\ninfotree's default makes the zero-gain split anyway (the first attribute in column order)\n",
        "and the next level separates the classes perfectly:\n\n",
        _tree_md(full, steps=True, nodes="none"),
    ])


# -- 6 -----------------------------------------------------------------------------------

def gain_ratio_vs_id() -> str:
    path = HERE / "gain_ratio_vs_id" / "data.csv"
    data = load(path)
    id3 = build_tree(data, max_depth=1)
    plain = build_tree(data, criterion="gain_ratio_plain", max_depth=1)
    rows = [f"{c.feature:20} IG = {_d(c.gain)}  SplitInfo = {_d(c.split_info)}  GainRatio = {_d(c.gain_ratio)}"
            for c in id3.root.candidates()]
    return "".join([
        "# Gain ratio against an identifier\n\n",
        "The contact-lenses data with a unique patient id added as the first column\n",
        "(data: [`data.csv`](data.csv)). An identifier separates every row, so its information\n",
        "gain is the whole H(Y): ID3 picks it, and the tree is useless on new patients.\n",
        "Gain ratio divides by the split information, log2(24) for the id, and does not.\n\n",
        _code(rows),
        f"\nID3 (`--criterion gain`) splits the root on **{id3.root.split_feature}**;\n",
        f"gain ratio (`--criterion gain-ratio-plain`) on **{plain.root.split_feature}**.\n",
        "C4.5 as J48 (`--criterion gain-ratio`) also never considers the id: no two of its\n",
        "branches have the 2 rows C4.5 requires.\n\n",
        "## Root table (`infotree tree data.csv --criterion gain-ratio-plain --max-depth 1 --format markdown --nodes root`)\n\n",
        _tree_md(plain, steps=False, nodes="root"),
    ])


# -- 7 -----------------------------------------------------------------------------------

def contact_lenses() -> str:
    path = HERE / "contact_lenses" / "data.csv"
    data = load(path)
    return "".join([
        "# Contact lenses (24 cases)\n\n",
        "Cendrowska's contact-lens data (Weka's `contact-lenses`). Data: [`data.csv`](data.csv).\n\n",
        "## ID3 (`infotree tree data.csv --format markdown --steps`)\n\n",
        _tree_md(build_tree(data)),
        "\n## C4.5 (`infotree tree data.csv --criterion gain-ratio --format markdown --steps`)\n\n",
        _tree_md(build_tree(data, criterion="gain_ratio")),
    ])


# -- 8 -----------------------------------------------------------------------------------

def _text_tree(tree, **kw) -> str:
    out = io.StringIO()
    render(tree, out, fmt="text", nodes="none", **kw)
    return out.getvalue().rstrip("\n").split("\n\n")[0]


def c45_missing_and_numeric() -> str:
    path = HERE / "c45_missing_and_numeric" / "data.csv"
    data = load(path, on_missing="keep", numeric="auto")
    tree = build_tree(data, criterion="gain_ratio")
    out = tree.root.candidate("outlook")
    known = [list(r) for r in out.table]
    return "".join([
        "# C4.5 with a missing value and numeric attributes\n\n",
        "Quinlan's own example of unknown values (*C4.5: Programs for Machine Learning*, 1993,\n",
        "chapter 3): the 14 golf days with numeric temperature and humidity, and the outlook of\n",
        "one day (overcast, 72, 90, windy, play) replaced by `?`. Data: [`data.csv`](data.csv).\n",
        "Quinlan prints info(T) = 0.961, info_outlook(T) = 0.747, gain = 0.199 and split\n",
        "info = 1.809 bits, and the tree below with leaf weights rounded to one decimal\n",
        "(3.4/0.4, 3.2, 2.4/0.4); Weka's J48 -U prints the same tree with two decimals.\n",
        "infotree gives the same numbers exactly:\n\n",
        _code([
            f"info(T) over the 13 known cases = H{tuple(sum(c) for c in zip(*known))} = {_d(entropy_of_rows(known))}",
            f"info_outlook(T) = {_d(out.conditional_entropy)}      exact: {out.conditional_entropy}",
            f"gain = 13/14 × (info(T) − info_outlook(T)) = {_d(out.gain)}      exact: {out.gain}",
            f"split info (the unknown is a 4th branch) = {_d(out.split_info)}      exact: {out.split_info}",
        ]),
        "\nThe case with the unknown outlook goes down all three branches with weights 5/13,\n",
        "3/13 and 5/13, so the leaves hold fractions of cases. J48-style decimals and the\n",
        "exact weights (`--exact-weights`):\n\n",
        _code(_text_tree(tree).splitlines()),
        "\n",
        _code(_text_tree(tree, exact_weights=True).splitlines()),
        "\nThe numeric attributes are cut in two: C4.5 counts the admissible cuts and subtracts\n",
        "log2(cuts)/n from the gain, which here leaves temperature and humidity with a negative\n",
        "gain at the root (see the \"C4.5 gain corrections\" table); below `outlook = sunny`,\n",
        "humidity is cut at 75, the largest value at most the midpoint of 70 and 85.\n\n",
        "## C4.5 (`infotree tree data.csv --criterion gain-ratio --format markdown --steps`)\n\n",
        _tree_md(tree),
    ])


def regression_sse() -> str:
    path = HERE / "regression_sse" / "data.csv"
    data = load(path, numeric="auto")
    tree = build_tree(data, criterion="squared_error", min_samples_split=2, min_leaf=1, max_depth=2,
                      cp=Fraction(1, 100))
    by = {c.feature: c for c in tree.root.candidates()}
    area, size = by["area"], by["size"]
    price = [Fraction(v) for v in _columns(path)["price"]]
    mean = sum(price) / len(price)
    sse = sum((y - mean) ** 2 for y in price)
    return "".join([
        "# A regression tree by hand: means and sums of squared errors\n\n",
        "Ten flats: their area (a category), their size in m² (a number) and their price in k€.\n",
        "Data: [`data.csv`](data.csv). A regression tree predicts the mean of a leaf's rows and\n",
        "chooses the split that lowers the sum of squared errors SSE = Σ(y − ȳ)² the most. Every\n",
        "mean and SSE of decimal data is an exact fraction:\n\n",
        _code([
            f"ȳ = {sum(price)}/10 = {mean}; SSE(price) = Σ(y − ȳ)² = {sse}",
            f"area in {{north, south}} | {{east}} (areas ordered by their mean price: south 137.5, "
            f"north 190, east 250): SSE {area.impurities[0]} + {area.impurities[1]} = {area.weighted}, "
            f"decrease {area.decrease}",
            f"size <= 65 | > 65: SSE {size.impurities[0]} + {size.impurities[1]} = {size.weighted} "
            f"= {_d(size.weighted)}, decrease {size.decrease} = {_d(size.decrease)}",
            f"rpart's improvement = decrease / SSE(price): area {area.improvement} = {_d(area.improvement)}, "
            f"size {size.improvement} = {_d(size.improvement)}",
        ]),
        "\nrpart (`rpart(price ~ ., minsplit = 2, minbucket = 1, maxdepth = 2)`, method anova) grows the\n",
        "same tree with the same improvements (0.506099375185957 and 0.392789844292373):\n\n",
        _code(_text_tree(tree).splitlines()),
        "\n## Regression (`infotree tree data.csv --algorithm cart --criterion squared-error "
        "--min-samples-split 2 --min-leaf 1 --max-depth 2 --format markdown --steps`)\n\n",
        _tree_md(tree),
    ])


def cart_gini() -> str:
    from infotree.measures import gini

    path = HERE / "cart_gini" / "data.csv"
    data = load(path, numeric="auto")
    tree = build_tree(data, criterion="gini", min_samples_split=2, min_leaf=1, cp=Fraction(1, 100))
    by = {c.feature: c for c in tree.root.candidates()}
    out, hum = by["outlook"], by["humidity"]
    return "".join([
        "# CART with the Gini index: a subset split and a numeric threshold\n\n",
        "The 14 play-tennis days with numeric temperature and humidity (Quinlan's golf data,\n",
        "Weka's `weather.numeric`). Data: [`data.csv`](data.csv). CART splits in two: a nominal\n",
        "feature into a subset of its values against the rest (two classes: Breiman's ordering of\n",
        "the values by their class proportion gives the k − 1 candidates), a numeric one at the\n",
        "midpoint of two adjacent values. Every impurity, weighted impurity and decrease is a\n",
        "fraction:\n\n",
        _code([
            f"Gini(D) = 1 − (9/14)² − (5/14)² = {gini([9, 5])} = {_d(gini([9, 5]))}",
            f"outlook in {{sunny, rainy}} | {{overcast}}: weighted {out.weighted} = {_d(out.weighted)}, "
            f"decrease {out.decrease} = {_d(out.decrease)}",
            f"humidity <= 82.5 | > 82.5: weighted {hum.weighted} = {_d(hum.weighted)}, "
            f"decrease {hum.decrease} = {_d(hum.decrease)}",
            f"rpart's improvement = n × decrease: outlook {out.improvement}, humidity {hum.improvement}",
        ]),
        "\nrpart (`rpart(play ~ ., method = \"class\", minsplit = 2, minbucket = 1)`) grows the same\n",
        "tree; it writes each split with the side of the smaller share of the second class on\n",
        "the left (`humidity>=82.5` first), where infotree keeps `<= t` on the left:\n\n",
        _code(_text_tree(tree).splitlines()),
        "\n## CART (`infotree tree data.csv --algorithm cart --min-samples-split 2 --format markdown --steps`)\n\n",
        _tree_md(tree),
    ])


# -- probability estimation tree ----------------------------------------------------------

def _leaf_probability_table(tree, smoothings, cls):
    """One Markdown row per leaf: its counts and P(cls) under each smoothing."""
    k = tree.classes.index(cls)
    head = "| leaf | n | n_" + cls + " | " + " | ".join(f"`{s}`" for s in smoothings) + " |\n"
    head += "| :--- | ---: | ---: | " + " | ".join("---:" for _ in smoothings) + " |\n"
    rows = []
    for leaf in tree.leaves():
        probs = [tree.probabilities(leaf, s)[k] for s in smoothings]
        rows.append(f"| {leaf.describe_path()} | {leaf.n} | {leaf.class_counts[k]} | "
                    + " | ".join(f"{p} ≈ {_d(p, 3)}" for p in probs) + " |\n")
    return head + "".join(rows)


def _smoothed_md(tree, smoothing) -> str:
    out = io.StringIO()
    render(tree, out, fmt="markdown", nodes="none", smoothing=smoothing)
    return "\n".join("#" + line if line.startswith("#") else line for line in out.getvalue().splitlines()) + "\n"


def pet() -> str:
    path = HERE / "pet" / "data.csv"
    tree = build_tree(load(path))
    smooth = next(leaf for leaf in tree.leaves() if leaf.describe_path() == "colony = smooth")
    yes = tree.classes.index("yes")
    prior = Fraction(int(tree.root.class_counts[yes]), int(tree.root.n))
    return "".join([
        "# A probability estimation tree: raw, Laplace and m-estimate leaf probabilities\n\n",
        "Twenty bacterial colonies, their shape and whether they are pathogenic. Data:\n",
        "[`data.csv`](data.csv). The tree has one split; each leaf estimates P(pathogenic) from its\n",
        "counts, exactly:\n\n",
        _code([
            f"smooth leaf: {smooth.class_counts[yes]} of {smooth.n} pathogenic",
            f"raw          n_c/n                 = 5/15 = {tree.probabilities(smooth, 'none')[yes]}",
            f"Laplace      (n_c + 1)/(n + k)     = (5 + 1)/(15 + 2) = {tree.probabilities(smooth, 'laplace')[yes]}",
            f"m-estimate   (n_c + m·p_c)/(n + m) = (5 + 2·{prior})/(15 + 2) = "
            f"{tree.probabilities(smooth, 'm=2')[yes]}   (m = 2, p_c = {prior}: the root's class distribution)",
        ]),
        "\nSmoothing pulls every leaf toward a prior: Laplace toward uniform (1/k each), the\n",
        "m-estimate toward the class distribution at the root, with weight m. The small leaves\n",
        "move most: the one mucoid colony gives the raw estimate P(pathogenic) = 0, which no\n",
        "test row could overturn; smoothed, it is 1/3 (Laplace) or 3/10 (m = 2).\n\n",
        _leaf_probability_table(tree, ("none", "laplace", "m=2"), "yes"),
        "\n## Raw frequencies (`infotree tree data.csv --smoothing none`)\n\n",
        _smoothed_md(tree, "none"),
        "\n## Laplace (`--smoothing laplace`)\n\n",
        _smoothed_md(tree, "laplace"),
        "\n## m-estimate (`--smoothing m=2`)\n\n",
        _smoothed_md(tree, "m=2"),
        "\nThe same numbers come from `infotree predict --train data.csv data.csv --proba --smoothing m=2`\n",
        "and from `ID3Classifier(smoothing=\"m=2\").predict_proba`. The predicted class stays the\n",
        "leaf's majority; smoothing changes the probabilities only.\n",
    ])


# -- lookahead ----------------------------------------------------------------------------

def lookahead() -> str:
    path = HERE / "lookahead" / "data.csv"
    data = load(path)
    greedy = build_tree(data)
    ahead = build_tree(data, lookahead=1)
    gini_greedy = build_tree(data, criterion="gini")
    gini_ahead = build_tree(data, criterion="gini", lookahead=1)
    scores = [f"{c.feature}: IG = {c.gain} = {_d(c.gain)}, IG (lookahead) = {c.lookahead} = {_d(c.lookahead)}"
              for c in ahead.root.candidates()]
    cart = [f"{c.feature}: decrease = {c.decrease}, decrease (lookahead) = {c.lookahead}"
            for c in gini_ahead.root.candidates()]
    return "".join([
        "# Lookahead: a different root than the greedy choice\n\n",
        "y = a XOR b; c agrees with y on 6 of the 8 rows. Data: [`data.csv`](data.csv).\n",
        "Greedy ID3 sees no gain in a or b alone and splits on c, the one feature with a\n",
        "positive gain; the XOR is then found branch by branch, in six leaves. With\n",
        "`--lookahead 1` each feature is scored by the gain of its best two-level split,\n",
        "IG (lookahead) = H(Y) − Σ_v p_v·min_g H(Y | X = v, g) (see\n",
        "[docs/pet_lookahead.md](../../docs/pet_lookahead.md)): a and b reach the full bit, c only\n",
        "half of it, and a (tied exactly with b, first in column order) is the root:\n\n",
        _code(scores),
        "\nCART's Gini decrease does the same (greedy: c; lookahead: a, tied with b):\n\n",
        _code(cart + [f"greedy root: {gini_greedy.root.split_feature}; lookahead root: "
                      f"{gini_ahead.root.split_feature}"]),
        "\n## Greedy (`infotree tree data.csv`)\n\n",
        _tree_md(greedy, steps=False, nodes="root"),
        "\n## Lookahead 1 (`infotree tree data.csv --lookahead 1`)\n\n",
        _tree_md(ahead, steps=False, nodes="root"),
        "\nLookahead does not always help: Murthy and Salzberg (1995) found it no more accurate on\n",
        "average, and sometimes larger and worse (a pathology); it costs one candidate search per\n",
        "branch of every candidate.\n",
    ])


# -- M-of-N tests ---------------------------------------------------------------------------

def m_of_n() -> str:
    path = HERE / "m_of_n" / "data.csv"
    data = load(path)
    id3 = build_tree(data)
    tree = build_tree(data, m_of_n=True)
    rows = [dict(department="physics", referee1="no", referee2="yes", referee3="yes"),
            dict(department="maths", referee1="yes", referee2="no", referee3="no")]
    return "".join([
        "# M-of-N tests: a committee's two-of-three rule in one split\n\n",
        "A paper is accepted when at least two of its three referees say yes; the department\n",
        "does not matter. Data: [`data.csv`](data.csv), every combination once in each of two\n",
        f"departments. ID3 splits one referee at a time and needs {sum(1 for _ in id3.leaves())} leaves for "
        "the rule.\nWith `--m-of-n` every split is the test \"at least M of these N conditions hold\", grown\n",
        "at its node from the best single condition in the style of ID2-of-3 (see\n",
        "[docs/pet_lookahead.md](../../docs/pet_lookahead.md)). Each step's test and exact gain\n",
        "(the first condition ties with every referee's value and is first in column and domain\n",
        "order):\n\n",
        _code([f"{s.operator}: {s.split.text}: IG = {s.candidate.gain} = {_d(s.candidate.gain)}"
               for s in tree.root.mofn.steps] + [f"stopped: {tree.root.mofn.stopped}"]),
        f"\nThe tree has {sum(1 for _ in tree.leaves())} leaves. Prediction counts the conditions that hold:\n\n",
        _code([line for row in rows for line in tree.explain(row)]),
        "\n## ID3 (`infotree tree data.csv`)\n\n",
        _tree_md(id3, steps=False, nodes="none"),
        "\n## M-of-N (`infotree tree data.csv --m-of-n`)\n\n",
        _tree_md(tree, steps=False, nodes="root"),
    ])


def cost_complexity() -> str:
    from infotree.complexity import cp_table, prune, pruning_path
    from infotree.printers.complexity import write
    from infotree.growing import fold_grower

    path = HERE / "cost_complexity" / "data.csv"
    data = load(path, numeric="auto")
    opts = dict(criterion="gini", min_samples_split=2, min_leaf=1, max_depth=30)
    tree = build_tree(data, cp=0, **opts)

    def md(obj, **kw):
        out = io.StringIO()
        write(obj, out, fmt="markdown", **kw)
        return "\n".join("#" + line if line.startswith("#") else line for line in out.getvalue().splitlines()) + "\n"

    # The first look at T0: every internal node's alpha, before anything is cut.
    first = []
    for node in tree.nodes():
        if node.split is None:
            continue
        leaves = [n for n in node.walk() if n.split is None]
        r_branch = sum(n.risk for n in leaves)
        first.append(f"{node.describe_path():<47} R(t) = {node.risk}, R(T_t) = {r_branch}, leaves {len(leaves)}: "
                     f"alpha = ({node.risk} - {r_branch})/({len(leaves)} - 1) = "
                     f"{Fraction(node.risk - r_branch, len(leaves) - 1)}")
    table = cp_table(tree, cp=0, data=data, grow=fold_grower(**opts), folds=3, seed=0)
    pruned = build_tree(data, cp=0, **opts)
    prune(pruned, alpha=1)
    impurity = pruning_path(build_tree(data, cp=None, **opts), "impurity")
    return "".join([
        "# Cost-complexity pruning by hand: the weakest-link sequence\n\n",
        "Fourteen customers, the size of a box (numeric) and its colour, and whether they\n",
        "bought it. Data: [`data.csv`](data.csv). CART grows the tree fully (rpart's controls\n",
        "`minsplit = 2, minbucket = 1, cp = 0`), then prunes it back by *cost complexity*:\n",
        "a subtree T costs R(T) + alpha·|leaves(T)|, R the misclassified rows. For each\n",
        "internal node t, cutting its branch T_t to a leaf pays off once\n\n",
        _code(["alpha >= g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1)"]),
        "\nThe node of least g(t) is the *weakest link*: cut it, recompute g above it, repeat\n",
        "until only the root is left. Every g is a fraction.\n\n",
        "## The grown tree T0 (`infotree tree data.csv --algorithm cart --cp 0 --min-samples-split 2 "
        "--min-leaf 1`)\n\n",
        _code(_text_tree(tree).splitlines()),
        "\n## Step 1 by hand: g(t) of every internal node of T0\n\n",
        _code(first),
        "\nThe least is 1/2: the branch under `size > 5` goes first. Its parent's R(T_t) rises\n",
        "from 0 to 1 and its leaves drop from 4 to 2, so its g becomes (3 - 1)/(2 - 1) = 2; the\n",
        "next least is then 1, and so on.\n\n",
        "## The sequence and rpart's cp table (`infotree cptable data.csv --cp 0 --min-samples-split 2 "
        "--min-leaf 1 --folds 3 --steps --format markdown`)\n\n",
        "CP is alpha / R(root) = alpha / 7. With 3 folds (seed 0; the folds are dealt as\n",
        "`docs/cost_complexity.md` says) every row is predicted by trees grown without it,\n",
        "pruned at the geometric mean of adjacent CPs, as rpart's `xval` does.\n\n",
        md(table, steps=True),
        "\n## Pruned at alpha = 1 (`infotree tree data.csv --algorithm cart --min-samples-split 2 "
        "--min-leaf 1 --prune cost-complexity --alpha 1`)\n\n",
        "Every weakest link with g <= 1 is cut: T2.\n\n",
        _code(_text_tree(pruned).splitlines()),
        "\n## scikit-learn's risk (`--risk impurity`)\n\n",
        "scikit-learn's `cost_complexity_pruning_path` measures R(t) = N_t/N · Gini(t) on the fully\n",
        "grown tree; the same derivation with that risk:\n\n",
        md(impurity),
    ])


def _cli_md(*args) -> str:
    """What ``infotree ARGS`` prints (run in the example's folder), headings one level down."""
    import contextlib
    import os

    from infotree.cli import main

    buf, here = io.StringIO(), os.getcwd()
    try:
        os.chdir(HERE / "bagging")
        with contextlib.redirect_stdout(buf):
            status = main(list(args))
    finally:
        os.chdir(here)
    if status != 0:
        raise SystemExit(f"infotree {' '.join(args)} failed")
    return "\n".join("#" + line if line.startswith("#") else line for line in buf.getvalue().splitlines()) + "\n"


def bagging() -> str:
    s1 = "all but 3,10,14,16"
    # bagging, not forest's scikit-learn defaults (Gini, sqrt features, averaged leaf probabilities)
    bag = ["--criterion", "gain", "--max-features", "all", "--vote", "majority"]
    forest = ["forest", "data.csv", "--trees", "5", "--seed", "28", *bag, "--show-samples", "--predict",
              "bacterium17.csv", "--show-oob", "--format", "markdown"]
    return "".join([
        "# Bagging: five trees on resampled bacteria, and their votes\n\n",
        "The 16 bacteria of the antibiotic-resistance exercise ([`data.csv`](data.csv): genes x1, x2, x3;\n",
        "resistance y). Bagging grows each tree on its own sample of the rows and lets the trees vote.\n",
        "Every draw comes from the seed by the procedure of [`docs/forests.md`](../../docs/forests.md),\n",
        "so these pages are the same on every run. Regenerate with `python worked_examples/generate.py`.\n\n",
        "## One tree on a given sample\n\n",
        "The lecture's first tree is grown on S1 = every row but 3, 10, 14 and 16. Row 14 is the only\n",
        "bacterium without gene x1, and it is resistant: without it, x1 separates nothing and the\n",
        "tree splits on x2. Bacterium 17 ([`bacterium17.csv`](bacterium17.csv): x1 = 0, x2 = 0, x3 = 1)\n",
        "looks like row 14, and this tree, which never saw row 14, calls it not resistant:\n\n",
        f"`infotree forest data.csv --sample '{s1}' {' '.join(bag)} --show-samples --predict bacterium17.csv "
        f"--importance none --format markdown`\n\n",
        _cli_md("forest", "data.csv", "--sample", s1, *bag, "--show-samples", "--predict", "bacterium17.csv",
                "--importance", "none", "--format", "markdown"),
        "\n## Five bootstrap trees and their votes\n\n",
        "Five trees, each on 16 rows drawn with replacement (seed 28). The four trees whose sample\n",
        "holds row 14 split on x1 and vote 1 for bacterium 17; tree 4 did not draw row 14 and votes 0.\n",
        "The forest predicts 1 with 4/5 of the votes. Each training row is also voted on by the trees\n",
        "that did not draw it (out of bag, `·`: the tree drew the row), which gives the exact OOB error;\n",
        "the importances close the page (see `docs/forests.md`). The options `--criterion gain --max-features\n",
        "all --vote majority` make the forest this bagging; `infotree forest`'s defaults are scikit-learn's\n",
        "random forest (Gini, √M features at each node, averaged leaf probabilities, 100 trees).\n\n",
        f"`infotree {' '.join(forest)}`\n\n",
        _cli_md(*forest),
    ])


def _poisson_tree(name, target, exposure, criterion, **kw):
    from infotree.roles import take_column

    data = load(HERE / name / DATA[name], numeric="auto", numeric_target=True, target=target,
                categorical=kw.pop("categorical", ()))
    data, times = take_column(data, exposure, "exposure")
    return build_tree(data, criterion=criterion, exposure=times, **kw), data, times


#: the Poisson and survival examples' data (not data.csv: counts over an exposure, which the
#: classification algorithms every data.csv is read by have no use for)
DATA = {"poisson_insurance": "insurance.csv", "survival_aml": "aml.csv"}


def poisson_insurance() -> str:
    from infotree.printers.numbers import number

    tree, data, holders = _poisson_tree("poisson_insurance", "Claims", "Holders", "poisson", categorical=["District"],
                                        min_samples_split=10, min_leaf=3, max_depth=2, cp=Fraction(1, 100))
    root = tree.root
    n, d, t, _ = root.class_counts.tolist()
    crit = tree.criterion
    group = root.candidate("Group")
    rates = {}
    for g, c, h in zip(_columns(HERE / "poisson_insurance" / "insurance.csv")["Group"], (int(x) for x in _columns(
            HERE / "poisson_insurance" / "insurance.csv")["Claims"]), holders):
        e, x = rates.get(g, (0, 0))
        rates[g] = (e + c, x + h)
    order = sorted(rates, key=lambda g: -Fraction(*rates[g]))
    (dl, tl), (dr, tr) = ((r[1], r[2]) for r in group.table)
    return "".join([
        "# A Poisson tree by hand: claim rates over exposure (rpart's method \"poisson\")\n\n",
        "MASS's `Insurance` (Baxter, Coutts and Ross 1980; R package MASS): 64 groups of car-insurance\n",
        "policy holders by district, car group (engine size) and age, with the number of holders\n",
        "(the exposure) and of claims (the events). Data: [`insurance.csv`](insurance.csv). A Poisson tree models\n",
        "each leaf's claims as Poisson with rate λ per holder; rpart grows it with\n",
        "`rpart(cbind(Holders, Claims) ~ District + Group + Age, method = \"poisson\")`, infotree with\n",
        "`--method poisson --target Claims --exposure Holders`. Every rate is an exact fraction and every\n",
        "deviance a rational plus rational multiples of logarithms:\n\n",
        _code([
            f"root: D = {d} claims over T = {t} holders; rate D/T = {Fraction(d, 1) / t} ≈ {number(Fraction(d) / t, 6)}",
            f"rpart's shrinkage k = 1: α = 1/k² = {crit.alpha}, β = α/(D/T) = {crit.beta} ≈ {number(crit.beta, 4)};"
            f" a node predicts λ = (d + α)/(t + β)",
            f"root deviance 2·[Σ d·ln(d/(λt)) − Σ(d − λt)] ≈ {number(root.risk, 6)}",
            "car groups by claim rate, highest first (rpart's order for a subset split): "
            + ", ".join(f"{g} {rates[g][0]}/{rates[g][1]} ≈ {number(Fraction(*rates[g]), 4)}" for g in order),
            f"best Group split (a prefix of that order): Group {' '.join(group.split.condition(0))} against the "
            f"rest: D_L/T_L = {dl}/{tl}, D_R/T_R = {dr}/{tr}",
            f"improvement = 2·[{dl}·ln({dl}/{tl}) + {dr}·ln({dr}/{tr}) − {d}·ln({d}/{t})] "
            f"≈ {number(group.improvement, 6)} (rpart: 73.580596)",
        ]),
        "\nrpart 4.1.19 (`minsplit = 10, minbucket = 3, maxdepth = 2`) grows the same tree with the same\n",
        "deviances and rates (checked in `tests/test_poisson.py` on the whole tree):\n\n",
        _code(_text_tree(tree).splitlines()),
        "\n## Poisson tree (`infotree tree insurance.csv --method poisson --target Claims --exposure Holders "
        "--categorical District --min-samples-split 10 --min-leaf 3 --max-depth 2 --format markdown --steps`)\n\n",
        _tree_md(tree),
    ])


def survival_aml() -> str:
    from infotree.printers.numbers import number
    from infotree.survival import exp_exposure

    tree, data, times = _poisson_tree("survival_aml", "status", "time", "exp", min_samples_split=4, min_leaf=2, cp=0)
    c = _columns(HERE / "survival_aml" / "aml.csv")
    status = [int(s) for s in c["status"]]
    scaled = exp_exposure(times, status)
    deaths = sorted({t for t, s in zip(times, status) if s})
    first = [(t, s, x) for t, s, x in zip(times, status, scaled)][:3]
    return "".join([
        "# A survival tree by hand: rpart's exponential scaling (method \"exp\")\n\n",
        "survival's `aml` (Miller 1981; R package survival): 23 patients with acute myelogenous leukaemia,\n",
        "weeks in remission (`time`), whether remission ended (`status` 1) or the follow-up did (0, censored),\n",
        "and whether chemotherapy was maintained (`x`). Data: [`aml.csv`](aml.csv).\n\n",
        "rpart's `method = \"exp\"` turns each time into the events a piecewise exponential model expects by\n",
        "then: the hazard is constant between consecutive event times (events over person-time in that\n",
        "piece), and a time becomes its cumulative hazard. The scaled times add up to the events, so the\n",
        "root's rate is 1, and a Poisson tree of the statuses over the scaled times follows. Every step is\n",
        "exact:\n\n",
        _code([
            f"event times: {', '.join(str(t) for t in deaths)} (pieces (0, {deaths[0]}], ({deaths[0]}, {deaths[1]}], …, "
            f"the last up to {max(times)})",
            *(f"time {t} (status {s}) scales to {x} ≈ {number(x, 6)}" for t, s, x in first),
            f"Σ scaled times = {sum(scaled)} = the {sum(status)} events: the root's rate is 1",
            f"split on x: improvement = 2·[Σ_sides D·ln(D/T) − D·ln(D/T)] ≈ {number(tree.root.chosen.improvement, 6)} "
            f"(rpart: 3.04871627622038)",
        ]),
        "\nrpart 4.1.19 (`rpart(Surv(time, status) ~ x, aml, minsplit = 4, minbucket = 2, cp = 0)`) prints rates\n",
        "0.6848303 and 1.4426069 and deviances 12.61182 and 10.81338 for the two leaves:\n\n",
        _code(_text_tree(tree).splitlines()),
        "\n## Survival tree (`infotree tree aml.csv --method exp --target status --time time "
        "--min-samples-split 4 --min-leaf 2 --cp 0 --format markdown --steps`)\n\n",
        _tree_md(tree),
    ])


def entropy_of_rows(rows):
    from infotree.measures import entropy

    return entropy([sum(c) for c in zip(*rows)])


def build(name: str) -> str:
    return globals()[name]()


def main(argv=None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for name in EXAMPLES:
        text = build(name)
        target = HERE / name / "README.md"
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old != text:
            stale.append(name)
            if not check:
                target.write_text(text, encoding="utf-8")
    if check and stale:
        print("out of date: " + ", ".join(stale))
        return 1
    print(("checked " if check else "wrote ") + ", ".join(EXAMPLES) + (f" ({len(stale)} changed)" if not check else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
