#!/usr/bin/env python3
"""Compare infotree's C4.5 trees with Weka 3.6's J48, pruned (default) and unpruned (-U).

Not part of the test suite and never needed in CI: it needs Java and Weka (Debian:
``apt-get install weka``, jar at /usr/share/java/weka.jar).  Standard library plus
infotree.

For every ``*.arff`` in the data directories (default: ``../shared/datasets`` and
``../shared/datasets/mixed`` relative to the repository root; numeric attributes and
missing values allowed) and every mode it

* runs Weka once on the training set (no cross-validation) and caches its stdout in
  ``benchmarks/.j48_cache/`` (gitignored; the key is the file name, the options and the
  file's size and mtime)::

      java -Xmx2g -cp /usr/share/java/weka.jar weka.classifiers.trees.J48 -t NAME.arff -no-cv      # pruned
      java -Xmx2g -cp /usr/share/java/weka.jar weka.classifiers.trees.J48 -t NAME.arff -no-cv -U   # unpruned

* takes the tree text between the ``J48 pruned tree`` / ``J48 unpruned tree`` header and
  ``Number of Leaves``, and the leaf and size counts, and parses it into normalised lines
  ``(depth, attribute, operator, value, leaf class or None, weight, errors)``; operator
  is ``=``, ``<=`` or ``>``, value is the printed text, weight and errors are integers in
  hundredths (J48 prints ``Utils.roundDouble(x, 2)``; errors are 0 when not printed).  A
  tree that is a single leaf is one line ``(0, None, None, None, class, w, e)``;
* builds the same tree with infotree's Python API::

      data = infotree.data.load(path, on_missing="keep")
      tree = infotree.build_tree(data, criterion="gain_ratio",
                                 prune="pessimistic" | "none", confidence=Fraction(1, 4))

  and writes it as the same normalised lines: weights and errors rounded as J48 does
  (``Math.round(x*100)/100`` on the double, half up; errors only when > 1e-6),
  thresholds printed as J48's ``Utils.doubleToString(t, 6)`` prints them;
* compares the two line lists: same structure (attributes, operators, values,
  thresholds), same leaf classes, same weights and errors at J48's printed precision.

One row per data set and mode: rows, J48's nodes and leaves, the result (``same``, or the
first differing line with both versions) and infotree's build time.  The script exits 0
only if every compared tree is the same (with ``--no-infotree``: if every J48 output was
parsed and its leaf/node counts agree with the parsed tree).  docs/c45_rules.md,
section 6, states the rules these trees follow.

Options: ``--only NAME`` (repeatable), ``--mode pruned|unpruned|both``,
``--no-infotree`` (Weka side only), ``--datasets DIR`` (repeatable), ``--show`` (print
both trees when they differ), ``--write-fixtures DIR`` (save J48's tree text blocks as
``DIR/NAME.MODE.txt``), ``--refresh`` (ignore the cache), ``--java``, ``--weka-jar``,
``--xmx``, ``--timeout``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
from weka_parity import _arff_token  # noqa: E402  (one ARFF tokenizer for both parity scripts)

SHARED = REPO.parent / "shared" / "datasets"
DEFAULT_DIRS = (SHARED, SHARED / "mixed")
CACHE = REPO / "benchmarks" / ".j48_cache"
DEFAULT_JAR = "/usr/share/java/weka.jar"
J48 = "weka.classifiers.trees.J48"
MODES = {"pruned": [], "unpruned": ["-U"]}
HEADER = {"pruned": "J48 pruned tree", "unpruned": "J48 unpruned tree"}
PRUNE = {"pruned": "pessimistic", "unpruned": "none"}
INDENT = "|   "  # ClassifierTree.dumpTree
SMALL = 1e-6  # weka.core.Utils.SMALL


class ParityError(Exception):
    pass


# -- ARFF header (names as Weka prints them: quotes removed) ---------------------------

def read_header(path: Path):
    """([(name, values or None for a numeric attribute), ...], number of data rows)."""
    attrs, rows, in_data = [], 0, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            if in_data:
                rows += 1
                continue
            low = s.lower()
            if low.startswith("@data"):
                in_data = True
            elif low.startswith("@attribute"):
                name, i = _arff_token(s, len("@attribute"))
                rest = s[i:].strip()
                if rest.startswith("{"):
                    body = rest[1:rest.rindex("}")]
                    values, k = [], 0
                    while k < len(body):
                        v, k = _arff_token(body, k)
                        values.append(v)
                        while k < len(body) and body[k] in " \t,":
                            k += 1
                    attrs.append((name, values))
                else:
                    attrs.append((name, None))
    if not attrs:
        raise ParityError(f"{path}: no @attribute lines")
    return attrs, rows


# -- Weka side ---------------------------------------------------------------------------

def cache_file(arff: Path, mode: str) -> Path:
    st = arff.stat()
    opts = "_".join(o.lstrip("-") for o in MODES[mode]) or "default"
    return CACHE / f"{arff.name}.{opts}.{st.st_size}.{st.st_mtime_ns}.txt"


def weka_output(arff: Path, mode: str, args) -> tuple[str, bool]:
    """J48's stdout for the file and mode, from the cache or by running Weka once."""
    cf = cache_file(arff, mode)
    if cf.exists() and not args.refresh:
        return cf.read_text(encoding="utf-8"), True
    cmd = [args.java, f"-Xmx{args.xmx}", "-cp", args.weka_jar, J48, "-t", str(arff), "-no-cv", *MODES[mode]]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise ParityError(f"weka timed out after {args.timeout}s") from None
    if r.returncode != 0 or "Number of Leaves" not in r.stdout:
        raise ParityError(f"weka failed: {(r.stderr or r.stdout).strip()[-300:]}")
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = cf.with_name(cf.name + ".tmp")
    tmp.write_text(r.stdout, encoding="utf-8")
    os.replace(tmp, cf)
    return r.stdout, False


