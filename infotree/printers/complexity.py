"""Cost-complexity pruning and evaluation, printed: the weakest-link derivation, rpart's cp
table and an evaluation's confusion matrix, in text, Markdown, LaTeX, JSON and HTML.

Every view is built once as :class:`Block` s of strings in one markup (a title, lines,
:class:`~infotree.printers.cells.Table` s) from the typed records of
:mod:`infotree.records` (:class:`~infotree.records.PruningPath`,
:class:`~infotree.records.CpTable`, :class:`~infotree.records.Evaluation`); the writers
only lay them out.  Nothing here computes a measure.
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import NamedTuple

from ..errors import InfotreeError
from ..records import CpTable, Evaluation, PruningPath
from .cells import LATEX, MARKDOWN, TEXT, Table, exact_text, node_title
from .numbers import exact_and_decimal, number, ratio_text
from .tables import html_table, latex_table, markdown_table, text_table

__all__ = ["Block", "blocks_of", "cp_table_html", "json_of", "write"]

FORMATS = ("text", "markdown", "latex", "json")


class Block(NamedTuple):
    title: str
    lines: list
    tables: list


_x = exact_text


# -- the weakest-link sequence -----------------------------------------------------------

def path_blocks(path: PruningPath, digits=4, m=TEXT) -> list:
    steps = path.steps
    seq = [("0", "", "", "", str(path.leaves), _x(path.tree_risk))]
    for k, s in enumerate(steps, 1):
        cut = "; ".join(node_title(link.node, m) for link in s.links)
        seq.append((str(k), m.code(_x(s.alpha), _x(s.alpha)), number(s.alpha, digits), cut, str(s.leaves),
                    m.code(_x(s.risk), _x(s.risk))))
    links = []
    for k, s in enumerate(steps, 1):
        for link in s.links:
            form = f"({_x(link.risk)} - {_x(link.subtree_risk)})/({link.leaves} - 1) = {_x(link.alpha)}"
            links.append((str(k), node_title(link.node, m), m.code(_x(link.risk), _x(link.risk)),
                          m.code(_x(link.subtree_risk), _x(link.subtree_risk)), str(link.leaves),
                          m.code(form, form.replace("-", "-")), number(link.alpha, digits)))
    lines = [f"risk: {path.title}",
             f"R(root) = {_x(path.root_risk)}; T0 has {path.leaves} leaves and R(T0) = {_x(path.tree_risk)}",
             "each step cuts the internal node(s) of least alpha = (R(t) - R(T_t)) / (|leaves(T_t)| - 1); "
             "T_k is the smallest subtree minimising R(T) + alpha·|leaves(T)| for alpha from alpha_k to alpha_(k+1)"]
    tables = [Table("the nested sequence T0, T1, ..., root", ("k", "alpha_k", "≈", "cut at", "leaves", "R(T_k)"), seq,
                    ("r", "l", "r", "l", "r", "l"))]
    if links:
        tables.append(Table("each weakest link", ("k", "node t", "R(t)", "R(T_t)", "leaves", "alpha", "≈"), links,
                            ("r", "l", "l", "l", "r", "l", "r")))
    return [Block("Weakest-link pruning", [m.name(s) for s in lines], tables)]


# -- the cp table --------------------------------------------------------------------------

def _marks(t: CpTable, i) -> str:
    out = []
    if t.best == i:
        out.append("min")
    if t.one_se == i:
        out.append("1-SE")
    return ", ".join(out)


def cp_blocks(t: CpTable, digits=4, m=TEXT, steps=False) -> list:
    xv = t.folds is not None
    headers = ("", "CP", "nsplit", "rel error") + (("xerror", "xstd", "rule") if xv else ())
    rows, exact = [], []
    for i, r in enumerate(t.rows, 1):
        row = (str(i), number(r.cp, digits), str(r.nsplit), number(r.rel_error, digits))
        if xv:
            row += (number(r.xerror, digits), number(r.xstd, digits), _marks(t, i - 1))
        rows.append(row)
        e = (str(i), m.code(_x(r.cp), _x(r.cp)), m.code(_x(r.alpha), _x(r.alpha)), m.code(_x(r.rel_error), _x(r.rel_error)))
        if xv:
            e += (m.code(_x(r.xerror), _x(r.xerror)), m.code(_x(r.xstd), _x(r.xstd)))
        exact.append(e)
    p = t.path
    lines = [f"R(root) = {_x(p.root_risk)} ({p.title}); CP = alpha / R(root), rel error = R(T) / R(root); "
             f"the last row is the grown tree (cp = {_x(t.cp)})"]
    if xv:
        best, one = t.rows[t.best], t.rows[t.one_se]
        dealt = ("on the given folds" if t.seed is None
                 else f"seed {t.seed} (stratified folds: docs/cost_complexity.md)")
        lines.append(f"{t.folds}-fold cross-validation, {dealt}; "
                     f"xerror = cross-validated risk / R(root), xstd its standard error / R(root)")
        lines.append(f"min: row {t.best + 1} (least xerror {_x(best.xerror)}); 1-SE: row {t.one_se + 1} "
                     f"(nsplit {one.nsplit}), the first row with xerror <= {_x(best.xerror)} + {_x(best.xstd)}")
    tables = [Table("cp table", headers, rows, ("r", "r", "r", "r") + (("r", "r", "l") if xv else ())),
              Table("exact values", ("", "CP", "alpha", "rel error") + (("xerror", "xstd") if xv else ()), exact,
                    ("r",) + ("l",) * (5 if xv else 3))]
    out = [Block("Cost-complexity (cp) table", [m.name(s) for s in lines], tables)]
    if steps:
        out += path_blocks(p, digits, m)
    return out


# -- evaluation ----------------------------------------------------------------------------

def _share(q, digits) -> str:
    """A precision or recall: ``1``, ``0.5``, or ``5/6 ≈ 0.8333`` (never ``1 ≈ 1.0000``)."""
    shown = number(q, digits)
    return shown if Fraction(shown) == q else f"{_x(q)} ≈ {shown}"


def evaluation_blocks(results, digits=4, m=TEXT) -> list:
    """One block per (label, Evaluation), then a side-by-side table when there are several."""
    out = []
    for label, e in results:
        lines = [f"{e.how}"]
        tables = []
        if e.classes is not None:
            lines.append(f"accuracy = {ratio_text(e.correct, e.total, digits)}")
            head = ("actual \\ predicted",) + tuple(m.name(c) for c in e.classes)
            cm = [(m.name(c),) + tuple(_x(v) for v in row) for c, row in zip(e.classes, e.confusion)]
            tables.append(Table("confusion matrix (rows: actual class, columns: predicted)", head, cm,
                                ("l",) + ("r",) * len(e.classes)))
            pr = []
            for c, p, r in zip(e.classes, e.precision, e.recall):
                pr.append((m.name(c), m.name("undefined" if p is None else _share(p, digits)),
                           m.name("undefined" if r is None else _share(r, digits))))
            tables.append(Table("per class", ("class", "precision", "recall"), pr, ("l", "r", "r")))
        else:
            lines.append(f"MSE = {exact_and_decimal(_x(e.mse), e.mse, digits)}")
            lines.append("R² = " + ("undefined (the actual values are all equal)" if e.r2 is None
                                    else exact_and_decimal(_x(e.r2), e.r2, digits)))
        out.append(Block(label, [m.name(s) for s in lines], tables))
    if len(results) > 1:
        reg = results[0][1].classes is None
        head = ("configuration", "MSE", "R²") if reg else ("configuration", "accuracy", "≈", "leaves (mean)")
        rows = []
        for label, e in results:
            if reg:
                rows.append((m.name(label), number(e.mse, digits),
                             "" if e.r2 is None else number(e.r2, digits)))
            else:
                rows.append((m.name(label), m.code(f"{_x(e.correct)}/{_x(e.total)}", f"{_x(e.correct)}/{_x(e.total)}"),
                             number(e.accuracy, digits), number(e.leaves, 2)))
        out.append(Block("Side by side", [m.name(results[0][1].how)],
                         [Table("the same folds for every configuration", head, rows, ("l",) + ("r",) * (len(head) - 1))]))
    return out


# -- writers -------------------------------------------------------------------------------

_MARKUP = {"text": TEXT, "markdown": MARKDOWN, "latex": LATEX, "html": TEXT}


def blocks_of(obj, fmt, digits=4, steps=False) -> list:
    m = _MARKUP[fmt]
    if isinstance(obj, CpTable):
        return cp_blocks(obj, digits, m, steps)
    if isinstance(obj, PruningPath):
        return path_blocks(obj, digits, m)
    return evaluation_blocks(obj, digits, m)


def write(obj, out, *, fmt="text", digits=4, steps=False, table_format="simple") -> None:
    """Write a :class:`CpTable`, a :class:`PruningPath` or a list of (label, Evaluation)."""
    if fmt not in FORMATS:
        raise InfotreeError(f"unknown format {fmt!r}; allowed: {', '.join(FORMATS)}")
    if fmt == "json":
        import json

        out.write(json.dumps(json_of(obj, steps=steps), indent=2, ensure_ascii=False) + "\n")
        return
    m = _MARKUP[fmt]
    # Titles and headers are plain text until here; the cells are already in the markup.
    blocks = [Block(m.name(b.title), b.lines, [t._replace(title=m.name(t.title), headers=tuple(map(m.name, t.headers)))
                                               for t in b.tables]) for b in blocks_of(obj, fmt, digits, steps)]
    for i, b in enumerate(blocks):
        if fmt == "text":
            out.write(("\n" if i else "") + f"{b.title}\n{'=' * len(b.title)}\n")
            for line in b.lines:
                out.write(line + "\n")
            for t in b.tables:
                out.write(f"\n{t.title}\n{text_table(t, table_format)}\n")
        elif fmt == "markdown":
            out.write(("\n" if i else "") + f"## {b.title}\n\n")
            for line in b.lines:
                out.write(f"- {line}\n")
            for t in b.tables:
                out.write(f"\n**{t.title}**\n\n")
                markdown_table(t, out)
        else:
            out.write(f"\\subsection*{{{b.title}}}\n")
            for line in b.lines:
                out.write(f"{line}\\par\n")
            for t in b.tables:
                latex_table(t, out)


def cp_table_html(t: CpTable, digits=4) -> str:
    """A cp table for notebooks: escaped HTML tables."""
    from html import escape

    from .html import STYLE

    out = io.StringIO()
    out.write(f'<div class="infotree"><style>{STYLE}</style>\n')
    for b in cp_blocks(t, digits, TEXT):
        out.write(f"<h3>{escape(b.title)}</h3>\n")
        for line in b.lines:
            out.write(f"<p>{escape(line)}</p>\n")
        for table in b.tables:
            html_table(table, out)
    out.write("</div>\n")
    return out.getvalue()


# -- JSON: exact strings -------------------------------------------------------------------

def _j(v):
    return None if v is None else _x(v)


def _path_json(p: PruningPath) -> dict:
    return {"risk": p.risk, "root_risk": _j(p.root_risk), "leaves": p.leaves, "tree_risk": _j(p.tree_risk),
            "steps": [{"alpha": _j(s.alpha), "leaves": s.leaves, "risk": _j(s.risk),
                       "cut": [{"node": node_title(link.node), "risk": _j(link.risk),
                                "subtree_risk": _j(link.subtree_risk), "leaves": link.leaves,
                                "alpha": _j(link.alpha)} for link in s.links]} for s in p.steps]}


def json_of(obj, steps=False) -> dict:
    if isinstance(obj, PruningPath):
        return _path_json(obj)
    if isinstance(obj, CpTable):
        rows = []
        for i, r in enumerate(obj.rows):
            row = {"CP": _j(r.cp), "alpha": _j(r.alpha), "nsplit": r.nsplit, "rel_error": _j(r.rel_error)}
            if obj.folds is not None:
                row.update(xerror=_j(r.xerror), xstd=_j(r.xstd), xstd_squared=_j(r.xstd.square),
                           min=obj.best == i, one_se=obj.one_se == i)
            rows.append(row)
        out = {"root_risk": _j(obj.path.root_risk), "cp": _j(obj.cp), "folds": obj.folds, "seed": obj.seed,
               "rows": rows}
        if steps:
            out["path"] = _path_json(obj.path)
        return out
    return {"evaluations": [_evaluation_json(label, e) for label, e in obj]}


def _evaluation_json(label, e: Evaluation) -> dict:
    out = {"configuration": label, "how": e.how, "total": _j(e.total)}
    if e.classes is not None:
        out.update(correct=_j(e.correct), accuracy=_j(e.accuracy), classes=list(e.classes),
                   confusion=[[_j(v) for v in row] for row in e.confusion],
                   precision=[_j(v) for v in e.precision], recall=[_j(v) for v in e.recall], leaves=_j(e.leaves))
    else:
        out.update(mse=_j(e.mse), r2=_j(e.r2), leaves=_j(e.leaves))
    return out
