"""The teacher's loop end to end: `infotree exercise` writes a class's folders, `infotree check --exercise`
grades each student's sheet against their own data, key and rubric into one gradebook."""

import csv
import re

from infotree.cli import main


def test_exercise_folders_are_graded_by_check(tmp_path, capsys):
    out, answers = tmp_path / "exo", tmp_path / "answers"
    answers.mkdir()
    assert main(["exercise", "--kind", "id3", "--seed", "7", "--students", "2", "--out", str(out)]) == 0
    ids = sorted(p.name for p in out.iterdir())
    for i in ids:   # each student hands in their own key: full marks
        (answers / f"{i}.txt").write_text((out / i / "answers_key.txt").read_text())
    first = answers / f"{ids[0]}.txt"
    key = first.read_text()
    root = re.search(r"^root = (\S+)$", key, re.M).group(1)
    other = next(f for f in re.findall(r"^IG\((\w+)\)", key, re.M) if f != root)
    # one student names another root on its own line, though their drawn tree starts right
    first.write_text(key.replace(f"root = {root}", f"root = {other}"))
    grades = tmp_path / "grades.csv"
    status = main(["check", *map(str, sorted(answers.iterdir())), "--exercise", str(out), "--gradebook", str(grades)])
    capsys.readouterr()
    assert status == 1
    rows = {r["id"]: r for r in csv.DictReader(grades.open())}
    assert set(rows) == set(ids) and not any(r["error"] for r in rows.values())
    assert rows[ids[1]]["score"] == rows[ids[1]]["max"]
    assert rows[ids[0]]["root"] == "0"
    assert float(rows[ids[0]]["score"]) == float(rows[ids[0]]["max"]) - 2


def test_the_worked_example_gradebook_is_reproduced(tmp_path, capsys):
    """worked_examples/exercise_class: its three answer sheets graded again give its grades.csv byte for byte."""
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent / "worked_examples" / "exercise_class"
    grades = tmp_path / "grades.csv"
    main(["check", *(str(here / "answers" / f"{s}.txt") for s in ("alice", "bob", "carol")),
          "--exercise", str(here / "class"), "--gradebook", str(grades)])
    capsys.readouterr()
    assert grades.read_bytes() == (here / "grades.csv").read_bytes()
