"""The ``infotree`` command line.

Errors reach the user as one line on stderr, ``infotree: error: ...``: exit 1
for bad input, 2 for bad usage; never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from .errors import InfotreeError

__all__ = ["main"]


def _digits(text):
    try:
        d = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50") from None
    if not 0 <= d <= 50:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50")
    return d


def _cmd_entropy(args, out):
    from .exact import decimal_text
    from .forms import entropy_form, h_of
    from .measures import entropy, entropy_of_probabilities
    from .parse import parse_exact

    if args.probs:
        from fractions import Fraction

        probs = []
        for t in args.values:
            v = parse_exact(t)
            if not isinstance(v, Fraction):
                raise InfotreeError(f"probability {t!r} is not a rational number; write it like 1/64")
            probs.append(v)
        value = entropy_of_probabilities(probs)
        form = " + ".join(f"{_frac(p)}·log2({_frac(1 / p)})" for p in probs if p) or "0"
        lhs = "H(P)"
    else:
        counts = []
        for t in args.values:
            v = parse_exact(t)
            if not hasattr(v, "denominator"):
                raise InfotreeError(f"count {t!r} is not a rational number; counts are non-negative integers or fractions")
            counts.append(v)
        value = entropy(counts)
        form = entropy_form(counts)
        lhs = h_of(counts)
    out.write(f"{lhs} = {form}\n")
    out.write(f"{' ' * len(lhs)} = {value}\n")
    out.write(f"{' ' * len(lhs)} = {decimal_text(value, args.digits)}\n")
    return 0


def _frac(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="infotree", description="Exact ID3/C4.5 decision trees and information measures.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    e = sub.add_parser("entropy", help="entropy of counts or of a probability vector, exactly",
                       description="Print the textbook form, the exact closed form and the decimal.")
    e.add_argument("values", nargs="+", metavar="VALUE", help="class counts (9 5) or, with --probs, probabilities (1/2 1/4 ...)")
    e.add_argument("--probs", action="store_true", help="the values are probabilities that sum to 1")
    e.add_argument("--digits", type=_digits, default=4, help="decimals to print (default 4)")
    e.set_defaults(func=_cmd_entropy)

    return p


def main(argv=None) -> int:
    parser = build_parser()
    # "-1/2" style values must not be read as options by the entropy command.
    args = parser.parse_args(argv)
    out = sys.stdout
    try:
        return args.func(args, out)
    except InfotreeError as e:
        sys.stderr.write(f"infotree: error: {e}\n")
        return 1
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("infotree: interrupted\n")
        return 130
