"""Which command-line option belongs where: its help group, the commands that use it and the
algorithms that take it, as one table.

The options themselves are defined in :mod:`infotree.cli.parser` (shared argparse parents); this module
reads the table to fit each subcommand's help to the command (:func:`fit`: only the options it
uses, grouped, each with its default) and to refuse an option given where it does nothing
(:func:`refusal`), in one line that says where it applies:

    infotree tree data.csv --competitors 2
    infotree: error: --competitors applies to --algorithm cart (criterion gini, entropy,
    misclassification, squared-error, poisson or exp), not --algorithm id3 (criterion gain)

An option missing from the table is listed under "other options" for every command that has it,
and never refused.
"""

from __future__ import annotations

import argparse

from .controls import CONTROLS, families_taking
from .criteria import ALGORITHMS

__all__ = ["GROUPS", "TABLE", "fit", "given", "refusal", "subparser"]

GROUPS = {"data": "data (reading DATA)", "algorithm": "algorithm", "forest": "forest (draws and vote)",
          "stopping": "stopping (when a node stays a leaf)", "pruning": "pruning and cross-validation",
          "grading": "grading (check's conventions and a class)", "exercise": "exercise (a class's data sets)",
          "output": "output", "other": "other options"}

# The commands that grow a tree from the tree options (check grades their claims too).
_GROW = frozenset({"tree", "report", "predict", "cptable", "evaluate", "forest", "check"})
_PRUNE = frozenset({"tree", "report", "predict", "evaluate", "check"})
_READ = frozenset({"tree", "report", "predict", "measures", "cptable", "evaluate", "forest", "check"})
_ALL = None  # every command that has the option


class Option:
    """One option's place: its help group, the commands that use it (None: all that have it) and the
    algorithm families that take it (None: all)."""

    __slots__ = ("group", "commands", "algorithms")

    def __init__(self, group, commands=_ALL, algorithms=None):
        self.group, self.commands = group, commands
        self.algorithms = None if algorithms is None else tuple(algorithms)


_CART, _C45 = ("cart",), ("c45",)

_ENGINES = frozenset({"tree", "forest"})  # the commands that take --engine
# dest -> Option.  Keyed by argparse dest, so an alias (--min-leaf for --min-samples-leaf) is the same row.
TABLE = {
    # data
    "target": Option("data"), "missing_as_value": Option("data"), "numeric": Option("data"),
    "categorical": Option("data"), "drop": Option("data"), "columns": Option("data"),
    "sample_weight": Option("data", _PRUNE | {"cptable"}), "exposure": Option("data", _PRUNE | {"cptable"}, _CART),
    "limit_input_bytes": Option("data"), "limit_value_length": Option("data"), "limit_nesting": Option("data"),
    "limit_table_cells": Option("data"), "limit_factor_digits": Option("data"),
    "engine": Option("data", _ENGINES), "memory_limit": Option("data", _ENGINES),
    "threads": Option("data", _ENGINES), "spark_master": Option("data", _ENGINES),
    # algorithm
    "algorithm": Option("algorithm"), "criterion": Option("algorithm"), "split": Option("algorithm", _GROW, _CART),
    "method": Option("algorithm", _GROW - {"forest"}, _CART), "shrink": Option("algorithm", _PRUNE | {"cptable"}),
    "cost": Option("algorithm", _GROW - {"forest"}),
    "routing": Option("algorithm", frozenset({"predict", "evaluate"}), _CART),
    "threshold": Option("algorithm", _GROW), "lookahead": Option("algorithm", _PRUNE | {"cptable", "measures"}),
    "m_of_n": Option("algorithm"),
    "max_subsets": Option("algorithm", _GROW), "average_gain_slack": Option("algorithm", _GROW),
    "prior": Option("algorithm", _GROW), "loss": Option("algorithm", _GROW),
    "competitors": Option("algorithm", _GROW), "surrogates": Option("algorithm", _GROW),
    "use_surrogate": Option("algorithm", _GROW), "surrogate_style": Option("algorithm", _GROW),
    "seed": Option("algorithm", _GROW),
    # forest
    "trees": Option("forest"), "max_features": Option("forest"), "subspace": Option("forest"),
    "sample_fraction": Option("forest"), "bootstrap": Option("forest"), "sampling": Option("forest"), "sample": Option("forest"),
    "samples": Option("forest"), "vote": Option("forest"), "builder": Option("forest"), "jobs": Option("forest"),
    # stopping
    "max_depth": Option("stopping", _GROW), "min_samples_split": Option("stopping", _GROW),
    "min_leaf": Option("stopping", _GROW), "cp": Option("stopping", _GROW),
    "min_gain": Option("stopping", _GROW), "stop_at_zero_gain": Option("stopping", _GROW),
    "min_objects": Option("stopping", _GROW), "no_collapse": Option("stopping", _PRUNE, _C45),
    # pruning
    "prune": Option("pruning", _PRUNE), "confidence": Option("pruning", _PRUNE),
    "validation": Option("pruning", _PRUNE), "alpha": Option("pruning", _PRUNE), "select": Option("pruning", _PRUNE),
    "risk": Option("pruning", _PRUNE), "sequence": Option("pruning", _PRUNE | {"cptable"}),
    "folds": Option("pruning", _PRUNE | {"cptable"}), "folds_from": Option("pruning", _PRUNE | {"cptable"}),
    # output
    "format": Option("output"), "digits": Option("output"),
    "splits": Option("output", frozenset({"tree", "measures", "check"})),
    "table_format": Option("output", frozenset({"tree", "measures", "cptable", "evaluate", "forest", "check"})),
    "output": Option("output"), "quiet": Option("output", _READ), "nodes": Option("output"), "steps": Option("output"),
    "standalone": Option("output"), "exact_values": Option("output"), "weights": Option("output"),
    "exact_weights": Option("output"), "smoothing": Option("output"), "title": Option("output"),
    "show_samples": Option("output"), "show_oob": Option("output"), "importance": Option("output"),
    "predict": Option("output"), "unseen": Option("output"), "proba": Option("output"), "at": Option("data"),
    "train": Option("data"), "test": Option("data"), "compare": Option("pruning"),
    # drawings and plots
    "max_display_depth": Option("output"), "hide_empty": Option("output"), "color": Option("output"),
    "show": Option("output"), "plot": Option("output"), "explain": Option("output"), "row": Option("output"),
    "probs": Option("data"),
    # check's own: the data, the conventions a sheet is graded under, a class
    "data": Option("data"), "tolerance": Option("grading"), "log": Option("grading"),
    "min_digits": Option("grading"), "min_decimals": Option("grading"), "c45_gain": Option("grading"),
    "risk_units": Option("grading"), "max_claim_cells": Option("grading"), "profile": Option("grading"),
    "rubric": Option("grading"), "gradebook": Option("grading"), "feedback": Option("grading"),
    "exercise": Option("grading"),
    # exercise's own
    "kind": Option("exercise"), "students": Option("exercise"), "rows": Option("exercise"),
    "features": Option("exercise"), "ties": Option("exercise"), "max_prime": Option("exercise"),
    "out": Option("output"),
}

