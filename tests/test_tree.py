"""Tests for the tree builder and its derivation records (infotree.tree)."""

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from infotree import (C45Classifier, ID3Classifier, InfotreeError, NotFittedError, build_tree,
                      from_records, load, load_model, node_at, parse_exact, save_model)
from infotree.decimals import decimal_text
from infotree.model import dumps, loads

DATA = Path(__file__).parent / "data"


def shape(node):
    """The tree as nested (feature, {value: subtree}) / leaf label, for comparisons."""
    t = node.tree
    if node.split is None:
        return node.label_name
    return (node.split_feature, {t.domains[node.split][c.path[-1][1]]: shape(c) for c in node.children})


@pytest.fixture(scope="module")
def weather():
    return load(DATA / "weather.csv")


def test_weather_id3_tree(weather):
    """The ID3 tree on PlayTennis is outlook → sunny: humidity, overcast: yes, rainy: windy."""
    t = build_tree(weather, criterion="gain")
    assert shape(t.root) == ("outlook", {
        "sunny": ("humidity", {"high": "no", "normal": "yes"}),
        "overcast": "yes",
        "rainy": ("windy", {"FALSE": "yes", "TRUE": "no"}),
    })


def test_weather_root_gains_exact(weather):
    """Root gains are 0.2467, 0.0292, 0.1518, 0.0481 with exact forms checked independently."""
    t = build_tree(weather)
    gains = {c.feature: c.gain for c in t.root.candidates()}
    assert {f: decimal_text(g, 4) for f, g in gains.items()} == {
        "outlook": "0.2467", "temperature": "0.0292", "humidity": "0.1518", "windy": "0.0481"}
    # Independent: H(9,5) - 5/14 H(2,3) - 4/14 H(4,0) - 5/14 H(3,2) written out by hand.
    h = "(9/14*log2(14/9) + 5/14*log2(14/5))"
    h23 = "(2/5*log2(5/2) + 3/5*log2(5/3))"
    assert gains["outlook"] == parse_exact(f"{h} - 5/14*{h23} - 5/14*{h23}")
    assert str(gains["outlook"]) == "9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)"
    assert t.root.split_feature == "outlook" and t.root.ties == ()


def test_weather_rainy_node_records_equal_gains(weather):
    """At the rainy node temperature and humidity have exactly equal gain 0.0200, and the record says so."""
    t = build_tree(weather)
    rainy = t.root.children[2]
    assert rainy.path_names() == [("outlook", "rainy")]
    c = {x.feature: x for x in rainy.candidates()}
    assert c["temperature"].gain == c["humidity"].gain
    assert decimal_text(c["humidity"].gain, 4) == "0.0200"
    assert rainy.equal_gain_groups() == [["temperature", "humidity"]]
    assert rainy.split_feature == "windy"


def tie_data(order=("A", "B")):
    """EXACT.md's tables: A = {(1,1),(4,2)}, B = {(1,1),(2,1),(2,1)} over the same 8 rows."""
    y = [0, 0, 0, 0, 0, 1, 1, 1]
    a = ["a1", "a2", "a2", "a2", "a2", "a1", "a2", "a2"]
    b = ["b1", "b2", "b2", "b3", "b3", "b1", "b2", "b3"]
    cols = {"A": a, "B": b}
    return from_records([{order[0]: cols[order[0]][i], order[1]: cols[order[1]][i], "y": str(y[i])} for i in range(8)])


def test_exact_tie_first_column_wins():
    """An exact tie the floats misjudge is broken by column order and recorded."""
    t = build_tree(tie_data(("A", "B")))
    assert t.root.split_feature == "A" and [t.features[j] for j in t.root.ties] == ["B"]
    assert "tied exactly with B, broken by column order" in t.root.reason
    t2 = build_tree(tie_data(("B", "A")))
    assert t2.root.split_feature == "B" and [t2.features[j] for j in t2.root.ties] == ["A"]


