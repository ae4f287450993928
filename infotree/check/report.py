"""One answers file's report as ``infotree check`` prints it: text, JSON (schema version 3) and HTML.

Version 3 of the JSON adds ``min_decimals`` and ``conventions`` (the course conventions the sheet
was graded under, ``{name: {"value": ..., "meaning": ...}}``) to version 2; the text report opens with
the same conventions ("graded under: ..."). A rubric's scores (:mod:`.rubric`) are printed here too;
nothing is computed here.
"""

from __future__ import annotations

import html

import unicodedata
from fractions import Fraction

from ..forms import counts_text

__all__ = ["SCHEMA_VERSION", "conventions_json", "format_text", "html_report", "json_report", "points_text",
           "report_json", "scores_json", "text_report"]

VERDICTS = ("right", "imprecise", "close", "wrong", "unreadable")

#: The version of ``check``'s JSON (3: ``min_decimals`` and ``conventions``).
SCHEMA_VERSION = 3


_MARK = {"right": "✓", "imprecise": "~", "close": "≈", "wrong": "✗", "unreadable": "?"}


def _exact_text(x) -> str:
    return counts_text(x) if isinstance(x, Fraction) else str(x)


def _or(names) -> str:
    return " or ".join(names)


def points_text(q) -> str:
    """A score as a short decimal: exact when it terminates within 4 places (1.5, 0.25), else rounded."""
    if q is None:
        return ""
    if q.denominator == 1:
        return str(q.numerator)
    scaled = q * 10_000
    if scaled.denominator == 1:
        return f"{float(q):.4f}".rstrip("0")
    return f"{round(float(q), 4):.4f}".rstrip("0").rstrip(".")


def conventions_lines(report) -> list[str]:
    """The header block: each convention in force, as its meaning."""
    if not report.conventions:
        return []
    return ["graded under:", *(f"  {name}: {_safe(meaning)}" for name, _, meaning in report.conventions), ""]


def text_report(report, *, explain=False, scores=None, rubric=None) -> str:
    """The conventions, then one line per claim (notes below it) and the summary; with a rubric, the score."""
    out = "\n".join(conventions_lines(report)) + ("\n" if report.conventions else "")
    out += format_text(report, explain=explain)
    if scores is not None:
        out += "\n" + "\n".join(score_lines(scores, rubric)) + "\n"
    return out


def score_lines(scores, rubric) -> list[str]:
    """The rubric's items: points earned of points, the verdict, the line that earned them."""
    total = sum((s.points for s in scores), 0)
    lines = [f"score: {points_text(total)} / {points_text(rubric.max)}"]
    width = max(len(s.item.id) for s in scores)
    for s in scores:
        where = f"  (line {s.line}{', carried forward' if s.carried else ''})" if s.line is not None else ""
        lines.append(f"  {_safe(s.item.id):<{width}}  {points_text(s.points):>5} / {points_text(s.item.points):<5}"
                     f"  {s.verdict}{where}")
    return lines


def conventions_json(report) -> dict:
    return {name: {"value": value, "meaning": meaning} for name, value, meaning in report.conventions}


def json_report(report, *, data=None, answers=None) -> dict:
    """The report as JSON-ready data (keys in docs/check.md): version 2's, with ``min_decimals`` and
    ``conventions`` after ``log``."""
    doc = {}
    for key, value in _claims_json(report, data=data, answers=answers).items():
        doc[key] = value
        if key == "log":
            doc["min_decimals"] = report.min_decimals
            doc["conventions"] = conventions_json(report)
    return doc


report_json = json_report


def scores_json(scores, rubric) -> dict:
    return {"score": points_text(sum((s.points for s in scores), 0)), "max": points_text(rubric.max),
            "items": [{"id": s.item.id, "claim": s.item.claim, "verdict": s.verdict, "points": points_text(s.points),
                       "max": points_text(s.item.points), "line": s.line, "carried_forward": s.carried}
                      for s in scores]}


_STYLE = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}"
          "pre{white-space:pre-wrap;margin:0}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}"
          ".right{color:#060}.imprecise,.close{color:#850}.wrong,.unreadable,.missing{color:#a00}"
          ".note{color:#444;font-size:90%}")
