"""How long ``infotree check`` takes to grade a class in one run, against one process per sheet (issue 31).

    python benchmarks/check_class.py               # 100 sheets of each kind, 5 single-sheet runs to compare
    python benchmarks/check_class.py --students 30 --singles 3

Two classes, written here from a seed (each student a different mix of right answers and usual
mistakes): ID3 on the weather data (measures, root, a whole tree) and CART with cost-complexity on the
worked example's data (alphas, R(t), the weakest link, a cp-table row: the grown tree and its sequence
are needed by every sheet). Each class is graded by one ``infotree check SHEET... --rubric --gradebook
--feedback`` process; one-sheet processes are timed too, and the class time is compared with N of them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ID3 = {  # (right, wrong) answers per line
    "H(play)": ("0.940", "0.6518"), "Gain(S, Outlook)": ("0.2467", "0.293"), "IG(humidity)": ("0.152", "0.2"),
    "IG(windy)": ("0.048", "0.05"), "GainRatio(S, outlook)": ("0.156", "0.2624"),
    "H(play | outlook = sunny)": ("0.971", "0.97"), "root": ("outlook", "humidity"),
    "split(outlook = sunny)": ("humidity", "windy"), "leaf(outlook = overcast)": ("yes", "no"),
}
ID3_TREE = ("outlook = sunny\n|  humidity = high: no\n|  humidity = normal: yes\noutlook = overcast: yes\n"
            "outlook = rainy\n|  windy = TRUE: no\n|  windy = FALSE: yes\n")
CART = {
    "alpha(colour in {green, blue}, size > 5)": ("1/2", "1"), "alpha(root)": ("7/5", "7/6"),
    "R(colour in {green, blue})": ("3", "2"), "R(T_{colour in {green, blue}})": ("0", "1"),
    "alpha_1": ("1/2", "1"), "alphas": ("1/2, 1, 2, 3", "1/2, 1, 2"),
    "weakest link": ("colour in {green, blue}, size > 5", "colour not in {green, blue}"),
    "root": ("colour in {green, blue}", "size <= 5"),
}


def sheets(folder: Path, claims: dict, extra: str, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        lines = [f"{lhs} = {pair[rng.random() < 0.25]}" for lhs, pair in claims.items() if rng.random() < 0.9]
        path = folder / f"s{k:03d}.txt"
        path.write_text("\n".join(lines) + "\n\n" + (extra if rng.random() < 0.5 else ""))
        out.append(str(path))
    return out


def rubric(folder: Path, claims: dict) -> str:
    path = folder / "rubric.toml"
    path.write_text("".join(f'[[item]]\nid = "q{k}"\nclaim = "{lhs}"\npoints = 1\n\n' for k, lhs in enumerate(claims)))
    return str(path)


def timed(argv) -> float:
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "infotree", *argv], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"infotree {' '.join(argv[:3])} ...: exit {done.returncode}: {done.stderr.strip()}")
    return elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=100)
    ap.add_argument("--singles", type=int, default=5, help="single-sheet processes timed (their median is used)")
    ap.add_argument("--seed", type=int, default=31)
    a = ap.parse_args(argv)
    kinds = [("id3, weather", ID3, ID3_TREE, ["--data", "tests/data/weather.csv"]),
             ("cart + cost-complexity", CART, "", ["--data", "worked_examples/cost_complexity/data.csv",
                                                    "--algorithm", "cart", "--cp", "0", "--min-samples-split", "2",
                                                    "--min-leaf", "1"])]
    print(f"{'class':<24} {'sheets':>6} {'one run (s)':>12} {'per sheet (ms)':>15} {'one process (s)':>16} "
          f"{'N processes (s)':>16} {'ratio':>6}")
    for name, claims, extra, options in kinds:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            paths = sheets(folder, claims, extra, a.students, a.seed)
            r = rubric(folder, claims)
            whole = timed(["check", *paths, *options, "--rubric", r, "--gradebook", str(folder / "g.csv"),
                           "--feedback", str(folder / "fb")])
            single = statistics.median(timed(["check", p, *options]) for p in paths[:a.singles])
            print(f"{name:<24} {a.students:>6} {whole:>12.2f} {1000 * whole / a.students:>15.1f} {single:>16.3f} "
                  f"{single * a.students:>16.1f} {single * a.students / whole:>6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