def test_empty_branch_gets_parent_majority():
    """A declared value with no rows at a node becomes an empty leaf labelled with the parent's majority."""
    rows = [("a", "u", "0"), ("a", "v", "1"), ("a", "u", "0"), ("b", "w", "1"), ("b", "w", "1"), ("b", "u", "1")]
    t = build_tree(from_records([dict(f1=a, f2=b, y=c) for a, b, c in rows]))
    assert t.root.split_feature == "f1" and [t.features[j] for j in t.root.ties] == ["f2"]
    under_a = t.root.children[0]
    assert under_a.split_feature == "f2"
    empty = under_a.children[2]
    assert (empty.n, empty.is_empty, empty.label_name, empty.stop) == (0, True, "0", "empty")
    assert empty.reason == "empty branch: no training rows; labelled with the parent's majority class"


def test_majority_tie_goes_to_first_class():
    """Identical feature vectors with a 1:1 class split give a leaf with the first class."""
    d = from_records([dict(x="a", y="p"), dict(x="a", y="q")])
    t = build_tree(d)
    assert t.root.is_leaf and t.root.label_name == "p"
    assert t.root.reason == "stopped: no feature separates the rows (identical feature values); majority leaf"


def xor_data():
    rows = []
    for x1 in "01":
        for x2 in "01":
            for x3 in "01":
                rows.append(dict(x1=x1, x2=x2, x3=x3, y=str(int(x1) ^ int(x2))))
    return from_records(rows)


def test_xor_zero_gain_split_continues_by_default():
    """Every root gain is exactly 0; the default still splits and reaches a perfect tree."""
    t = build_tree(xor_data())
    assert all(c.gain == 0 for c in t.root.candidates())
    assert t.root.split_feature == "x1"
    assert all(leaf.errors == 0 for leaf in t.leaves())
    stopped = build_tree(xor_data(), stop_at_zero_gain=True)
    assert stopped.root.is_leaf and stopped.root.stop == "zero_gain"


def test_limits():
    """max_depth, min_samples_split and min_gain stop growth with the reason recorded."""
    w = load(DATA / "weather.csv")
    t = build_tree(w, max_depth=1)
    assert all(c.is_leaf for c in t.root.children)
    assert t.root.children[0].reason == "stopped: maximum depth 1 reached"
    assert build_tree(w, min_samples_split=15).root.stop == "min_samples_split"
    assert build_tree(w, min_gain="0.25").root.stop == "min_gain"
    assert build_tree(w, min_gain=Fraction(24, 100)).root.split_feature == "outlook"


def test_c45_weather_and_gain_ratio():
    """C4.5 picks outlook on weather with gain ratio 0.1564 and split info 1.5774."""
    w = load(DATA / "weather.csv")
    t = build_tree(w, criterion="gain_ratio")
    assert t.root.split_feature == "outlook"
    c = t.root.candidate("outlook")
    assert decimal_text(c.gain_ratio, 4) == "0.1564" and decimal_text(c.split_info, 4) == "1.5774"
    assert c.passes_average_gain is True
    assert t.root.candidate("temperature").passes_average_gain is False


def test_gain_ratio_rejects_identifier():
    """Information gain picks a unique ID column; C4.5's gain ratio does not."""
    w = load(DATA / "weather.csv")
    rows = [dict(id=f"d{i + 1}", **{f: w.domains[j][w.X[i, j]] for j, f in enumerate(w.features)},
                 play=w.classes[w.y[i]]) for i in range(w.n_rows)]
    d = from_records(rows)
    assert build_tree(d, criterion="gain").root.split_feature == "id"
    assert build_tree(d, criterion="gain_ratio").root.split_feature == "outlook"


