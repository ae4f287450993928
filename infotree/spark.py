"""Exact trees on Spark: ``infotree.spark.grow(df, target=..., criterion=...)`` grows from a Spark
DataFrame the tree :func:`infotree.build_tree` grows on the same rows in memory, byte for byte
(``pip install 'infotree[spark]'``).  Only count tables reach the driver (:mod:`infotree.engines.sql`)."""

from __future__ import annotations

__all__ = ["grow", "grow_forest"]


def grow(df, *, target=None, order=None, numeric="auto", categorical=(), on_missing="reject", in_memory=None,
         **options):
    """The tree of ``df``'s rows (target: the last column unless named).

    ``order``: a column giving the rows' order (the domains list values in order of first
    appearance, as the file readers do); None: the DataFrame's order as it stands
    (``monotonically_increasing_id``), which a ``repartition`` changes, so give ``order`` for a
    tree that does not depend on partitioning.  ``numeric``, ``categorical``: as
    :func:`infotree.from_records` reads columns.  ``in_memory``: a node of at most this many
    rows is finished on the driver.  Other keywords are build_tree's."""
    from .criteria import criterion_named
    from .engines import grow as grow_on
    from .engines.spark import SparkProvider

    crit = criterion_named(options.get("criterion", "gain"))
    provider = SparkProvider(df.sparkSession, df, order=order, target=target, numeric=numeric,
                             categorical=categorical, on_missing=on_missing, numeric_target=crit.regression)
    try:
        return grow_on(provider, engine="spark", in_memory=in_memory, **options)
    finally:
        provider.close()


def grow_forest(df, *, target=None, order=None, numeric="auto", categorical=(), in_memory=None, **options):
    """The forest :func:`infotree.grow_forest` grows on the same rows in memory with
    ``sampling="poisson"`` (required), byte for byte: each row's count per tree is computed by
    Spark from its row number (``order``'s rank, or the DataFrame's order as it stands), the seed
    and the tree.  Other keywords are grow_forest's; the votes and OOB error read the coded rows
    on the driver."""
    from .engines.forest import grow_forest as grow_on
    from .engines.spark import SparkProvider
    from .ensemble import forest_criterion

    crit = forest_criterion(options.get("criterion", "gain"))
    provider = SparkProvider(df.sparkSession, df, order=order, target=target, numeric=numeric,
                             categorical=categorical, on_missing="reject", numeric_target=crit.regression,
                             row_numbers=True)
    try:
        return grow_on(provider, engine="spark", in_memory=in_memory, **options)
    finally:
        provider.close()
