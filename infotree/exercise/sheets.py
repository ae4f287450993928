"""The files of one student's exercise: the sheet and the key in Markdown, LaTeX and HTML, the key
as claims, the rubric and the check options.

A printer: it reads an :class:`~infotree.exercise.Exercise` and infotree's own printers write the
worked solution (``--steps``: the tree printers, the weakest-link printer, the forest printer).
Where a printer has no such format (the forest's LaTeX and HTML, the weakest-link HTML) its text
output is shown verbatim.
"""

from __future__ import annotations

import io
from html import escape as _html

from ..printers.cells import TEXT, latex_escape, select_nodes
from ..printers.numbers import number

__all__ = ["FILES", "check_toml", "key_lines", "rubric_toml", "write_files"]

FILES = ("data.csv", "sheet.md", "sheet.tex", "sheet.html", "key.md", "key.tex", "key.html", "answers_key.txt",
         "rubric.toml", "check.toml")

#: the fraction of an item's points each verdict of check earns
CREDIT = (("right", "1.0"), ("imprecise", "0.5"), ("close", "0.5"), ("wrong", "0.0"))


def _toml_str(s) -> str:
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return _toml_str(v)


def check_toml(ex) -> str:
    """The options that grade the exercise, as ``infotree check``'s long option names without dashes."""
    lines = [f"# infotree check answers.txt --data data.csv {' '.join(_shell(a) for a in ex.flags)}"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in ex.options.items()]
    return "\n".join(lines) + "\n"


def _shell(arg: str) -> str:
    return arg if all(c.isalnum() or c in "-_./=:" for c in arg) and arg else "'" + arg.replace("'", "'\\''") + "'"


def rubric_toml(ex) -> str:
    out = [f"exercise = {_toml_str(ex.title)}", f"student = {_toml_str(ex.student)}", f"kind = {_toml_str(ex.kind)}",
           f"seed = {ex.seed}", "", "[credit]            # fraction of an item's points per verdict"]
    out += [f"{verdict} = {credit}" for verdict, credit in CREDIT]
    for q in ex.questions:
        out += ["", "[[item]]", f"id = {_toml_str(q.claim)}", f"claim = {_toml_str(q.claim)}", f"points = {q.points}"]
    return "\n".join(out) + "\n"


def key_lines(ex) -> str:
    head = [f"# key: {ex.title}; student {ex.student}, seed {ex.seed}",
            f"# infotree check answers_key.txt --data data.csv {' '.join(_shell(a) for a in ex.flags)}"]
    return "\n".join(head + [q.line for q in ex.questions]) + "\n"


def _points(q) -> str:
    return f"{q.points} point{'s' * (q.points != 1)}"


def _decimal(q) -> str:
    """The value as the printers write it (4 decimals, or its exact decimal when shorter), where the
    exact answer is not already a short number."""
    exact = "/" in q.answer or "log" in q.answer
    return number(q.value, 4) if q.value is not None and exact else ""


def _csv(ex) -> str:
    return "\n".join(",".join(r) for r in [ex.header, *ex.rows]) + "\n"


def _answer_how(ex, code) -> str:
    first = ex.questions[0].claim
    return (f"Write your answers in a text file, one line a question, as it is asked: {code(first + ' = ...')} with a "
            f"number (at least 3 significant digits, or a fraction) or an exact expression such as "
            f"{code('1 - (3/7)^2 - (4/7)^2')} or {code('-(3/5)*log2(3/5)')}; a whole tree as its lines.")


def _intro(ex) -> list:
    return [ex.kind_obj.task.format(target=ex.header[-1]), _answer_how(ex, lambda s: f"`{s}`")]


def _demote(text) -> str:
    """A printer's Markdown headings one level down, under the key's own."""
    return "\n".join("#" + line if line.startswith("#") else line for line in text.split("\n"))


