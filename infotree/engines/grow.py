"""``grow(provider, **options)``: build_tree's tree from a provider's count tables."""

from __future__ import annotations

import numpy as np

from ..errors import InfotreeError
from ..splits import SubsetSplit
from .builder import EngineBuilder

__all__ = ["ENGINES", "grow"]

ENGINES = ("memory", "duckdb", "spark", "auto")

# build_tree's options an engine grows exactly as build_tree does, and those it refuses (the
# value build_tree takes by default is the only one allowed).
_REFUSED = {
    "sample_weight": (None, "sample weights"),
    "every_split": (False, "every_split"),
    "lookahead": (0, "lookahead=1"),
    "m_of_n": (False, "M-of-N tests"),
    "prior": (None, "class priors"),
    "loss": (None, "a loss matrix"),
    "cost": (None, "variable costs"),
    "feature_draw": (None, "a forest's feature draw"),
    "validation": (None, "a validation set"),
}


def grow(provider, *, engine="memory", in_memory=None, **options):
    """The tree ``build_tree(data, **options)`` grows on the provider's rows.

    ``in_memory``: a node of at most this many rows is finished in memory (its rows taken
    from the engine, as PLANET does), smallest nodes first, at most this many rows in all;
    None: every depth is counted by the engine."""
    check(engine, options)
    tree = plant(provider.schema, engine, options)
    builder = EngineBuilder(tree, provider, in_memory)
    builder.run()
    return finish(tree, builder)


def check(engine, options):
    """The one-line refusal of an option the engines do not grow as build_tree does."""
    for name, (default, what) in _REFUSED.items():
        if options.get(name, default) is not default and options.get(name, default) != default:
            raise InfotreeError(f"the {engine} engine does not take {what} (allowed: the default; or the in-memory "
                                f"engine)")
    prune = options.get("prune", "none")
    if prune != "none":
        raise InfotreeError(f"the {engine} engine does not prune (prune={prune!r}; allowed: 'none', C4.5's collapse "
                            f"and CART's cp; or the in-memory engine)")
    if options.get("builder", "auto") != "auto":
        raise InfotreeError(f"the {engine} engine grows with its own builder; builder= is not allowed with it")


def plant(schema, engine, options, feature_draw=None):
    """The tree build_tree plants on the schema (no root yet)."""
    from ..growing import build_tree

    tree = build_tree(_Planted(schema), grow=False, feature_draw=feature_draw, **options)
    if getattr(tree.criterion, "counts_events", False):
        raise InfotreeError(f"the {engine} engine does not take criterion {tree.criterion.name!r} (its rows carry "
                            f"exposures; or the in-memory engine)")
    return tree


def finish(tree, builder):
    """What build_tree does after growing: C4.5's collapse, CART's cp, subset splits' levels."""
    if tree.params["collapse"]:
        from ..prune import collapse as collapse_tree

        collapse_tree(tree.root)
    if tree.criterion.binary and tree.params.get("cp") is not None:
        from ..prune import cp_prune

        cp_prune(tree, tree.params["cp"])
    if tree.criterion.binary:  # as record_levels keeps them: the values a subset split's rows had
        for node in tree.nodes():
            if isinstance(node.test, SubsetSplit):
                node.levels = builder.levels[node]
    return tree


class _Planted:
    """The schema as build_tree(grow=False) reads a Dataset: names, domains and one stand-in row
    (the rows are the provider's)."""

    def __init__(self, schema):
        self.features, self.target, self.domains = schema.features, schema.target, schema.domains
        self.classes, self.kinds, self.numbers = schema.classes, schema.kinds, schema.numbers
        self.X = np.zeros((1, len(self.features)), np.int32)
        self.y = np.zeros(1, np.int32)
        self.n_features = len(self.features)
