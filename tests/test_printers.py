"""Tests for the printers (infotree.printers): text, Markdown, LaTeX, DOT and the worked solution."""

import doctest
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tabulate import tabulate_formats

import infotree.printers
from infotree.data import from_records, load
from infotree.errors import InfotreeError
from infotree.printers import FORMATS, latex_of, markdown_of, render, render_node
from infotree.printers import cells, dot, latex, markdown, steps, text
from infotree.printers.cells import latex_escape
from infotree.growing import build_tree

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent

WEATHER_TREE = """\
outlook = sunny
|  humidity = high: no (3)
|  humidity = normal: yes (2)
outlook = overcast: yes (4)
outlook = rainy
|  windy = FALSE: yes (3)
|  windy = TRUE: no (2)

Number of leaves: 5
Size of the tree: 8
"""

# Names with every character that needs escaping somewhere: Markdown, LaTeX, DOT.
NASTY = [
    {"a|b_&%#": "v|1$", "c{}~^\\": "w<>", "cls": 'k"1'},
    {"a|b_&%#": "v2", "c{}~^\\": "w2", "cls": "k2"},
    {"a|b_&%#": "v2", "c{}~^\\": "w<>", "cls": "k2"},
    {"a|b_&%#": "v2", "c{}~^\\": "w```x", "cls": "k`2"},
]

# A tree with a leaf that misclassifies (1 (2/1)), an empty leaf and an exact tie at the root.
SMALL = [
    {"a": "z", "b": "p", "y": "1"}, {"a": "z", "b": "q", "y": "1"}, {"a": "z", "b": "q", "y": "1"},
    {"a": "x", "b": "p", "y": "1"}, {"a": "x", "b": "r", "y": "0"}, {"a": "x", "b": "p", "y": "0"},
]


@pytest.fixture(scope="module")
def weather():
    return build_tree(load(DATA / "weather.csv"), criterion="gain")


@pytest.fixture(scope="module")
def weather_c45():
    return build_tree(load(DATA / "weather.csv"), criterion="gain_ratio")


@pytest.fixture(scope="module")
def lenses_c45():
    return build_tree(load(DATA / "contact-lenses.csv"), criterion="gain_ratio")


def trees():
    """Every criterion on weather and contact-lenses, plus the small and the nasty trees."""
    out = []
    for name in ("weather", "contact-lenses"):
        data = load(DATA / f"{name}.csv")
        for crit in ("gain", "gain_ratio", "gain_ratio_plain"):
            out.append(build_tree(data, criterion=crit))
    out.append(build_tree(from_records(SMALL)))
    out.append(build_tree(from_records(NASTY)))
    return out


def rendered(tree, **opts) -> str:
    buf = io.StringIO()
    render(tree, buf, **opts)
    return buf.getvalue()


def node_at(tree, *path):
    """The node reached by (feature, value) pairs."""
    for node in tree.nodes():
        if node.path_names() == list(path):
            return node
    raise AssertionError(f"no node at {path}")


def tsv_table(output: str, title: str) -> list[list[str]]:
    """The rows (header first) of the tsv table printed under ``title:``."""
    lines = output.splitlines()
    start = lines.index(f"{title}:") + 1
    end = lines.index("", start)
    return [[c.strip() for c in line.split("\t")] for line in lines[start:end]]


# -- text ----------------------------------------------------------------------------------

def test_text_tree_weather_id3(weather):
    """The tree prints in Weka's style, then its size."""
    assert rendered(weather, nodes="none") == WEATHER_TREE


def test_text_root_section_weather_id3(weather):
    """nodes="root" adds one section: facts, three tables, the legend and the decision."""
    out = rendered(weather, nodes="root", table_format="tsv")
    assert out.startswith(WEATHER_TREE + "\nNode: root\n==========\n")
    assert ("n = 14: no 5, yes 9\n"
            "H(play) = -(5/14)·log2(5/14) - (9/14)·log2(9/14) = 1 + log2(7) - 9/7*log2(3) - 5/14*log2(5) = 0.9403\n"
            ) in out
    assert out.endswith("\n* chosen\ndecision: split on outlook: maximal information gain\n")
    assert out.count("Node: ") == 1
    assert tsv_table(out, "candidates") == [
        ["", "feature", "H(play|X) form", "H(play|X)", "IG", "SplitInfo", "GainRatio"],
        ["*", "outlook", "5/14·H(3,2) + 4/14·H(0,4) + 5/14·H(2,3)", "0.6935", "0.2467", "1.5774", "0.1564"],
        ["", "temperature", "4/14·H(2,2) + 6/14·H(2,4) + 4/14·H(1,3)", "0.9111", "0.0292", "1.5567", "0.0188"],
        ["", "humidity", "7/14·H(4,3) + 7/14·H(1,6)", "0.7885", "0.1518", "1.0000", "0.1518"],
        ["", "windy", "8/14·H(2,6) + 6/14·H(3,3)", "0.8922", "0.0481", "0.9852", "0.0488"],
    ]
    assert tsv_table(out, "branches")[:4] == [
        ["feature", "value", "n", "no", "yes", "H(play|value)", "exact"],
        ["outlook", "sunny", "5", "3", "2", "0.9710", "-2/5 + log2(5) - 3/5*log2(3)"],
        ["outlook", "overcast", "4", "0", "4", "0.0000", "0"],
        ["outlook", "rainy", "5", "2", "3", "0.9710", "-2/5 + log2(5) - 3/5*log2(3)"],
    ]
    assert tsv_table(out, "exact values")[1] == [
        "outlook", "-2/7 + 5/7*log2(5) - 3/7*log2(3)", "9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)",
        "3/7 + log2(7) - 5/7*log2(5)"]


