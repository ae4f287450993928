"""Forests (issue #23): the draws, both builders, exact votes, OOB error, importances, the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import BaggingClassifier, RandomForestClassifier, build_tree, grow_forest
from infotree.cli import main
from infotree.data import Dataset, from_arrays, load
from infotree.errors import InfotreeError

DATA = Path(__file__).parent / "data"
# bagging as docs/forests.md builds it by hand: ID3's gain, every feature, the trees' majority vote
# (forest's own defaults are scikit-learn's RandomForestClassifier's)
BAGGING = ("--criterion", "gain", "--max-features", "all", "--vote", "majority")


def run(args, capsys):
    try:
        status = main([str(a) for a in args])
    except SystemExit as e:  # argparse's usage errors
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err


# -- the draws, re-derived from the documented procedure -----------------------------------

def _raw(seed, *key):
    bg = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key))
    while True:
        yield int(bg.random_raw())


def _node_words(seed, t, path):
    """docs/forests.md: a node's words, BLAKE2b-64 of (tree key, path, counter)."""
    import hashlib

    key = b"".join(int(w).to_bytes(8, "little")
                   for w in np.random.SeedSequence(seed, spawn_key=(t, 1)).generate_state(2, np.uint64))
    steps = b"".join(x.to_bytes(4, "little") for step in path for x in step)
    i = 0
    while True:
        yield int.from_bytes(hashlib.blake2b(key + steps + i.to_bytes(8, "little"), digest_size=8).digest(), "little")
        i += 1


def _below(stream, n):
    """docs/forests.md: an output x is taken when x < 2^64 - (2^64 mod n), as x mod n."""
    limit = 2 ** 64 - 2 ** 64 % n
    for x in stream:
        if x < limit:
            return x % n


def _fisher_yates(stream, items, k):
    a = list(items)
    for i in range(k):
        j = i + _below(stream, len(a) - i)
        a[i], a[j] = a[j], a[i]
    return sorted(a[:k])


def test_bootstrap_rows_follow_the_documented_procedure():
    """Each tree's bootstrap rows are the documented draw from stream (seed, tree, 0)."""
    data = load(DATA / "weather.csv")
    forest = grow_forest(data, n_trees=4, seed=7, max_features=2)
    for t in range(4):
        stream = _raw(7, t, 0)
        expected = sorted(_below(stream, 14) for _ in range(14))
        assert forest.samples[t].tolist() == expected


@pytest.mark.parametrize("size", [5, 100])
def test_rejected_outputs_take_the_next_one(size):
    """Bounds just above 2^63 reject about half the outputs: the rule, one output at a time."""
    from infotree.ensemble import _below as below

    bounds = [2 ** 63 + 1 + k for k in range(size)]
    stream = _raw(3, 9)
    expected = []
    for n in bounds:
        expected.append(_below(stream, n))
    assert below(np.random.PCG64(np.random.SeedSequence(3, spawn_key=(9,))), bounds) == expected


def test_sampling_without_replacement_and_fraction():
    """Without replacement, round(f·N) distinct rows by the partial Fisher-Yates shuffle."""
    data = load(DATA / "weather.csv")
    forest = grow_forest(data, n_trees=3, seed=2, sample_fraction=Fraction(1, 2), bootstrap=False)
    for t in range(3):
        assert forest.samples[t].tolist() == _fisher_yates(_raw(2, t, 0), range(14), 7)
        assert len(set(forest.samples[t].tolist())) == 7


def test_each_node_chooses_among_its_own_draw():
    """A node's features are drawn from (seed, tree, path) alone: recomputed here for every node."""
    data = load(DATA / "contact-lenses.csv")
    m = data.n_features
    forest = grow_forest(data, n_trees=6, seed=11, max_features=2, criterion="gain")
    checked = 0
    for t, tree in enumerate(forest.trees):
        for node in tree.nodes():
            if node.considered is None:
                continue
            avail = [j for j in range(m) if j not in {f for f, _ in node.path}]
            drawn = avail if len(avail) <= 2 else _fisher_yates(_node_words(11, t, node.path), avail, 2)
            assert np.flatnonzero(node.considered).tolist() == drawn
            if node.split is not None:
                assert node.split in drawn
                checked += 1
    assert checked > 6


