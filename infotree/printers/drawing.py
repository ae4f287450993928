"""Drawings of a tree: SVG and PNG through matplotlib (``pip install 'infotree[plot]'``).

matplotlib, as scikit-learn's ``plot_tree``: a well-kept library that writes both
SVG and PNG from one drawing without a display (the Agg backend), and measures
text with its own bundled DejaVu fonts, so boxes fit their text on every machine.
Graphviz would need a separate program (``--format dot`` already serves it).

Each node is a box: an internal node shows its feature in bold, ``n`` and the
class counts, and the measure that chose it (IG under ``gain``, the gain ratio
under the gain-ratio criteria; ``exact=True`` adds its exact value); a leaf shows
its class in bold, ``n`` and the class counts, with rounded corners and a grey
fill; an empty leaf is dashed.  Edges carry the branch value (``sunny``,
``<= 75``).  Everything is black, grey and white: it prints in black and white.

The layout is computed here, not by matplotlib: a subtree is as wide as its
children side by side (or its own box, when wider), and a node is centred over
its first and last child, so a tree of 50 leaves stays readable (the figure
grows with the tree; text is never shrunk).  SVG output is deterministic
(fixed hash salt, no date, text kept as text).
"""

from __future__ import annotations

import io
from typing import NamedTuple

from ..errors import InfotreeError
from ..exact import decimal_text
from ..data import number_text
from ..progress import steps
from .cells import weight_text

__all__ = ["Box", "Facts", "boxes", "count_lines", "edge_label", "facts", "figure", "layout", "node_lines", "svg_text",
           "write_png", "write_svg"]

FONT_SIZE = 9.0          # points
LINE = FONT_SIZE * 1.25  # baseline to baseline
PAD = 5.0                # inside a box
H_GAP = 14.0             # between neighbouring subtrees
V_GAP = 36.0             # between levels: the edges' bar and the branch values
BAR = 24.0               # the bar joining a node's edges, above its children
LABEL = 10.0             # the centre of a branch value, above its child
MARGIN = 8.0
CLASSES_PER_LINE = 3


class Box:
    """A node's box: its lines of text (the first one bold), and its place once laid out."""

    __slots__ = ("node", "lines", "width", "label_width", "height", "x", "y", "children", "edge", "dashed", "leaf")

    def __init__(self, node, lines, edge):
        self.node, self.lines, self.edge = node, lines, edge
        self.leaf, self.dashed = node.is_leaf, node.is_leaf and node.n == 0
        self.width = self.label_width = self.height = self.x = self.y = 0.0
        self.children = []


class Facts(NamedTuple):
    """What a node's box says, as strings: its title (feature, or class of a leaf), n, the class
    counts, and for a split the measure that chose it (name, decimal, exact value: an Exact, a
    Ratio, or a Fraction for CART's Gini and misclassification)."""

    title: str
    n: str
    counts: list
    measure: tuple | None
    empty: bool


def facts(tree, node, *, digits=4, weights="decimal") -> Facts:
    """The facts of a node's box (TikZ and the drawings show the same ones)."""
    if tree.criterion.regression:  # a regression box shows its mean and SSE, not class counts
        counts = [("mean", node.label_name), ("SSE", number_text(node.risk))]
    else:
        counts = [(k, weight_text(c, weights)) for k, c in zip(tree.classes, node.class_counts.tolist())]
    measure = None
    try:
        c = node.chosen  # None for a leaf, and for a loaded model's split (it keeps no candidates)
    except InfotreeError:  # ... which raises instead once its (empty) candidate list was asked for
        c = None
    if c is not None:
        if getattr(tree.criterion, "binary", False):  # CART: the decrease of the criterion's impurity
            name, value = f"Δ{tree.criterion.symbol}", c.decrease
        elif tree.criterion.ratio and c.gain_ratio is not None:
            name, value = "GR", c.gain_ratio
        else:
            name, value = "IG", c.gain
        measure = (name, decimal_text(value, digits), value)
    return Facts(node.label_name if node.is_leaf else node.split_feature, weight_text(node.n, weights), counts,
                 measure, node.is_leaf and node.n == 0)


