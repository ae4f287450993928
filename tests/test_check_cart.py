"""infotree check on CART homework (issue 24): trees as infotree, rpart and students write them, graded
node by node with carry-forward, and CART's measures (Gini of a branch, of a split, decreases, rpart's
improvement).

Expected values are computed here from the CSV rows (a brute-force Gini search, counts by hand), not by the
checker or the builder.
"""

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest

from infotree import load
from infotree.check import check_answers, report_json

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parent.parent / "worked_examples"
KYPHOSIS = DATA / "kyphosis.csv"
WEATHER = EXAMPLES / "cart_gini" / "data.csv"   # weather.numeric: outlook, temperature, humidity, windy, play


def rows_of(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def gini(labels):
    n = len(labels)
    return 1 - sum(Fraction(labels.count(c), n) ** 2 for c in set(labels))


def best_cut(rows, target, features, min_leaf=1):
    """The numeric split of maximal Gini decrease, midpoints between adjacent values, first feature (column
    order) and first cut on ties: (decrease, feature, threshold)."""
    labels = [r[target] for r in rows]
    best = None
    for f in features:
        values = sorted({Fraction(r[f]) for r in rows})
        for lo, hi in zip(values, values[1:]):
            t = (lo + hi) / 2
            left = [r[target] for r in rows if Fraction(r[f]) <= t]
            right = [r[target] for r in rows if Fraction(r[f]) > t]
            if min(len(left), len(right)) < min_leaf:
                continue
            dec = gini(labels) - Fraction(len(left), len(rows)) * gini(left) - Fraction(len(right), len(rows)) * gini(right)
            if best is None or dec > best[0]:
                best = (dec, f, t)
    return best


@pytest.fixture(scope="module")
def kyphosis():
    return load(KYPHOSIS, target="Kyphosis", numeric="auto")


@pytest.fixture(scope="module")
def weather():
    return load(WEATHER, numeric="auto")


def one(text, data, **kw):
    report = check_answers(text, data, criterion="gini", **kw)
    assert len(report.results) == 1, report.results
    return report.results[0]


# rpart's defaults, as `infotree check --algorithm cart` sets them (minsplit 20, minbucket 7, cp 0.01)
RPART = dict(min_samples_split=20, min_leaf=7, cp=Fraction(1, 100), max_depth=30)

# print(rpart(Kyphosis ~ ., kyphosis)) in R 4 (rpart 4.1), as printed
RPART_PRINT = """n= 81

node), split, n, loss, yval, (yprob)
      * denotes terminal node

 1) root 81 17 absent (0.79012346 0.20987654)
   2) Start>=8.5 62  6 absent (0.90322581 0.09677419)
     4) Start>=14.5 29  0 absent (1.00000000 0.00000000) *
     5) Start< 14.5 33  6 absent (0.81818182 0.18181818)
      10) Age< 55 12  0 absent (1.00000000 0.00000000) *
      11) Age>=55 21  6 absent (0.71428571 0.28571429)
        22) Age>=111 14  2 absent (0.85714286 0.14285714) *
        23) Age< 111 7  3 present (0.42857143 0.57142857) *
   3) Start< 8.5 19  8 present (0.42105263 0.57894737) *
"""


def test_the_root_split_is_found_by_brute_force(kyphosis):
    """Kyphosis's root: Start at 8.5 (no row has a Start between 8 and 9), 19 rows left of which 8 absent."""
    rows = rows_of(KYPHOSIS)
    dec, f, t = best_cut(rows, "Kyphosis", ["Age", "Number", "Start"], min_leaf=7)
    assert (f, t) == ("Start", Fraction(17, 2))
    left = [r["Kyphosis"] for r in rows if int(r["Start"]) < 8.5]
    assert (len(left), left.count("absent")) == (19, 8)
    for claim in ("root = Start < 8.5", "root = Start <= 8.5", "root = Start >= 8.5", "root = Start > 8",
                  "root = Start < 9", "root = start", "leaf(Start < 8.5) = present",
                  "leaf(Start >= 8.5, Start >= 14.5) = absent", "split(Start >= 8.5) = Start < 14.5",
                  "split(Start > 8.5, Start <= 14.5) = Age < 55"):
        r = one(claim, kyphosis, tree_options=RPART)
        assert (r.verdict, r.message) == ("right", ""), claim
    # 4 rows have Start = 9: 'Start <= 9' sends them left, so it is another split
    assert sum(r["Start"] == "9" for r in rows) == 4
    r = one("root = Start <= 9", kyphosis, tree_options=RPART)
    assert (r.verdict, r.message) == ("wrong", "the root splits on Start <= 8.5 (Start > 8.5), not on Start <= 9")
    r = one("root = Age", kyphosis, tree_options=RPART)
    assert (r.verdict, r.message) == ("wrong", "the root splits on Start <= 8.5 (Start > 8.5), not on Age")


@pytest.mark.parametrize("tree", [
    RPART_PRINT,
    # infotree's own text
    "Start <= 8.5: present (19/8)\nStart > 8.5\n|  Start <= 14.5\n|  |  Age <= 55: absent (12)\n"
    "|  |  Age > 55\n|  |  |  Age <= 111: present (7/3)\n|  |  |  Age > 111: absent (14/2)\n|  Start > 14.5: absent (29)\n",
    # a student's: rpart's operators, space-indented, branches in any order, no counts
    "Start >= 8.5\n    Start >= 14.5: absent\n    Start < 14.5\n        Age < 55: absent\n        Age >= 55\n"
    "            Age >= 111: absent\n            Age < 111: present\nStart < 8.5: present\n",
])
def test_cart_trees_as_written(kyphosis, tree):
    r = one(tree, kyphosis, tree_options=RPART)
    assert r.verdict == "right", r.message
    assert len(r.nodes) == 9 and all(v.verdict == "right" for v in r.nodes)  # 4 splits, 5 leaves


def test_rpart_counts_are_graded(kyphosis):
    """n and loss of a leaf line are its rows and its misclassified rows: 29 rows, 0 lost, not 1."""
    wrong = RPART_PRINT.replace("4) Start>=14.5 29  0 absent", "4) Start>=14.5 29  1 absent")
    r = one(wrong, kyphosis, tree_options=RPART)
    assert r.verdict == "wrong"
    assert [(v.line, v.message) for v in r.nodes if v.verdict == "wrong"] == [
        (8, "the leaf Start >= 8.5, Start >= 14.5 has 29 rows and 0 training errors (29), not (29/1)")]


def test_carry_forward_below_a_wrong_cut(kyphosis):
    """Root cut at Number <= 5.5 (wrong): below it, each branch is graded against the split the builder
    takes on that branch's rows, found here by brute force (min_leaf 1, min_samples_split 2, cp 0)."""
    rows = rows_of(KYPHOSIS)
    options = dict(min_samples_split=2, min_leaf=1, cp=Fraction(0))
    low = [r for r in rows if int(r["Number"]) <= 5.5]
    high = [r for r in rows if int(r["Number"]) > 5.5]
    _, f_low, t_low = best_cut(low, "Kyphosis", ["Age", "Number", "Start"])
    _, f_high, t_high = best_cut(high, "Kyphosis", ["Age", "Number", "Start"])
    assert (f_low, t_low, f_high, t_high) == ("Start", Fraction(17, 2), "Start", Fraction(17, 2))
    tree = ("Number <= 5.5\n|  Start <= 8.5\n|  |  Age <= 100: present\n|  |  Age > 100: absent\n"
            "|  Start > 8.5: absent\nNumber > 5.5\n|  Age <= 3: absent\n|  Age > 3: present\n")
    r = one(tree, kyphosis, tree_options=options)
    verdicts = {(v.line, v.path): (v.verdict, v.carried) for v in r.nodes}
    assert verdicts[(1, "root")] == ("wrong", False)                       # the root cuts Start at 8.5
    assert verdicts[(2, "Number <= 5.5")] == ("right", True)               # Start <= 8.5 below Number <= 5.5
    assert verdicts[(7, "Number > 5.5")] == ("wrong", True)                # below Number > 5.5: Start, not Age
    assert [v.message for v in r.nodes if (v.line, v.path) == (7, "Number > 5.5")] == [
        "the node Number > 5.5 splits on Start <= 8.5 (Start > 8.5), not on Age <= 3 / Age > 3"]
    assert "graded against the tree grown from your own earlier choice" in r.message
    # the same as split claims along the student's path
    assert one("split(Number <= 5.5) = Start < 8.5", kyphosis, tree_options=options).verdict == "right"
    r = one("split(Number > 5.5) = Age", kyphosis, tree_options=options)
    assert (r.verdict, r.message) == ("wrong", "the node Number > 5.5 splits on Start <= 8.5 (Start > 8.5), not on Age")


def test_subsets_are_read_in_every_spelling(weather):
    """The root cuts {overcast} from {sunny, rainy}: Gini(D) = 45/98; sunny+rainy have 5 no and 5 yes (1/2),
    overcast 4 yes (0); decrease 45/98 - 10/14·1/2 = 5/49, rpart's improvement 14 × 5/49 = 10/7."""
    rows = rows_of(WEATHER)
    play = [r["play"] for r in rows]
    side = [r["play"] for r in rows if r["outlook"] in ("sunny", "rainy")]
    assert gini(play) == Fraction(45, 98) and gini(side) == Fraction(1, 2) and len(side) == 10
    dec = gini(play) - Fraction(10, 14) * gini(side)
    assert dec == Fraction(5, 49)
    full = dict(min_samples_split=2, min_leaf=1, cp=Fraction(1, 100), max_depth=30)
    for claim in ("root = outlook in {sunny, rainy}", "root = outlook not in {overcast}",
                  "root = outlook in {Overcast}", "root = outlook",
                  "Gini(play) = 45/98", f"ΔGini(outlook) = {dec}", "GiniGain(outlook) = 0.102",
                  "Decrease(outlook in {overcast}) = 5/49", "Improvement(outlook) = 10/7",
                  "Gini(play | outlook in {sunny, rainy}) = 1/2", "Gini(play | outlook not in {sunny, rainy}) = 0",
                  "Gini(play | split on outlook) = 5/14", "Gini(play | split on outlook) = 0.357",
                  "leaf(outlook = overcast) = yes", "leaf(outlook in {overcast}) = yes"):
        r = one(claim, weather, tree_options=full)
        assert (r.verdict, r.message) == ("right", ""), claim
    tree = ("outlook = overcast: yes (4)\noutlook = sunny,rainy\n|  humidity>=82.5\n|  |  temperature>=70.5: no (4)\n"
            "|  |  temperature< 70.5: yes (1)\n|  humidity< 82.5\n|  |  temperature<66.5: no (1)\n"
            "|  |  temperature>=66.5: yes (4)\n")
    assert one(tree, weather, tree_options=full).verdict == "right"


def test_cart_decreases_at_a_node(weather):
    """At outlook in {sunny, rainy} (10 rows: 5 no, 5 yes), humidity <= 82.5 leaves 1 no 4 yes on each... side
    counted here: the decrease of that cut and of windy's subset, at the node given as a path."""
    rows = [r for r in rows_of(WEATHER) if r["outlook"] in ("sunny", "rainy")]
    play = [r["play"] for r in rows]
    low = [r["play"] for r in rows if Fraction(r["humidity"]) <= Fraction(165, 2)]
    high = [r["play"] for r in rows if Fraction(r["humidity"]) > Fraction(165, 2)]
    dec = gini(play) - Fraction(len(low), 10) * gini(low) - Fraction(len(high), 10) * gini(high)
    calm = [r["play"] for r in rows if r["windy"] == "FALSE"]
    windy = [r["play"] for r in rows if r["windy"] == "TRUE"]
    dec_windy = gini(play) - Fraction(len(calm), 10) * gini(calm) - Fraction(len(windy), 10) * gini(windy)
    full = dict(min_samples_split=2, min_leaf=1)
    for claim in (f"ΔGini(humidity | outlook in {{sunny, rainy}}) = {dec}",
                  f"Decrease(humidity <= 82.5 | outlook not in {{overcast}}) = {dec}",
                  f"Improvement(humidity | outlook in {{sunny, rainy}}) = {dec * 10}",
                  f"ΔGini(windy | outlook in {{sunny, rainy}}) = {dec_windy}",
                  f"Gini(play | outlook in {{sunny, rainy}}, humidity <= 82.5) = {gini(low)}",
                  "split(outlook in {sunny, rainy}) = humidity"):
        r = one(claim, weather, tree_options=full)
        assert (r.verdict, r.message) == ("right", ""), claim
    r = one(f"ΔGini(windy | outlook in {{sunny, rainy}}) = {float(dec_windy) * 2:.4f}", weather, tree_options=full)
    assert r.verdict == "wrong" and r.expected == dec_windy


def test_exact_ties_are_both_right(weather):
    """At outlook in {sunny, rainy}, humidity > 82.5 (4 no, 1 yes) temperature <= 70.5 and humidity <= 95.5
    each cut the one yes from the four no: equal decreases; the builder takes temperature (column order)."""
    rows = [r for r in rows_of(WEATHER) if r["outlook"] in ("sunny", "rainy") and Fraction(r["humidity"]) > 82.5]
    assert sorted(r["play"] for r in rows) == ["no"] * 4 + ["yes"]
    yes = [r for r in rows if r["play"] == "yes"][0]
    assert Fraction(yes["temperature"]) <= Fraction(141, 2) and Fraction(yes["humidity"]) > Fraction(191, 2)
    no = [r for r in rows if r["play"] == "no"]
    assert all(Fraction(r["temperature"]) > Fraction(141, 2) and Fraction(r["humidity"]) <= Fraction(191, 2)
               for r in no)
    full = dict(min_samples_split=2, min_leaf=1)
    r = one("split(outlook in {sunny, rainy}, humidity > 82.5) = humidity <= 95.5", weather, tree_options=full)
    assert r.verdict == "right"
    assert r.message == ("humidity <= 95.5 decreases the impurity exactly as much as the builder's "
                         "temperature <= 70.5; both are right")


def test_json_has_per_node_verdicts(weather):
    tree = "outlook in {overcast}: yes (4)\noutlook not in {overcast}: no (10/5)\n"
    report = check_answers(tree, weather, criterion="gini", tree_options=dict(min_samples_split=2, min_leaf=1))
    doc = json.loads(json.dumps(report_json(report)))
    claim = doc["claims"][0]
    assert (claim["kind"], claim["verdict"]) == ("tree", "wrong")
    assert [(n["line"], n["path"], n["verdict"]) for n in claim["nodes"]] == [
        (1, "root", "right"), (1, "outlook in {overcast}", "right"), (2, "outlook not in {overcast}", "wrong")]
    assert claim["nodes"][2]["message"] == ("the node outlook not in {overcast} is not a leaf: it splits on "
                                            "humidity <= 82.5 (humidity > 82.5)")


def test_other_algorithms_refuse_cart_tests(weather):
    """A subset or rpart's '<' under ID3/C4.5 is one line saying which algorithm has it."""
    data = load(DATA / "weather.csv")
    r = check_answers("root = outlook in {sunny}", data).results[0]
    assert (r.verdict, r.message) == ("unreadable", "outlook in {sunny}: a set of values is CART's split; check "
                                                    "with --algorithm cart")
    r = check_answers("outlook in {sunny}: no\noutlook not in {sunny}: yes\n", data).results[0]
    assert (r.verdict, r.message) == ("unreadable", "line 1: 'outlook in {...}' is CART's subset split; check "
                                                    "with --algorithm cart")
    r = check_answers("Start < 8.5: present\nStart >= 8.5: absent\n", load(KYPHOSIS, target="Kyphosis",
                                                                        numeric="auto"), criterion="gain_ratio").results[0]
    assert r.verdict == "unreadable" and "'<' and '>=' are rpart's: check with --algorithm cart" in r.message


def test_cart_mistakes_are_named(weather):
    """ΔGini(outlook) = 5/49: written as rpart's improvement 10/7 = 1.4286, or with the children's Gini
    averaged plainly: 45/98 - (1/2 + 0)/2 = 41/196 = 0.2092; Improvement written as the decrease 0.1020."""
    full = dict(min_samples_split=2, min_leaf=1)
    r = one("ΔGini(outlook) = 1.4286", weather, tree_options=full)
    assert (r.verdict, r.diagnosis) == ("wrong", "rpart's improvement (n × decrease) given for the decrease = 1.4286")
    r = one("ΔGini(outlook) = 0.2092", weather, tree_options=full)
    assert r.verdict == "wrong" and r.diagnosis.startswith("unweighted average: the two children's impurities")
    assert Fraction(45, 98) - Fraction(1, 4) == Fraction(41, 196)
    r = one("Improvement(outlook) = 0.1020", weather, tree_options=full)
    assert r.diagnosis == "the decrease given for rpart's improvement (n × decrease) = 0.1020"


@pytest.mark.parametrize("claim, message", [
    ("root = outlook in {sunny", "'{' at position 12 is never closed; a set of values is written {a, b}"),
    ("root = outlook in {}", "an empty value in outlook in {}"),
    ("root = outlook in {foggy}", "'foggy' is not a value of outlook; values are: sunny, overcast, rainy"),
    ("root = humidity in {80}", "humidity is numeric: a condition on it is humidity <= t or humidity > t, not in a set"),
    ("root = outlook < 3", "outlook is nominal: a condition on it is CART's subset: outlook in {a, b}, not < 3"),
    ("root = humidity < high", "humidity < 'high': the threshold is not a number"),
    ("improvement (rpart) = 1", "improvement (rpart) is n × the decrease of the feature just measured; write "
                                "Improvement(feature)"),
    ("H_known(play) = 1", "H_known(...) is the entropy on the rows where a feature is known; write it after a claim "
                          "about that feature, as infotree's worked solution does"),
    ("ΔGini(play) = 0", "ΔGini(...) takes one feature or one split: ΔGini(outlook), ΔGini(Age <= 55)"),
    ("ΔGini(outlook | windy) = 0", "ΔGini(... | windy): the conditions of a decrease fix the node: "
                                   "ΔGini(Age | Start > 8.5)"),
    ("1) root 14 5 yes (0.36 0.64)\n2) outlook=rainy,sunny 10 5\n", "line 2: cannot read rpart's line "
                                                                    "'2) outlook=rainy,sunny 10 5'; expected 'k) split n "
                                                                    "loss class (probabilities)', '*' ending a leaf"),
    ("outlook in {sunny}: no\noutlook in {sunny}: yes\n", "line 2: branch outlook in {sunny} appears twice"),
])
def test_bad_cart_claims_get_one_line(weather, claim, message):
    if "\n" in claim.strip():   # a tree that is no tree: each line on its own, the named one saying why
        results = check_answers(claim, weather, criterion="gini").results
        assert all(r.verdict == "unreadable" for r in results)
        assert message in [r.message for r in results], [r.message for r in results]
        return
    r = one(claim, weather)
    assert (r.verdict, r.message) == ("unreadable", message)


def test_cart_only_forms_are_refused_elsewhere():
    data = load(DATA / "weather.csv")
    for claim, message in (("ΔGini(outlook) = 0.1", "ΔGini(...) is CART's decrease by a binary split; check with "
                                                    "--algorithm cart"),
                           ("Gini(play | split on outlook) = 0.1", "'split on outlook' is CART's binary split: write "
                                                                   "Gini(target | split on A) with --algorithm cart")):
        r = check_answers(claim, data).results[0]
        assert (r.verdict, r.message) == ("unreadable", message)


@pytest.mark.parametrize("path, target, options", [
    (KYPHOSIS, "Kyphosis", RPART),
    (WEATHER, "play", dict(min_samples_split=2, min_leaf=1, cp=Fraction(1, 100), max_depth=30)),
    (WEATHER, "play", dict(min_samples_split=2, min_leaf=1, cp=Fraction(1, 5), max_depth=30)),
    (DATA / "weather.numeric.csv", "play", dict(min_samples_split=4, min_leaf=2, cp=Fraction(1, 20), max_depth=30)),
])
def test_forcing_the_builders_own_splits_gives_its_tree(path, target, options):
    """Carry-forward under CART forces the student's split and applies rpart's cp rule to the whole tree.
    rpart cannot force a split, so nothing outside infotree gives that tree; what can be checked: forcing
    nothing, or forcing the builder's own split at any node, gives back the builder's tree (whose parity
    with rpart is tested in tests/test_cart.py), node for node."""
    from infotree.check.grower import Grower
    from infotree.criteria import criterion_named

    data = load(path, target=target, numeric="auto")
    grower = Grower(data, dict(options, criterion=criterion_named("gini")))

    def shape(node, conds):
        view_children = node.children
        if node.split is None:
            return (node.label_name, str(node.n))
        if isinstance(node.test, tuple):  # a forced split: ("forced", its two conditions)
            sides = node.test[1]
        else:
            sides = [split_condition(node.test, b, node.split_feature) for b in (0, 1)]
        return (node.split_feature, tuple(zip(sides, (shape(c, conds + (s,)) for c, s in zip(view_children, sides)))))

    from infotree.check.expected import split_condition

    built = shape(grower.tree.root, ())
    everything = [(grower.tree.root, ())]
    checked = 0
    while everything:
        node, conds = everything.pop()
        if node.split is None:
            continue
        sides = tuple(split_condition(node.test, b, node.split_feature) for b in (0, 1))
        rows = grower.mask(conds)
        root_view = grower.forced({rows.tobytes(): (node.split_feature, sides)}, grower.mask(()))
        assert shape(root_view, ()) == built
        checked += 1
        everything.extend((c, conds + (s,)) for c, s in zip(node.children, sides))
    assert checked >= 2
    assert shape(grower.forced({}, grower.mask(())), ()) == built


# -- regression trees (rpart's anova): SSE and means ------------------------------------------------------------

FLATS = EXAMPLES / "regression_sse" / "data.csv"
ANOVA = dict(min_samples_split=2, min_leaf=1, max_depth=2, cp=Fraction(1, 100))

# print(rpart(price ~ ., d, minsplit = 2, minbucket = 1, maxdepth = 2)) in R 4 (rpart 4.1), as printed
RPART_ANOVA = """n= 10

node), split, n, deviance, yval
      * denotes terminal node

1) root 10 33610.000 187.0000
  2) area=north,south 7 11600.000 160.0000
    4) size< 65 3  1266.667 123.3333 *
    5) size>=65 4  3275.000 187.5000 *
  3) area=east 3  5000.000 250.0000
    6) size< 65 1     0.000 200.0000 *
    7) size>=65 2  1250.000 275.0000 *
"""


def sse(ys):
    mean = sum(ys, Fraction(0)) / len(ys)
    return sum(((y - mean) ** 2 for y in ys), Fraction(0))


@pytest.fixture(scope="module")
def flats():
    return load(FLATS, numeric="auto", numeric_target=True)


def test_regression_measures(flats):
    """SSE = Σ(y − ȳ)² and means from the CSV: the root 33610; {north, south} 11600 and {east} 5000; the
    decrease 17010 and rpart's improvement 17010/33610; size <= 65 decreases it by 39605/3."""
    rows = rows_of(FLATS)
    price = [Fraction(r["price"]) for r in rows]
    ns = [Fraction(r["price"]) for r in rows if r["area"] in ("north", "south")]
    east = [Fraction(r["price"]) for r in rows if r["area"] == "east"]
    small = [Fraction(r["price"]) for r in rows if int(r["size"]) <= 65]
    large = [Fraction(r["price"]) for r in rows if int(r["size"]) > 65]
    dec = sse(price) - sse(ns) - sse(east)
    dec_size = sse(price) - sse(small) - sse(large)
    assert (sse(price), dec, dec_size) == (33610, 17010, Fraction(39605, 3))
    report = check_answers(f"""SSE(price) = {sse(price)}
Mean(price) = {sum(price) / len(price)}
SSE(S_east) = {sse(east)}
Mean(price | area in {{north, south}}) = {sum(ns) / len(ns)}
SSE(price | split on area) = {sse(ns) + sse(east)}
ΔSSE(area) = {dec}
Decrease(size <= 65) = {dec_size}
Improvement(area) = {float(dec / sse(price)):.4f}
improvement (rpart) = {dec / sse(price)}
SSE(price | area in {{north, south}}, size <= 65) = {float(sse([Fraction(r["price"]) for r in rows if r["area"] != "east" and int(r["size"]) <= 65])):.2f}
root = area in {{east}}
leaf(area in {{north, south}}, size <= 65) = 123.33
leaf(area = east, size > 65) = 275
""", flats, criterion="squared_error", tree_options=ANOVA)
    assert [(r.line, r.verdict, r.message) for r in report.results if not r.right] == []
    assert len(report.results) == 13
    r = one_reg(f"ΔSSE(size) = {dec}", flats)
    assert (r.verdict, r.expected) == ("wrong", Fraction(39605, 3))
    r = one_reg("leaf(area = east, size > 65) = 250", flats)
    assert (r.verdict, r.message) == ("wrong", "the node area = east, size > 65 is a leaf predicting 275, not 250")


def one_reg(text, data, **kw):
    report = check_answers(text, data, criterion="squared_error", tree_options=dict(ANOVA, **kw))
    assert len(report.results) == 1
    return report.results[0]


@pytest.mark.parametrize("tree", [
    RPART_ANOVA,
    "area in {north, south}\n|  size <= 65: 370/3 (n = 3, SSE = 3800/3)\n|  size > 65: 187.5 (n = 4, SSE = 3275)\n"
    "area not in {north, south}\n|  size <= 65: 200 (n = 1, SSE = 0)\n|  size > 65: 275 (n = 2, SSE = 1250)\n",
    "area = east\n  size >= 65: 275\n  size < 65: 200\narea = north,south\n  size < 65: 123.3\n  size >= 65: 187.5\n",
])
def test_regression_trees_as_written(flats, tree):
    r = one_reg(tree, flats)
    assert r.verdict == "right", r.message
    assert len(r.nodes) == 7


def test_regression_leaf_counts_are_graded(flats):
    """The leaf size > 65 under {north, south}: 4 rows, SSE 3275 (prices 190, 150, 230, 180: mean 187.5)."""
    ys = [Fraction(p) for p in (190, 150, 230, 180)]
    assert sse(ys) == 3275
    r = one_reg(RPART_ANOVA.replace("4  3275.000 187.5000", "4  3257.000 187.5000"), flats)
    assert [v.message for v in r.nodes if v.verdict == "wrong"] == [
        "the leaf area in {north, south}, size >= 65 has 4 rows and SSE 3275, not (4/3257.000)"]


@pytest.mark.parametrize("claim, message", [
    ("area in {east}: 1/0 (n = 3, SSE = 1/0)\narea not in {east}: 160", "line 1: a regression leaf predicts a number "
                                                                        "(its mean), not '1/0'"),
    ("leaf(area in {east}) = cheap", "a regression leaf predicts a number (its mean), not 'cheap'"),
    ("H(price) = 1", "H(price): a regression tree's measures are SSE(price | node), Mean(price | node), "
                     "SSE(price | split on A), ΔSSE(A) and Improvement(A)"),
    ("Mean(price | size) = 3", "Mean(price | size): a regression tree's measures are SSE(price | node), "
                               "Mean(price | node), SSE(price | split on A), ΔSSE(A) and Improvement(A)"),
])
def test_bad_regression_claims_get_one_line(flats, claim, message):
    if "\n" in claim.strip():   # a tree that is no tree: each line on its own, the named one saying why
        results = check_answers(claim, flats, criterion="squared_error", tree_options=ANOVA).results
        assert all(r.verdict == "unreadable" for r in results)
        assert message in [r.message for r in results], [r.message for r in results]
        return
    r = one_reg(claim, flats)
    assert (r.verdict, r.message) == ("unreadable", message)
    assert check_answers("SSE(play) = 1", load(DATA / "weather.csv")).results[0].message == (
        "SSE(play): SSE and Mean are a regression tree's measures; check with --criterion squared-error")


def test_regression_with_a_feature_missing_in_some_rows():
    """airquality: the decrease of Solar.R is over the rows with Solar.R known (rpart's anova); the worked
    solution's note and its SSE(Ozone | Solar.R known) are read, the SSE counted here from the CSV."""
    rows = [r for r in rows_of(DATA / "airquality.csv") if r["Ozone"] != "?"]
    known = [Fraction(r["Ozone"]) for r in rows if r["Solar.R"] != "?"]
    assert (len(rows), len(known)) == (116, 111)
    data = load(DATA / "airquality.csv", target="Ozone", numeric="auto", numeric_target=True, on_missing="keep")
    text = (f"Solar.R is missing in 5 rows: the decrease is over the 111 rows with it known, "
            f"SSE(Ozone | Solar.R known) = {sse(known)}\nSSE(Ozone | Solar.R known) = {float(sse(known)):.2f}\n")
    report = check_answers(text, data, criterion="squared_error", tree_options=dict(max_depth=2))
    assert [(r.verdict, r.quantity) for r in report.results] == [("right", "SSE(Ozone | Solar.R known)")] * 2


def test_cart_decrease_over_the_known_rows():
    """c45_missing_and_numeric: outlook is missing in one row; CART's decrease of outlook is over the 13 rows
    with it known (5 no, 8 yes: Gini 1 - (5/13)² - (8/13)² = 80/169), counted here from the CSV."""
    rows = [r for r in rows_of(EXAMPLES / "c45_missing_and_numeric" / "data.csv") if r["outlook"] != "?"]
    labels = [r["play"] for r in rows]
    assert (len(rows), gini(labels)) == (13, Fraction(80, 169))
    data = load(EXAMPLES / "c45_missing_and_numeric" / "data.csv", numeric="auto", on_missing="keep")
    r = one("Gini(play | outlook known) = 80/169", data, tree_options=dict(min_samples_split=2, min_leaf=1))
    assert (r.verdict, r.quantity) == ("right", "Gini(play | outlook known)")
