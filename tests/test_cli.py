"""The command line: every command, one-line errors, nothing lost, same bytes every time."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infotree.cli import main

DATA = Path(__file__).parent / "data"
WEATHER = str(DATA / "weather.csv")


def run(*args):
    """Run the CLI in a subprocess; return (exit status, stdout, stderr)."""
    p = subprocess.run([sys.executable, "-m", "infotree", *args], capture_output=True, text=True,
                       env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    return p.returncode, p.stdout, p.stderr


def test_tree_text_default(capsys):
    """`infotree tree` prints the Weka-style tree followed by node tables."""
    assert main(["tree", WEATHER, "--nodes", "root"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("outlook = sunny\n|  humidity = high: no (3)\n")
    assert "decision: split on outlook: maximal information gain" in out


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json", "dot"])
def test_every_format_runs(fmt, capsys):
    """Each --format produces output and exit status 0."""
    assert main(["tree", WEATHER, "--format", fmt]) == 0
    assert capsys.readouterr().out.strip()


def test_json_output_validates(capsys):
    """--format json follows the contract, and exact strings parse back."""
    from infotree import parse_exact

    assert main(["tree", WEATHER, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"infotree", "target", "criterion", "classes", "features", "root"} <= set(doc)
    root = doc["root"]
    for key in ("path", "n", "class_counts", "entropy", "candidates", "split", "ties", "reason", "label", "children"):
        assert key in root
    assert root["split"] == "outlook" and root["n"] == "14"
    cand = root["candidates"][0]
    for key in ("feature", "branches", "conditional_entropy", "gain", "split_info", "gain_ratio", "passes_average_gain"):
        assert key in cand
    assert float(parse_exact(cand["gain"]["exact"])) == pytest.approx(cand["gain"]["float"], abs=1e-15)


def test_measures_at_path(capsys):
    """`infotree measures --at` gives the table of the node a path reaches."""
    assert main(["measures", WEATHER, "--at", "outlook=sunny"]) == 0
    out = capsys.readouterr().out
    assert "n = 5: no 3, yes 2" in out and "decision: split on humidity" in out


def test_predict_model_and_train(tmp_path, capsys):
    """predict with a saved JSON model and with --train give the same labels; --proba is exact."""
    model = tmp_path / "m.json"
    assert main(["tree", WEATHER, "--format", "json", "--output", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", str(model), WEATHER]) == 0
    a = capsys.readouterr().out
    assert main(["predict", "--train", WEATHER, WEATHER]) == 0
    assert capsys.readouterr().out == a
    assert a.splitlines()[:3] == ["no", "no", "yes"]
    assert main(["predict", "--train", WEATHER, WEATHER, "--proba"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["prediction,no,yes", "no,1,0"]


def test_entropy_command(capsys):
    """`infotree entropy 9 5` prints the textbook form, the closed form and the decimal."""
    assert main(["entropy", "9", "5"]) == 0
    assert capsys.readouterr().out == ("H(9,5) = -(9/14)·log2(9/14) - (5/14)·log2(5/14)\n"
                                       "       = 1 + log2(7) - 9/7*log2(3) - 5/14*log2(5)\n"
                                       "       = 0.9403\n")


@pytest.mark.parametrize("args, status, message", [
    (["tree", "nope.csv"], 1, "infotree: error: "),
    (["tree", WEATHER, "--target", "plya"], 1, "did you mean 'play'?"),
    (["tree", WEATHER, "--criterion", "ginni"], 2, "invalid choice: 'ginni'"),
    (["tree", WEATHER, "--digits", "x"], 2, "invalid digits 'x'"),
    (["measures", WEATHER, "--at", "outlook=foggy"], 1, "unknown value 'foggy' of feature 'outlook'"),
    (["predict", WEATHER], 1, "predict needs MODEL.json DATA"),
    (["predict", WEATHER, WEATHER], 1, "not valid JSON"),
    (["entropy", "0", "0"], 1, "entropy of nothing"),
])
def test_errors_are_one_line_without_traceback(args, status, message):
    """Bad input exits 1 and bad usage 2, with one line on stderr and no traceback."""
    code, out, err = run(*args)
    assert code == status
    assert message in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 or status == 2


def test_output_never_overwrites_input(tmp_path):
    """--output refuses an input file, leaves it untouched, and writes atomically otherwise."""
    data = tmp_path / "w.csv"
    data.write_bytes(Path(WEATHER).read_bytes())
    before = data.read_bytes()
    code, _, err = run("tree", str(data), "--output", str(data))
    assert code == 1 and "is an input file; refusing to overwrite it" in err
    assert data.read_bytes() == before
    target = tmp_path / "out.md"
    assert run("tree", str(data), "--format", "markdown", "--output", str(target))[0] == 0
    assert target.read_text(encoding="utf-8").startswith("## Tree") or target.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md", "w.csv"]  # no temp file left


def test_same_bytes_across_runs_and_hash_seeds():
    """The same input gives byte-identical output under different hash seeds."""
    outs = set()
    for seed in ("0", "1", "12345"):
        p = subprocess.run([sys.executable, "-m", "infotree", "tree", str(DATA / "contact-lenses.csv"),
                            "--format", "json"], capture_output=True,
                           env={**os.environ, "PYTHONHASHSEED": seed})
        assert p.returncode == 0
        outs.add(p.stdout)
    assert len(outs) == 1


def test_tree_command_does_not_import_sympy():
    """`infotree tree` on a small file never imports sympy (start-up stays fast)."""
    code = ("import sys; from infotree.cli import main; main(['tree', %r, '--nodes', 'all']); "
            "sys.stderr.write(str('sympy' in sys.modules))") % WEATHER
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.stderr.strip().endswith("False")


# -- C4.5 in full ---------------------------------------------------------------------

def _j48_fixture(name, mode):
    return (DATA / "j48" / f"{name}.{mode}.txt").read_text()


@pytest.mark.parametrize("name,mode", [("labor", "pruned"), ("labor", "unpruned"),
                                       ("weather.numeric", "pruned"), ("vote", "pruned")])
def test_gain_ratio_with_pessimistic_pruning_prints_j48s_default_tree(name, mode, capsys):
    """`--criterion gain-ratio --prune pessimistic --weights j48` reproduces J48's own text."""
    args = ["tree", str(DATA / f"{name}.arff"), "--criterion", "gain-ratio", "--nodes", "none", "--weights", "j48"]
    if mode == "pruned":
        args += ["--prune", "pessimistic"]
    assert main(args) == 0
    assert capsys.readouterr().out == _j48_fixture(name, mode).rstrip("\n") + "\n"


