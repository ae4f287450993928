"""Course profiles: ``infotree check --profile course.toml`` and an exercise's ``check.toml``.

A profile is a flat TOML table of ``check``'s own options, each key a long option name without its
dashes (``min_decimals`` or ``min-decimals``)::

    criterion = "gain-ratio"
    c45_gain = "plain"
    min_decimals = 2
    numeric = ["humidity", "temperature"]   # a repeatable option: a list
    explain = true                          # a flag: true or false

A profile is turned into command-line words and parsed by ``check``'s own parser, so a value means
exactly what the flag means; flags written on the command line win over every profile, and a later
profile (an exercise's) over an earlier one (the course's). A path (``data``, ``rubric``, ...) is
relative to the profile's folder. Every problem is one line naming the file and the key.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..errors import InfotreeError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the fallback named in pyproject's dependencies
    import tomli as tomllib

__all__ = ["ProfileError", "read_toml", "profile_words", "explicit_dests", "resolve"]

#: Options a profile may not set: help, the profile itself, the exercise folder (one per run), and the
#: resource limits (applied before any profile is read).
_NEVER = frozenset({"help", "profile", "exercise"})
#: Options whose value is a path, read relative to the profile's folder.
_PATHS = frozenset({"data", "rubric", "gradebook", "feedback", "validation", "predict", "samples"})
#: What an exercise's check.toml may not set: the folder holds the data and the rubric; where reports
#: go is the teacher's run's, not the exercise's.
EXERCISE_EXCLUDED = frozenset({"data", "rubric", "gradebook", "feedback", "format"})


class ProfileError(InfotreeError):
    """A profile or rubric file that cannot be used (bad usage: exit 2)."""


def read_toml(path) -> dict:
    """The TOML file's table, or a one-line :class:`ProfileError` naming the file."""
    try:
        with open(path, "rb") as f:
            raw = f.read(1_000_001)
    except FileNotFoundError:
        raise ProfileError(f"no such file {os.fspath(path)!r}") from None
    except OSError as e:
        raise ProfileError(f"cannot read {os.fspath(path)!r}: {e.strerror or e}") from None
    if len(raw) > 1_000_000:
        raise ProfileError(f"{os.fspath(path)}: larger than 1,000,000 bytes; a profile or rubric is a short file")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ProfileError(f"{os.fspath(path)}: not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ProfileError(f"{os.fspath(path)}: not valid TOML: {e}") from None


def _options(parser) -> dict:
    """{key: action} for every option a profile may set; the key is the long name without dashes."""
    out = {}
    for action in parser._actions:
        longs = [s for s in action.option_strings if s.startswith("--")]
        if not longs or action.dest.startswith("limit_"):
            continue
        key = longs[0][2:]
        if key.replace("-", "_") not in _NEVER and not isinstance(action, argparse._VersionAction):
            out[key] = action
    return out


def profile_words(path, parser, *, excluded=frozenset()) -> list[tuple[str, list[str]]]:
    """[(dest, command-line words), ...] of a profile, in the file's order; each value checked as the flag
    checks it, a problem raised as a one-line :class:`ProfileError` naming the file and the key."""
    table = read_toml(path)
    options = _options(parser)
    allowed = sorted(k.replace("-", "_") for k in options if k.replace("-", "_") not in excluded)
    where = os.fspath(path)
    base = Path(path).parent
    out, seen = [], {}
    for key, value in table.items():
        name = key.replace("_", "-")
        action = options.get(name)
        if action is None or name.replace("-", "_") in excluded:
            what = "is not allowed here" if action is not None else "is not an option of infotree check"
            raise ProfileError(f"{where}: key {key!r} {what}; allowed keys: {', '.join(allowed)}")
        if name in seen:
            raise ProfileError(f"{where}: key {key!r} is given twice (also as {seen[name]!r})")
        seen[name] = key
        flag = "--" + name
        out.append((action.dest, _words(where, key, flag, action, value, base if name in _PATHS else None)))
    return out


def _words(where, key, flag, action, value, base) -> list[str]:
    def bad(why):
        return ProfileError(f"{where}: key {key!r}: {why}")

    if isinstance(value, dict):
        raise bad("a table; a profile's keys are flat (write 'key = value' at the top)")
    if action.nargs == 0:  # a flag
        if not isinstance(value, bool):
            raise bad(f"{value!r} is not allowed; give true or false")
        if isinstance(action, argparse.BooleanOptionalAction):
            return [flag if value else "-" * 2 + "no-" + flag[2:]]   # argparse's negative form of the flag
        return [flag] if value else []
    repeatable = isinstance(action, argparse._AppendAction)
    values = value if isinstance(value, list) else [value]
    if isinstance(value, list) and not repeatable:
        raise bad(f"a list; {flag} takes one value")
    words = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            raise bad(f"{v!r} is not allowed; give a string or a number as on the command line")
        text = str(v)
        if base is not None and not os.path.isabs(text) and text != "-":
            text = os.fspath(base / text)
        _check_value(action, text, bad)
        words += [flag, text]
    return words


def _check_value(action, text, bad):
    """The value converted and checked as argparse would, so that the error names the profile."""
    try:
        value = action.type(text) if callable(action.type) else text
    except (argparse.ArgumentTypeError, ValueError, TypeError) as e:
        raise bad(str(e) or f"invalid value {text!r}") from None
    if action.choices is not None and value not in action.choices:
        raise bad(f"invalid choice {text!r}; allowed: {', '.join(map(str, action.choices))}")


class _Unset(list):
    """The value every option starts from when finding the flags a command line sets (a list, so that
    'append' options can copy it)."""


def explicit_dests(parser, argv) -> set:
    """The options ``argv`` sets itself (argparse sets a default only on an attribute not yet there)."""
    unset = _Unset()
    ns = argparse.Namespace(**{a.dest: unset for a in parser._actions if a.dest != argparse.SUPPRESS})
    ns, _ = parser.parse_known_args(list(argv), ns)
    return {k for k, v in vars(ns).items() if v is not unset}


def resolve(parser, argv, profiles) -> argparse.Namespace:
    """``argv`` parsed with ``profiles`` ([(dest, words), ...] lists, weakest first) under it: a flag of
    ``argv`` wins over every profile, a later profile's over an earlier's."""
    given = explicit_dests(parser, argv)
    chosen = {}
    for profile in profiles:
        for dest, words in profile:
            if dest not in given:
                chosen[dest] = words   # a later profile replaces, also a repeatable option's list
    words = [w for ws in chosen.values() for w in ws]
    return parser.parse_args(words + list(argv))
