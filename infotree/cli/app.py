"""The ``infotree`` command line's entry point.

Errors reach the user as one line on stderr, ``infotree: error: ...``: exit 1
for bad input, 2 for bad usage; never a traceback."""

from __future__ import annotations

import os
import signal
import sys
import warnings

from ..errors import InfotreeError
from .args import _CRITERIA, _UsageError, _limits, _resolve_criterion
from .parser import build_parser


class _Terminated(KeyboardInterrupt):
    """A signal that ends the process (SIGTERM, SIGHUP, ...), raised where the process is, so that
    open temporary files are removed."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _on_sigterm(signum, frame):
    raise _Terminated(signum)


# Signals whose default action ends the process: each is raised as _Terminated instead.
# SIGINT is Python's KeyboardInterrupt already; SIGPIPE stays ignored (Python's default:
# a closed pipe shows as BrokenPipeError on the next write).
_ENDING = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM")
           if hasattr(signal, name)]


def _one_line(message: str, limit: int = 2000) -> str:
    """A message as one line of bounded length: control characters escaped, the middle cut."""
    from ..escape import escape_controls

    message = escape_controls(message)
    if len(message) > limit:
        message = message[:limit // 2] + " ... " + message[-limit // 2:]
    return message


def _error(text: str) -> None:
    try:
        sys.stderr.write(_one_line(text) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # nowhere left to report to


def _tolerant_streams():
    """Never fail on a character the terminal's encoding lacks (a non-UTF-8 locale): escape it."""
    for stream in (sys.stdout, sys.stderr):
        enc = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if enc != "utf8" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, OSError, TypeError):
                pass


def _silence_stdout():
    """After a failed write to stdout, keep the interpreter's final flush from failing again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv=None) -> int:
    """Run the command line; errors are one line on stderr, never a traceback."""
    previous = {}
    try:
        for sig in _ENDING:
            previous[sig] = signal.signal(sig, _on_sigterm)
    except (ValueError, OSError):  # not the main thread: leave signals alone
        pass
    try:
        return _main(argv)
    except _Terminated as e:
        _error("infotree: terminated" + ("" if e.signum == signal.SIGTERM else f" ({signal.Signals(e.signum).name})"))
        return 128 + e.signum
    except KeyboardInterrupt:
        _error("infotree: interrupted")
        return 130
    finally:
        for sig, handler in previous.items():
            if handler is not None:  # None: set outside Python, cannot be put back from here
                signal.signal(sig, handler)


def _refuse_what_does_nothing(parser, args, argv):
    """An option given where it does nothing (another command's, another algorithm's) is bad usage."""
    from ..options import refusal, subparser

    crit = _CRITERIA[args.criterion]
    message = refusal(args, subparser(parser, args.command), args.command, argv, crit.algorithm, args.criterion)
    if message:
        raise _UsageError(message)


def _main(argv):
    from .. import limits, progress

    _tolerant_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in ("entropy", "tree", "measures", "predict", "report", "cptable",
                                              "evaluate", "forest", "exercise") else None
    parser = build_parser(command)
    if not argv:  # bare 'infotree': the usage and the list of commands
        sys.stderr.write(parser.format_help())
        return 2
    args = parser.parse_args(argv)
    try:
        if hasattr(args, "criterion"):
            _resolve_criterion(args)
            _refuse_what_does_nothing(parser, args, argv)
        with limits.raised(**_limits(args)) as budget, limits.recursion_room(4 * budget.nesting), \
                warnings.catch_warnings():
            # A library's warning (numpy on a float filter, matplotlib on a missing glyph) is nothing
            # a user of the command can act on, and every answer is decided exactly.
            warnings.simplefilter("ignore")
            with progress.reporting(enabled=sys.stderr.isatty() and not getattr(args, "quiet", False)):
                status = args.func(args, sys.stdout)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return status
    except _UsageError as e:
        _error(f"infotree {args.command}: error: {e}")
        return 2
    except InfotreeError as e:
        _error(f"infotree: error: {e}")
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except MemoryError:
        _error("infotree: error: out of memory; try --nodes none or a smaller data set")
        return 1
    except OSError as e:
        if e.filename is not None:
            _error(f"infotree: error: {e.filename!r}: {e.strerror or e}")
        else:
            _silence_stdout()
            _error(f"infotree: error: cannot write the output: {e.strerror or e}")
        return 1
    except RecursionError:
        _error("infotree: error: the input is nested too deeply to process (please report this with the command and data)")
        return 3
    except Exception as e:  # a bug: still one line, and say where to look
        _error(f"infotree: internal error: {type(e).__name__}: {e} (please report this with the command and data)")
        return 3
