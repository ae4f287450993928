"""Compiled loops of the fast CART builder: in C (``_loops.c``, loaded by ctypes from
:mod:`~infotree.grow.cloops`, built at install where a C compiler is found) or numba's
(the optional extra ``infotree[fast]``) compiling the functions of this module.

numpy scores a depth's cuts in a dozen whole-array passes (cumulative counts, gathers,
the float improvement, a segment maximum); a compiled loop walks each node's sorted
segment once or twice and hands back only the cuts that may be the node's best: those
whose float improvement is within its certified bound of the node's float maximum
(``_first_best``'s candidates).  The exact decisions stay in Python, on those
candidates, so the tree and its records are the numpy path's (``tests/test_kernels.py``
grows all of them).  The float arithmetic is the criterion's own formula in the same order, so
the criterion's ``improvement_error`` bounds it as it bounds numpy's.

The functions here are the loops' definition: numba compiles them as they are, and the C
library follows them line for line.  The C library is taken first: numba costs a fit about
110 MiB of resident memory (LLVM) and half a second to load in a new process; C neither.

C's loops run on data of any size (a 20-row tree grows in a quarter of the numpy path's
time); numba's on data of :data:`MIN_CELLS` values (rows × numeric columns) or more, where
they pay for loading numba.  Without either, on smaller data with numba, or with
``INFOTREE_KERNELS=numpy`` in the environment (or :func:`use`), the builder takes the numpy
path; ``INFOTREE_KERNELS=numba`` or ``c`` picks one.

A forest grown with the loops also takes them for its feature draws (``draw_all``, in
:mod:`~infotree.grow.streams`, and ``_draws.c``); its nodes' cuts are the drawn features'
only (``cuts_all``'s ``want``, in C).
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np

from . import cloops, streams

__all__ = ["EXACT_GINI_ROWS", "MIN_CELLS", "active", "backends", "blake2b8", "child_stats", "children", "cuts_all",
           "directions", "draw_all",
           "gini_cuts", "load", "loaded", "regression_cuts", "regroup", "regroup_all",
           "surrogate_cuts_all", "use"]

#: values (rows × numeric columns) from which the fast CART builder takes numba's loops
#: (C's, at any size: loading them costs nothing)
MIN_CELLS = 200_000


def backends() -> tuple:
    """The compiled loops this installation has, the preferred first: "c", "numba"."""
    found = ("c",) if cloops.available() else ()
    # found, not imported: importing numba takes 0.3 s and 52 MiB
    return found + (("numba",) if importlib.util.find_spec("numba") is not None else ())


_found = backends()
_installed = bool(_found)
_asked = os.environ.get("INFOTREE_KERNELS", "")
_backend = _asked if _asked in _found else (_found or ("numpy",))[0]
_on = _installed and _asked != "numpy"
_tables: dict = {}    # a backend's entry points, once loaded
_bound = None         # the backend whose entry points this module's names are


def use(on):
    """Turn the compiled loops on (True: the preferred backend; or "c", "numba") or off;
    the previous setting (False, or the backend that was on), which use() takes back."""
    global _on, _backend
    was = _on and _backend
    if on in _found:
        _backend = on
    _on = bool(on) and _installed
    return was


def active(cells: int) -> bool:
    """Whether a fit of this many values (rows × numeric columns) takes the compiled loops
    (loaded if so)."""
    if not _on or (_backend == "numba" and cells < MIN_CELLS):
        return False
    load()
    return True


def loaded() -> bool:
    """Whether the loops are on and loaded, or cost nothing to load (C): work that would not
    pay for loading numba (a forest's draws) takes them then."""
    if _on and _backend == "c":
        load()
    return _on and _bound == _backend


def load() -> None:
    """Bind this module's entry points to the backend's loops; numba's are compiled (or
    loaded from its cache) the first time, the helpers first, as the loops calling them are
    compiled when first called and read them from this module then."""
    global _bound
    if _bound == _backend:
        return
    if _backend not in _tables:
        if _backend == "c":
            _tables["c"] = {name: getattr(cloops, name) for name in _ENTRIES}
        else:
            import numba

            for space, source, inline, loops in ((vars(streams), streams.__dict__, streams._INLINE, streams._LOOPS),
                                                 (globals(), _PYTHON, _INLINE, _LOOPS)):
                for name in inline:
                    space[name] = numba.njit(cache=True, nogil=True, inline="always")(source[name])
                for name in loops:
                    space[name] = numba.njit(cache=True, nogil=True)(source[name])
            compiled = {name: globals()[name] for name in _LOOPS}
            compiled.update(gini_cuts=compiled["_gini_cuts"], regression_cuts=compiled["_regression_cuts"],
                            blake2b8=streams.blake2b8, draw_all=streams.draw_all)
            _tables["numba"] = {name: compiled[name] for name in _ENTRIES}
    globals().update(_tables[_backend])
    _bound = _backend


# A regression decrease's relative bound: d is exact; a square, a product and a division round.
_EPS48 = 2.0 ** -48


def _gini_n_impurity(c, nc, n):
    """n − Σc²/n in floats, the sum in class order as Gini.n_impurity_floats."""
    sq = float(c[0]) * float(c[0])
    for i in range(1, nc):
        sq += float(c[i]) * float(c[i])
    return n - sq / n


def _regression_step(order, y, i, nl, SL, QL):
    """Row i of a sorted segment added to the left side's (n, Σy, Σy²)."""
    yi = np.int64(y[order[i]])
    return nl + 1, SL + yi, QL + yi * yi


def _cut_after(v, i, nl, kn, min_leaf):
    """Whether a cut may follow row i: the next value differs and each side keeps min_leaf."""
    return v[i] != v[i + 1] and nl >= min_leaf and kn - nl >= min_leaf


def _gini_cuts(order, y, w, weighted, v, starts, ends, CC, min_leaf, has_missing, out, exact_rows):
    """Every node's Gini cuts along a feature's sorted segments (node k: the rows
    order[starts[k]:ends[k]], sorted by value, a known value first; v: their value codes;
    y: every row's class, w: its multiplicity, read when ``weighted``; CC: the nodes'
    class counts, all rows).

    ``out``: the depth's arrays of this feature (has, tried, L, R, lo, hi, imp, bnd: see
    ``_Level``), written for every node with a cut but its best cut's where several cuts
    may be the best in a node of more than ``exact_rows`` (weighted) rows.  Returns the
    known rows' class counts and those cuts (position of the last row left of the cut,
    node, float improvement, bound, left counts) for Python's exact decision.  A node's
    cuts are scored in one pass; a second reads the scores back to count the cuts within
    the bound of the best (one, nearly always), and a third, where there are several,
    decides among them exactly in a node of ``exact_rows`` rows or fewer."""
    has, tried, Lj, Rj, lo, hi, imp, bnd_j = out
    K, nc = CC.shape
    P = CC.copy()
    best_L = np.zeros(nc, np.int64)
    pos = np.empty(0, np.int64)
    node = np.empty(0, np.int64)
    val = np.empty(0, np.float64)
    bnd = np.empty(0, np.float64)
    Lout = np.empty((0, nc), np.int64)
    m = 0
    scratch = np.empty(len(order), np.float64)
    L = np.zeros(nc, np.int64)
    R = np.zeros(nc, np.int64)
    for k in range(K):
        s, e = starts[k], ends[k]
        ke = e
        if has_missing:  # the known rows' counts
            for a in range(nc):
                P[k, a] = 0
            for i in range(s, e):
                if v[i] < 0:
                    ke = i
                    break
                r = order[i]
                P[k, y[r]] += w[r] if weighted else 1
        if ke - s < 2:
            continue
        kn = 0
        for a in range(nc):
            kn += P[k, a]
        n = float(kn)
        sq = 0.0
        for a in range(nc):
            L[a] = 0
            sq += float(P[k, a]) * float(P[k, a])
        vp = n - sq / n
        b = 2.0 ** -47 * n
        top, best = -np.inf, -1
        count = 0
        nl = 0
        for i in range(s, ke - 1):
            r = order[i]
            c = w[r] if weighted else 1
            L[y[r]] += c
            nl += c
            if not _cut_after(v, i, nl, kn, min_leaf):
                continue
            for a in range(nc):
                R[a] = P[k, a] - L[a]
            x = vp - _gini_n_impurity(L, nc, float(nl)) - _gini_n_impurity(R, nc, n - float(nl))
            scratch[count] = x
            count += 1
            if x > top:  # the first best, kept in case it is the only candidate
                top, best = x, i
                for a in range(nc):
                    best_L[a] = L[a]
        if not count:
            continue
        has[k], tried[k] = True, count
        floor = top - b
        near = 0
        for t in range(count):
            if scratch[t] + b >= floor:
                near += 1
        if near < 2:
            for a in range(nc):
                Lj[k, a], Rj[k, a] = best_L[a], P[k, a] - best_L[a]
            lo[k], hi[k], imp[k], bnd_j[k] = v[best], v[best + 1], top, b
            continue
        exact = kn <= exact_rows
        if not exact and m + near > len(pos):
            pos, node, val, bnd, Lout = _grown(pos, node, val, bnd, Lout, m + near)
        for a in range(nc):
            L[a] = 0
        nl = 0
        t = 0
        best_num, best_den = np.int64(-1), np.int64(1)
        for i in range(s, ke - 1):
            r = order[i]
            c = w[r] if weighted else 1
            L[y[r]] += c
            nl += c
            if not _cut_after(v, i, nl, kn, min_leaf):
                continue
            x = scratch[t]
            t += 1
            if x + b < floor:
                continue
            if not exact:  # for Python's exact decision
                pos[m], node[m], val[m], bnd[m] = i, k, x, b
                for a in range(nc):
                    Lout[m, a] = L[a]
                m += 1
                continue
            # The improvement is Σ_L c²/n_L + Σ_R c²/n_R less the node's own (the same for
            # every cut): num/den with num = S_L·n_R + S_R·n_L, den = n_L·n_R, compared
            # crosswise in int64 (below 2^63 for nodes of EXACT_GINI_ROWS or fewer);
            # the first in cut order wins a tie, as _first_best's.
            nr = kn - nl
            sl = np.int64(0)
            sr = np.int64(0)
            for a in range(nc):
                sl += L[a] * L[a]
                sr += (P[k, a] - L[a]) * (P[k, a] - L[a])
            num, den = sl * nr + sr * nl, nl * nr
            if best_num < 0 or num * best_den > best_num * den:
                best_num, best_den, best, top = num, den, i, x
                for a in range(nc):
                    best_L[a] = L[a]
        if exact:
            for a in range(nc):
                Lj[k, a], Rj[k, a] = best_L[a], P[k, a] - best_L[a]
            lo[k], hi[k], imp[k], bnd_j[k] = v[best], v[best + 1], top, b
    return P, pos[:m], node[:m], val[:m], bnd[:m], Lout[:m]


#: the Gini loop decides a node's near-tied cuts itself, in int64, up to this many (weighted)
#: rows (the cross products num·den are at most n^5/16 < 2^63); above it, or at 0, Python does
#: (the near ties of small nodes' cuts, most of a forest's, are not handed back)
EXACT_GINI_ROWS = 10_000


def _regression_cuts(order, y, v, starts, ends, CC, min_leaf, has_missing, out):
    """regression's gini_cuts: a cut's decrease d² / (n_L·n_R·n), d = S_L·n_R − S_R·n_L an
    exact integer (y: every row's scaled integer target); the statistics of a side are
    (n, S, Q)."""
    has, tried, Lj, Rj, lo, hi, imp, bnd_j = out
    K = len(starts)
    P = CC.copy()
    pos = np.empty(0, np.int64)
    node = np.empty(0, np.int64)
    val = np.empty(0, np.float64)
    bnd = np.empty(0, np.float64)
    Lout = np.empty((0, 3), np.int64)
    m = 0
    scratch = np.empty(len(order), np.float64)
    for k in range(K):
        s, e = starts[k], ends[k]
        ke = e
        if has_missing:  # the known rows' statistics
            kn, S, Q = 0, 0, 0
            for i in range(s, e):
                if v[i] < 0:
                    ke = i
                    break
                yi = np.int64(y[order[i]])
                kn += 1
                S += yi
                Q += yi * yi
            P[k, 0], P[k, 1], P[k, 2] = kn, S, Q
        if ke - s < 2:
            continue
        kn, S = P[k, 0], P[k, 1]
        top, best, bn, bS, bQ = -np.inf, -1, 0, 0, 0
        count = 0
        nl, SL, QL = 0, 0, 0
        for i in range(s, ke - 1):
            nl, SL, QL = _regression_step(order, y, i, nl, SL, QL)
            if not _cut_after(v, i, nl, kn, min_leaf):
                continue
            nr = kn - nl
            d = float(SL * nr - (S - SL) * nl)
            x = d * d / (float(nl) * float(nr) * float(kn))
            scratch[count] = x
            count += 1
            if x > top:  # the first best, kept in case it is the only candidate
                top, best, bn, bS, bQ = x, i, nl, SL, QL
        if not count:
            continue
        has[k], tried[k] = True, count
        floor = top - _EPS48 * top
        near = 0
        for t in range(count):
            if scratch[t] + _EPS48 * scratch[t] >= floor:
                near += 1
        if near < 2:
            Lj[k, 0], Lj[k, 1], Lj[k, 2] = bn, bS, bQ
            Rj[k, 0], Rj[k, 1], Rj[k, 2] = P[k, 0] - bn, P[k, 1] - bS, P[k, 2] - bQ
            lo[k], hi[k], imp[k], bnd_j[k] = v[best], v[best + 1], top, _EPS48 * top
            continue
        if m + near > len(pos):
            pos, node, val, bnd, Lout = _grown(pos, node, val, bnd, Lout, m + near)
        nl, SL, QL = 0, 0, 0
        t = 0
        for i in range(s, ke - 1):
            nl, SL, QL = _regression_step(order, y, i, nl, SL, QL)
            if not _cut_after(v, i, nl, kn, min_leaf):
                continue
            x = scratch[t]
            t += 1
            if x + _EPS48 * x >= floor:
                pos[m], node[m], val[m], bnd[m] = i, k, x, _EPS48 * x
                Lout[m, 0], Lout[m, 1], Lout[m, 2] = nl, SL, QL
                m += 1
    return P, pos[:m], node[:m], val[:m], bnd[:m], Lout[:m]


def _grown(pos, node, val, bnd, Lout, need):
    """The candidate buffers, at least ``need`` long (doubled), their items kept."""
    size = max(need, 2 * len(pos), 64)
    p2, n2, v2, b2 = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size), np.empty(size)
    L2 = np.empty((size, Lout.shape[1]), np.int64)
    m = len(pos)
    p2[:m], n2[:m], v2[:m], b2[:m], L2[:m] = pos, node, val, bnd, Lout
    return p2, n2, v2, b2, L2


