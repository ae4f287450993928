"""A whole class in one process: every answer sheet graded, scored, written to a gradebook and summarised.

:func:`grade_class` grades each sheet with the grader its setup gives (the data read and the options
resolved once per setup, shared by every sheet that uses it); one sheet that cannot be read, or whose
exercise folder is missing, becomes a row that says why and the others go on. :func:`write_gradebook`,
:func:`write_feedback` and :func:`summary_lines` print the results; nothing here grades a claim.
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..errors import InfotreeError
from . import VERDICTS, read_answers
from .report import html_report, json_report, points_text, scores_json, text_report
from .rubric import credit_of

__all__ = ["Graded", "Setup", "grade_class", "summary_lines", "write_feedback", "write_gradebook"]


@dataclass(frozen=True)
class Setup:
    """How to grade a sheet: ``grade(text) -> Report``; a rubric with its items' keys and the scorer."""

    grade: object
    data: str
    rubric: object = None
    scorer: object = None
    keys: dict | None = None


@dataclass(frozen=True)
class Graded:
    """One student's sheet: the report and scores, or the one-line reason it was not graded."""

    id: str
    path: str
    report: object = None
    scores: tuple | None = None
    rubric: object = None
    error: str | None = None
    data: str | None = None

    @property
    def score(self) -> Fraction | None:
        if self.report is None:
            return None
        if self.scores is not None:
            return sum((s.points for s in self.scores), Fraction(0))
        return sum((credit_of(None, r.verdict) for r in self.report.results), Fraction(0))

    @property
    def max(self) -> Fraction | None:
        if self.report is None:
            return None
        return self.rubric.max if self.rubric is not None else Fraction(len(self.report.results))

    @property
    def all_right(self) -> bool:
        return self.report is not None and self.report.all_right


