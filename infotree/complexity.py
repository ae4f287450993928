"""Cost-complexity pruning (Breiman et al. 1984, ch. 3; rpart; scikit-learn), exactly.

For a grown CART tree T0 and a risk R, the *weakest link* of a tree is its internal
node t of least

    α(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1),

with R(t) the risk of t as a leaf and R(T_t) the summed risk of its branch's leaves.
Cutting every weakest link gives T1, and so on down to the root: the nested sequence
T0 ⊃ T1 ⊃ … ⊃ {root}, each step with its α, and T_k is the smallest subtree
minimising R(T) + α·|leaves(T)| for α from α_k up to α_{k+1}.  Every α is an exact
fraction (an exact log-expression for entropy impurity).

Two risks (:data:`RISKS`):

``rpart``
    the resubstitution risk as rpart uses it: the misclassified rows (weight) of a
    classification node, the criterion's own risk (``criterion.risk(node)``, the
    squared error of a regression node) otherwise.  Its cp table (``printcp``) has
    CP = α / R(root) and rel error = R(T_k) / R(root).
``impurity``
    scikit-learn's: R(t) = N_t / N · impurity(t), N the root's weight;
    ``cost_complexity_pruning_path`` lists these α and R(T_k).

Ties: every node of least α is cut in one step of the sequence (the cp table's rows);
scikit-learn cuts them one at a time, first in pre-order (left before right), and the
estimator's path lists them so.

Cross-validation (:func:`cp_table` with folds) is rpart's ``xval.c``: every fold's
tree is grown on the other folds with the same controls and α scaled by the weight
kept (cp·R(root)·W_train/W), and each held-out row is run down it for every row of
the table at the geometric mean of that row's cp and the next larger one (10 × the
largest for the first row): it stops at the first node whose own α is at most that
value.  xerror = Σ w·loss / R(root), xstd = sqrt(Σ w·loss² − (Σ w·loss)²/W) / R(root),
w a row's sample weight (1 without) and W their sum.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .errors import InfotreeError
from .roots import SquareRoot
from .lnpoly import LnRoot
from .records import CpTable as _CpTableRecord
from .records import (
    Complexity,
    CostComplexity,
    CpRow,
    PruningPath,
    PruningStep,
    WeakestLink,
)
from .routing import SURROGATES
from .splits import SubsetSplit

__all__ = ["RISKS", "SELECTIONS", "choose", "cp_table", "node_path", "prune", "prune_grown", "pruning_path",
           "resubstitution"]


class CpTable(_CpTableRecord):
    """The cp table record (:class:`infotree.records.CpTable`) as :func:`cp_table` returns it: a notebook
    shows it as its HTML table.  The view is attached here, where the table is computed (as a Tree's is in
    :mod:`infotree.tree`), not on the record: the printers read the records, so a record that imported a
    printer would close an import cycle."""

    def _repr_html_(self):
        from .printers.complexity import cp_table_html

        return cp_table_html(self)


#: the risks and their descriptions (rpart's: classification, regression)
RISKS = {"rpart": ("misclassified rows (rpart's resubstitution risk)", "sum of squared errors (rpart's risk)"),
         "impurity": ("N_t/N · impurity(t) (scikit-learn's risk)", "N_t/N · mean squared error (scikit-learn's risk)")}
SELECTIONS = ("min", "1se")


def resubstitution(node):
    """rpart's R(t): the misclassified weight of the node as a leaf, or (regression) its
    sum of squared errors (Poisson, exp: its deviance, an exact :class:`~infotree.lnpoly.LnPoly`)."""
    r = node.risk
    return Fraction(r) if isinstance(r, (int, Fraction)) else r


def _risk_function(tree, risk):
    if risk not in RISKS:
        raise InfotreeError(f"risk {risk!r} is not allowed; allowed: {', '.join(RISKS)}")
    if not getattr(tree.criterion, "binary", False):
        raise InfotreeError(f"cost-complexity pruning needs a CART tree (criterion gini, entropy, "
                            f"misclassification); this tree's criterion is {tree.criterion.name!r}")
    if risk == "rpart":
        return resubstitution
    total = Fraction(tree.root.n)
    if tree.criterion.regression:  # scikit-learn's impurity is the mean squared error: N_t/N · SSE_t/N_t
        return lambda node: resubstitution(node) / total

    def impurity_risk(node):
        i = node.impurity
        return Fraction(0) if i is None else i * (Fraction(node.n) / total)

    return impurity_risk


def pruning_path(tree, risk: str = "rpart") -> PruningPath:
    """The weakest-link sequence of ``tree`` as it stands (not changed)."""
    of = _risk_function(tree, risk)
    nodes = list(tree.root.walk())  # pre-order, left first
    r = {id(n): of(n) for n in nodes}
    branch, leaves = {}, {}
    for n in reversed(nodes):
        if n.split is None:
            branch[id(n)], leaves[id(n)] = r[id(n)], 1
        else:
            branch[id(n)] = sum((branch[id(c)] for c in n.children[1:]), branch[id(n.children[0])])
            leaves[id(n)] = sum(leaves[id(c)] for c in n.children)
    root = tree.root
    t0_leaves, t0_risk = leaves[id(root)], branch[id(root)]

    def alpha(n):
        return (r[id(n)] - branch[id(n)]) / (leaves[id(n)] - 1)

    g = {id(n): alpha(n) for n in nodes if n.split is not None}
    alive = [n for n in nodes if n.split is not None]
    cuts = []  # (alpha, link, leaves after, risk after)
    while g:
        best = None
        for n in alive:  # pre-order: the first of least alpha, as scikit-learn
            a = g.get(id(n))
            if a is not None and (best is None or a < best[1]):
                best = (n, a)
        n, a = best
        link = WeakestLink(n, r[id(n)], branch[id(n)], leaves[id(n)], a)
        gained, lost = r[id(n)] - branch[id(n)], leaves[id(n)] - 1
        for d in n.walk():
            g.pop(id(d), None)
        branch[id(n)], leaves[id(n)] = r[id(n)], 1
        up = n.parent
        while up is not None:
            branch[id(up)] = branch[id(up)] + gained
            leaves[id(up)] -= lost
            g[id(up)] = alpha(up)
            up = up.parent
        cuts.append((a, link, leaves[id(root)], branch[id(root)]))
    steps = []
    for a, link, n_leaves, risk_after in cuts:
        if steps and steps[-1][0] == a:
            steps[-1][1].append(link)
            steps[-1][2:] = [n_leaves, risk_after]
        else:
            steps.append([a, [link], n_leaves, risk_after])
    described = RISKS[risk][tree.criterion.regression]
    if risk == "rpart" and getattr(tree.criterion, "risk_name", None):  # Poisson, exp: the deviance
        described = f"{tree.criterion.risk_name} (rpart's risk)"
    return PruningPath(tree, risk, described, r[id(root)], t0_leaves, t0_risk,
                       tuple(PruningStep(a, tuple(links), nl, ra) for a, links, nl, ra in steps))


def _alpha_of(path, *, alpha=None, cp=None):
    if (alpha is None) == (cp is None):
        raise InfotreeError("cost-complexity pruning needs exactly one of alpha (absolute) and cp (alpha / R(root))")
    name, value = ("alpha", alpha) if alpha is not None else ("cp", cp)
    try:
        q = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (TypeError, ValueError):
        raise InfotreeError(f"{name} {value!r} is not a number; give a non-negative rational such as 1/100") from None
    if q < 0:
        raise InfotreeError(f"{name} {value} is not allowed; give a non-negative rational")
    return q if alpha is not None else q * path.root_risk


def prune(tree, *, alpha=None, cp=None, risk: str = "rpart", path: PruningPath | None = None) -> PruningPath:
    """Prune ``tree`` in place to the smallest subtree minimising R(T) + α·|leaves(T)|:
    every weakest link of α ≤ ``alpha`` (or ≤ ``cp``·R(root)) is cut.  Each internal node
    of T0 keeps a :class:`~infotree.records.CostComplexity` record.  Returns T0's path."""
    path = pruning_path(tree, risk) if path is None else path
    a = _alpha_of(path, alpha=alpha, cp=cp)
    own = {id(link.node): link for step in path.steps for link in step.links}

    def visit(node, cut_by):
        if node.split is None:
            return
        link = own.get(id(node), cut_by)
        if link.alpha <= a:
            node.pruned = CostComplexity("collapsed", a, link)
            node.make_leaf("cost_complexity")
            return
        node.pruned = CostComplexity("kept", a, link)
        for c in node.children:
            visit(c, link)

    visit(tree.root, None)
    return path


