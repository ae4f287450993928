"""Drawings (printers/drawing.py): SVG and PNG through matplotlib, and the layout they share."""

import io
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from infotree import build_tree, from_records, load
from infotree.errors import InfotreeError
from infotree.printers import drawing, render

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.csv"
SVG = "{http://www.w3.org/2000/svg}"


def fixed_width(text, bold):
    """A stand-in for matplotlib's text measure: 6 points a character, 7 in bold."""
    return len(text) * (7 if bold else 6)


def test_layout_without_matplotlib():
    """The layout alone: leaves side by side in pre-order, never overlapping; a parent centred over its
    first and last child; levels below each other; the drawing as big as what it holds."""
    tree = build_tree(load(ROOT / "worked_examples" / "contact_lenses" / "data.csv"))
    root = drawing.boxes(tree)
    width, height = drawing.layout(root, fixed_width)
    boxes = list(drawing._walk(root))
    assert [b.node for b in boxes] == list(tree.nodes())
    leaves = [b for b in boxes if not b.children]
    for a, b in zip(leaves, leaves[1:]):
        assert a.x + max(a.width, a.label_width) / 2 + drawing.H_GAP <= b.x - max(b.width, b.label_width) / 2 + 1e-9
    for b in boxes:
        assert b.width == max(fixed_width(t, i == 0) for i, t in enumerate(b.lines)) + 2 * drawing.PAD
        if b.children:
            assert b.x == (b.children[0].x + b.children[-1].x) / 2
            assert all(c.y >= b.y + b.height + drawing.V_GAP for c in b.children)
        assert drawing.MARGIN <= b.x - b.width / 2 and b.x + b.width / 2 <= width - drawing.MARGIN + 1e-9
        assert b.y + b.height <= height - drawing.MARGIN + 1e-9


def test_box_text():
    """A split says its feature, n, the counts and the measure that chose it (exact on request);
    a leaf its class, n and counts; an empty leaf that it is empty; C4.5 weights to two places or exact."""
    tree = build_tree(load(WEATHER))
    assert drawing.node_lines(tree, tree.root) == ["outlook", "n = 14", "no: 5, yes: 9", "IG = 0.2467"]
    assert drawing.node_lines(tree, tree.root, exact=True)[-1] == "= 9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5)"
    assert drawing.node_lines(tree, tree.root.children[1]) == ["yes", "n = 4", "no: 0, yes: 4"]
    c45 = build_tree(load(WEATHER), criterion="gain_ratio")
    assert drawing.node_lines(c45, c45.root)[-1] == "GR = 0.1564"
    cart = build_tree(load(WEATHER), criterion="gini")
    assert drawing.node_lines(cart, cart.root, exact=True)[-2:] == ["ΔGini = 0.1020", "= 5/49"]
    small = build_tree(from_records([
        {"a": "z", "b": "p", "y": "1"}, {"a": "z", "b": "q", "y": "1"}, {"a": "z", "b": "q", "y": "1"},
        {"a": "x", "b": "p", "y": "1"}, {"a": "x", "b": "r", "y": "0"}, {"a": "x", "b": "p", "y": "0"}]))
    empty = next(n for n in small.nodes() if n.is_leaf and n.n == 0)
    assert drawing.node_lines(small, empty) == [empty.label_name, "n = 0: empty branch"]
    missing = build_tree(load(ROOT / "worked_examples" / "c45_missing_and_numeric" / "data.csv",
                              on_missing="keep", numeric="auto"), criterion="gain_ratio")
    sunny = missing.root.children[0]
    assert drawing.node_lines(missing, sunny)[1:3] == ["n = 5.38", "no: 3, yes: 2.38"]
    assert drawing.node_lines(missing, sunny, weights="exact")[1:3] == ["n = 70/13", "no: 3, yes: 31/13"]


def test_loaded_model(tmp_path):
    """A model read back from JSON keeps no candidates: its boxes show no measure, before and after
    anything asked for its (empty) derivations."""
    from infotree import load_model
    from infotree.printers.cells import select_nodes

    path = tmp_path / "m.json"
    with open(path, "w", encoding="utf-8") as f:
        render(build_tree(load(WEATHER)), f, fmt="json")
    model = load_model(path)
    assert drawing.node_lines(model, model.root) == ["outlook", "n = 14", "no: 5, yes: 9"]
    list(select_nodes(model, "all"))  # asks every node for its candidates
    assert drawing.node_lines(model, model.root) == ["outlook", "n = 14", "no: 5, yes: 9"]


