"""The one error family of infotree.

Every error a user can cause is an :class:`InfotreeError`, a ``ValueError``,
whose message is one line: what was wrong, the value (``!r``), what is allowed.
"""


class InfotreeError(ValueError):
    """Base of every error infotree raises on bad input or bad usage."""

    # KeyError-like subclasses would quote the message; keep it plain.
    __str__ = Exception.__str__


class DataError(InfotreeError):
    """A data file or in-memory table that cannot be read as a data set."""


class UndecidedError(InfotreeError):
    """Two gain ratios whose order could not be certified at the precision allowed."""


class NotFittedError(InfotreeError):
    """An estimator used before ``fit``."""


class LimitError(InfotreeError):
    """An input beyond one of the documented budgets of :mod:`infotree.limits`."""