def prune_grown(tree, data, *, alpha=None, cp=None, select=None, risk="rpart", folds=10, seed=0, grown_cp=None,
                regrow=None, sequence="weakest-link", weights=None) -> PruningPath:
    """``build_tree(prune="cost-complexity")``: prune at ``alpha``, at ``cp``·R(root), or at
    the row of the cp table (folds from ``seed``) the rule ``select`` picks; ``sequence``
    ``"rpart"`` cuts the nodes of rpart's complexity at most α instead (``prune.rpart``)."""
    if sequence not in SEQUENCES:
        raise InfotreeError(f"sequence {sequence!r} is not allowed; allowed: {', '.join(SEQUENCES)}")
    if sequence == "rpart" and risk != "rpart":
        raise InfotreeError(f"rpart's sequence is of rpart's risk, not risk {risk!r}")
    given = [k for k, v in (("alpha", alpha), ("cp", cp), ("select", select)) if v is not None]
    if len(given) != 1:
        raise InfotreeError("cost-complexity pruning needs exactly one of alpha, cp and select "
                            f"(given: {', '.join(given) or 'none'})")
    if select is None:
        if sequence == "rpart":
            path = pruning_path(tree, risk)
            _prune_rpart(tree, _alpha_of(path, alpha=alpha, cp=cp))
            return path
        return prune(tree, alpha=alpha, cp=cp, risk=risk)
    if select not in SELECTIONS:
        raise InfotreeError(f"select {select!r} is not allowed; allowed: {', '.join(SELECTIONS)}")
    if risk != "rpart":
        raise InfotreeError("selecting by cross-validation uses rpart's cp table (risk 'rpart'), not risk "
                            f"{risk!r}")
    table = cp_table(tree, cp=grown_cp, data=data, grow=regrow, folds=folds, seed=seed, sequence=sequence,
                     weights=weights)
    if sequence == "rpart":
        _prune_rpart(tree, choose(table, select).alpha)
        return table.path
    return prune(tree, alpha=choose(table, select).alpha, path=table.path)


