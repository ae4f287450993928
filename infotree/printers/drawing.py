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
from fractions import Fraction
from typing import NamedTuple

from ..errors import InfotreeError
from ..progress import steps
from .cells import weight_text
from .numbers import number

__all__ = ["Box", "Facts", "Shown", "boxes", "count_lines", "edge_label", "facts", "figure", "layout", "node_lines", "svg_text",
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
LEGEND = LINE + 2 * PAD  # the class legend's row, above the root

SHOWS = ("counts", "proportions", "percent")
COLORS = ("none", "class")
#: Okabe and Ito's colour-blind-safe palette (black left out: it is the text's colour)
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999")
#: the most boxes an SVG, PNG or TikZ drawing holds: connect-4's 41,236 took 211 s and 73 MB as SVG
#: (and a TikZ picture that wide passes TeX's largest dimension, 16,384 pt, long before)
MAX_BOXES = 5000
#: a PNG's longest side, in pixels, and the fewest dots per inch that keep 9 pt text legible
PNG_PIXELS = 12000
PNG_MIN_DPI = 50
PNG_DPI = 150


class Look(NamedTuple):
    """What a drawing shows, as the options of every drawn format say it.

    ``max_depth``: nodes deeper than this are not drawn (a node at the limit with a subtree
    below it becomes a summary box: its leaf and class counts); ``hide_empty``: branches that
    no training row reached are left out; ``color``: ``"none"`` (black, grey and white, for
    printing) or ``"class"`` (fill by the majority class, paler the less pure; a regression
    tree's by its mean); ``show``: class ``counts``, ``proportions``, or ``percent`` (counts and
    the node's share of all rows), as ``rpart.plot``'s ``extra``.
    """

    digits: int = 4
    exact: bool = False
    weights: str = "decimal"
    max_depth: int | None = None
    hide_empty: bool = False
    color: str = "none"
    show: str = "counts"


def look(**opts) -> Look:
    """A :class:`Look` from keyword options, each checked (one-line errors naming what is allowed)."""
    unknown = set(opts) - set(Look._fields)
    if unknown:
        raise InfotreeError(f"unknown drawing option {sorted(unknown)[0]!r}; allowed: {', '.join(Look._fields)}")
    lk = Look(**opts)
    d = lk.max_depth
    if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 0):
        raise InfotreeError(f"max_display_depth {d!r} is not allowed; give an integer 0 or more (0: the root only)")
    if lk.color not in COLORS:
        raise InfotreeError(f"unknown colour scheme {lk.color!r}; allowed: {', '.join(COLORS)}")
    if lk.show not in SHOWS:
        raise InfotreeError(f"unknown show {lk.show!r}; allowed: {', '.join(SHOWS)}")
    return lk


class Box:
    """A node's box: its lines of text (the first one bold), and its place once laid out.

    ``kind`` is ``split``, ``leaf``, ``empty`` or ``summary`` (a subtree below the depth
    limit); ``fill`` its colour (``None``: the black-and-white default); ``index`` the node's
    pre-order number in the tree; ``on_path`` marks the boxes of a highlighted row's path."""

    __slots__ = ("node", "lines", "width", "label_width", "height", "x", "y", "children", "edge", "kind", "fill",
                 "index", "on_path", "depth", "path_from")

    def __init__(self, node, lines, edge, kind="leaf", fill=None, index=0, depth=0):
        self.node, self.lines, self.edge, self.kind, self.fill = node, lines, edge, kind, fill
        self.index, self.depth, self.on_path, self.path_from = index, depth, False, len(lines)
        self.width = self.label_width = self.height = self.x = self.y = 0.0
        self.children = []

    @property
    def leaf(self) -> bool:
        return self.kind in ("leaf", "empty")

    @property
    def dashed(self) -> bool:
        return self.kind == "empty"


class Facts(NamedTuple):
    """What a node's box says, as strings: its title (feature, or class of a leaf), n, the class
    counts, and for a split the measure that chose it (name, decimal, exact value: an Exact, a
    Ratio, or a Fraction for CART's Gini and misclassification)."""

    title: str
    n: str
    counts: list
    measure: tuple | None
    empty: bool


