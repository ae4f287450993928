"""infotree.exercise: every student's data set, questions and key; the key graded by check itself."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from fractions import Fraction

import pytest

from infotree.cli import main
from infotree.exercise import FILES, KINDS, make_exercise, read_roster, write_exercise
from infotree.parse import parse_exact

tomllib = pytest.importorskip("tomllib")

#: seeds per kind in the suite (INFOTREE_EXERCISE_SEEDS=50 for the issue's full round trip)
SEEDS = range(int(os.environ.get("INFOTREE_EXERCISE_SEEDS", "4")))
#: the depth of the grown tree each kind asks for (cost complexity: T0 at most 3)
DEPTHS = {"id3": {2}, "c45": {1, 2}, "gini": {2}, "regression": {2}, "cost-complexity": {1, 2, 3}}


def _run(argv) -> tuple:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as e:  # argparse's usage errors
            status = e.code
    return status, out.getvalue(), err.getvalue()


def _flags(folder) -> list:
    """check.toml read as TOML and turned into flags here, independently of the package's own helper."""
    with open(os.path.join(folder, "check.toml"), "rb") as f:
        options = tomllib.load(f)
    argv = []
    for key, value in options.items():
        for v in value if isinstance(value, list) else [value]:
            argv += ["--" + key.replace("_", "-")] + ([] if v is True else [str(v)])
    return argv


def _check(folder, answers) -> dict:
    path = str(folder).rstrip("/") + ".answers.txt"  # beside the folder: the folder holds the files only
    with open(path, "w", encoding="utf-8") as f:
        f.write(answers)
    status, out, err = _run(["check", path, "--data", os.path.join(folder, "data.csv"), "--format", "json",
                             *_flags(folder)])
    report = json.loads(out)
    assert report["error"] is None, err
    return report


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    """(kind, seed) -> (exercise, its folder), for every kind and seed."""
    root = tmp_path_factory.mktemp("class")
    made = {}
    for kind in KINDS:
        for seed in SEEDS:
            ex = make_exercise(kind, seed=seed, student="s01")
            folder = root / kind / str(seed)
            write_exercise(ex, folder)
            made[kind, seed] = ex, str(folder)
    return made


def test_key_is_graded_all_right_by_check(classroom):
    """For every kind and seed, the current `infotree check` grades every claim of the key right."""
    for (kind, seed), (ex, folder) in classroom.items():
        with open(os.path.join(folder, "answers_key.txt"), encoding="utf-8") as f:
            report = _check(folder, f.read())
        wrong = [(c["claim"], c["verdict"], c["message"]) for c in report["claims"] if c["verdict"] != "right"]
        assert not wrong, (kind, seed, wrong)
        assert report["summary"]["claims"] == len(ex.questions), (kind, seed)


def _mistake(q, ex) -> str:
    """The key's line for q with its answer made wrong."""
    if q.claim == "tree":  # the first leaf's class swapped
        lines = q.answer.split("\n")
        i = next(i for i, line in enumerate(lines) if re.search(r": \S+ \(", line))
        head, _, tail = lines[i].rpartition(": ")
        label, rest = tail.split(" ", 1)
        if ex.kind == "regression":
            new = label + "1"  # 32.5 -> 32.51: another number
        else:
            column = [r[-1] for r in ex.rows]
            new = next(c for c in dict.fromkeys(column) if c != label)
        lines[i] = f"{head}: {new} {rest}"
        return "\n".join(lines)
    if q.claim == "alphas":
        return f"{q.claim} = {q.answer}, 1000"
    if " for " in q.answer:  # a vote share: another share
        share, _, cls = q.answer.partition(" for ")
        return f"{q.claim} = {'1/3' if Fraction(share) != Fraction(1, 3) else '1'} for {cls}"
    if q.value is not None:
        return f"{q.claim} = ({q.answer}) + 1"
    if q.claim == "root":  # the root on another attribute
        used = q.answer.split()[0]
        other = next(h for h in ex.header[:-1] if h != used)
        return f"root = {other}"
    if q.claim == "weakest link":
        return "weakest link = root"
    # a class or a name: another value of the target column
    column = [r[-1] for r in ex.rows]
    return f"{q.claim} = {next(c for c in dict.fromkeys(column) if c != q.answer)}"