def _prune_rpart(tree, alpha) -> None:
    """R's ``prune.rpart``: every node of rpart's (capped) complexity at most α is cut."""
    fixed = rpart_complexities(tree)

    def visit(node):
        if node.split is None:
            return
        if fixed[id(node)] <= alpha:
            r = node.pruned
            node.pruned = Complexity("collapsed", r.risk, r.bound, alpha, fixed[id(node)], r.subtree_risk, r.splits)
            node.make_leaf("cp")
            return
        for c in node.children:
            visit(c)

    visit(tree.root)


def node_path(tree, codes, seen=None, tie=None) -> list:
    """The nodes one row (codes as :meth:`Tree._codes` makes them) passes, root first; it
    ends at a leaf or at the node where the row stays (a missing value nothing routes).

    ``seen`` asks for rpart's own routing (``branch.c``), which differs from infotree's
    prediction in two places: a value equal to a threshold goes to the high side
    (rpart tests ``x < t``, infotree ``x <= t``; training values never equal a midpoint,
    held-out ones can), and a value of a subset split's feature that the node's training
    rows never had (absent from ``seen[id(node)]``) counts as missing (surrogates, then
    the majority), where infotree sends it right.  ``tie="right"`` is rpart's cross-validation
    (``branch.c``): a row that no surrogate routes at a node whose majority is a tie goes to
    rpart's right son (``predict`` leaves it at the node, as infotree does by default).
    """
    node, out = tree.root, [tree.root]
    use = tree.params.get("use_surrogate", 2)
    while node.split is not None:
        if seen is None:
            child = tree._child(node, codes)
        else:
            d = _rpart_branch(node, node.test, codes[node.split] if tree._known(codes[node.split]) is not None
                              else None, seen)
            child = None if d is None else node.children[d]
        if child is None and tree.criterion.missing is SURROGATES:
            if seen is None:
                d, _ = SURROGATES.route(node, lambda j: tree._known(codes[j]), use)
            else:
                d = next((x for x in (_rpart_surrogate(s, tree._known(codes[s.index])) for s in node.surrogates)
                          if x is not None) if use >= 1 else None, None)
                if d is None and use == 2:
                    d = node.majority
                    if d is None and tie == "right":  # branch.c: lastsurrogate 0 is not LEFT
                        from .grow.reference import ReferenceBuilder

                        d = 1 - ReferenceBuilder.rpart_left(node)
            if d is None:
                break
            child = node.children[d]
        elif child is None or (not hasattr(child, "split")):
            break
        node = child
        out.append(node)
    return out