def extract_block(stdout: str, mode: str):
    """(tree lines, leaves, size, fixture text) from J48's stdout."""
    lines = stdout.splitlines()
    try:
        h = next(i for i, l in enumerate(lines) if l.strip() == HEADER[mode])
    except StopIteration:
        raise ParityError(f"no '{HEADER[mode]}' header in Weka's output") from None
    i = h + 1
    if i < len(lines) and set(lines[i].strip()) == {"-"}:
        i += 1
    tree, leaves, size, end = [], None, None, None
    for k in range(i, len(lines)):
        l = lines[k]
        if l.startswith("Number of Leaves"):
            leaves = int(l.split(":", 1)[1])
        elif l.startswith("Size of the tree"):
            size, end = int(l.split(":", 1)[1]), k
            break
        elif leaves is None:
            tree.append(l)
    if leaves is None or size is None:
        raise ParityError("no 'Number of Leaves' / 'Size of the tree' after the tree")
    while tree and not tree[0].strip():
        tree.pop(0)
    while tree and not tree[-1].strip():
        tree.pop()
    start = next(k for k in range(i, len(lines)) if lines[k].strip())
    fixture = "\n".join(lines[start:end + 1]) + "\n"
    return tree, leaves, size, fixture


LEAF_RE = re.compile(r"^(?P<head>.*) \((?P<w>[-+0-9.E]+)(?:/(?P<e>[-+0-9.E]+))?\)$")


def hundredths(text: str) -> int:
    """A printed roundDouble(x, 2) as an integer number of hundredths."""
    return int((Decimal(text) * 100).to_integral_value())