def test_subspace_draws_once_per_tree():
    """A random subspace tree splits only on the features drawn from stream (seed, tree, 2)."""
    data = load(DATA / "contact-lenses.csv")
    forest = grow_forest(data, n_trees=4, seed=5, max_features=2, draw="tree", criterion="gain")
    assert forest.kind == "random subspace"
    for t, tree in enumerate(forest.trees):
        drawn = _fisher_yates(_raw(5, t, 2), range(4), 2)
        assert {n.split for n in tree.nodes() if n.split is not None} <= set(drawn)


# -- determinism and the two builders -------------------------------------------------------

@pytest.mark.parametrize("criterion", ["gain", "gain-ratio", "gain-ratio-plain"])
@pytest.mark.parametrize("name", ["weather.numeric.csv", "labor.csv", "contact-lenses.csv"])
def test_both_builders_grow_the_same_forest(criterion, name, capsys):
    """The reference and level-wise builders print the same forest, derivations included, on every run."""
    common = [DATA / name, "--criterion", criterion, "--trees", 4, "--seed", 3, "--max-features", 2,
              "--show-oob", "--show-samples", "--nodes", "all", "--missing-as-value"]
    outs = [run(["forest", *common, "--builder", b], capsys) for b in ("reference", "levelwise", "reference")]
    assert outs[0][0] == 0 and outs[0][2] == ""
    assert outs[0][1] == outs[1][1] == outs[2][1]  # and the same on a second run


def _random_table(rng, n, m, values, classes):
    X = rng.integers(0, values, size=(n, m))
    y = rng.integers(0, classes, size=n)
    return Dataset(tuple(f"f{j}" for j in range(m)), "y", tuple(tuple(str(v) for v in range(values))
                   for _ in range(m)), tuple(f"c{c}" for c in range(classes)), X, y)


@pytest.mark.parametrize("criterion", ["gain", "gain_ratio", "gain_ratio_plain"])
def test_both_builders_on_generated_tables(criterion):
    """Both builders grow the same random forest on generated tables (every tree's JSON)."""
    from infotree.printers import render
    import io

    rng = np.random.default_rng(0)
    for case in range(6):
        data = _random_table(rng, int(rng.integers(8, 60)), int(rng.integers(2, 7)), int(rng.integers(2, 4)),
                             int(rng.integers(2, 4)))
        texts = []
        for builder in ("reference", "levelwise"):
            forest = grow_forest(data, n_trees=3, seed=case, max_features="sqrt", criterion=criterion, builder=builder)
            buf = io.StringIO()
            for tree in forest.trees:
                render(tree, buf, fmt="json")
            texts.append(buf.getvalue())
        assert texts[0] == texts[1]


@pytest.mark.parametrize("criterion", ["gain", "gain_ratio"])
def test_both_builders_on_numeric_columns(criterion):
    """An ID3 forest on numeric columns (its trees grown together on the data's codes) prints
    the reference builder's forest, every node's cuts included (their ranks are the tree's
    own sample's values, not the data's), and each tree keeps its sample's values as
    Dataset.sample gives them (C4.5: grown tree by tree)."""
    from infotree.data.dataset import SampledValues
    from infotree.printers import render
    import io

    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(150, 3)), 1)
    y = [f"k{v}" for v in (X[:, 0] + rng.normal(size=150) > 0).astype(int) + (X[:, 1] > 1)]
    data = from_arrays(X, y, numeric="auto")
    texts = []
    for builder in ("reference", "levelwise"):
        forest = grow_forest(data, n_trees=3, seed=2, max_features=2, criterion=criterion, builder=builder)
        buf = io.StringIO()
        for tree in forest.trees:
            render(tree, buf, fmt="json", nodes="all")
        texts.append(buf.getvalue())
        for tree, rows in zip(forest.trees, forest.samples):
            sample = data.sample(rows)
            assert tree.numbers == sample.numbers and tree.domains == sample.domains
            assert all(type(v) is SampledValues and v.values is whole for v, whole in zip(tree.numbers, data.numbers))
    assert '"threshold"' in texts[0] and texts[0] == texts[1]


# -- exact votes, recounted by hand ---------------------------------------------------------

def _leaf(tree, codes):
    """The leaf a row of nominal codes reaches, by the splits alone (an empty leaf: its parent)."""
    node = tree.root
    while node.test is not None:
        node = node.children[node.test.route(codes[node.split])]
    while node.n == 0:
        node = node.parent
    return node


