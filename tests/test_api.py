"""Tests for the public surface of infotree: ``__all__``, the error family, lazy imports and examples."""

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import infotree

REPO = Path(__file__).resolve().parent.parent


def test_all_is_sorted_and_unique():
    """infotree.__all__ is sorted with no duplicates."""
    assert infotree.__all__ == sorted(set(infotree.__all__))


def test_every_public_name_resolves():
    """Every name in infotree.__all__ is an attribute of the package."""
    missing = [name for name in infotree.__all__ if not hasattr(infotree, name)]
    assert missing == []


def test_errors_form_one_family_rooted_at_value_error():
    """Every public error class is an InfotreeError, and InfotreeError is a ValueError."""
    errors = [getattr(infotree, name) for name in infotree.__all__ if name.endswith("Error")]
    assert {e.__name__ for e in errors} >= {"InfotreeError", "ParseError", "DataError", "UndecidedError",
                                             "NotFittedError"}
    for error in errors:
        assert issubclass(error, infotree.InfotreeError)
    assert issubclass(infotree.InfotreeError, ValueError)


def test_error_message_is_not_quoted():
    """str() of an infotree error is the plain message, even for a KeyError-style subclass."""
    class Missing(infotree.InfotreeError, KeyError):
        pass

    assert str(Missing("unknown column 'outlok'")) == "unknown column 'outlok'"


def run_python(code):
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_import_does_not_import_sympy():
    """Importing infotree and computing exact entropies does not import sympy (it is imported lazily)."""
    done = run_python(
        "import sys, infotree\n"
        "assert 'sympy' not in sys.modules, 'import'\n"
        "h = infotree.entropy([9, 5]); s = str(h); h < 1; infotree.parse_exact(s)\n"
        "assert 'sympy' not in sys.modules, 'use'\n"
    )
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("module", ["infotree.exact", "infotree.measures", "infotree.forms", "infotree.parse",
                                    "infotree.smoothing", "infotree.mofn", "infotree.data.numbers"])
def test_docstring_examples_run(module):
    """The examples in the module docstrings run and print what they claim."""
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