def test_text_all_nodes_are_internal_or_impure(weather, lenses_c45):
    """nodes="all" prints every internal node and every impure leaf with candidates, pre-order."""
    titles = [line[len("Node: "):] for line in rendered(weather).splitlines() if line.startswith("Node: ")]
    assert titles == ["root", "outlook = sunny", "outlook = rainy"]
    titles = [line[len("Node: "):] for line in rendered(lenses_c45).splitlines() if line.startswith("Node: ")]
    assert titles == ["root", "tear-prod-rate = normal", "tear-prod-rate = normal, astigmatism = no",
                      "tear-prod-rate = normal, astigmatism = yes",
                      "tear-prod-rate = normal, astigmatism = yes, spectacle-prescrip = hypermetrope"]


def test_text_rainy_node_marks_exactly_equal_gains(weather):
    """At outlook = rainy, temperature and humidity have exactly equal gain 0.0200 and are marked ≡."""
    out = io.StringIO()
    render_node(weather, node_at(weather, ("outlook", "rainy")), out, table_format="tsv")
    out = out.getvalue()
    rows = {r[1]: r for r in tsv_table(out, "candidates")[1:]}
    assert rows["temperature"][0] == rows["humidity"][0] == "≡"
    assert rows["temperature"][4] == rows["humidity"][4] == "0.0200"
    assert rows["windy"][0] == "*"
    assert "exactly equal information gain: temperature, humidity (IG = 0.0200)\n" in out
    assert "* chosen; ≡ exactly equal information gain, not the decision\n" in out


def test_text_every_tabulate_format(weather_c45):
    """Every tabulate table format renders every table, with the same numbers."""
    for fmt in tabulate_formats:
        out = rendered(weather_c45, table_format=fmt)
        assert "0.2467" in out and "1.5774" in out and "0.1564" in out, fmt
        assert out.startswith("outlook = sunny\n"), fmt


def test_text_leaf_errors_empty_and_ties():
    """(n/errors) on a misclassifying leaf, (0, empty) on an empty one; an exact tie is marked '='."""
    tree = build_tree(from_records(SMALL))
    out = rendered(tree, table_format="tsv")
    assert out.startswith("a = z: 1 (3)\na = x\n|  b = p: 1 (2/1)\n|  b = q: 0 (0, empty)\n|  b = r: 0 (1)\n")
    rows = tsv_table(out, "candidates")
    assert [r[:2] for r in rows[1:3]] == [["*", "a"], ["=", "b"]]
    assert ("decision: split on a: maximal information gain; tied exactly with b, "
            "broken by column order (first feature wins)\n") in out


def test_text_single_leaf():
    """A tree that is one leaf prints on one line and says why."""
    tree = build_tree(load(DATA / "weather.csv"), max_depth=0)
    out = rendered(tree, table_format="tsv")
    assert out.startswith(": yes (14/5)\nsingle leaf: stopped: maximum depth 0 reached\n\n"
                          "Number of leaves: 1\nSize of the tree: 1\n\nNode: root\n")
    assert out.endswith("decision: leaf labelled yes; stopped: maximum depth 0 reached\n")
    pure = build_tree(from_records([{"x": "a", "y": "k"}, {"x": "b", "y": "k"}]))
    assert rendered(pure) == ": k (2)\nsingle leaf: pure: every row has class k\n\nNumber of leaves: 1\nSize of the tree: 1\n"