def test_vote_fractions_recounted_from_the_trees():
    """Vote fractions and averaged leaf probabilities equal a recount from the leaves each row reaches."""
    data = load(DATA / "weather.csv")
    forest = grow_forest(data, n_trees=7, seed=4, max_features=2)
    X = data.X.tolist()
    for vote in ("majority", "average"):
        ballots = forest.ballots(vote=vote)
        for i, b in enumerate(ballots):
            leaves = [_leaf(tree, X[i]) for tree in forest.trees]
            votes = [int(np.argmax(leaf.class_counts)) for leaf in leaves]
            assert list(b.votes) == votes
            if vote == "majority":
                expected = [Fraction(votes.count(c), 7) for c in range(2)]
            else:
                expected = [sum(Fraction(int(leaf.class_counts[c]), leaf.n) for leaf in leaves) / 7 for c in range(2)]
            assert list(b.proba) == expected
            top = max(expected)
            assert b.prediction == expected.index(top)
            assert b.tied == (tuple(c for c in range(2) if expected[c] == top) if expected.count(top) > 1 else ())


def test_a_tie_goes_to_the_first_class_and_is_reported(capsys):
    """A 1-1 vote predicts the first class and reports the tie; the header states the rule."""
    data = load(DATA / "bacteria.csv")
    # two trees that disagree on row 14 (x1 = 0, x3 = 1): one never saw a 1, one did
    forest = grow_forest(data, n_trees=2, samples=[[0, 1, 2], [5, 13, 0]])
    b = forest.ballots()[13]
    assert sorted(b.votes) == [0, 1] and b.proba == (Fraction(1, 2), Fraction(1, 2))
    assert b.prediction == 0 and b.tied == (0, 1)
    status, out, _ = run(["forest", DATA / "bacteria.csv", "--sample", "1-3", "--sample", "1,6,14", "--show-oob"],
                         capsys)
    assert status == 0
    assert "a tie goes to the first class in class order (0, 1)" in out


def test_oob_error_recomputed_independently():
    """The OOB error is the exact share of wrong majority votes of the trees that did not draw a row."""
    data = load(DATA / "weather.csv")
    forest = grow_forest(data, n_trees=5, seed=9, max_features="sqrt")
    X, y = data.X.tolist(), data.y.tolist()
    wrong = voted = 0
    for i in range(14):
        votes = [int(np.argmax(_leaf(tree, X[i]).class_counts)) for t, tree in enumerate(forest.trees)
                 if i not in set(forest.samples[t].tolist())]
        if not votes:
            continue
        voted += 1
        counts = [votes.count(c) for c in range(2)]
        wrong += counts.index(max(counts)) != y[i]
    ballots, no_vote, error = forest.oob()
    assert no_vote == 14 - voted
    assert error == Fraction(wrong, voted)


def test_the_lecture_sample_all_rows_but_four(capsys):
    """The lecture's S1 (all rows but 3, 10, 14, 16) is given with --sample and printed back."""
    status, out, _ = run(["forest", DATA / "bacteria.csv", "--sample", "all but 3,10,14,16", "--show-samples",
                          *BAGGING], capsys)
    assert status == 0
    assert "rows drawn: 1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15\n" in out
    assert "out of bag: 3, 10, 14, 16\n" in out
    assert "bagging: 1 tree," in out and "rows given explicitly" in out


def test_samples_file_and_predict(tmp_path, capsys):
    """A samples file gives one tree per non-empty line; --predict prints every tree's vote."""
    samples = tmp_path / "s.txt"
    samples.write_text("1-12\n\n5-16\n1,1,2,6,14\n")
    new = tmp_path / "new.csv"
    new.write_text("x1,x2,x3\n0,1,0\n1,0,1\n")
    status, out, _ = run(["forest", DATA / "bacteria.csv", "--samples", samples, "--predict", new,
                          "--format", "json", *BAGGING], capsys)
    assert status == 0
    doc = json.loads(out)
    assert doc["forest"]["trees"] == 3 and doc["forest"]["samples_given"]
    assert [v["row"] for v in doc["votes"]] == ["1", "2"]
    for v in doc["votes"]:
        shares = [Fraction(p) for p in v["proba"].values()]
        assert sum(shares) == 1
        assert shares == [Fraction(v["votes"].count(c), 3) for c in ("0", "1")]


