"""The JSON contract (``--format json``), written node by node.

    {"infotree": "<version>", "target": ..., "criterion": ..., "classes": [...],
     "features": [...], "domains": {feature: [values]}, "params": {...}, "root": NODE}

NODE, CANDIDATE and VALUE are as documented in README.md.  Counts are strings
in the exact grammar (``"14"``; a fractional C4.5 weight ``"855/56"``); every exact
value is ``{"exact": "...", "float": ...}``.  Unknown keys may be added later; the
documented ones stay.

``"format"`` is 1 for a tree whose splits are all nominal and whose counts are all
integers (readable by every infotree), 2 when it has a numeric split or a fractional
weight: a reader of format 1 only refuses such a file with a one-line message
instead of misreading it.
"""

from __future__ import annotations

import json

from ..forms import counts_text
from ..data import number_text
from ..records import BinaryCandidate, Complexity, CostComplexity, ReducedError, RegressionCandidate
from .cells import exact_text
from ..splits import MofNSplit, SubsetSplit, ThresholdSplit
from .cells import all_missing, equal_gain_groups
from .impurity import equal_decrease_groups

__all__ = ["FORMATS_READ", "FORMAT_VERSION", "format_of", "pruning_json", "value_json", "write"]

#: Bumped when a documented key changes meaning; readers refuse newer versions.
#: Format 2: numeric splits (children ``<= t``, ``> t``) and fractional weights.
#: Format 3: CART's binary splits, each node's ``test`` (threshold or subset).
#: Format 4: M-of-N tests (``m_of_n=True``): each split node's ``test`` is
#: ``{"kind": "m_of_n", "m": 2, "conditions": [{"feature": f, "value": v}, ...]}``.
FORMAT_VERSION = 4
#: The versions this infotree reads.
FORMATS_READ = (1, 2, 3, 4)


def _dump(x) -> str:
    return json.dumps(x, ensure_ascii=False)


def value_json(v):
    """``{"exact": ..., "float": ...}`` for an exact value, None for None."""
    if v is None:
        return None
    return {"exact": str(v), "float": float(v)}


def _counts(tree, counts):
    return {c: counts_text(k) for c, k in zip(tree.classes, counts)}


def test_json(tree, test):
    """A split node's test: ``{"kind": "threshold", "threshold": "p/q"}``, ``{"kind": "subset", ...}``
    or ``{"kind": "values"}`` (one branch per value)."""
    if test is None:
        return None
    if isinstance(test, ThresholdSplit):
        return {"kind": "threshold", "threshold": tree.number_text(test.threshold)}
    if isinstance(test, SubsetSplit):
        return {"kind": "subset", "left": list(test.left_values), "right": list(test.right_values)}
    if isinstance(test, MofNSplit):
        return {"kind": "m_of_n", "m": test.m,
                "conditions": [{"feature": tree.features[j], "value": tree.domains[j][v]} for j, v in test.conditions]}
    return {"kind": "values"}


def search_json(tree, search) -> dict:
    """An M-of-N node's search (:mod:`infotree.mofn`): each accepted step's test, its two
    branches' counts and exact gain, why it stopped, and the rejected best move."""
    def step(s):
        c = s.candidate
        return {"operator": s.operator, "text": s.split.text, "test": test_json(tree, s.split), "tried": s.tried,
                "branches": [{"value": b.value, "n": counts_text(b.n), "class_counts": _counts(tree, b.counts)}
                             for b in c.branches],
                "conditional_entropy": value_json(c.conditional_entropy), "gain": value_json(c.gain)}

    best = search.best_feature
    return {"steps": [step(s) for s in search.steps], "stopped": search.stopped,
            "rejected": None if search.rejected is None else step(search.rejected),
            "best_feature": None if best is None else {"feature": best.feature, "gain": value_json(best.gain)}}


def competitors(tree, node) -> list:
    """The node's runner-up splits: the other features' best splits with a positive
    improvement, by improvement (ties in column order), at most ``competitors``."""
    chosen = node.chosen
    if chosen is None:
        return []
    others = [c for c in node.candidates() if c.index != chosen.index and c.decrease > 0]
    others.sort(key=lambda c: -c.improvement)  # stable: equal improvements keep column order
    return others[:tree.params.get("competitors", 4)]