def test_csv_numbers_are_numeric_for_c45_and_categorical_for_id3(capsys):
    csv_path = str(DATA / "weather.numeric.csv")
    assert main(["tree", csv_path, "--criterion", "gain-ratio", "--nodes", "none"]) == 0
    assert "|  humidity <= 75: yes (2)\n" in capsys.readouterr().out
    assert main(["tree", csv_path, "--nodes", "none", "--max-depth", "1"]) == 0
    assert "temperature = 85: no (1)" in capsys.readouterr().out  # categorical: one branch per value
    assert main(["tree", csv_path, "--nodes", "none", "--numeric", "temperature", "--numeric", "humidity"]) == 0
    out = capsys.readouterr().out
    assert "|  humidity <= 77.5: yes (2)\n" in out  # ID3 with --numeric: the midpoint of 70 and 85
    assert main(["tree", csv_path, "--criterion", "gain-ratio", "--categorical", "humidity", "--nodes", "none"]) == 0
    assert "humidity <=" not in capsys.readouterr().out


def test_exact_weights_flag(capsys):
    assert main(["tree", str(DATA / "labor.arff"), "--criterion", "gain-ratio", "--prune", "pessimistic",
                 "--nodes", "none", "--exact-weights"]) == 0
    assert capsys.readouterr().out.startswith("wage-increase-first-year <= 2.5: bad (855/56, errors 127/56)\n")


def test_pruning_flags_are_checked():
    code, out, err = run("tree", str(DATA / "labor.arff"), "--criterion", "gain-ratio", "--prune", "reduced-error")
    assert code == 1 and err == "infotree: error: --prune reduced-error needs --validation FILE (rows the tree is not grown on)\n"
    code, out, err = run("tree", WEATHER, "--validation", WEATHER)
    assert code == 1 and err == "infotree: error: --validation applies to --prune reduced-error only\n"


def test_id3_on_missing_values_names_the_flags():
    code, out, err = run("tree", str(DATA / "vote.arff"))
    assert code == 1 and out == ""
    assert err == (f"infotree: error: {DATA / 'vote.arff'} line 24, column 'synfuels-corporation-cutback': missing "
                   f"value '?'; missing values are refused by default (allowed: --criterion gain-ratio, which "
                   f"weights them as C4.5 does, or --missing-as-value)\n")


def test_predict_with_missing_value_on_a_c45_tree(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("outlook,temperature,humidity,windy\nsunny,70,?,FALSE\nsunny,70,75,FALSE\n")
    code, out, err = run("predict", "--train", str(DATA / "weather.numeric.csv"), "--criterion", "gain-ratio",
                         str(rows), "--proba")
    assert code == 0, err
    # sunny, humidity missing: 2/5 of the weight goes to humidity <= 75 (yes), 3/5 to > 75 (no).
    assert out.splitlines() == ["prediction,no,yes", "no,3/5,2/5", "yes,0,1"]