def test_predict_with_an_unseen_value(tmp_path, capsys):
    """An unseen value in --predict rows is a one-line error naming the file and --unseen."""
    new = tmp_path / "new.csv"
    new.write_text("x1,x2,x3\n2,0,1\n")
    status, out, err = run(["forest", DATA / "bacteria.csv", "--trees", 2, "--predict", new, "--criterion", "gain"],
                           capsys)
    assert status == 1 and err.count("\n") == 1
    assert "new.csv line 2: value '2' of feature 'x1' was not seen in training" in err and "--unseen majority" in err
    status, out, err = run(["forest", DATA / "bacteria.csv", "--trees", 2, "--predict", new, "--unseen", "majority",
                            "--format", "json", "--criterion", "gain"], capsys)
    assert status == 0 and len(json.loads(out)["votes"]) == 1


# -- importances ----------------------------------------------------------------------------

_TINY = [("0", "0", "n"), ("0", "1", "n"), ("1", "0", "y"), ("1", "1", "y"), ("1", "1", "n"), ("0", "0", "y")]


def test_mdi_against_a_hand_computation():
    """Gini, two trees with given samples.

    Tree 1, rows 1-6 (3 n, 3 y; Gini 1/2): a and b both leave two nodes of Gini 4/9
    (decrease 1/18); a is first.  Below a=0 (rows 1,2,6) b leaves (1n,1y) and (n):
    decrease 4/9 - 2/3·1/2 = 1/9, at a node of share 3/6: 1/18; below a=1 the same.
    MDI tree 1: a 1/18, b 1/9.  Tree 2, rows 1,1,3,4 (2 n, 2 y): a separates them
    (decrease 1/2), b leaves (2n,1y) and (y): 1/2 - 3/4·4/9 = 1/6; a wins: a 1/2, b 0.
    Forest: a (1/18 + 1/2)/2 = 5/18, b (1/9)/2 = 1/18; shares 5/6 and 1/6.
    """
    data = from_arrays([r[:2] for r in _TINY], [r[2] for r in _TINY], feature_names=["a", "b"])
    forest = grow_forest(data, criterion="gini", samples=[range(6), [0, 0, 2, 3]], cp=None, min_leaf=1,
                         surrogates=0, competitors=0)
    mdi, share = forest.mdi_shares()
    assert mdi == [Fraction(5, 18), Fraction(1, 18)]
    assert share == [Fraction(5, 6), Fraction(1, 6)] and sum(share) == 1


def test_mdi_of_information_gain_is_the_root_gain_on_one_split():
    """One tree with one split: its MDI is that split's information gain, exactly."""
    from infotree.exact import Exact

    data = load(DATA / "bacteria.csv")
    forest = grow_forest(data, samples=[[r for r in range(16) if r + 1 not in (3, 10, 14, 16)]])
    mdi, share = forest.mdi_shares()
    # one split on x2 at the root: H(11, 1) = log2 12 - 11/12·log2 11
    assert mdi == [0, Exact.log2(12) - Fraction(11, 12) * Exact.log2(11), 0]
    assert share == [0, 1, 0]


def test_permutation_importance_recomputed():
    """Permutation importance equals a recount with the documented shuffles of the OOB rows."""
    data = load(DATA / "weather.csv")
    forest = grow_forest(data, n_trees=4, seed=1, max_features=2)
    perm, no_oob = forest.permutation_importance()
    X, y = data.X.tolist(), data.y.tolist()
    for j in range(4):
        total, used = Fraction(0), 0
        for t, tree in enumerate(forest.trees):
            rows = [i for i in range(14) if i not in set(forest.samples[t].tolist())]
            if not rows:
                continue
            used += 1
            order = list(rows)
            stream = _raw(1, t, 3, j)
            for i in range(len(order)):
                k = i + _below(stream, len(order) - i)
                order[i], order[k] = order[k], order[i]
            right = sum(int(np.argmax(_leaf(tree, X[i]).class_counts)) == y[i] for i in rows)
            shuffled = sum(int(np.argmax(_leaf(tree, X[i][:j] + [X[r][j]] + X[i][j + 1:]).class_counts)) == y[i]
                           for i, r in zip(rows, order))
            total += Fraction(right - shuffled, len(rows))
        assert perm[j] == total / used
    assert no_oob == 4 - used


def test_importance_bias_toward_many_valued_features():
    """docs/forests.md: an ID column (one value per row) earns the largest MDI although it
    predicts nothing out of bag; the permutation importance shows it."""
    rng = np.random.default_rng(1)
    n = 40
    signal = rng.integers(0, 2, n)
    noise = (signal ^ (rng.random(n) < 0.2)).astype(int)
    X = [[str(i), str(s)] for i, s in enumerate(noise)]
    forest = grow_forest(from_arrays(X, [str(v) for v in signal], feature_names=["id", "x"]), n_trees=10, seed=0,
                         max_features=1)
    mdi, _ = forest.mdi_shares()
    perm, _ = forest.permutation_importance()
    assert mdi[0] > mdi[1]
    assert perm[0] <= 0 < perm[1]