def facts(tree, node, *, digits=4, weights="decimal", show="counts") -> Facts:
    """The facts of a node's box (TikZ, DOT and the drawings show the same ones)."""
    n = weight_text(node.n, weights)
    if show == "percent" and tree.root.n:
        n += f" ({number(100 * Fraction(node.n) / Fraction(tree.root.n), 0)}%)"
    if tree.criterion.regression:  # a regression box shows its mean and SSE, not class counts
        counts = [("mean", number(node.mean, digits) if node.n else "?"), ("SSE", number(node.risk, digits))]
    elif show == "proportions" and node.n:
        counts = [(k, number(p, 2)) for k, p in zip(tree.classes, tree.probabilities(node))]
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
        measure = (name, number(value, digits), value)
    title = node.label_name if not node.is_leaf else counts[0][1] if tree.criterion.regression and node.n \
        else node.label_name  # a regression leaf's prediction, with its box's digits
    return Facts(title if node.is_leaf else node.split_feature, n, counts, measure, node.is_leaf and node.n == 0)


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


def node_lines(tree, node, *, digits=4, exact=False, weights="decimal", show="counts") -> list[str]:
    """The text of a node's box, first line bold: feature (or class), n, the counts, the measure."""
    f = facts(tree, node, digits=digits, weights=weights, show=show)
    if f.empty:
        return [f.title, "n = 0: empty branch"]
    lines = [f.title, f"n = {f.n}", *count_lines([f"{k}: {c}" for k, c in f.counts])]
    if f.measure is not None:
        name, decimal, value = f.measure
        lines.append(f"{name} = {decimal}")
        if exact:
            lines.append(f"= {value}")
    return lines


def leaf_count(node) -> int:
    """The leaves of the subtree under ``node`` (a summary box says how many it stands for)."""
    return sum(1 for n in node.walk() if n.is_leaf)


def summary_lines(tree, node, *, weights="decimal", show="counts") -> list[str]:
    """A subtree below the depth limit: its split, its leaves, n and the class counts."""
    f = facts(tree, node, weights=weights, show=show)
    k = leaf_count(node)
    return [f"{f.title} …", f"{k} lea{'f' if k == 1 else 'ves'} not drawn", f"n = {f.n}",
            *count_lines([f"{k}: {c}" for k, c in f.counts])]


def shown_children(node, depth, lk: Look) -> list | None:
    """The branches (index, child) drawn under ``node`` at ``depth``; None when the depth limit
    cuts its subtree (the node is drawn as a summary)."""
    if not node.children:
        return []
    if lk.max_depth is not None and depth >= lk.max_depth:
        return None
    return [(v, c) for v, c in enumerate(node.children) if not (lk.hide_empty and c.is_leaf and c.n == 0)]