def parse_tree(tree_lines, attrs):
    """J48's tree text -> normalised lines (see the module docstring)."""
    names = sorted((n for n, _ in attrs[:-1]), key=len, reverse=True)
    kinds = {n: v for n, v in attrs[:-1]}
    classes = sorted(attrs[-1][1] or [], key=len, reverse=True)
    out = []
    for raw in tree_lines:
        depth, s = 0, raw
        while s.startswith(INDENT):
            depth, s = depth + 1, s[len(INDENT):]
        cls = w = e = None
        m = LEAF_RE.match(s)
        if m:
            head = m["head"]
            for c in classes:
                if head.endswith(": " + c) or head == ": " + c:
                    cls, s = c, head[: len(head) - len(c) - 2]
                    w, e = hundredths(m["w"]), hundredths(m["e"]) if m["e"] else 0
                    break
        if cls is not None and s == "" and depth == 0 and not out:
            out.append((0, None, None, None, cls, w, e))  # the whole tree is one leaf
            continue
        for n in names:
            ops = ("<=", ">") if kinds[n] is None else ("=",)
            hit = next((op for op in ops if s.startswith(f"{n} {op} ")), None)
            if hit:
                out.append((depth, n, hit, s[len(n) + len(hit) + 2:], cls, w, e))
                break
        else:
            raise ParityError(f"cannot parse J48 line {raw!r}")
    return out


def counts(lines):
    """(leaves, nodes) of a normalised tree."""
    if len(lines) == 1 and lines[0][1] is None:
        return 1, 1
    leaves = sum(l[4] is not None for l in lines)
    return leaves, len(lines) + 1


# -- infotree side ---------------------------------------------------------------------

def java_round2(x) -> int:
    """Math.round(x * 100.0) in hundredths: x*100 as a double, then floor(t + 1/2) exactly."""
    t = float(x) * 100.0
    return math.floor(Fraction(t) + Fraction(1, 2))


def double_to_string(value, digits: int = 6) -> str:
    """weka.core.Utils.doubleToString(double, int) of float(value)."""
    v = float(value)
    temp = v * math.pow(10.0, digits)
    if not abs(temp) < 9.223372036854776e18:
        return repr(v)  # Java's "" + value; never reached for the thresholds here
    p = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    s = str(abs(p)).rjust(digits + 1, "0")
    s = s[:-digits] + "." + s[-digits:]
    s = s.rstrip("0").rstrip(".")
    return ("-" if p < 0 else "") + s


def infotree_lines(tree):
    """The infotree tree as normalised lines, printed the way J48 prints a tree."""
    def leaf(node):
        e = node.errors
        return (node.label_name, java_round2(node.n), java_round2(e) if float(e) > SMALL else 0)

    root = tree.root
    if root.split is None:
        return [(0, None, None, None, *leaf(root))]
    out = []

    def walk(node, depth):
        j = node.split
        name = tree.features[j]
        if tree.kinds[j] == "numeric":
            t = double_to_string(node.threshold)
            conds = [("<=", t), (">", t)]
        else:
            conds = [("=", str(v)) for v in tree.domains[j]]
        if len(conds) != len(node.children):
            raise ParityError(f"node on {name}: {len(node.children)} children for {len(conds)} branches")
        for (op, v), child in zip(conds, node.children):
            if child.split is None:
                out.append((depth, name, op, v, *leaf(child)))
            else:
                out.append((depth, name, op, v, None, None, None))
                walk(child, depth + 1)

    walk(root, 0)
    return out


def build_infotree(arff: Path, mode: str):
    from infotree import build_tree
    from infotree.data import load

    data = load(str(arff), on_missing="keep")
    t0 = time.perf_counter()
    tree = build_tree(data, criterion="gain_ratio", prune=PRUNE[mode], confidence=Fraction(1, 4))
    return tree, time.perf_counter() - t0


# -- comparing and printing ------------------------------------------------------------

def fmt_num(h):
    """Hundredths as J48 prints them (Java's Double.toString of a double below 1e7)."""
    return repr(h / 100)


