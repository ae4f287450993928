"""One vocabulary: the CLI's flags carry the Python parameters' names (the old spellings stay
as aliases), `infotree forest` with the flags the README names grows RandomForestClassifier's
forest, and the README's estimator example runs as written."""

import json
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
