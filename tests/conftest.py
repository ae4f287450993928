"""Fixtures shared by test modules: the trees the worked examples grow."""

import importlib.util
from pathlib import Path

import pytest

from infotree import build_tree, load

EXAMPLES = Path(__file__).resolve().parent.parent / "worked_examples"


def _generate():
    spec = importlib.util.spec_from_file_location("generate", EXAMPLES / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def worked_trees():
    """``{"play_tennis/gain": (tree, dataset), ...}`` for every tree of ``generate.TREES``."""
    out = {}
    for name, criterion, how in _generate().TREES:
        data = load(EXAMPLES / name / "data.csv", **how)
        out[f"{name}/{criterion}"] = (build_tree(data, criterion=criterion), data)
    return out
