"""``infotree check`` for a whole class (issue 31, items 4 and 7): several sheets in one run, a rubric matched
by meaning, the gradebook, feedback files, --profile and --exercise. The sheets' verdicts are known by hand
(weather.csv: H(play) = 0.9403, IG(outlook) = 0.2467, IG(humidity) = 0.1518, root outlook, humidity under
sunny, overcast a leaf of yes); the scores below are those verdicts times the rubric's credit, by hand."""

import csv
import json
from pathlib import Path

import pytest

from infotree.cli import main

DATA = Path(__file__).parent / "data"
WEATHER = str(DATA / "weather.csv")

SHEETS = {
    "alice": "# Homework 3\nH(play) = 0.940\nGain(S, Outlook) = 0.2467\nIG(humidity) = 0.152\nroot = outlook\n"
             "split(outlook = sunny) = humidity\nleaf(outlook = overcast) = yes\n",
    # natural logarithm (wrong), 0.2 for 0.2467 (imprecise), the wrong root
    "bob": "Entropy(S) = 0.6518\nIG(outlook) = 0.2\nroot = humidity\n",
    # 0.94 (2 significant digits: imprecise), IG(outlook) twice (the better counts), a whole tree
    "carol": "H(play) = 0.94\nIG(outlook) = 0.9\nGain(outlook) = 0.247\n\noutlook = sunny\n|  humidity = high: no\n"
             "|  humidity = normal: yes\noutlook = overcast: yes\noutlook = rainy\n|  windy = TRUE: no\n"
             "|  windy = FALSE: yes\n",
}
RUBRIC = """[credit]
right = 1
imprecise = 0.5

[[item]]
id = "H_play"
claim = "Entropy(S)"
points = 1

[[item]]
id = "gain_outlook"
claim = "IG(outlook)"
points = 2

[[item]]
id = "gain_humidity"
claim = "Gain(S, Humidity)"
points = 1

[[item]]
id = "root"
claim = "root"
points = 1

[[item]]
id = "split_sunny"
claim = "split(outlook = sunny)"
points = 1

[[item]]
id = "leaf_overcast"
claim = "leaf(S_overcast)"
points = 1
"""


@pytest.fixture
def klass(tmp_path):
    for name, text in SHEETS.items():
        (tmp_path / f"{name}.txt").write_text(text)
    (tmp_path / "dave.txt").write_bytes(b"H(play) = 0.940\n\x00\x01")
    (tmp_path / "rubric.toml").write_text(RUBRIC)
    return tmp_path


def sheets(folder, names=("alice", "bob", "carol", "dave")):
    return [str(folder / f"{n}.txt") for n in names]