# -- the command line -----------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_formats_are_deterministic(fmt, capsys):
    """Text, Markdown and JSON are byte-identical on a second run and hold the forest's parts."""
    args = ["forest", DATA / "weather.csv", "--trees", 3, "--seed", 5, "--max-features", "sqrt", "--format", fmt,
            "--show-samples", "--show-oob"]
    first, second = run(args, capsys), run(args, capsys)
    assert first[0] == 0 and first[1] == second[1]
    if fmt == "json":
        doc = json.loads(first[1])
        assert len(doc["trees"]) == 3 and doc["forest"]["kind"] == "random forest"
        assert doc["oob"]["error"] is not None and [r["row"] for r in doc["oob"]["rows"]] == list(range(1, 15))
        assert [i["feature"] for i in doc["importances"]] == ["outlook", "temperature", "humidity", "windy"]
    elif fmt == "markdown":
        assert first[1].startswith("# Forest\n") and "| feature | MDI |" in first[1]
    else:
        assert "== Tree 3 ==" in first[1] and "OOB error:" in first[1]


def test_cart_forest_and_subspace_names(capsys):
    """A CART random subspace is named as such and lists each tree's features."""
    status, out, _ = run(["forest", DATA / "weather.numeric.csv", "--algorithm", "cart", "--trees", 2,
                          "--max-features", 2, "--subspace", "--show-samples"], capsys)
    assert status == 0
    assert out.startswith("random subspace: 2 trees, criterion gini, 2 of 4 features drawn once per tree")
    assert out.count("features: ") == 2


@pytest.mark.parametrize("args, words", [
    (["--trees", "0"], ["--trees", "positive integer"]),
    (["--max-features", "99"], ["--max-features 99", "1 to 4"]),
    (["--max-features", "half"], ["--max-features", "sqrt, log2, all"]),
    (["--sample-fraction", "1.5"], ["--sample-fraction", "(0, 1]"]),
    (["--sample-fraction", "x"], ["--sample-fraction", "(0, 1]"]),
    (["--seed", "-1"], ["--seed", "non-negative"]),
    (["--sample", "1-99"], ["--sample", "rows are 1 to 14"]),
    (["--sample", "1,b"], ["--sample", "'b'"]),
    (["--sample", "1-3", "--trees", "2"], ["--trees 2", "samples"]),
    (["--prune", "pessimistic", "--criterion", "gain-ratio"], ["--prune"]),
    (["--criterion", "squared-error"], ["squared_error", "regression", "allowed: gain"]),
    (["--lookahead", "1"], ["--lookahead does nothing in 'forest'", "it applies to: tree"]),
])
def test_bad_input_is_one_line_naming_the_option(args, words, capsys):
    """Each bad option value is one line on stderr naming the option and what is allowed."""
    status, out, err = run(["forest", DATA / "weather.csv", *args], capsys)
    assert status in (1, 2) and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    for w in words:
        assert w in err


def test_api_errors_name_the_parameter():
    """grow_forest's errors name the parameter at fault."""
    data = load(DATA / "weather.csv")
    for kwargs, word in ((dict(n_trees=0), "n_trees"), (dict(max_features=5), "max_features 5"),
                         (dict(sample_fraction=0), "sample_fraction"), (dict(draw="leaf"), "draw"),
                         (dict(seed=-3), "seed"), (dict(vote="soft"), "vote")):
        with pytest.raises(InfotreeError, match=word):
            grow_forest(data, **kwargs)


# -- scikit-learn style ---------------------------------------------------------------------

