"""infotree check on forest homework (issue 24 item 6): votes(row k) = x for c, prediction(row k), OOB error,
with the forest's options as 'infotree forest' takes them.

Expected values are recounted here from the forest's trees (each tree's prediction on the row, its drawn
rows for out of bag), not by Forest.ballots or Forest.oob; the worked example's numbers are its README's.
"""

import io
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from infotree.cli.check import run_check_command
from infotree.cli import build_parser, forest_from_args, read_data

EXAMPLE = Path(__file__).resolve().parent.parent / "worked_examples" / "bagging"
DATA, NEW = EXAMPLE / "data.csv", EXAMPLE / "bacterium17.csv"
# the README's bagging: ID3's gain on every feature, the trees' majority vote (forest's defaults are
# scikit-learn's: Gini, sqrt features, averaged leaf probabilities)
BAGGING = ("--criterion", "gain", "--max-features", "all", "--vote", "majority")


def run(answers, tmp_path, *options):
    path = tmp_path / "answers.txt"
    path.write_text(answers, encoding="utf-8")
    args = build_parser("check").parse_args(["check", str(path), "--data", str(DATA), *options])
    out = io.StringIO()
    status = run_check_command(args, out)
    return status, out.getvalue()


def marks(out):
    return [line[0] for line in out.splitlines() if line[:1] in "✓✗~≈?" and " line " in line]


def grown(*options):
    args = build_parser("forest").parse_args(["forest", str(DATA), *options])
    from infotree.cli.args import _resolve_criterion

    _resolve_criterion(args)
    data = read_data(str(DATA), args)
    return forest_from_args(args, data), data


def test_readme_votes_on_bacterium_17_and_oob_error(tmp_path):
    """The worked example: 4/5 of the votes for 1 on bacterium 17, OOB error 2/13 (README)."""
    status, out = run("votes(row 1) = 4/5 for 1\nvotes(row 1) = 1/5 for 0\nprediction(row 1) = 1\n"
                      "OOB error = 2/13\nOOB error = 0.1538\n", tmp_path,
                      "--trees", "5", "--seed", "28", "--predict", str(NEW), *BAGGING)
    assert status == 0 and marks(out) == ["✓"] * 5, out


def test_wrong_imprecise_and_unreadable(tmp_path):
    status, out = run("votes(row 1) = 3/5 for 1\nprediction(row 1) = 0\nOOB error = 0.15\nvotes(row 2) = 1 for 1\n"
                      "votes(row 1) = 1 for maybe\n", tmp_path, "--trees", "5", "--seed", "28", "--predict", str(NEW), *BAGGING)
    assert status == 1 and marks(out) == ["✗", "✗", "~", "?", "?"], out
    assert "the forest predicts 1" in out and "rows 1 to 1, not 2" in out and "unknown class 'maybe'" in out


@pytest.mark.parametrize("options", [("--trees", "5", "--seed", "28", *BAGGING),
                                     ("--trees", "7", "--seed", "3", "--max-features", "2", "--vote", "majority",
                                      "--criterion", "gain"),
                                     ("--sample", "all but 3,10,14,16", "--sample", "1-8,8,9", *BAGGING),
                                     ("--trees", "6", "--seed", "5", "--vote", "majority")])
def test_every_training_row_and_the_oob_error_recounted_from_the_trees(options, tmp_path):
    forest, data = grown(*options)
    rows = [dict(zip(data.features, (data.domains[j][c] for j, c in enumerate(r)))) for r in data.X.tolist()]
    each = [tree.predict(rows) for tree in forest.trees]   # each tree's vote on every row
    truth = [data.classes[c] for c in data.y.tolist()]
    claims, wrong, voted = [], 0, 0
    for i in range(len(rows)):
        votes = Counter(p[i] for p in each)
        top = max(votes.values())
        winner = next(c for c in data.classes if votes[c] == top)
        claims += [f"votes(row {i + 1}) = {Fraction(votes[c], len(each))} for {c}" for c in data.classes]
        claims.append(f"prediction(row {i + 1}) = {winner}")
        claims += [f"vote(tree {t + 1}, row {i + 1}) = {p[i]}" for t, p in enumerate(each)]
        out_of_bag = [p[i] for t, p in enumerate(each) if i not in forest.samples[t].tolist()]
        if out_of_bag:
            oob = Counter(out_of_bag)
            best = max(oob.values())
            voted += 1
            oob_winner = next(c for c in data.classes if oob[c] == best)
            wrong += oob_winner != truth[i]
            claims += [f"OOB votes(row {i + 1}) = {Fraction(oob[c], len(out_of_bag))} for {c}" for c in data.classes]
            claims.append(f"OOB prediction(row {i + 1}) = {oob_winner}")
    claims.append(f"OOB error = {Fraction(wrong, voted)}")
    status, out = run("\n".join(claims) + "\n", tmp_path, *options)
    assert status == 0 and marks(out) == ["✓"] * len(claims), out


def test_tree_votes_and_out_of_bag_rows_of_the_readme(tmp_path):
    """The README's tables: tree 4 votes 0 on bacterium 17; row 14 is out of bag for tree 4 only, which votes
    0; row 10 was drawn by every tree."""
    status, out = run("vote(tree 4, row 1) = 0\nvote(tree 1, row 1) = 1\nOOB votes(row 14) = 1 for 0\n"
                      "OOB prediction(row 14) = 0\nvote(tree 4, row 1) = 1\nvote(tree 6, row 1) = 1\n"
                      "OOB votes(row 10) = 1 for 0\n", tmp_path, "--trees", "5", "--seed", "28", "--predict", str(NEW), *BAGGING)
    assert status == 1 and marks(out) == ["✓"] * 4 + ["✗", "?", "?"], out
    assert "tree 4 votes 0" in out and "trees 1 to 5, not 6" in out and "every tree drew row 10" in out


def test_forest_claims_need_a_forest_that_can_grow(tmp_path):
    status, out = run("OOB error = 0\n", tmp_path, "--prune", "pessimistic", "--algorithm", "c45")
    assert status == 1 and "the forest cannot be grown" in out