def _rpart_branch(node, test, value, seen):
    """rpart's direction of a known primary value (None: treat as missing)."""
    if value is None:
        return None
    if isinstance(test, SubsetSplit):
        return test.route(value) if value in seen.get(id(node), ()) else None
    return 1 if value == test.threshold else test.route(value)


def _rpart_surrogate(s, value):
    """rpart's direction from a surrogate: a value on its threshold goes with the high side."""
    if value is None:
        return None
    if s.sides is not None and value == s.test.threshold:
        return s.sides[1]
    return s.direction(value)


def _cut_alphas(path) -> dict:
    """id(node) -> the α at which the sequence cuts the node (its own, or its ancestor's)."""
    out = {}

    def visit(node, inherited, own):
        a = own.get(id(node), inherited)
        out[id(node)] = a
        for c in node.children:
            visit(c, a, own)

    own = {id(link.node): link.alpha for step in path.steps for link in step.links}
    visit(path.tree.root, None, own)
    return out


def _loss(tree, node, y, exposure=None):
    """A held-out row's loss at ``node`` (rpart's ``rp_error``): 0/1 misclassification, or
    (regression) the squared error (y − ȳ)²; ``y`` is a target code (Poisson, exp: the
    row's deviance at the node's rate, ``exposure`` its exposure)."""
    if exposure is not None:
        return tree.criterion.loss_of_row(tree.values[y], exposure, tree._leaf_of(node).mean)
    if tree.criterion.regression:
        return (tree.values[y] - tree._leaf_of(node).mean) ** 2
    return tree.criterion.loss_of(y, node.label)


SEQUENCES = ("weakest-link", "rpart")


def rpart_complexities(tree) -> dict:
    """id(node) -> rpart's complexity of every internal node: the value ``partition.c`` set
    (kept in the node's :class:`~infotree.records.Complexity` record by
    :func:`infotree.prune.cp_prune`), capped by its ancestors' as ``fix_cp`` and
    ``make_cp_list`` do.  rpart computes it bottom-up assuming that a child's branch is
    cut before its parent when the child's own value is smaller; when a node's value
    below is larger than an ancestor's exact weakest-link α it differs from the exact
    sequence (``docs/cost_complexity.md``)."""
    out = {}
    stack = [(tree.root, None)]
    while stack:
        node, cap = stack.pop()
        if node.split is None:
            continue
        r = node.pruned
        if not isinstance(r, Complexity) or r.action != "kept":
            raise InfotreeError("rpart's sequence needs a tree grown with rpart's cp rule (build_tree(cp=...)); "
                                "this node has no cp record: " + node.describe_path())
        c = r.complexity if cap is None else min(r.complexity, cap)
        out[id(node)] = c
        stack.extend((ch, c) for ch in node.children)
    return out


def _subtree_rows(tree, complexity, values):
    """(nsplit + 1, risk) of the subtree whose internal nodes have complexity > x, per x."""
    out = []
    for x in values:
        leaves, risk = 0, Fraction(0)
        stack = [tree.root]
        while stack:
            n = stack.pop()
            c = complexity.get(id(n))
            if c is not None and c > x:
                stack.extend(n.children)
            else:
                leaves += 1
                risk += resubstitution(n)
        out.append((leaves, risk))
    return out


