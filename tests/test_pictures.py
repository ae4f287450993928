"""Pictures of real trees (issue 38): display depth, hidden empty branches, class colours and shares
in every drawn format; PNG and SVG size limits; a row's path; the plots; one number formatter."""

import io
import re
import struct
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from infotree import build_tree, from_records, load
from infotree.cli import main
from infotree.errors import InfotreeError
from infotree.printers import drawing, render
from infotree.printers.numbers import number, ratio_text

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.csv"
FIFTY = ROOT / "worked_examples" / "gain_ratio_vs_id" / "data.csv"
SVG = "{http://www.w3.org/2000/svg}"


def fixed_width(text, bold):
    return len(text) * (7 if bold else 6)


def depth_of(node):
    d = 0
    while node.parent is not None:
        node, d = node.parent, d + 1
    return d


def leaves_under(node):
    return 1 if not node.children else sum(leaves_under(c) for c in node.children)


def wide(n):
    """A tree whose root splits into ``n`` leaves: an id-like column (n values), classes alternating."""
    return build_tree(from_records([{"id": f"v{i}", "y": "ab"[i % 2]} for i in range(n)]))


def test_display_depth_boxes_and_summaries():
    """max_depth N draws exactly the nodes of depth <= N; a split at depth N is a summary box saying
    how many leaves it stands for (counted here from the tree) and its class counts."""
    tree = build_tree(load(FIFTY), criterion="gain_ratio_plain")
    for n in (0, 1, 2):
        root = drawing.boxes(tree, max_depth=n)
        shown = list(drawing._walk(root))
        assert [b.node for b in shown] == [x for x in tree.nodes() if depth_of(x) <= n]
        assert drawing.count_boxes(tree, max_depth=n) == len(shown)
        for b in shown:
            cut = depth_of(b.node) == n and b.node.children
            assert (b.kind == "summary") == bool(cut)
            if cut:
                k = leaves_under(b.node)
                counts = ", ".join(f"{c}: {v}" for c, v in zip(tree.classes, b.node.class_counts.tolist()))
                assert b.lines[:2] == [f"{b.node.split_feature} …", f"{k} leaves not drawn"]
                assert counts in " ".join(b.lines)


def test_hide_empty():
    """hide_empty leaves out exactly the leaves no row reached, in every drawn format."""
    tree = build_tree(from_records([
        {"a": "z", "b": "p", "y": "1"}, {"a": "z", "b": "q", "y": "1"}, {"a": "z", "b": "q", "y": "1"},
        {"a": "x", "b": "p", "y": "1"}, {"a": "x", "b": "r", "y": "0"}, {"a": "x", "b": "p", "y": "0"}]))
    empty = sum(1 for x in tree.nodes() if x.is_leaf and x.n == 0)
    assert empty > 0
    shown = list(drawing._walk(drawing.boxes(tree, hide_empty=True)))
    assert len(shown) == len(tree) - empty and all(b.node.n for b in shown)
    out = io.StringIO()
    render(tree, out, fmt="dot", hide_empty=True)
    assert len(re.findall(r"^  n\d+ \[", out.getvalue(), re.M)) == len(tree) - empty
    assert "dashed" not in out.getvalue()
    out = io.StringIO()
    render(tree, out, fmt="tikz", hide_empty=True)
    assert "empty" not in out.getvalue().split("\\begin{forest}")[1].split("branch/.style")[1]


def test_depth_in_dot_and_tikz():
    """DOT and TikZ draw the same nodes as the SVG at a display depth, the cut ones dotted."""
    tree = build_tree(load(FIFTY), criterion="gain_ratio_plain")
    out = io.StringIO()
    render(tree, out, fmt="dot", max_display_depth=1)
    assert len(re.findall(r"^  n\d+ \[", out.getvalue(), re.M)) == drawing.count_boxes(tree, max_depth=1)
    assert out.getvalue().count("style=dotted") == 1  # astigmatism, the one split at depth 1
    out = io.StringIO()
    render(tree, out, fmt="tikz", max_display_depth=1)
    assert out.getvalue().count(", summary") == 1 and r"\textbf{astigmatism} \dots" in out.getvalue()