def test_random_forest_classifier():
    """RandomForestClassifier: deterministic exact probabilities, OOB score, importances summing to 1, max_samples."""
    data = load(DATA / "weather.numeric.csv")
    X = [[data.domains[j][c] for j, c in enumerate(row)] for row in data.X.tolist()]
    y = [data.classes[c] for c in data.y.tolist()]
    clf = RandomForestClassifier(n_estimators=8, random_state=3, oob_score=True).fit(X, y)
    again = RandomForestClassifier(n_estimators=8, random_state=3, oob_score=True).fit(X, y)
    proba = clf.predict_proba_exact(X)
    assert (proba == again.predict_proba_exact(X)).all()
    assert all(sum(row) == 1 and all(isinstance(p, Fraction) for p in row) for row in proba)
    assert clf.predict(X).tolist() == [clf.classes_[list(r).index(max(r))] for r in proba]
    assert sum(clf.feature_importances_exact_) == 1
    assert clf.oob_score_ == float(1 - clf.forest_.oob()[2])
    assert clf.forest_.kind == "random forest" and clf.forest_.params["m_try"] == 2
    assert 0 <= clf.score(X, y) <= 1
    assert "n_estimators=8" in repr(clf)
    small = RandomForestClassifier(n_estimators=2, random_state=0, max_samples=5, bootstrap=False).fit(X, y)
    assert [len(s) for s in small.forest_.samples] == [5, 5]
    half = RandomForestClassifier(n_estimators=2, random_state=0, max_samples=0.5).fit(X, y)
    assert [len(s) for s in half.forest_.samples] == [7, 7]
    with pytest.raises(InfotreeError, match="max_samples 99"):
        RandomForestClassifier(n_estimators=2, max_samples=99).fit(X, y)


def test_bagging_classifier_uses_subspaces():
    """BaggingClassifier draws a subspace per tree when max_features < 1, else bags."""
    data = load(DATA / "contact-lenses.csv")
    X = [[data.domains[j][c] for j, c in enumerate(row)] for row in data.X.tolist()]
    y = [data.classes[c] for c in data.y.tolist()]
    clf = BaggingClassifier(n_estimators=5, criterion="gain", max_features=0.5, random_state=0).fit(X, y)
    assert clf.forest_.kind == "random subspace" and clf.forest_.params["m_try"] == 2
    full = BaggingClassifier(n_estimators=5, criterion="gain", random_state=0, vote="majority").fit(X, y)
    assert full.forest_.kind == "bagging"
    assert all(sum(r) == 1 for r in full.predict_proba_exact(X))


def test_the_bias_demonstration_in_the_docs_is_current(capsys):
    """docs/forests.md's importance-bias table is what the command prints now."""
    docs = (Path(__file__).parent.parent / "docs" / "forests.md").read_text(encoding="utf-8")
    table = docs.split("<!-- bias demo: begin -->\n")[1].split("<!-- bias demo: end -->")[0]
    data = Path(__file__).parent.parent / "worked_examples" / "gain_ratio_vs_id" / "data.csv"
    status, out, _ = run(["forest", data, "--trees", 25, "--max-features", 1, "--seed", 0, "--criterion", "gain",
                          "--format", "markdown"], capsys)
    assert status == 0 and table in out
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    mdi = {r[0].lstrip("| "): float(r[1]) for r in rows}
    perm = {r[0].lstrip("| "): float(r[4]) for r in rows}
    assert max(mdi, key=mdi.get) == "id" and perm["id"] == 0 and max(perm, key=perm.get) == "tear-prod-rate"


def test_a_forest_node_names_the_features_it_drew():
    """A forest node's reason names its drawn features; a plain tree's does not."""
    data = load(DATA / "weather.csv")
    forest = grow_forest(data, n_trees=3, seed=1, max_features=1)
    for tree in forest.trees:
        for node in tree.nodes():
            if node.split is not None:
                assert node.reason.endswith(f"(among the features drawn here: {node.split_feature})")
            elif node.stop in ("pure", "empty"):
                assert "drawn" not in node.reason
    from infotree import build_tree

    assert all("drawn" not in n.reason for n in build_tree(data).nodes())


def test_the_forest_defaults_leave_tree_alone(capsys):
    """The forest's CART defaults (no competitors, no surrogates) do not leak into `infotree tree`."""
    args = [DATA / "weather.csv", "--algorithm", "cart", "--min-samples-split", 2, "--nodes", "root"]
    run(["forest", *args[:-2], "--trees", 1], capsys)
    status, out, _ = run(["tree", *args, "--lookahead", 1], capsys)  # its root (humidity) has surrogates
    assert status == 0 and "surrogates (sent with the" in out


@pytest.mark.parametrize("name", ["labor.csv", "kyphosis.csv", "stagec.csv"])
@pytest.mark.parametrize("kind", [dict(), dict(max_features=2), dict(max_features=3, draw="tree"),
                                  dict(max_features=2, surrogates=2), dict(max_features=2, max_depth=2)])
