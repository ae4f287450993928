"""TikZ through the forest package (printers/tikz.py)."""

import doctest
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from infotree import build_tree, from_records, load
from infotree.printers import render, tikz

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.csv"
NASTY = [
    {"a|b_&%#": "v|1$", "c{}~^\\": "w<>", "cls": 'k"1'},
    {"a|b_&%#": "v2", "c{}~^\\": "w2", "cls": "k2"},
    {"a|b_&%#": "v2", "c{}~^\\": "w<>", "cls": "k2"},
    {"a|b_&%#": "v[2]", "c{}~^\\": "w,x", "cls": "k`2"},
]


def rendered(tree, **opts):
    out = io.StringIO()
    render(tree, out, fmt="tikz", **opts)
    return out.getvalue()


def brackets(text):
    """The forest body's node brackets outside braces: how many open, and whether they ever go below 0."""
    body = text[text.index("[{"):text.index("\\end{forest}")]
    depth = braces = opened = 0
    lowest = 0
    for i, ch in enumerate(body):
        if ch == "\\":
            continue
        if body[i - 1:i] == "\\":
            continue
        if ch == "{":
            braces += 1
        elif ch == "}":
            braces -= 1
        elif braces == 0 and ch == "[":
            depth += 1
            opened += 1
        elif braces == 0 and ch == "]":
            depth -= 1
            lowest = min(lowest, depth)
    return opened, depth, braces, lowest


def test_docstring_example(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert doctest.testmod(tikz).failed == 0


def test_one_bracket_per_node(worked_trees):
    """Every worked example: one forest node per tree node, brackets and braces balanced."""
    for key, (tree, _) in worked_trees.items():
        opened, depth, braces, lowest = brackets(rendered(tree))
        assert (opened, depth, braces, lowest) == (len(tree), 0, 0, 0), key


def test_weather_content():
    """The boxes and branch values of the weather tree, leaves styled, the measure in math."""
    text = rendered(build_tree(load(WEATHER)))
    assert text.startswith("% infotree: decision tree for play; needs \\usepackage{forest}\n\\begin{forest}\n")
    assert "[{\\textbf{outlook}\\\\$n = 14$\\\\no: 5, yes: 9\\\\$\\mathrm{IG} = 0.2467$}\n" in text
    assert "[{\\textbf{no}\\\\$n = 3$\\\\no: 3, yes: 0}, branch={high}, leaf]" in text
    cart = rendered(build_tree(load(WEATHER), criterion="gini"), exact=True)
    assert "$\\Delta\\mathrm{Gini} = 0.1020$\\\\$\\frac{5}{49}$}" in cart
    assert "branch={in \\{sunny, rainy\\}}" in cart
    exact = rendered(build_tree(load(WEATHER)), exact=True)
    assert "$\\frac{9}{7} + \\log_2 7 - \\frac{6}{7}\\log_2 3 - \\frac{15}{14}\\log_2 5$" in exact


def test_names_escaped():
    """Every LaTeX special character in names is escaped; brackets and commas stay inside braces."""
    text = rendered(build_tree(from_records(NASTY)))
    assert "[{\\textbf{a\\textbar{}b\\_\\&\\%\\#}\\\\$n = 4$" in text
    assert "branch={v\\textbar{}1\\$}, leaf]" in text
    assert "branch={v[2]}, leaf]" in text
    assert brackets(text)[1:] == (0, 0, 0)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_standalone_compiles(tmp_path, worked_trees):
    """--standalone documents compile with pdflatex: the weather tree with exact values, a C4.5 tree
    with numeric splits and fractional weights, names full of special characters, and a CART tree
    (subset splits, ΔGini as exact fractions)."""
    which = {"weather": build_tree(load(WEATHER)),
             "c45": worked_trees["c45_missing_and_numeric/gain_ratio"][0],
             "nasty": build_tree(from_records(NASTY)),
             "cart": worked_trees["c45_missing_and_numeric/gini"][0]}
    for name, tree in which.items():
        (tmp_path / f"{name}.tex").write_text(rendered(tree, standalone=True, exact=True), encoding="utf-8")
        p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
        if "forest.sty' not found" in p.stdout:
            pytest.skip("the forest package is not installed (Debian: texlive-pictures)")
        assert p.returncode == 0, (name, p.stdout[-2000:])
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
        assert not re.search(r"Overfull|Undefined control sequence", p.stdout), name
