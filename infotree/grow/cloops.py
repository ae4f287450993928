"""The compiled loops in C (``_loops.c``, ``_draws.c``), loaded by ctypes: the functions of
:mod:`~infotree.grow.kernels` that numba compiles, with their signatures and results.

setuptools builds the library at install where a C compiler is found (``setup.py``, an
optional extension: without one the install goes on and the builder takes numba's loops
or numpy's).  Loading it costs the process no measurable memory, where numba costs about
110 MiB; the loops take the same time (``benchmarks/c_kernel_probe.py``).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import warnings
from pathlib import Path

import numpy as np

__all__ = ["available", "blake2b8", "child_stats", "children", "cuts_all", "directions", "draw_all", "gini_cuts",
           "regression_cuts", "regroup", "regroup_all", "surrogate_cuts_all"]

_lib = None
_P, _I = ctypes.c_void_p, ctypes.c_int64
_C = ctypes.c_int
_SIGNATURES = {
    "cuts_all": (ctypes.c_int64, [_P, _C, _P, _C, _I, _I, _P, _P, _C, _P, _C, _P, _P, _I, _I, _P, _I, _C, _P, _P, _P, _P, _P,
                                  _P, _P, _P, _I, _I, _I, _P, _I, _P, _P, _P, _P, _P, _P, _P]),
    "surrogate_cuts_all": (None, [_P, _C, _P, _C, _I, _I, _P, _P, _P, _I, _P, _P, _C, _P, _P, _P, _P, _P, _P]),
    "regroup_all": (ctypes.c_int, [_P, _C, _P, _C, _I, _I, _P, _C, _P, _I, _I, _I, _P, _P]),
    "regroup_in_place": (ctypes.c_int, [_P, _C, _P, _C, _I, _I, _P, _C, _P, _I, _I, _I]),
    "child_stats": (None, [_P, _P, _I, _P, _P]),
    "directions": (None, [_P, _C, _P, _C, _I, _P, _I, _P, _P, _P, _P, _P]),
    "children": (None, [_P, _C, _P, _C, _I, _P, _P, _P, _C, _P, _C, _C, _I, _P, _P]),
    "blake2b8": (ctypes.c_uint64, [_P, _I]),
    "draw_all": (ctypes.c_int, [_P, _P, _P, _I, _I, _I, _P]),
}


def available() -> bool:
    """Whether the library was built (found, and loaded here on the first ask), and not
    before its source changed."""
    global _lib
    if _lib is None:
        spec = importlib.util.find_spec("infotree.grow._clib")
        if spec is None or not spec.origin:
            _lib = False
            return False
        try:
            lib = ctypes.CDLL(spec.origin)
        except OSError:
            _lib = False
            return False
        if _stale(lib, Path(spec.origin)):
            warnings.warn("infotree: the compiled C loops were built from other sources than those beside them "
                          "(pip install -e . builds them again); numba's or numpy's loops are used",
                          RuntimeWarning, stacklevel=2)
            _lib = False
            return False
        for name, (res, args) in _SIGNATURES.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _lib = lib
    return _lib is not False


_SOURCES = ("_loops.c", "_draws.c")


def _digest(folder: Path) -> str | None:
    """setup.py's digest of the C sources in ``folder`` (None where they are not: an installed package)."""
    paths = [folder / name for name in _SOURCES]
    if not all(p.exists() for p in paths):
        return None
    return hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()[:16]


def _stale(lib, library: Path) -> bool:
    """Whether the library was built from other sources than those beside it (a checkout
    installed in place, then edited or pulled): its functions could differ from the
    signatures here.  By content, not by time: a build within the second of an edit has
    an older time stamp than the edit (setuptools keeps whole seconds)."""
    beside = _digest(library.parent)
    if beside is None:
        return False
    try:
        f = lib.infotree_source
    except AttributeError:
        return True  # built before it carried a digest
    f.restype, f.argtypes = ctypes.c_char_p, []
    return f().decode() != beside


# Item sizes of the index and class arrays the loops read as they are (1: int8, 2: uint16,
# 4: int32, 8: int64); any other dtype is read as int64, converted.
_WIDTH = {np.dtype(np.int8): 1, np.dtype(np.uint16): 2, np.dtype(np.int32): 4, np.dtype(np.int64): 8}


def _ix(a):
    """An index array as the loops read it, and its width."""
    a = np.ascontiguousarray(a)
    w = _WIDTH.get(a.dtype)
    return (a, w) if w else (a.astype(np.int64), 8)


