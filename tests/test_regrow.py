"""A fast-built CART tree keeps no depth's candidate arrays; its records, made by growing it
again when first read (infotree.grow.regrow), are those of a build that keeps them.

The kept records are themselves checked against the reference builder's in
test_cart_builder.py; here the regrown ones are compared with them node by node (every
candidate, surrogate, count and stop: test_cart_builder.records), for single trees (numeric,
nominal, missing values, regression, pruned by cp and by cost-complexity, a node_at
subtree) and for forests' trees grown in groups, in one and two processes, and pickled."""

import pickle
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import build_tree, grow_forest, load
from infotree.errors import InfotreeError
from infotree.grow import regrow
from infotree.grow.cart import CARTBuilder
from infotree.growing import node_at
from infotree.prune import cp_prune
from test_cart_builder import records

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def _records(tree):
    """test_cart_builder.records, a pruning record by its action and alpha (its weakest link
    names a node object of its own tree)."""
    return [x[:10] + ((getattr(x[10], "action", None), getattr(x[10], "alpha", None)),) + x[11:] for x in records(tree)]


def _kept(monkeypatch, make):
    """``make()`` with every depth's candidate arrays kept as it grows (no regrowing)."""
    with monkeypatch.context() as m:
        m.setattr(CARTBuilder, "keep_records", True)
        return make()


def _counted(monkeypatch):
    """The depths the trees are grown again to (None: whole), as they are."""
    calls = []
    grow_again = regrow.Regrow.regrow
    monkeypatch.setattr(regrow.Regrow, "regrow",
                        lambda self, tree, depth=None: calls.append(depth) or grow_again(self, tree, depth))
    return calls


SINGLE = [
    ("stagec.csv", dict(criterion="gini")),                                    # numeric + nominal, missing, surrogates
    ("stagec.csv", dict(criterion="entropy", surrogates=0, cp=Fraction(1, 50))),
    ("kyphosis.csv", dict(criterion="misclassification", min_samples_split=5)),
    ("labor.csv", dict(criterion="gini", surrogates=2, use_surrogate=1)),      # nominal subsets
    ("airquality.csv", dict(criterion="squared_error")),                        # regression, missing
    ("airquality.csv", dict(criterion="squared_error", cp=Fraction(1, 100))),
    ("kyphosis.csv", dict(criterion="gini", prune="cost-complexity", ccp_alpha=Fraction(1))),
]


@pytest.mark.parametrize("name,kw", SINGLE, ids=[f"{n} {k['criterion']}" for n, k in SINGLE])
def test_a_tree_s_regrown_records_are_the_kept_ones(monkeypatch, name, kw):
    data = load(DATA / name, numeric="auto", on_missing="keep", **({"target": "Kyphosis"} if "kyphosis" in name else {}))
    kept = _records(_kept(monkeypatch, lambda: build_tree(data, **kw)))
    calls = _counted(monkeypatch)
    tree = build_tree(data, **kw)
    grown = list(tree.nodes())
    assert all(type(nd._records) is regrow.Regrow for nd in grown if nd._records is not None)
    assert any(nd._records is not None for nd in grown)  # grown by the fast builder
    tree.root.candidates()  # a printout of the root's derivation: the tree grown again to the root's depth alone
    assert calls == [0]
    assert all(type(nd._records) is regrow.Regrow for nd in grown[1:] if nd._records is not None)
    assert _records(tree) == kept
    assert calls == [0, None]  # then once whole
    assert _records(pickle.loads(pickle.dumps(tree))) == kept  # pickled before its records were read: the same


def test_a_pickle_holds_a_tree_s_records_not_its_training_codes(monkeypatch):
    data = load(DATA / "stagec.csv", numeric="auto", on_missing="keep")
    kept = _records(_kept(monkeypatch, lambda: build_tree(data, criterion="gini")))
    tree = build_tree(data, criterion="gini")
    tree.root.candidates()  # grown again to the root's depth: the pickle grows the rest
    loaded = pickle.loads(pickle.dumps(tree))
    assert not any(type(nd._records) is regrow.Regrow for nd in loaded.nodes())
    assert _records(loaded) == kept


def test_a_subtree_grown_from_a_path_regrows_from_its_rows(monkeypatch):
    data = load(DATA / "kyphosis.csv", numeric="auto", target="Kyphosis")
    path = [("Start", ">", 8)]
    kept = _kept(monkeypatch, lambda: node_at(data, path, criterion="gini"))
    node = node_at(data, path, criterion="gini")
    assert type(node._records) is regrow.Regrow
    assert _records(node.tree) == _records(kept.tree)


