"""Exact trees on engines that hold the rows elsewhere: count tables from a provider
(:mod:`.provider`: in memory, DuckDB, Spark), decisions in Python (:mod:`.builder`).

``grow(provider, **options)`` grows the tree ``build_tree`` grows on the same data, byte for
byte; what an engine does not grow yet is refused with a one-line message."""

from .grow import ENGINES, grow

__all__ = ["ENGINES", "grow"]
