"""``infotree check ANSWERS --data DATA``: the command line of the checker.

The data and tree options (``--target``, ``--criterion``, ``--numeric``, ``--missing-as-value``,
``--prune``, ``--min-objects``, ``--max-depth``, ...) are ``infotree tree``'s own, defined once
in :mod:`infotree.cli` and given here as argparse parents; the data is read and the
expected tree grown exactly as ``tree`` does.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import InfotreeError
from ..forms import counts_text
from . import (MAX_CLAIM_CELLS, SCHEMA_VERSION, _tolerance_value, check_answers, format_text, read_answers,
               report_json)

__all__ = ["add_check_command", "run_check_command"]


def _int_arg(low, high, what):
    def parse(text):
        try:
            d = int(text)
        except ValueError:
            d = low - 1
        if not low <= d <= high:
            raise argparse.ArgumentTypeError(f"invalid {what} {text!r}; give an integer from {low} to {high:,}")
        return d
    return parse


def _tolerance_arg(text):
    try:
        return _tolerance_value(text)
    except InfotreeError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_check_command(sub, parents=(), *, help):
    """Add ``infotree check`` to the argparse subparsers ``sub``; ``parents`` are the data, tree and
    forest option parsers of :mod:`infotree.cli` (shared with ``tree`` and ``forest``)."""
    c = sub.add_parser(
        "check", help=help, parents=list(parents),
        description="Check claims such as 'H(play) = 0.940', 'Gain(S, Outlook) = 0.246', 'root = outlook' or a "
                    "tree (infotree's or J48's text), one per line; see docs/check.md for the grammar. "
                    "Exit status: 0 all right, 1 any claim not right or unreadable input, 2 bad usage.")
    c.add_argument("answers", metavar="ANSWERS", help="the answers file ('-' for standard input)")
    c.add_argument("--data", required=True, metavar="DATA", help="CSV or ARFF file the answers are about")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.add_argument("--tolerance", type=_tolerance_arg, metavar="X",
                   help="also accept numbers within X of the exact value (a rational: 0.01 or 1/100)")
    c.add_argument("--min-digits", type=_int_arg(0, 50, "digits"), default=3, metavar="N",
                   help="a decimal answer needs N significant digits to be right; fewer: 'imprecise' (default 3)")
    c.add_argument("--log", choices=["2", "e"], default="2",
                   help="what 'log' means in answers: base 2 (default) or e (then write log2 for base 2)")
    c.add_argument("--max-claim-cells", type=_int_arg(1, 10 ** 9, "cells"), default=MAX_CLAIM_CELLS, metavar="N",
                   help=f"refuse a claim whose count table has more than N cells (default {MAX_CLAIM_CELLS:,})")
    c.add_argument("--explain", action="store_true", help="show the derivation of each value")
    c.add_argument("--digits", type=_int_arg(0, 50, "digits"), default=4, help="decimals of the values shown (default 4)")
    c.set_defaults(func=run_check_command)
    return c


def run_check_command(args, out) -> int:
    """Run ``infotree check``: 0 all right, 1 any claim not right or the answers or data unreadable."""
    from ..cli import _resolve_criterion, read_data, tree_options

    try:
        _resolve_criterion(args)  # --algorithm and --criterion as tree reads them
        text = read_answers(args.answers)
        data = read_data(args.data, args)
        options = tree_options(args)
        criterion = options.pop("criterion").name

        def forest():  # grown at the first forest claim, as 'infotree forest' grows it
            from ..cli import forest_from_args, predicted_ballots

            grown = forest_from_args(args, data)
            return grown, predicted_ballots(grown, args.predict, args.unseen) if args.predict else None

        report = check_answers(text, data, criterion=criterion, tolerance=args.tolerance, digits=args.digits,
                               min_digits=args.min_digits, log=args.log, max_claim_cells=args.max_claim_cells,
                               tree_options=options, forest=forest)
    except InfotreeError as e:
        sys.stderr.write(f"infotree: error: {e}\n")
        if args.format == "json":
            tolerance = args.tolerance
            doc = {"version": SCHEMA_VERSION, "data": args.data, "answers": args.answers, "target": args.target,
                   "criterion": (args.criterion or "gain").replace("-", "_"),
                   "tolerance": None if tolerance is None else counts_text(tolerance), "digits": args.digits,
                   "min_digits": args.min_digits, "log": args.log,
                   "summary": None, "claims": [], "error": str(e)}
            out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return 1
    if args.format == "json":
        out.write(json.dumps(report_json(report, data=args.data, answers=args.answers),
                             ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(format_text(report, explain=args.explain))
    return report.exit_status