def test_colour_by_class():
    """color='class': a pure node takes its class's palette colour at full strength (0.9), a node split
    evenly between two classes 0.15 of it; the key lists the classes; black and white stays the default."""
    tree = build_tree(load(WEATHER))
    overcast = tree.root.children[1]  # yes: 4, no: 0
    yes = drawing.PALETTE[tree.classes.index("yes")]
    expected = "#" + "".join(f"{round(255 - (255 - int(yes[i:i + 2], 16)) * 0.9):02x}" for i in (1, 3, 5))
    assert drawing.fill_of(tree, overcast) == expected
    even = build_tree(from_records([{"a": "x", "y": "p"}, {"a": "x", "y": "q"}]))
    p = drawing.PALETTE[0]
    assert drawing.fill_of(even, even.root) == "#" + "".join(
        f"{round(255 - (255 - int(p[i:i + 2], 16)) * 0.15):02x}" for i in (1, 3, 5))
    assert drawing.legend(tree, drawing.look(color="class")) == [("no", drawing.PALETTE[0]), ("yes", drawing.PALETTE[1])]
    assert all(b.fill is None for b in drawing._walk(drawing.boxes(tree)))
    pytest.importorskip("matplotlib")
    svg = io.StringIO()
    render(tree, svg, fmt="svg", color="class")
    assert expected in svg.getvalue().lower()
    texts = [t.text for t in ET.fromstring(svg.getvalue()).iter(SVG + "text")]
    assert texts[:2] == ["no", "yes"]  # the key, above the root


def test_show_percent_and_proportions():
    """show='percent' adds the node's share of all rows (rounded), 'proportions' the class shares."""
    tree = build_tree(load(WEATHER))
    assert drawing.node_lines(tree, tree.root, show="percent")[1] == "n = 14 (100%)"
    assert drawing.node_lines(tree, tree.root.children[1], show="percent")[1] == "n = 4 (29%)"  # 4/14 = 28.6%
    assert drawing.node_lines(tree, tree.root, show="proportions")[2] == "no: 0.36, yes: 0.64"  # 5/14, 9/14


def test_bad_picture_options(tmp_path, capsys):
    """Unknown values and picture options on a format that draws nothing are refused in one line."""
    tree = build_tree(load(WEATHER))
    with pytest.raises(InfotreeError, match="unknown colour scheme 'rainbow'; allowed: none, class"):
        render(tree, io.StringIO(), fmt="dot", color="rainbow")
    with pytest.raises(InfotreeError, match="max_display_depth -1 is not allowed"):
        render(tree, io.StringIO(), fmt="dot", max_display_depth=-1)
    with pytest.raises(InfotreeError, match="shape drawings"):
        render(tree, io.StringIO(), fmt="text", hide_empty=True)
    assert main(["tree", str(WEATHER), "--color", "class"]) == 1
    assert capsys.readouterr().err == ("infotree: error: --max-display-depth, --hide-empty, --color and --show shape "
                                       "drawings: --format dot, tikz, svg, png or html\n")


def test_numbers():
    """One formatter: short exact decimals as they are, others rounded to the same digits; a ratio as
    counted, reduced when it reduces, '=' when exact and '≈' when rounded; never 'x = x'."""
    assert number(Fraction(370, 3)) == "123.3333" and number(Fraction(17010)) == "17010"
    assert number(Fraction(1, 8)) == "0.125" and number(Fraction(1, 8), 2) == "0.13"
    assert ratio_text(47, 57) == "47/57 ≈ 0.8246"
    assert ratio_text(10, 14) == "10/14 = 5/7 ≈ 0.7143"
    assert ratio_text(7, 14) == "7/14 = 1/2 = 0.5"
    assert ratio_text(14, 14) == "14/14 = 1"