def run(capsys, *argv):
    status = main(["check", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_gradebook_of_a_small_class(klass, capsys):
    status, out, err = run(capsys, *sheets(klass), "--data", WEATHER, "--rubric", str(klass / "rubric.toml"),
                           "--gradebook", str(klass / "grades.csv"))
    assert status == 1 and err == ""
    rows = list(csv.reader(open(klass / "grades.csv")))
    assert rows[0] == ["id", "score", "max", "H_play", "gain_outlook", "gain_humidity", "root", "split_sunny",
                       "leaf_overcast", "error"]
    assert rows[1] == ["alice", "7", "7", "1", "2", "1", "1", "1", "1", ""]
    # ln (0 of 1), imprecise (1/2 of 2), not answered, wrong root, nothing about the nodes below
    assert rows[2] == ["bob", "1", "7", "0", "1", "0", "0", "0", "0", ""]
    # imprecise (1/2), the better of two (2), not answered, the tree's nodes (root, sunny, overcast) right
    assert rows[3] == ["carol", "5.5", "7", "0.5", "2", "0", "1", "1", "1", ""]
    assert rows[4][:9] == ["dave"] + [""] * 8 and "NUL byte" in rows[4][9]   # one unreadable sheet: its row says why
    assert len(rows) == 5
    lines = out.splitlines()
    assert lines[:4] == ["alice  7 / 7  (6/6 correct)", "bob    1 / 7  (0/3 correct (1 imprecise, 2 wrong))",
                         "carol  5.5 / 7  (2/4 correct (1 imprecise, 1 wrong))",
                         f"dave   not graded: {klass / 'dave.txt'} line 2 contains a NUL byte; the file looks binary, "
                         f"expected text with one claim per line"]
    assert "class: 4 sheets, 3 graded, 1 not graded" in lines
    assert "mean score: 4.5 / 7" in lines   # (7 + 1 + 5.5) / 3
    assert "    2 students  gain_humidity (missing 2)" in lines
    assert "    1 student   root (wrong 1)" in lines
    mistakes = lines[lines.index("most frequent mistakes:") + 1]
    assert mistakes.startswith("    1 student   H(play): natural logarithm")


def test_without_rubric_counts_per_verdict_and_order_is_stable(klass, capsys):
    argv = [*reversed(sheets(klass, ("carol", "alice", "bob"))), "--data", WEATHER, "--gradebook", str(klass / "g.csv")]
    assert run(capsys, *argv)[0] == 1
    first = (klass / "g.csv").read_text()
    assert first.splitlines() == ["id,score,max,claims,right,imprecise,close,wrong,unreadable,error",
                                  "alice,6,6,6,6,0,0,0,0,", "bob,0.5,3,3,0,1,0,2,0,", "carol,2.5,4,4,2,1,0,1,0,"]
    assert run(capsys, *sheets(klass, ("bob", "alice", "carol")), "--data", WEATHER,
               "--gradebook", str(klass / "g.csv"))[0] == 1
    assert (klass / "g.csv").read_text() == first


def test_class_exit_status(klass, capsys):
    (klass / "ok.txt").write_text("H(play) = 0.940\nroot = outlook\n")
    (klass / "ok2.txt").write_text("IG(outlook) = 0.2467\n")
    status, out, _ = run(capsys, str(klass / "ok.txt"), str(klass / "ok2.txt"), "--data", WEATHER)
    assert status == 0 and "class: 2 sheets, 2 graded" in out
    assert run(capsys, *sheets(klass, ("alice",)), "--data", WEATHER, "--rubric", str(klass / "rubric.toml"))[0] == 0
    # bad usage: 2, one line
    for argv, says in (
            ([str(klass / "ok.txt")], "the following arguments are required: --data"),
            ([str(klass / "ok.txt"), "-", "--data", WEATHER], "'-' (standard input) is one sheet"),
            ([str(klass / "ok.txt"), str(klass / "sub" / "ok.txt"), "--data", WEATHER], "two sheets have the id 'ok'"),
            ([str(klass / "ok.txt"), "--data", WEATHER, "--exercise", str(klass)], "exclude each other")):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "") and says in err and err.count("\n") == 1, err


def test_rubric_matches_by_meaning(tmp_path, capsys):
    """Gain(S, Outlook) answers the item IG(outlook); IG(humidity) the item Gain(S, Humidity); a tree's node the
    item split(...) or leaf(S_overcast); I(outlook; play) is another quantity and answers nothing."""
    (tmp_path / "r.toml").write_text(RUBRIC)
    (tmp_path / "s.txt").write_text("I(outlook; play) = 0.2467\nGain(S, Outlook) = 0.2467\n"
                                    "Gain(S_sunny, Humidity) = 0.971\nIG(humidity) = 0.1518\n"
                                    "leaf(Outlook = Overcast) = yes\nsplit(OUTLOOK = Sunny) = humidity\n")
    status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--rubric", str(tmp_path / "r.toml"),
                         "--format", "json")
    doc = json.loads(out)
    items = {i["id"]: (i["verdict"], i["points"], i["line"]) for i in doc["students"][0]["rubric"]["items"]}
    assert items == {"H_play": ("missing", "0", None), "gain_outlook": ("right", "2", 2),
                     "gain_humidity": ("right", "1", 4), "root": ("missing", "0", None),
                     "split_sunny": ("right", "1", 6), "leaf_overcast": ("right", "1", 5)}
    assert doc["version"] == 3 and doc["students"][0]["report"]["version"] == 3


def test_carried_forward_credit(tmp_path, capsys):
    """A node graded against the tree grown from the student's own wrong choice earns what its verdict says,
    or [credit] carried."""
    (tmp_path / "s.txt").write_text("humidity = high\n|  outlook = sunny: no\n|  outlook = overcast: yes\n"
                                    "|  outlook = rainy: no\nhumidity = normal: yes\n")
    rubric = '[[item]]\nid = "normal"\nclaim = "leaf(humidity = high, outlook = overcast)"\npoints = 2\n'
    for credit, points in (("", "2"), ("[credit]\ncarried = 0.5\n", "1")):
        (tmp_path / "r.toml").write_text(credit + rubric)
        status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--rubric", str(tmp_path / "r.toml"),
                             "--format", "json")
        item = json.loads(out)["students"][0]["rubric"]["items"][0]
        assert (item["verdict"], item["carried_forward"], item["points"]) == ("right", True, points)