def _surrogate(tree, s):
    if s.sides is not None:  # a threshold: which side goes with the primary's left
        test = {"kind": "threshold", "threshold": tree.number_text(s.test.threshold),
                "left_op": "<=" if s.sides[0] == 0 else ">"}
    else:
        dom = tree.domains[s.index]
        test = {"kind": "subset", "left": [dom[i] for i in sorted(s.test.left)],
                "right": [dom[i] for i in sorted(s.rights)]}
    return {"feature": s.feature, "test": test, "agree": counts_text(s.agree), "adj": counts_text(s.adj),
            **{k: v if isinstance(v, int) else counts_text(v)   # sample weights: exact text
               for k, v in (("agreed", s.agreed), ("total", s.total), ("majority", s.majority))}, "count": s.routed}


def _risk_text(v) -> str:
    return str(v) if hasattr(v, "approx") else counts_text(v)


def _improvement_text(v) -> str:
    return counts_text(v) if not hasattr(v, "terms") else str(v)


def _stats(tree, stats) -> dict:
    """A regression node's or side's statistics: n, Σy, Σy² as exact strings."""
    if getattr(tree.criterion, "counts_events", False):  # Poisson, exp: n, events, exposure
        from .poisson import json_stats

        return json_stats(stats)
    n, t, q = stats.tolist() if hasattr(stats, "tolist") else stats
    return {"n": counts_text(n), "sum": number_text(t), "sum_squares": number_text(q)}


def _binary_candidate(tree, c):
    out = _binary_fields(tree, c)
    if c.every:  # every_split: each threshold or subset tried
        out["every"] = [{"test": test_json(tree, s.split), "n": [counts_text(tree.criterion.weight(r)) for r in s.table],
                         "weighted": value_json(s.weighted), "decrease": value_json(s.decrease),
                         "improvement": _improvement_text(s.improvement)} for s in c.every_split()]
    return out


def _binary_fields(tree, c):
    if getattr(tree.criterion, "counts_events", False):  # Poisson, exp: rates and deviances
        from .poisson import json_candidate

        return json_candidate(tree, c, test_json, value_json, _improvement_text)
    if isinstance(c, RegressionCandidate):
        return {
            "feature": c.feature,
            "test": test_json(tree, c.split),
            "branches": [{"value": v, **_stats(tree, r), "mean": None if mu is None else number_text(mu),
                          "sse": value_json(i)} for v, r, mu, i in zip(c.values, c.table, c.means, c.impurities)],
            "tried": c.n_tried,
            "sse_sum": value_json(c.weighted),
            "decrease": value_json(c.decrease),
            "improvement": _improvement_text(c.improvement),
        }
    return {
        "feature": c.feature,
        "test": test_json(tree, c.split),
        "branches": [{"value": b.value, "n": counts_text(b.n), "class_counts": _counts(tree, b.counts),
                      "impurity": value_json(i)} for b, i in zip(c.branches, c.impurities)],
        "tried": c.n_tried,
        "weighted_impurity": value_json(c.weighted),
        "decrease": value_json(c.decrease),
        "improvement": _improvement_text(c.improvement),
    }


def _candidate(tree, c):
    out = _candidate_fields(tree, c)
    if c.lookahead is not None:  # lookahead 1: the two-level score beside the greedy one
        out["lookahead"] = value_json(c.lookahead)
        if tree.criterion.ratio:
            out["lookahead_ratio"] = value_json(c.lookahead_ratio)
    return out


