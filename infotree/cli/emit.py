"""Writing a command's result: to standard output or atomically to ``--output``, plots beside it, and
notes on standard error."""

from __future__ import annotations

import sys

from ..escape import SafeWriter


def _emit(args, inputs, write):
    """Run ``write(out)`` to stdout or atomically to ``--output`` (``-o ''`` too is refused there)."""
    if args.output not in (None, "-"):  # -o - is standard output, as for most tools
        from ..output import atomic_writer, check_not_input

        check_not_input(args.output, inputs + [getattr(args, "validation", None)])
        with atomic_writer(args.output) as f:
            write(SafeWriter(f, getattr(args, "format", "text")))
    else:
        write(SafeWriter(sys.stdout, getattr(args, "format", "text")))
    return 0


def _plot(args, inputs, make) -> None:
    """``--plot FILE``: the figure ``make()`` draws, written atomically (its type from the name)."""
    if not getattr(args, "plot", None):
        return
    from ..output import atomic_writer, check_not_input
    from ..printers.plots import kind_of, save

    kind = kind_of(args.plot)
    check_not_input(args.plot, inputs)
    fig = make()
    with atomic_writer(args.plot) as f:
        save(fig, f, kind)


def _note(text):
    """A word on standard error before a large output is written (the output itself is unchanged)."""
    sys.stderr.write(f"infotree: note: {text}\n")
    sys.stderr.flush()
