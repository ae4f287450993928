"""Poisson forests at scale: in memory against DuckDB on benchmarks/scale.py's synthetic data (#36).

    python benchmarks/scale.py make --rows 1000000 data.parquet
    python benchmarks/scale_forest.py grow --engine duckdb data.parquet [--trees 100] [--depth 8]
    python benchmarks/scale_forest.py bench data1e5.parquet data1e6.parquet [--engines memory,duckdb] [--memory-limit 2GB]

``grow`` grows a random forest (CART Gini, √m features drawn at each node, sampling 'poisson',
seed 0) on one engine and prints one JSON line: seconds to read/prepare and to grow the trees,
and the SHA-256 of the trees' JSON: equal hashes, the same trees (the samples, hence the OOB
votes, are the same by construction; they are not timed: they read every row in Python).  ``bench`` runs ``grow`` per engine and file in a child
process and adds its peak RSS (from the kernel).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def grow_one(path, engine, trees, depth, memory_limit=None, threads=None):
    from infotree.printers import render

    options = dict(n_estimators=trees, random_state=0, sampling="poisson", criterion="gini", max_features="sqrt",
                   max_depth=depth, min_leaf=1, min_samples_split=2, cp=None, surrogates=0, competitors=0)
    t0 = time.perf_counter()
    if engine == "memory":
        from infotree import grow_forest, load

        data = load(path, numeric="auto")
        t1 = time.perf_counter()
        forest = grow_forest(data, **options)
    else:
        from infotree.engines.command import IN_MEMORY_ROWS
        from infotree.engines.duckdb import DuckDBProvider
        from infotree.engines.forest import grow_forest

        provider = DuckDBProvider(path, memory_limit=memory_limit, threads=threads, numeric="auto", row_numbers=True)
        t1 = time.perf_counter()
        forest = grow_forest(provider, engine="duckdb", in_memory=IN_MEMORY_ROWS, **options)
        provider.close()
    t2 = time.perf_counter()
    out = io.StringIO()
    for tree in forest.trees:
        render(tree, out, fmt="json")
    return dict(engine=engine, rows=forest.data.n_rows, trees=trees, depth=depth, prepare=round(t1 - t0, 1),
                grow=round(t2 - t1, 1), nodes=sum(len(t) for t in forest.trees),
                forest=hashlib.sha256(out.getvalue().encode()).hexdigest()[:16])


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("grow")
    g.add_argument("path")
    g.add_argument("--engine", default="duckdb")
    g.add_argument("--trees", type=int, default=100)
    g.add_argument("--depth", type=int, default=8)
    g.add_argument("--memory-limit")
    g.add_argument("--threads", type=int)
    b = sub.add_parser("bench")
    b.add_argument("paths", nargs="+")
    b.add_argument("--engines", default="memory,duckdb")
    b.add_argument("--trees", type=int, default=100)
    b.add_argument("--depth", type=int, default=8)
    b.add_argument("--memory-limit", help="duckdb's memory limit (default: DuckDB's, 80% of RAM)")
    a = ap.parse_args()
    if a.cmd == "grow":
        print(json.dumps(grow_one(a.path, a.engine, a.trees, a.depth, a.memory_limit, a.threads)), flush=True)
        return
    for path in a.paths:
        for engine in a.engines.split(","):
            p = subprocess.Popen([sys.executable, __file__, "grow", path, "--engine", engine, "--trees", str(a.trees),
                                  "--depth", str(a.depth)] + (["--memory-limit", a.memory_limit] if a.memory_limit and
                                                              engine == "duckdb" else []),
                                 stdout=subprocess.PIPE, text=True)
            out = p.stdout.read()
            _, status, usage = os.wait4(p.pid, 0)
            row = json.loads(out) if status == 0 and out.strip() else dict(engine=engine, path=path, failed=status)
            row["peak_rss_gb"] = round(usage.ru_maxrss / 2**20, 2)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