def grade_class(sheets, setup_for) -> list[Graded]:
    """``sheets``: [(student id, path)]; ``setup_for(id)``: that student's :class:`Setup` (an
    :class:`InfotreeError` there is the student's row's error). Rows in id order."""
    out = []
    for ident, path in sorted(sheets):
        try:
            setup = setup_for(ident)
            report = setup.grade(read_answers(path))
            scores = setup.scorer.score(report, setup.rubric, setup.keys) if setup.rubric is not None else None
        except InfotreeError as e:
            out.append(Graded(ident, path, error=str(e)))
            continue
        out.append(Graded(ident, path, report, scores, setup.rubric, data=setup.data))
    return out


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: a leading = + - @ would start a formula."""
    text = " ".join(str(text).split())
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t") else text


def gradebook_rows(graded) -> list[list[str]]:
    """The gradebook as rows: id, score, max, a column per rubric item (without a rubric: the count of
    each verdict), error."""
    items = []
    for g in graded:
        if g.rubric is not None:
            items.extend(i.id for i in g.rubric.items if i.id not in items)
    columns = items if items else ["claims", *VERDICTS]
    rows = [["id", "score", "max", *columns, "error"]]
    for g in graded:
        row = [_cell(g.id), points_text(g.score), points_text(g.max)]
        if items:
            earned = {s.item.id: points_text(s.points) for s in g.scores or ()}
            row += [earned.get(i, "") for i in items]
        elif g.report is not None:
            row += [str(len(g.report.results)), *(str(g.report.counts[v]) for v in VERDICTS)]
        else:
            row += [""] * len(columns)
        rows.append(row + [_cell(g.error or "")])
    return rows


def write_gradebook(graded, path) -> None:
    """The gradebook CSV, written whole or not at all."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(gradebook_rows(graded))
    _write(Path(path), buf.getvalue())


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def write_feedback(graded, folder, summary, *, explain=False) -> None:
    """Each student's report as ``ID.txt`` and ``ID.html`` and the class summary as ``summary.txt``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for g in graded:
        title = f"{g.id}: {Path(g.path).name}"
        if g.report is None:
            _write(folder / f"{g.id}.txt", f"{title}\nnot graded: {g.error}\n")
            _write(folder / f"{g.id}.html", _error_page(title, g.error))
            continue
        _write(folder / f"{g.id}.txt",
               f"{title}\n\n" + text_report(g.report, explain=explain, scores=g.scores, rubric=g.rubric))
        _write(folder / f"{g.id}.html", html_report(g.report, title=title, scores=g.scores, rubric=g.rubric,
                                                     explain=explain))
    _write(folder / "summary.txt", "\n".join(summary) + "\n")


def _error_page(title, error) -> str:
    import html

    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"</head><body><h1>{html.escape(title)}</h1><p>not graded: {html.escape(error)}</p></body></html>\n")


def summary_lines(graded) -> list[str]:
    """The class at a glance: each student's score, the most frequent mistakes (diagnoses) and the items
    most often wrong, unreadable or missing, each with how many students."""
    out = []
    width = max((len(g.id) for g in graded), default=0)
    for g in graded:
        if g.report is None:
            out.append(f"{g.id:<{width}}  not graded: {g.error}")
        else:
            out.append(f"{g.id:<{width}}  {points_text(g.score)} / {points_text(g.max)}  ({g.report.summary()})")
    done = [g for g in graded if g.report is not None]
    out.append("")
    out.append(f"class: {len(graded)} sheet{'s' * (len(graded) != 1)}, {len(done)} graded"
               + (f", {len(graded) - len(done)} not graded" if len(done) < len(graded) else ""))
    if done and all(g.max for g in done) and len({g.max for g in done}) == 1:
        mean = sum((g.score for g in done), Fraction(0)) / len(done)
        out.append(f"mean score: {points_text(mean)} / {points_text(done[0].max)}")
    mistakes, items = Counter(), defaultdict(Counter)
    for g in done:
        seen = set()
        for r in g.report.results:
            if r.diagnosis and r.verdict != "right":
                seen.add((r.quantity or r.kind, r.diagnosis))
        mistakes.update(seen)
        for name, verdict in _misses(g):
            items[name][verdict] += 1
    if mistakes:
        out.append("")
        out.append("most frequent mistakes:")
        for (quantity, diagnosis), n in sorted(mistakes.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"  {_students(n)}  {quantity}: {diagnosis}")
    if items:
        out.append("")
        out.append("items not right:")
        for name, verdicts in sorted(items.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
            how = ", ".join(f"{verdict} {k}" for verdict, k in sorted(verdicts.items()))
            out.append(f"  {_students(sum(verdicts.values()))}  {name} ({how})")
    return out


def _students(n: int) -> str:
    return f"{n:>3} student{'s' if n != 1 else ' '}"


def _misses(g):
    """(item, verdict) of each item the student did not get right: rubric items, else quantities (a
    student counted once per item, with the best verdict they reached)."""
    if g.scores is not None:
        return [(s.item.id, s.verdict) for s in g.scores if s.verdict != "right"]
    rank = {v: k for k, v in enumerate(VERDICTS)}
    best = {}
    for r in g.report.results:
        name = r.quantity or ("unreadable lines" if r.verdict == "unreadable" else r.kind)
        if name not in best or rank[r.verdict] < rank[best[name]]:
            best[name] = r.verdict
    return [(name, v) for name, v in best.items() if v != "right"]


def class_json(graded, summary) -> dict:
    """The class as JSON: each student's scores and report (version 3), and the summary's lines."""
    from .report import SCHEMA_VERSION

    students = []
    for g in graded:
        students.append({
            "id": g.id, "answers": g.path, "score": points_text(g.score) or None, "max": points_text(g.max) or None,
            "error": g.error,
            "rubric": scores_json(g.scores, g.rubric) if g.scores is not None else None,
            "report": json_report(g.report, data=g.data, answers=g.path) if g.report is not None else None,
        })
    return {"version": SCHEMA_VERSION, "students": students,
            "all_right": bool(graded) and all(g.all_right for g in graded), "summary": summary}
