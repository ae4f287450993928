"""docs/check.md's ```check blocks run as written: each marked line gets the verdict its mark shows."""

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from infotree.cli.check import run_check_command
from infotree.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```check ([^\n]*)\n(.*?)```", DOC, re.S)
MARKS = {"✓": "right", "✗": "wrong", "?": "unreadable"}
_MARKED = re.compile(r"^(.*?\S)\s{2,}([✓✗?])(?:\s.*)?$")


def _sheet(body):
    """(answers text, {line number: expected verdict}) of a block."""
    lines, expected = [], {}
    for number, line in enumerate(body.rstrip("\n").split("\n"), 1):
        m = _MARKED.match(line)
        if m:
            lines.append(m.group(1))
            expected[number] = MARKS[m.group(2)]
        else:
            lines.append(line.rstrip())
    return "\n".join(lines) + "\n", expected


def test_the_doc_has_blocks():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("header, body", BLOCKS, ids=[h.split()[0] for h, _ in BLOCKS])
def test_doc_examples_grade_as_marked(header, body, monkeypatch):
    data, *options = shlex.split(header)
    text, expected = _sheet(body)
    args = build_parser("check").parse_args(["check", "-", "--data", str(ROOT / data), "--format", "json", *options])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    out = io.StringIO()
    run_check_command(args, out)
    got = {c["line"]: c["verdict"] for c in json.loads(out.getvalue())["claims"]}
    assert got == expected, json.loads(out.getvalue())["claims"]
