"""Exact trees at scale, engine by engine, on one machine (issue #36).

    python benchmarks/scale.py make  --rows 10000000 [--distinct 100000] [--unique] out.parquet
    python benchmarks/scale.py grow  --engine duckdb out.parquet [--depth 8] [--memory-limit 4GB]
    python benchmarks/scale.py bench --rows 1000000,10000000 --engines memory,duckdb [--depth 8]

``make`` writes seeded synthetic data: 10 numeric columns (integers with up to ``--distinct``
distinct values), 10 nominal columns (3 to 12 values), a class of 3 values that depends on
some of them, 10% noise.  ``grow`` grows a CART (Gini) tree to ``--depth`` on one engine and
prints one JSON line: seconds to prepare and to grow, nodes, and the SHA-256 of the model
JSON (equal hashes: the same tree).  ``bench`` runs ``grow`` per engine and size in a child
process (its peak RSS read from the kernel) and prints a table.  ``--mllib`` adds Spark
MLlib's DecisionTreeClassifier (maxBins 32, the same depth, same session) and how many of its
split nodes differ from the exact tree's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def make(path, rows, distinct, seed=36, chunk=1 << 20, unique=False):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    sizes = [3 + (k * 5) % 10 for k in range(10)]
    letters = [np.array([f"v{i}" for i in range(s)]) for s in sizes]
    writer = None
    for start in range(0, rows, chunk):
        n = min(chunk, rows - start)
        cols = {}
        for k in range(10):
            cols[f"x{k}"] = rng.integers(0, max(1, distinct // (1 + k % 3)), n)
        if unique:  # the all-distinct case: x0 holds 0 .. rows - 1, each once, shuffled within each chunk
            cols["x0"] = start + rng.permutation(n)
        for k in range(10):
            cols[f"n{k}"] = letters[k][rng.integers(0, sizes[k], n)]
        d = max(distinct, 2)
        score = ((cols["x0"] > d // 2).astype(int) + (cols["x1"] % 7 < 3) + (np.isin(cols["n0"], ["v0", "v1"]))
                 + (cols["x2"] > d // 5) * (cols["n3"] == "v2"))
        y = score % 3
        noise = rng.random(n) < 0.1
        y[noise] = rng.integers(0, 3, noise.sum())
        cols["class"] = np.array(["a", "b", "c"])[y]
        table = pa.table(cols)
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    writer.close()


def grow_one(path, engine, depth, memory_limit=None, threads=None, master="local[2]", in_memory=None, mllib=False):
    from infotree.model import dumps

    options = dict(criterion="gini", max_depth=depth, min_leaf=1, min_samples_split=2, cp=None, surrogates=0,
                   competitors=0)
    read = dict(numeric="auto")
    t0 = time.perf_counter()
    extra = {}
    if engine == "memory":
        from infotree import build_tree, load

        data = load(path, **read)
        t1 = time.perf_counter()
        tree = build_tree(data, **options)
    else:
        from infotree.engines import grow

        if engine == "duckdb":
            from infotree.engines.duckdb import DuckDBProvider

            provider = DuckDBProvider(path, memory_limit=memory_limit, threads=threads, **read)
        else:
            from infotree.engines.spark import SparkProvider, session

            spark = session(master)
            spark.sparkContext.setLogLevel("ERROR")
            t0 = time.perf_counter()  # the session's start is not the engine's work
            provider = SparkProvider.of_file(spark, path, **read)
        t1 = time.perf_counter()
        split = provider.split

        def logged(routes):  # a depth's end, on stderr: long runs show where their time goes
            split(routes)
            print(f"# depth {provider.level} done at {time.perf_counter() - t1:.1f} s ({len(routes)} nodes split)",
                  file=sys.stderr, flush=True)

        provider.split = logged
        tree = grow(provider, engine=engine, in_memory=in_memory, **options)
        provider.close()
    t2 = time.perf_counter()   # MLlib's fit is timed on its own, not as the exact tree's growing
    if engine == "spark" and mllib:
        extra = _mllib(spark, path, tree, depth)
    return dict(engine=engine, prepare=round(t1 - t0, 2), grow=round(t2 - t1, 2), nodes=len(tree),
                model=hashlib.sha256(dumps(tree).encode()).hexdigest()[:16], **extra)


def _mllib(spark, path, tree, depth):
    """MLlib's approximate tree on the same rows (maxBins 32): its time, and how many of its
    split nodes differ from the exact tree's node at the same path (``_compare``)."""
    from pyspark.ml import Pipeline
    from pyspark.ml.classification import DecisionTreeClassifier
    from pyspark.ml.feature import StringIndexer, VectorAssembler

    df = spark.read.parquet(path)
    nominal = [c for c in df.columns if c.startswith("n")]
    numeric = [c for c in df.columns if c.startswith("x")]
    stages = [StringIndexer(inputCol=c, outputCol=c + "_i") for c in nominal + ["class"]]
    stages.append(VectorAssembler(inputCols=numeric + [c + "_i" for c in nominal], outputCol="features"))
    stages.append(DecisionTreeClassifier(labelCol="class_i", featuresCol="features", maxDepth=depth, maxBins=32,
                                         impurity="gini", minInstancesPerNode=1))
    t0 = time.perf_counter()
    model = Pipeline(stages=stages).fit(df)
    seconds = time.perf_counter() - t0
    dt = model.stages[-1]
    labels = {c: list(m.labelsArray[0]) for c, m in zip(nominal, model.stages[:len(nominal)])}
    root = dt._call_java("rootNode")
    splits, differ = _compare(root, tree.root, numeric + nominal, labels, tree)
    split = root.split()
    mine = tree.root.test
    print(f"# roots: MLlib {(numeric + nominal)[split.featureIndex()]} "
          f"{split.threshold() if split.getClass().getSimpleName() == 'ContinuousSplit' else 'categorical'}; "
          f"exact {tree.features[mine.feature]} {getattr(mine, 'threshold', None)}", file=sys.stderr)
    return dict(mllib_seconds=round(seconds, 2), mllib_nodes=dt.numNodes, mllib_splits=splits,
                mllib_splits_differing=differ)


