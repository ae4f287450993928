"""Help that fits the command (issue 34 item 4): each subcommand lists the options it uses, grouped, each
with its default; an option given where it does nothing is refused in one line naming where it applies."""

import argparse
from pathlib import Path

import pytest

from infotree.cli import build_parser, main
from infotree.options import GROUPS, TABLE, subparser

DATA = Path(__file__).parent / "data"
WEATHER = str(DATA / "weather.csv")
COMMANDS = ("tree", "report", "measures", "predict", "cptable", "evaluate", "forest", "check")


def help_of(command):
    return subparser(build_parser(command), command).format_help()


def listed(command):
    """The long options the command's help lists."""
    parser = subparser(build_parser(command), command)
    return {s for a in parser._actions if a.help != argparse.SUPPRESS for s in a.option_strings if s.startswith("--")}


def run(argv, capsys):
    try:
        status = main([str(a) for a in argv])
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command,absent,present", [
    ("forest", ["--prune", "--validation", "--confidence", "--ccp-alpha", "--select", "--folds", "--splits",
                "--sample-weight", "--lookahead", "--no-collapse"],
     ["--n-estimators", "--max-features", "--vote", "--cp", "--max-depth", "--importance"]),
    ("cptable", ["--prune", "--validation", "--confidence", "--ccp-alpha", "--select", "--splits",
                 "--n-estimators"], ["--cp", "--folds", "--sequence", "--steps", "--table-format"]),
    ("measures", ["--max-depth", "--prune", "--cp", "--min-samples-split", "--random-state"],
     ["--at", "--lookahead", "--splits", "--criterion", "--target"]),
    ("evaluate", ["--splits", "--n-estimators"], ["--compare", "--folds", "--prune", "--test"]),
    ("report", ["--splits", "--table-format", "--vote"], ["--title", "--prune", "--max-depth"]),
    ("tree", ["--n-estimators", "--vote", "--compare"], ["--prune", "--cp", "--splits", "--nodes", "--steps"]),
])
def test_each_command_lists_the_options_it_uses(command, absent, present):
    shown = listed(command)
    assert not shown & set(absent), shown & set(absent)
    assert set(present) <= shown, set(present) - shown


def test_options_are_grouped_in_order():
    """tree's help: data, algorithm, stopping, pruning, output, in that order, after the positional DATA."""
    text = help_of("tree")
    text = text[text.index("\npositional arguments:"):]   # the usage lines list every option, ungrouped
    heads = [text.index(GROUPS[g] + ":") for g in ("data", "algorithm", "stopping", "pruning", "output")]
    assert heads == sorted(heads) and "other options:" not in text
    assert text.index("--max-depth") > heads[2] and text.index("--confidence") > heads[3]
    assert text.index("--min-samples-leaf") > heads[2] and text.index("--target") < heads[1]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_listed_option_says_its_default(command):
    """An option with a default value says it (a flag's default is off; None: the help says what happens)."""
    parser = subparser(build_parser(command), command)
    for a in parser._actions:
        if a.help == argparse.SUPPRESS or not a.option_strings or isinstance(a, argparse._HelpAction):
            continue
        if a.default not in (None, False) and not isinstance(a, argparse._StoreTrueAction):
            assert "default" in a.help, (command, a.option_strings, a.help)
    assert "--max-depth N         a node this deep is a leaf (default: no limit" in help_of("tree")


@pytest.mark.parametrize("command", COMMANDS[:-1])
def test_every_option_has_a_row_in_the_table(command):
    """Every option of every data command is placed by infotree.options.TABLE (add a row for a new option);
    check's own options (defined by the checker) are listed under "other options"."""
    parser = subparser(build_parser(command), command)
    missing = [a.option_strings[0] for a in parser._actions
               if a.option_strings and not isinstance(a, argparse._HelpAction) and a.dest not in TABLE]
    assert missing == [], f"add to infotree/options.py TABLE: {missing}"


@pytest.mark.parametrize("argv,line", [
    (["forest", WEATHER, "--prune", "pessimistic"],
     "infotree forest: error: --prune does nothing in 'forest'; it applies to: tree, report, predict, evaluate, check"),
    (["cptable", WEATHER, "--confidence", "0.1"],
     "infotree cptable: error: --confidence does nothing in 'cptable'; it applies to: tree, report, predict, "
     "evaluate, check"),
    (["evaluate", WEATHER, "--splits", "all"],
     "infotree evaluate: error: --splits does nothing in 'evaluate'; it applies to: tree, measures, check"),
    (["forest", WEATHER, "--folds-from", "fold"],
     "infotree forest: error: --folds-from does nothing in 'forest'; it applies to: tree, report, predict, cptable, "
     "evaluate, check"),
    (["tree", WEATHER, "--competitors", "2"],
     "infotree tree: error: --competitors applies to --algorithm cart (criterion gini, entropy, misclassification, "
     "squared-error, poisson or exp), not --algorithm id3 (criterion gain)"),
    (["tree", WEATHER, "--min-leaf", "3"],
     "infotree tree: error: --min-leaf applies to --algorithm cart (criterion gini, entropy, misclassification, "
     "squared-error, poisson or exp), not --algorithm id3 (criterion gain)"),
    (["tree", WEATHER, "--criterion", "gini", "--average-gain-slack", "0"],
     "infotree tree: error: --average-gain-slack applies to --algorithm c45 (criterion gain-ratio), not --algorithm "
     "cart (criterion gini)"),
    (["forest", WEATHER, "--no-collapse"],
     "infotree forest: error: --no-collapse does nothing in 'forest'; it applies to: tree, report, predict, evaluate, "
     "check"),
    (["predict", WEATHER, WEATHER, "--train", WEATHER, "--criterion", "gain-ratio", "--max-subsets", "9"],
     "infotree predict: error: --max-subsets applies to --algorithm cart (criterion gini, entropy, misclassification, "
     "squared-error, poisson or exp), not --algorithm c45 (criterion gain-ratio)"),
])
def test_an_option_that_does_nothing_is_refused_in_one_line(argv, line, capsys):
    status, out, err = run(argv, capsys)
    assert (status, out, err) == (2, "", line + "\n")


@pytest.mark.parametrize("argv", [
    ["tree", WEATHER, "--algorithm", "cart", "--min-leaf", "3", "--competitors", "1", "--seed", "2"],
    ["tree", WEATHER, "--criterion", "gain-ratio", "--min-objects", "1", "--no-collapse", "--average-gain-slack", "0"],
    ["tree", WEATHER, "--min-objects", "3", "--prune", "pessimistic", "--confidence", "1/2"],
    ["forest", WEATHER, "--trees", "3", "--seed", "1", "--cp", "0", "--competitors", "1"],
    ["cptable", WEATHER, "--cp", "0", "--folds", "3", "--seed", "1"],
])
def test_options_where_they_apply_still_work(argv, capsys):
    """Old spellings and options given to the algorithm that takes them run as before."""
    status, out, err = run(argv, capsys)
    assert (status, err) == (0, "") and out