def _given(ex, fmt) -> str:
    """What the sheet shows besides the data: T0 (cost complexity), the bootstrap samples (bagging)."""
    sol = ex.solution
    if sol.path is not None:
        buf = io.StringIO()
        from ..printers import render

        render(sol.tree, buf, fmt="text", nodes="none")
        return "T0 (leaf: class (rows/misclassified)):\n" + buf.getvalue()
    if sol.forest is not None:
        return "\n".join(f"tree {k + 1}: rows {s}" for k, s in enumerate(sol.extra["samples"])) + "\n"
    return ""


def _ties(ex) -> list:
    if not ex.ties:
        return ["No exact tie at any decision asked about."]
    return ["Exact ties (check grades every tied choice right):"] + ex.ties


# -- Markdown ---------------------------------------------------------------------------------

def _md_table(ex) -> str:
    header = ["row", *ex.header]
    rule = "|" + "|".join(" ---: " if i == 0 else " :--- " for i in range(len(header))) + "|"
    out = ["| " + " | ".join(header) + " |", rule]
    out += ["| " + " | ".join([str(i + 1), *r]) + " |" for i, r in enumerate(ex.rows)]
    return "\n".join(out) + "\n"


def sheet_md(ex) -> str:
    out = [f"# {ex.title}", "", f"Student {ex.student} · exercise {ex.kind}, seed {ex.seed}", ""]
    out += [p + "\n" for p in _intro(ex)]
    out += ["## Data", "", _md_table(ex)]
    given = _given(ex, "markdown")
    if given:
        out += ["```text", given.rstrip("\n"), "```", ""]
    out += ["## Questions", ""]
    out += [f"{i}. {q.prompt[0].upper() + q.prompt[1:] if q.prompt else f'`{q.claim} = ?`'}"
            f"{': ' + q.hint if q.hint else ''} ({_points(q)})" for i, q in enumerate(ex.questions, 1)]
    return "\n".join(out) + "\n"


def key_md(ex) -> str:
    out = [f"# Key: {ex.title}", "", f"Student {ex.student} · exercise {ex.kind}, seed {ex.seed} · graded by "
           f"`infotree check answers.txt --data data.csv {' '.join(_shell(a) for a in ex.flags)}`", "",
           "## Answers", ""]
    for i, q in enumerate(ex.questions, 1):
        d = _decimal(q)
        if q.prompt:
            block = "".join(f"   {line}\n" for line in q.line.split("\n"))
            out.append(f"{i}. {q.prompt}:\n\n   ```text\n{block}   ```")
        else:
            out.append(f"{i}. `{q.line}`" + (f" ≈ {d}" if d and d != q.answer else ""))
    ties = _ties(ex)
    out += ["", ties[0], *(f"- {t}" for t in ties[1:]), "", "## Worked solution", ""]
    out.append(_worked(ex, "markdown"))
    return "\n".join(out)


# -- LaTeX ------------------------------------------------------------------------------------

_PREAMBLE = ("\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
             "\\usepackage{amsmath,booktabs,longtable,array}\n\\usepackage[margin=2cm]{geometry}\n"
             "\\begin{document}\n")


def _tt(s) -> str:
    return "\\texttt{" + latex_escape(s) + "}"


def _tex_table(ex) -> str:
    cols = "r" + "l" * len(ex.header)
    out = [f"\\begin{{longtable}}{{{cols}}}", "\\toprule",
           " & ".join(["row", *map(latex_escape, ex.header)]) + " \\\\", "\\midrule"]
    out += [" & ".join([str(i + 1), *map(latex_escape, r)]) + " \\\\" for i, r in enumerate(ex.rows)]
    return "\n".join(out + ["\\bottomrule", "\\end{longtable}"]) + "\n"


def _verbatim(text) -> str:
    # pdflatex's utf8 input knows · × — but not the arrow of a forest's tie column
    return "\\begin{verbatim}\n" + text.rstrip("\n").replace("→", "->") + "\n\\end{verbatim}\n"