def test_c45_collapse():
    """A subtree that makes no fewer training errors than a leaf is collapsed under gain_ratio."""
    rows = [dict(a=a, b=b, y=y) for a, b, y in
            [("p", "u", "0"), ("p", "u", "0"), ("p", "v", "1"), ("p", "v", "0"),
             ("q", "u", "1"), ("q", "u", "1"), ("q", "v", "1"), ("q", "v", "0")]]
    d = from_records(rows)
    grown = build_tree(d, criterion="gain_ratio", collapse=False)
    assert shape(grown.root) == ("a", {"p": ("b", {"u": "0", "v": "0"}), "q": ("b", {"u": "1", "v": "0"})})
    collapsed = build_tree(d, criterion="gain_ratio")
    assert shape(collapsed.root) == ("a", {"p": "0", "q": "1"})
    p = collapsed.root.children[0]
    assert p.reason == "collapsed: the subtree below made 1 training errors, no fewer than this leaf's 1"


def test_predict_proba_explain_unseen(weather):
    """predict, exact predict_proba, explain, and unseen values (error or majority)."""
    t = build_tree(weather)
    row = dict(outlook="sunny", temperature="hot", humidity="high", windy="FALSE")
    assert t.predict([row]) == ["no"]
    assert t.predict_proba([row]) == [{"no": Fraction(1), "yes": Fraction(0)}]
    assert t.explain(row)[-1] == "predict no (leaf: n = 3; no 3, yes 0)"
    bad = dict(row, outlook="foggy")
    with pytest.raises(InfotreeError) as e:
        t.predict([bad])
    assert str(e.value) == ("row 1: value 'foggy' of feature 'outlook' was not seen in training; "
                            "allowed: sunny, overcast, rainy (or unseen='majority')")
    assert t.predict([bad], unseen="majority") == ["yes"]


def test_json_round_trip(weather, tmp_path):
    """A saved model loads back with the same structure and predictions, and validates."""
    t = build_tree(weather)
    path = tmp_path / "m.json"
    save_model(t, path)
    u = load_model(path)
    assert shape(u.root) == shape(t.root)
    rows = [dict(outlook=o, temperature="mild", humidity=h, windy=w)
            for o in ("sunny", "overcast", "rainy") for h in ("high", "normal") for w in ("TRUE", "FALSE")]
    assert u.predict(rows) == t.predict(rows)
    assert u.predict_proba(rows) == t.predict_proba(rows)
    doc = json.loads(path.read_text())
    doc["root"]["children"][1]["node"]["class_counts"]["yes"] = "5"
    with pytest.raises(InfotreeError) as e:
        loads(json.dumps(doc), source="m.json")
    assert str(e.value) == "m.json: node outlook = overcast: n = 4 but the class counts sum to 5"
    doc = json.loads(path.read_text())
    doc["format"] = 99
    with pytest.raises(InfotreeError) as e:
        loads(json.dumps(doc), source="m.json")
    assert str(e.value).startswith("m.json: top level: model format 99 written by infotree")


def test_json_every_exact_string_parses_back(weather):
    """Every exact string in the full JSON parses back to the value whose float is given."""
    t = build_tree(weather, criterion="gain_ratio")
    doc = json.loads(dumps(t, nodes="all"))

    def values(o):
        if isinstance(o, dict):
            if set(o) == {"exact", "float"}:
                yield o
            else:
                for v in o.values():
                    yield from values(v)
        elif isinstance(o, list):
            for v in o:
                yield from values(v)

    vs = list(values(doc))
    assert len(vs) > 50
    for v in vs:
        assert float(parse_exact(v["exact"])) == pytest.approx(v["float"], abs=1e-15)


def test_shuffled_rows_give_the_same_tree():
    """With declared value order (ARFF), the tree and its records do not depend on row order."""
    d = load(DATA / "contact-lenses.arff")
    for crit in ("gain", "gain_ratio", "gain_ratio_plain"):
        ref = dumps(build_tree(d, criterion=crit), nodes="all")
        rng = random.Random(7)
        for _ in range(3):
            perm = list(range(d.n_rows))
            rng.shuffle(perm)
            assert dumps(build_tree(d.subset(np.array(perm)), criterion=crit), nodes="all") == ref


