"""Would a compiled loop in C, loaded by ctypes, cost what numba costs?  (issue #37)

numba brings LLVM and its typing context into the process: about 110-130 MiB of a fit's
peak RSS, more than the memory goals leave at 10^5 rows.  This probe compiles one of
``infotree/grow/kernels.py``'s loops (``regroup``) as plain C with the machine's ``cc``,
loads it with ctypes, checks it returns numba's result, and prints both loops' time and what
loading each added to this process's resident memory, side by side.  It needs a C compiler
and numba; nothing of it is part of infotree.

    python3 benchmarks/c_kernel_probe.py [--rows 1000000] [--nodes 5000] [--repeats 20]
"""

from __future__ import annotations

import argparse
import ctypes
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

SOURCE = r"""
#include <stdint.h>
/* kernels.regroup: the rows of order that have a next node (new_id[row] != none), grouped by it, stably. */
void regroup(const int32_t *order, int64_t n, const uint16_t *new_id, const int64_t *starts, int64_t K,
             int32_t *out, int64_t *at, uint16_t none) {
    for (int64_t k = 0; k < K; k++) at[k] = starts[k];
    for (int64_t i = 0; i < n; i++) {
        uint16_t k = new_id[order[i]];
        if (k != none) out[at[k]++] = order[i];
    }
}
"""


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args(argv)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit("no C compiler (cc, gcc) on this machine")
    import sklearn.base  # noqa: F401  (both fits' processes hold it: it is not counted against either)

    with tempfile.TemporaryDirectory() as tmp:
        src, lib_path = Path(tmp) / "regroup.c", Path(tmp) / "libregroup.so"
        src.write_text(SOURCE)
        subprocess.run([cc, "-O3", "-shared", "-fPIC", "-o", str(lib_path), str(src)], check=True)
        r0 = rss_mib()
        lib = ctypes.CDLL(str(lib_path))
        p = ctypes.c_void_p
        lib.regroup.argtypes = [p, ctypes.c_int64, p, p, ctypes.c_int64, p, p, ctypes.c_uint16]
        c_mib = rss_mib() - r0

        n, K, none = args.rows, args.nodes, 65535
        rng = np.random.default_rng(0)
        order = rng.permutation(n).astype(np.int32)
        new_id = rng.integers(0, K + 1, n).astype(np.uint16)
        new_id[new_id == K] = none
        sizes = np.bincount(new_id[new_id != none], minlength=K)
        starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int64)
        total = int(sizes.sum())

        def in_c():
            out, at = np.empty(total, np.int32), np.empty(K, np.int64)
            lib.regroup(order.ctypes.data, n, new_id.ctypes.data, starts.ctypes.data, K, out.ctypes.data,
                        at.ctypes.data, none)
            return out

        def timed(f):
            f()
            t = time.perf_counter()
            for _ in range(args.repeats):
                out = f()
            return (time.perf_counter() - t) / args.repeats, out

        c_s, c_out = timed(in_c)
        sys.path.insert(0, str(ROOT))
        from infotree.grow import kernels

        r1 = rss_mib()
        kernels.load()
        numba_s, numba_out = timed(lambda: kernels.regroup(order, new_id, starts, total, np.uint16(none)))
        numba_mib = rss_mib() - r1
    print(f"regroup of {n:,} rows into {K:,} nodes, {args.repeats} runs each, one process")
    print(f"same result: {np.array_equal(c_out, numba_out)}")
    print(f"C (ctypes):  {c_s * 1e3:.2f} ms a call; loading it added {c_mib:.1f} MiB")
    print(f"numba:       {numba_s * 1e3:.2f} ms a call; importing numba and loading the loop added {numba_mib:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