def test_regression_box_digits():
    """A regression box's mean and SSE have the digits of the decrease beside them (not 370/3)."""
    tree = build_tree(load(ROOT / "worked_examples" / "regression_sse" / "data.csv", numeric="auto"),
                      criterion="squared_error")
    lines = [drawing.node_lines(tree, x) for x in tree.nodes()]
    assert lines[0][2:] == ["mean: 187, SSE: 33610", "ΔSSE = 17010"]
    assert ["area", "n = 3", "mean: 123.3333, SSE: 1266.6667", "ΔSSE = 1066.6667"] in lines
    cut = build_tree(load(ROOT / "worked_examples" / "regression_sse" / "data.csv", numeric="auto"),
                     criterion="squared_error", max_depth=2, min_samples_split=2)
    leaf = next(x for x in cut.leaves() if x.mean == Fraction(370, 3))
    assert drawing.node_lines(cut, leaf)[0] == number(leaf.mean) and "/" not in drawing.node_lines(cut, leaf)[0]


def test_evaluate_accuracy_line(capsys):
    """evaluate prints the accuracy as counted and its decimal, never 'k/n = k/n'."""
    assert main(["evaluate", str(WEATHER)]) == 0
    out = capsys.readouterr().out
    assert "accuracy = 10/14 = 5/7 ≈ 0.7143\n" in out
    assert not re.search(r"(\d+/\d+) = \1", out)


mpl = pytest.importorskip("matplotlib")


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_png_never_past_12000_pixels():
    """A 120-leaf fan-out is drawn at the dpi that keeps it under 12,000 pixels; a 1,000-leaf one
    (43,990 pixels at the old 50-dpi floor) is refused, naming its size and the flags that shrink it,
    and drawn with --max-display-depth 0."""
    buf = io.BytesIO()
    drawing.write_png(wide(120), buf)
    w, h = png_size(buf.getvalue())
    assert 8000 < w <= 12000 and h <= 12000
    big = wide(1000)
    with pytest.raises(InfotreeError) as e:
        drawing.write_png(big, io.BytesIO())
    assert re.fullmatch(r"the drawing is [\d,]+ x \d+ inches, a PNG of [\d,]+ x \d+ pixels at 50 dpi; a PNG stays under "
                        r"12,000 pixels a side: draw the top levels with --max-display-depth 0, leave out empty "
                        r"branches with --hide-empty, or use --format svg or html \(zoomable\)", str(e.value))
    buf = io.BytesIO()
    drawing.write_png(big, buf, max_depth=0)
    assert max(png_size(buf.getvalue())) <= 12000


def test_svg_box_limit():
    """Past 5,000 boxes a drawing is refused before any is made, naming the count and a depth that fits."""
    tree = wide(drawing.MAX_BOXES)  # the root and 5,000 leaves
    with pytest.raises(InfotreeError) as e:
        drawing.svg_text(tree)
    message = ("the drawing would have 5,001 boxes; svg, png and tikz draw at most 5,000: draw the top levels "
               "with --max-display-depth 0 (1 box), leave out empty branches with --hide-empty, or "
               "use --format html (zoomable, subtrees open on click)")
    assert str(e.value) == message
    assert "<svg" in drawing.svg_text(tree, max_depth=0)
    with pytest.raises(InfotreeError) as e:
        render(tree, io.StringIO(), fmt="tikz")
    assert str(e.value) == message