def test_node_at():
    """node_at gives the candidate table of the node reached by a path."""
    w = load(DATA / "weather.csv")
    node = node_at(w, [("outlook", "sunny")])
    assert node.n == 5 and node.split_feature == "humidity"
    assert [c.feature for c in node.candidates()] == ["temperature", "humidity", "windy"]
    with pytest.raises(InfotreeError) as e:
        node_at(w, [("outlok", "sunny")])
    assert str(e.value) == ("unknown feature 'outlok' in the path; features are: outlook, temperature, humidity, windy "
                            "(did you mean 'outlook'?)")


def test_estimators():
    """The scikit-learn style shells fit, predict, expose classes_ and feature names, and refuse unfitted use."""
    w = load(DATA / "weather.csv")
    X = [[w.domains[j][c] for j, c in enumerate(r)] for r in w.X.tolist()]
    y = [w.classes[c] for c in w.y.tolist()]
    clf = ID3Classifier().fit(X, y, feature_names=list(w.features))
    assert clf.predict(X).tolist() == y
    assert list(clf.classes_) == ["no", "yes"]
    assert clf.tree_.features == w.features
    assert clf.predict_proba_exact(X[:1]).tolist() == [[Fraction(1), Fraction(0)]]
    assert clf.get_params()["max_depth"] is None
    assert clf.set_params(max_depth=1) is clf and clf.max_depth == 1
    c45 = C45Classifier().fit(X, y, feature_names=list(w.features))
    assert c45.tree_.root.split_feature == "outlook"
    with pytest.raises(NotFittedError) as e:
        ID3Classifier().predict(X)
    assert str(e.value) == "this ID3Classifier is not fitted yet; call fit(X, y) first"


def test_bad_parameters():
    """Bad builder parameters give one-line errors naming what is allowed."""
    w = load(DATA / "weather.csv")
    with pytest.raises(InfotreeError) as e:
        build_tree(w, criterion="ginni")
    assert str(e.value) == ("unknown criterion 'ginni'; allowed: gain, gain_ratio, gain_ratio_plain, gini, entropy, "
                            "misclassification, squared_error, poisson, exp")


@pytest.mark.parametrize("criterion", ["gain", "gain_ratio"])
@pytest.mark.parametrize("max_depth", [None, 1, 2])
def test_tables_counted_again_are_the_rows_of_each_node(criterion, max_depth):
    # Trees on plain nominal data keep no tables and count them again when asked;
    # compare with a count made here from the raw rows the node's path selects.
    data = load(DATA / "contact-lenses.csv")
    X, y = np.asarray(data.X), np.asarray(data.y)
    tree = build_tree(data, criterion=criterion, max_depth=max_depth)
    nodes = list(tree.root.walk())
    examined = 0
    for node in nodes[::-1] + nodes:  # any order, twice: the kept path is only a cache
        mask = np.ones(len(y), bool)
        for f, v in node.path:
            mask &= X[:, f] == v
        # Class counts are rows of a shared block and the path is made of shared steps:
        # both must still be this node's own.
        assert node.class_counts.tolist() == [int(np.sum(mask & (y == c))) for c in range(len(data.classes))]
        assert len(node.path) == node.depth
        if node.considered is None:
            assert node.tables is None
            continue
        examined += 1
        on_path = {f for f, _ in node.path}
        want_considered = [True] * len(data.features) if criterion == "gain_ratio" else \
            [j not in on_path for j in range(len(data.features))]
        assert node.considered.tolist() == want_considered
        for j, domain in enumerate(data.domains):
            for v in range(len(domain)):
                for c in range(len(data.classes)):
                    want = int(np.sum(mask & (X[:, j] == v) & (y == c)))
                    assert int(node.tables[j, v, c]) == want, (node.path, j, v, c)
    assert examined >= 4
    if max_depth is not None:
        assert any(nd.stop == "max_depth" and nd.candidates() for nd in nodes)


def _record(tree):
    return [(nd.path, nd.split, nd.ties, nd.stop, nd.label, str(nd.class_counts.tolist()),
             None if nd.threshold is None else str(nd.threshold), str(nd.n), nd.scale, dict(nd.cuts),
             None if nd.tables is None else nd.tables.tolist()) for nd in tree.root.walk()]


