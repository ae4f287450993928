"""What a grown tree keeps a node: 20 slots, the rarely set fields in one object apart, the
nodes' rows and a forest's equal splits shared; and nothing of that changes what a tree is."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np

from infotree import build_tree, grow_forest
from infotree.data import from_arrays
from infotree.node import _RARE, Node

DATA = Path(__file__).parent / "data"


def test_a_node_is_twenty_slots():
    """The budget a node's memory was cut to (a forest's 287,000 nodes: 256 -> 192 bytes
    each with the collector's header): a new field goes to _Rare unless most nodes set it."""
    node = Node(None, (), 0, np.array([1, 2]))
    assert len(Node.__slots__) == 20
    assert sys.getsizeof(node) <= 16 + 20 * 8 + 16  # the object, its slots, the collector's header


def test_rare_fields_read_their_defaults_until_set():
    node = Node(None, (), 0, np.array([3, 1]))
    assert node._rare is None
    assert [getattr(node, k) for k in _RARE] == list(_RARE.values())
    node.scale = np.int64(1)  # a level's scale of 1 (numpy's) keeps nothing
    node.pruned = None
    assert node._rare is None and node.scale == 1
    node.cuts = {}  # an empty dict of its own is kept: a builder fills it after setting it
    node.cuts[2] = (0, 1, 5)
    assert node.cuts == {2: (0, 1, 5)} and node._rare is not None
    record = ("a pruning record",)
    node.pruned, node.scale = record, 6
    other = Node(None, (), 0, np.array([1, 1]))
    assert other.pruned is None and other.cuts == {} and other.scale == 1  # nothing shared between nodes
    again = pickle.loads(pickle.dumps(node))
    assert (again.pruned, again.scale, again.cuts, again.mofn) == (record, 6, {2: (0, 1, 5)}, None)


def _numeric(n, seed=0, m=4):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 40, size=(n, m)) / 4
    y = np.where(X[:, 0] + rng.normal(0, 2, n) > X[:, 1], "a", "b")
    return from_arrays(X, y, numeric="auto", target="class")


def test_nodes_share_their_rows_in_the_depths_arrays():
    """Each depth's node k reads row k of the depth's arrays: one int object per k for all of
    them, not one a node."""
    tree = build_tree(_numeric(20000), criterion="gini", surrogates=0, competitors=0, cp=None)
    rows = [n._ci for n in tree.root.walk() if n._ci is not None]
    assert max(rows) > 500  # past the small ints Python shares itself
    assert len({id(k) for k in rows}) == len(set(rows)) < len(rows)  # equal rows, one object


def test_a_forests_equal_splits_are_one_object_and_the_same_forest():
    data = _numeric(2000, seed=1)
    forest = grow_forest(data, n_trees=8, seed=2, criterion="gini", cp=None, surrogates=0, competitors=0,
                         max_features=2)
    tests = [n.test for t in forest.trees for n in t.root.walk() if n.test is not None]
    by_value = {(s.feature, s.threshold) for s in tests}
    assert len({id(s) for s in tests}) == len(by_value) < len(tests)
    # the same trees as the reference builder grows them one by one, each split its own object
    alone = grow_forest(data, n_trees=8, seed=2, criterion="gini", cp=None, surrogates=0, competitors=0,
                        max_features=2, builder="reference")
    assert [[(n.test, n.class_counts.tolist()) for n in t.root.walk()] for t in alone.trees] == \
        [[(n.test, n.class_counts.tolist()) for n in t.root.walk()] for t in forest.trees]


def test_records_in_their_smallest_dtype_keep_large_counts():
    """A depth's candidates are kept in the smallest dtype that holds them: a root with more
    than 2^16 rows on one side keeps its counts exactly."""
    n = 160_000
    X = (np.arange(n) % 7).reshape(-1, 1).astype(float)
    y = np.where(X[:, 0] < 3, "a", "b")
    tree = build_tree(from_arrays(X, y, numeric="auto", target="class"), criterion="gini", surrogates=0, cp=None)
    (root,) = tree.root.candidates()
    left = int((X[:, 0] <= 2).sum())
    assert left > 1 << 16
    assert [sum(side) for side in root.table] == [left, n - left]
    assert root.table[0] == (left, 0)
