#!/usr/bin/env python3
"""Issue #7: what exactness costs, and infotree against its peers.  On demand, not in CI.

    python benchmarks/run.py                 # the full run
    python benchmarks/run.py --quick         # small data, fewer peers: a smoke run
    python benchmarks/run.py --only connect-4 --only startup --repeats 7
    python benchmarks/run.py --json results.json

Sections (``--only`` takes any of these names; repeat it or separate names by commas):

``syn-1e4``, ``syn-1e5``, ``syn-1e6``, ``nursery``, ``mushroom``, ``connect-4``
    For ID3 (``build_tree(data, criterion="gain")``) and C4.5 (``criterion="gain_ratio"``):
    infotree and its float twin (``benchmarks/float_twin.py``: the same level-wise
    builder with float decisions), run alternately (infotree, float, infotree, float, ...)
    ``--repeats`` times each (builds under 0.5 s: more pairs, up to 41).  Reported: median wall and CPU time, the median of the
    per-pair ratios infotree/float (CPU time and wall time) and the ratio of the fastest
    runs, the peak of traced memory (``tracemalloc``, one extra run each: numpy buffers
    and Python objects allocated during the build, not the data), the tree sizes, and
    whether the twin grew the same tree (every difference is classified from infotree's
    exact records).  Then the peers on the same data: scikit-learn's
    ``DecisionTreeClassifier(criterion="entropy")`` on one-hot data (float32, encoded
    outside the timing) when sklearn is installed, and Weka's Id3 and J48 -U
    (``java -Xmx4g -cp weka.jar ... -no-cv -t NAME.arff``: in-JVM "Time taken to build
    model" and the wall time of the whole command) when Weka is installed, on the data
    sets with an ARFF and no missing values.  On connect-4 also: infotree ID3 with Weka's
    stopping rule (``stop_at_zero_gain=True``) and the wall time of the whole command
    ``infotree tree connect-4.csv --nodes none``.
``rss``
    Peak resident memory of the syn-1e6 build (depth 8), each in a fresh subprocess:
    the resident set sampled every 5 ms during the build, at its peak, minus the
    resident set after the imports (the interpreter baseline), in multiples of the
    encoded data (``X`` int32 + ``y`` int32).
``startup``
    ``infotree tree tests/data/weather.csv`` wall time minus bare ``python -c pass``
    (alternating, ``--startup-runs`` each, medians), whether sympy / mpmath get imported,
    and the heaviest imports from ``python -X importtime``.
``printing``
    ``infotree.printers.render(tree, sink, fmt="text", nodes="all")`` of the connect-4
    ID3 tree into a counting sink: nodes per second, and traced memory sampled along the
    way (flat or growing), for at most ``--print-seconds`` per pass.
``instructions`` (only when named in ``--only``)
    The same exact / float ratios counted in instructions instead of seconds, by
    ``valgrind --tool=callgrind`` (one build each, minus a load-only run), on the data
    sets of ``--instr-on``; for ID3 also scikit-learn's fit on the one-hot data (minus
    a run that imports it and makes the data).  Counts repeat exactly on a busy machine, where CPU times
    swing by several times; they leave out page faults and cache misses.  Slow:
    callgrind runs the build about 50 times slower (syn-1e4 and nursery: minutes each;
    syn-1e5: most of an hour).

Every section's measurements are written to ``--json`` (default
``benchmarks/.results/last_run.json``) as soon as it finishes; a run stopped by Ctrl-C
or SIGTERM prints the report of the finished sections, and ``--report FILE`` prints it
again later.

Data: ``benchmarks/synthetic.py`` (seeded) and, when present, ``../shared/datasets``
(nursery, mushroom with ``on_missing="value"``, connect-4; change with ``--datasets``).

Timing on a shared machine: every build is timed by wall clock and by process CPU time;
the ratios that are checked against the targets are medians of per-pair CPU-time
ratios (a pair is one infotree run and the float run right after it), which keeps most
of the noise of other processes out.  Medians of wall times are printed next to them.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import float_twin  # noqa: E402
import synthetic  # noqa: E402

DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"
DEFAULT_JSON = HERE / ".results" / "last_run.json"
WEKA_JARS = ("/usr/share/java/weka.jar", "/usr/share/java/weka-3.6.14.jar")
ALGOS = (("ID3", "gain"), ("C4.5", "gain_ratio"))
SECTIONS_EXTRA = ("rss", "startup", "printing", "instructions")
MAX_REPEATS = 41  # pairs for builds under 0.5 s

TARGETS = {
    "id3": 1.25,          # exact ID3 / float twin, every data set
    "id3_large": 1.10,    # ... at N >= 10^5
    "c45": 1.30,          # exact C4.5 / float twin
    "weka_id3": 0.5,      # connect-4 ID3 build <= half of Weka Id3's in-JVM time
    "rss": 3.0,           # 10^6 x 40: peak RSS - baseline <= 3 x encoded data
    "startup": 0.25,      # infotree tree weather.csv over bare python start-up, seconds
}


# -- data sets ------------------------------------------------------------------------

class Spec:
    def __init__(self, name, load, max_depth=None, weka=False, csv=None, rows_hint=0):
        self.name, self._load, self.max_depth, self.weka, self.csv = name, load, max_depth, weka, csv
        self.rows_hint = rows_hint

    def load(self):
        return self._load()


def specs(datasets_dir: Path, quick: bool):
    from infotree.data import load

    out = []
    if quick:
        out.append(Spec("syn-1e4", lambda: synthetic.make(10 ** 4), max_depth=6, rows_hint=10 ** 4))
    else:
        out.append(Spec("syn-1e4", lambda: synthetic.make(10 ** 4), rows_hint=10 ** 4))
        out.append(Spec("syn-1e5", lambda: synthetic.make(10 ** 5), rows_hint=10 ** 5))
        out.append(Spec("syn-1e6", lambda: synthetic.make(10 ** 6), max_depth=8, rows_hint=10 ** 6))
    shared = [("nursery", "reject", True), ("mushroom", "value", False), ("connect-4", "reject", True)]
    for name, missing, weka in shared:
        if quick and name == "connect-4":
            continue
        csv = datasets_dir / f"{name}.csv"
        if csv.exists():
            out.append(Spec(name, lambda csv=csv, missing=missing: load(csv, on_missing=missing),
                            weka=weka and (datasets_dir / f"{name}.arff").exists(), csv=csv))
    return out


# -- measuring ------------------------------------------------------------------------

def timed(fn):
    gc.collect()
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    c, w = time.process_time() - c0, time.perf_counter() - w0
    return out, w, c


def traced(fn):
    """(result, peak traced bytes during fn, traced bytes still held after fn)."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        out = fn()
        cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, peak - base, cur - base


