"""infotree's own printed output, read back: which lines are prose rather than claims.

``infotree tree --steps`` and ``infotree measures`` print claims (``H(play) = ... = 0.9403``,
``IG(windy) = 0.9710 - 0.9510 = 0.0200``) between lines of prose and tables.  Fed back to
``check``, the claims are graded and the lines below are skipped:

* ``At outlook = sunny: 5 rows (no 3, yes 2)``: not skipped, a *context* line: the
  ``IG``, ``GR`` and ``SplitInfo`` claims after it without conditions are about that node;
* headings (``Worked solution``) and their rules of ``=``; ``Node: outlook = sunny`` (the node
  report's title) is a context line, as ``At``;
* the solution's notes: ``=> split on ...``, ``C4.5: ...``, CART's ``x: best of 3 binary splits: ...``,
  ``surrogate 1: ...`` and ``each feature's best binary split ...``, ``(the rounded values ...)``,
  ``... so not a C4.5 candidate``, ``... is missing for weight ...``, ``...: no rows (...)``;
* the node report's ``n = 5: no 3, yes 2``, ``* chosen ...``, ``exactly equal ...``,
  ``decision: ...``, a leaf's ``PATH: pure: ...`` (or ``stopped: ...``) and its tables (``branches:``,
  ``candidates:``, ``exact values:``, ``C4.5 gain corrections:``, CART's ``splits:``, ``every split tried:``,
  ``surrogates (...):``,
  ``complexity (...):``, pruning's, each up to a blank line).

A student's line matching none of these is read as a claim, as before.
"""

from __future__ import annotations

import re

__all__ = ["claim_after_facts", "context_path", "is_prose", "is_table_heading"]

# The node report's tables (ID3/C4.5 and CART), each from its heading up to a blank line; a pruned node's
# cost-complexity table too (its alpha is the link's when cut; the sequence's claims grade those values).
_TABLE = re.compile(r"(?:branches|candidates|exact values|splits|C4\.5 gain corrections|surrogates \(.{0,300}\)|"
                    r"every split tried|complexity \(.{0,200}\)|[Pp]runing \(.{0,200}\)|"
                    r"cost-complexity pruning \(weakest link, exact\)):")


def is_table_heading(body: str) -> bool:
    return len(body) <= 400 and _TABLE.fullmatch(body) is not None

_PROSE = re.compile(
    r"Worked solution|={3,}|=> .{0,1000}|C4\.5: .{0,1000}|\(.{0,1000}\)|"
    r"\* chosen.{0,200}|≡ exactly equal .{0,200}|exactly equal .{1,1000}|C4\.5 MDL term .{1,1000}|"
    r".{1,1000}: (?:pure|empty branch|stopped|collapsed|leaf \(read|pruned)\b.{0,1000}|decision: .{1,1000}|n = [0-9/.]{1,60}(?: ≈ [0-9.]{1,60})?: .{0,1000}|"
    r".{1,1000} so not a C4\.5 candidate|"
    # CART's solution and node report: each feature's best split, the surrogates, the table's note
    r".{1,300}: best of \d{1,12} binary splits?: .{1,1000}|surrogate \d{1,6}: .{1,1000}|"
    r"each feature's best binary split .{1,1000}|lookahead 1: .{1,1000}|.{1,1000} is missing for weight .{1,1000}|.{1,1000}: no rows \(.{1,1000}\)")
_AT = re.compile(r"(?i:at) (.{1,1000}?):(?: [0-9/.]{1,60} rows?(?: \(.{0,1000}\))?)?|Node: (.{1,1000})")


# A regression solution's branch line: its facts, then the claim after '; '; its note on a feature missing in
# some rows, then the claim about the rows with it known.
_FACTS = re.compile(r".{1,300}: n = [0-9/.]{1,60}, Σy = .{1,300}?; (.{1,700})|"
                    r".{1,300} is missing in [0-9/.]{1,60} rows?: the decrease is over the [0-9/.]{1,60} rows? with "
                    r"it known, (.{1,700})")


def claim_after_facts(body: str):
    """``area in {north}: n = 3, Σy = 570, mean 190 ≈ 190.0000; SSE(price | area in {north}) = ...``:
    the claim after the facts, or None."""
    m = _FACTS.fullmatch(body) if len(body) <= 1000 else None
    return None if m is None else m.group(1) or m.group(2)


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
    path = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
    # a student's "At the node safety ∈ {medium, high} (11 rows, 9 yes):": the path without its words
    if path.lower().startswith("the node "):
        path = path[len("the node "):].strip()
    if path.endswith(")") and "(" in path and path.rfind("(") > path.rfind("}"):
        path = path[:path.rfind("(")].strip()
    return "" if path.lower() in ("root", "the root") else path