@pytest.mark.parametrize("name, kwargs", [
    ("contact-lenses.csv", dict(criterion="gain")),
    ("contact-lenses.csv", dict(criterion="gain_ratio", max_depth=2)),
    ("vote.arff", dict(criterion="gain_ratio", on_missing="keep")),
    ("vote.arff", dict(criterion="gain_ratio", on_missing="keep", prune="pessimistic")),
    ("labor.arff", dict(criterion="gain_ratio", on_missing="keep")),
    ("weather.numeric.arff", dict(criterion="gain_ratio")),
])
def test_a_level_taken_in_groups_of_nodes_gives_the_same_tree(monkeypatch, name, kwargs):
    # Large levels are decided a group of nodes at a time; force groups of one node.
    import infotree.grow.levelwise as tree_module

    kwargs = dict(kwargs)
    on_missing = kwargs.pop("on_missing", "reject")
    data = load(DATA / name, on_missing=on_missing)
    whole = _record(build_tree(data, **kwargs))
    monkeypatch.setattr(tree_module, "_LEVEL_CELLS", 1)
    grouped = _record(build_tree(data, **kwargs))
    assert grouped == whole
    assert len(whole) >= 5


def test_groups_where_only_some_nodes_split_a_missing_value(monkeypatch):
    # Below the root, a0 splits on B (one value missing: fractional weights from here
    # on) while a1 splits on C (none): the next level's groups mix weighted and plain cases.
    import infotree.grow.levelwise as tree_module

    rows = [{"A": "a0", "B": "?" if i == 3 else f"b{i % 2}", "C": f"c{i // 4}", "y": "pq"[i % 2]} for i in range(8)]
    rows += [{"A": "a1", "B": f"b{i // 2 % 2}", "C": f"c{i % 2}", "y": "rs"[i % 2 if i < 6 else 0]} for i in range(8)]
    data = from_records(rows, target="y", on_missing="keep")
    whole = build_tree(data, criterion="gain_ratio")
    assert [whole.root.split_feature, whole.root.children[0].split_feature, whole.root.children[1].split_feature] == ["A", "B", "C"]
    assert any(nd.tables is not None for nd in whole.root.children[1].children)  # examined, not pure
    monkeypatch.setattr(tree_module, "_LEVEL_CELLS", 1)
    assert _record(build_tree(data, criterion="gain_ratio")) == _record(whole)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40), min_size=2, max_size=4), min_size=1, max_size=4))
def test_n_times_conditional_entropy_is_zero_or_at_least_two(table):
    # The builder takes a float n·H(Y|X) within a bound B < 1 of 0 as exactly 0 (every
    # branch pure): that needs every impure table to have n·H(Y|X) >= 2.  Checked here
    # in 50-digit arithmetic, independently of infotree.
    import mpmath

    width = max(map(len, table))
    rows = [r + [0] * (width - len(r)) for r in table]
    mpmath.mp.dps = 50
    F = lambda a: a * mpmath.log(a, 2) if a > 1 else mpmath.mpf(0)
    value = sum(F(sum(r)) for r in rows) - sum(F(c) for r in rows for c in r)
    pure = all(sum(1 for c in r if c) <= 1 for r in rows)
    if pure:
        assert value == 0
    else:
        assert value >= 2


@st.composite
def tie_prone_data(draw):
    """Few rows, few values, and columns that repeat others under renamed values: ties."""
    n = draw(st.integers(2, 24))
    base = draw(st.lists(st.lists(st.integers(0, 2), min_size=n, max_size=n), min_size=1, max_size=3))
    picks = draw(st.lists(st.tuples(st.integers(0, len(base) - 1), st.permutations([0, 1, 2])),
                          min_size=2, max_size=6))
    y = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return [{**{f"f{j}": f"v{perm[base[b][i]]}" for j, (b, perm) in enumerate(picks)}, "y": f"c{y[i]}"}
            for i in range(n)]