def _surrogate_cuts(order, fdir, v, starts, ends, want, T, has_missing):
    """Each node's best surrogate cut along a numeric feature's sorted segments (node k:
    the rows order[starts[k]:ends[k]]; fdir: every row's primary direction in rpart's
    orientation, −1 none): the first cut of most agreement with each side holding two
    directed rows, kept when it beats the majority.  T: each node's directed rows by
    direction (K × 2), counted here among the rows with the value known if some are
    missing.  Returns per node: directed rows with the value known, the larger direction
    of them, whether a surrogate was found, its agreement, its position and whether its
    low side goes right."""
    K = len(starts)
    both = np.zeros(K, np.int64)
    most = np.zeros(K, np.int64)
    found = np.zeros(K, np.bool_)
    agree = np.zeros(K, np.int64)
    at = np.zeros(K, np.int64)
    low_right = np.zeros(K, np.bool_)
    for k in range(K):
        s, e = starts[k], ends[k]
        T0, T1 = T[k, 0], T[k, 1]
        if has_missing:
            T0, T1 = 0, 0
            for i in range(s, e):
                if v[i] < 0:
                    break
                d = fdir[order[i]]
                if d == 0:
                    T0 += 1
                elif d == 1:
                    T1 += 1
        both[k], most[k] = T0 + T1, max(T0, T1)
        if not want[k]:
            continue
        best, where, side = -1, -1, False
        lr, rr = 0, 0
        for i in range(s, e - 1):
            if has_missing and v[i + 1] < 0:  # the known values lead the segment
                break
            d = fdir[order[i]]
            if d == 0:
                lr += 1
            elif d == 1:
                rr += 1
            if v[i] == v[i + 1]:
                continue
            ll, rl = T0 - lr, T1 - rr
            if lr + rr >= 2 and ll + rl >= 2:
                A, B = ll + rr, lr + rl
                top = max(A, B)
                if top > best:
                    best, where, side = top, i, B > A
        if best > most[k]:
            found[k], agree[k], at[k], low_right[k] = True, best, where, side
    return both, most, found, agree, at, low_right


