#!/usr/bin/env python3
"""Two commits of infotree timed side by side, alternating, on the same fits: a refactoring's
"no slower" measured, not assumed (issue 32, item 6).

Each commit is checked out once into a temporary worktree; each timing runs in a fresh
child process with that checkout first on ``sys.path`` and reports the CPU seconds of the
fit alone (``time.process_time``), so imports and data generation are not timed and the
shared machine's other load counts less than wall time would.  Runs alternate A, B, A, B,
...; the medians and the ratio B/A are printed per case, with the load average before and
after.

    python3 benchmarks/ab.py 49d2028 HEAD                  # the default cases, 5 pairs each
    python3 benchmarks/ab.py main my-branch --pairs 3 --cases cart_1e5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name -> (setup, timed statement).  infotree is imported before cart_speed, whose data the cases
# share: cart_speed puts its own checkout first on sys.path, which must not decide which infotree runs.
# The compiled loops (where the commit has them) loaded before the clock, as cart_speed.py does.
_DATA = ("import infotree\nsys.path.insert(1, {bench!r})\nfrom cart_speed import make_numeric, make_regression\n"
         "try:\n    from infotree.grow import kernels\n    kernels.load()\nexcept ImportError:\n    pass\n")
CASES = {
    "cart_1e5": (_DATA + "X, y = make_numeric(100_000)", "infotree.CARTClassifier().fit(X, y)"),
    "regression_1e5": (_DATA + "X, y = make_regression(100_000)", "infotree.CARTRegressor().fit(X, y)"),
    "cart_1e6": (_DATA + "X, y = make_numeric(1_000_000)", "infotree.CARTClassifier().fit(X, y)"),
    "regression_1e6": (_DATA + "X, y = make_regression(1_000_000)", "infotree.CARTRegressor().fit(X, y)"),
    "forest_1e4": (_DATA + "X, y = make_numeric(10_000)",
                   "infotree.RandomForestClassifier(n_estimators=100, random_state=0).fit(X, y)"),
    "forest_nursery": ("import infotree, csv, numpy as np\n"
                       "rows = list(csv.reader(open({datasets!r} + '/nursery.csv')))\n"
                       "X, y = np.array([r[:-1] for r in rows[1:]], dtype=str), [r[-1] for r in rows[1:]]",
                       "infotree.RandomForestClassifier(n_estimators=100, random_state=0, criterion='gain').fit(X, y)"),
    "id3_tree": ("import infotree\ndata = infotree.load({root!r} + '/worked_examples/play_tennis/data.csv')",
                 "for _ in range(200): infotree.build_tree(data)"),
}

_CHILD = """
import sys, time, json
sys.path.insert(0, {path!r})
{setup}
t = time.process_time()
{stmt}
print(json.dumps(time.process_time() - t))
"""


def _time(path, case, datasets) -> float:
    setup, stmt = CASES[case]
    code = _CHILD.format(path=path, setup=setup.format(root=ROOT, bench=HERE, datasets=datasets), stmt=stmt)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=path, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a", help="the base commit (any git ref)")
    p.add_argument("b", help="the commit compared with it")
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--cases", default=",".join(c for c in CASES if not c.endswith("1e6")),
                   help="comma-separated: " + ", ".join(CASES) + " (the 10^6 ones only when named)")
    p.add_argument("--datasets", default=os.path.join(os.path.dirname(ROOT), "shared", "datasets"),
                   help="where nursery.csv is (default ../shared/datasets)")
    args = p.parse_args(argv)
    cases = args.cases.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for side, ref in (("a", args.a), ("b", args.b)):
            path = os.path.join(tmp, side)
            subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-q", path, ref], check=True)
            paths[path] = ref
        (pa, pb) = list(paths)
        try:
            print(f"load before: {os.getloadavg()}")
            print(f"{'case':16} {'A ' + args.a:>18} {'B ' + args.b:>18} {'B/A':>7}")
            for case in cases:
                ta, tb = [], []
                for _ in range(args.pairs):
                    ta.append(_time(pa, case, args.datasets))
                    tb.append(_time(pb, case, args.datasets))
                ma, mb = statistics.median(ta), statistics.median(tb)
                print(f"{case:16} {ma:17.3f}s {mb:17.3f}s {mb / ma:7.3f}", flush=True)
            print(f"load after: {os.getloadavg()}")
        finally:
            for path in paths:
                subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", path], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