def _c(a, dtype):
    return np.ascontiguousarray(a, dtype)


def _p(a):
    return a.ctypes.data


def _check(status):
    if status < 0:
        raise MemoryError("the compiled loops could not allocate their scratch memory")
    return status


def _values(V):
    """Value codes as the loops read them: int16 or int32 (another dtype copied to int32)."""
    V = np.asarray(V)
    return V if V.dtype in (np.int16, np.int32) and V.flags.c_contiguous else _c(V, np.int32)


def _cuts(O, V, js, y, w, weighted, regression, starts, ends, CC, min_leaf, has_missing, arrays, exact_rows, want=None):
    """cuts_all's call: ``arrays`` the depth's (has, tried, L, R, lo, hi, imp, bnd), nodes
    along their first axis (whole, or a column's views), written in place."""
    O, wo = _ix(O)
    V = _values(V)
    y, wy = _ix(y)
    wv = _c(w, np.int64) if weighted else None
    starts, ends, CC, js = _c(starts, np.int64), _c(ends, np.int64), _c(CC, np.int64), _c(js, np.int64)
    want = None if want is None else _c(want, np.bool_)
    has, tried, L, R, lo, hi, imp, bnd = arrays
    K, nc = CC.shape
    F, n = O.shape
    s = has.strides[0]
    for a in (tried, lo, hi, imp, bnd):   # their items are 8 bytes, has's one
        if a.strides[0] != 8 * s or a.dtype.itemsize != 8:
            raise ValueError("the depth's arrays are laid out differently")
    if has.dtype != np.bool_ or L.strides[-1] != 8 or R.strides != L.strides or L.shape[-1] != nc:
        raise ValueError("the depth's arrays are laid out differently")
    sL = L.strides[0] // 8
    P = np.empty((F, K, nc), np.int64)
    cap = 64 + 4 * K
    while True:
        pos, node, feat = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64)
        val, bd, Lout = np.empty(cap), np.empty(cap), np.empty((cap, nc), np.int64)
        m = _check(_lib.cuts_all(_p(O), wo, _p(V), V.itemsize, F, n, _p(js), _p(y), wy, _p(wv) if weighted else None,
                                 bool(regression), _p(starts), _p(ends), K, nc, _p(CC), min_leaf, bool(has_missing),
                                 _p(has), _p(tried), _p(L), _p(R), _p(lo), _p(hi), _p(imp), _p(bnd), s, sL, exact_rows,
                                 _p(P), cap, _p(pos), _p(node), _p(feat), _p(val), _p(bd), _p(Lout),
                                 None if want is None else _p(want)))
        if m <= cap:
            return P, pos[:m], node[:m], feat[:m], val[:m], bd[:m], Lout[:m]
        cap = m


def cuts_all(O, V, js, y, w, weighted, regression, starts, ends, CC, min_leaf, has_missing, has, tried, L, R, lo, hi,
             imp, bnd, exact_rows, want):
    return _cuts(O, V, js, y, w, weighted, regression, starts, ends, CC, min_leaf, has_missing,
                 (has, tried, L, R, lo, hi, imp, bnd), exact_rows, want)


def _one(order, y, w, weighted, regression, v, starts, ends, CC, min_leaf, has_missing, out, exact_rows):
    order = np.asarray(order)
    P, pos, node, _, val, bd, Lout = _cuts(order[None], np.asarray(v)[None], np.zeros(1, np.int64), y, w, weighted,
                                           regression, starts, ends, CC, min_leaf, has_missing, out, exact_rows)
    return P[0], pos, node, val, bd, Lout


def gini_cuts(order, y, w, weighted, v, starts, ends, CC, min_leaf, has_missing, out, exact_rows):
    return _one(order, y, w, weighted, False, v, starts, ends, CC, min_leaf, has_missing, out, exact_rows)


def regression_cuts(order, y, v, starts, ends, CC, min_leaf, has_missing, out):
    return _one(order, y, None, False, True, v, starts, ends, CC, min_leaf, has_missing, out, 0)