def fmt_line(l) -> str:
    depth, attr, op, value, cls, w, e = l
    text = INDENT * depth + (f"{attr} {op} {value}" if attr is not None else "")
    if cls is not None:
        text += f": {cls} ({fmt_num(w)}" + (f"/{fmt_num(e)}" if e else "") + ")"
    return text


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def find_arffs(dirs, only):
    found = {}
    for d in dirs:
        for p in sorted(Path(d).glob("*.arff")):
            found.setdefault(p.stem, p)
    if only:
        missing = [n for n in only if n not in found]
        if missing:
            raise SystemExit(f"not found: {', '.join(missing)}")
        return [found[n] for n in only]
    return list(found.values())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", metavar="NAME")
    ap.add_argument("--mode", choices=("pruned", "unpruned", "both"), default="both")
    ap.add_argument("--no-infotree", action="store_true", help="Weka side only")
    ap.add_argument("--datasets", action="append", metavar="DIR")
    ap.add_argument("--show", action="store_true", help="print both trees when they differ")
    ap.add_argument("--write-fixtures", metavar="DIR")
    ap.add_argument("--refresh", action="store_true", help="rerun Weka, ignoring the cache")
    ap.add_argument("--java", default="java")
    ap.add_argument("--weka-jar", default=DEFAULT_JAR)
    ap.add_argument("--xmx", default="2g")
    ap.add_argument("--timeout", type=float, default=3600)
    args = ap.parse_args(argv)

    modes = ("pruned", "unpruned") if args.mode == "both" else (args.mode,)
    arffs = find_arffs(args.datasets or DEFAULT_DIRS, args.only)
    ok = True
    print(f"{'data set':<16} {'mode':<8} {'rows':>6} {'nodes':>6} {'leaves':>6} {'infotree s':>10}  result")
    for arff in arffs:
        try:
            attrs, n_rows = read_header(arff)
        except (OSError, ParityError) as e:
            print(f"{arff.stem:<16} {'':<8} {'':>6} {'':>6} {'':>6} {'':>10}  ERROR {e}")
            ok = False
            continue
        for mode in modes:
            row = f"{arff.stem:<16} {mode:<8} {n_rows:>6}"
            try:
                stdout, _ = weka_output(arff, mode, args)
                block, leaves, size, fixture = extract_block(stdout, mode)
                weka = parse_tree(block, attrs)
                if counts(weka) != (leaves, size):
                    raise ParityError(f"parsed tree has {counts(weka)} leaves/nodes, J48 says {(leaves, size)}")
            except ParityError as e:
                print(f"{row} {'':>6} {'':>6} {'':>10}  WEKA ERROR {e}")
                ok = False
                continue
            if args.write_fixtures:
                d = Path(args.write_fixtures)
                d.mkdir(parents=True, exist_ok=True)
                (d / f"{arff.stem}.{mode}.txt").write_text(fixture, encoding="utf-8")
            row += f" {size:>6} {leaves:>6}"
            if args.no_infotree:
                print(f"{row} {'':>10}  parsed")
                continue
            try:
                tree, secs = build_infotree(arff, mode)
                mine = infotree_lines(tree)
            except Exception as e:  # the engine may refuse the data: report it, go on
                print(f"{row} {'':>10}  INFOTREE ERROR {type(e).__name__}: {str(e)[:200]}")
                ok = False
                continue
            i = first_difference(weka, mine)
            if i is None:
                print(f"{row} {secs:>10.3f}  same")
                continue
            ok = False
            w_line = fmt_line(weka[i]) if i < len(weka) else "(end of tree)"
            m_line = fmt_line(mine[i]) if i < len(mine) else "(end of tree)"
            print(f"{row} {secs:>10.3f}  DIFFERS at line {i + 1}: infotree has {len(mine)} lines, J48 {len(weka)}")
            print(f"    J48:      {w_line}")
            print(f"    infotree: {m_line}")
            if args.show:
                print("    --- J48 ---")
                print("\n".join("    " + fmt_line(l) for l in weka))
                print("    --- infotree ---")
                print("\n".join("    " + fmt_line(l) for l in mine))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
