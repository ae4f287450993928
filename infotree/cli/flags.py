"""Small pieces the option parsers share: the values' checks (digits, counts, smoothing) and the
flags several commands add the same way (--routing, --m-of-n, the input limits).  The parser
and ``check``'s command import them; they import no command."""

from __future__ import annotations

import argparse

from ..errors import InfotreeError
from ..escape import clip as _clip


def _digits(text):
    try:
        d = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50") from None
    if not 0 <= d <= 50:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50")
    return d


def _routing_flag(parser):
    parser.add_argument("--routing", choices=["infotree", "rpart"], default="infotree",
                        help="cart: how new rows go down: infotree's rules (default: a value equal to a threshold "
                             "goes to the low side x <= t, a level a node never saw goes right) or rpart's predict "
                             "(x < t, so an equal value goes high; a level the node never saw is missing: surrogates, "
                             "then the majority). See docs/cart_rules.md")


def _engine_flags(parser, what):
    """--engine and its options (tree, forest)."""
    parser.add_argument("--engine", choices=["memory", "duckdb", "spark", "auto"], default="memory",
                        help="where the rows are counted: memory (default), duckdb (pip install 'infotree[duckdb]'; "
                             "Parquet or CSV past memory), spark (pip install 'infotree[spark]'), or auto (duckdb "
                             f"when the file is larger than the memory budget); the same {what} on each")
    parser.add_argument("--memory-limit", metavar="SIZE", help="duckdb: its memory limit, such as 4GB (it spills to "
                                                               "disk past it); auto: the budget (default: a quarter "
                                                               "of RAM)")
    parser.add_argument("--threads", type=_nonneg, metavar="N", help="duckdb: threads (default: every core)")
    parser.add_argument("--spark-master", metavar="URL", default="local[2]",
                        help="spark: the master (default local[2])")


def _m_of_n_flag(parser):
    parser.add_argument("--m-of-n", action="store_true",
                        help="every split is the M-of-N test grown at its node from the best single condition "
                             "(ID2-of-3; criterion gain, nominal features, no missing values). "
                             "See docs/pet_lookahead.md")


def _smoothing(text):
    from ..smoothing import smoothing_named

    try:
        return smoothing_named(text)
    except InfotreeError:
        raise argparse.ArgumentTypeError(f"invalid value {_clip(text)!r}; give none, laplace or m=M with M a "
                                         f"positive number (m=2, m=1/2)") from None


def _nonneg(text):
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; give a non-negative integer")
    return v


def _at_most(name):
    """An argparse type: a positive integer within the ceiling ``name`` of :mod:`infotree.limits`,
    refused before any file is read."""
    def check(text):
        from .. import limits

        value = _positive(text)
        try:
            limits.within(name, value)
        except InfotreeError as e:
            raise argparse.ArgumentTypeError(str(e).split(": ", 1)[1]) from None
        return value
    return check


def _jobs(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v == 0:
        raise argparse.ArgumentTypeError(f"invalid value {_clip(text)!r}; give a number of processes, -1 (every "
                                         f"core) or -k (all but k - 1)")
    return v


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; give a positive integer")
    return v


def _add_limit_options(p, *names):
    """The options that raise the budgets of :mod:`infotree.limits`."""
    helps = {"input_bytes": ("--max-input-mb", "largest data or model file read, in MiB (default 256)"),
             "value_length": ("--max-value-length", "longest exact number in a model or option (default 4000)"),
             "nesting": ("--max-nesting", "deepest tree a model file may hold (default 1000)"),
             "factor_digits": ("--max-factor-digits", "digits of a value entropy factors (default 12)"),
             "table_cells": ("--max-table-cells", "cells of one node's count table, features × values × classes "
                                                  "(default 16777216)")}
    for name in names:
        flag, text = helps[name]
        p.add_argument(flag, dest="limit_" + name, type=_positive, metavar="N", help=text)