def test_plot_path(tmp_path):
    """Tree.plot_path: the boxes on the row's path say each test's outcome and the prediction; only
    they are drawn thick; the CLI's predict --explain draws the same, or prints the path as text."""
    tree = build_tree(load(WEATHER))
    row = {"outlook": "sunny", "temperature": "hot", "humidity": "normal", "windy": "TRUE"}
    svg = tree.plot_path(row).svg
    texts = [t.text for t in ET.fromstring(svg).iter(SVG + "text")]
    assert {"row: outlook = sunny", "row: humidity = normal", "row: predict yes"} <= set(texts)
    assert sum(t.startswith("row: ") for t in texts) == 3
    assert len(re.findall(r"stroke-width: 2\.2", svg)) == 3 + 2 + 2 + 2  # boxes, edges down, bar parts, edges in
    data = tmp_path / "one.csv"
    data.write_text("outlook,temperature,humidity,windy\nsunny,hot,normal,TRUE\n", encoding="utf-8")
    out = tmp_path / "p.svg"
    assert main(["predict", "--train", str(WEATHER), str(data), "--explain", "--format", "svg", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == svg
    with pytest.raises(InfotreeError, match="svg or png"):
        tree.plot_path(row, fmt="tikz")


def test_predict_explain_cli(tmp_path, capsys):
    """predict --explain prints each row's path; a drawing of a file of many rows asks for --row."""
    assert main(["predict", "--train", str(WEATHER), str(WEATHER), "--explain"]) == 0
    out = capsys.readouterr().out
    tree = build_tree(load(WEATHER))
    first = dict(zip(["outlook", "temperature", "humidity", "windy"], ["sunny", "hot", "high", "FALSE"]))
    assert out.startswith("row 1:\n" + "".join(f"  {x}\n" for x in tree.explain(first)))
    assert out.count("row ") == 14
    assert main(["predict", "--train", str(WEATHER), str(WEATHER), "--explain", "--format", "svg"]) == 1
    assert "has 14 rows; a drawing shows one row's path: give --row K (1 to 14)" in capsys.readouterr().err
    png = tmp_path / "p.png"
    assert main(["predict", "--train", str(WEATHER), str(WEATHER), "--explain", "--format", "png", "--row", "3",
                 "-o", str(png)]) == 0
    png_size(png.read_bytes())


def test_cp_plot(tmp_path, capsys):
    """cptable --plot draws rpart's plotcp (one error bar per row of the table); without folds it says
    to give them; the file's name says its type."""
    kyph = ROOT / "tests" / "data" / "kyphosis.csv"
    out = tmp_path / "cp.svg"
    assert main(["cptable", str(kyph), "--target", "Kyphosis", "--cp", "0", "--folds", "10", "--plot", str(out)]) == 0
    text = capsys.readouterr().out
    rows = len(re.findall(r"^ *\d+ +\d\.\d{4} +\d+ ", text.split("exact values")[0], re.M))
    svg = out.read_text(encoding="utf-8")
    assert "1-SE line" in svg and "size of tree (leaves)" in svg
    assert svg.count("<g id=\"line2d_") > rows  # the ticks, the bars and the line
    assert main(["cptable", str(kyph), "--target", "Kyphosis", "--plot", str(tmp_path / "x.png")]) == 1
    assert "give --folds K" in capsys.readouterr().err
    assert main(["cptable", str(kyph), "--target", "Kyphosis", "--folds", "5", "--plot", str(tmp_path / "x.gif")]) == 1
    assert "name a .png, .svg or .pdf file" in capsys.readouterr().err


def test_importance_and_confusion_plots(tmp_path, capsys):
    """forest --plot: a panel per importance with every feature named; evaluate --plot: each
    configuration's confusion matrix with its counts written in; both deterministic."""
    out = tmp_path / "imp.svg"
    args = ["forest", str(WEATHER), "--trees", "8", "--plot", str(out)]
    assert main(args) == 0
    svg = out.read_text(encoding="utf-8")
    assert all(f in svg for f in ("outlook", "temperature", "humidity", "windy", "permutation importance"))
    assert main(args) == 0 and out.read_text(encoding="utf-8") == svg
    cm = tmp_path / "cm.svg"
    assert main(["evaluate", str(WEATHER), "--plot", str(cm)]) == 0
    texts = [t.text for t in ET.fromstring(cm.read_text(encoding="utf-8")).iter(SVG + "text")]
    assert sorted(t for t in texts if t and t.isdigit()) == ["2", "2", "3", "7"]
    reg = ROOT / "worked_examples" / "regression_sse" / "data.csv"
    capsys.readouterr()
    assert main(["evaluate", str(reg), "--numeric", "auto", "--criterion", "squared-error", "--folds", "3",
                 "--plot", str(tmp_path / "r.png")]) == 1
    assert "confusion matrix is a classifier's" in capsys.readouterr().err


def test_gallery_is_current():
    """docs/gallery.md and its pictures are what docs/make_gallery.py draws now (texts compared)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_gallery", ROOT / "docs" / "make_gallery.py")
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    assert gallery.main(["--check"]) == 0
    page = (ROOT / "docs" / "gallery.md").read_text(encoding="utf-8")
    for name, _, _ in gallery.PICTURES:
        assert f"(gallery/{name})" in page and (ROOT / "docs" / "gallery" / name).exists()


def test_report_limits_and_depth():
    """A report derives at most 5,000 nodes (connect-4's whole tree made 813 MB in 420 s): past that it
    is refused with a display depth that fits; with a depth it derives and carries only the drawn
    nodes, and `tree --format html` is the same report."""
    from infotree.printers.html import write_report

    with pytest.raises(InfotreeError) as e:
        write_report(wide(5000), io.StringIO())
    assert str(e.value) == ("the report would hold 5,001 nodes' derivations; a report holds at most 5,000: give "
                            "--max-display-depth 0 (1 node; deeper subtrees shown as one box each), or --hide-empty")
    tree = build_tree(load(FIFTY), criterion="gain_ratio_plain")
    page = io.StringIO()
    write_report(tree, page, max_depth=1)
    text = page.getvalue()
    drawn = [i for i, x in enumerate(tree.nodes()) if depth_of(x) <= 1 and x.children]
    assert re.findall(r'<section class="infotree-node" id="node-(\d+)"', text) == [str(i) for i in drawn]
    data = re.search(r'<script type="application/json" id="infotree-data">(.*?)</script>', text).group(1)
    import json

    assert [n["k"] for n in json.loads(data)["nodes"]] == ["split", "leaf", "summary"]
    same = io.StringIO()
    render(tree, same, fmt="html", max_display_depth=1)
    assert same.getvalue() == text


def test_report_command_takes_the_drawing_options(tmp_path):
    """infotree report --max-display-depth --color: the page's data has the cut tree and the key."""
    import json

    out = tmp_path / "r.html"
    assert main(["report", str(FIFTY), "--criterion", "gain-ratio-plain", "--max-display-depth", "1", "--color",
                 "class", "-o", str(out)]) == 0
    data = json.loads(re.search(r'id="infotree-data">(.*?)</script>', out.read_text(encoding="utf-8")).group(1))
    assert [n["k"] for n in data["nodes"]] == ["split", "leaf", "summary"]
    assert [k for k, _ in data["legend"]] == ["none", "soft", "hard"]
    assert all(n["f"].startswith("#") for n in data["nodes"])


def test_report_data_cannot_close_its_script():
    """A name holding '</script>' or '<!--' stays inside the report's JSON data (escaped as \\u003c)."""
    from infotree.printers.html import write_report

    evil = "</script><script>alert(1)</script><!--"
    tree = build_tree(from_records([{evil: "a", "y": evil}, {evil: "b", "y": "n"}]))
    page = io.StringIO()
    write_report(tree, page)
    text = page.getvalue()
    data = re.search(r'<script type="application/json" id="infotree-data">(.*?)</script>', text, re.S).group(1)
    assert "<" not in data and "\\u003c/script\\u003e" in data
    assert "<script>alert" not in text