def test_text_c45_filter_and_validity(weather_c45, lenses_c45):
    """C4.5 nodes show the average-gain filter and validity; an invalid feature is not filtered."""
    out = rendered(weather_c45, nodes="root", table_format="tsv")
    rows = tsv_table(out, "candidates")
    assert rows[0][-2:] == ["gain ≥ avg", "valid"]
    assert [(r[1], r[-2], r[-1]) for r in rows[1:]] == [
        ("outlook", "≥ avg", "yes"), ("temperature", "< avg", "yes"),
        ("humidity", "≥ avg", "yes"), ("windy", "< avg", "yes")]
    out = io.StringIO()
    render_node(lenses_c45, node_at(lenses_c45, ("tear-prod-rate", "normal")), out, table_format="tsv")
    rows = {r[1]: r for r in tsv_table(out.getvalue(), "candidates")[1:]}
    assert rows["tear-prod-rate"][3:] == ["1.5546", "0.0000", "0.0000", "undefined (split info 0)", "—", "no"]


# -- steps ----------------------------------------------------------------------------------

def test_steps_weather_root_lines_as_in_the_textbook():
    """With classes in the order yes, no (the ARFF's), the root's steps are the textbook lines."""
    tree = build_tree(load(DATA / "weather.arff"), criterion="gain_ratio_plain")
    out = rendered(tree, nodes="root", steps=True)
    lines = out.splitlines()
    for line in [
        "H(play) = -(9/14)·log2(9/14) - (5/14)·log2(5/14) = 0.9403",
        "H(play | outlook) = 5/14·H(2,3) + 4/14·H(4,0) + 5/14·H(3,2) = 0.6935",
        "IG(outlook) = H(play) - H(play | outlook) = 0.9403 - 0.6935 = 0.2467",
        "SplitInfo(outlook) = -(5/14)·log2(5/14) - (4/14)·log2(4/14) - (5/14)·log2(5/14) = 1.5774",
        "GainRatio(outlook) = 0.2467 / 1.5774 = 0.1564",
        "=> split on outlook (maximal gain ratio)",
        "H(play | outlook = sunny) = H(2,3) = -(2/5)·log2(2/5) - (3/5)·log2(3/5) = 0.9710",
    ]:
        assert line in lines
    # 0.9403 - 0.6935 is 0.2468: the line says so and gives the exact value.
    i = lines.index("IG(outlook) = H(play) - H(play | outlook) = 0.9403 - 0.6935 = 0.2467")
    assert lines[i + 1] == ("  (the rounded values give 0.2468; exact: "
                            "9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5) = 0.24674982)")


def test_steps_weather_nodes_name_their_condition(weather):
    """Below the root the entropies carry the path; steps come after the tree, before the tables."""
    out = rendered(weather, steps=True)
    assert out.startswith(WEATHER_TREE + "\nWorked solution\n===============\n\nAt root: 14 rows (no 5, yes 9)\n")
    assert out.index("Worked solution") < out.index("Node: root")
    lines = out.splitlines()
    assert "At outlook = sunny: 5 rows (no 3, yes 2)" in lines
    assert "H(play | outlook = sunny) = -(3/5)·log2(3/5) - (2/5)·log2(2/5) = 0.9710" in lines
    assert "H(play | outlook = sunny, humidity) = 3/5·H(3,0) + 2/5·H(0,2) = 0.0000" in lines
    assert ("IG(humidity) = H(play | outlook = sunny) - H(play | outlook = sunny, humidity) "
            "= 0.9710 - 0.0000 = 0.9710") in lines
    assert "IG(temperature) = IG(humidity) exactly (each 0.0200)" in lines
    assert not any(line.startswith("GainRatio(") for line in lines)  # ID3: no gain ratio step
    only = rendered(weather, nodes="none", steps=True)
    assert "Node: " not in only and only.count("\nAt ") == 3


def test_steps_c45_validity(lenses_c45):
    """C4.5 steps say which features are valid and which pass the average-gain filter."""
    lines = list(steps.node_steps(lenses_c45, node_at(lenses_c45, ("tear-prod-rate", "normal"))))
    assert "tear-prod-rate: not valid (fewer than two branches with at least 2 rows), so not a C4.5 candidate" in lines
    assert "C4.5: valid (two or more branches with at least 2 rows); gain at least the average gain" in lines
    assert lines[-1] == "=> split on astigmatism (maximal gain ratio among features with at least average gain)"


# -- markdown -------------------------------------------------------------------------------

def _tables(md: str) -> list[list[str]]:
    """The Markdown tables: runs of lines starting with '|'."""
    out, cur, fenced = [], [], False
    for line in md.splitlines() + [""]:
        if line.startswith("```"):
            fenced = not fenced
        if line.startswith("|") and not fenced:
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    return out


def _unescaped_pipes(row: str) -> int:
    return len(re.findall(r"(?<!\\)\|", row))


