"""``infotree tree DATA --engine duckdb|spark|auto``: the tree grown on an engine from the
command line's options (the in-memory engine is build_tree on the Dataset, as before)."""

from __future__ import annotations

import os

from ..controls import POISSON
from ..errors import InfotreeError
from .grow import grow

__all__ = ["engine_forest", "engine_tree", "IN_MEMORY_ROWS"]

# PLANET: a node of at most this many rows is finished in memory (its rows as int64 codes:
# 2^20 rows × 20 features is 160 MB).
IN_MEMORY_ROWS = 1 << 20


def engine_tree(args):
    """The tree, or None when the in-memory engine grows it (``--engine memory``, or ``auto``
    on a file within the budget)."""
    engine = _engine(args)
    if engine == "memory":
        return None
    from ..cli.args import tree_options

    options = tree_options(args)
    options.pop("validation")
    provider = _provider(args, engine)
    try:
        return grow(provider, engine=engine, in_memory=IN_MEMORY_ROWS, **options)
    finally:
        provider.close()


def engine_forest(args):
    """``infotree forest DATA --engine ...``: the forest, or None for the in-memory engine."""
    engine = _engine(args)
    if engine == "memory":
        return None
    if args.sampling != POISSON:
        raise InfotreeError(f"--engine {engine} grows forests with --sampling poisson (each row's count from a hash "
                            f"of row, seed and tree, the same on every engine); or --engine memory")
    for flag, given in (("--sample", args.sample), ("--samples", args.samples), ("--predict", args.predict)):
        if given:
            raise InfotreeError(f"{flag} is not taken by --engine {engine} yet (or --engine memory)")
    from ..cli.args import forest_from_args
    from .forest import grow_forest

    provider = _provider(args, engine, row_numbers=True)
    try:
        return forest_from_args(args, _Shape(provider), grow=lambda _, **options: grow_forest(
            provider, engine=engine, in_memory=IN_MEMORY_ROWS, **{k: v for k, v in options.items() if k != "n_jobs"}))
    finally:
        provider.close()


class _Shape:
    """What the forest's options are checked against: the data's size, without its rows."""

    def __init__(self, provider):
        self.n_rows, self.n_features = provider.n_rows, len(provider.schema.features)


def _engine(args):
    engine = getattr(args, "engine", "memory")
    if engine != "duckdb" and (args.threads is not None or (args.memory_limit and engine != "auto")):
        raise InfotreeError("--memory-limit and --threads apply to --engine duckdb (and --memory-limit to auto)")
    if engine == "auto":
        engine = "duckdb" if os.path.getsize(args.data) > budget(args.memory_limit) else "memory"
    return engine


def _provider(args, engine, **more):
    from ..cli.args import _every_split, reading, selection

    sel = selection(args)
    for flag, given in (("--columns", sel["columns"]), ("--drop", sel["drop"]),
                        ("--sample-weight", getattr(args, "sample_weight", None)),
                        ("--folds-from", getattr(args, "folds_from", None)), ("--splits all", _every_split(args)),
                        ("--missing-as-value", args.missing_as_value)):
        if given:
            raise InfotreeError(f"{flag} is not taken by --engine {engine} yet (or --engine memory)")
    read = dict(reading(args), **more)
    if engine == "duckdb":
        from .duckdb import DuckDBProvider

        return DuckDBProvider(args.data, memory_limit=args.memory_limit, threads=args.threads, **read)
    from .spark import SparkProvider, session

    return SparkProvider.of_file(session(args.spark_master), args.data, **read)


def budget(memory_limit) -> int:
    """``--engine auto``'s budget in bytes of input file: the memory limit given, else a quarter of
    the machine's memory, over 8 (reading a file into a Dataset takes several times its size)."""
    if memory_limit:
        from .duckdb import _size

        text = _size(memory_limit).upper().replace(" ", "").replace("IB", "B")
        units = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}
        unit = next(u for u in ("KB", "MB", "GB", "TB", "B") if text.endswith(u))
        return int(float(text[:-len(unit)]) * units[unit]) // 8
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 4 << 30
    return total // 4 // 8