def count_lines(counts) -> list[str]:
    """``class count`` items, three to a line, so a box of many classes stays narrow."""
    return [", ".join(counts[i:i + CLASSES_PER_LINE]) for i in range(0, len(counts), CLASSES_PER_LINE)]


def edge_label(node, v) -> str:
    """What the edge to branch ``v`` of a split says: the value, or ``<= 75`` / ``> 75``; below
    an M-of-N node, whose box names the test, ``at least 2`` / ``fewer than 2``."""
    op, value = node.branch_condition(v)
    if node.m_of_n:
        return f"{op} {node.test.m}"
    return value if op == "=" else f"{op} {value}"


def node_lines(tree, node, *, digits=4, exact=False, weights="decimal") -> list[str]:
    """The text of a node's box, first line bold: feature (or class), n, the counts, the measure."""
    f = facts(tree, node, digits=digits, weights=weights)
    if f.empty:
        return [f.title, "n = 0: empty branch"]
    lines = [f.title, f"n = {f.n}", *count_lines([f"{k}: {c}" for k, c in f.counts])]
    if f.measure is not None:
        name, decimal, value = f.measure
        lines.append(f"{name} = {decimal}")
        if exact:
            lines.append(f"= {value}")
    return lines


def boxes(tree, *, digits=4, exact=False, weights="decimal") -> Box:
    """The root's box, with every box below it; text only, not yet measured or placed."""
    root = Box(tree.root, node_lines(tree, tree.root, digits=digits, exact=exact, weights=weights), None)
    stack = [root]
    while stack:
        box = stack.pop()
        node = box.node
        for v, child in enumerate(node.children):
            b = Box(child, node_lines(tree, child, digits=digits, exact=exact, weights=weights), edge_label(node, v))
            box.children.append(b)
            stack.append(b)
    return root


def _walk(root):
    stack = [root]
    while stack:
        b = stack.pop()
        yield b
        stack.extend(reversed(b.children))


def layout(root: Box, measure) -> tuple[float, float]:
    """Size every box with ``measure(text, bold) -> width`` and place it; return the drawing's size.

    ``x`` is a box's centre, ``y`` its top; y grows downwards.
    """
    order = list(_walk(root))
    depth = {id(root): 0}
    for b in order:
        b.width = max(measure(t, i == 0) for i, t in enumerate(b.lines)) + 2 * PAD
        b.label_width = measure(b.edge, False) + 4 if b.edge is not None else 0.0
        b.height = len(b.lines) * LINE + 2 * PAD - (LINE - FONT_SIZE)
        for c in b.children:
            depth[id(c)] = depth[id(b)] + 1
    levels = max(depth.values()) + 1
    level_height = [0.0] * levels
    for b in order:
        level_height[depth[id(b)]] = max(level_height[depth[id(b)]], b.height)
    tops = [MARGIN]
    for h in level_height[:-1]:
        tops.append(tops[-1] + h + V_GAP)
    # Subtree widths bottom-up (reverse pre-order visits children before parents).
    span = {}
    for b in reversed(order):
        inner = sum(span[id(c)] for c in b.children) + H_GAP * (len(b.children) - 1)
        span[id(b)] = max(b.width, b.label_width, inner)
    # Place top-down: children side by side, centred in their parent's span.
    left = {id(root): MARGIN}
    for b in order:
        b.y = tops[depth[id(b)]]
        x0 = left[id(b)]
        if b.children:
            inner = sum(span[id(c)] for c in b.children) + H_GAP * (len(b.children) - 1)
            x = x0 + (span[id(b)] - inner) / 2
            for c in b.children:
                left[id(c)] = x
                x += span[id(c)] + H_GAP
        else:
            b.x = x0 + span[id(b)] / 2
    for b in reversed(order):
        if b.children:
            # over its children, but inside its own span: a box wider than its children's
            # extent (an M-of-N test's) would otherwise stick out of the drawing
            x0, half = left[id(b)], b.width / 2
            b.x = min(max((b.children[0].x + b.children[-1].x) / 2, x0 + half), x0 + span[id(b)] - half)
    return span[id(root)] + 2 * MARGIN, tops[-1] + level_height[-1] + MARGIN


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise InfotreeError("drawing a tree (svg, png) needs matplotlib: pip install 'infotree[plot]'") from None
    return matplotlib