# The flags whose control field (infotree.controls) has another name.
FIELD = {"alpha": "ccp_alpha", "select": "ccp_select", "risk": "ccp_risk", "sequence": "ccp_sequence",
         "no_collapse": "collapse", "split": "criterion", "method": "criterion"}


def _controlled():
    """An option that sets a control field is taken by the algorithms whose control has the field
    (unless its row names fewer: --no-collapse only turns off C4.5's default)."""
    for dest, option in TABLE.items():
        families = families_taking(FIELD.get(dest, dest))
        if option.algorithms is None and families and len(families) < len(CONTROLS):
            option.algorithms = families


_controlled()


def _place(dest):
    return TABLE.get(dest) or Option("other")


def fit(parser, command) -> None:
    """Fit ``parser`` (the subcommand ``command``'s) to its command: the options it does not use are
    hidden from its help (still parsed, and refused by :func:`refusal` when given), the others
    grouped as :data:`GROUPS` orders them, each help ending with its default."""
    groups = {}
    for action in list(parser._optionals._group_actions):
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)) or action.help == argparse.SUPPRESS:
            continue
        action = _own(parser, action)
        place = _place(action.dest)
        if place.commands is not None and command not in place.commands:
            action.help = argparse.SUPPRESS
            continue
        action.help = _with_default(action)
        groups.setdefault(place.group, []).append(action)
    for key in GROUPS:
        if key not in groups:
            continue
        group = parser.add_argument_group(GROUPS[key])
        for action in groups[key]:
            parser._optionals._group_actions.remove(action)
            group._group_actions.append(action)


def _own(parser, action):
    """A copy of ``action`` in ``parser`` alone: argparse shares a parent's actions among the commands
    built from it, and each command's help text is its own."""
    import copy

    mine = copy.copy(action)
    for actions in (parser._actions, parser._optionals._group_actions):
        actions[actions.index(action)] = mine
    for s in action.option_strings:
        parser._option_string_actions[s] = mine
    return mine


def _with_default(action) -> str:
    """The action's help, ending with its default when the text does not already say it."""
    text = action.help or ""
    if "default" in text or isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
        return text
    default = action.default
    if default is None or default is False or default == argparse.SUPPRESS:
        return text
    if isinstance(default, bool):
        default = "yes" if default else "no"
    return f"{text} (default: {default})" if text else f"default: {default}"


def subparser(parser, command):
    """The subcommand ``command``'s parser inside the top-level ``parser``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(command)
    return None


def given(args, parser, argv) -> list:
    """[(dest, flag)] of the table's options whose value differs from ``parser``'s default, the flag
    as spelled in ``argv`` when it can be seen there (an alias, an abbreviation is not)."""
    out = []
    for action in parser._actions:
        dest = action.dest
        if dest not in TABLE or not action.option_strings or getattr(args, dest, action.default) == action.default:
            continue
        spelled = [s for s in action.option_strings if any(a == s or a.startswith(s + "=") for a in argv)]
        out.append((dest, (spelled or [s for s in action.option_strings if s.startswith("--")])[0]))
    return out


_ORDER = ("tree", "report", "measures", "predict", "cptable", "evaluate", "forest", "check")


def refusal(args, parser, command, argv, family, criterion) -> str | None:
    """The one-line refusal of the first option given in ``argv`` that does nothing here: one the
    command does not use (naming the commands that do), or one the algorithm ``family`` does not take
    (naming the algorithms that do); None when every option given applies."""
    options = given(args, parser, argv)
    for dest, flag in options:
        commands = TABLE[dest].commands
        if commands is not None and command not in commands:
            return f"{flag} does nothing in '{command}'; it applies to: {', '.join(c for c in _ORDER if c in commands)}"
    for dest, flag in options:
        algorithms = TABLE[dest].algorithms
        if algorithms is None or family in algorithms:
            continue
        names = [n.replace("_", "-") for a in algorithms for n in ALGORITHMS[a]]
        which = " or ".join(f"--algorithm {a}" for a in algorithms)
        criteria = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
        return f"{flag} applies to {which} (criterion {criteria}), not --algorithm {family} (criterion {criterion})"
    return None
