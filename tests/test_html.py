"""HTML (printers/html.py): node derivations, notebook display, the report, and the example notebook."""

import ast
import doctest
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

import infotree
from infotree import build_tree, load
from infotree.cli import main
from infotree.errors import InfotreeError
from infotree.printers import html
from infotree.printers.cells import TEXT, has_derivation
from infotree.printers.entropy import node_view

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.csv"
VOID = {"meta", "br", "hr", "img", "input", "link", "path", "use", "stop", "rect", "circle", "ellipse", "line",
        "polyline", "polygon"}


class Page(HTMLParser):
    """Tags opened and closed, in order; text by the innermost element; every href and src."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.links, self.count = [], [], [], {}
        self.text = {}

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        self.links += [v for k, v in attrs if k in ("href", "src", "xlink:href") and v]
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data):
        if self.stack:
            self.text.setdefault(self.stack[-1], []).append(data)


def parsed(text):
    p = Page()
    p.feed(text)
    p.close()
    assert p.errors == [] and p.stack == [], (p.errors, p.stack)
    return p


def test_docstring_example(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert doctest.testmod(html).failed == 0


def test_node_tables_are_the_text_tables():
    """A node's HTML tables hold exactly the cells of the text printer's tables, escaped."""
    tree = build_tree(load(WEATHER))
    page = parsed(html.node_html(tree, tree.root))
    v = node_view(tree, tree.root, markup=TEXT)
    rows = [row for t in (v.branches, v.summary, v.exact) for row in t.rows]
    assert page.count["td"] == sum(map(len, rows)) and page.count["table"] == 3
    # The parser reports no text for an empty cell: compare the others, in order.
    assert [c.strip() for c in page.text["td"]] == [c.strip() for row in rows for c in row if c.strip()]
    assert "decision: split on outlook: maximal information gain" in page.text["p"]


def test_report_command(tmp_path):
    """`infotree report`: one HTML file that parses, with the drawing inline, the tree, a worked
    solution section per derivation, every derivation, and no link to anything outside."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "report.html"
    assert main(["report", str(WEATHER), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    page = parsed(text)
    tree = build_tree(load(WEATHER))
    derived = [n for n in tree.nodes() if has_derivation(n)]
    assert page.count["svg"] == 1 and page.count["pre"] == 1
    assert page.count["section"] == 2 * len(derived)
    assert page.text["h1"] == ["Decision tree for play"]
    assert page.text["h2"] == ["The tree", "Worked solution", "Derivations"]
    assert [h for h in page.text["h3"] if h.startswith("Node: ")] == [f"Node: {n.describe_path()}" for n in derived]
    assert page.links == []
    assert "IG(outlook) = H(play) - H(play | outlook) = 0.9403 - 0.6935 = 0.2467" in "\n".join(page.text["p"])
    assert text.startswith("<!DOCTYPE html>")


def test_report_escapes_and_options(tmp_path):
    """Names with <, & and quotes are escaped; --title and --criterion go through; a C4.5 tree's
    report holds its correction table."""
    rows = [{"a<b>": "x&y", "c": "1", "y": '"k"'}, {"a<b>": "z", "c": "2", "y": "<k2>"},
            {"a<b>": "x&y", "c": "2", "y": '"k"'}, {"a<b>": "z", "c": "1", "y": "<k2>"}]
    path = tmp_path / "nasty.csv"
    path.write_text("a<b>,c,y\n" + "\n".join(f'{r["a<b>"]},{r["c"]},"{r["y"]}"'.replace('""k""', '"""k"""')
                                             for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(path), "--title", "Sheet <1>", "-o", str(out)]) == 0
    page = parsed(out.read_text(encoding="utf-8"))
    assert page.text["title"] == ["Sheet <1>"] and page.text["h1"] == ["Sheet <1>"]
    c45 = tmp_path / "c45.html"
    data = ROOT / "worked_examples" / "c45_missing_and_numeric" / "data.csv"
    assert main(["report", str(data), "--criterion", "gain-ratio", "-o", str(c45)]) == 0
    assert "C4.5 gain corrections" in parsed(c45.read_text(encoding="utf-8")).text["caption"]


def test_report_without_matplotlib(tmp_path, monkeypatch):
    """Without matplotlib the report still comes, with the text tree and no drawing."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "r.html"
    assert main(["report", str(WEATHER), "-o", str(out)]) == 0
    page = parsed(out.read_text(encoding="utf-8"))
    assert "svg" not in page.count and page.count["pre"] == 1


def test_show():
    """infotree.show: a tree as HTML (drawing, tree, selected derivations) and SVG; a node as its
    derivation; anything else refused in one line."""
    tree = build_tree(load(WEATHER))
    shown = infotree.show(tree)
    page = parsed(shown._repr_html_())
    assert page.count["section"] == 1 and parsed(infotree.show(tree, nodes="all")._repr_html_()).count["section"] == 3
    if shown._repr_svg_() is not None:
        assert shown._repr_svg_().startswith("<svg ") and page.count["svg"] == 1
    node = parsed(infotree.show(tree.root.children[0])._repr_html_())
    assert node.text["h3"] == ["Node: outlook = sunny"]
    leaf = parsed(infotree.show(tree.root.children[1])._repr_html_())
    assert leaf.text["h3"] == ["outlook = overcast"]
    with pytest.raises(InfotreeError, match="show\\(\\) takes a Tree or a Node, not str"):
        infotree.show("tree")
    with pytest.raises(InfotreeError, match="unknown node selection 'every'"):
        infotree.show(tree, nodes="every")


def run_notebook(path):
    """Run a notebook's code cells in order, in one namespace, as Jupyter would; return what each
    cell's last expression shows (its value), for the cells that end with one."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    namespace, shown = {}, []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        module = ast.parse(source)
        last = module.body[-1] if module.body and isinstance(module.body[-1], ast.Expr) else None
        if last is not None:
            module.body.pop()
        exec(compile(module, str(path), "exec"), namespace)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))
    return nb, shown


