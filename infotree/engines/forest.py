"""A forest on an engine: ``grow_forest(provider, ...)`` grows the forest
:func:`infotree.ensemble.grow_forest` grows in memory with ``sampling="poisson"``, byte for byte.

Each row's count in tree t is :mod:`infotree.rowdraw`'s hash of (row number, seed, t), so the
engine computes it in SQL (:meth:`~infotree.engines.sql.SQLProvider.weigh`) and no sample
crosses to the driver.  The trees grow together, depth by depth: the coded table holds one copy
of each row per tree that takes it (with its count ``w``; tree t's root is node t), one query
per feature counts ``sum(w)`` for the open nodes of every tree, and each tree's builder (the
reference's decisions, :class:`~infotree.engines.builder.EngineBuilder`) decides its own
nodes with its feature draws (keyed by seed, tree and path: the same on any engine).  Trees
come in groups of at most ``together`` row copies; nodes small enough finish in memory, all
trees' within one budget of rows.

The votes, the out-of-bag error and the importances read every row: the coded rows (a
feature's code per cell) come to the driver once the trees are grown.
"""

from __future__ import annotations

import bisect

import numpy as np

from .. import rowdraw
from ..controls import POISSON, _fraction
from ..ensemble import (Forest, check_tree_options, empty_sample, forest_control, forest_criterion, forest_params, plan,
                        samples_of)
from ..errors import InfotreeError
from ..grow.regrow import rebind
from .builder import EngineBuilder, _Ids, grow_together
from ..growing import _groups
from .grow import check, finish, plant

__all__ = ["grow_forest"]

# Row copies (rows × trees that take them) grown together at most: a group's coded table.
TOGETHER = 1 << 25


class _TreeBuilder(EngineBuilder):
    """A forest's tree on the shared provider: its numeric features keep the values of its sample
    only (``present[j]``: their codes in the provider, ascending), as ``Dataset.sample`` does."""

    def __init__(self, tree, provider, in_memory, present, n):
        super().__init__(tree, provider, in_memory)
        self.present = present
        many = [len(d) >= 0.3 * n and not num for d, num in zip(tree.domains, self.numeric)]
        self.in_average = [True] * self.m if all(many) else [not x for x in many]

    def rank(self, j, code):
        return bisect.bisect_left(self.present[j], code)

    def code(self, j, rank):
        return self.present[j][rank]


def grow_forest(provider, control=None, *, engine="duckdb", in_memory=None, together=TOGETHER, criterion="gain",
                builder="auto", n_trees=None, seed=None, **options) -> Forest:
    """The forest of :func:`infotree.ensemble.grow_forest` (same keywords) on a provider made with
    ``row_numbers=True``; only ``sampling="poisson"`` is grown this way (the rows' counts are the
    engine's to compute)."""
    fc = forest_control(control, options, n_trees, seed)
    if fc.sampling != POISSON:
        raise InfotreeError(f"the {engine} engine grows forests with sampling 'poisson' (each row's count from a "
                            f"hash of row, seed and tree; --sampling poisson), not {fc.sampling!r}; or the "
                            f"in-memory engine")
    if options.get("surrogates"):
        raise InfotreeError(f"the {engine} engine does not take surrogates in a forest's trees (allowed: 0; or the "
                            f"in-memory engine)")
    check_tree_options(options)
    crit = forest_criterion(criterion)
    options = dict(criterion=crit, **options)
    check(engine, dict(options, builder=builder))
    schema, n = provider.schema, provider.n_rows
    k, n_trees, draws = plan(fc, crit, n, len(schema.features), schema.kinds)
    table, s = rowdraw.thresholds(_fraction(fc.sample_fraction), fc.bootstrap), int(fc.random_state)
    numeric = [j for j, kind in enumerate(schema.kinds) if kind == "numeric"]
    budget = None if in_memory is None else [in_memory]
    per_group = max(1, together // max(n, 1))
    trees = []
    for start in range(0, n_trees, per_group):
        group = list(range(start, min(n_trees, start + per_group)))
        roots = provider.weigh(group, s, table)
        for t in group:
            if not sum(roots[t]):
                raise empty_sample(t, n)
        present = {t: {} for t in group}
        tabs = provider.tables(group, numeric) if numeric else []
        for j in numeric:  # (sorted by node, then code)
            for t, code in zip(tabs[j].node.tolist(), tabs[j].code.tolist()):
                present[t].setdefault(j, []).append(code)
        grown = {}
        if in_memory is not None:  # trees whose rows fit are grown whole by the in-memory builders
            fits = [t for t in group if sum(roots[t]) <= in_memory]
            for batch in _batches(fits, [sum(roots[t]) for t in fits], in_memory):
                grown.update(_in_memory(provider, schema, batch, draws, dict(options, builder=builder)))
        ids, builders = _Ids(group[-1] + 1), []
        for t in group:
            if t in grown:
                continue
            tree = plant(_sample_schema(schema, present[t]), engine, options, draws[t])
            b = _TreeBuilder(tree, provider, in_memory, present[t], sum(roots[t]))
            b.ids, b.budget = ids, budget
            b.plant(t, roots[t])
            builders.append((t, b))
        grow_together([b for _, b in builders])
        for t, b in builders:
            grown[t] = finish(b.t, b)
        trees += [grown[t] for t in group]
    X, y = provider.rows()
    data = schema._derived(X, y, source=provider.label, lines=None, notes=())
    samples = samples_of(fc, n, n_trees)
    for tree, rows in zip(trees, samples):  # grown in memory: records from the forest's data, not the batch's copy
        rebind(tree, data, rows)
    return Forest(data, trees, samples, forest_params(fc, crit, k, n))


def _batches(items, sizes, most):
    """Consecutive batches of items whose sizes sum to at most ``most`` (a larger one alone)."""
    for group in _groups(sizes, most):
        yield [items[i] for i in group]


def _in_memory(provider, schema, batch, draws, options):
    """The trees of ``batch`` grown whole in memory from their rows (a row counted k times taken
    k times), as :func:`infotree.ensemble.grow_forest` grows them: {tree: Tree}."""
    from ..ensemble import grow_trees

    ids, X, y = provider.take(batch)
    data = schema._derived(X.astype(np.int32), y.astype(np.int32), source=None, lines=None, notes=())
    trees = grow_trees(data, [np.flatnonzero(ids == t) for t in batch], [draws[t] for t in batch], options)
    return dict(zip(batch, trees))


def _sample_schema(schema, present):
    """The schema as ``Dataset.sample`` leaves it for a tree: a numeric feature's values (and
    their texts) those its rows have."""
    numbers, domains = list(schema.numbers), list(schema.domains)
    for j, codes in present.items():
        numbers[j] = tuple(schema.numbers[j][c] for c in codes)
        domains[j] = tuple(schema.domains[j][c] for c in codes)
    return _Schema(schema, tuple(numbers), tuple(domains))


class _Schema:
    def __init__(self, schema, numbers, domains):
        self.features, self.target, self.classes, self.kinds = schema.features, schema.target, schema.classes, \
            schema.kinds
        self.numbers, self.domains = numbers, domains