def regroup(order, new_id, starts, total, none):
    """The ``total`` rows of ``order`` that have a next node (new_id[row]; ``none``: no open
    node, dropped) grouped by it, stably, each group at its start: one counting pass where
    a stable argsort by node id made several."""
    at = starts.copy()
    out = np.empty(total, order.dtype)
    for i in range(len(order)):
        k = new_id[order[i]]
        if k != none:
            out[at[k]] = order[i]
            at[k] += 1
    return out


# -- a depth's numeric features in one call ----------------------------------------------
# O, V: one row per numeric feature (js[f]: its column) of the depth's rows sorted by value
# and their value codes.  A call's fixed cost (numba's dispatch on a dozen arguments, the
# Python around it) is paid once a depth, not once a depth and feature: 69,000 calls for a
# 10^4 x 10^3 tree.

def regroup_all(O, V, new_id, starts, total, none):
    """regroup of every row of O, each row's value codes (V) carried along: read in order
    here, they are not gathered by row at the next depth.  O and V are the caller's no more:
    C's loop writes the result in their memory."""
    F, n = O.shape
    On = np.empty((F, total), O.dtype)
    Vn = np.empty((F, total), V.dtype)
    at = starts.copy()
    for f in range(F):
        at[:] = starts
        for i in range(n):
            r = O[f, i]
            k = new_id[r]
            if k != none:
                On[f, at[k]] = r
                Vn[f, at[k]] = V[f, i]
                at[k] += 1
    return On, Vn