def _mix(color: str, share: float) -> str:
    """``color`` laid over white at ``share`` (0: white, 1: the colour)."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in rgb)


def fill_of(tree, node, scale=None) -> str:
    """A node's fill under ``color="class"``: its majority class's colour, paler the less pure
    (a uniform node is nearly white); a regression node's blue, darker the larger its mean
    within ``scale`` (the tree's least and greatest leaf means)."""
    if node.n == 0:
        return "#ffffff"
    if tree.criterion.regression:
        lo, hi = scale
        share = float((node.mean - lo) / (hi - lo)) if hi > lo else 1.0
        return _mix(PALETTE[4], 0.1 + 0.8 * share)
    counts = [float(c) for c in node.class_counts.tolist()]
    k = len(counts)
    p = max(counts) / sum(counts)
    purity = (p - 1 / k) / (1 - 1 / k) if k > 1 else 1.0
    return _mix(PALETTE[node.label % len(PALETTE)], 0.15 + 0.75 * purity)


def mean_scale(tree) -> tuple:
    means = [n.mean for n in tree.leaves() if n.n]
    return min(means), max(means)


def legend(tree, lk: Look) -> list[tuple[str, str]]:
    """(text, colour) entries of the colour key; empty in black and white."""
    if lk.color != "class":
        return []
    if tree.criterion.regression:
        lo, hi = mean_scale(tree)
        return [(f"mean {number(lo, lk.digits)}", _mix(PALETTE[4], 0.1)),
                (f"mean {number(hi, lk.digits)}", _mix(PALETTE[4], 0.9))]
    return [(k, PALETTE[i % len(PALETTE)]) for i, k in enumerate(tree.classes)]


def boxes(tree, *, path=None, **opts) -> Box:
    """The root's box, with every box drawn below it; text only, not yet measured or placed.

    ``path``: {pre-order index: extra lines} of the nodes a row passes (:func:`row_path`),
    whose boxes are marked and say the test's outcome."""
    lk = look(**opts)
    index = {id(n): i for i, n in enumerate(tree.nodes())}
    scale = mean_scale(tree) if lk.color == "class" and tree.criterion.regression else None

    def box(node, edge, depth):
        kids = shown_children(node, depth, lk)
        if kids is None:
            lines, kind = summary_lines(tree, node, weights=lk.weights, show=lk.show), "summary"
        else:
            lines = node_lines(tree, node, digits=lk.digits, exact=lk.exact, weights=lk.weights, show=lk.show)
            kind = "split" if node.children else "empty" if node.n == 0 else "leaf"
        b = Box(node, lines, edge, kind, fill_of(tree, node, scale) if lk.color == "class" else None,
                index[id(node)], depth)
        if path is not None and b.index in path:
            b.on_path, b.path_from = True, len(b.lines)
            b.lines = b.lines + list(path[b.index])
        return b, kids or []

    root, kids = box(tree.root, None, 0)
    stack = [(root, kids)]
    while stack:
        parent, kids = stack.pop()
        for v, child in kids:
            b, grand = box(child, edge_label(parent.node, v), parent.depth + 1)
            parent.children.append(b)
            stack.append((b, grand))
    return root


def shown_nodes(tree, **opts) -> set:
    """The ids of the nodes a drawing with these options shows (a summary box's node among them)."""
    lk = look(**opts)
    out, stack = set(), [(tree.root, 0)]
    while stack:
        node, depth = stack.pop()
        out.add(id(node))
        stack.extend((c, depth + 1) for _, c in shown_children(node, depth, lk) or [])
    return out


def count_boxes(tree, **opts) -> int:
    """How many boxes a drawing with these options has (without making them)."""
    lk = look(**opts)
    total, stack = 0, [(tree.root, 0)]
    while stack:
        node, depth = stack.pop()
        total += 1
        stack.extend((c, depth + 1) for _, c in shown_children(node, depth, lk) or [])
    return total


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
        b.width = max(measure(t, i == 0 or i >= b.path_from) for i, t in enumerate(b.lines)) + 2 * PAD
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


def size_check(tree, count, opts) -> None:
    """Refuse a drawing of more than MAX_BOXES boxes, naming its size and the flags that shrink it."""
    if count <= MAX_BOXES:
        return
    lk = look(**opts)
    depth, fits = 0, 1
    while True:  # the deepest display depth that fits (each count is one walk of the drawn part)
        n = count_boxes(tree, **dict(opts, max_depth=depth + 1))
        if n > MAX_BOXES or (lk.max_depth is not None and depth + 1 >= lk.max_depth):
            break
        depth, fits = depth + 1, n
    raise InfotreeError(f"the drawing would have {count:,} boxes; svg, png and tikz draw at most {MAX_BOXES:,}: draw the "
                        f"top levels with --max-display-depth {depth} ({fits:,} box{'es' * (fits != 1)}), leave out empty branches "
                        f"with --hide-empty, or use --format html (zoomable, subtrees open on click)")


def _fonts():
    """The regular and bold 9 pt fonts, and a text measure in points (matplotlib's, DejaVu Sans)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

    regular, bold = FontProperties(size=FONT_SIZE), FontProperties(size=FONT_SIZE, weight="bold")
    # Measured as the PNG is drawn (150 dpi), with 1% to spare: hinting at 72 dpi made bold text
    # 7% narrower than drawn, so long bold titles stuck out of their boxes.
    renderer = FigureCanvasAgg(Figure(dpi=PNG_DPI)).get_renderer()
    scale = 72 / PNG_DPI * 1.01
    widths = {}  # boxes repeat their lines ("n = 1", counts): each text is measured once

    def measure(text, is_bold):
        key = (text, is_bold)
        if key not in widths:
            font = bold if is_bold else regular
            widths[key] = renderer.get_text_width_height_descent(text, font, ismath=False)[0] * scale
        return widths[key]
    return regular, bold, measure


def _placed(tree, measure, path, opts):
    """The boxes laid out, the key above them: (root, key, width, height) in points."""
    root = boxes(tree, path=path, **opts)
    width, height = layout(root, measure)
    key = legend(tree, look(**opts))
    if key:  # the colour key takes a row above the root
        key_width = sum(measure(t, False) + LINE + 2 * PAD for t, _ in key)
        for b in _walk(root):
            b.y += LEGEND
        width, height = max(width, key_width + 2 * MARGIN), height + LEGEND
    return root, key, width, height


def size(tree, *, path=None, **opts) -> tuple[float, float]:
    """The drawing's width and height in points (1/72 inch), without drawing it."""
    mpl = _matplotlib()
    with mpl.rc_context({"font.family": "DejaVu Sans", "font.size": FONT_SIZE}):
        return _placed(tree, _fonts()[2], path, opts)[2:]


def figure(tree, *, path=None, **opts):
    """A matplotlib Figure of the tree, sized so that 1 unit is 1 point (text at 9 pt).

    Options as :class:`Look`; ``path`` as :func:`boxes` (a row's path, drawn thick)."""
    mpl = _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Rectangle

    size_check(tree, count_boxes(tree, **opts), opts)
    with mpl.rc_context({"font.family": "DejaVu Sans", "font.size": FONT_SIZE, "svg.fonttype": "none",
                         "svg.hashsalt": "infotree", "path.simplify": False}):
        regular, bold, measure = _fonts()
        root, key, width, height = _placed(tree, measure, path, opts)
        fig = Figure(figsize=(width / 72, height / 72), dpi=72)
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(height, 0)
        ax.set_axis_off()
        x = MARGIN
        for text, color in key:
            ax.add_patch(Rectangle((x, MARGIN), FONT_SIZE, FONT_SIZE, facecolor=color, edgecolor="black",
                                   linewidth=0.5))
            ax.text(x + FONT_SIZE + 3, MARGIN, text, ha="left", va="top", fontproperties=regular, parse_math=False)
            x += measure(text, False) + LINE + 2 * PAD
        for b in steps(_walk(root), "drawing: box", total=len(tree)):
            style = "round,pad=0,rounding_size=6" if b.leaf else "square,pad=0"
            face = b.fill or ("0.92" if b.leaf else "white")
            ax.add_patch(FancyBboxPatch((b.x - b.width / 2, b.y), b.width, b.height, boxstyle=style,
                                        facecolor=face, edgecolor="black", linewidth=2.2 if b.on_path else 0.8,
                                        linestyle="--" if b.dashed else ":" if b.kind == "summary" else "-"))
            for i, text in enumerate(b.lines):
                ax.text(b.x, b.y + PAD + i * LINE, text, ha="center", va="top",
                        fontproperties=bold if i == 0 or (b.on_path and i >= b.path_from) else regular,
                        parse_math=False)
            if not b.children:
                continue
            # Elbow edges (down, along a bar, down to each child) with the branch value just above
            # the child: legible however many branches a node has.  A row's path is drawn thick.
            bar = b.children[0].y - BAR
            xs = [c.x for c in b.children]
            edge = dict(color="black", linewidth=0.8, solid_capstyle="butt")
            thick = dict(edge, linewidth=2.2)
            ax.plot([b.x, b.x], [b.y + b.height, bar], **(thick if b.on_path else edge))
            ax.plot([min(xs), max(xs)], [bar, bar], **edge)
            for c in b.children:
                if c.on_path:
                    ax.plot([b.x, c.x], [bar, bar], **thick)
                ax.plot([c.x, c.x], [bar, c.y], **(thick if c.on_path else edge))
                ax.text(c.x, c.y - LABEL, c.edge, ha="center", va="center", fontproperties=bold if c.on_path else regular,
                        parse_math=False, bbox=dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none"))
    return fig


def svg_text(tree, **opts) -> str:
    """The SVG document as a string (the same bytes on every run)."""
    buf = io.StringIO()
    write_svg(tree, buf, **opts)
    return buf.getvalue()


def write_svg(tree, out, **opts) -> None:
    fig = figure(tree, **opts)
    import matplotlib as mpl

    buf = io.BytesIO()
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "infotree"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "infotree"})
    out.write(buf.getvalue().decode("utf-8"))


