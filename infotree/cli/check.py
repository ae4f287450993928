"""``infotree check SHEET... --data DATA``: the command line of the checker.

The data and tree options (``--target``, ``--criterion``, ``--numeric``, ``--missing-as-value``,
``--prune``, ``--min-objects``, ``--max-depth``, ...) are ``infotree tree``'s own, defined once
in :mod:`infotree.cli` and given here as argparse parents; the data is read and the
expected tree grown exactly as ``tree`` does. ``--profile`` reads options from a course's TOML file
(:mod:`.profile`); several sheets, ``--rubric``, ``--gradebook``, ``--feedback`` or ``--exercise``
grade a class in one process (:mod:`.classroom`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import InfotreeError
from ..forms import counts_text
from ..check import MAX_CLAIM_CELLS, _tolerance_value, check_answers, read_answers
from ..check.profile import EXERCISE_EXCLUDED, ProfileError, profile_words, resolve
from ..check.report import SCHEMA_VERSION, json_report, text_report

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


def _remember_argv(parser):
    """Keep the words the check parser was given (``args.check_argv``): a profile's options are
    applied under them, and only the parser knows which flags they set."""
    parse = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        ns, rest = parse(args, namespace)
        ns.check_argv = list(sys.argv[1:] if args is None else args)
        return ns, rest

    parser.parse_known_args = parse_known_args


def add_check_command(sub, parents=(), *, help):
    """Add ``infotree check`` to the argparse subparsers ``sub``; ``parents`` are the data, tree and
    forest option parsers of :mod:`infotree.cli` (shared with ``tree`` and ``forest``)."""
    from .flags import _m_of_n_flag

    c = sub.add_parser(
        "check", help=help, parents=list(parents),
        description="Check claims such as 'H(play) = 0.940', 'Gain(S, Outlook) = 0.246', 'root = outlook' or a "
                    "tree (infotree's or J48's text), one per line; see docs/check.md for the grammar. Several "
                    "sheets, --rubric, --gradebook, --feedback or --exercise grade a class in one run. "
                    "Exit status: 0 all right, 1 any claim not right or unreadable input, 2 bad usage.")
    c.add_argument("answers", metavar="SHEET", nargs="+",
                   help="answers files ('-' for standard input, one sheet only); a student's id is the file's stem")
    _m_of_n_flag(c)   # tree's own flag: the expected tree grown with M-of-N tests
    c.add_argument("--data", metavar="DATA", help="CSV or ARFF file the answers are about (or --exercise)")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.add_argument("--tolerance", type=_tolerance_arg, metavar="X",
                   help="also accept numbers within X of the exact value (a rational: 0.01 or 1/100)")
    c.add_argument("--min-digits", type=_int_arg(0, 50, "digits"), default=3, metavar="N",
                   help="a decimal answer is right with N significant digits or --min-decimals places (default 3)")
    c.add_argument("--min-decimals", type=_int_arg(0, 50, "decimals"), default=3, metavar="N",
                   help="a decimal answer is right with N decimal places or --min-digits significant digits; "
                        "fewer of both: 'imprecise' (default 3)")
    c.add_argument("--c45-gain", choices=["mdl", "plain"], default="mdl",
                   help="C4.5's gain of a numeric attribute: Release 8's, less log2(cuts)/n, as J48 (mdl, the "
                        "default), or the plain gain at the best cut, as textbooks (the tree is grown with it)")
    c.add_argument("--risk-units", choices=["count", "rate"], default="count",
                   help="cost-complexity risks R(t) and alphas: misclassified rows (count, rpart; the default) or "
                        "rates over the n rows (rate, Breiman's R(t) = r(t)p(t))")
    c.add_argument("--log", choices=["2", "e"], default="2",
                   help="what 'log' means in answers: base 2 (default) or e (then write log2 for base 2)")
    c.add_argument("--max-claim-cells", type=_int_arg(1, 10 ** 9, "cells"), default=MAX_CLAIM_CELLS, metavar="N",
                   help=f"refuse a claim whose count table has more than N cells (default {MAX_CLAIM_CELLS:,})")
    c.add_argument("--explain", action="store_true", help="show the derivation of each value")
    c.add_argument("--digits", type=_int_arg(0, 50, "digits"), default=4, help="decimals of the values shown (default 4)")
    c.add_argument("--profile", metavar="FILE",
                   help="a course's TOML file of these options (keys: long option names; flags given here win)")
    c.add_argument("--rubric", metavar="FILE", help="points per claim (TOML; docs/check.md, 'Grading a class')")
    c.add_argument("--gradebook", metavar="FILE", help="write a CSV row per student: id, score, max, each item")
    c.add_argument("--feedback", metavar="DIR", help="write each student's report (ID.txt, ID.html) and summary.txt")
    c.add_argument("--exercise", metavar="DIR",
                   help="grade each sheet against DIR/ID/ (data.csv, check.toml, rubric.toml), ID its file's stem")
    c.set_defaults(func=run_check_command, check_parser=c)
    _remember_argv(c)
    return c


def _usage(message) -> int:
    sys.stderr.write(f"infotree check: error: {message}\n")
    return 2


def run_check_command(args, out) -> int:
    """Run ``infotree check``: 0 all right, 1 any claim not right or the answers or data unreadable, 2 bad
    usage (options, a profile or a rubric)."""
    parser = getattr(args, "check_parser", None)
    try:
        if args.profile:
            argv = args.check_argv
            args = resolve(parser, argv, [profile_words(args.profile, parser)])
            args.check_argv = argv   # the command line's own words (an exercise's check.toml goes under them)
        if not args.data and not args.exercise:
            return _usage("the following arguments are required: --data (or --exercise DIR)")
        if args.data and args.exercise:
            return _usage("--data and --exercise exclude each other: an exercise folder holds each student's data")
        many = len(args.answers) > 1 or args.rubric or args.gradebook or args.feedback or args.exercise
        if many and "-" in args.answers:
            return _usage("'-' (standard input) is one sheet; a class's sheets are files, each student's id its stem")
        if many:
            return _run_class(args, out)
    except ProfileError as e:
        return _usage(str(e))
    return _run_sheet(args, out)


def _grader(args, data_path):
    """(grade(text) -> Report, Dataset): the data read and the options resolved once, for every sheet."""
    from .args import _resolve_criterion, read_data, tree_options

    _resolve_criterion(args)  # --algorithm and --criterion as tree reads them
    data = read_data(data_path, args)
    options = tree_options(args)
    criterion = options.pop("criterion").name
    grown = []

    def forest():  # grown at the first forest claim of the first sheet that has one, as 'infotree forest' does
        from .args import forest_from_args, predicted_ballots

        if not grown:
            f = forest_from_args(args, data)
            grown.append((f, predicted_ballots(f, args.predict, args.unseen) if args.predict else None))
        return grown[0]

    kw = dict(criterion=criterion, tolerance=args.tolerance, digits=args.digits, min_digits=args.min_digits,
              min_decimals=args.min_decimals, c45_gain=args.c45_gain, risk_units=args.risk_units, log=args.log,
              max_claim_cells=args.max_claim_cells, tree_options=options, forest=forest, shared={})
    return (lambda text: check_answers(text, data, **kw)), data


def _run_sheet(args, out) -> int:
    answers = args.answers[0]
    try:
        text = read_answers(answers)
        grade, _ = _grader(args, args.data)
        report = grade(text)
    except InfotreeError as e:
        sys.stderr.write(f"infotree: error: {e}\n")
        if args.format == "json":
            tolerance = args.tolerance
            doc = {"version": SCHEMA_VERSION, "data": args.data, "answers": answers, "target": args.target,
                   "criterion": (args.criterion or "gain").replace("-", "_"),
                   "tolerance": None if tolerance is None else counts_text(tolerance), "digits": args.digits,
                   "min_digits": args.min_digits, "log": args.log, "min_decimals": args.min_decimals,
                   "conventions": None, "summary": None, "claims": [], "error": str(e)}
            out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return 1
    if args.format == "json":
        out.write(json.dumps(json_report(report, data=args.data, answers=answers), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(text_report(report, explain=args.explain))
    return report.exit_status


def _run_class(args, out) -> int:
    from ..check.classroom import class_json, grade_class, summary_lines, write_feedback, write_gradebook

    sheets, ids = [], {}
    for path in args.answers:
        ident = Path(path).stem
        if ident in ids:
            return _usage(f"two sheets have the id {ident!r} ({ids[ident]} and {path}); a student's id is the "
                          f"file's stem, so give each student one file")
        ids[ident] = path
        sheets.append((ident, path))
    if args.exercise:
        if not Path(args.exercise).is_dir():
            return _usage(f"--exercise {args.exercise!r} is not a folder")
        setup_for = _exercise_setups(args)
    else:
        setup = _setup(args, args.data, args.rubric)   # a bad rubric is bad usage; bad data fails the class
        setup_for = lambda ident: setup  # noqa: E731
    graded = grade_class(sheets, setup_for)
    summary = summary_lines(graded)
    if args.gradebook:
        write_gradebook(graded, args.gradebook)
    if args.feedback:
        write_feedback(graded, args.feedback, summary, explain=args.explain)
    if args.format == "json":
        out.write(json.dumps(class_json(graded, summary), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write("\n".join(summary) + "\n")
    return 0 if graded and all(g.all_right for g in graded) else 1


def _setup(args, data_path, rubric_path):
    from ..check.classroom import Setup
    from ..check.rubric import Scorer, read_rubric

    rubric = read_rubric(rubric_path) if rubric_path else None   # read first: a bad rubric is found at once
    grade, data = _grader(args, data_path)
    if rubric is None:
        return Setup(grade, str(data_path))
    scorer = Scorer(grade, data.target)
    return Setup(grade, str(data_path), rubric, scorer, scorer.item_keys(rubric))


def _exercise_setups(args):
    """setup_for(id): the student's folder's data, check.toml (under the command line's flags and over
    --profile) and rubric.toml (unless --rubric), each folder read once; any problem is the student's row's."""
    parser = args.check_parser
    course = [profile_words(args.profile, parser)] if args.profile else []
    base = Path(args.exercise)

    def setup_for(ident):
        folder = base / ident
        if not folder.is_dir():
            raise InfotreeError(f"no exercise folder {str(folder)!r} for this sheet")
        if not (folder / "data.csv").is_file():
            raise InfotreeError(f"the exercise folder {str(folder)!r} has no data.csv")
        profiles = list(course)
        if (folder / "check.toml").is_file():
            profiles.append(profile_words(folder / "check.toml", parser, excluded=EXERCISE_EXCLUDED))
        own = resolve(parser, args.check_argv, profiles) if profiles else args
        rubric = args.rubric or ((folder / "rubric.toml") if (folder / "rubric.toml").is_file() else None)
        return _setup(own, folder / "data.csv", rubric)

    return setup_for
