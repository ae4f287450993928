"""The JSON contract (``--format json``), written node by node.

    {"infotree": "<version>", "target": ..., "criterion": ..., "classes": [...],
     "features": [...], "domains": {feature: [values]}, "params": {...}, "root": NODE}

NODE, CANDIDATE and VALUE are as documented in README.md.  Counts are strings
in the exact grammar; every exact value is ``{"exact": "...", "float": ...}``.
Unknown keys may be added later; the documented ones stay.
"""

from __future__ import annotations

import json

from ..forms import counts_text

__all__ = ["write", "value_json", "FORMAT_VERSION"]

#: Bumped when a documented key changes meaning; readers refuse other versions.
FORMAT_VERSION = 1


def _dump(x) -> str:
    return json.dumps(x, ensure_ascii=False)


def value_json(v):
    """``{"exact": ..., "float": ...}`` for an exact value, None for None."""
    if v is None:
        return None
    return {"exact": str(v), "float": float(v)}


def _counts(tree, counts):
    return {c: counts_text(int(k)) for c, k in zip(tree.classes, counts)}


def _candidate(tree, c):
    return {
        "feature": c.feature,
        "branches": [{"value": b.value, "n": counts_text(b.n), "class_counts": _counts(tree, b.counts),
                      "entropy": value_json(b.entropy)} for b in c.branches],
        "conditional_entropy": value_json(c.conditional_entropy),
        "gain": value_json(c.gain),
        "split_info": value_json(c.split_info),
        "gain_ratio": value_json(c.gain_ratio),
        "passes_average_gain": c.passes_average_gain,
        "valid": c.valid,
    }


def _write_node(tree, node, out, with_candidates, indent):
    pad = " " * indent
    show = with_candidates(node)
    head = {
        "path": [list(p) for p in node.path_names()],
        "n": counts_text(node.n),
        "class_counts": _counts(tree, node.class_counts),
        "entropy": value_json(node.entropy),
        "candidates": [_candidate(tree, c) for c in node.candidates()] if show else [],
        "split": node.split_feature,
        "ties": [tree.features[j] for j in node.ties],
        "equal_gains": node.equal_gain_groups() if show else [],
        "reason": node.reason,
        "label": node.label_name,
        "empty": node.is_empty,
    }
    out.write("{")
    for k, v in head.items():
        out.write(f"{_dump(k)}: {_dump(v)}, ")
    out.write('"children": [')
    for i, child in enumerate(node.children):
        value = tree.domains[node.split][child.path[-1][1]]
        out.write(("," if i else "") + f"\n{pad}  {{\"value\": {_dump(value)}, \"node\": ")
        _write_node(tree, child, out, with_candidates, indent + 2)
        out.write("}")
    out.write(("\n" + pad) if node.children else "")
    out.write("]}")


def write(tree, out, *, nodes="all") -> None:
    """Write the tree as the JSON contract; ``nodes`` says whose candidates to include."""
    from .. import __version__

    root = tree.root
    if nodes == "all":
        def pick(n):
            return True
    elif nodes == "root":
        def pick(n):
            return n is root
    else:
        def pick(n):
            return False
    from fractions import Fraction

    p = {k: counts_text(v) if isinstance(v, Fraction) else v for k, v in tree.params.items()}
    head = {
        "infotree": __version__,
        "format": FORMAT_VERSION,
        "target": tree.target,
        "criterion": tree.criterion,
        "classes": list(tree.classes),
        "features": list(tree.features),
        "domains": {f: list(d) for f, d in zip(tree.features, tree.domains)},
        "params": p,
    }
    out.write("{")
    for k, v in head.items():
        out.write(f"{_dump(k)}: {_dump(v)},\n ")
    out.write('"root": ')
    _write_node(tree, root, out, pick, 1)
    out.write("}\n")