def test_one_planted_mistake_is_exactly_that_claim_wrong(classroom):
    """A key with one question's answer changed grades that claim, and only it, not right."""
    for (kind, seed), (ex, folder) in classroom.items():
        if seed != SEEDS[0] and "INFOTREE_EXERCISE_SEEDS" not in os.environ:
            continue  # the first seed in the suite; every seed when the full run is asked for
        lines = [q.line for q in ex.questions]
        for i, q in enumerate(ex.questions):
            planted = lines[:i] + [_mistake(q, ex)] + lines[i + 1:]
            report = _check(folder, "\n".join(planted) + "\n")
            verdicts = [c["verdict"] for c in report["claims"]]
            assert len(verdicts) == len(lines), (kind, q.claim, verdicts)
            bad = [j for j, v in enumerate(verdicts) if v != "right"]
            messages = [c["message"] for c in report["claims"] if c["verdict"] != "right"]
            assert bad == [i], (kind, q.claim, planted[i], messages)


def test_files_and_rubric(classroom):
    """Every file is written; the rubric lists one item per question, its claim the key's left-hand side."""
    ex, folder = classroom["id3", SEEDS[0]]
    assert sorted(os.listdir(folder)) == sorted(FILES)
    with open(os.path.join(folder, "rubric.toml"), "rb") as f:
        rubric = tomllib.load(f)
    assert rubric["credit"] == {"right": 1.0, "imprecise": 0.5, "close": 0.5, "wrong": 0.0}
    assert (rubric["kind"], rubric["seed"], rubric["student"]) == ("id3", SEEDS[0], "s01")
    assert [i["claim"] for i in rubric["item"]] == [q.claim for q in ex.questions]
    assert all(isinstance(i["points"], int) and i["points"] > 0 for i in rubric["item"])
    with open(os.path.join(folder, "sheet.md"), encoding="utf-8") as f:
        sheet = f.read()
    for q in ex.questions:
        assert (q.prompt[1:] if q.prompt else f"`{q.claim} = ?`") in sheet
    # the sheet never shows an answer
    assert not any(q.answer in sheet for q in ex.questions if q.value is not None)


def test_same_seed_and_student_give_the_same_files(tmp_path):
    """Byte-identical files from the same seed and id; another student gets other data."""
    for kind in KINDS:
        a, b = tmp_path / kind / "a", tmp_path / kind / "b"
        write_exercise(make_exercise(kind, seed=5, student="amy"), a)
        write_exercise(make_exercise(kind, seed=5, student="amy"), b)
        for name in FILES:
            assert (a / name).read_bytes() == (b / name).read_bytes(), (kind, name)
        other = make_exercise(kind, seed=5, student="bob")
        assert (a / "data.csv").read_text() != "\n".join(",".join(r) for r in [other.header, *other.rows]) + "\n"


def _denominator_primes(text) -> set:
    """Primes of every denominator and log2 argument of an exact answer, read back from its text."""
    import sympy

    out = set()
    for num in re.findall(r"log2\((\d+)\)", text):
        out |= set(sympy.factorint(int(num)))
    value = Fraction(text) if re.fullmatch(r"-?[0-9.]+(/[0-9]+)?", text) else parse_exact(text)
    for q in ([value] if isinstance(value, Fraction) else [value.c0, *(c for _, c in value.terms)]
              if hasattr(value, "terms") else [value.num.c0, value.den.c0,
                                               *(c for _, c in value.num.terms), *(c for _, c in value.den.terms)]):
        out |= set(sympy.factorint(Fraction(q).denominator))
    return out


def test_good_exercise_properties(classroom):
    """Default sizes (8-20 rows, 2-5 attributes of 2-4 values), each class a quarter of the rows, the kind's depth,
    the root's choice strictly best (no tie), and no prime above 7 in any asked number."""
    for (kind, seed), (ex, folder) in classroom.items():
        assert 8 <= len(ex.rows) <= 20 and 2 <= len(ex.header) - 1 <= 5, (kind, seed)
        with open(os.path.join(folder, "data.csv"), encoding="utf-8") as f:
            rows = list(csv.reader(f))[1:]
        for j, name in enumerate(ex.header[:-1]):
            values = {r[j] for r in rows} - {"?"}
            if not all(v.isdigit() for v in values):
                assert 2 <= len(values) <= 4, (kind, seed, name, values)
        if kind != "regression":
            labels = [r[-1] for r in rows]
            assert min(labels.count(c) for c in set(labels)) >= len(rows) / 4
        sol = ex.solution
        tree = sol.tree
        if kind in DEPTHS:
            assert max(n.depth for n in tree.root.walk()) in DEPTHS[kind], (kind, seed)
        assert ex.ties == [], (kind, seed)
        if kind in ("id3", "gini", "regression"):
            cands = tree.root.candidates()
            score = (lambda c: c.gain) if kind == "id3" else (lambda c: c.decrease)
            chosen = [c for c in cands if c.feature == tree.features[tree.root.split]][0]
            assert all(score(c) < score(chosen) for c in cands if c is not chosen), (kind, seed)
        for q in ex.questions:
            if q.value is not None:
                answer = q.answer.partition(" for ")[0]
                assert max(_denominator_primes(answer), default=2) <= 7, (kind, seed, q.line)