@pytest.mark.parametrize("text, says", [
    ('[[item]]\nid = "a"\nclaim = "IG(outlook) = 0.25"\npoints = 1\n', "has a value; give the left-hand side only"),
    ('[[item]]\nid = "a"\nclaim = "IG(outlok)"\npoints = 1\n', "item 'a': claim 'IG(outlok)' is not a quantity"),
    ('[[item]]\nid = "a"\nclaim = "H(play)"\npoints = 1\n[[item]]\nid = "a"\nclaim = "root"\npoints = 1\n',
     "id 'a' is given twice"),
    ('[[item]]\nid = "score"\nclaim = "H(play)"\npoints = 1\n', "is a column of the gradebook itself"),
    ('[[item]]\nid = "a"\nclaim = "H(play)"\npoint = 1\n', "unknown key 'point'"),
    ('[credit]\nright = 2\n[[item]]\nid = "a"\nclaim = "H(play)"\npoints = 1\n', "credit.right = 2 is not allowed"),
    ('[credit]\nwrongg = 0\n[[item]]\nid = "a"\nclaim = "H(play)"\npoints = 1\n', "unknown key 'wrongg' in [credit]"),
    ('[[item]]\nid = "a"\nclaim = "H(play)"\npoints = -1\n', "points = -1 is not allowed"),
    ("[[item]\n", "not valid TOML"),
])
def test_bad_rubric_is_refused_in_one_line(tmp_path, capsys, text, says):
    (tmp_path / "r.toml").write_text(text)
    (tmp_path / "s.txt").write_text("H(play) = 0.940\n")
    status, out, err = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--rubric", str(tmp_path / "r.toml"))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"infotree check: error: {tmp_path / 'r.toml'}") and says in err, err


def test_profile_loads_options_and_the_command_line_wins(tmp_path, capsys):
    (tmp_path / "s.txt").write_text("H(play) = 0.94\n")
    (tmp_path / "course.toml").write_text('min_decimals = 2\nmin-digits = 2\nformat = "json"\n')
    status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--profile", str(tmp_path / "course.toml"))
    doc = json.loads(out)
    assert status == 0 and (doc["min_decimals"], doc["min_digits"]) == (2, 2)
    # a flag given on the command line wins, even when it gives the default value
    status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--profile", str(tmp_path / "course.toml"),
                         "--min-decimals", "3", "--min-digits", "3")
    doc = json.loads(out)
    assert status == 1 and doc["claims"][0]["verdict"] == "imprecise" and doc["min_decimals"] == 3
    # a path in a profile is read from the profile's folder; a repeatable option takes a list
    sub = tmp_path / "course"
    sub.mkdir()
    (sub / "r.toml").write_text('[[item]]\nid = "h"\nclaim = "H(play)"\npoints = 4\n')
    (sub / "p.toml").write_text('rubric = "r.toml"\nmin_decimals = 2\nmin_digits = 2\ndrop = ["windy"]\n')
    status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--profile", str(sub / "p.toml"),
                         "--format", "json")
    assert status == 0 and json.loads(out)["students"][0]["score"] == "4"


@pytest.mark.parametrize("text, says", [
    ("min_decimal = 2\n", "key 'min_decimal' is not an option of infotree check; allowed keys: algorithm,"),
    ('c45_gain = "mld"\n', "key 'c45_gain': invalid choice 'mld'; allowed: mdl, plain"),
    ('min_digits = "x"\n', "key 'min_digits': invalid digits 'x'"),
    ("explain = 1\n", "key 'explain': 1 is not allowed; give true or false"),
    ('criterion = ["gini"]\n', "key 'criterion': a list; --criterion takes one value"),
    ("min_digits = 2\nmin-digits = 3\n", "key 'min-digits' is given twice"),
    ('profile = "x.toml"\n', "key 'profile' is not an option"),
    ("min_digits =\n", "not valid TOML"),
])
def test_profile_refusals(tmp_path, capsys, text, says):
    (tmp_path / "p.toml").write_text(text)
    (tmp_path / "s.txt").write_text("H(play) = 0.940\n")
    status, out, err = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER, "--profile", str(tmp_path / "p.toml"))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"infotree check: error: {tmp_path / 'p.toml'}") and says in err, err
    if "allowed keys" in says:
        assert "min_decimals" in err and "c45_gain" in err and "risk_units" in err


