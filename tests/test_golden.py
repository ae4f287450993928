"""Golden outputs: every command and API call of tests/golden/make.py prints today, byte for
byte, what the goldens hold.

They were made at commit 2928522 (before the builder redesign of issue 19) and every case
was byte-identical at the redesign's commits (7798e4a and after); they were then made
again after three intended changes: ``measures``/``node_at`` keep numeric columns numeric
(issue 25, item 1: 46 ``measures`` cases), the new output formats (issue 26) and the
reader's messages naming command-line flags.

A failure names the command, the streams or files that differ, and a diff around the first
difference.  To see the old behaviour whole:

    git worktree add /tmp/infotree-2928522 2928522
    cd /tmp/infotree-2928522 && PYTHONPATH=$PWD python -m infotree <the command>

Regenerate the goldens (``python tests/golden/make.py``) only for an intended change of output.
"""

import importlib.util
import itertools
import re
import shutil
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("golden_make", HERE / "golden" / "make.py")
make = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make)

GOLDEN = make.load()
CASES = GOLDEN["cases"]
DIFF_LINES = 60


@pytest.fixture(scope="module")
def scratch():
    root = Path(tempfile.mkdtemp(prefix="infotree-golden-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _diff(old: str, new: str) -> str:
    """A unified diff around the first difference, cheap on megabyte outputs: the common head
    and tail are cut first, and at most DIFF_LINES lines are shown."""
    import difflib

    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    head = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    lo, tail = max(0, head - 3), max(0, tail - 3)  # keep three lines of context each side
    window_a, window_b = a[lo:len(a) - tail][:400], b[lo:len(b) - tail][:400]
    lines = difflib.unified_diff(window_a, window_b, "golden (2928522)", "now", n=3, lineterm="")
    shown = [_shift(line.rstrip("\n"), lo) for line in itertools.islice(lines, DIFF_LINES)]
    return f"first difference at line {head + 1}:\n" + "\n".join(shown)


def _shift(line: str, lo: int) -> str:
    """A hunk header of the cut window, renumbered as lines of the whole output."""
    if not line.startswith("@@ "):
        return line
    return re.sub(r"([-+])(\d+)", lambda m: f"{m[1]}{int(m[2]) + lo}", line, count=2)


def _problems(golden: dict, got: dict) -> list[str]:
    out = []
    if got["exit"] != golden["exit"]:
        out.append(f"exit status: golden {golden['exit']!r}, now {got['exit']!r}")
    for stream in ("stdout", "stderr"):
        if got[stream] != golden[stream]:
            out.append(f"{stream} differs ({len(golden[stream])} chars golden, {len(got[stream])} now); "
                       + _diff(golden[stream], got[stream]))
    old, new = golden["files"], got["files"]
    if sorted(old) != sorted(new):
        out.append(f"files written: golden {sorted(old)}, now {sorted(new)}")
    for name in sorted(set(old) & set(new)):
        if old[name] != new[name]:
            out.append(f"file $TMP/{name} differs; " + _diff(old[name], new[name]))
    return out


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c["id"] for c in CASES])
def test_output_is_golden(k, scratch):
    """Exit status, stdout, stderr and every file written are the golden bytes."""
    case = CASES[k]
    d = scratch / str(k)
    d.mkdir()
    problems = _problems(case, make.run_case(case, d))
    if problems:
        inputs = f"\n(input files {sorted(case['inputs'])} are stored in the case in tests/golden/golden.json.xz)" \
            if case.get("inputs") else ""
        pytest.fail(f"{case['id']}: output differs from 2928522{inputs}\n" + "\n".join(problems), pytrace=False)


def test_every_data_file_has_goldens():
    """A data set added to tests/data or worked_examples gets goldens (make.py), none is skipped."""
    now, then = make.data_files(), GOLDEN["data_files"]
    added, gone = [f for f in now if f not in then], [f for f in then if f not in now]
    assert not added and not gone, (f"data files added {added}, removed {gone} since the goldens were made; "
                                    "give them goldens (python tests/golden/make.py) once the output is meant to change")
    used = {a for c in CASES for a in c.get("argv", ())}
    assert [f for f in GOLDEN["data_files"] if f not in used] == []


def test_every_api_case_is_known():
    """The API cases stored are the ones make.py can run (a renamed case would silently vanish)."""
    assert sorted(c["api"] for c in CASES if "api" in c) == sorted(make.API)


def test_the_goldens_can_fail():
    """The comparison sees a one-character change in any stream, file or the exit status."""
    golden = {"exit": 0, "stdout": "a\nb\nc\n", "stderr": "", "files": {"m.json": "{}"}}
    assert _problems(golden, dict(golden)) == []
    for key, value in (("exit", 1), ("stdout", "a\nB\nc\n"), ("stderr", "x"), ("files", {"m.json": "{ }"}),
                       ("files", {})):
        assert _problems(golden, {**golden, key: value})
    assert "-b\n+B" in _diff("a\nb\nc\n", "a\nB\nc\n")
    long = "".join(f"{i}\n" for i in range(100))
    assert "@@ -48,7 +48,7 @@\n 47\n 48\n 49\n-50\n+fifty" in _diff(long, long.replace("\n50\n", "\nfifty\n"))