def test_cart_forests_and_the_fast_cart_builder(name, kind):
    """CART bagging, random forests (features drawn at each node) and random subspaces grow
    the same trees, records included, with the fast CART builder (all trees together, a
    forest's nodes sorting only what they drew; with surrogates, every feature kept
    sorted) and the reference one (tree by tree); max_depth: the last depth's candidates
    are the drawn features only, as the reference's."""
    import io

    from infotree.printers import render

    data = load(DATA / name, numeric="auto", on_missing="keep")
    kind = dict(kind)
    cart = dict(criterion="gini", cp=None, min_leaf=1, surrogates=kind.pop("surrogates", 0), competitors=0)
    texts = []
    for builder in ("auto", "reference"):
        buf = io.StringIO()
        forest = grow_forest(data, n_trees=3, seed=1, builder=builder, **kind, **cart)
        for tree in forest.trees:
            render(tree, buf, fmt="json")
        texts.append(buf.getvalue())
    assert texts[0] == texts[1]
    if kind.get("max_features") and "draw" not in kind:
        assert forest.kind == "random forest"


@pytest.mark.parametrize("case", range(8))
def test_cart_forests_grown_together_on_generated_tables(case):
    """The trees the fast CART builder grows together (a bootstrap sample's repeated rows
    as one row counted as often as drawn) are the reference builder's, tree by tree,
    records included: numeric columns with ties, a nominal one, missing values, min_leaf,
    min_samples_split, max_depth and per-node or per-tree draws."""
    import io

    from infotree.printers import render

    rng = np.random.default_rng(100 + case)
    n = int(rng.integers(20, 90))
    cols = [rng.integers(0, int(rng.integers(2, 9)), n).astype(float) / 4 for _ in range(3)]
    cols.append(rng.choice(np.array(["a", "b", "c", "d"], dtype=object), n))
    X = np.array(cols, dtype=object).T
    X[rng.random(X.shape) < 0.08] = None
    y = rng.integers(0, int(rng.integers(2, 4)), n).astype(str)
    data = from_arrays(X, y, numeric="auto", on_missing="keep")
    options = dict(criterion=["gini", "entropy", "misclassification"][case % 3], cp=None, surrogates=0,
                   competitors=0, min_leaf=int(rng.integers(1, 3)), min_samples_split=int(rng.integers(2, 6)),
                   max_depth=[None, 3][case % 2], max_features=int(rng.integers(1, 5)),
                   draw=["node", "tree"][case % 4 == 3])
    texts = []
    for builder in ("auto", "reference"):
        buf = io.StringIO()
        for tree in grow_forest(data, n_trees=4, seed=case, builder=builder, **options).trees:
            render(tree, buf, fmt="json")
        texts.append(buf.getvalue())
    assert texts[0] == texts[1]


def test_trees_grown_together_in_groups_are_the_same(monkeypatch):
    """Past a number of rows the trees grow together in consecutive groups: the same forest."""
    import io

    import infotree.growing as tree_module
    from infotree.printers import render

    data = load(DATA / "kyphosis.csv", numeric="auto", on_missing="keep")

    def forest_json():
        buf = io.StringIO()
        for tree in grow_forest(data, n_trees=5, seed=3, criterion="gini", cp=None, surrogates=0, competitors=0,
                                max_features=2).trees:
            render(tree, buf, fmt="json")
        return buf.getvalue()

    whole = forest_json()
    monkeypatch.setattr(tree_module, "_TOGETHER_ROWS", 100)  # kyphosis has 81 rows: one tree a group
    assert forest_json() == whole
    assert list(tree_module._groups([81] * 5, 100)) == [[0], [1], [2], [3], [4]]
    assert list(tree_module._groups([40, 40, 30, 200, 10], 100)) == [[0, 1], [2], [3], [4]]


@pytest.mark.parametrize("criterion", ["gain_ratio", "gini"])
def test_probabilities_made_once_a_leaf_are_each_rows(criterion):
    """Tree._probas (a forest's votes and permutation importance) makes a leaf's probabilities
    once for the rows that end there; rows stopping above a leaf (C4.5 combining a missing
    value's branches, CART with no surrogate) get their own, as _proba gives them."""
    data = load(DATA / "labor.csv", on_missing="keep")
    tree = build_tree(data, criterion=criterion)
    codes = tree._codes(data, "error")
    stops = [tree._descend(tree.root, c).split is not None for c in codes]
    if criterion == "gain_ratio":
        assert any(stops)   # the combining path is exercised
    assert tree._probas(codes) == [tree._proba(tree.root, c) for c in codes]