def png_dpi(tree, *, path=None, **opts) -> int:
    """150 dpi, fewer for a big drawing so that no side passes PNG_PIXELS; a drawing that would need
    fewer than PNG_MIN_DPI (its text unreadable) is refused, naming its size and what shrinks it."""
    size_check(tree, count_boxes(tree, **opts), opts)
    w, h = size(tree, path=path, **opts)
    dpi = min(PNG_DPI, int(PNG_PIXELS * 72 / max(w, h)))
    if dpi >= PNG_MIN_DPI:
        return dpi
    lk = look(**opts)
    fits, depth = None, 0
    limit = PNG_PIXELS / PNG_MIN_DPI * 72  # points
    while lk.max_depth is None or depth < lk.max_depth:  # the deepest display depth whose drawing fits
        if max(size(tree, **dict(opts, max_depth=depth))) > limit:
            break
        fits, depth = depth, depth + 1
    hint = f"draw the top levels with --max-display-depth {fits}, " if fits is not None else ""
    raise InfotreeError(f"the drawing is {w / 72:,.0f} x {h / 72:,.0f} inches, a PNG of {round(w / 72 * PNG_MIN_DPI):,} x "
                        f"{round(h / 72 * PNG_MIN_DPI):,} pixels at {PNG_MIN_DPI} dpi; a PNG stays under "
                        f"{PNG_PIXELS:,} pixels a side: {hint}leave out empty branches with --hide-empty, or use "
                        f"--format svg or html (zoomable)")


