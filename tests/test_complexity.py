"""Cost-complexity pruning (issue 22): exact alphas against a brute force over every pruning,
the nested sequence, rpart's cp table and scikit-learn's path (numbers captured from R 4.2.2 /
rpart 4.1.19 and scikit-learn, stored here), the folds, the CLI and the estimator."""

import io
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import CARTClassifier, build_tree, load
from infotree.cli import main
from infotree.complexity import cp_table, prune, pruning_path
from infotree.data import from_arrays
from infotree.errors import InfotreeError
from infotree.exact import Exact
from infotree.decimals import decimal_text
from infotree.roots import SquareRoot
from infotree.folds import MODULUS, MULTIPLIER, assign
from infotree.measures import entropy
from infotree.growing import fold_grower

DATA = Path(__file__).parent / "data"


# -- the weakest-link sequence against every pruning ---------------------------------------

def _random_data(seed, regression=False):
    rng = np.random.default_rng(seed)
    n = 26
    X = rng.integers(0, 5, size=(n, 3)).tolist()
    y = (rng.integers(0, 7, size=n) if regression else rng.choice(["a", "b", "c"], size=n)).tolist()
    return from_arrays(X, [str(v) for v in y], feature_names=["u", "v", "w"], numeric="auto")


def _own_risk(tree, risk):
    """R(t) computed here from the node's counts (not by infotree.complexity)."""
    total = Fraction(tree.root.n)
    crit = tree.criterion.name

    def of(node):
        c = node.class_counts.tolist()
        if crit == "squared_error":
            n, s, q = c
            sse = Fraction(q) - Fraction(s) ** 2 / n
            return sse if risk == "rpart" else sse / total
        n = sum(c)
        if risk == "rpart":
            return Fraction(n - max(c))
        if crit == "gini":
            return Fraction(n) / total * (1 - sum(Fraction(k, n) ** 2 for k in c))
        return entropy(c) * (Fraction(n) / total)

    return of


def _prunings(node, of):
    """Every pruning of node's branch: (risk, leaves, frozenset of internal node ids)."""
    out = [(of(node), 1, frozenset())]
    if node.split is None:
        return out
    combos = [(Fraction(0), 0, frozenset({id(node)}))]
    for child in node.children:
        combos = [(r1 + r2, l1 + l2, s1 | s2) for r1, l1, s1 in combos for r2, l2, s2 in _prunings(child, of)]
    return out + combos


CASES = [(crit, risk, seed) for crit in ("gini", "entropy", "squared_error") for risk in ("rpart", "impurity")
         for seed in (1, 2, 3)]


@pytest.mark.parametrize("crit,risk,seed", CASES)
def test_alphas_equal_brute_force(crit, risk, seed):
    data = _random_data(seed, regression=crit == "squared_error")
    tree = build_tree(data, criterion=crit, cp=None, min_samples_split=2, min_leaf=1, max_depth=3)
    path = pruning_path(tree, risk)
    of = _own_risk(tree, risk)
    every = _prunings(tree.root, of)
    assert len(every) > 5
    assert path.root_risk == of(tree.root)
    alphas = [s.alpha for s in path.steps]
    assert alphas == sorted(alphas) and len(set(alphas)) == len(alphas)
    trees = [(path.leaves, path.tree_risk)] + [(s.leaves, s.risk) for s in path.steps]
    assert trees[-1] == (1, of(tree.root))

    def best(alpha):
        """(least cost, the fewest leaves among the minimisers, their risk)."""
        cost = min(r + alpha * n for r, n, _ in every)
        leaves = min(n for r, n, _ in every if r + alpha * n == cost)
        return cost, leaves, next(r for r, n, _ in every if r + alpha * n == cost and n == leaves)

    for k, a in enumerate(alphas):
        cost, leaves, r = best(a)
        before, after = trees[k], trees[k + 1]
        # at alpha_k both T_k and T_(k+1) minimise the cost, and T_(k+1) is the smallest
        assert before[1] + a * before[0] == cost and after[1] + a * after[0] == cost
        assert (leaves, r) == after
        # strictly between alpha_k and alpha_(k+1) the minimiser is T_(k+1), alone
        upper = alphas[k + 1] if k + 1 < len(alphas) else a + 1
        mid = (a + upper) / 2
        cost, leaves, r = best(mid)
        assert (leaves, r) == after
        assert sum(1 for rr, n, _ in every if rr + mid * n == cost) == 1
    # below the first alpha, T0 itself is the smallest minimiser
    if alphas and alphas[0] > 0:
        assert best(alphas[0] / 2)[1:] == trees[0]