def test_a_depths_draws_from_its_parents_rows_are_its_nodes_own():
    """DepthDraws: a depth's stream prefixes made from its parents' rows and its steps (the
    fast CART builder's forest) are the prefixes of the nodes' own paths, and its nodes draw
    what each node's path draws."""
    from infotree.nodedraw import DepthDraws, _NodeDraw

    data = load(DATA / "kyphosis.csv", numeric="auto", on_missing="keep")
    tree = build_tree(data, criterion="gini", cp=None, surrogates=0)
    draw = _NodeDraw(5, 3, 2, np.ones(data.n_features, bool), True, data.kinds)
    at = DepthDraws(np.frombuffer(draw.prefix(()), np.uint8).reshape(1, -1), draw.k, draw.offered, draw.m)
    depth, depths = [tree.root], 0
    while depth:
        assert [bytes(row) for row in at.P] == [draw.prefix(n.path) for n in depth]
        assert at.masks().tolist() == [draw(n).tolist() for n in depth]
        below = [(k, i, c) for k, n in enumerate(depth) for i, c in enumerate(n.children)]
        if below:
            at.children(np.array([k for k, _, _ in below]), np.array([depth[k].split for k, _, _ in below]),
                        np.array([i for _, i, _ in below]))
        depth, depths = [c for _, _, c in below], depths + 1
    assert depths > 3


@pytest.mark.parametrize("file, options", [
    ("stagec.csv", dict(criterion="gini", max_features=3, surrogates=2)),   # missing values: surrogates
    ("labor.csv", dict(criterion="gain_ratio", max_features=4)),             # C4.5: a missing value's branches
    ("breast-cancer.arff", dict(criterion="gain", max_features=3)),          # ID3: values a sample did not see
    ("weather.numeric.csv", dict(criterion="gain", max_features=2)),         # numeric cuts
])
def test_permutation_importance_descends_again_only_where_the_feature_is_read(file, options):
    """Each OOB row descends again only if its path tests the permuted feature (from the first
    node that does) or reads more (missing or unseen values, M-of-N): the importances of every
    row descending again from the root with the shuffled value."""
    from infotree.ensemble import _PERMUTE, _shuffle, _stream

    data = load(DATA / file, numeric="auto", on_missing="value" if options["criterion"] == "gain" else "keep")
    forest = grow_forest(data, n_trees=6, seed=3, **options)
    codes, y = forest._codes(None), data.y.tolist()
    expected = []
    for t, tree in enumerate(forest.trees):
        rows = np.flatnonzero(forest.in_bag[t] == 0).tolist()
        if not rows:
            continue

        def right(rows_codes):
            return sum(p.index(max(p)) == y[i] for p, i in zip(tree._probas(rows_codes), rows))

        base = right([codes[i] for i in rows])
        mine = []
        for j in range(len(data.features)):
            perm = _shuffle(_stream(3, t, _PERMUTE, j), rows)
            mine.append(Fraction(base - right([codes[i][:j] + [codes[r][j]] + codes[i][j + 1:]
                                               for i, r in zip(rows, perm)]), len(rows)))
        expected.append(mine)
    assert forest.permutation_by_tree() == expected
    assert any(any(v) for v in expected)


@pytest.mark.parametrize("criterion", ["gini", "misclassification", "entropy"])
def test_mdi_summed_in_integers_is_the_fraction_sum(criterion, monkeypatch):
    """Gini's and misclassification's MDI, summed per denominator in integers
    (ensemble._rational_mdi), equals each node's exact n/N·(I − Σ n_c/n·I_c) summed as Fractions."""
    from infotree import ensemble

    data = load(DATA / "stagec.csv", numeric="auto", on_missing="keep")
    forest = grow_forest(data, n_trees=6, seed=9, criterion=criterion, max_features=3)
    fast = forest.mdi_by_tree()
    monkeypatch.setattr(ensemble, "_rational_mdi", lambda *args: None)
    assert fast == forest.mdi_by_tree()
    assert any(v for t in fast for v in t)


def test_sample_weights_are_refused_not_misread():
    """One weight a data row, where each tree is grown on its sample's rows: refused in one line
    (a sample of the data's size took them as its own rows' weights)."""
    data = load(DATA / "stagec.csv", numeric="auto", on_missing="keep")
    with pytest.raises(InfotreeError, match="sample_weight is not allowed"):
        grow_forest(data, n_trees=2, seed=1, criterion="gini", sample_weight=[1] * data.n_rows)