def figure(tree, *, digits=4, exact=False, weights="decimal"):
    """A matplotlib Figure of the tree, sized so that 1 unit is 1 point (text at 9 pt)."""
    mpl = _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import FancyBboxPatch

    with mpl.rc_context({"font.family": "DejaVu Sans", "font.size": FONT_SIZE, "svg.fonttype": "none",
                         "svg.hashsalt": "infotree", "path.simplify": False}):
        regular, bold = FontProperties(size=FONT_SIZE), FontProperties(size=FONT_SIZE, weight="bold")
        probe = Figure(dpi=72)
        renderer = FigureCanvasAgg(probe).get_renderer()

        def measure(text, is_bold):
            return renderer.get_text_width_height_descent(text, bold if is_bold else regular, ismath=False)[0]

        root = boxes(tree, digits=digits, exact=exact, weights=weights)
        width, height = layout(root, measure)
        fig = Figure(figsize=(width / 72, height / 72), dpi=72)
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(height, 0)
        ax.set_axis_off()
        edge = dict(color="black", linewidth=0.8, solid_capstyle="butt")
        for b in steps(_walk(root), "drawing: box", total=len(tree)):
            style = "round,pad=0,rounding_size=6" if b.leaf else "square,pad=0"
            ax.add_patch(FancyBboxPatch((b.x - b.width / 2, b.y), b.width, b.height, boxstyle=style,
                                        facecolor="0.92" if b.leaf else "white", edgecolor="black",
                                        linewidth=0.8, linestyle="--" if b.dashed else "-"))
            for i, text in enumerate(b.lines):
                ax.text(b.x, b.y + PAD + i * LINE, text, ha="center", va="top", fontproperties=bold if i == 0 else regular,
                        parse_math=False)
            if not b.children:
                continue
            # Elbow edges (down, along a bar, down to each child) with the branch value just above
            # the child: legible however many branches a node has.
            bar = b.children[0].y - BAR
            xs = [c.x for c in b.children]
            ax.plot([b.x, b.x], [b.y + b.height, bar], **edge)
            ax.plot([min(xs), max(xs)], [bar, bar], **edge)
            for c in b.children:
                ax.plot([c.x, c.x], [bar, c.y], **edge)
                ax.text(c.x, c.y - LABEL, c.edge, ha="center", va="center", fontproperties=regular,
                        parse_math=False, bbox=dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none"))
    return fig


def svg_text(tree, **opts) -> str:
    """The SVG document as a string (the same bytes on every run)."""
    buf = io.StringIO()
    write_svg(tree, buf, **opts)
    return buf.getvalue()


def write_svg(tree, out, *, digits=4, exact=False, weights="decimal") -> None:
    fig = figure(tree, digits=digits, exact=exact, weights=weights)
    import matplotlib as mpl

    buf = io.BytesIO()
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "infotree"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "infotree"})
    out.write(buf.getvalue().decode("utf-8"))


def write_png(tree, out, *, digits=4, exact=False, weights="decimal", dpi=None) -> None:
    """PNG bytes to ``out`` (a binary file, or a text file's ``.buffer``); 150 dpi, less for a huge tree."""
    fig = figure(tree, digits=digits, exact=exact, weights=weights)
    if dpi is None:
        # Past 12,000 pixels a viewer struggles; a wide tree gets fewer dots per inch instead.
        dpi = max(50, min(150, int(12000 / fig.get_figwidth())))
    target = getattr(out, "buffer", out)
    if target is not out:
        out.flush()
    try:
        fig.savefig(target, format="png", dpi=dpi, metadata={"Software": "infotree"})
    except TypeError:
        raise InfotreeError("PNG is binary: write it to a file (--output tree.png) or a binary stream") from None