def html_report(report, *, title, scores=None, rubric=None, explain=False) -> str:
    """A self-contained page (no script, no outside file): the conventions, each claim with its verdict and
    notes, the summary and the score. Every text from the sheet is escaped."""
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{e(title)}</title>",
             f"<style>{_STYLE}</style></head><body>", f"<h1>{e(title)}</h1>"]
    if report.conventions:
        parts.append("<p>Graded under:</p><ul>")
        parts.extend(f"<li>{e(meaning)}</li>" for _, _, meaning in report.conventions)
        parts.append("</ul>")
    if scores is not None:
        total = sum((s.points for s in scores), 0)
        parts.append(f"<h2>Score: {e(points_text(total))} / {e(points_text(rubric.max))}</h2>")
        parts.append("<table><tr><th>item</th><th>points</th><th>verdict</th><th>line</th></tr>")
        for s in scores:
            parts.append(f'<tr><td>{e(s.item.id)}</td><td>{e(points_text(s.points))} / {e(points_text(s.item.points))}'
                         f'</td><td class="{e(s.verdict)}">{e(s.verdict)}</td>'
                         f"<td>{'' if s.line is None else s.line}</td></tr>")
        parts.append("</table>")
    parts.append("<h2>Claims</h2><table><tr><th>line</th><th></th><th>claim</th><th>notes</th></tr>")
    for r in report.results:
        label = str(r.line) if r.last_line == r.line else f"{r.line}–{r.last_line}"
        notes = []
        if r.message:
            notes.append(r.message)
        if r.diagnosis:
            notes.append(f"likely mistake: {r.diagnosis}")
        if not r.right and r.quantity is not None and r.expected_decimal is not None:
            notes.append(f"correct: {r.quantity} = {r.expected_decimal}")
        if explain:
            notes.extend(r.explanation)
        parts.append(f'<tr><td>{label}</td><td class="{e(r.verdict)}">{_MARK[r.verdict]}</td>'
                     f"<td><pre>{e(r.text)}</pre></td>"
                     f'<td class="note">{"<br>".join(e(n) for n in notes)}</td></tr>')
    parts.append("</table>")
    parts.append(f"<p>{e(report.summary())}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _safe(s: str) -> str:
    """Text for a terminal: control and format characters (escapes, bidi overrides) shown as \\x.. codes."""
    return "".join(c if c == "\n" or unicodedata.category(c) not in ("Cc", "Cf") else
                   f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}" for c in s)


def _expected_text(r) -> str | None:
    e = r.expected
    if e is None:
        return None
    if isinstance(e, tuple):
        return _or(e) if e else None
    if isinstance(e, str):
        return e
    return _exact_text(e)


def format_text(report, *, explain=False) -> str:
    """One line per claim (✓ right, ≈ close, ✗ wrong, ? unreadable), notes below, then the summary."""
    out = []
    for r in report.results:
        lines = _safe(r.text).split("\n")
        label = f"line {r.line}" if r.last_line == r.line else f"lines {r.line}-{r.last_line}"
        out.append(f"{_MARK[r.verdict]} {label}: {lines[0]}")
        out.extend(f"{' ' * (len(label) + 4)}{s}" for s in lines[1:])
        if r.message:
            prefix = {"close": "close: ", "unreadable": ""}.get(r.verdict, "")
            out.append(f"    {prefix}{_safe(r.message)}")
        if r.diagnosis:
            out.append(f"    likely mistake: {_safe(r.diagnosis)}")
        if not r.right and r.quantity is not None and r.expected is not None:
            out.append(f"    correct: {r.quantity} = {r.expected_decimal} = {_exact_text(r.expected)}")
        if explain and r.explanation:
            out.append("    explanation:")
            out.extend(f"      {_safe(s)}" for s in r.explanation)
    out.append("")
    out.append(report.summary())
    return "\n".join(out) + "\n"


def _claims_json(report, *, data=None, answers=None) -> dict:
    """Every claim's keys and the report's settings (the JSON's body)."""
    claims = []
    for r in report.results:
        v = r.answer_value
        claims.append({
            "line": r.line,
            "last_line": r.last_line,
            "claim": r.text,
            "kind": r.kind,
            "verdict": r.verdict,
            "quantity": r.quantity,
            "answer": r.answer,
            "answer_value": None if v is None else v if isinstance(v, str) else _exact_text(v),
            "expected": _expected_text(r),
            "expected_decimal": r.expected_decimal,
            "acceptable": list(r.expected) if isinstance(r.expected, tuple) else None,
            "message": r.message,
            "diagnosis": r.diagnosis,
            "explanation": list(r.explanation),
            "nodes": [{"line": n.line, "path": n.path, "verdict": n.verdict, "message": n.message,
                       "carried_forward": n.carried} for n in r.nodes] if r.kind == "tree" else None,
        })
    c = report.counts
    return {
        "version": SCHEMA_VERSION,
        "data": data,
        "answers": answers,
        "target": report.target,
        "criterion": report.criterion,
        "tolerance": None if report.tolerance is None else counts_text(report.tolerance),
        "digits": report.digits,
        "min_digits": report.min_digits,
        "log": report.log,
        "summary": {"claims": len(report.results), **{v: c[v] for v in VERDICTS}, "all_right": report.all_right,
                    "exit_status": report.exit_status},
        "claims": claims,
        "error": None,
    }