def test_example_notebook(monkeypatch, capsys):
    """docs/notebook.ipynb runs top to bottom from docs/ (no network, no Jupyter needed); what its cells
    show is valid HTML, and the generated predict agrees with the tree."""
    monkeypatch.chdir(ROOT / "docs")
    nb, shown = run_notebook(ROOT / "docs" / "notebook.ipynb")
    html_shown = [s for s in shown if hasattr(s, "_repr_html_")]
    assert len(html_shown) == 7
    for s in html_shown:
        parsed(s._repr_html_())
    assert ("no", "no") in shown
    assert "Rule 1: if outlook = sunny and humidity = high" in capsys.readouterr().out


def test_notebook_outputs_are_stored_and_current():
    """The notebook ships executed (every code cell has its outputs, drawings among them), and
    docs/make_notebook.py --check finds no drift between them and a fresh run."""
    import importlib.util

    nb = json.loads((ROOT / "docs" / "notebook.ipynb").read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c["outputs"] for c in code) and [c["execution_count"] for c in code] == list(range(1, len(code) + 1))
    assert sum("image/svg+xml" in o.get("data", {}) for c in code for o in c["outputs"]) >= 4
    spec = importlib.util.spec_from_file_location("make_notebook", ROOT / "docs" / "make_notebook.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    pytest.importorskip("matplotlib")
    assert make.main(["--check"]) == 0
    stale = json.loads(json.dumps(nb))
    stale["cells"][-1]["outputs"][0]["data"]["text/plain"] = ["<something else>"]
    assert make.fingerprint(stale) != make.fingerprint(nb)


def test_tree_and_node_show_themselves():
    """Jupyter finds _repr_html_ on the tree and its nodes: the same as infotree.show."""
    import infotree
    from infotree import build_tree, load

    tree = build_tree(load(ROOT / "tests" / "data" / "weather.csv"))
    assert tree._repr_html_() == infotree.show(tree)._repr_html_()
    assert tree.root._repr_html_() == infotree.show(tree.root)._repr_html_()