def _compare(jnode, node, names, labels, tree):
    """(MLlib's split nodes under ``jnode``, how many differ from the exact tree's): a split is
    the same when the exact node at the same path tests the same feature and splits its
    values the same way: a numeric threshold t (x <= t left, t a bin edge) the same as the
    exact threshold when no value of the column lies between them; a categorical split the
    same set of values (or its complement, the branches swapped).  Below a differing split
    every MLlib split differs (its rows are others)."""
    if jnode.getClass().getSimpleName() != "InternalNode":
        return 0, 0
    split = jnode.split()
    name = names[split.featureIndex()]
    left, right = jnode.leftChild(), jnode.rightChild()
    kids = None
    if node is not None and node.test is not None and tree.features[node.test.feature] == name:
        j = node.test.feature
        if split.getClass().getSimpleName() == "ContinuousSplit":
            t, exact = split.threshold(), float(node.test.threshold)
            lo, hi = min(t, exact), max(t, exact)
            if not any(lo < float(v) <= hi for v in tree.numbers[j]):
                kids = node.children
        else:
            got = {labels[name][int(c)] for c in split.leftCategories()}
            test = node.test
            if got == set(test.left_values):
                kids = node.children
            elif got == set(test.right_values):
                kids = node.children[::-1]
    a = _compare(left, kids[0] if kids else None, names, labels, tree)
    b = _compare(right, kids[1] if kids else None, names, labels, tree)
    return 1 + a[0] + b[0], (kids is None) + a[1] + b[1]


def bench(sizes, engines, depth, distinct, memory_limit, workdir, mllib):
    rows = []
    for n in sizes:
        path = os.path.join(workdir, f"scale_{n}_{distinct}.parquet")
        if not os.path.exists(path):
            t = time.perf_counter()
            make(path, n, distinct)
            print(f"# made {path} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
        for engine in engines:
            cmd = [sys.executable, __file__, "grow", "--engine", engine, "--depth", str(depth), path]
            if memory_limit and engine == "duckdb":
                cmd += ["--memory-limit", memory_limit]
            if mllib and engine == "spark":
                cmd += ["--mllib"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            done = subprocess.run(cmd, capture_output=True, text=True)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            if done.returncode:
                print(done.stderr[-2000:], file=sys.stderr)
                continue
            got = json.loads(done.stdout.strip().splitlines()[-1])
            # ru_maxrss of children is the largest child so far: a child's own when it is the largest
            got.update(rows=n, peak_rss_gb=round(peak / 2**20, 2) if peak > before else None)
            rows.append(got)
            print(json.dumps(got), flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("path")
    m.add_argument("--rows", type=int, required=True)
    m.add_argument("--distinct", type=int, default=100_000)
    m.add_argument("--unique", action="store_true", help="x0 all distinct (0 .. rows - 1)")
    g = sub.add_parser("grow")
    g.add_argument("path")
    g.add_argument("--engine", default="duckdb")
    g.add_argument("--depth", type=int, default=8)
    g.add_argument("--memory-limit")
    g.add_argument("--threads", type=int)
    g.add_argument("--master", default="local[2]")
    g.add_argument("--in-memory", type=int)
    g.add_argument("--mllib", action="store_true")
    b = sub.add_parser("bench")
    b.add_argument("--rows", default="100000,1000000")
    b.add_argument("--engines", default="memory,duckdb")
    b.add_argument("--depth", type=int, default=8)
    b.add_argument("--distinct", type=int, default=100_000)
    b.add_argument("--memory-limit", default="4GB")
    b.add_argument("--workdir", default="/tmp")
    b.add_argument("--mllib", action="store_true")
    a = ap.parse_args()
    if a.cmd == "make":
        make(a.path, a.rows, a.distinct, unique=a.unique)
    elif a.cmd == "grow":
        print(json.dumps(grow_one(a.path, a.engine, a.depth, a.memory_limit, a.threads, a.master, a.in_memory,
                                  a.mllib)))
    else:
        bench([int(x) for x in a.rows.split(",")], a.engines.split(","), a.depth, a.distinct, a.memory_limit,
              a.workdir, a.mllib)


if __name__ == "__main__":
    main()