@pytest.mark.parametrize("kind", ["id3", "gini", "regression", "cost-complexity", "bagging"])  # c45: 4 s, by hand
def test_ties_on_request_are_named_and_graded(kind, tmp_path):
    """--ties: the key names an exact tie at an asked decision, and check still grades the key right."""
    ex = make_exercise(kind, seed=0, student="s01", ties=True)
    write_exercise(ex, tmp_path)
    assert ex.ties and ("tie exactly" in ex.ties[0] or "of the same alpha" in ex.ties[0]), ex.ties
    key = (tmp_path / "key.md").read_text(encoding="utf-8")
    assert f"- {ex.ties[0]}" in key
    report = _check(str(tmp_path), (tmp_path / "answers_key.txt").read_text(encoding="utf-8"))
    assert report["summary"]["all_right"], [c["message"] for c in report["claims"] if c["verdict"] != "right"]


def test_max_prime_option_is_kept():
    """--max-prime 3: every asked number needs only the primes 2 and 3."""
    ex = make_exercise("gini", seed=1, student="s01", max_prime=3)
    assert all(max(_denominator_primes(q.answer), default=2) <= 3 for q in ex.questions if q.value is not None)


def test_cli_writes_a_class(tmp_path):
    """`infotree exercise` with a roster CSV: one folder per student, one line each on stdout."""
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nalice,Alice A\nbob,Bob B\n", encoding="utf-8")
    status, out, err = _run(["exercise", "--kind", "gini", "--seed", "3", "--students", str(roster),
                             "--out", str(tmp_path / "out")])
    assert status == 0, err
    assert [line.split(":")[0] for line in out.splitlines()] == ["alice", "bob"]
    assert sorted(os.listdir(tmp_path / "out" / "bob")) == sorted(FILES)
    status, out, err = _run(["exercise", "--kind", "id3", "--seed", "3", "--students", "3", "--out",
                             str(tmp_path / "n")])
    assert status == 0 and sorted(os.listdir(tmp_path / "n")) == ["s01", "s02", "s03"]


def test_bad_input_is_one_line(tmp_path):
    """A bad roster id, a repeated id, an unknown kind, bad sizes: one line naming the value, never a traceback."""
    roster = tmp_path / "r.csv"
    roster.write_text("id\nann\nb d\n", encoding="utf-8")
    status, _, err = _run(["exercise", "--kind", "id3", "--seed", "1", "--students", str(roster)])
    assert status == 1
    assert err == (f"infotree: error: {roster} line 3 column 1: student id 'b d' is not allowed; use 1 to 64 letters, "
                   f"digits, '.', '_' or '-', starting with a letter or digit\n")
    roster.write_text("ann\nbo\nann\n", encoding="utf-8")
    with pytest.raises(Exception, match=r"line 3: student id 'ann' repeats line 1"):
        read_roster(roster)
    status, _, err = _run(["exercise", "--kind", "c50", "--seed", "1"])
    assert status == 2 and "invalid choice: 'c50'" in err
    status, _, err = _run(["exercise", "--kind", "id3", "--seed", "1", "--rows", "99", "--out", str(tmp_path)])
    assert (status, err) == (1, "infotree: error: rows 99 is not allowed; give 4 to 40 (done by hand)\n")
    status, _, err = _run(["exercise", "--kind", "id3", "--seed", "1", "--rows", "11", "--out", str(tmp_path)])
    assert (status, err) == (1, "infotree: error: rows 11 put the prime 11 in the denominator of the root's id3 values; "
                             "allow it (--max-prime 11) or give --rows without primes above 7\n")


@pytest.mark.parametrize("module", ["infotree.exercise", "infotree.exercise.tables"])
def test_docstring_examples_run(module):
    """The examples in the package's docstrings run and print what they claim."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_docs_example_is_true():
    """docs/exercise.md's Python example shows the key line make_exercise gives."""
    with open(os.path.join(os.path.dirname(__file__), "..", "docs", "exercise.md"), encoding="utf-8") as f:
        docs = f.read()
    line = make_exercise("gini", seed=7, student="alice").questions[0].line
    assert f"ex.questions[0].line       # '{line}' (the key's claim)" in docs


