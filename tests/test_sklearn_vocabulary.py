"""One vocabulary: the CLI's flags carry the Python parameters' names (the old spellings stay
as aliases), `infotree forest` with the flags the README names grows RandomForestClassifier's
forest, and the README's estimator example runs as written."""

import argparse
import ast
import inspect
import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import RandomForestClassifier
from infotree.cli import main

ROOT = Path(__file__).parent.parent
WEATHER = ROOT / "worked_examples" / "play_tennis" / "data.csv"
KYPHOSIS = ROOT / "tests" / "data" / "kyphosis.csv"


def run(args, capsys):
    try:
        status = main([str(a) for a in args])
    except SystemExit as e:  # argparse's usage errors
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("new, old", [
    (["tree", WEATHER, "--criterion", "gain_ratio"], ["tree", WEATHER, "--criterion", "gain-ratio"]),
    (["tree", WEATHER, "--criterion", "gini", "--min-samples-leaf", "3", "--cp", "0"],
     ["tree", WEATHER, "--criterion", "gini", "--min-leaf", "3", "--cp", "0"]),
    (["tree", WEATHER, "--criterion", "gini", "--min-samples-split", "2", "--prune", "cost-complexity",
      "--ccp-alpha", "1"],
     ["tree", WEATHER, "--criterion", "gini", "--min-samples-split", "2", "--prune", "cost-complexity",
      "--alpha", "1"]),
    (["forest", WEATHER, "--n-estimators", "3", "--random-state", "7"], ["forest", WEATHER, "--trees", "3", "--seed", "7"]),
])
def test_scikit_learn_names_and_the_old_spellings_mean_the_same(new, old, capsys):
    """--min-samples-leaf, --ccp-alpha, --n-estimators, --random-state and the criterion's
    underscore spelling print what --min-leaf, --alpha, --trees, --seed and gain-ratio print."""
    status, out, err = run(new, capsys)
    assert (status, err) == (0, "") and out
    assert run(old, capsys) == (0, out, "")


def test_forest_flags_grow_random_forest_classifiers_forest(capsys):
    """The README's command grows RandomForestClassifier(random_state=S)'s forest: the same exact
    importances and OOB error (20 trees here, for time; the rule is the same at 100)."""
    status, out, err = run(["forest", KYPHOSIS, "--target", "Kyphosis", "--criterion", "gini", "--max-features",
                            "sqrt", "--vote", "average", "--n-estimators", 20, "--min-samples-split", 2,
                            "--min-samples-leaf", 1, "--random-state", 3, "--format", "json"], capsys)
    assert (status, err) == (0, "")
    cli = json.loads(out)
    rows = [line.split(",") for line in KYPHOSIS.read_text().split()[1:]]
    X, y = np.array([[int(v) for v in r[1:]] for r in rows]), [r[0] for r in rows]
    api = RandomForestClassifier(n_estimators=20, random_state=3, oob_score=True).fit(X, y)
    assert [str(v) for v in api.feature_importances_exact_] == [f["share"]["exact"] for f in cli["importances"]]
    assert api.oob_score_ == float(1 - Fraction(cli["oob"]["error"]))
    defaults = RandomForestClassifier().get_params()
    assert (defaults["n_estimators"], defaults["criterion"], defaults["max_features"], defaults["vote"],
            defaults["min_samples_split"], defaults["min_samples_leaf"]) == (100, "gini", "sqrt", "average", 2, 1)