def test_many_classes_wrap():
    """Class counts wrap three to a line, so a box of many classes stays narrow."""
    rows = [{"a": str(i % 2), "y": f"c{i}"} for i in range(7)]
    tree = build_tree(from_records(rows))
    assert drawing.node_lines(tree, tree.root)[2:5] == ["c0: 1, c1: 1, c2: 1", "c3: 1, c4: 1, c5: 1", "c6: 1"]


def test_missing_matplotlib_is_one_line(monkeypatch, capsys):
    """Without matplotlib, --format svg says which extra to install, in one line, exit 1."""
    from infotree.cli import main

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["tree", str(WEATHER), "--format", "svg"]) == 1
    assert capsys.readouterr().err == ("infotree: error: drawing a tree (svg, png) needs matplotlib: "
                                       "pip install 'infotree[plot]'\n")


mpl = pytest.importorskip("matplotlib")


def svg_of(tree, **opts):
    out = io.StringIO()
    render(tree, out, fmt="svg", **opts)
    return out.getvalue()


def texts(svg):
    return [t.text for t in ET.fromstring(svg).iter(SVG + "text")]


def test_svg_says_what_the_boxes_say(worked_trees):
    """Every worked example: the SVG's text is every box's lines and every branch value, nothing
    else, and there is one box per node; the same bytes on every run."""
    for key, (tree, _) in worked_trees.items():
        svg = svg_of(tree)
        root = drawing.boxes(tree)
        expected = []
        for b in drawing._walk(root):
            expected += b.lines
            expected += [c.edge for c in b.children]
        assert sorted(texts(svg)) == sorted(expected), key
        assert svg_of(tree) == svg, key
        assert "<dc:date>" not in svg and "Matplotlib v" not in svg


def test_svg_golden():
    """The weather tree's drawing has the committed picture's texts, in its order, and as many
    shapes.  Positions are not compared: they follow matplotlib's text metrics, which move by
    points between versions (3.7.5 puts the root 6 pt left of where 3.11.2 does)."""
    golden = ET.fromstring((ROOT / "docs" / "weather_tree.svg").read_text(encoding="utf-8"))
    svg = ET.fromstring(svg_of(build_tree(load(WEATHER))))
    assert [t.text for t in svg.iter(SVG + "text")] == [t.text for t in golden.iter(SVG + "text")]
    assert len(list(svg.iter(SVG + "path"))) == len(list(golden.iter(SVG + "path")))


def test_png(tmp_path):
    """--format png writes a PNG as large as the drawing at 150 dpi; to a terminal it refuses."""
    from infotree.cli import main

    out = tmp_path / "t.png"
    assert main(["tree", str(WEATHER), "--format", "png", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    fig = drawing.figure(build_tree(load(WEATHER)))
    assert abs(w - fig.get_figwidth() * 150) <= 1 and abs(h - fig.get_figheight() * 150) <= 1
    with pytest.raises(InfotreeError, match="PNG is binary"):
        render(build_tree(load(WEATHER)), io.StringIO(), fmt="png")


def test_png_not_to_a_terminal(monkeypatch, capsys):
    """PNG bytes are not written to a terminal: one line says to use --output."""
    from infotree.cli import main

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["tree", str(WEATHER), "--format", "png"]) == 1
    assert capsys.readouterr().err == "infotree: error: PNG is binary; write it to a file: --output tree.png\n"


def test_fifty_leaves_stay_legible():
    """The 50-leaf worked example: text stays 9 pt (the figure grows instead), and the PNG's dpi
    keeps it under 12,000 pixels wide."""
    tree = build_tree(load(ROOT / "worked_examples" / "gain_ratio_vs_id" / "data.csv"), criterion="gain_ratio_plain")
    assert sum(1 for _ in tree.leaves()) == 50
    fig = drawing.figure(tree)
    assert all(t.get_fontsize() == drawing.FONT_SIZE for t in fig.axes[0].texts)
    buf = io.BytesIO()
    drawing.write_png(tree, buf)
    w, _ = struct.unpack(">II", buf.getvalue()[16:24])
    assert 8000 < w <= 12000


def test_names_are_text_not_mathtext():
    """Dollar signs and underscores in names print as they are (matplotlib would read $...$ as math)."""
    rows = [{"cost $": "a_1", "y": "$x$"}, {"cost $": "b^2", "y": "k"}]
    svg = svg_of(build_tree(from_records(rows)))
    assert {"cost $", "$x$", "a_1", "b^2"} <= set(texts(svg))