def test_markdown_tables_keep_their_columns():
    """Every row of every table has as many unescaped '|' as its header; '|' in a cell is escaped."""
    for tree in trees():
        md = markdown_of(tree, steps=True)
        tables = _tables(md)
        assert tables, tree.target
        for t in tables:
            counts = {_unescaped_pipes(row) for row in t}
            assert len(counts) == 1, t
            assert re.fullmatch(r"\|( (:---|---:) \|)+", t[1]), t[1]
    md = markdown_of(build_tree(from_records(NASTY)))
    assert "| H(cls\\|X) |" in md
    assert "| a\\|b\\_\\&%\\# | v\\|1\\$ |" in md
    assert "### root" in md and "- **decision:** split on a|b\\_\\&%\\#: maximal information gain" in md


def test_markdown_layout(weather):
    """Tree in a fenced block, worked solution, then one heading per node with formulas in code spans."""
    md = markdown_of(weather, steps=True)
    assert md.startswith("## Tree\n\n```text\n" + WEATHER_TREE.split("\n\n")[0] + "\n```\n\n5 leaves, 8 nodes.\n")
    assert md.index("## Worked solution") < md.index("## Derivations")
    assert "\n### outlook = sunny\n\n```text\nAt outlook = sunny: 5 rows (no 3, yes 2)\n" in md
    assert ("- `H(play) = -(5/14)·log2(5/14) - (9/14)·log2(9/14) = 1 + log2(7) - 9/7*log2(3) - 5/14*log2(5)"
            " = 0.9403`\n") in md
    assert "| \\* | outlook | `5/14·H(3,2) + 4/14·H(0,4) + 5/14·H(2,3)` | 0.6935 | 0.2467 | 1.5774 | 0.1564 |" in md
    assert "| ≡ | temperature |" in md and "| ≡ | humidity |" in md


def test_markdown_fence_outlasts_backticks_in_names():
    """A name with backticks cannot close the code fence or a code span early."""
    md = markdown_of(build_tree(from_records(NASTY)), steps=True)
    assert "\n```text\n" not in md and "\n````text\n" in md
    assert cells.code_span("a`b") == "``a`b``" and cells.code_span("`x") == "`` `x ``"


# -- latex ----------------------------------------------------------------------------------

def test_latex_escape():
    """The ten special characters and < > | are escaped for text mode."""
    assert latex_escape("_&%#${}~^\\<>|") == (r"\_\&\%\#\$\{\}\textasciitilde{}\textasciicircum{}"
                                              r"\textbackslash{}\textless{}\textgreater{}\textbar{}")


def test_latex_fragment_and_document(weather):
    """A fragment by default; standalone=True wraps it in a document with the packages it needs."""
    frag = latex_of(weather)
    assert frag.startswith("% infotree: decision tree for play; needs \\usepackage{amsmath,booktabs,longtable,array}\n")
    assert "\\documentclass" not in frag
    assert "\\hspace*{1.5em}humidity = high: no (3)\\par\n" in frag
    assert ("\\item $H(\\text{play}) = -\\frac{5}{14}\\log_2 \\frac{5}{14} - \\frac{9}{14}\\log_2 \\frac{9}{14} = "
            "1 + \\log_2 7 - \\frac{9}{7}\\log_2 3 - \\frac{5}{14}\\log_2 5 \\approx 0.9403$\n") in frag
    doc = latex_of(weather, standalone=True)
    assert doc.startswith("\\documentclass{article}\n") and doc.endswith("\\end{document}\n")
    assert "\\usepackage{amsmath,booktabs,longtable,array}\n" in doc
    assert frag.split("\\subsection*{Tree}", 1)[1] in doc


def _pdflatex(tmp_path, name, source):
    (tmp_path / f"{name}.tex").write_text(source, encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / f"{name}.pdf").stat().st_size > 0


def _latex_installed() -> bool:
    """pdflatex and the packages the documents use."""
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", *(f"{p}.sty" for p in latex.PACKAGES), "geometry.sty"],
                           capture_output=True, text=True).stdout.split()
    return len(found) == len(latex.PACKAGES) + 1


@pytest.mark.skipif(not _latex_installed(), reason="pdflatex or one of its packages is not installed")
def test_latex_compiles(tmp_path):
    """A standalone document compiles; so does every tree's fragment (nasty names, steps) in one document."""
    _pdflatex(tmp_path, "standalone", latex_of(build_tree(from_records(NASTY)), steps=True, standalone=True))
    cart = [build_tree(load(DATA / "kyphosis.csv", numeric="auto"), criterion="gini", cp="0.05", every_split=True),
            build_tree(load(DATA / "airquality.csv", numeric="auto", on_missing="keep"), criterion="squared_error",
                       cp="0.05")]  # surrogates, subsets, cp records, means and SSEs
    body = "".join(latex_of(tree, steps=True) + "\\clearpage\n" for tree in trees() + cart)
    _pdflatex(tmp_path, "fragments", "\\documentclass{article}\n\\usepackage{%s}\n\\begin{document}\n%s\\end{document}\n"
              % (",".join(latex.PACKAGES), body))