def test_forest_defaults_are_random_forest_classifiers(capsys):
    """No forest option given: infotree forest grows RandomForestClassifier()'s forest (100 trees, Gini,
    sqrt features, averaged leaf probabilities), the same exact importances and OOB error."""
    status, out, err = run(["forest", KYPHOSIS, "--target", "Kyphosis", "--random-state", 4, "--importance", "mdi",
                            "--format", "json"],
                           capsys)
    assert (status, err) == (0, "")
    cli = json.loads(out)
    assert cli["forest"]["trees"] == 100 and cli["forest"]["kind"] == "random forest"
    rows = [line.split(",") for line in KYPHOSIS.read_text().split()[1:]]
    X, y = np.array([[int(v) for v in r[1:]] for r in rows]), [r[0] for r in rows]
    api = RandomForestClassifier(random_state=4, oob_score=True).fit(X, y)
    assert [str(v) for v in api.feature_importances_exact_] == [f["share"]["exact"] for f in cli["importances"]]
    assert api.oob_score_ == float(1 - Fraction(cli["oob"]["error"]))


def test_the_readme_estimator_example_runs_as_written():
    """The README's example, run line by line: each commented value is what the line gives."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- estimators example: begin -->\n```python\n")[1].split("```")[0]
    env = {}
    claims = 0
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        if not comment:
            exec(code, env)
            continue
        value = eval(code, env)
        shown = repr(value)
        head = comment.split(":")[0].split(";")[0].strip()
        if head.startswith(("array(", "(", "'")):
            assert shown.replace("\n", "").replace("  ", " ") == head.replace("  ", " "), line
            claims += 1
    assert claims >= 5


def _strings(raised_only):
    """Every string constant in infotree's source (f-string parts too), or only those inside a raise."""
    for path in sorted((ROOT / "infotree").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for top in (n for n in ast.walk(tree) if isinstance(n, ast.Raise)) if raised_only else [tree]:
            for node in ast.walk(top):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


def test_every_flag_the_code_names_exists():
    """A hint, help text or message that names --something names an option of some subcommand."""
    from infotree.cli import build_parser

    flags = set()
    parsers = [build_parser(None)]
    while parsers:
        p = parsers.pop()
        for action in p._actions:
            flags.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
    named = {(where, flag) for where, text in _strings(False) for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text)}
    assert len(named) > 100
    assert sorted(f"{where}: {flag}" for where, flag in named if flag not in flags) == []


def test_every_parameter_an_error_names_exists():
    """An error's 'name=value' hint names a parameter of infotree's public functions and classes
    (or 'm', smoothing's own m=M syntax)."""
    import infotree
    from infotree.printers import render

    params = {"m"}
    for obj in [getattr(infotree, name) for name in infotree.__all__] + [render]:
        for fn in [obj] + [f for _, f in inspect.getmembers(obj, inspect.isfunction)] if inspect.isclass(obj) else [obj]:
            try:
                params.update(inspect.signature(fn).parameters)
            except (TypeError, ValueError):
                pass
    named = {(where, name) for where, text in _strings(True)
             for name in re.findall(r"(?<![\w.'-])([a-z_][a-z0-9_]*)=(?=['\"\d\[{A-Za-z(])", text)}
    assert len(named) > 20
    assert sorted(f"{where}: {name}=" for where, name in named if name not in params) == []


def test_estimators_name_their_own_options_for_missing_values():
    """The reader's on_missing= is no estimator parameter: an estimator's refusal names the estimators that take them."""
    from infotree import ID3Classifier

    with pytest.raises(ValueError) as e:
        ID3Classifier().fit([["a"], [None], ["b"]], [0, 1, 0])
    assert str(e.value) == ("row 1, column 'x0': missing value None; missing values are refused by default "
                            "(ID3Classifier takes none; C45Classifier and CARTClassifier do)")


def test_a_semicolon_file_gets_a_hint_the_command_line_can_follow(tmp_path, capsys):
    """'use delimiter=...' is the Python reader's keyword; the command line says what it reads instead."""
    data = tmp_path / "semi.csv"
    data.write_text("a;b;c\n1;2;x\n3;4;y\n", encoding="utf-8")
    status, out, err = run(["tree", data], capsys)
    assert (status, out) == (1, "")
    assert err == (f"infotree: error: {data} has 1 column 'a;b;c'; need the target and at least one feature (is it "
                   f"delimited by ';'? the command line reads commas, and tabs from a .tsv file)\n")