def _append(pos, node, feat, val, bnd, Lout, m, p, k, v, b, L, f):
    """The candidates of feature f (p, k, v, b, L) after the first m: the buffers, grown."""
    c = len(p)
    if m + c > len(pos):
        size = max(m + c, 2 * len(pos), 64)
        feat2 = np.empty(size, np.int64)
        feat2[:m] = feat[:m]
        feat = feat2
        pos, node, val, bnd, Lout = _grown(pos[:m], node[:m], val[:m], bnd[:m], Lout[:m], size)
    pos[m:m + c], node[m:m + c], val[m:m + c], bnd[m:m + c], Lout[m:m + c] = p, k, v, b, L
    feat[m:m + c] = f
    return pos, node, feat, val, bnd, Lout


def cuts_all(O, V, js, y, w, weighted, regression, starts, ends, CC, min_leaf, has_missing, has, tried, L, R, lo, hi,
             imp, bnd, exact_rows, want):
    """gini_cuts (``regression``: regression_cuts, y the scaled targets) of every numeric
    feature: the depth's arrays written at column js[f]; the known rows' counts or
    statistics per feature (F × K × their width) and the cuts to decide exactly, every
    feature's end to end with its position f.  ``want`` (nodes × features, or None): the
    features each node drew (a forest's); C skips the others, this loop scores them too
    (the builder keeps the drawn ones' only)."""
    F = len(js)
    K, nc = CC.shape
    Pall = np.empty((F, K, nc), np.int64)
    pos, node, feat = np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64)
    val, bd, Lout = np.empty(0, np.float64), np.empty(0, np.float64), np.empty((0, nc), np.int64)
    m = 0
    for f in range(F):
        j = js[f]
        out = (has[:, j], tried[:, j], L[:, j], R[:, j], lo[:, j], hi[:, j], imp[:, j], bnd[:, j])
        if regression:
            P, p, k, v, b, Lf = _regression_cuts(O[f], y, V[f], starts, ends, CC, min_leaf, has_missing, out)
        else:
            P, p, k, v, b, Lf = _gini_cuts(O[f], y, w, weighted, V[f], starts, ends, CC, min_leaf, has_missing, out,
                                           exact_rows)
        Pall[f] = P
        if len(p):
            pos, node, feat, val, bd, Lout = _append(pos, node, feat, val, bd, Lout, m, p, k, v, b, Lf, f)
            m += len(p)
    return Pall, pos[:m], node[:m], feat[:m], val[:m], bd[:m], Lout[:m]


