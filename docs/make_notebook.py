"""Run docs/notebook.ipynb and store its outputs, so that someone browsing it sees them.

    python docs/make_notebook.py           # execute every code cell, write the outputs into the notebook
    python docs/make_notebook.py --check   # exit 1 if a fresh run's outputs differ from the stored ones

No Jupyter is needed: the code cells run in order in one namespace from docs/ (as a kernel
started there would run them); printed text becomes a ``stream`` output and a cell's last
expression an ``execute_result`` with the MIME types Jupyter would ask it for
(``_repr_html_``, ``_repr_svg_``, ``repr``).  ``tests/test_html.py`` runs the check: a
drawing's SVG is compared by its text, in order (matplotlib moves glyphs by points
between versions), everything else byte for byte.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
NOTEBOOK = DOCS / "notebook.ipynb"


def _lines(text: str) -> list[str]:
    """A notebook's multi-line string: a list of lines, each but the last ending in a newline."""
    return text.splitlines(keepends=True)


def _shown(value) -> dict:
    """What Jupyter displays for a value: its HTML, SVG and plain-text forms, where it has them."""
    data = {}
    html = getattr(value, "_repr_html_", None)
    if html is not None and html() is not None:
        data["text/html"] = _lines(html())
    svg = getattr(value, "_repr_svg_", None)
    if svg is not None and svg() is not None:
        data["image/svg+xml"] = _lines(svg())
    data["text/plain"] = _lines(repr(value))
    return data


def execute(path: Path = NOTEBOOK) -> dict:
    """The notebook with every code cell run and its outputs filled in (execution counts from 1)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    root = str(DOCS.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    namespace: dict = {"__name__": "__main__"}
    count = 0
    old = os.getcwd()
    os.chdir(DOCS)
    try:
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            count += 1
            module = ast.parse("".join(cell["source"]))
            last = module.body.pop() if module.body and isinstance(module.body[-1], ast.Expr) else None
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(module, f"<cell {count}>", "exec"), namespace)
                value = None if last is None else eval(compile(ast.Expression(last.value), f"<cell {count}>", "eval"),
                                                       namespace)
            outputs = []
            if out.getvalue():
                outputs.append({"name": "stdout", "output_type": "stream", "text": _lines(out.getvalue())})
            if value is not None:
                outputs.append({"data": _shown(value), "execution_count": count, "metadata": {},
                                "output_type": "execute_result"})
            cell["execution_count"] = count
            cell["outputs"] = outputs
    finally:
        os.chdir(old)
    return nb


def text(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def fingerprint(nb: dict) -> list:
    """The outputs as compared for drift: an SVG by its texts in order, the rest as it is."""
    def strip(s: str) -> str:
        return re.sub(r"<svg\b.*?</svg>", lambda m: "<svg:" + "|".join(re.findall(r"<text\b[^>]*>([^<]*)</text>", m.group(0),
                                                                           flags=re.S)) + ">", s, flags=re.S)
    out = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            data = {k: strip("".join(v)) for k, v in o.get("data", {}).items()}
            out.append((o["output_type"], "".join(o.get("text", [])), data))
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    fresh = execute()
    if argv == ["--check"]:
        stored = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
        if fingerprint(stored) != fingerprint(fresh):
            print("docs/notebook.ipynb: stored outputs differ from a fresh run; run python docs/make_notebook.py")
            return 1
        return 0
    NOTEBOOK.write_text(text(fresh), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