def test_conventions_are_printed(tmp_path, capsys):
    (tmp_path / "s.txt").write_text("H(play) = 0.940\n")
    status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", WEATHER)
    assert out.splitlines()[:4] == [
        "graded under:",
        "  precision: a rounded decimal is right with at least 3 decimal places or 3 significant digits",
        "  log: 'log' in answers is log2", ""]
    status, out, _ = run(capsys, str(tmp_path / "s.txt"), "--data", str(DATA / "weather.numeric.csv"),
                         "--criterion", "gain-ratio", "--c45-gain", "plain", "--min-decimals", "2", "--format", "json")
    doc = json.loads(out)
    assert doc["version"] == 3 and doc["min_decimals"] == 2
    assert doc["conventions"]["c45_gain"]["value"] == "plain"
    assert doc["conventions"]["precision"]["value"] == "2 decimals or 3 significant digits"
    assert list(doc)[:12] == ["version", "data", "answers", "target", "criterion", "tolerance", "digits", "min_digits",
                              "log", "min_decimals", "conventions", "summary"]


def test_feedback_files_are_written_and_escaped(klass, capsys):
    (klass / "eve.txt").write_text("<script>alert('x')</script> = 1\nH(play) = 0.6518\n")
    fb = klass / "fb"
    status, out, _ = run(capsys, *sheets(klass, ("alice", "bob", "eve", "dave")), "--data", WEATHER,
                         "--rubric", str(klass / "rubric.toml"), "--feedback", str(fb))
    assert status == 1
    assert sorted(p.name for p in fb.iterdir()) == ["alice.html", "alice.txt", "bob.html", "bob.txt", "dave.html",
                                                   "dave.txt", "eve.html", "eve.txt", "summary.txt"]
    page = (fb / "eve.html").read_text()
    assert "<script" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert page.startswith("<!DOCTYPE html>") and "src=" not in page and "href=" not in page   # self-contained
    text = (fb / "bob.txt").read_text()
    assert text.startswith("bob: bob.txt\n\ngraded under:\n")
    assert "score: 1 / 7" in text and "  gain_outlook       1 / 2      imprecise  (line 2)" in text
    assert (fb / "summary.txt").read_text() == out
    # two students made the natural-logarithm mistake on H(play)
    assert "    2 students  H(play): natural logarithm" in out
    assert "not graded: " in (fb / "dave.txt").read_text()


def test_exercise_folders(tmp_path, capsys):
    """Each sheet against DIR/<its stem>/: its data, its check.toml (under the command line's flags), its rubric;
    a sheet without a folder, or a folder with a bad check.toml, is a row with its error."""
    ex = tmp_path / "ex"
    for name, data, toml in (("ann", "weather.csv", "min_decimals = 2\nmin_digits = 2\n"),
                             ("ben", "weather.csv", ""), ("cy", "weather.csv", 'data = "x.csv"\n')):
        (ex / name).mkdir(parents=True)
        (ex / name / "data.csv").write_bytes((DATA / data).read_bytes())
        (ex / name / "check.toml").write_text(toml)
        (ex / name / "rubric.toml").write_text('[[item]]\nid = "h"\nclaim = "H(play)"\npoints = 2\n')
    for name in ("ann", "ben", "cy", "dee"):
        (tmp_path / f"{name}.txt").write_text("H(play) = 0.94\n")
    status, out, err = run(capsys, *[str(tmp_path / f"{n}.txt") for n in ("ann", "ben", "cy", "dee")],
                           "--exercise", str(ex), "--gradebook", str(tmp_path / "g.csv"))
    assert status == 1 and err == ""
    rows = list(csv.reader(open(tmp_path / "g.csv")))
    assert rows[0] == ["id", "score", "max", "h", "error"]
    assert rows[1] == ["ann", "2", "2", "2", ""]           # 2 decimals suffice in ann's exercise
    assert rows[2] == ["ben", "1", "2", "1", ""]           # imprecise under the defaults
    assert rows[3][:4] == ["cy", "", "", ""] and "check.toml: key 'data' is not allowed here" in rows[3][4]
    assert rows[4] == ["dee", "", "", "", f"no exercise folder {str(ex / 'dee')!r} for this sheet"]
    # the command line's flags win over an exercise's check.toml
    status, out, err = run(capsys, str(tmp_path / "ann.txt"), "--exercise", str(ex), "--min-decimals", "3",
                           "--min-digits", "3")
    assert status == 1 and out.startswith("ann  1 / 2")