def surrogate_cuts_all(O, V, fdir, starts, ends, want, T, has_missing):
    """surrogate_cuts of every numeric feature (want: nodes × features, in O's order): its
    results as features × nodes arrays."""
    F, K = O.shape[0], len(starts)
    both = np.zeros((F, K), np.int64)
    most = np.zeros((F, K), np.int64)
    found = np.zeros((F, K), np.bool_)
    agree = np.zeros((F, K), np.int64)
    at = np.zeros((F, K), np.int64)
    low_right = np.zeros((F, K), np.bool_)
    for f in range(F):
        both[f], most[f], found[f], agree[f], at[f], low_right[f] = _surrogate_cuts(
            O[f], fdir, V[f], starts, ends, want[:, f], T, has_missing)
    return both, most, found, agree, at, low_right


def child_stats(child, rows, yv, size):
    """Regression: each child's (n, Σy, Σy²) of scaled integer targets (child[i]: row
    rows[i]'s child, −1 none), in one pass."""
    block = np.zeros((size, 3), np.int64)
    for i in range(len(child)):
        c = child[i]
        if c >= 0:
            y = yv[rows[i]]
            block[c, 0] += 1
            block[c, 1] += y
            block[c, 2] += y * y
    return block


def directions(rows, nid, Xt, f_of, lo, mask, kind):
    """Each row's branch at its node's split (0 left, 1 right), or -1 where its node does not
    split (f_of[node] < 0), its value is missing, or its feature is a nominal one of more than
    62 values (kind 2, left to the caller): a numeric code (kind 0) against the cut's low
    rank, a nominal one's (kind 1) bit in the left set."""
    d = np.empty(len(rows), np.int64)
    for i in range(len(rows)):
        k = nid[i]
        f = f_of[k]
        out = -1
        if f >= 0:
            x = Xt[f, rows[i]]
            if x >= 0 and kind[f] == 0:
                out = 1 if x > lo[k] else 0
            elif x >= 0 and kind[f] == 1:
                out = 1 - ((mask[k] >> x) & 1)
        d[i] = out
    return d


