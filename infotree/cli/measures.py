"""``infotree measures``: the candidate table at the root or at a node (and an M-of-N test there)."""

from __future__ import annotations

import re

from ..errors import InfotreeError
from .args import _CRITERIA, _every_split, read_data
from .emit import _emit


_STEP = re.compile(r"\s*(.+?)\s*(<=|>|=)\s*(.*?)\s*$", re.S)


def _parse_at(text):
    """``outlook=sunny,humidity<=75`` as [(feature, operator, value), ...]."""
    path = []
    for part in text.split(","):
        if not part.strip():
            continue
        m = _STEP.match(part)
        if m is None:
            raise InfotreeError(f"--at {text!r}: {part.strip()!r} is not feature=value or feature<=t / feature>t; "
                                f"write e.g. 'outlook=sunny,humidity<=75'")
        path.append(m.groups())
    return path


def _cmd_measures(args, out):
    from ..printers import render_node
    from ..growing import node_at

    data = read_data(args.data, args)
    node = node_at(data, _parse_at(args.at or ""), criterion=_CRITERIA[args.criterion],
                   every_split=_every_split(args), lookahead=args.lookahead)
    if args.m_of_n:
        return _m_of_n(args, data, node)
    if args.format == "json":
        from ..printers.json import write_measures

        return _emit(args, [args.data], lambda f: write_measures(node.tree, node, f))
    return _emit(args, [args.data], lambda f: render_node(
        node.tree, node, f, fmt=args.format, digits=args.digits, table_format=args.table_format))


def _m_of_n(args, data, node):
    """``measures --m-of-n``: the M-of-N test grown at the node (nominal paths only)."""
    import numpy as np

    from ..mofn import grow_m_of_n
    from ..printers.mofn import write

    mask = np.ones(len(data.y), bool)
    for j, v in node.path:
        if data.kinds[j] == "numeric":
            raise InfotreeError(f"--m-of-n follows nominal paths only; {data.features[j]!r} is numeric")
        mask &= np.asarray(data.X)[:, j] == v
    search = grow_m_of_n(data, np.flatnonzero(mask))
    if args.format == "json":
        import json

        from ..printers.json import search_json

        return _emit(args, [args.data], lambda f: f.write(json.dumps(
            {"target": data.target, "at": [list(p) for p in node.path_names()],
             "m_of_n_search": search_json(node.tree, search)}, ensure_ascii=False, indent=1) + "\n"))
    return _emit(args, [args.data], lambda f: write(search, f, target=data.target, where=node.describe_path(),
                                                     digits=args.digits, fmt=args.format))