def _tex_head(ex, what) -> list:
    return [_PREAMBLE + f"\\section*{{{what}{latex_escape(ex.title)}}}",
            f"Student {latex_escape(ex.student)} $\\cdot$ exercise {latex_escape(ex.kind)}, seed {ex.seed}"
            "\\par\\medskip"]


def sheet_tex(ex) -> str:
    out = _tex_head(ex, "")
    out += [latex_escape(_intro(ex)[0]) + "\\par", _answer_how(ex, _tt) + "\\par", "\\subsection*{Data}",
            _tex_table(ex)]
    given = _given(ex, "latex")
    if given:
        out.append(_verbatim(given))
    out += ["\\subsection*{Questions}", "\\begin{enumerate}"]
    out += [f"\\item {latex_escape(q.prompt) if q.prompt else _tt(q.claim + ' = ?')}"
            f"{': ' + latex_escape(q.hint) if q.hint else ''} ({_points(q)})" for q in ex.questions]
    return "\n".join(out + ["\\end{enumerate}", "\\end{document}"]) + "\n"


def key_tex(ex) -> str:
    out = _tex_head(ex, "Key: ")
    out += ["\\subsection*{Answers}", "\\begin{enumerate}"]
    for q in ex.questions:
        d = _decimal(q)
        if q.prompt:
            out.append(f"\\item {latex_escape(q.prompt)}:\n{_verbatim(q.line)}")
        else:
            out.append(f"\\item {_tt(q.line)}" + (f" $\\approx$ {d}" if d and d != q.answer else ""))
    out += ["\\end{enumerate}", "\\par".join(latex_escape(t) for t in _ties(ex)) + "\\par",
            "\\subsection*{Worked solution}", _worked(ex, "latex"), "\\end{document}"]
    return "\n".join(out) + "\n"


# -- HTML -------------------------------------------------------------------------------------

def _html_head(ex, what) -> list:
    from ..printers.html import STYLE

    title = _html(what + ex.title)
    return [f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n'
            f"<style>\nbody {{ margin: 2em; }}\n{STYLE}</style>\n</head>\n<body class=\"infotree\">\n<h1>{title}</h1>",
            f"<p>Student {_html(ex.student)} · exercise {_html(ex.kind)}, seed {ex.seed}</p>"]