def children(rows, nid, d, slot, y, w, weighted, nc, size):
    """Each row's child (2·slot of its node + its direction; -1: none) and the children's
    class counts (size × nc), a row counted w[row] times where weighted: one pass."""
    child = np.empty(len(rows), np.int64)
    block = np.zeros((size, nc), np.int64)
    for i in range(len(rows)):
        s = slot[nid[i]]
        c = -1
        if s >= 0 and d[i] >= 0:
            r = rows[i]
            c = 2 * s + d[i]
            block[c, y[r]] += w[r] if weighted else 1
        child[i] = c
    return child, block


_INLINE = ("_gini_n_impurity", "_regression_step", "_cut_after")
# The loops Python calls (a test spies on these), and those only the loops call.
_ENTRIES = ("gini_cuts", "regression_cuts", "regroup", "child_stats", "directions", "children", "regroup_all", "cuts_all",
            "surrogate_cuts_all", "draw_all", "blake2b8")
_LOOPS = ("_grown", "_append", "_gini_cuts", "_regression_cuts", "_surrogate_cuts", "regroup",
          "child_stats", "directions", "children", "regroup_all", "cuts_all", "surrogate_cuts_all")
_PYTHON = {name: globals()[name] for name in _INLINE + _LOOPS}   # what numba compiles
# One feature's cut loops, as Python calls them (a forest's drawn features) and as the depth's call them.
gini_cuts, regression_cuts = _gini_cuts, _regression_cuts
blake2b8, draw_all = streams.blake2b8, streams.draw_all   # the forest's draws (streams.py)
