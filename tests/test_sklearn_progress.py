"""Feedback on long work (issue 34): a progress bar on standard error when it is a terminal,
nothing when piped or with --quiet, nothing for work under half a second."""

import io
from pathlib import Path

import pytest

from infotree import progress
from infotree.cli import main

WEATHER = Path(__file__).parent.parent / "worked_examples" / "play_tennis" / "data.csv"


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def clock(monkeypatch):
    """A clock that advances one second each time it is read."""
    ticks = iter(range(1000))
    monkeypatch.setattr(progress, "_clock", lambda: float(next(ticks)))


def test_the_bar_counts_and_times_the_work_then_erases_itself(clock):
    """Each step redraws the bar (what, bar, count, m:ss); the end blanks the line."""
    out = io.StringIO()
    with progress.reporting(out):
        assert list(progress.steps(range(4), "folds")) == [0, 1, 2, 3]
    frames = out.getvalue().split("\r")
    assert frames[1:5] == ["folds [#####...............] 1/4  0:01", "folds [##########..........] 2/4  0:02",
                           "folds [###############.....] 3/4  0:03", "folds [####################] 4/4  0:04"]
    assert frames[5].strip() == "" and len(frames[5]) == len(frames[4]) and frames[6] == ""


def test_no_bar_without_reporting_or_for_quick_work(monkeypatch):
    """Library use reports nothing; work done within half a second shows no bar."""
    out = io.StringIO()
    assert list(progress.steps([1, 2], "trees")) == [1, 2]
    monkeypatch.setattr(progress, "_clock", lambda: 0.0)
    with progress.reporting(out):
        assert list(progress.steps([1, 2], "trees")) == [1, 2]
    assert out.getvalue() == ""


@pytest.mark.parametrize("quiet", [False, True])
def test_the_command_line_shows_a_forests_progress_on_a_terminal(quiet, clock, monkeypatch, capsys):
    """infotree forest on a terminal: the permutation importance's trees are counted on stderr
    (and erased), stdout is untouched; --quiet shows nothing."""
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    args = ["forest", str(WEATHER), "--n-estimators", "3"] + (["--quiet"] if quiet else [])
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("random forest: 3 trees, criterion gini")  # scikit-learn's defaults
    shown = terminal.getvalue()
    if quiet:
        assert shown == ""
    else:
        assert "forest: permutation importance, tree [####################] 3/3" in shown
        assert shown.endswith("\r")