def _html_table(ex) -> str:
    out = ["<table>", "<tr>" + "".join(f"<th>{_html(h)}</th>" for h in ["row", *ex.header]) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{_html(c)}</td>" for c in [str(i + 1), *r]) + "</tr>" for i, r in enumerate(ex.rows)]
    return "\n".join(out + ["</table>"])


def sheet_html(ex) -> str:
    out = _html_head(ex, "")
    out += [f"<p>{_html(p)}</p>" for p in _intro(ex)]
    out += ["<h2>Data</h2>", _html_table(ex)]
    given = _given(ex, "html")
    if given:
        out.append(f"<pre>{_html(given)}</pre>")
    out += ["<h2>Questions</h2>", "<ol>"]
    out += [f"<li>{_html(q.prompt) if q.prompt else f'<code>{_html(q.claim)} = ?</code>'}"
            f"{': ' + _html(q.hint) if q.hint else ''} ({_points(q)})</li>" for q in ex.questions]
    return "\n".join(out + ["</ol>", "</body>", "</html>"]) + "\n"


def key_html(ex) -> str:
    out = _html_head(ex, "Key: ")
    out += ["<h2>Answers</h2>", "<ol>"]
    for q in ex.questions:
        d = _decimal(q)
        if q.prompt:
            out.append(f"<li>{_html(q.prompt)}:<pre>{_html(q.line)}</pre></li>")
        else:
            out.append(f"<li><code>{_html(q.line)}</code>" + (f" ≈ {d}" if d and d != q.answer else "") + "</li>")
    out += ["</ol>", "<p>" + "<br>\n".join(map(_html, _ties(ex))) + "</p>", "<h2>Worked solution</h2>",
            _worked(ex, "html"), "</body>", "</html>"]
    return "\n".join(out) + "\n"


# -- the worked solution, by infotree's printers -----------------------------------------------

def _tree_steps(tree, fmt) -> str:
    from ..printers import render

    buf = io.StringIO()
    if fmt in ("markdown", "latex"):
        render(tree, buf, fmt=fmt, steps=True, nodes="none")
        text = buf.getvalue()
        if fmt == "latex":  # the fragment's first line names the packages the preamble loads
            return text.split("\n", 1)[1]
        return _demote(text)
    # HTML: the report's worked solution (printers.html.write_report), without its drawing
    from ..printers.html import _tree_text
    from ..printers.steps import node_steps

    buf.write(f"<pre>{_html(_tree_text(tree, 'decimal'))}</pre>\n")
    for node in select_nodes(tree, "all"):
        lines = list(node_steps(tree, node, markup=TEXT))
        buf.write(f'<section class="infotree-steps"><h3>{_html(lines[0])}</h3>\n')
        for group in "\n".join(lines[1:]).strip("\n").split("\n\n"):
            buf.write("<p>" + "<br>\n".join(_html(line) for line in group.split("\n")) + "</p>\n")
        buf.write("</section>\n")
    return buf.getvalue()


def _pruning(ex, fmt) -> str:
    from ..printers import render
    from ..printers.complexity import write

    sol = ex.solution
    buf = io.StringIO()
    write(sol.path, buf, fmt="text" if fmt == "html" else fmt, steps=True)
    text = buf.getvalue()
    pruned = io.StringIO()
    render(sol.pruned, pruned, fmt="text", nodes="none")
    alpha = sol.options["alpha"]
    if fmt == "markdown":
        return f"{_demote(text)}\n### T0 pruned at alpha = {alpha}\n\n```text\n{pruned.getvalue()}```\n"
    if fmt == "latex":
        return f"{text}\n\\subsubsection*{{T0 pruned at alpha = {alpha}}}\n{_verbatim(pruned.getvalue())}"
    return (f"<pre>{_html(text)}</pre>\n<h3>T0 pruned at alpha = {_html(alpha)}</h3>\n"
            f"<pre>{_html(pruned.getvalue())}</pre>\n")


def _forest(ex, fmt) -> str:
    from ..printers.forest import write

    f = ex.solution.forest
    buf = io.StringIO()
    write(f, buf, fmt="markdown" if fmt == "markdown" else "text", show_samples=True, oob=f.oob(), show_oob=True)
    text = buf.getvalue()
    shown = {"markdown": _demote, "latex": _verbatim, "html": lambda t: f"<pre>{_html(t)}</pre>\n"}[fmt](text)
    parts = [shown]
    for heading, tree in ex.kind_obj.worked(ex.solution):
        steps = _tree_steps(tree, fmt)
        parts.append({"markdown": f"\n## {heading}: worked solution\n\n", "latex": f"\\subsection*{{{heading}}}\n",
                      "html": f"<h2>{_html(heading)}</h2>\n"}[fmt] + steps)
    return "".join(parts)


def _worked(ex, fmt) -> str:
    sol = ex.solution
    if sol.path is not None:
        return _pruning(ex, fmt)
    if sol.forest is not None:
        return _forest(ex, fmt)
    return _tree_steps(sol.tree, fmt)


def write_files(ex, directory) -> None:
    """Write every file of :data:`FILES` into ``directory`` (created; files replaced)."""
    import os

    os.makedirs(directory, exist_ok=True)
    texts = {"data.csv": _csv(ex), "sheet.md": sheet_md(ex), "sheet.tex": sheet_tex(ex), "sheet.html": sheet_html(ex),
             "key.md": key_md(ex), "key.tex": key_tex(ex), "key.html": key_html(ex), "answers_key.txt": key_lines(ex),
             "rubric.toml": rubric_toml(ex), "check.toml": check_toml(ex)}
    for name in FILES:
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(texts[name])
