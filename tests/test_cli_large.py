"""Large outputs (issue 34 item 5): a big tree's default stays readable, huge outputs say so before they
are written, drawings and derivations show progress on a terminal, Ctrl-C leaves no partial file."""

import io
import os
from pathlib import Path

import pytest

from infotree import progress
from infotree.cli import LARGE_DERIVATION, main

ROOT = Path(__file__).parent.parent
LENSES = ROOT / "tests" / "data" / "contact-lenses.csv"
WEATHER = ROOT / "worked_examples" / "play_tennis" / "data.csv"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def run(argv, capsys):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A tree of LARGE_DERIVATION + 2 nodes: ID3 splits the root on an id column, one leaf per row."""
    path = tmp_path_factory.mktemp("big") / "big.csv"
    rows = LARGE_DERIVATION + 1
    path.write_text("id,colour,class\n" + "".join(f"r{i},{'ab'[i % 2]},{'yn'[i % 3 == 0]}\n" for i in range(rows)))
    return path


def test_a_large_trees_default_is_the_roots_derivation(big, capsys):
    """Past LARGE_DERIVATION nodes, tree prints the root's derivation (as --nodes root), saying so on stderr."""
    status, out, err = run(["tree", big], capsys)
    assert status == 0
    assert err == (f"infotree: note: the tree has {LARGE_DERIVATION + 2:,} nodes; printing the root's derivation "
                   f"only (--nodes all prints every node's, --nodes none the tree alone)\n")
    assert run(["tree", big, "--nodes", "root"], capsys) == (0, out, "")


def test_all_nodes_asked_for_are_written_after_a_note(big, capsys):
    status, out, err = run(["tree", big, "--nodes", "all", "--format", "json"], capsys)
    assert status == 0 and out.count('"candidates"') > 1
    assert err == (f"infotree: note: writing the derivations of a tree of {LARGE_DERIVATION + 2:,} nodes; "
                   f"--nodes root or --max-depth N narrows it\n")


def test_a_small_trees_default_is_every_node(capsys):
    status, out, err = run(["tree", WEATHER], capsys)
    assert (status, err) == (0, "")
    assert run(["tree", WEATHER, "--nodes", "all"], capsys) == (0, out, "")


def test_a_report_of_a_large_tree_says_its_size(big, capsys):
    status, out, err = run(["report", big, "--quiet"], capsys)
    assert status == 0 and out.startswith("<!DOCTYPE html>")
    assert err.startswith(f"infotree: note: the report holds the derivation and worked solution of each of the "
                          f"tree's {LARGE_DERIVATION + 2:,} nodes")


def test_a_drawing_wider_than_a_page_says_so_before_it_is_drawn(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    status, _, err = run(["tree", LENSES, "--format", "svg", "-o", tmp_path / "t.svg"], capsys)
    assert status == 0 and err.startswith("infotree: note: the drawing will be about ")
    assert "(9 leaves; a page holds about 770 across); --max-display-depth N draws fewer levels" in err
    head = (tmp_path / "t.svg").read_text()[:600]
    drawn = float(head.split('width="')[1].split("pt")[0])
    said = float(err.split("about ")[1].split(" by")[0].replace(",", ""))
    assert drawn > 770 and abs(said - drawn) < drawn / 4   # the estimate is within a quarter of the drawing
    assert run(["tree", WEATHER, "--format", "svg", "-o", tmp_path / "w.svg"], capsys) == (0, "", "")


@pytest.fixture
def terminal(monkeypatch):
    """terminal() makes standard error a terminal (call it in the test: capsys sets its own at the call);
    the clock advances a second per reading."""
    ticks = iter(range(100000))
    monkeypatch.setattr(progress, "_clock", lambda: float(next(ticks)))

    def make():
        shown = Terminal()
        monkeypatch.setattr("sys.stderr", shown)
        return shown

    return make


def test_derivations_show_progress_on_a_terminal(big, terminal, capsys):
    terminal = terminal()
    assert main(["tree", str(big), "--nodes", "all"]) == 0
    out = capsys.readouterr().out
    assert f"derivations: node [####################] {LARGE_DERIVATION + 2}/{LARGE_DERIVATION + 2}" in \
        terminal.getvalue()
    assert "derivations" not in out and "\r" not in out


def test_a_drawing_shows_progress_on_a_terminal(terminal, tmp_path):
    pytest.importorskip("matplotlib")
    terminal = terminal()
    assert main(["tree", str(LENSES), "--format", "svg", "-o", str(tmp_path / "t.svg")]) == 0
    assert "drawing: box [####################] 15/15" in terminal.getvalue()


@pytest.mark.parametrize("argv", [["tree", WEATHER], ["report", WEATHER], ["tree", WEATHER, "--format", "png"]])
def test_ctrl_c_leaves_no_partial_output_file(argv, tmp_path, monkeypatch, capsys):
    """Interrupted while the output is being written: exit 130, one line, the old file as it was, no temporary
    file left beside it."""
    if "png" in argv:
        pytest.importorskip("matplotlib")
    from infotree.printers import html

    def interrupted(*args, **kwargs):
        out = args[1] if len(args) > 1 else kwargs.get("out")
        out.write("partial output")
        raise KeyboardInterrupt

    monkeypatch.setattr("infotree.printers.render", interrupted)
    monkeypatch.setattr(html, "write_report", interrupted)
    target = tmp_path / "out.txt"
    target.write_text("the previous output\n")
    status, out, err = run([*argv, "-o", target], capsys)
    assert (status, out, err) == (130, "", "infotree: interrupted\n")
    assert target.read_text() == "the previous output\n" and os.listdir(tmp_path) == ["out.txt"]
    target.unlink()
    assert run([*argv, "-o", target], capsys)[0] == 130 and os.listdir(tmp_path) == []