@pytest.mark.parametrize("crit,risk,seed", CASES[:6])
def test_sequence_is_nested(crit, risk, seed):
    data = _random_data(seed, regression=crit == "squared_error")
    tree = build_tree(data, criterion=crit, cp=None, min_samples_split=2, min_leaf=1, max_depth=3)
    path = pruning_path(tree, risk)
    kept = []
    for step in path.steps:
        t = build_tree(data, criterion=crit, cp=None, min_samples_split=2, min_leaf=1, max_depth=3)
        prune(t, alpha=step.alpha, risk=risk)
        internal = frozenset(n.describe_path() for n in t.nodes() if n.split is not None)
        assert sum(1 for _ in t.leaves()) == step.leaves
        kept.append(internal)
    assert all(b < a for a, b in zip(kept, kept[1:]))
    assert kept[-1] == frozenset()


def test_pruned_records_say_why():
    data = _random_data(4)
    tree = build_tree(data, criterion="gini", cp=None, min_samples_split=2, min_leaf=1, max_depth=3)
    path = pruning_path(tree)
    a = path.steps[len(path.steps) // 2].alpha
    prune(tree, alpha=a)
    for node in tree.nodes():
        r = node.pruned
        if r is None:
            continue
        link = r.link
        assert link.alpha == (link.risk - link.subtree_risk) / (link.leaves - 1)
        assert (r.action == "collapsed") == (link.alpha <= a) == (node.split is None)
    assert "weakest-link alpha" in "".join(n.reason for n in tree.nodes() if n.stop == "cost_complexity")


# -- rpart's cp table (numbers from printcp, with xval = infotree's folds, seed 1) -----------

RPART = {  # (data, target, criterion, minsplit, minbucket) -> rows: CP, nsplit, rel error, xerror, xstd
    ("kyphosis.csv", "Kyphosis", "gini", 20, 7): [
        (0.1764705882352941, 0, 1.0, 1.0, 0.2155872222545182),
        (0.0196078431372549, 1, 0.8235294117647058, 1.0588235294117647, 0.2200974933396436),
        (0.0, 4, 0.7647058823529411, 1.0588235294117647, 0.2200974933396436)],
    ("kyphosis.csv", "Kyphosis", "entropy", 20, 7): [
        (0.08823529411764705, 0, 1.0, 1.0, 0.2155872222545182),
        (0.0, 3, 0.7058823529411764, 1.1764705882352942, 0.22829083917088863)],
    ("kyphosis.csv", "Kyphosis", "gini", 2, 1): [
        (0.1764705882352941, 0, 1.0, 1.0, 0.2155872222545182),
        (0.11764705882352941, 1, 0.8235294117647058, 1.1176470588235294, 0.22432682747360147),
        (0.0784313725490196, 2, 0.7058823529411764, 1.3529411764705883, 0.23871872376143363),
        (0.058823529411764705, 5, 0.47058823529411764, 1.3529411764705883, 0.23871872376143363),
        (0.029411764705882353, 10, 0.1764705882352941, 1.5294117647058822, 0.24715909021162139),
        (0.0, 16, 0.0, 1.4705882352941175, 0.24455277037738177)],
    ("stagec.csv", "progstat", "gini", 20, 7): [
        (0.10493827160493827, 0, 1.0, 1.0, 0.10802408736029832),
        (0.05555555555555555, 3, 0.6851851851851851, 0.8888888888888888, 0.1051147033065867),
        (0.027777777777777776, 4, 0.6296296296296295, 0.8703703703703703, 0.10454333218210297),
        (0.018518518518518517, 6, 0.5740740740740741, 0.8703703703703703, 0.10454333218210297),
        (0.009259259259259259, 7, 0.5555555555555556, 0.8333333333333333, 0.10332294018206901),
        (0.0, 9, 0.537037037037037, 0.8518518518518519, 0.10394622652738648)],
    ("airquality.csv", "Ozone", "squared_error", 20, 7): [
        (0.48071819822397593, 0, 1.0, 1.0236277965697147, 0.1707656529257101),
        (0.07723849470151645, 1, 0.5192818017760241, 0.6724239197284652, 0.19696842645080742),
        (0.05396246283126355, 2, 0.4420433070745077, 0.6118215901944507, 0.18511954058540803),
        (0.025989986776369527, 3, 0.38808084424324407, 0.5098406769491903, 0.1482524102406288),
        (0.019894929942102565, 4, 0.3620908574668745, 0.5024159725890134, 0.1478887538453189),
        (0.016646198860951335, 5, 0.342195927524772, 0.47210665421123194, 0.1293873591702418),
        (0.0024032914324335977, 6, 0.32554972866382065, 0.44177781828594903, 0.12881001123316643),
        (0.001611023344425703, 7, 0.3231464372313871, 0.4399028184698613, 0.1288680359337955),
        (0.0, 8, 0.32153541388696133, 0.44063182763188646, 0.1288553389091252)],
}


def _close(a, b):
    return abs(a - b) <= max(1e-12, 1e-9 * max(abs(a), abs(b)))


def _rpart_table(key, sequence="rpart", folds=10):
    name, target, crit, split, leaf = key
    data = load(DATA / name, target=target, on_missing="keep", numeric="auto")
    opts = dict(criterion=crit, min_samples_split=split, min_leaf=leaf, max_depth=30)
    tree = build_tree(data, cp=0, **opts)
    return cp_table(tree, cp=0, data=data, grow=fold_grower(**opts), folds=folds, seed=1, sequence=sequence)


@pytest.mark.parametrize("key", list(RPART), ids=lambda k: f"{k[0]}-{k[2]}-{k[3]}")
def test_cp_table_equals_rpart(key):
    table = _rpart_table(key)
    assert len(table.rows) == len(RPART[key])
    for row, (cp, nsplit, rel, xerr, xstd) in zip(table.rows, RPART[key]):
        assert row.nsplit == nsplit
        for ours, theirs in ((row.cp, cp), (row.rel_error, rel), (row.xerror, xerr), (row.xstd, xstd)):
            assert _close(float(ours), theirs), (ours, theirs)


def test_rpart_bookkeeping_and_the_exact_sequence_differ_on_kyphosis_information():
    key = ("kyphosis.csv", "Kyphosis", "entropy", 20, 7)
    rpart = _rpart_table(key, folds=None)
    exact = _rpart_table(key, "weakest-link", folds=None)
    # rpart's partition.c takes the branch Age > 34.5 (alpha 2) as cut before the root:
    # (17 - 14)/2 = 3/2; the exact weakest link of the whole tree is (17 - 12)/3 = 5/3.
    assert [r.cp for r in rpart.rows] == [Fraction(3, 34), 0]
    assert [r.cp for r in exact.rows] == [Fraction(5, 51), 0]
    assert [r.cp for r in rpart.other] == [Fraction(5, 51), 0]
    # at cp 1.6/17 the exact cost of the whole tree is below the root's: 12 + 4·1.6 < 17 + 1.6
    assert 12 + 4 * Fraction(16, 10) < 17 + Fraction(16, 10)


def test_one_se_and_min_rows():
    table = _rpart_table(("kyphosis.csv", "Kyphosis", "gini", 20, 7))
    assert table.best == 0 and table.one_se == 0
    assert [r.xerror for r in table.rows] == [1, Fraction(18, 17), Fraction(18, 17)]
    assert table.rows[1].xstd == SquareRoot(Fraction(14, 289)) and str(table.rows[1].xstd) == "sqrt(14/289)"
    assert decimal_text(table.rows[1].xstd, 6) == "0.220097"
    table = _rpart_table(("stagec.csv", "progstat", "gini", 20, 7))
    # least xerror 45/54 at row 5; 1-SE: the first row within 45/54 + its xstd (≈ 0.9367)
    best = table.rows[table.best]
    assert table.best == 4 and best.xerror == Fraction(5, 6)
    assert table.one_se == 1 and (table.rows[1].xerror - best.xerror) ** 2 <= best.xstd.square
    assert (table.rows[0].xerror - best.xerror) ** 2 > best.xstd.square


# -- scikit-learn's path (captured from scikit-learn's cost_complexity_pruning_path) ---------

SKLEARN_KYPHOSIS = (
    [0.0, 0.008230452674897118, 0.010802469135802469, 0.016460905349794237, 0.019753086419753083,
     0.020359540827377086, 0.023616089207487066, 0.08348555504577776],
    [0.0, 0.016460905349794237, 0.05967078189300411, 0.07613168724279834, 0.09588477366255142,
     0.17732293697205975, 0.24817120459452097, 0.3316567596402987])


def test_estimator_path_equals_scikit_learn():
    rows = [line.split(",") for line in (DATA / "kyphosis.csv").read_text().splitlines()[1:]]
    X, y = [[int(v) for v in r[1:]] for r in rows], [r[0] for r in rows]
    clf = CARTClassifier()
    path = clf.cost_complexity_pruning_path(X, y)
    assert not hasattr(clf, "tree_")
    assert [float(a) for a in path.ccp_alphas] == pytest.approx(SKLEARN_KYPHOSIS[0], rel=1e-12, abs=1e-15)
    assert [float(a) for a in path["impurities"]] == pytest.approx(SKLEARN_KYPHOSIS[1], rel=1e-12, abs=1e-15)
    assert path.ccp_alphas[1] == Fraction(2, 243)
    # ccp_alpha between two alphas gives that subtree; a float is read from its shortest text
    for alpha, leaves in ((0.02, 9), (0.021, 5), (0.05, 2)):  # scikit-learn's get_n_leaves()
        fitted = CARTClassifier(ccp_alpha=alpha).fit(X, y)
        assert sum(1 for _ in fitted.tree_.leaves()) == leaves
    with pytest.raises(InfotreeError, match="ccp_alpha=-1 is not allowed"):
        CARTClassifier(ccp_alpha=-1).fit(X, y)


def test_regressor_path_and_ccp_alpha_equal_scikit_learn():
    from infotree import CARTRegressor

    rows = [line.split(",") for line in (DATA / "airquality.csv").read_text().splitlines()[1:]]
    rows = [r for r in rows if "?" not in r and "" not in r]
    X, y = [r[:5] for r in rows], [r[5] for r in rows]
    path = CARTRegressor().cost_complexity_pruning_path(X, y)
    assert len(rows) == 111 and len(path.ccp_alphas) == 97
    assert [float(a) for a in path.ccp_alphas[-6:]] == pytest.approx(
        [21.883831992527625, 32.99043971507747, 34.59945945945954, 62.61512072296348, 243.45609687609698,
         531.5234624606647], rel=1e-11)
    assert [float(a) for a in path.impurities[-6:]] == pytest.approx(
        [192.12992445862002, 225.1203641736975, 259.71982363315703, 322.3349443561205, 565.7910412322175,
         1097.3145036928822], rel=1e-12)
    for alpha, leaves in ((1.0, 40), (30.0, 6), (100.0, 3)):  # scikit-learn's get_n_leaves()
        assert sum(1 for _ in CARTRegressor(ccp_alpha=alpha).fit(X, y).tree_.leaves()) == leaves


# -- folds ----------------------------------------------------------------------------------

def test_folds_by_hand():
    y = np.array([0, 1, 0, 0, 1, 1, 0, 1])
    folds = assign(y, 3, seed=5)
    # by hand: key(0) = seed + 1, key(r) = key(r − 1)·48271 mod (2^31 − 1); class 0 rows then
    # class 1 rows by key, dealt 1, 2, 3, 1, ... without restarting between classes
    key, k = {}, 5 + 1
    for r in range(8):
        k = k * MULTIPLIER % MODULUS
        key[r] = k
    assert key[0] == 289626
    assert folds.tolist() == [1, 1, 1, 3, 2, 2, 2, 3]  # docs/cost_complexity.md, section 4
    order = sorted([r for r in range(8) if y[r] == 0], key=key.get) + sorted([r for r in range(8) if y[r] == 1],
                                                                            key=key.get)
    expected = [0] * 8
    for i, r in enumerate(order):
        expected[r] = i % 3 + 1
    assert folds.tolist() == expected
    assert assign(y, 3, seed=5).tolist() == expected  # the same every time
    assert assign(y, 3, seed=6).tolist() != expected
    assert len({tuple(assign(y, 3, seed=s).tolist()) for s in range(6)}) > 2
    for c in (0, 1):  # stratified: each fold holds 1 or 2 rows of each class
        assert sorted(np.bincount(folds[y == c], minlength=4)[1:].tolist()) in ([1, 1, 2],)


@pytest.mark.parametrize("folds,seed,message", [
    (1, 0, "folds 1 is not allowed"), (9, 0, "folds 9 is more than the 8 rows"),
    (2, -1, "seed -1 is not allowed"), (True, 0, "folds True is not allowed")])
def test_fold_errors(folds, seed, message):
    with pytest.raises(InfotreeError, match=message):
        assign(np.zeros(8, int), folds, seed)


# -- the command line ------------------------------------------------------------------------

def _run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_cptable_json_exact(capsys):
    status, out, _ = _run(["cptable", str(DATA / "kyphosis.csv"), "--target", "Kyphosis", "--cp", "0", "--folds",
                           "10", "--seed", "1", "--sequence", "rpart", "--format", "json", "--steps"], capsys)
    assert status == 0
    doc = json.loads(out)
    assert [r["CP"] for r in doc["rows"]] == ["3/17", "1/51", "0"]
    assert [r["xerror"] for r in doc["rows"]] == ["1", "18/17", "18/17"]
    assert doc["rows"][1]["xstd"] == "sqrt(14/289)" and doc["rows"][0]["min"] and doc["rows"][0]["one_se"]
    assert doc["path"]["steps"][0]["cut"][0]["alpha"] == "1/3"


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_cptable_formats(fmt, capsys):
    status, out, _ = _run(["cptable", str(DATA / "kyphosis.csv"), "--target", "Kyphosis", "--cp", "0", "--format", fmt,
                           "--steps"], capsys)
    assert status == 0 and "0.1765" in out and "1/3" in out


@pytest.mark.parametrize("argv,message", [
    (["tree", "--algorithm", "cart", "--prune", "cost-complexity"], "needs exactly one of --cp X, --alpha X"),
    (["tree", "--algorithm", "cart", "--alpha", "1"], "--alpha applies to --prune cost-complexity"),
    (["tree", "--algorithm", "cart", "--prune", "cost-complexity", "--select", "1se", "--risk", "impurity"],
     "--select chooses by rpart's cross-validated cp table"),
    (["tree", "--prune", "cost-complexity", "--select", "1se"], "--prune cost-complexity is CART's"),
    (["tree", "--prune", "cost-complexity", "--cp", "0.01"], "--cp applies to --algorithm cart (criterion gini, "
                                                             "entropy, misclassification, squared-error, poisson "
                                                             "or exp), not "
                                                             "--algorithm id3 (criterion gain)"),
    (["tree", "--algorithm", "cart", "--folds", "5"], "--folds applies to"),
    (["cptable", "--algorithm", "id3"], "cptable is CART's"),
    (["cptable", "--folds", "100"], "folds 100 is more than the 81 rows"),
    (["evaluate", "--algorithm", "cart", "--compare", "unpruned,foo"], "--compare 'foo' is not allowed"),
    (["evaluate", "--compare", "c45:cost-complexity"], "--compare 'c45:cost-complexity' is not allowed"),
    (["tree", "--algorithm", "cart", "--prune", "cost-complexity", "--alpha", "x"], "invalid value 'x'"),
])
def test_bad_options_one_line(argv, message, capsys):
    status, out, err = _run(argv[:1] + [str(DATA / "kyphosis.csv"), "--target", "Kyphosis"] + argv[1:], capsys)
    assert status in (1, 2) and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_prune_cost_complexity_cli_matches_api(capsys):
    status, out, _ = _run(["tree", str(DATA / "kyphosis.csv"), "--target", "Kyphosis", "--algorithm", "cart",
                           "--prune", "cost-complexity", "--cp", "1/51", "--format", "json", "--nodes", "none"],
                          capsys)
    assert status == 0
    doc = json.loads(out)
    text = json.dumps(doc)
    assert '"method": "cost-complexity"' in text and '"link_alpha": "1/3"' in text
    # the same tree from the API, and a model that loads back with its records
    from infotree.model import load_model

    path = Path(__import__("tempfile").mkdtemp()) / "m.json"
    path.write_text(out)
    tree = load_model(path)
    assert [n.pruned.action for n in tree.nodes() if n.pruned is not None] == ["kept", "collapsed"]
    assert sum(1 for _ in tree.leaves()) == 2


def test_evaluate_equals_an_independent_cross_validation(capsys):
    status, out, _ = _run(["evaluate", str(DATA / "kyphosis.csv"), "--target", "Kyphosis", "--algorithm", "cart",
                           "--folds", "5", "--seed", "3", "--format", "json"], capsys)
    assert status == 0
    e = json.loads(out)["evaluations"][0]
    data = load(DATA / "kyphosis.csv", target="Kyphosis", numeric="auto", on_missing="keep")
    folds = assign(data.y, 5, 3)
    correct = 0
    for f in range(1, 6):
        tree = build_tree(data.subset(np.flatnonzero(folds != f)), criterion="gini", cp=Fraction(1, 100),
                          min_samples_split=20, min_leaf=7, max_depth=30)
        held = data.subset(np.flatnonzero(folds == f))
        correct += sum(p == data.classes[c] for p, c in zip(tree.predict(held), held.y.tolist()))
    assert e["accuracy"] == str(Fraction(correct, 81))
    cm = [[Fraction(v) for v in row] for row in e["confusion"]]
    assert sum(cm[i][i] for i in range(2)) == correct and sum(map(sum, cm)) == 81


def test_evaluate_compare_and_regression(capsys):
    status, out, _ = _run(["evaluate", str(DATA / "airquality.csv"), "--target", "Ozone", "--criterion",
                           "squared-error", "--folds", "4", "--compare", "--format", "json"], capsys)
    assert status == 0
    ev = json.loads(out)["evaluations"]
    assert [e["configuration"] for e in ev] == ["squared_error, unpruned (cp 0)",
                                                 "squared_error, cost-complexity (select 1se)"]
    for e in ev:
        mse, r2 = Fraction(e["mse"]), Fraction(e["r2"])
        assert mse > 0 and r2 < 1


def test_cp_table_html():
    table = _rpart_table(("kyphosis.csv", "Kyphosis", "gini", 20, 7))
    html = table._repr_html_()
    assert "<table>" in html and "1-SE" in html and "sqrt(14/289)" in html


def test_entropy_impurity_alphas_are_exact_logs():
    data = _random_data(2)
    tree = build_tree(data, criterion="entropy", cp=None, min_samples_split=2, min_leaf=1, max_depth=2)
    path = pruning_path(tree, "impurity")
    assert any(isinstance(s.alpha, Exact) and not s.alpha.is_rational() for s in path.steps)
    out = io.StringIO()
    from infotree.printers.complexity import write

    write(path, out)
    assert "log2" in out.getvalue()


@pytest.mark.parametrize("rule,leaves", [("min", 8), ("1se", 4)])
def test_select_prunes_at_the_rule_row(rule, leaves):
    data = load(DATA / "stagec.csv", target="progstat", on_missing="keep", numeric="auto")
    tree = build_tree(data, criterion="gini", cp=0, min_samples_split=20, min_leaf=7, max_depth=30,
                      prune="cost-complexity", ccp_select=rule, folds=10, seed=1, ccp_sequence="rpart")
    # the stagec table above: least xerror at nsplit 7, the 1-SE row at nsplit 3
    assert sum(1 for _ in tree.leaves()) == leaves


def test_compare_across_algorithms_on_the_same_folds(capsys):
    status, out, _ = _run(["evaluate", str(DATA / "stagec.csv"), "--target", "progstat", "--algorithm", "cart",
                           "--compare", "unpruned,pessimistic", "--folds", "5", "--seed", "2", "--format", "json"],
                          capsys)
    assert status == 0
    ev = {e["configuration"]: e for e in json.loads(out)["evaluations"]}
    assert list(ev) == ["gini, unpruned (cp 0)", "gain_ratio, pessimistic"]
    data = load(DATA / "stagec.csv", target="progstat", on_missing="keep", numeric="auto")
    folds = assign(data.y, 5, 2)
    correct = 0
    for f in range(1, 6):  # C4.5 as J48 with pruning, grown without fold f
        tree = build_tree(data.subset(np.flatnonzero(folds != f)), criterion="gain_ratio", prune="pessimistic")
        held = data.subset(np.flatnonzero(folds == f))
        correct += sum(p == data.classes[c] for p, c in zip(tree.predict(held), held.y.tolist()))
    assert ev["gain_ratio, pessimistic"]["accuracy"] == str(Fraction(correct, 146))


@pytest.mark.skipif(__import__("shutil").which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles(tmp_path):
    """A pruned tree's records, a cp table with its derivation, an entropy path and an evaluation compile."""
    import subprocess

    from infotree.evaluation import cross_validate
    from infotree.printers import latex, latex_of
    from infotree.printers.complexity import write

    data = load(DATA / "kyphosis.csv", numeric="auto", target="Kyphosis")
    opts = dict(criterion="gini", min_samples_split=20, min_leaf=7, max_depth=30)
    body = latex_of(build_tree(data, cp=0, prune="cost-complexity", ccp_cp=Fraction(1, 51), **opts), steps=True)
    parts = [_rpart_table(("kyphosis.csv", "Kyphosis", "gini", 20, 7)),
             pruning_path(build_tree(_random_data(2), criterion="entropy", cp=None, max_depth=2), "impurity"),
             [("gini, cp 0.01", cross_validate(data, lambda s: build_tree(s, cp=Fraction(1, 100), **opts), folds=3))]]
    for part in parts:
        out = io.StringIO()
        write(part, out, fmt="latex", steps=True)
        body += out.getvalue()
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage{%s}\n\\begin{document}\n%s\\end{document}\n"
                                      % (",".join(latex.PACKAGES), body), encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