@settings(max_examples=150, deadline=None)
@given(tie_prone_data())
def test_every_id3_choice_and_its_ties_are_the_exact_minimum(records):
    # 2^(n·H(Y|X)) = Π n_x^n_x / Π n_xy^n_xy is a rational, so comparing these integers
    # orders n·H(Y|X) exactly, independently of infotree's arithmetic.
    data = from_records(records, target="y")
    t = build_tree(data, criterion="gain")
    X = np.asarray(data.X)
    y = np.asarray(data.y)
    for node in t.nodes():
        if node.split is None:
            continue
        rows = np.ones(len(y), bool)
        for f, v in node.path:
            rows &= X[:, f] == v
        on_path = {f for f, _ in node.path}
        power = {}
        for j in range(X.shape[1]):
            if j in on_path or len(set(X[rows, j].tolist())) < 2:
                continue
            num = den = 1
            for v in set(X[rows, j].tolist()):
                branch = y[rows & (X[:, j] == v)].tolist()
                num *= len(branch) ** len(branch)
                for c in set(branch):
                    den *= branch.count(c) ** branch.count(c)
            power[j] = Fraction(num, den)
        least = min(power.values())
        equal = [j for j in sorted(power) if power[j] == least]
        assert (node.split, node.ties) == (equal[0], tuple(equal[1:]))


def _j48_choice(X, y, rows, on_path_free, n_total, many):
    """J48's decision at a node, from the raw rows, in 60-digit arithmetic: (stop, split, ties).

    Written from docs/c45_rules.md, not from infotree's code: valid = two branches of at
    least 2 rows; the average gain over the valid features that count towards it; gain
    at least that average less 1/1000; gain exactly positive (n·n_xy = n_x·n_y in every
    cell means 0); the first feature of maximal gain ratio, the others equal to it tied.
    """
    import mpmath

    mpmath.mp.dps = 60
    ys = y[rows].tolist()
    n = len(ys)
    if len(set(ys)) <= 1:
        return "pure", None, ()
    if n < 4:
        return "too_few", None, ()

    def h(counts):
        t = sum(counts)
        return -sum(mpmath.mpf(c) / t * mpmath.log(mpmath.mpf(c) / t, 2) for c in counts if c)

    hy = h([ys.count(c) for c in set(ys)])
    stats = {}
    for j in on_path_free:
        col = X[rows, j].tolist()
        values = sorted(set(col))
        table = [[sum(1 for a, b in zip(col, ys) if a == v and b == c) for c in sorted(set(ys))] for v in values]
        sizes = [sum(r) for r in table]
        valid = sum(1 for s in sizes if s >= 2) >= 2
        gain = hy - sum(mpmath.mpf(s) / n * h(r) for s, r in zip(sizes, table))
        ny = [sum(col_) for col_ in zip(*table)]
        zero = all(n * table[a][b] == sizes[a] * ny[b] for a in range(len(table)) for b in range(len(ny)))
        stats[j] = (valid, gain, h(sizes), zero)
    valid = [j for j in stats if stats[j][0]]
    if not valid:
        return "no_valid", None, ()
    counted = [j for j in valid if j not in many] if any(j not in many for j in range(X.shape[1])) else valid
    if not counted:
        return "no_average", None, ()
    average = sum(stats[j][1] for j in counted) / len(counted)
    passing = [j for j in valid if stats[j][1] >= average - mpmath.mpf(1) / 1000 - mpmath.mpf(10) ** -50]
    positive = [j for j in passing if not stats[j][3]]
    if not positive:
        return "no_positive_ratio", None, ()
    ratio = {j: stats[j][1] / stats[j][2] for j in positive}
    best = max(ratio.values())
    equal = [j for j in sorted(ratio) if abs(ratio[j] - best) < mpmath.mpf(10) ** -50]
    return None, equal[0], tuple(equal[1:])