FORESTS = [
    ("stagec.csv", dict(criterion="gini", surrogates=0)),  # rows drawn twice counted twice (multiplicity)
    ("stagec.csv", dict(criterion="gini")),                # surrogates: every drawn row a row of its own
    ("labor.csv", dict(criterion="entropy", surrogates=0)),
    ("kyphosis.csv", dict(criterion="gini", cp=Fraction(1, 100))),  # grown one by one, on data.sample(rows)
]


@pytest.mark.parametrize("name,kw", FORESTS, ids=[f"{n} surrogates={k.get('surrogates', 5)}" for n, k in FORESTS])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_forest_s_trees_regrow_alone_as_they_grew_in_groups(monkeypatch, name, kw, jobs):
    data = load(DATA / name, numeric="auto", on_missing="keep", **({"target": "Kyphosis"} if "kyphosis" in name else {}))
    kept = [_records(t) for t in _kept(monkeypatch, lambda: grow_forest(data, n_trees=9, seed=5, **kw)).trees]
    calls = _counted(monkeypatch)
    forest = grow_forest(data, n_trees=9, seed=5, n_jobs=jobs, **kw)
    bound = {id(nd._records): nd._records for t in forest.trees for nd in t.nodes() if nd._records is not None}
    assert all(r.data is forest.data and r.X is None for r in bound.values())  # the data set, not a group's copy
    assert [_records(t) for t in forest.trees] == kept
    assert calls == [0, None] * len(forest.trees)
    again = pickle.loads(pickle.dumps(grow_forest(data, n_trees=9, seed=5, n_jobs=jobs, **kw)))
    assert [_records(t) for t in again.trees] == kept


def test_a_node_pruned_away_reads_its_records(monkeypatch):
    """A node held across pruning that cut it off its tree (cp made the root a leaf) is found
    in the tree grown again by its path: once grown whole for all such nodes."""
    data = load(DATA / "kyphosis.csv", numeric="auto", target="Kyphosis")
    kept = _kept(monkeypatch, lambda: build_tree(data, criterion="gini"))
    want = [nd.candidates() for nd in kept.nodes() if nd.depth and nd.split is not None]
    calls = _counted(monkeypatch)
    tree = build_tree(data, criterion="gini")
    held = [nd for nd in tree.nodes() if nd.depth and nd.split is not None]
    cp_prune(tree, Fraction(1, 2))
    assert not tree.root.children  # every held node is off the tree
    assert [_plain(nd.candidates()) for nd in held] == [_plain(c) for c in want]
    assert calls == [held[0].depth, None]


def _plain(candidates):
    return [(c.feature, c.split, c.table, c.n_tried, c.unknown, c.decrease) for c in candidates]


def test_a_draw_that_is_not_a_function_of_the_path_is_named():
    """Records are never made from a tree that grew differently: the draw's defect is named."""
    data = load(DATA / "kyphosis.csv", numeric="auto", target="Kyphosis")
    rng = np.random.default_rng(0)
    tree = build_tree(data, criterion="gini", feature_draw=lambda node: rng.random(3) < 0.6)
    with pytest.raises(InfotreeError, match="function of the node's path"):
        for nd in tree.nodes():
            nd.candidates()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_forest_s_trees_regrow_from_its_own_samples(jobs):
    """Not from a worker's copy of a sample: the forest's own array, and its data set."""
    data = load(DATA / "stagec.csv", numeric="auto", on_missing="keep")
    forest = grow_forest(data, n_trees=6, seed=5, n_jobs=jobs, criterion="gini", max_features=2, draw="tree")
    for tree, rows in zip(forest.trees, forest.samples):
        assert tree.root._records.rows is rows and tree.root._records.data is forest.data
        tree.root.candidates()
        assert tree.draw.last == {}  # the tree grown again is not kept alive by the draw


def test_an_engine_forest_s_trees_regrow_from_its_data_set(monkeypatch):
    """Trees an engine grew whole in memory from a batch of rows: records from the forest's data."""
    pytest.importorskip("duckdb")
    from infotree.engines.duckdb import DuckDBProvider
    from infotree.engines.forest import grow_forest as engine_forest

    path = DATA / "kyphosis.csv"
    options = dict(n_estimators=4, random_state=3, sampling="poisson", criterion="gini", max_features="sqrt",
                   min_leaf=1, cp=None, surrogates=0)
    kept = _kept(monkeypatch, lambda: grow_forest(load(path, numeric="auto", target="Kyphosis"), **options))
    provider = DuckDBProvider(path, row_numbers=True, numeric="auto", target="Kyphosis")
    try:
        forest = engine_forest(provider, in_memory=10**6, **options)
    finally:
        provider.close()
    for tree, rows in zip(forest.trees, forest.samples):
        assert tree.root._records.data is forest.data and tree.root._records.rows is rows
    assert [_records(t) for t in forest.trees] == [_records(t) for t in kept.trees]