def write_png(tree, out, *, dpi=None, path=None, **opts) -> None:
    """PNG bytes to ``out`` (a binary file, or a text file's ``.buffer``): 150 dpi, fewer for a big tree
    (never more than 12,000 pixels a side; refused below 50 dpi); ``dpi`` given is used as it is."""
    if dpi is None:
        dpi = png_dpi(tree, path=path, **opts)
    fig = figure(tree, path=path, **opts)
    target = getattr(out, "buffer", out)
    if target is not out:
        out.flush()
    try:
        fig.savefig(target, format="png", dpi=dpi, metadata={"Software": "infotree"})
    except TypeError:
        raise InfotreeError("PNG is binary: write it to a file (--output tree.png) or a binary stream") from None


def _outcome(line: str) -> str:
    """An explanation line without its reason: ``outlook = sunny``, ``predict no``."""
    for cut in (" (split", " (leaf:", " (node:", " (combined"):
        line = line.split(cut)[0]
    return line


def row_path(tree, row, *, unseen="error") -> dict:
    """{pre-order index: lines} for the boxes ``row`` passes (:meth:`Tree.explain_path`): each
    split's box says the test's outcome (``row: outlook = sunny``), the last one the prediction."""
    nodes, lines = tree.explain_path(row, unseen=unseen)
    index = {id(n): i for i, n in enumerate(tree.nodes())}
    out = {index[id(n)]: [f"row: {_outcome(lines[i])}"] for i, n in enumerate(nodes)}
    out[index[id(nodes[-1])]] = [f"row: {_outcome(t)}" for t in lines[len(nodes) - 1:]]
    return out


class Shown:
    """A tree or a node as a notebook shows it: ``_repr_html_`` (and ``_repr_svg_`` for a tree's drawing)."""

    def __init__(self, html: str, svg: str | None = None):
        self.html, self.svg = html, svg

    def _repr_html_(self) -> str:
        return self.html

    def _repr_svg_(self) -> str | None:
        return self.svg

    def __repr__(self):
        return f"<infotree display: {len(self.html)} characters of HTML{', a drawing' if self.svg else ''}>"


def plot_path(tree, row, out=None, *, fmt="svg", unseen="error", **opts):
    """:meth:`Tree.plot_path`: the drawing with ``row``'s path highlighted, to ``out`` or, without
    it, as an object a notebook shows (its ``svg`` the document)."""
    if fmt not in ("svg", "png"):
        raise InfotreeError(f"a row's path is drawn as svg or png, not {fmt!r}")
    path = row_path(tree, row, unseen=unseen)
    if out is None:
        if fmt == "png":
            raise InfotreeError("a PNG is written to a file: give out='path.png'")
        buf = io.StringIO()
        write_svg(tree, buf, path=path, **opts)
        svg = buf.getvalue()
        return Shown(f'<div class="infotree">{svg[svg.index("<svg"):]}</div>', svg)
    if isinstance(out, (str, bytes)) or hasattr(out, "__fspath__"):
        with open(out, "wb" if fmt == "png" else "w", **({} if fmt == "png" else {"encoding": "utf-8"})) as f:
            return plot_path(tree, row, f, fmt=fmt, unseen=unseen, **opts)
    (write_png if fmt == "png" else write_svg)(tree, out, path=path, **opts)
    return None