def cp_table(tree, *, cp=0, data=None, grow=None, folds=None, seed=0, sequence="weakest-link",
             weights=None) -> CpTable:
    """rpart's cp table of ``tree`` (grown with rpart's cp rule at ``cp``), exactly.

    ``sequence``: ``"weakest-link"``, the exact sequence of :func:`pruning_path`, or
    ``"rpart"``, rpart's own bookkeeping (:func:`rpart_complexities`; ``printcp``'s rows
    to the last digit).  The table says whether the other one differs (``other``).
    With ``folds`` (and ``data``, the rows ``tree`` was grown on, and ``grow``, a
    function from (a subset Dataset, its absolute α) to a tree grown as ``tree`` was,
    see :func:`infotree.growing.fold_grower`), the xerror and xstd columns by rpart's
    cross-validation on the folds of :func:`infotree.folds.assign` (``seed``), or on
    given folds (one fold id per row, or a scikit-learn splitter: ``seed`` is then
    None in the table), and the rows the least xerror and the 1-SE rule pick.
    ``weights``: the sample weights ``tree`` was grown with (rpart's xval with weights).
    """
    if sequence not in SEQUENCES:
        raise InfotreeError(f"sequence {sequence!r} is not allowed; allowed: {', '.join(SEQUENCES)}")
    path = pruning_path(tree, "rpart")
    r0 = path.root_risk
    if not r0:
        raise InfotreeError("the root has risk 0 (every row is of one class, or one value): there is nothing "
                            "to prune and rpart's cp table divides by R(root)")
    cp = Fraction(cp or 0)
    floor = cp * r0
    tables = {"weakest-link": _weakest_link_rows(path, floor)}
    if tree.root.split is None or isinstance(tree.root.pruned, Complexity):
        tables["rpart"] = _rpart_rows(tree, floor)
    elif sequence == "rpart":
        rpart_complexities(tree)  # its one-line error
    rows = tables[sequence]
    other = next((t for k, t in tables.items() if k != sequence), None)
    if other is not None and [(n, r) for _, (n, r) in other] == [(n, r) for _, (n, r) in rows] and \
            [a for a, _ in other] == [a for a, _ in rows]:
        other = None
    xerr = xstd = None
    best = one_se = None
    if folds is not None:
        if data is None or grow is None:
            raise InfotreeError("cross-validation needs the data the tree was grown on and a way to grow it")
        complexity_of = rpart_complexities if sequence == "rpart" else lambda t: _cut_alphas(pruning_path(t, "rpart"))
        from .folds import resolve

        fold, folds, given = resolve(np.asarray(data.y), folds, seed, stratify=not tree.criterion.regression)
        if given:
            seed = None
        xerr, xstd = _cross_validate(tree, data, grow, [a for a, _ in rows], floor, fold, folds, r0, complexity_of,
                                     sequence == "rpart", weights)
        least = min(xerr)
        best = xerr.index(least)
        limit_sq = xstd[best].square
        one_se = next(i for i, x in enumerate(xerr) if x <= least or (x - least) ** 2 <= limit_sq)
    out = []
    for i, (a, (n_leaves, risk)) in enumerate(rows):
        out.append(CpRow(a / r0, n_leaves - 1, risk / r0, a,
                         None if xerr is None else xerr[i], None if xstd is None else xstd[i]))
    other_rows = None if other is None else tuple(CpRow(a / r0, n - 1, r / r0, a) for a, (n, r) in other)
    return CpTable(tuple(out), path, cp, folds, seed if folds is not None else None, best, one_se, sequence,
                   other_rows)


def _weakest_link_rows(path, floor):
    """(alpha, (leaves, risk)) root first: the sequence's trees, each with its lower alpha."""
    # Links of alpha <= cp·R(root) are in T0 already (rpart never keeps them).
    steps = [s for s in path.steps if s.alpha > floor]
    base = [s for s in path.steps if s.alpha <= floor]
    leaves0, risk0 = (base[-1].leaves, base[-1].risk) if base else (path.leaves, path.tree_risk)
    trees = [(leaves0, risk0)] + [(s.leaves, s.risk) for s in steps]
    alphas = [floor] + [s.alpha for s in steps]
    return [(alphas[k], trees[k]) for k in range(len(trees))][::-1]