def med(xs):
    return statistics.median(xs) if xs else None


def fmt_s(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def fmt_mb(b):
    return "—" if b is None else f"{b / 2 ** 20:.1f}"


def fmt_r(x):
    return "—" if x is None else f"{x:.2f}"


def count_nodes(tree):
    return sum(1 for _ in tree.root.walk())


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def bench_pair(data, crit, max_depth, repeats, keep_exact=False):
    """Alternate infotree and the float twin; keep the first trees for the comparison."""
    from infotree.growing import build_tree

    def exact():
        return build_tree(data, criterion=crit, max_depth=max_depth)

    def flt():
        return float_twin.build_float_tree(data, criterion=crit, max_depth=max_depth)

    res = {"exact_wall": [], "exact_cpu": [], "float_wall": [], "float_cpu": [], "float_collapse_cpu": []}
    first = None
    r = 0
    while r < repeats:
        r += 1
        te, we, ce = timed(exact)
        tf, wf, cf = timed(flt)
        res["exact_wall"].append(we)
        res["exact_cpu"].append(ce)
        res["float_wall"].append(wf)
        res["float_cpu"].append(cf)
        res["float_collapse_cpu"].append(tf.collapse_cpu)
        if first is None:
            first = (te, tf)
            # Tiny builds are all noise on a busy machine: take more pairs (about 3 s per side).
            if we + wf < 0.5:
                repeats = max(repeats, min(MAX_REPEATS, int(6.0 / max(we + wf, 1e-3))))
        del te, tf
    res["pairs"] = repeats
    te, tf = first
    del first
    res["exact_nodes"], res["float_nodes"] = count_nodes(te), count_nodes(tf)
    compared, diffs = float_twin.compare(te, tf)
    res["compared"] = compared
    res["diffs"] = [d for d in diffs if d is not None]
    res["diffs_total"] = len(diffs)
    kept = te if keep_exact else None
    del te, tf
    _, res["exact_peak"], res["exact_kept"] = traced(exact)
    _, res["float_peak"], res["float_kept"] = traced(flt)
    pairs_cpu = [a / b for a, b in zip(res["exact_cpu"], res["float_cpu"]) if b > 0]
    pairs_wall = [a / b for a, b in zip(res["exact_wall"], res["float_wall"]) if b > 0]
    res["ratio_cpu"] = med(pairs_cpu)
    res["ratio_wall"] = med(pairs_wall)
    res["ratio_min"] = min(res["exact_wall"]) / min(res["float_wall"])
    res["ratio_cpu_range"] = (min(pairs_cpu), max(pairs_cpu)) if pairs_cpu else None
    if crit == "gain_ratio":
        # Collapse is the same code in both (infotree.tree._collapse, mirrored): without it,
        # what is left is the growing, where exactness can cost something.
        grow = [(a - k) / (b - k) for a, b, k in zip(res["exact_cpu"], res["float_cpu"], res["float_collapse_cpu"]) if b > k]
        res["ratio_cpu_grow"] = med(grow)
        res["collapse_share"] = med([k / b for b, k in zip(res["float_cpu"], res["float_collapse_cpu"]) if b > 0])
    return res, kept


# -- peers ------------------------------------------------------------------------------

def sklearn_available():
    try:
        import sklearn  # noqa: F401
        return True
    except ImportError:
        return False


def one_hot(data):
    X = np.asarray(data.X)
    sizes = np.array([len(d) for d in data.domains])
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    out = np.zeros((X.shape[0], int(sizes.sum())), dtype=np.float32)
    rows = np.arange(X.shape[0])
    for j in range(X.shape[1]):
        out[rows, offsets[j] + X[:, j]] = 1.0
    return out


def bench_sklearn(data, max_depth, repeats):
    from sklearn.tree import DecisionTreeClassifier

    Xoh = one_hot(data)
    y = np.asarray(data.y)
    walls, cpus, nodes = [], [], None
    for _ in range(repeats):
        clf = DecisionTreeClassifier(criterion="entropy", max_depth=max_depth, random_state=0)
        _, w, c = timed(lambda: clf.fit(Xoh, y))
        walls.append(w)
        cpus.append(c)
        nodes = int(clf.tree_.node_count)
    return {"wall": med(walls), "cpu": med(cpus), "walls": walls, "nodes": nodes, "cols": Xoh.shape[1]}


def find_weka():
    if not shutil.which("java"):
        return None
    for j in (os.environ.get("WEKA_JAR"), *WEKA_JARS):
        if j and Path(j).is_file():
            return j
    return None


WEKA_CLASS = {"ID3": ["weka.classifiers.trees.Id3"], "C4.5": ["weka.classifiers.trees.J48", "-U"]}


def run_weka(jar, algo, arff, timeout=3600):
    cmd = ["java", "-Xmx4g", "-cp", jar, *WEKA_CLASS[algo], "-no-cv", "-t", str(arff)]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    wall = time.perf_counter() - t0
    m = re.search(r"Time taken to build model: ([0-9.]+) seconds", p.stdout + p.stderr)
    if p.returncode != 0 or not m:
        lines = [l for l in (p.stdout + p.stderr).splitlines() if l.strip()]
        return {"error": next((l for l in lines if "Exception" in l), lines[0] if lines else f"exit {p.returncode}")}
    size = re.search(r"Size of the tree\s*:\s*(\d+)", p.stdout)
    return {"build": float(m.group(1)), "wall": wall, "size": int(size.group(1)) if size else None}


def infotree_cmd():
    """The console script next to this interpreter (no pyenv shim), else ``python -m infotree``."""
    for cand in (Path(sys.executable).with_name("infotree"), Path(sys.prefix) / "bin" / "infotree"):
        if cand.is_file() and os.access(cand, os.X_OK):
            return [str(cand)]
    return [sys.executable, "-m", "infotree"]


def wall_of(cmd, cwd=REPO, with_cpu=False, env=None):
    """Wall time of a command (and, with_cpu, the CPU time user+sys of the child)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=str(cwd), env=env)
    w = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode()[-300:]}")
    if with_cpu:
        return w, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return w


# -- sections ---------------------------------------------------------------------------

def run_dataset(spec, args, results, weka_jar, keep=False):
    """Measure one data set; returns its first infotree ID3 tree when ``keep``."""
    from infotree.growing import build_tree

    kept_tree = None
    log(f"[{spec.name}] loading")
    data = spec.load()
    n, m = data.X.shape
    entry = {"name": spec.name, "rows": n, "cols": m, "max_depth": spec.max_depth,
             "data_bytes": int(data.X.nbytes + data.y.nbytes), "algos": {}, "peers": {}}
    results["datasets"].append(entry)
    for label, crit in ALGOS:
        log(f"[{spec.name}] {label}: {args.repeats} alternating pairs infotree/float")
        r, kept = bench_pair(data, crit, spec.max_depth, args.repeats, keep_exact=keep and crit == "gain")
        if kept is not None:
            kept_tree = kept
        entry["algos"][label] = r
        log(f"[{spec.name}] {label}: infotree {fmt_s(med(r['exact_cpu']))} s CPU, float {fmt_s(med(r['float_cpu']))} s CPU, "
            f"ratio {fmt_r(r['ratio_cpu'])} (wall {fmt_r(r['ratio_wall'])})")
    if args.no_peers:
        return kept_tree
    big = n >= 10 ** 6
    peer_reps = max(1, args.peer_repeats)
    if sklearn_available() and (not big or args.big_peers):
        log(f"[{spec.name}] sklearn entropy tree on one-hot data")
        entry["peers"]["sklearn"] = bench_sklearn(data, spec.max_depth, peer_reps)
    elif not sklearn_available():
        entry["peers"]["sklearn"] = {"skipped": "scikit-learn not installed"}
    else:
        entry["peers"]["sklearn"] = {"skipped": "10^6 rows: run with --big-peers"}
    if spec.weka and weka_jar and spec.max_depth is None:
        arff = spec.csv.with_suffix(".arff")
        for label, _ in ALGOS:
            log(f"[{spec.name}] Weka {label}")
            runs = [run_weka(weka_jar, label, arff) for _ in range(peer_reps)]
            ok = [x for x in runs if "error" not in x]
            entry["peers"][f"weka {label}"] = (
                {"build": med([x["build"] for x in ok]), "wall": med([x["wall"] for x in ok]),
                 "builds": [x["build"] for x in ok], "size": ok[0]["size"]} if ok else {"error": runs[0]["error"]})
    elif spec.weka and not weka_jar:
        entry["peers"]["weka"] = {"skipped": "java or weka.jar not found"}
    if spec.name == "connect-4":
        log(f"[{spec.name}] infotree ID3 with Weka's rule (stop_at_zero_gain), {peer_reps} runs")
        walls, cpus, size = [], [], None
        for _ in range(peer_reps):
            t, w, c = timed(lambda: build_tree(data, criterion="gain", stop_at_zero_gain=True))
            walls.append(w)
            cpus.append(c)
            size = count_nodes(t)
            del t
        entry["peers"]["infotree ID3 stop_at_zero_gain"] = {"wall": med(walls), "cpu": med(cpus), "walls": walls, "nodes": size}
        reps = max(3, peer_reps)
        log(f"[{spec.name}] `infotree tree connect-4.csv --nodes none`, {reps} runs")
        cmd = infotree_cmd() + ["tree", str(spec.csv), "--nodes", "none"]
        walls = [wall_of(cmd) for _ in range(reps)]
        entry["peers"]["infotree CLI"] = {"wall": med(walls), "walls": walls, "cmd": " ".join(cmd)}
    return kept_tree


def run_rss(args, results):
    n, depth = (10 ** 5, 8) if args.quick else (10 ** 6, 8)
    out = {"rows": n, "max_depth": depth, "runs": {}}
    results["rss"] = out
    for kind in ("infotree", "float"):
        for label, crit in ALGOS:
            log(f"[rss] {kind} {label} on {n} x 40, depth {depth}, in a subprocess")
            p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--_rss-child", kind, crit, str(n), str(depth)],
                               capture_output=True, text=True, cwd=str(REPO))
            if p.returncode != 0:
                out["runs"][f"{kind} {label}"] = {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"}
                continue
            out["runs"][f"{kind} {label}"] = json.loads(p.stdout.strip().splitlines()[-1])


def _current_rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


def rss_child(kind, crit, n, depth):
    from infotree.data import Dataset
    from infotree.growing import build_tree

    gc.collect()
    # The resident set now, not ru_maxrss: Linux carries the parent's peak over fork and
    # exec, so ru_maxrss starts at whatever the benchmark process had reached.
    base = _current_rss_kb()
    X, y, sizes, _ = synthetic.arrays(n)
    data = Dataset([f"a{j:02d}" for j in range(X.shape[1])], "class",
                   [[f"v{v}" for v in range(int(s))] for s in sizes], [f"c{c}" for c in range(synthetic.N_CLASSES)], X, y)
    del X, y
    gc.collect()
    ready = _current_rss_kb()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Making the data passes through temporaries (ru_maxrss keeps their peak); the
    # build's own peak is sampled from the resident set every 5 ms while it runs.
    import threading

    samples, done = [ready], threading.Event()

    def sample():
        while not done.wait(0.005):
            samples.append(_current_rss_kb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    t0 = time.perf_counter()
    if kind == "infotree":
        tree = build_tree(data, criterion=crit, max_depth=depth)
    else:
        tree = float_twin.build_float_tree(data, criterion=crit, max_depth=depth)
    wall = time.perf_counter() - t0
    done.set()
    sampler.join()
    samples.append(_current_rss_kb())
    print(json.dumps({"baseline_kb": base, "data_ready_kb": ready, "peak_before_build_kb": before,
                      "ru_maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "peak_kb": max(samples),
                      "after_kb": samples[-1], "data_bytes": int(data.X.nbytes + data.y.nbytes), "wall": wall,
                      "nodes": count_nodes(tree)}))


def _startup_envs():
    """(label, env) pairs: with a bytecode cache (a normal install), and as this environment is set up."""
    import tempfile

    cached = dict(os.environ)
    cached.pop("PYTHONDONTWRITEBYTECODE", None)
    cached["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="infotree-bench-pyc-")  # never writes into the repo
    envs = [("bytecode cache", cached)]
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        envs.append(("no bytecode cache (PYTHONDONTWRITEBYTECODE is set here)", dict(os.environ)))
    return envs


def _importtime(cmd, env, runs):
    """Per module, the minimum over runs of (cumulative, self) import time in seconds."""
    best = {}
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-X", "importtime", *cmd], capture_output=True, text=True, cwd=str(REPO), env=env)
        for line in p.stderr.splitlines():
            m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
            if m:
                name, self_t, cum = m.group(4), int(m.group(1)) / 1e6, int(m.group(2)) / 1e6
                top = len(m.group(3)) <= 1
                old = best.get(name)
                best[name] = (min(cum, old[0]) if old else cum, min(self_t, old[1]) if old else self_t, top)
    return best


def run_startup(args, results):
    weather = REPO / "tests" / "data" / "weather.csv"
    cmd = infotree_cmd() + ["tree", str(weather)]
    bare = [sys.executable, "-c", "pass"]
    floor = [sys.executable, "-c", "import numpy, tabulate"]
    reps = args.startup_runs
    out = {"cmd": " ".join(cmd), "runs": reps, "envs": {}}
    results["startup"] = out
    for i, (label, env) in enumerate(_startup_envs()):
        n = reps if i == 0 else max(3, reps // 3)
        log(f"[startup] {label}: {n} alternating runs of `python -c pass` and `{' '.join(cmd)}`")
        wall_of(bare, env=env)  # warm-up (writes the bytecode cache)
        wall_of(cmd, env=env)
        wb, wi, cb, ci, wf = [], [], [], [], []
        for _ in range(n):
            w, c = wall_of(bare, with_cpu=True, env=env)
            wb.append(w)
            cb.append(c)
            w, c = wall_of(cmd, with_cpu=True, env=env)
            wi.append(w)
            ci.append(c)
            # The floor of any program built on numpy: its import (and tabulate's).
            wf.append(wall_of(floor, env=env))
        out["envs"][label] = {"bare": med(wb), "infotree": med(wi), "over_bare": med(wi) - med(wb),
                              "over_bare_pairs": med([a - b for a, b in zip(wi, wb)]),
                              "over_bare_min": min(wi) - min(wb), "bare_cpu": med(cb), "infotree_cpu": med(ci),
                              "over_bare_cpu": med(ci) - med(cb), "bare_runs": wb, "infotree_runs": wi, "n": n,
                              "numpy_floor": med(wf), "over_floor": med(wi) - med(wf), "floor_runs": wf}
    label, env = _startup_envs()[0]
    probe = ("import sys, io, contextlib\n"
             "from infotree.cli import main\n"
             f"sys.argv = ['infotree', 'tree', {str(weather)!r}]\n"
             "buf = io.StringIO()\n"
             "try:\n"
             "    with contextlib.redirect_stdout(buf):\n"
             "        rc = main()\n"
             "except SystemExit as e:\n"
             "    rc = e.code\n"
             "mods = ('sympy', 'mpmath', 'tabulate', 'numpy', 'infotree.check', 'infotree.printers')\n"
             "sys.stderr.write('MODULES ' + ' '.join(f'{m}={m in sys.modules}' for m in mods) + '\\n')\n")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=str(REPO), env=env)
    m = re.search(r"MODULES (.*)", p.stderr)
    out["modules"] = dict(kv.split("=") for kv in m.group(1).split()) if m else {"error": p.stderr[-300:]}
    log("[startup] -X importtime, 5 runs (minimum per module)")
    best = _importtime(["-m", "infotree", "tree", str(weather)], env, 5)
    out["importtime_top"] = sorted(((c, n) for n, (c, s_, top) in best.items() if top), reverse=True)[:6]
    out["importtime_infotree_self"] = sorted(((s_, n) for n, (c, s_, top) in best.items() if n.startswith("infotree")),
                                             reverse=True)[:6]


class CountingSink(io.TextIOBase):
    """Counts what is written; samples traced memory every ``every`` nodes; stops after ``budget`` s."""

    class Stop(Exception):
        pass

    def __init__(self, budget, sample_every=None):
        self.chars = self.lines = self.nodes = 0
        self.t0 = time.perf_counter()
        self.budget = budget
        self.every = sample_every
        self.samples = []
        self.marks = []   # (derivations written, seconds since start), every 25

    def writable(self):
        return True

    def write(self, s):
        self.chars += len(s)
        self.lines += s.count("\n")
        if s.startswith("Node: "):
            self.nodes += 1
            if self.nodes == 1 or self.nodes % 25 == 0:
                self.marks.append((self.nodes, time.perf_counter() - self.t0))
            if self.every and self.nodes % self.every == 0:
                self.samples.append((self.nodes, tracemalloc.get_traced_memory()[0]))
            if self.nodes % 50 == 0 and time.perf_counter() - self.t0 > self.budget:
                raise CountingSink.Stop
        return len(s)


def run_printing(args, results, tree_for_print):
    try:
        from infotree.printers import render
        from infotree.printers.cells import has_derivation
    except ImportError as e:
        results["printing"] = {"skipped": f"infotree.printers.render not importable ({e})"}
        return
    name, tree = tree_for_print
    total = sum(1 for nd in tree.root.walk() if has_derivation(nd))
    out = {"data": name, "tree_nodes": count_nodes(tree), "derivation_nodes": total, "budget_s": args.print_seconds}
    results["printing"] = out
    _reset_caches(tree)
    log(f"[printing] render {name} ID3 tree, nodes='all', text, up to {args.print_seconds} s (timing pass)")
    sink = CountingSink(args.print_seconds)
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        render(tree, sink, fmt="text", nodes="all")
        out["complete"] = True
    except CountingSink.Stop:
        out["complete"] = False
    w, c = time.perf_counter() - t0, time.process_time() - c0
    out.update(nodes_done=sink.nodes, chars=sink.chars, lines=sink.lines, wall=w, cpu=c,
               nodes_per_s_wall=sink.nodes / w if w else None, nodes_per_s_cpu=sink.nodes / c if c else None)
    # The tree's text comes first; the rate of the derivations alone, and per half, shows
    # whether printing streams at a steady rate.
    mk = sink.marks
    if len(mk) >= 3:
        (n0, t0), (n1, t1), (n2, t2) = mk[0], mk[len(mk) // 2], mk[-1]
        out.update(tree_text_s=t0, derivations_per_s=(n2 - n0) / (t2 - t0) if t2 > t0 else None,
                   first_half_per_s=(n1 - n0) / (t1 - t0) if t1 > t0 else None,
                   second_half_per_s=(n2 - n1) / (t2 - t1) if t2 > t1 else None)
    _reset_caches(tree)
    log(f"[printing] memory pass (tracemalloc), up to {args.print_seconds} s")
    every = max(1, min(total, max(sink.nodes, 1)) // 10)
    sink = CountingSink(args.print_seconds, sample_every=every)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        try:
            render(tree, sink, fmt="text", nodes="all")
        except CountingSink.Stop:
            pass
        cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out["mem_nodes"] = sink.nodes
    out["mem_peak"] = peak - base
    out["mem_held_after"] = cur - base
    out["mem_samples"] = [(k, v - base) for k, v in sink.samples]
    sm = out["mem_samples"]
    if len(sm) >= 3:
        # Slope over the second half of the samples: bounded caches fill up early; a
        # per-node leak keeps the slope.
        (k0, m0), (k1, m1) = sm[len(sm) // 2], sm[-1]
        out["mem_growth_per_node"] = (m1 - m0) / (k1 - k0) if k1 > k0 else None


def _reset_caches(tree):
    """Forget the candidate records that an earlier pass cached on the nodes."""
    for nd in tree.root.walk():
        if hasattr(nd, "forget"):
            nd.forget()
        elif getattr(nd, "_candidates", None) is not None:
            nd._candidates = None
    gc.collect()


# -- instruction counts -------------------------------------------------------------------

def find_valgrind():
    return shutil.which("valgrind")


def _callgrind_total(path):
    """The instruction total (Ir) from a callgrind output file."""
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no totals in {path}")


def instr_child(kind, crit, name, datasets_dir):
    """Load one data set and, unless kind is 'load', build it once (run under callgrind)."""
    from infotree.growing import build_tree

    spec = next(s for s in specs(Path(datasets_dir), False) if s.name == name)
    data = spec.load()
    if kind == "exact":
        build_tree(data, criterion=crit, max_depth=spec.max_depth)
    elif kind == "float":
        float_twin.build_float_tree(data, criterion=crit, max_depth=spec.max_depth)
    elif kind in ("sklearn-load", "sklearn"):  # the one-hot data and the import, then the fit
        from sklearn.tree import DecisionTreeClassifier

        Xoh, y = one_hot(data), np.asarray(data.y)
        if kind == "sklearn":
            DecisionTreeClassifier(criterion="entropy", max_depth=spec.max_depth, random_state=0).fit(Xoh, y)


def run_instructions(args, results):
    """Instructions executed by each build (callgrind), exact / float: repeatable on a busy machine.

    Each count is (load + build) minus (load alone), from three processes run under
    ``valgrind --tool=callgrind`` with PYTHONHASHSEED=0.  Only user-space instructions
    count: page faults and cache misses, which the CPU-time ratios include, do not.
    """
    import tempfile

    vg = find_valgrind()
    out = {"datasets": {}}
    results["instructions"] = out
    if not vg:
        out["skipped"] = "valgrind not found"
        return
    names = [x.strip() for x in args.instr_on.split(",") if x.strip()]
    known = {s.name for s in specs(args.datasets, False)}
    env = dict(os.environ, PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory(prefix="infotree-callgrind-") as tmp:
        def count(kind, crit, name):
            f = os.path.join(tmp, f"{kind}-{crit}-{name}.out")
            cmd = [vg, "--tool=callgrind", f"--callgrind-out-file={f}", sys.executable, str(Path(__file__).resolve()),
                   "--datasets", str(args.datasets), "--_instr-child", kind, crit, name]
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=str(REPO), env=env)
            if p.returncode != 0:
                raise RuntimeError(f"callgrind {kind} {crit} {name}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
            log(f"[instructions] {name} {kind} {crit}: {time.perf_counter() - t0:.0f} s under callgrind")
            return _callgrind_total(f)

        for name in names:
            if name not in known:
                out["datasets"][name] = {"skipped": "data set not found"}
                continue
            entry = out["datasets"][name] = {}
            base = count("load", "gain", name)
            entry["load"] = base
            for label, crit in ALGOS:
                if label not in args.instr_algos:
                    continue
                ex = count("exact", crit, name) - base
                fl = count("float", crit, name) - base
                entry[label] = {"exact": ex, "float": fl, "ratio": ex / fl if fl > 0 else None}
                log(f"[instructions] {name} {label}: exact {ex / 1e9:.2f} G, float {fl / 1e9:.2f} G, ratio {ex / fl:.3f}")
                if label == "ID3" and sklearn_available():
                    sk = count("sklearn", crit, name) - count("sklearn-load", crit, name)
                    entry[label]["sklearn"] = sk
                    log(f"[instructions] {name} sklearn fit {sk / 1e9:.2f} G (infotree / sklearn {ex / sk:.3f})")
                checkpoint(args, results)


# -- report -----------------------------------------------------------------------------

def table(headers, rows):
    cols = list(zip(*([headers] + rows))) if rows else [[h] for h in headers]
    width = [max(len(str(c)) for c in col) for col in cols]
    line = lambda r: "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, width)))
    out = [line(headers), "  ".join("-" * w for w in width)]
    out += [line(r) for r in rows]
    return "\n".join(out)


def report(results):
    P = print
    P(f"\ninfotree benchmark (issue #7): {results['when']}, python {results['python']}, numpy {results['numpy']}, "
      f"{results['cpus']} CPUs, load average at start {results['load_start']}, at end {results.get('load_end', '(not finished)')}")
    P(f"repeats: {results['repeats']} alternating pairs per build (peers: {results['peer_repeats']}); "
      "times in seconds; memory in MiB (tracemalloc peak of one extra build)")
    rows = []
    for e in results["datasets"]:
        shape = f"{e['rows']}x{e['cols']}" + (f" d<={e['max_depth']}" if e["max_depth"] is not None else "")
        for label, _ in ALGOS:
            r = e["algos"].get(label)
            if not r:
                continue
            match = "same" if not r["diffs_total"] else f"{r['diffs_total']} diff"
            label_n = f"{label} infotree" + (f" ({r['pairs']} pairs)" if r.get("pairs", 0) > results["repeats"] else "")
            rows.append([e["name"], shape, label_n, fmt_s(med(r["exact_wall"])), fmt_s(med(r["exact_cpu"])),
                         fmt_s(min(r["exact_wall"])), fmt_mb(r["exact_peak"]), r["exact_nodes"],
                         fmt_r(r["ratio_cpu"]), fmt_r(r["ratio_wall"]), fmt_r(r["ratio_min"]), match])
            rows.append(["", "", f"{label} float twin", fmt_s(med(r["float_wall"])), fmt_s(med(r["float_cpu"])),
                         fmt_s(min(r["float_wall"])), fmt_mb(r["float_peak"]), r["float_nodes"], "", "", "", ""])
        for peer, p in e["peers"].items():
            if "skipped" in p or "error" in p:
                rows.append(["", "", peer, p.get("skipped") or p.get("error"), "", "", "", "", "", "", "", ""])
            elif peer.startswith("weka"):
                rows.append(["", "", f"{peer} in-JVM", fmt_s(p["build"]), "", fmt_s(min(p["builds"])), "", p.get("size") or "",
                             "", "", "", ""])
                rows.append(["", "", f"{peer} CLI wall", fmt_s(p["wall"]), "", "", "", "", "", "", "", ""])
            elif peer == "infotree CLI":
                rows.append(["", "", "infotree tree --nodes none (CLI wall)", fmt_s(p["wall"]), "", fmt_s(min(p["walls"])), "", "",
                             "", "", "", ""])
            else:
                extra = f" ({p['cols']} one-hot cols)" if "cols" in p else ""
                rows.append(["", "", peer + extra, fmt_s(p["wall"]), fmt_s(p.get("cpu")), fmt_s(min(p["walls"])), "",
                             p.get("nodes", ""), "", "", "", ""])
    if rows:
        P()
        P(table(["dataset", "rows x cols", "algo", "med wall", "med CPU", "min wall", "peak MiB", "nodes",
                 "x CPU", "x wall", "x min", "twin tree"], rows))
        P("x CPU = median over pairs of infotree CPU / float CPU; x wall = the same with wall time; "
          "x min = fastest infotree / fastest float (wall)")
    diffs = [(e["name"], label, r) for e in results["datasets"] for label, r in e["algos"].items() if r["diffs_total"]]
    if results["datasets"]:
        P()
        P("Float twin vs infotree trees:")
        if not diffs:
            P("  identical on every data set above (same split at every node, same leaf labels)")
        for name, label, r in diffs:
            kinds = {}
            for d in r["diffs"]:
                k = d[3].split(":")[0]
                kinds[k] = kinds.get(k, 0) + 1
            more = r["diffs_total"] - len(r["diffs"])
            P(f"  {name} {label}: {r['diffs_total']} top-most differing nodes of {r['compared']} compared "
              f"(classified: {', '.join(f'{v} {k}' for k, v in kinds.items())}{f'; {more} more not classified' if more else ''})")
            for path, es, fs, verdict in r["diffs"][:3]:
                where = ", ".join(f"{f}={v}" for f, v in path) or "root"
                P(f"    at {where}: infotree {es}, float {fs}: {verdict}")
    if "rss" in results:
        rs = results["rss"]
        P()
        P(f"Peak resident memory, {rs['rows']} x 40, max_depth {rs['max_depth']} (fresh subprocess each; resident set "
          "sampled every 5 ms during the build; baseline = after the imports, before the data):")
        rows = []
        for k, v in rs["runs"].items():
            if "error" in v:
                rows.append([k, v["error"], "", "", "", "", "", ""])
                continue
            d = v["data_bytes"] / 2 ** 20
            extra = (v["peak_kb"] - v["baseline_kb"]) / 1024
            rows.append([k, f"{v['baseline_kb'] / 1024:.0f}", f"{d:.0f}", f"{v['data_ready_kb'] / 1024:.0f}",
                         f"{v['peak_kb'] / 1024:.0f}", f"{extra:.0f}", f"{extra / d:.2f}", f"{v['wall']:.0f}"])
        P(table(["build", "baseline MiB", "data MiB", "data ready MiB", "peak RSS MiB", "peak - baseline", "x data",
                 "build s"], rows))
    if "startup" in results:
        s = results["startup"]
        P()
        P(f"Start-up: `{s['cmd']}` against bare `python -c pass`, alternating, medians (seconds):")
        rows = []
        for label, v in s["envs"].items():
            floor = v.get("numpy_floor")
            rows.append([label, v["n"], f"{v['infotree']:.3f}", f"{v['bare']:.3f}", f"{v['over_bare']:.3f}",
                         f"{v['over_bare_pairs']:.3f}", f"{v['over_bare_min']:.3f}", f"{v['over_bare_cpu']:.3f}",
                         "—" if floor is None else f"{floor:.3f}", "—" if floor is None else f"{v['over_floor']:.3f}"])
        P(table(["python", "runs", "infotree", "bare", "over bare", "per-pair", "min-min", "CPU over bare",
                 "import numpy, tabulate", "infotree over that"], rows))
        P("  modules after the command: " + ", ".join(f"{k} {v}" for k, v in s["modules"].items()))
        P("  top-level imports, -X importtime, min of 5 runs, cumulative s: " +
          ", ".join(f"{n} {t:.3f}" for t, n in s["importtime_top"]))
        P("  infotree modules by own import time (s): " + ", ".join(f"{n} {t:.3f}" for t, n in s["importtime_infotree_self"]))
    if "printing" in results:
        p = results["printing"]
        P()
        if "skipped" in p:
            P(f"Printing: skipped: {p['skipped']}")
        else:
            done = "all" if p.get("complete") else f"first {p['nodes_done']} (stopped at the {p['budget_s']} s budget)"
            P(f"Printing: render({p['data']} ID3 tree, fmt='text', nodes='all'): {p['tree_nodes']} nodes, "
              f"{p['derivation_nodes']} with a derivation; rendered {done}")
            P(f"  {p['nodes_per_s_wall']:.1f} nodes/s wall ({p['nodes_per_s_cpu']:.1f} /s CPU), "
              f"{p['chars'] / max(p['nodes_done'], 1):.0f} chars per node")
            if p.get("derivations_per_s"):
                P(f"  the tree's text first: {p['tree_text_s']:.1f} s; then derivations at {p['derivations_per_s']:.1f} /s "
                  f"(first half {p['first_half_per_s']:.1f} /s, second half {p['second_half_per_s']:.1f} /s)")
            samples = ", ".join(f"{k}: {v / 2 ** 20:.1f}" for k, v in p["mem_samples"])
            P(f"  traced memory over {p['mem_nodes']} nodes: peak {p['mem_peak'] / 2 ** 20:.1f} MiB, held after "
              f"{p['mem_held_after'] / 2 ** 20:.1f} MiB; current MiB after k nodes: {samples}")
            g = p.get("mem_growth_per_node")
            if g is not None:
                P(f"  growth over the second half of the samples: {g:.0f} bytes per rendered node "
                  f"({'flat' if abs(g) < 512 else 'NOT flat'})")
    if "instructions" in results:
        ins = results["instructions"]
        P()
        if "skipped" in ins:
            P(f"Instruction counts: skipped: {ins['skipped']}")
        else:
            P("Instruction counts (callgrind; each build = load + build minus load alone; user space only):")
            rows = []
            for name, e in ins["datasets"].items():
                if "skipped" in e:
                    rows.append([name, "", e["skipped"], "", "", "", ""])
                    continue
                for label, _ in ALGOS:
                    if label in e:
                        v = e[label]
                        sk = v.get("sklearn")
                        rows.append([name, label, f"{v['exact'] / 1e9:.3f}", f"{v['float'] / 1e9:.3f}", fmt_r(v["ratio"]),
                                     "" if sk is None else f"{sk / 1e9:.3f}", "" if sk is None else fmt_r(v["exact"] / sk)])
            P(table(["data set", "algo", "infotree G instr", "float twin G instr", "ratio", "sklearn fit G instr",
                     "infotree/sklearn"], rows))
    targets(results)
    if results.get("interrupted"):
        P(f"\nINTERRUPTED ({results['interrupted']}): the sections above are the ones that finished")
    for e in results.get("errors", []):
        P(f"FAILED section {e}")


def targets(results):
    P = print
    lines = []

    def add(name, value, limit, ok, note=""):
        lines.append([name, value, limit, "--" if ok is None else "ok" if ok else "MISS", note])

    for e in results["datasets"]:
        for label, _ in ALGOS:
            r = e["algos"].get(label)
            if not r or r["ratio_cpu"] is None:
                continue
            x = r["ratio_cpu"]
            note = f"wall {fmt_r(r['ratio_wall'])}, min {fmt_r(r['ratio_min'])}"
            if label == "ID3":
                add(f"{e['name']} ID3 exact/float", fmt_r(x), "<= 1.25", x <= TARGETS["id3"], note)
                if e["rows"] >= 10 ** 5:
                    add(f"{e['name']} ID3 exact/float (N >= 1e5)", fmt_r(x), "<= 1.10", x <= TARGETS["id3_large"], note)
            else:
                note += (f"; collapse {r['collapse_share'] * 100:.0f}% of float, grow-only {fmt_r(r['ratio_cpu_grow'])}"
                         if r.get("collapse_share") is not None else "")
                add(f"{e['name']} C4.5 exact/float", fmt_r(x), "<= 1.30", x <= TARGETS["c45"], note)
        if e["name"] == "connect-4" and "ID3" in e["algos"]:
            it = med(e["algos"]["ID3"]["exact_wall"])
            sk = e["peers"].get("sklearn", {})
            if "wall" in sk:
                add("connect-4 ID3 build vs sklearn fit (wall)", f"{it:.2f} vs {sk['wall']:.2f}", "faster", it < sk["wall"])
            wk = e["peers"].get("weka ID3", {})
            if "build" in wk:
                add("connect-4 ID3 build vs Weka Id3 in-JVM", f"{it:.2f} vs {wk['build']:.2f} ({it / wk['build']:.2f}x)",
                    "<= 0.5x", it <= TARGETS["weka_id3"] * wk["build"])
            cli = e["peers"].get("infotree CLI", {})
            if "wall" in wk and "wall" in cli:
                add("connect-4 `infotree tree --nodes none` vs Weka Id3 command (wall)", f"{cli['wall']:.1f} vs {wk['wall']:.1f}",
                    "faster", cli["wall"] < wk["wall"])
    for name, e in results.get("instructions", {}).get("datasets", {}).items():
        for label, _ in ALGOS:
            v = e.get(label)
            if v and v.get("ratio") is not None:
                limit = TARGETS["c45"] if label == "C4.5" else TARGETS["id3"]
                if label == "ID3" and name in ("syn-1e5", "syn-1e6"):
                    limit = TARGETS["id3_large"]
                add(f"{name} {label} exact/float instructions", fmt_r(v["ratio"]), f"<= {limit:.2f}", v["ratio"] <= limit,
                    "callgrind, not time")
            if v and v.get("sklearn") and name == "connect-4":
                add("connect-4 ID3 build vs sklearn fit (instructions)", f"{v['exact'] / 1e9:.2f} G vs {v['sklearn'] / 1e9:.2f} G",
                    "fewer", v["exact"] < v["sklearn"], "callgrind, not time")
    rs = results.get("rss", {}).get("runs", {})
    rows = results.get("rss", {}).get("rows")

    def times_data(v):
        return (v["peak_kb"] - v["baseline_kb"]) * 1024 / v["data_bytes"]

    for k, v in rs.items():
        if "error" in v or not k.startswith("infotree"):
            continue
        x = times_data(v)
        twin = rs.get(k.replace("infotree", "float"), {})
        note = f"float twin {times_data(twin):.2f}x" if "peak_kb" in twin else ""
        if rows != 10 ** 6:  # the tree's nodes weigh more against smaller data: not the target's case
            note += "; the target is for 10^6 rows (--quick measures 10^5)"
        add(f"{rows} x 40 peak RSS {k}", f"{x:.2f}x data", "<= 3x data",
            x <= TARGETS["rss"] if rows == 10 ** 6 else None, note)
    s = results.get("startup")
    if s and s.get("envs"):
        label, v = next(iter(s["envs"].items()))
        add(f"start-up over bare python ({label})", f"{v['over_bare']:.3f} s", "<= 0.25 s", v["over_bare"] <= TARGETS["startup"],
            f"min-min {v['over_bare_min']:.3f} s, CPU {v['over_bare_cpu']:.3f} s; sympy imported: {s['modules'].get('sympy')}"
            + (f"; over `import numpy, tabulate`: {v['over_floor']:.3f} s" if "over_floor" in v else ""))
    if lines:
        P()
        P("Targets (measured; ratios are medians of per-pair CPU-time ratios):")
        P(table(["target", "measured", "limit", "", "note"], lines))


# -- main -------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description="infotree benchmarks (issue #7); see the module docstring")
    ap.add_argument("--quick", action="store_true", help="small data and fewer peers (about 2 minutes)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="run only these sections: data set names, rss, startup, printing, instructions "
                         "(repeatable, comma-separated; 'instructions' runs only when named)")
    ap.add_argument("--repeats", type=int, default=5, help="alternating infotree/float pairs per build (default 5)")
    ap.add_argument("--peer-repeats", type=int, default=None, help="runs per peer (default 3, quick 1)")
    ap.add_argument("--startup-runs", type=int, default=None, help="runs of each start-up command (default 15, quick 10)")
    ap.add_argument("--print-seconds", type=float, default=None, help="time budget per printing pass (default 90, quick 10)")
    ap.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    ap.add_argument("--no-peers", action="store_true", help="skip sklearn and Weka")
    ap.add_argument("--big-peers", action="store_true", help="also run sklearn on the 10^6-row data")
    ap.add_argument("--instr-on", default="syn-1e4,nursery,mushroom", metavar="NAMES",
                    help="data sets of the instructions section (default syn-1e4,nursery,mushroom)")
    ap.add_argument("--instr-algos", default="ID3,C4.5", metavar="ALGOS", help="ID3, C4.5 or both (default)")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON,
                    help=f"raw measurements, rewritten after every section (default {DEFAULT_JSON.relative_to(REPO)})")
    ap.add_argument("--report", type=Path, metavar="JSON", help="print the report of a saved (or interrupted) run and stop")
    ap.add_argument("--_rss-child", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--_instr-child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._rss_child:
        kind, crit, n, depth = args._rss_child
        rss_child(kind, crit, int(n), int(depth))
        return 0
    if args._instr_child:
        instr_child(*args._instr_child, args.datasets)
        return 0
    if args.report:
        report(json.loads(args.report.read_text()))
        return 0
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    args.peer_repeats = args.peer_repeats or (1 if args.quick else 3)
    args.startup_runs = args.startup_runs or (10 if args.quick else 15)
    args.print_seconds = args.print_seconds or (10.0 if args.quick else 90.0)
    only = {s.strip() for o in args.only for s in o.split(",") if s.strip()}
    all_specs = specs(args.datasets, args.quick)
    known = {s.name for s in all_specs} | set(SECTIONS_EXTRA)
    unknown = only - known
    if unknown:
        ap.error(f"unknown section(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    want = lambda name: name in only if name == "instructions" else (not only or name in only)

    results = {"when": time.strftime("%Y-%m-%d %H:%M"), "python": sys.version.split()[0], "numpy": np.__version__,
               "cpus": os.cpu_count(), "load_start": _load(), "repeats": args.repeats,
               "peer_repeats": args.peer_repeats, "datasets": [], "errors": []}
    t_start = time.perf_counter()
    # A stopped run (Ctrl-C, or `kill` / a time limit: SIGTERM) still reports what finished.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        run_sections(args, results, all_specs, want)
    except KeyboardInterrupt as e:
        results["interrupted"] = str(e) or "KeyboardInterrupt"
        log("interrupted: reporting the sections that finished")
    results["load_end"] = _load()
    results["total_s"] = time.perf_counter() - t_start
    checkpoint(args, results)
    report(results)
    print(f"\ntotal {results['total_s']:.0f} s; raw measurements in {args.json}")
    return 130 if results.get("interrupted") else 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def checkpoint(args, results):
    """Write what has been measured so far (``--report`` prints it)."""
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.json.with_name(args.json.name + ".tmp")
        tmp.write_text(json.dumps(results, indent=1, default=str))
        os.replace(tmp, args.json)


def run_sections(args, results, all_specs, want):
    weka_jar = find_weka()
    print_data = "nursery" if args.quick else "connect-4"
    tree_for_print = None
    for spec in all_specs:
        if want(spec.name):
            try:
                kept = run_dataset(spec, args, results, weka_jar, keep=spec.name == print_data and want("printing"))
            except Exception as e:  # report and go on: one broken section must not lose the others
                results["errors"].append(f"{spec.name}: {_err(e)}")
                log(f"[{spec.name}] FAILED: {_err(e)}")
                continue
            finally:
                checkpoint(args, results)
            if kept is not None:
                tree_for_print = (spec.name, kept)
    for name, fn in (("startup", run_startup), ("rss", run_rss), ("instructions", run_instructions)):
        if want(name):
            try:
                fn(args, results)
            except Exception as e:
                results["errors"].append(f"{name}: {_err(e)}")
                results.pop(name, None)
                log(f"[{name}] FAILED: {_err(e)}")
            checkpoint(args, results)
    if want("printing"):
        spec = next((s for s in all_specs if s.name == print_data), None)
        try:
            if spec is None:
                results["printing"] = {"skipped": f"{print_data} data not found"}
            else:
                if tree_for_print is None:
                    from infotree.growing import build_tree

                    log(f"[printing] building the {print_data} ID3 tree")
                    tree_for_print = (print_data, build_tree(spec.load(), criterion="gain"))
                run_printing(args, results, tree_for_print)
        except Exception as e:
            results["printing"] = {"skipped": f"failed: {_err(e)}"}
            log(f"[printing] FAILED: {_err(e)}")
        checkpoint(args, results)


def _err(e):
    return f"{type(e).__name__}: {e}".splitlines()[0][:300]


def _load():
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
