"""A forest (``infotree forest``): its trees, the rows each drew, the votes, the OOB error
and the importances, in text, Markdown or JSON.

The printer reads what :mod:`infotree.ensemble` computed (ballots, the OOB result, the
importances); it computes nothing.  Each tree is printed by the tree printers.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction

from ..controls import POISSON
from ..criteria import criterion_named
from .numbers import exact_and_decimal, number
from .cells import MARKDOWN, TEXT, Table
from .tables import markdown_table, text_table

__all__ = ["write"]

FORMATS = ("text", "markdown", "json")
_IN_BAG = "·"  # an OOB table's cell for a tree that drew the row (it does not vote)


def _exact(v) -> str:
    return str(v) if not isinstance(v, (int, Fraction)) or Fraction(v).denominator != 1 else str(int(v))


def _rows_text(rows) -> str:
    """1-based row numbers, a repeated row as r×k."""
    out, prev, k = [], None, 0
    for r in list(rows) + [None]:
        if r == prev:
            k += 1
            continue
        if prev is not None:
            out.append(f"{prev + 1}" + (f"×{k}" if k > 1 else ""))
        prev, k = r, 1
    return ", ".join(out) or "none"


def _ballot_table(forest, ballots, names, truth, digits, title, mk) -> Table:
    cls = [mk.name(c) for c in forest.classes]
    headers = ["row", *(f"tree {t + 1}" for t in range(len(forest.trees))), *(f"P({c})" for c in cls), "prediction"]
    if truth is not None:
        headers.append("class")
    headers.append("tie")
    rows = []
    for name, b, y in zip(names, ballots, truth if truth is not None else [None] * len(ballots)):
        votes = [_IN_BAG if v is None else cls[v] for v in b.votes]
        probs = [mk.code(exact_and_decimal(_exact(p), p, digits), "") for p in b.proba] or ["—"] * len(cls)
        row = [name, *votes, *probs, "—" if b.prediction is None else cls[b.prediction]]
        if truth is not None:
            row.append(cls[y])
        row.append(" = ".join(cls[c] for c in b.tied) + f" → {cls[b.tied[0]]}" if b.tied else "")
        rows.append(row)
    return Table(title, tuple(headers), rows, ("l",) + ("l",) * len(forest.trees) + ("r",) * len(cls) +
                 ("l",) * (len(headers) - 1 - len(forest.trees) - len(cls)))


def _importance_table(forest, mdi, share, perm, digits, mk) -> Table:
    headers = ["feature", "MDI", "MDI exact", "share"]
    if perm is not None:
        headers += ["permutation", "permutation exact"]
    rows = []
    for j, f in enumerate(forest.features):
        row = [mk.name(f), number(mdi[j], digits), mk.code(_exact(mdi[j]), ""),
               "—" if share is None else number(share[j], digits)]
        if perm is not None:
            row += ["—", "—"] if perm[j] is None else [number(perm[j], digits), mk.code(_exact(perm[j]), "")]
        rows.append(row)
    return Table("Importances", tuple(headers), rows, ("l", "r", "l", "r") + (("r", "l") if perm is not None else ()))


def _tree_block(forest, t, fmt, nodes, digits) -> str:
    from . import render

    buf = io.StringIO()
    render(forest.trees[t], buf, fmt=fmt, nodes=nodes, digits=digits)
    return buf.getvalue()


def write(forest, out, *, fmt="text", digits=4, nodes="none", table_format="simple", show_samples=False,
          predicted=None, oob=None, show_oob=False, mdi=None, share=None, permutation=None) -> None:
    """``predicted``: (row names, ballots) of new rows; ``oob``: Forest.oob()'s result;
    ``mdi``/``share``/``permutation``: the importances (None: not asked for)."""
    if fmt == "json":
        return _write_json(forest, out, show_samples, predicted, oob, show_oob, mdi, share, permutation, nodes)
    md = fmt == "markdown"
    mk = MARKDOWN if md else TEXT
    if md:
        put = markdown_table
        h2, h3 = "## ", "### "
    else:
        def put(t, o):
            o.write(text_table(t, table_format) + "\n")
        h2 = h3 = "== "
    end = "" if md else " =="
    out.write(("# Forest\n\n" if md else "") + forest.describe() + "\n")
    for t in range(len(forest.trees)):
        out.write(f"\n{h2}Tree {t + 1}{end}\n\n")
        facts = []
        if show_samples:
            facts.append(f"rows drawn: {_rows_text(forest.samples[t].tolist())}")
            facts.append(f"out of bag: {_rows_text([i for i, k in enumerate(forest.in_bag[t].tolist()) if not k])}")
        if forest.params["draw"] == "tree" and forest.kind == "random subspace":
            mask = forest.trees[t].draw.tree_mask
            facts.append("features: " + ", ".join(mk.name(f) for f, b in zip(forest.features, mask.tolist()) if b))
        for f in facts:
            out.write(("- " if md else "") + f + "\n")
        if facts:
            out.write("\n")
        block = _tree_block(forest, t, fmt, nodes, digits)
        if md:  # the tree printer's sections go one level down, under this tree's heading
            lines = block.splitlines()
            if lines[:2] == ["## Tree", ""]:  # this tree's own heading stands for it
                lines = lines[2:]
            block = "\n".join("#" + line if line.startswith("##") else line for line in lines) + "\n"
        out.write(block)
    if predicted is not None:
        names, ballots = predicted
        out.write(f"\n{h2}Votes{end}\n\n")
        put(_ballot_table(forest, ballots, names, None, digits, "Votes", mk), out)
    if oob is not None:
        ballots, no_vote, error = oob
        out.write(f"\n{h2}Out of bag{end}\n\n")
        voted = len(ballots) - no_vote
        if error is None:
            out.write("OOB error: undefined (every row was drawn by every tree)\n")
        else:
            out.write(f"OOB error: {exact_and_decimal(_exact(error), error, digits)} "
                      f"({voted} rows voted on by the trees that did not draw them; {no_vote} drawn by every tree)\n")
        if show_oob:
            out.write("\n")
            put(_ballot_table(forest, ballots, [str(i + 1) for i in range(len(ballots))], forest.data.y.tolist(),
                              digits, "Out of bag", mk), out)
    if mdi is not None:
        out.write(f"\n{h2}Importances{end}\n\n")
        put(_importance_table(forest, mdi, share, permutation, digits, mk), out)
        out.write(("\n" if md else "\n") + _importance_note(forest, permutation is not None) + "\n")


def _importance_note(forest, with_permutation) -> str:
    crit = forest.params["criterion"]
    what = f"{crit} decrease" if criterion_named(crit).binary else "information gain"
    note = (f"MDI: mean over the trees of Σ (node rows / tree rows) · {what} of the feature's splits; "
            "share: MDI / Σ MDI.")
    if with_permutation:
        note += (" permutation: mean over the trees with out-of-bag rows of the tree's OOB accuracy less its "
                 "accuracy with the feature's values shuffled among them.")
    return note


def _write_json(forest, out, show_samples, predicted, oob, show_oob, mdi, share, permutation, nodes):
    from . import render
    from .json import value_json

    cls = forest.classes

    def ballot(b, name):
        return {"row": name, "votes": [None if v is None else cls[v] for v in b.votes],
                "proba": {c: _exact(p) for c, p in zip(cls, b.proba)},
                "prediction": None if b.prediction is None else cls[b.prediction],
                "tied": [cls[c] for c in b.tied]}

    p = forest.params
    doc = {"forest": {"kind": forest.kind, "trees": len(forest.trees), "criterion": p["criterion"],
                      "features_drawn": p["m_try"], "draw": p["draw"], "seed": p["seed"],
                      "bootstrap": p["bootstrap"], "sample_size": None if p["given"] else p["sample_size"],
                      "samples_given": p["given"], "vote": p["vote"], "tie_rule": "first class in class order",
                      "classes": list(cls), "features": list(forest.features)},
           "trees": []}
    if p.get("sampling") == POISSON:  # each tree's size is its own (its rows' counts)
        doc["forest"].update(sampling="poisson", sample_size=None)
    for t in range(len(forest.trees)):
        buf = io.StringIO()
        render(forest.trees[t], buf, fmt="json", nodes=nodes)
        entry = {"index": t + 1}
        if show_samples:
            entry["rows"] = [r + 1 for r in forest.samples[t].tolist()]
            entry["out_of_bag"] = [i + 1 for i, k in enumerate(forest.in_bag[t].tolist()) if not k]
        if p["draw"] == "tree" and forest.kind == "random subspace":
            entry["features"] = [f for f, b in zip(forest.features, forest.trees[t].draw.tree_mask.tolist()) if b]
        entry["tree"] = json.loads(buf.getvalue())
        doc["trees"].append(entry)
    if predicted is not None:
        doc["votes"] = [ballot(b, n) for n, b in zip(*predicted)]
    if oob is not None:
        ballots, no_vote, error = oob
        doc["oob"] = {"error": None if error is None else _exact(error), "rows_without_vote": no_vote}
        if show_oob:
            doc["oob"]["rows"] = [ballot(b, i + 1) for i, b in enumerate(ballots)]
    if mdi is not None:
        doc["importances"] = [{"feature": f, "mdi": value_json(mdi[j]), "share": None if share is None else value_json(share[j]),
                               "permutation": None if permutation is None or permutation[j] is None
                               else _exact(permutation[j])}
                              for j, f in enumerate(forest.features)]
    out.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