@settings(max_examples=150, deadline=None)
@given(tie_prone_data())
def test_every_c45_choice_its_ties_and_stops_match_j48_rules_computed_independently(records):
    # Exact ties and gains within 1e-50 of the average are the cases floats get wrong;
    # 60 digits separate every distinct value these small tables can produce.
    data = from_records(records, target="y")
    t = build_tree(data, criterion="gain_ratio", collapse=False)
    X = np.asarray(data.X)
    y = np.asarray(data.y)
    many = {j for j, d in enumerate(data.domains) if len(d) >= 0.3 * len(y)}
    for node in t.nodes():
        if node.stop == "empty":
            continue
        rows = np.ones(len(y), bool)
        for f, v in node.path:
            rows &= X[:, f] == v
        free = [j for j in range(X.shape[1]) if len(set(X[rows, j].tolist())) >= 1]
        stop, split, ties = _j48_choice(X, y, np.flatnonzero(rows), free, len(y), many)
        assert (node.stop, node.split, node.ties) == (stop, split, ties)


@pytest.mark.parametrize("sign", [1, -1])
def test_an_average_gain_slack_beyond_floats(sign):
    """A slack too large for a float leaves J48's average-gain tests to exact arithmetic; ID3, which
    has no such test, refuses it (an option that would do nothing)."""
    data = load(DATA / "contact-lenses.csv")
    huge = sign * 10 ** 400
    for criterion in ("gain", "gain_ratio_plain"):
        with pytest.raises(InfotreeError, match="average_gain_slack applies to C4.5"):
            build_tree(data, criterion=criterion, average_gain_slack=huge)
    tree = build_tree(data, criterion="gain_ratio", average_gain_slack=huge)
    examined = [nd for nd in tree.root.walk() if nd.valid is not None]
    assert examined
    for nd in examined:  # gain >= average - slack: every valid feature, or none
        assert nd.average_gain_ok == (nd.valid if sign > 0 else frozenset())
    if sign > 0:
        assert tree.root.split is not None
    else:
        assert tree.root.stop == "no_positive_ratio"


def test_c45_weights_too_deep_for_exact_arithmetic_are_refused_in_one_line():
    """Missing values square the weights' denominators each level: past 2^1000 the build says so and how to go on."""
    from infotree.data import from_arrays

    rng = random.Random(1)
    rows, y = [], []
    for _ in range(2000):
        r = [rng.randrange(3) for _ in range(8)]
        y.append(f"c{(r[0] + r[1] * r[2] + (rng.random() < 0.1)) % 3}")
        rows.append(["?" if rng.random() < 0.2 else f"v{v}" for v in r])
    data = from_arrays(rows, y, on_missing="keep")
    with pytest.raises(InfotreeError) as e:
        build_tree(data, criterion="gain_ratio")
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith("C4.5's exact weights for missing values outgrew this build at depth 7: ")
    assert msg.endswith("limit the depth (max_depth, --max-depth 6) or read missing values as a value "
                        "(on_missing='value', --missing-as-value)")
    tree = build_tree(data, criterion="gain_ratio", max_depth=6)
    # Every row's weight ends in the leaves, exactly: they sum to the number of rows.
    assert sum((nd.n for nd in tree.leaves()), Fraction(0)) == 2000
    assert max(nd.depth for nd in tree.root.walk()) == 6


_EXACT = st.one_of(st.integers(-10**30, 10**30), st.fractions(max_denominator=10**12))


@settings(max_examples=300, deadline=None)
@given(_EXACT, _EXACT, st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_a_threshold_routes_an_exact_value_as_its_comparison_says(threshold, value, x):
    """ThresholdSplit.route compares numerators and denominators in integers: the branch of
    value <= threshold, for Fractions and ints of any sign and size (a float by its own <=)."""
    from infotree.splits import ThresholdSplit

    split = ThresholdSplit(0, Fraction(threshold))
    assert split.route(value) == (0 if value <= threshold else 1)
    assert split.route(Fraction(threshold)) == 0
    assert split.route(x) == (0 if x <= threshold else 1)
