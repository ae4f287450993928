"""The data's names as students write them: features, values and classes in any case.

A name is first looked up as written, then case-insensitively (``Outlook``, ``SUNNY``);
a case-insensitive match that is not unique (a data set with both ``Yes`` and ``yes``)
is refused with the candidates named, never guessed.
"""

from __future__ import annotations

import difflib

__all__ = ["Names", "Unreadable", "did_you_mean"]


class Unreadable(Exception):
    """A claim that cannot be read; the message says what was expected."""


def did_you_mean(name, names) -> str:
    close = difflib.get_close_matches(str(name), list(names), n=1)
    if not close:
        low = {n.lower(): n for n in names}
        if str(name).lower() in low:
            close = [low[str(name).lower()]]
    return f" (did you mean {close[0]!r}?)" if close else ""


def _lookup(name: str, names) -> str | None:
    if name in names:
        return name
    low = [n for n in names if n.lower() == name.lower()]
    if len(low) > 1:
        raise Unreadable(f"{name!r} matches {', '.join(repr(n) for n in low)} when case is ignored; "
                         f"write it as in the data")
    return low[0] if low else None


class Names:
    """Name lookups for one data set."""

    def __init__(self, data):
        self.features = tuple(data.features)
        self.target = data.target
        self.variables = self.features + (self.target,)
        self.domain = {f: tuple(d) for f, d in zip(data.features, data.domains)}
        self.domain[self.target] = tuple(data.classes)
        self.kinds = dict(zip(data.features, data.kinds or ("nominal",) * len(data.features)))
        self.kinds[self.target] = "nominal"

    def find_variable(self, name: str) -> str | None:
        return _lookup(name, self.variables)

    def variable(self, name: str) -> str:
        v = _lookup(name, self.variables)
        if v is None:
            raise Unreadable(f"unknown variable {name!r}; variables are: {', '.join(self.variables)}"
                             f"{did_you_mean(name, self.variables)}")
        return v

    def feature(self, name: str) -> str:
        f = _lookup(name, self.features)
        if f is not None:
            return f
        if _lookup(name, (self.target,)):
            raise Unreadable(f"{name!r} is the target; a node splits on a feature: {', '.join(self.features)}")
        raise Unreadable(f"unknown feature {name!r}; features are: {', '.join(self.features)}"
                         f"{did_you_mean(name, self.features)}")

    def value(self, var: str, name: str) -> str:
        dom = self.domain[var]
        v = _lookup(name, dom)
        if v is None:
            raise Unreadable(f"{name!r} is not a value of {var}; values are: {', '.join(dom)}{did_you_mean(name, dom)}")
        return v

    def label(self, name: str) -> str:
        classes = self.domain[self.target]
        c = _lookup(name, classes)
        if c is None:
            raise Unreadable(f"unknown class {name!r}; classes of {self.target} are: {', '.join(classes)}"
                             f"{did_you_mean(name, classes)}")
        return c
