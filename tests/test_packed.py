"""A fast-built CART tree keeps its nodes below the root as arrays until they are read
(infotree.grow.packed).

That the nodes made from them are the reference builder's, field by field and record by
record, is tests/test_cart_builder.py's (every node is read there).  Here: that a fit
leaves no other node object alive, that nodes are made only where read, that a forest's
trees grown together each read their own Regrow, and that a tree read in any order, or
pickled unread, is the same tree.
"""

import gc
import pickle
from pathlib import Path

import numpy as np
import pytest

from infotree import build_tree, from_arrays, load
from infotree.ensemble import grow_forest
from infotree.grow.regrow import Regrow
from infotree.node import Node

ROOT = Path(__file__).resolve().parent.parent


def numeric(n=600, seed=5, regression=False):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 4)), 2)
    y = np.round(X[:, 0] - X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=n), 2) if regression else \
        np.array(["a", "b", "c"])[np.digitize(X[:, 0] + X[:, 1] * X[:, 2], [-0.4, 0.4])]
    return from_arrays(X, y, numeric="auto", target="class")


def node_objects():
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Node)


def fields(node):
    return (node.path, node.depth, node.test, node.ties, node.stop, node.label, node.n,
            tuple(node.class_counts.tolist()), node.majority, node.levels, repr(node.surrogates))


@pytest.mark.parametrize("criterion,surrogates", [("gini", 0), ("gini", 5), ("squared_error", 0), ("entropy", 2)])
def test_a_fit_leaves_the_root_its_only_node_object(criterion, surrogates):
    data = numeric(regression=criterion == "squared_error")
    before = node_objects()
    tree = build_tree(data, criterion=criterion, surrogates=surrogates)
    assert node_objects() - before == 1   # the builder's objects are gone; the rest are arrays
    assert type(tree.root._kids) is int
    size = len(tree)                      # reading the tree makes every node once
    assert size > 100 and node_objects() - before == size
    assert len(tree) == size and node_objects() - before == size


def test_a_node_is_made_only_where_read():
    data = numeric()
    tree = build_tree(data, criterion="gini")
    before = node_objects()
    node = tree.root
    for _ in range(5):  # down the leftmost path: each read makes that node's two children
        node = node.children[0]
    assert node_objects() - before == 10
    assert node.depth == 5 and node.parent.parent.parent.parent.parent is tree.root


def test_read_in_any_order_the_same_tree():
    """Deep paths first, then everything; against a tree read in pre-order."""
    data = numeric(regression=True)
    a = build_tree(data, criterion="squared_error")
    b = build_tree(data, criterion="squared_error")
    leaves = [n for n in a.nodes() if n.is_leaf]
    for leaf in leaves[::-7]:  # b: walked to those leaves by their paths first
        node = b.root
        for _, branch in leaf.path:
            node = node.children[branch]
        assert fields(node) == fields(leaf)
    assert [fields(n) for n in b.nodes()] == [fields(n) for n in a.nodes()]


def test_siblings_share_their_depths_counts_and_steps():
    tree = build_tree(numeric(), criterion="gini")
    by_depth = {}
    for node in tree.nodes():
        if node.is_leaf and node._considered is None:  # made a leaf with its parent's split (pure)
            by_depth.setdefault(node.depth, []).append(node)
    shared = [nodes for nodes in by_depth.values() if len(nodes) > 1]
    assert shared
    for nodes in shared:
        assert all(n._cc is nodes[0]._cc for n in nodes)
        assert len({id(n.step) for n in nodes}) <= 2 * len({n.step[0] for n in nodes})


def test_an_unread_tree_pickles_as_a_read_one(tmp_path):
    data = load(ROOT / "tests/data/kyphosis.csv", target="Kyphosis")
    unread = build_tree(data, criterion="gini")
    read = build_tree(data, criterion="gini")
    expected = [fields(n) for n in read.nodes()]
    back = pickle.loads(pickle.dumps(unread))
    assert back._lazy is None
    assert [fields(n) for n in back.nodes()] == expected


def test_trees_grown_together_each_read_their_own_regrow():
    """A forest's trees grown in one builder: every node, made from the shared arrays, reads
    its own tree's Regrow (not the first tree's)."""
    data = numeric(n=400)
    forest = grow_forest(data, n_trees=6, criterion="gini", seed=3, n_jobs=1)
    regrows = set()
    for tree in forest.trees:
        r = tree.root._records
        assert type(r) is Regrow
        regrows.add(id(r))
        assert all(n._records is r for n in tree.nodes() if n._records is not None)
    assert len(regrows) == len(forest.trees)


def test_the_builder_keeps_a_depths_parents_not_its_ancestors(monkeypatch):
    """Without a feature draw no one asks a node being decided for its path: the objects alive
    when a depth is decided are its nodes, their parents and the root (a chain to the root a
    node was 300,000 objects at 10^6 regression rows)."""
    from infotree.grow.cart import CARTBuilder

    seen, level = [], CARTBuilder.level

    def counted(self, nodes, *rest):
        parents = {id(n.parent) for n in nodes if n.parent is not None}
        seen.append((nodes[0].depth, node_objects() - before, len(nodes) + len(parents) + 1))
        return level(self, nodes, *rest)

    monkeypatch.setattr(CARTBuilder, "level", counted)
    data = numeric(regression=True)
    before = node_objects()
    build_tree(data, criterion="squared_error", surrogates=0)
    assert max(depth for depth, _, _ in seen) > 6
    assert all(alive <= bound for _, alive, bound in seen), seen


def test_a_workers_trees_come_as_arrays_and_are_the_same_trees():
    """n_jobs=2: the trees a worker grew arrive unread (their root and arrays, no node pickled)
    and read as the trees grown in this process."""
    data = load(ROOT / "tests/data/kyphosis.csv", target="Kyphosis")   # (surrogates for its missing values)
    options = dict(n_trees=6, criterion="gini", seed=4, max_features=2)
    two, one = grow_forest(data, n_jobs=2, **options), grow_forest(data, n_jobs=1, **options)
    assert all(type(t.root._kids) is int for t in two.trees)   # a worker's too: no node was pickled
    for a, b in zip(two.trees, one.trees):
        assert [fields(n) for n in a.nodes()] == [fields(n) for n in b.nodes()]
        # (by repr: each forest's criterion object compares by identity)
        assert [repr(n.candidates()) for n in a.nodes()] == [repr(n.candidates()) for n in b.nodes()]