def _candidate_fields(tree, c):
    if isinstance(c, BinaryCandidate):
        return _binary_candidate(tree, c)
    if all_missing(c):  # C4.5: the value is missing for every row here; no measures
        return {"feature": c.feature, "branches": [{"value": b.value, "n": "0", "class_counts": _counts(tree, b.counts),
                                                     "entropy": None} for b in c.branches],
                "conditional_entropy": None, "gain": None, "split_info": None, "gain_ratio": None,
                "passes_average_gain": c.passes_average_gain, "valid": c.valid,
                "unknown": {"n": counts_text(sum(c.unknown)), "class_counts": _counts(tree, c.unknown)},
                "known_fraction": "0", "threshold": None, "n_cuts": c.n_cuts, "mdl": None}
    out = {
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
    if c.unknown or c.threshold is not None:
        u = c.unknown
        out.update({
            "unknown": None if not u else {"n": counts_text(sum(u)), "class_counts": _counts(tree, u)},
            "known_fraction": counts_text(c.known_fraction),
            "threshold": None if c.threshold is None else tree.number_text(c.threshold),
            "n_cuts": c.n_cuts,
            "mdl": value_json(c.mdl_penalty) if c.mdl else None,
        })
    return out


def pruning_json(tree, r, node=None):
    """A node's pruning record: estimates as floats (pessimistic), exact strings (reduced-error)."""
    if r is None:
        return None
    if isinstance(r, Complexity):
        text = _risk_text  # a Poisson deviance has logarithms: its exact text
        return {"method": "cp", "action": r.action, "risk": text(r.risk), "bound": text(r.bound),
                "alpha": text(r.alpha),
                "complexity": None if r.complexity is None else text(r.complexity),
                "subtree_risk": None if r.subtree_risk is None else text(r.subtree_risk), "splits": r.splits}
    if isinstance(r, CostComplexity):
        link = r.link
        return {"method": "cost-complexity", "action": r.action, "alpha": exact_text(r.alpha),
                "risk": exact_text(link.risk), "subtree_risk": exact_text(link.subtree_risk),
                "leaves": link.leaves, "link_alpha": exact_text(link.alpha), "own_link": link.node is node}
    if isinstance(r, ReducedError):
        return {"method": "reduced-error", "action": r.action,
                "validation_leaf": counts_text(r.validation_leaf),
                "validation_subtree": counts_text(r.validation_subtree),
                "validation_weight": counts_text(r.validation_weight)}
    out = {"method": "pessimistic", "action": r.action, "confidence": float(r.confidence),
           "estimated_errors": {"leaf": float(r.leaf), "subtree": float(r.subtree),
                                "largest_branch": float(r.largest_branch)},
           "largest": list(r.largest)}
    if r.raised_from is not None:
        f, b = r.raised_from
        out["raised_from"] = {"feature": tree.features[f], "branch": int(b)}
    if r.after_raising is not None:
        out["after_raising"] = pruning_json(tree, r.after_raising)
    return out


def format_of(tree) -> int:
    """1 when every split is nominal and every count an integer, else 2 (see the module docstring)."""
    if tree.criterion.binary:
        return 3
    if tree.params.get("m_of_n"):
        return 4
    for node in tree.nodes():
        if node.threshold is not None or getattr(node.class_counts, "dtype", None) == object and any(
                getattr(k, "denominator", 1) != 1 for k in node.class_counts.tolist()):
            return 2
    return 1


def _write_node(tree, node, out, with_candidates, indent, smoothing=None):
    pad = " " * indent
    show = with_candidates(node)
    classes = not tree.criterion.regression  # a regression node's (n, Σy, Σy²) are no class counts (Σy may be < 0)
    head = {
        "path": [list(p) for p in node.path_names()],
        "n": counts_text(node.n),
        "class_counts": _counts(tree, node.class_counts) if classes else None,
        "entropy": value_json(node.entropy) if classes else None,
        "candidates": [_candidate(tree, c) for c in node.candidates()] if show else [],
        "split": node.split_feature,
        "ties": [tree.features[j] for j in node.ties],
        "equal_gains": equal_gain_groups(node) if show and not tree.criterion.binary else [],
        "reason": node.reason,
        "label": node.label_name,
        "empty": node.is_empty,
        "errors": counts_text(node.errors) if classes else None,
        "threshold": None if node.threshold is None else tree.number_text(node.threshold),
        "pruned": pruning_json(tree, node.pruned, node),
    }
    if tree.criterion.regression:  # statistics, mean and SSE in place of classes and entropy
        del head["class_counts"], head["entropy"], head["errors"]
        head.update(stats=_stats(tree, node.class_counts), mean=None if node.mean is None else number_text(node.mean))
        if getattr(tree.criterion, "counts_events", False):  # rpart's dev: under the shrunk rate
            head["deviance"] = value_json(node.risk) if node.n else None
    if tree.params.get("m_of_n"):  # format 4: the test, and where candidates are shown the search
        head["test"] = test_json(tree, node.test)
        if show and node.mofn is not None:
            head["m_of_n_search"] = search_json(tree, node.mofn)
    if smoothing is not None and node.is_leaf:  # a probability estimation tree's leaf
        head["probabilities"] = {k: counts_text(p) for k, p in zip(tree.classes, tree.probabilities(node, smoothing))}
    if tree.criterion.binary:  # CART (format 3): the impurity, the test, its improvement
        chosen = node.chosen
        head["equal_gains"] = []
        head.update(impurity=value_json(node.impurity),
                    test=test_json(tree, node.test),
                    improvement=None if chosen is None else _improvement_text(chosen.improvement),
                    equal_decreases=equal_decrease_groups(node) if show else [],
                    competitors=[{"feature": c.feature, "test": test_json(tree, c.split),
                                  "improvement": _improvement_text(c.improvement)} for c in competitors(tree, node)],
                    surrogates=[_surrogate(tree, s) for s in node.surrogates],
                    majority=None if node.majority is None else ("left", "right")[node.majority])
        levels = getattr(node, "levels", None)
        if isinstance(node.test, SubsetSplit) and levels is not None and len(levels) < len(node.test.values):
            # the levels this node's rows never had: rpart's routing treats them as missing
            head["test"] = dict(head["test"], absent=[v for i, v in enumerate(node.test.values) if i not in levels])
    out.write("{")
    for k, v in head.items():
        out.write(f"{_dump(k)}: {_dump(v)}, ")
    out.write('"children": [')
    for i, child in enumerate(node.children):
        op, value = node.branch_condition(child.step[1])
        if op != "=":
            value = f"{op} {value}"
        out.write(("," if i else "") + f"\n{pad}  {{\"value\": {_dump(value)}, \"node\": ")
        _write_node(tree, child, out, with_candidates, indent + 2, smoothing)
        out.write("}")
    out.write(("\n" + pad) if node.children else "")
    out.write("]}")


def write(tree, out, *, nodes="all", smoothing=None) -> None:
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
        "format": format_of(tree),
        "target": tree.target,
        "criterion": tree.criterion.name,
        "classes": None if tree.values is not None else list(tree.classes),
        "features": list(tree.features),
        "domains": {f: list(d) for f, d in zip(tree.features, tree.domains)},
        "kinds": {f: k for f, k in zip(tree.features, tree.kinds)},
        "params": p,
    }
    if smoothing is not None:
        head["smoothing"] = str(smoothing)
    out.write("{")
    for k, v in head.items():
        out.write(f"{_dump(k)}: {_dump(v)},\n ")
    out.write('"root": ')
    _write_node(tree, root, out, pick, 1, smoothing)
    out.write("}\n")


def write_measures(tree, node, out) -> None:
    """``infotree measures --format json``: one node's measures as ``tree``'s JSON gives a node
    (its counts, entropy or impurity, every candidate's branches and exact measures), without children.

        {"infotree": "<version>", "target": ..., "criterion": ..., "classes": [...], "features": [...],
         "domains": {...}, "kinds": {...}, "at": [[feature, value], ...], "node": NODE}
    """
    import io

    from .. import __version__

    buf = io.StringIO()
    _write_node(tree, node, buf, lambda n: n is node, 1)
    body = json.loads(buf.getvalue())   # the node as 'tree' writes it; its children are not measured here
    del body["children"]
    doc = {
        "infotree": __version__,
        "target": tree.target,
        "criterion": tree.criterion.name,
        "classes": None if tree.values is not None else list(tree.classes),
        "features": list(tree.features),
        "domains": {f: list(d) for f, d in zip(tree.features, tree.domains)},
        "kinds": {f: k for f, k in zip(tree.features, tree.kinds)},
        "at": body["path"],
        "node": body,
    }
    out.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
