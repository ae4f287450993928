"""infotree's own printed output, read back: which lines are prose rather than claims.

``infotree tree --steps`` and ``infotree measures`` print claims (``H(play) = ... = 0.9403``,
``IG(windy) = 0.9710 - 0.9510 = 0.0200``) between lines of prose and tables.  Fed back to
``check``, the claims are graded and the lines below are skipped:

* ``At outlook = sunny: 5 rows (no 3, yes 2)``: not skipped, a *context* line: the
  ``IG``, ``GR`` and ``SplitInfo`` claims after it without conditions are about that node;
* headings (``Worked solution``, ``Node: outlook = sunny``) and their rules of ``=``;
* the solution's notes: ``=> split on ...``, ``C4.5: ...``, ``(the rounded values ...)``,
  ``... so not a C4.5 candidate``, ``... is missing for weight ...``, ``...: no rows (...)``;
* the node report's ``n = 5: no 3, yes 2``, ``* chosen ...``, ``exactly equal ...``,
  ``decision: ...``, a leaf's ``PATH: pure: ...`` (or ``stopped: ...``) and its three tables (``branches:``, ``candidates:``, ``exact values:``, each up to a blank line).

A student's line matching none of these is read as a claim, as before.
"""

from __future__ import annotations

import re

__all__ = ["TABLE_HEADINGS", "context_path", "is_prose"]

TABLE_HEADINGS = ("branches:", "candidates:", "exact values:")

_PROSE = re.compile(
    r"Worked solution|={3,}|Node: .{1,1000}|=> .{0,1000}|C4\.5: .{0,1000}|\(.{0,1000}\)|"
    r"\* chosen.{0,200}|≡ exactly equal .{0,200}|exactly equal .{1,1000}|C4\.5 MDL term .{1,1000}|"
    r".{1,1000}: (?:pure|empty branch|stopped|collapsed|leaf \(read|pruned)\b.{0,1000}|decision: .{1,1000}|n = [0-9/.]{1,60}: .{0,1000}|"
    r".{1,1000} so not a C4\.5 candidate|.{1,1000} is missing for weight .{1,1000}|.{1,1000}: no rows \(.{1,1000}\)")
_AT = re.compile(r"At (.{1,1000}?): [0-9/.]{1,60} rows? \(.{0,1000}\)")


def is_prose(body: str) -> bool:
    """A line of infotree's printed prose (not a claim)."""
    return len(body) <= 1000 and _PROSE.fullmatch(body) is not None


def context_path(body: str):
    """The path text of an ``At ...: N rows (...)`` line (``""`` for the root), or None."""
    if len(body) > 1000:
        return None
    m = _AT.fullmatch(body)
    if m is None:
        return None
    return "" if m.group(1) == "root" else m.group(1)
