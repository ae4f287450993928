"""How a :class:`~infotree.printers.cells.Table` (strings only) is written in each output language.

Every printer that shows a table (a node's derivation, an M-of-N search, a cp table, a
forest's votes) writes it through one of these, so a table reads the same wherever it is:
``text_table`` (tabulate, with its ``simple`` format drawn here), ``markdown_table`` (GitHub,
``|`` escaped), ``latex_table`` (booktabs ``longtable``) and ``html_table``.
"""

from __future__ import annotations

import re
from html import escape

from tabulate import tabulate

from .cells import Table

__all__ = ["html_table", "latex_table", "markdown_table", "text_table"]

_ALIGN = {"l": "left", "r": "right"}


def text_table(t: Table, table_format: str = "simple") -> str:
    """``t`` as tabulate draws it in ``table_format`` (strings only, never parsed as numbers)."""
    if table_format == "simple":
        out = _simple(t)
        if out is not None:
            return out
    return tabulate(t.rows, t.headers, tablefmt=table_format, disable_numparse=True,
                    colalign=[_ALIGN[a] for a in t.align])


# Characters tabulate measures as one column wide (with wcwidth or without), none of
# them whitespace but the space: printable ASCII and the symbols the printers write.
_SYMBOLS = "·×—−≈≡≥≠…∣²"
_safe = None


def _safe_text():
    global _safe
    if _safe is None:
        import tabulate as tb

        ok = _SYMBOLS
        if tb.WIDE_CHARS_MODE:
            ok = "".join(ch for ch in _SYMBOLS if tb.wcwidth.wcswidth(ch) == 1)
        _safe = re.compile(f"[ -~{ok}]*").fullmatch
    return _safe


def _simple(t: Table) -> str | None:
    """``tabulate(rows, headers, tablefmt="simple", disable_numparse=True, colalign=...)`` for the
    tables the printers make, byte for byte, or None when tabulate must decide.

    Tabulate's per-cell work (type detection, ANSI and wide-character widths) is the
    bulk of printing a derivation; a table of one-line cells in printable ASCII and
    the printers' symbols needs none of it: each column is as wide as its widest
    stripped cell, or its header plus two; cells are stripped and padded to that
    width, columns are joined by two spaces, lines are right-stripped.
    """
    headers, rows, align = t.headers, t.rows, t.align
    k = len(headers)
    if not rows or not k or len(align) != k or any(len(r) != k for r in rows) or not set(align) <= {"l", "r"}:
        return None
    cells = [c for r in rows for c in r]
    if not all(type(c) is str for c in cells) or not all(type(h) is str for h in headers):
        return None
    if not _safe_text()(" ".join(cells) + " " + " ".join(headers)):
        return None
    cols = [[c.strip() for c in col] for col in zip(*rows)]
    widths = [max(len(h) + 2, max(map(len, col))) for h, col in zip(headers, cols)]
    lines = ["  ".join(h.ljust(w) if a == "l" else h.rjust(w) for h, w, a in zip(headers, widths, align)).rstrip(),
             "  ".join("-" * w for w in widths)]
    padded = [[c.ljust(w) for c in col] if a == "l" else [c.rjust(w) for c in col]
              for col, w, a in zip(cols, widths, align)]
    lines += ["  ".join(r).rstrip() for r in zip(*padded)]
    return "\n".join(lines)


_RULE = {"l": ":---", "r": "---:"}


def _cell(s: str) -> str:
    return s.replace("\r", " ").replace("\n", " ").replace("|", "\\|")


def markdown_table(t: Table, out) -> None:
    """A GitHub table; ``|`` in a cell is escaped."""
    out.write("| " + " | ".join(_cell(h) for h in t.headers) + " |\n")
    out.write("| " + " | ".join(_RULE[a] for a in t.align) + " |\n")
    for row in t.rows:
        out.write("| " + " | ".join(_cell(c) for c in row) + " |\n")


# Columns that hold formulas wrap (inline math breaks after + and -).
_WIDE = r">{\raggedright\arraybackslash}p{%s\linewidth}"


def _spec(t: Table, wide: dict) -> str:
    cols = []
    for i, a in enumerate(t.align):
        cols.append(_WIDE % wide[i] if i in wide else a)
    return "".join(cols)


def latex_table(t: Table, out, wide: dict | None = None) -> None:
    """A booktabs ``longtable``; ``wide`` maps column index to a width (fraction of the line)."""
    out.write(f"\\par\\smallskip\\noindent\\textbf{{{t.title}}}\\par\n")
    out.write("{\\footnotesize\\setlength{\\tabcolsep}{4pt}\n")
    out.write(f"\\begin{{longtable}}{{{_spec(t, wide or {})}}}\n\\toprule\n")
    out.write(" & ".join(t.headers) + " \\\\\n\\midrule\n\\endhead\n")
    for row in t.rows:
        out.write(" & ".join(row) + " \\\\\n")
    out.write("\\bottomrule\n\\end{longtable}}\n")


def html_table(t: Table, out) -> None:
    """``t`` as an escaped HTML table with its title as caption."""
    out.write(f"<table><caption>{escape(t.title)}</caption>\n<thead><tr>")
    for h, a in zip(t.headers, t.align):
        out.write(f'<th class="{a}">{escape(h)}</th>')
    out.write("</tr></thead>\n<tbody>\n")
    for row in t.rows:
        out.write("<tr>" + "".join(f'<td class="{a}">{escape(c)}</td>' for c, a in zip(row, t.align)) + "</tr>\n")
    out.write("</tbody></table>\n")