def test_worked_example_class_is_current(tmp_path):
    """worked_examples/exercise_class: the class regenerated from its roster is byte for byte the committed one,
    and alice's answers get the verdicts its README shows."""
    here = os.path.join(os.path.dirname(__file__), "..", "worked_examples", "exercise_class")
    status, out, err = _run(["exercise", "--kind", "id3", "--seed", "2026", "--students",
                             os.path.join(here, "roster.csv"), "--out", str(tmp_path)])
    assert status == 0, err
    for sid in ("alice", "bob", "carol"):
        for name in FILES:
            with open(os.path.join(here, "class", sid, name), "rb") as f:
                assert f.read() == (tmp_path / sid / name).read_bytes(), (sid, name)
    with open(os.path.join(here, "answers", "alice.txt"), encoding="utf-8") as f:
        report = _check(str(tmp_path / "alice"), f.read())
    assert [c["verdict"] for c in report["claims"]] == ["right", "right", "wrong", "right", "right", "wrong"]


def _table(ex):
    return ex.header, [list(r) for r in ex.rows]


def _sides(values):
    """Every split of a column's values in two non-empty groups: subsets of nominal values, cuts of numbers."""
    from itertools import combinations

    distinct = list(dict.fromkeys(values))
    if all(re.fullmatch(r"-?[0-9.]+", v) for v in distinct):
        nums = sorted({Fraction(v) for v in distinct})
        return [lambda v, t=t: Fraction(v) <= t for t in ((a + b) / 2 for a, b in zip(nums, nums[1:]))]
    return [lambda v, s=set(s): v in s for k in range(1, len(distinct)) for s in combinations(distinct, k)]


def test_values_against_independent_computations():
    """Key values recomputed from the rows alone: ID3's entropy and gains with sympy's logarithms, CART's best
    binary split of each attribute (Gini, SSE) by trying every subset and cut with Fractions."""
    import sympy

    for seed in range(3):
        ex = make_exercise("id3", seed=seed, student="s01")
        header, rows = _table(ex)
        key = {q.claim: q.answer for q in ex.questions}

        def h(labels):
            n = len(labels)
            return -sum(sympy.Rational(labels.count(c), n) * sympy.log(sympy.Rational(labels.count(c), n), 2)
                        for c in set(labels))

        y = [r[-1] for r in rows]
        assert abs(float(parse_exact(key["H(buy)"])) - float(sympy.N(h(y), 30))) < 1e-12
        for j, name in enumerate(header[:-1]):
            cond = sum(sympy.Rational(sum(r[j] == v for r in rows), len(rows)) * h([r[-1] for r in rows if r[j] == v])
                       for v in {r[j] for r in rows})
            assert abs(float(parse_exact(key[f"IG({name})"])) - float(sympy.N(h(y) - cond, 30))) < 1e-12

        ex = make_exercise("gini", seed=seed, student="s01")
        header, rows = _table(ex)
        key = {q.claim: q.answer for q in ex.questions}

        def gini(labels):
            return 1 - sum(Fraction(labels.count(c), len(labels)) ** 2 for c in set(labels))

        y = [r[-1] for r in rows]
        assert Fraction(key["Gini(buy)"]) == gini(y)
        for j, name in enumerate(header[:-1]):
            best = min(sum(Fraction(len(g), len(rows)) * gini(g) for g in (
                [r[-1] for r in rows if side(r[j])], [r[-1] for r in rows if not side(r[j])]))
                for side in _sides([r[j] for r in rows]))
            assert Fraction(key[f"Gini(buy | split on {name})"]) == best
            assert Fraction(key[f"ΔGini({name})"]) == gini(y) - best

        ex = make_exercise("regression", seed=seed, student="s01")
        header, rows = _table(ex)
        key = {q.claim: q.answer for q in ex.questions}

        def sse(ys):
            mean = sum(ys, Fraction(0)) / len(ys) if ys else 0
            return sum((v - mean) ** 2 for v in ys)

        y = [Fraction(r[-1]) for r in rows]
        assert Fraction(key[f"Mean({header[-1]})"]) == sum(y) / len(y)
        assert Fraction(key[f"SSE({header[-1]})"]) == sse(y)
        for j, name in enumerate(header[:-1]):
            best = min(sse([Fraction(r[-1]) for r in rows if side(r[j])]) +
                       sse([Fraction(r[-1]) for r in rows if not side(r[j])]) for side in _sides([r[j] for r in rows]))
            assert Fraction(key[f"ΔSSE({name})"]) == sse(y) - best
