"""``infotree report``: one self-contained HTML file."""

from __future__ import annotations

import os

from .args import _build, read_data
from .emit import _emit, _note
from .parser import LARGE_DERIVATION
from .tree import _pictures


def _cmd_report(args, out):
    from ..printers.html import write_report

    data = read_data(args.data, args)
    tree = _build(args, data)
    if len(tree) > LARGE_DERIVATION:
        _note(f"the report holds the derivation and worked solution of each of the tree's {len(tree):,} nodes; "
              f"--max-display-depth N narrows the drawing, --max-depth N the tree")
    pictures = _pictures(args)
    pictures["max_depth"] = pictures.pop("max_display_depth")
    return _emit(args, [args.data], lambda f: write_report(
        tree, f, digits=args.digits, title=args.title, source=os.path.basename(args.data),
        weights="exact" if args.exact_weights else "decimal", **pictures))
