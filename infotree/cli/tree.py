"""``infotree tree``: grow a tree and print it with its derivation."""

from __future__ import annotations

import sys

from ..errors import InfotreeError
from .args import _build, read_data
from .emit import _emit, _note
from .parser import LARGE_DERIVATION


def _cmd_tree(args, out):
    from ..printers import render

    from ..engines.command import engine_tree

    tree = engine_tree(args)
    if tree is None:  # the in-memory engine: build_tree on the Dataset
        tree = _build(args, read_data(args.data, args))
    if args.format != "text" and args.table_format != "simple":
        raise InfotreeError("--table-format applies to --format text only")
    if args.exact_values and args.format not in ("tikz", "svg", "png"):
        raise InfotreeError("--exact-values shows exact values in drawn boxes: --format tikz, svg or png")
    if args.standalone and args.format not in ("latex", "tikz"):
        raise InfotreeError("--standalone makes a complete LaTeX document: --format latex or tikz")
    if args.format == "png" and args.output in (None, "-") and sys.stdout.isatty():
        raise InfotreeError("PNG is binary; write it to a file: --output tree.png")
    args.nodes = _nodes_shown(args, tree)
    _note_drawing_size(args, tree)
    return _emit(args, [args.data], lambda f: render(
        tree, f, fmt=args.format, digits=args.digits, nodes=args.nodes, steps=args.steps,
        table_format=args.table_format, standalone=args.standalone,
        weights="exact" if args.exact_weights else args.weights, exact=args.exact_values, smoothing=args.smoothing,
        **_pictures(args)))


def _pictures(args) -> dict:
    """The drawings' options (dot, tikz, svg, png, html), refused for a format that draws nothing."""
    opts = dict(max_display_depth=args.max_display_depth, hide_empty=args.hide_empty, color=args.color, show=args.show)
    fmt = getattr(args, "format", "html")
    if fmt not in ("dot", "tikz", "svg", "png", "html") and (
            args.max_display_depth is not None or args.hide_empty or args.color != "none" or args.show != "counts"):
        raise InfotreeError("--max-display-depth, --hide-empty, --color and --show shape drawings: "
                            "--format dot, tikz, svg, png or html")
    return opts


# A drawing wider than this many points (an A4 page in landscape, less its margins) is one no page holds.
PAGE_POINTS = 770


_DERIVED = ("text", "markdown", "latex", "json")   # the formats that print derivations


def _nodes_shown(args, tree) -> str:
    """--nodes as given; not given: all, or root for a tree of more than LARGE_DERIVATION nodes."""
    size = len(tree)
    if args.format not in _DERIVED or size <= LARGE_DERIVATION:
        return args.nodes or "all"
    if args.nodes is None:
        _note(f"the tree has {size:,} nodes; printing the root's derivation only (--nodes all prints every "
              f"node's, --nodes none the tree alone)")
        return "root"
    if args.nodes == "all":
        _note(f"writing the derivations of a tree of {size:,} nodes; --nodes root or --max-depth N narrows it")
    return args.nodes


def _note_drawing_size(args, tree) -> None:
    """A drawing wider than a page says how wide before it is drawn: the drawing's own layout, each
    character taken at 0.6 em of the 9-point font (DejaVu Sans averages a little less)."""
    if args.format not in ("svg", "png"):
        return
    from ..printers.drawing import FONT_SIZE, boxes, layout

    root = boxes(tree, digits=args.digits, exact=args.exact_values,
                 weights="exact" if args.exact_weights else args.weights)
    width, height = layout(root, lambda text, bold: len(text) * FONT_SIZE * 0.6)
    if width > PAGE_POINTS:
        leaves = sum(1 for _ in tree.leaves())
        _note(f"the drawing will be about {width:,.0f} by {height:,.0f} points ({leaves:,} leaves; a page holds "
              f"about {PAGE_POINTS} across); --max-display-depth N draws fewer levels, --max-depth N grows a "
              f"shallower tree, --format text prints it in lines")