# -- dot ------------------------------------------------------------------------------------

def test_dot_weather(weather):
    """Pre-order ids, gains on internal nodes, values on edges, leaves with their counts."""
    out = rendered(weather, fmt="dot")
    assert out.splitlines()[:8] == [
        'digraph "infotree: play" {',
        '  node [fontname="Helvetica"];',
        '  edge [fontname="Helvetica"];',
        "  // criterion gain",
        '  n0 [shape=box, label="outlook\\nIG = 0.2467"];',
        '  n1 [shape=box, label="humidity\\nIG = 0.9710"];',
        '  n0 -> n1 [label="sunny"];',
        '  n2 [shape=ellipse, label="no (3)"];',
    ]
    assert '  n4 [shape=ellipse, label="yes (4)"];\n  n0 -> n4 [label="overcast"];\n' in out
    assert out.endswith('  n5 -> n7 [label="TRUE"];\n}\n')


def test_dot_empty_leaf_and_quoting():
    """An empty leaf is dashed; quotes and backslashes in names are escaped."""
    out = rendered(build_tree(from_records(SMALL)), fmt="dot")
    assert '  n4 [shape=ellipse, style=dashed, label="0 (0, empty)"];\n' in out
    assert '  n3 [shape=ellipse, label="1 (2/1)\\n1 1, 0 1"];\n' in out
    assert dot.quote('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    out = rendered(build_tree(from_records(NASTY)), fmt="dot")
    assert ' [shape=ellipse, label="k\\"1 (1)"];\n' in out


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")
def test_dot_parses_with_graphviz():
    """Graphviz reads every tree's DOT (one graph after another in one input) without complaint."""
    graphs = "".join(rendered(tree, fmt="dot") for tree in trees())
    run = subprocess.run(["dot", "-Tsvg"], input=graphs, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert run.stdout.count("<svg") == len(trees())


# -- the entry points -----------------------------------------------------------------------

def test_json_goes_to_the_json_printer(weather):
    """fmt="json" is the JSON contract of printers/json.py."""
    doc = json.loads(rendered(weather, fmt="json", nodes="root"))
    assert doc["root"]["split"] == "outlook"


def test_deterministic():
    """Every format is byte-identical on every run and on a rebuilt tree."""
    for fmt in FORMATS:
        if fmt in ("svg", "png"):  # drawings: tests/test_drawing.py
            continue
        opts = {"steps": True} if fmt in ("text", "markdown", "latex") else {}
        first = [rendered(t, fmt=fmt, **opts) for t in trees()]
        again = [rendered(t, fmt=fmt, **opts) for t in trees()]
        assert first == again, fmt


def test_render_streams(weather):
    """Output arrives in many small writes, not as one document."""
    class Recorder:
        def __init__(self):
            self.sizes = []

        def write(self, s):
            self.sizes.append(len(s))

    for fmt in ("text", "markdown", "latex", "dot"):
        rec = Recorder()
        render(weather, rec, fmt=fmt)
        assert len(rec.sizes) > len(weather) and max(rec.sizes) < 0.5 * sum(rec.sizes), fmt


def test_render_node_formats(weather):
    """One node's derivation in text, Markdown and LaTeX; DOT and JSON draw whole trees."""
    node = node_at(weather, ("outlook", "sunny"))
    for fmt, head in (("text", "Node: outlook = sunny\n"), ("markdown", "### outlook = sunny\n"),
                      ("latex", "\\subsubsection*{outlook = sunny}\n")):
        out = io.StringIO()
        render_node(weather, node, out, fmt=fmt)
        assert out.getvalue().startswith(head)
    with pytest.raises(InfotreeError) as e:
        render_node(weather, node, io.StringIO(), fmt="dot")
    assert str(e.value) == "format 'dot' prints whole trees; one node's derivation prints as text, markdown or latex"
    out = io.StringIO()
    render_node(weather, node_at(weather, ("outlook", "overcast")), out)
    assert out.getvalue() == "outlook = overcast: pure: every row has class yes; no candidates to compare\n"


def test_bad_options(weather):
    """Unknown formats, selections, digits and table formats are refused with what is allowed."""
    cases = [
        (dict(fmt="pdf"), "unknown format 'pdf'; allowed: text, markdown, latex, json, dot, rules, python, tikz, "
                          "svg, png, html"),
        (dict(nodes="leaves"), "unknown node selection 'leaves'; allowed: all, root, none"),
        (dict(digits=-1), "digits -1 is not allowed; give an integer from 0 to 50"),
        (dict(digits=True), "digits True is not allowed; give an integer from 0 to 50"),
        (dict(standalone=True), "standalone=True makes a complete LaTeX document (formats latex and tikz), not 'text'"),
        (dict(exact=True), "exact=True shows exact values in drawn boxes (formats tikz, svg, png), not 'text'"),
    ]
    for opts, message in cases:
        with pytest.raises(InfotreeError) as e:
            render(weather, io.StringIO(), **opts)
        assert str(e.value) == message
    with pytest.raises(InfotreeError) as e:
        render(weather, io.StringIO(), table_format="fancy")
    assert str(e.value).startswith("unknown table format 'fancy'; allowed: asciidoc, colon_grid,")


def test_digits(weather):
    """digits sets every decimal; exact forms do not change."""
    out = rendered(weather, nodes="root", digits=2, table_format="tsv")
    assert tsv_table(out, "candidates")[1][3:] == ["0.69", "0.25", "1.58", "0.16"]
    assert "= 1 + log2(7) - 9/7*log2(3) - 5/14*log2(5) = 0.94\n" in out


def test_notebook_strings_match_render(weather):
    """markdown_of and latex_of are the streamed output as one string."""
    assert markdown_of(weather, nodes="root") == rendered(weather, fmt="markdown", nodes="root")
    assert latex_of(weather, standalone=True) == rendered(weather, fmt="latex", standalone=True)


def test_public_surface():
    """The printers' public names are sorted and pinned."""
    assert infotree.printers.__all__ == sorted(set(infotree.printers.__all__))
    assert infotree.printers.__all__ == ["FORMATS", "latex_of", "markdown_of", "render", "render_node"]
    assert FORMATS == ("text", "markdown", "latex", "json", "dot", "rules", "python", "tikz", "svg", "png", "html")


def test_docstring_examples(monkeypatch):
    """The examples in the printers' docstrings run."""
    monkeypatch.chdir(ROOT)
    for module in (infotree.printers, cells, steps, text, markdown, latex, dot):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0, module.__name__


# -- C4.5: numeric attributes, missing values, fractional weights, pruning ------------------

MIXED = Path("/work/shared/datasets/mixed")
J48 = DATA / "j48"
_C45 = {}


def c45_tree(name, prune="none"):
    """A gain-ratio tree (as J48) of an ARFF file with numeric attributes or missing values."""
    key = (name, prune)
    if key not in _C45:
        path = DATA / f"{name}.arff"
        if not path.exists():
            path = MIXED / f"{name}.arff"
        if not path.exists():
            pytest.skip(f"{name}.arff is not available")
        data = load(path, on_missing="keep")
        _C45[key] = build_tree(data, criterion="gain_ratio", prune=prune)
    return _C45[key]


@pytest.mark.parametrize("name", ["labor", "weather.numeric", "vote", "breast-cancer"])
@pytest.mark.parametrize("mode", ["unpruned", "pruned"])
def test_j48_text_is_j48s_own_output(name, mode):
    """weights="j48" writes the tree block exactly as Weka's J48 printed it (tests/data/j48)."""
    tree = c45_tree(name, "pessimistic" if mode == "pruned" else "none")
    expected = (J48 / f"{name}.{mode}.txt").read_text(encoding="utf-8")
    got = rendered(tree, nodes="none", weights="j48")
    assert got.rstrip("\n") == expected.rstrip("\n")


def test_numeric_branches_and_fractional_weights():
    """Numeric branches read `f <= t`/`f > t`; fractional weights print to two places or exactly."""
    tree = c45_tree("labor", "pessimistic")
    assert rendered(tree, nodes="none") == (
        "wage-increase-first-year <= 2.5: bad (15.27/2.27)\n"
        "wage-increase-first-year > 2.5\n"
        "|  statutory-holidays <= 10: bad (10.77/4.77)\n"
        "|  statutory-holidays > 10: good (30.96/1)\n"
        "\nNumber of leaves: 3\nSize of the tree: 5\n")
    exact = rendered(tree, nodes="none", exact_weights=True)
    assert exact.splitlines()[0] == "wage-increase-first-year <= 2.5: bad (855/56, errors 127/56)"
    assert exact == rendered(tree, nodes="none", weights="exact")
    for fmt in ("text", "markdown", "latex", "dot"):
        out = rendered(c45_tree("labor"), fmt=fmt, nodes="all", **({"steps": True} if fmt != "dot" else {}))
        assert "= <=" not in out and "= >" not in out and "= \\textless" not in out, fmt
    weather = c45_tree("weather.numeric")
    assert "outlook = sunny\n|  humidity <= 75: yes (2)\n|  humidity > 75: no (3)\n" in rendered(weather, nodes="none")


def test_weight_rounding_is_exact_half_up():
    """Two places, half up, from the exact Fraction (a float would round 2.675 down)."""
    from fractions import Fraction

    assert cells.round2_text(Fraction("2.675")) == "2.68"
    assert cells.round2_text(Fraction(1, 8)) == "0.13"
    assert cells.round2_text(Fraction(1, 3)) == "0.33"
    assert cells.round2_text(Fraction(1999, 1000)) == "2.00"
    assert cells.weight_text(3) == "3" and cells.weight_text(Fraction(855, 56)) == "15.27"
    assert cells.weight_text(Fraction(855, 56), "exact") == "855/56"
    assert cells.weight_text(2, "j48") == "2.0" and cells.weight_text(Fraction(1, 10**7), "j48") == "0.0"
    assert cells.java_double(1e7) == "1.0E7" and cells.java_double(0.0001) == "1.0E-4"


def test_weight_options_are_checked(weather):
    with pytest.raises(InfotreeError) as e:
        render(weather, io.StringIO(), weights="float")
    assert str(e.value) == "unknown weights style 'float'; allowed: decimal, exact, j48"
    with pytest.raises(InfotreeError) as e:
        render(weather, io.StringIO(), weights="j48", exact_weights=True)
    assert "cannot be combined" in str(e.value)
    with pytest.raises(InfotreeError):
        render(weather, io.StringIO(), fmt="latex", weights="j48")
    # Integer trees print as before whatever the style.
    assert rendered(weather, nodes="none", exact_weights=True) == WEATHER_TREE


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_c45_derivations(fmt):
    """Derivations of labor (pruned) show the unknown rows, the known fraction, the MDL term and pruning."""
    tree = c45_tree("labor", "pessimistic")
    out = rendered(tree, fmt=fmt, nodes="all", steps=True)
    assert "? (missing)" in out
    assert "C4.5 gain corrections" in out
    mdl = {"latex": r"\frac{\log_2 14}{57}"}.get(fmt, "log2(14)/57")
    assert mdl in out
    assert "56/57" in out  # the known fraction of wage-increase-first-year at the root
    assert "the error estimates are floats" in out and "estimated errors as a leaf" in out
    if fmt == "text":
        assert ("IG(wage-increase-first-year) = 56/57·(H_known(class) - H(class | wage-increase-first-year)) "
                "- log2(14)/57 = 56/57·(0.9403 - 0.6345) - 0.0668 = 0.2336") in out
        assert "Node: wage-increase-first-year > 2.5\n" in out
        assert re.search(r"wage-increase-first-year +\? \(missing\) +1 +0 +1 +not in H\(Y\|X\)", out)


def test_c45_render_node_and_describe_path():
    tree = c45_tree("weather.numeric")
    node = tree.root.children[0]
    child = node.children[0]
    assert child.describe_path() == "outlook = sunny, humidity <= 75"
    out = io.StringIO()
    render_node(tree, child, out)
    assert out.getvalue().startswith("outlook = sunny, humidity <= 75: pure")


def test_c45_json_and_dot():
    """JSON: numeric children `<= 75`/`> 75`, the threshold, feature kinds, exact weights."""
    doc = json.loads(rendered(c45_tree("weather.numeric"), fmt="json", nodes="all"))
    assert doc["format"] == 2
    assert doc["kinds"] == {"outlook": "nominal", "temperature": "numeric", "humidity": "numeric", "windy": "nominal"}
    sunny = doc["root"]["children"][0]["node"]
    assert sunny["split"] == "humidity" and sunny["threshold"] == "75"
    assert [c["value"] for c in sunny["children"]] == ["<= 75", "> 75"]
    assert sunny["children"][0]["node"]["path"] == [["outlook", "sunny"], ["humidity", "<= 75"]]
    cand = next(c for c in sunny["candidates"] if c["feature"] == "humidity")
    assert cand["threshold"] == "75" and cand["n_cuts"] >= 1 and cand["unknown"] is None
    labor = json.loads(rendered(c45_tree("labor", "pessimistic"), fmt="json", nodes="root"))
    root = labor["root"]
    assert root["n"] == "57" and root["class_counts"] == {"bad": "20", "good": "37"}
    leaf = root["children"][0]["node"]
    assert (leaf["n"], leaf["errors"], leaf["split"]) == ("855/56", "127/56", None)
    assert leaf["pruned"]["method"] == "pessimistic" and leaf["pruned"]["action"] == "leaf"
    assert leaf["pruned"]["estimated_errors"]["leaf"] == pytest.approx(3.919, abs=1e-3)
    wage = next(c for c in root["candidates"] if c["feature"] == "wage-increase-first-year")
    assert wage["known_fraction"] == "56/57" and wage["unknown"]["class_counts"] == {"bad": "0", "good": "1"}
    assert wage["mdl"]["exact"] == "1/57 + 1/57*log2(7)"  # log2(14)/57
    # A nominal tree with integer counts stays format 1 (every infotree reads it).
    weather = json.loads(rendered(build_tree(load(DATA / "weather.csv")), fmt="json"))
    assert weather["format"] == 1 and weather["root"]["threshold"] is None
    dot_out = rendered(c45_tree("labor", "pessimistic"), fmt="dot")
    assert '[label="<= 2.5"]' in dot_out and '[label="> 2.5"]' in dot_out and "bad (15.27/2.27)" in dot_out


# -- the in-house "simple" table and the markups' lazy halves ------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from tabulate import tabulate  # noqa: E402

# Cells the shortcut takes (printable ASCII and the printers' symbols, spaces at either end)
# and some it must hand to tabulate (tabs, newlines, wide and combining characters, ANSI).
_cell_text = st.text(st.sampled_from(list(" ab-|*=.:/0123456789XY") + list(text._SYMBOLS)), max_size=12)
_odd_text = st.lists(st.sampled_from([" ", "a", "1", "\t", "\n", "é", "漢", "\u0301", "\x1b[31m", "\x01"]),
                     max_size=6).map("".join)


@st.composite
def string_tables(draw):
    """A Table of strings: empty headers and cells, leading and trailing spaces, sometimes odd characters."""
    k = draw(st.integers(1, 6))
    cell = st.one_of(_cell_text, _odd_text) if draw(st.booleans()) else _cell_text
    headers = tuple(draw(st.lists(cell, min_size=k, max_size=k)))
    rows = draw(st.lists(st.tuples(*[cell] * k), min_size=0, max_size=6))
    align = tuple(draw(st.lists(st.sampled_from("lr"), min_size=k, max_size=k)))
    return cells.Table("t", headers, rows, align)


@settings(deadline=None, max_examples=400)
@given(string_tables())
def test_simple_tables_equal_tabulate(t):
    """The in-house "simple" table is tabulate's, byte for byte; what it does not take goes to tabulate."""
    expected = tabulate(t.rows, t.headers, tablefmt="simple", disable_numparse=True,
                        colalign=[{"l": "left", "r": "right"}[a] for a in t.align])
    assert text._table(t, "simple") == expected
    mine = text._simple(t)
    assert mine is None or mine == expected


def test_simple_table_takes_the_printers_tables():
    """Every table of a weather derivation is drawn without tabulate (and equals tabulate's drawing)."""
    tree = build_tree(load(DATA / "weather.csv"))
    v = cells.node_view(tree, tree.root, digits=4, markup=cells.TEXT)
    for t in (v.branches, v.summary, v.exact):
        assert text._simple(t) == tabulate(t.rows, t.headers, tablefmt="simple", disable_numparse=True,
                                           colalign=[{"l": "left", "r": "right"}[a] for a in t.align])


def test_markups_render_only_the_half_they_show():
    """value() and form() leave out the half a markup does not read; a new markup gets both halves."""
    from infotree.exact import Exact
    from infotree.forms import entropy_form

    h = Exact.log2(3)
    assert cells.TEXT.value(h) == ("log2(3)", "")
    assert cells.MARKDOWN.value(h) == ("log2(3)", "")
    assert cells.LATEX.value(h) == ("", "\\log_2 3")
    assert cells.LATEX.form(entropy_form, [1, 1]) == ("", entropy_form([1, 1], latex=True))

    class Both(cells.Markup):
        def code(self, text, latex):
            return f"{text} | {latex}"

    class Named(cells.Markup):
        uses_text, uses_latex = False, True

        def code(self, text, latex):
            return latex

    assert Both().value(h) == ("log2(3)", "\\log_2 3")
    assert Both().code(*Both().value(h)) == "log2(3) | \\log_2 3"
    assert Named().value(h) == ("", "\\log_2 3")


@pytest.mark.parametrize("name", ["weather.csv", "contact-lenses.csv", "vote.arff"])
def test_equal_gain_groups_match_the_node(name):
    """The printers' groups of exactly equal gain are the node's own (same order), on every node."""
    data = load(DATA / name, on_missing="value") if name.endswith("arff") else load(DATA / name)
    tree = build_tree(data)
    for node in tree.nodes():
        if node.candidates():
            assert cells.equal_gain_groups(node) == node.equal_gain_groups()