def surrogate_cuts_all(O, V, fdir, starts, ends, want, T, has_missing):
    O, wo = _ix(O)
    V, fdir = _values(V), _c(fdir, np.int8)
    starts, ends, T = _c(starts, np.int64), _c(ends, np.int64), _c(T, np.int64)
    want = _c(want, np.bool_)
    F, n = O.shape
    K = len(starts)
    both, most, agree, at = (np.empty((F, K), np.int64) for _ in range(4))
    found, low_right = np.empty((F, K), np.bool_), np.empty((F, K), np.bool_)
    _lib.surrogate_cuts_all(_p(O), wo, _p(V), V.itemsize, F, n, _p(fdir), _p(starts), _p(ends), K, _p(want), _p(T),
                            bool(has_missing), _p(both), _p(most), _p(found), _p(agree), _p(at), _p(low_right))
    return both, most, found, agree, at, low_right


def _regroup(O, V, new_id, starts, total, none):
    dtype = O.dtype
    O, wo = _ix(O)
    new_id, wk = _ix(new_id)
    starts = _c(starts, np.int64)
    F, n = O.shape
    On = np.empty((F, total), O.dtype)
    Vn = np.empty((F, total), V.dtype) if V is not None else None
    _check(_lib.regroup_all(_p(O), wo, _p(V) if V is not None else None, V.itemsize if V is not None else 4, F, n, _p(new_id), wk, _p(starts),
                            len(starts), total, int(none), _p(On), _p(Vn) if V is not None else None))
    return On.astype(dtype, copy=False), Vn


def regroup(order, new_id, starts, total, none):
    order = np.asarray(order)
    return _regroup(order[None], None, new_id, starts, total, none)[0][0]


def regroup_all(O, V, new_id, starts, total, none):
    """kernels.regroup_all, in O's and V's memory where they are laid out for it (the
    builder's own arrays, which it hands over): the depth's arrays are not held twice, and
    the pages past the rows kept go back to the system."""
    if not (O.flags.c_contiguous and V.flags.c_contiguous and O.flags.writeable and V.flags.writeable
            and O.dtype in (np.int32, np.int64) and V.dtype in (np.int16, np.int32)):
        Vdtype = V.dtype
        On, Vn = _regroup(np.asarray(O), _values(V), new_id, starts, total, none)
        return On, Vn.astype(Vdtype, copy=False)
    new_id, wk = _ix(new_id)
    starts = _c(starts, np.int64)
    F, n = O.shape
    _check(_lib.regroup_in_place(_p(O), O.dtype.itemsize, _p(V), V.itemsize, F, n, _p(new_id), wk, _p(starts), len(starts), total,
                                 int(none)))
    return O.reshape(-1)[:F * total].reshape(F, total), V.reshape(-1)[:F * total].reshape(F, total)


def child_stats(child, rows, yv, size):
    child, rows, yv = _c(child, np.int64), _c(rows, np.int64), _c(yv, np.int64)
    block = np.zeros((size, 3), np.int64)
    _lib.child_stats(_p(child), _p(rows), len(child), _p(yv), _p(block))
    return block


def directions(rows, nid, Xt, f_of, lo, mask, kind):
    rows, wr = _ix(rows)
    nid, wn = _ix(nid)
    Xt = _c(Xt, np.int32)
    f_of, lo, mask, kind = _c(f_of, np.int64), _c(lo, np.int64), _c(mask, np.int64), _c(kind, np.int8)
    d = np.empty(len(rows), np.int64)
    _lib.directions(_p(rows), wr, _p(nid), wn, len(rows), _p(Xt), Xt.shape[1], _p(f_of), _p(lo), _p(mask), _p(kind),
                    _p(d))
    return d


def children(rows, nid, d, slot, y, w, weighted, nc, size):
    rows, wr = _ix(rows)
    nid, wn = _ix(nid)
    y, wy = _ix(y)
    w, ww = _ix(w) if weighted else (y, wy)
    d, slot = _c(d, np.int64), _c(slot, np.int64)
    child = np.empty(len(rows), np.int64)
    block = np.zeros((size, nc), np.int64)
    _lib.children(_p(rows), wr, _p(nid), wn, len(rows), _p(d), _p(slot), _p(y), wy, _p(w), ww, bool(weighted), nc,
                  _p(child), _p(block))
    return child, block


def blake2b8(msg, length):
    msg = _c(msg, np.uint8)
    return np.uint64(_lib.blake2b8(_p(msg), length))


def draw_all(prefixes, starts, ends, n, k):
    prefixes, starts, ends = _c(prefixes, np.uint8), _c(starts, np.int64), _c(ends, np.int64)
    out = np.empty((len(starts), k), np.int64)
    _check(_lib.draw_all(_p(prefixes), _p(starts), _p(ends), len(starts), n, k, _p(out)))
    return out