def _rpart_rows(tree, floor):
    """rpart's rows (``make_cp_list``, ``make_cp_table``): every distinct capped complexity,
    largest first, then α; each with the subtree whose nodes of larger complexity are kept."""
    fixed = rpart_complexities(tree)
    values = sorted(set(fixed.values()), reverse=True)
    values = [v for v in values if v > floor] + [floor]
    if tree.root.split is None:
        values = [floor]
    return list(zip(values, _subtree_rows(tree, fixed, values)))


def _cross_validate(tree, data, grow, alphas, floor, fold, k, r0, complexity_of, rpart_rules, weights):
    """rpart's xval: (xerror, xstd) per row of the table (root first), on the folds ``fold``
    (1..k per row); ``weights``: the rows' sample weights (None: 1 each), which scale α by
    the weight kept and weigh each held-out row's loss (``xval.c``)."""
    from .progress import steps

    y = np.asarray(data.y)
    # rpart's thresholds, as squares: (10·c_0)², then c_{i-1}·c_i.
    squares = [100 * alphas[0] ** 2] + [alphas[i - 1] * alphas[i] for i in range(1, len(alphas))]
    wts = [Fraction(1)] * len(y) if weights is None else list(weights)
    expo = None
    if getattr(tree.criterion, "counts_events", False):  # Poisson, exp: each row's exposure (1 when none)
        expo = tree.exposure if tree.exposure is not None else [Fraction(1)] * len(y)
    n = sum(wts, Fraction(0))
    total = [Fraction(0)] * len(alphas)
    total_sq = [Fraction(0)] * len(alphas)
    for f in steps(range(1, k + 1), "cp table: cross-validation fold"):
        train = np.flatnonzero(fold != f)
        test = np.flatnonzero(fold == f)
        if not len(test):
            continue
        w = sum((wts[r] for r in train.tolist()), Fraction(0)) / n
        extra = {} if expo is None else {"exposure": [expo[r] for r in train.tolist()]}
        if weights is not None:
            extra["sample_weight"] = [wts[r] for r in train.tolist()]
        sub = grow(data.subset(train), floor * w, **extra)
        cut = complexity_of(sub)
        held = data.subset(test)
        codes = sub._codes(held, "majority")
        seen = None
        if rpart_rules:
            seen = {}
            for c in sub._codes(data.subset(train), "majority"):
                for node in node_path(sub, c):
                    if isinstance(node.test, SubsetSplit) and sub._known(c[node.split]) is not None:
                        seen.setdefault(id(node), set()).add(c[node.split])
        limits = [w * w * s for s in squares]  # (w·threshold)²
        cut_sq = {}  # the products below are costly for Poisson deviances: each made once per fold
        for c, yv, wt, t in zip(codes, np.asarray(held.y).tolist(), [wts[r] for r in test.tolist()],
                                [None if expo is None else expo[r] for r in test.tolist()]):
            visited = node_path(sub, c, seen, tie="right" if rpart_rules else None)
            losses = {}
            for i, limit in enumerate(limits):
                at = visited[-1]
                for node in visited:
                    a = cut.get(id(node))
                    if node.split is None or a is None:
                        at = node
                        break
                    a2 = cut_sq.get(id(node))
                    if a2 is None:
                        a2 = cut_sq[id(node)] = a * a
                    if not limit < a2:
                        at = node
                        break
                got = losses.get(id(at))
                if got is None:
                    loss = _loss(sub, at, yv, t)
                    got = losses[id(at)] = (wt * loss, wt * loss * loss)
                total[i] += got[0]
                total_sq[i] += got[1]
    xerr = [t / r0 for t in total]
    root = SquareRoot if isinstance(r0, Fraction) else LnRoot  # a Poisson deviance: logarithms
    xstd = [root((sq - t * t / n) / (r0 * r0)) for t, sq in zip(total, total_sq)]
    return xerr, xstd


def choose(table: CpTable, rule: str) -> CpRow:
    """The row the least-xerror rule (``"min"``) or the 1-SE rule (``"1se"``) picks."""
    if rule not in SELECTIONS:
        raise InfotreeError(f"select {rule!r} is not allowed; allowed: {', '.join(SELECTIONS)}")
    if table.folds is None:
        raise InfotreeError("selecting by cross-validation needs folds (--folds K)")
    return table.rows[table.best if rule == "min" else table.one_se]
