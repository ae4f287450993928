"""Feedback on long work: a progress bar on standard error, for a person at a terminal.

Library code marks its long loops with :func:`steps` (a forest's trees, permutation
importance's shuffles, cross-validation's folds); they report nowhere unless a caller has
turned reporting on with :func:`reporting`, as the command line does when standard error is
a terminal (and not with ``--quiet``).  The bar appears only after half a second, redraws at
most ten times a second and is erased when the work ends, so quick runs and piped output
stay exactly as they were:

    forest: permutation importance [########............]  40/100  0:12
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

__all__ = ["reporting", "steps"]

_WIDTH = 20
_DELAY = 0.5      # seconds of work before a bar is worth showing
_INTERVAL = 0.1   # seconds between redraws

_stream = None    # where bars go while reporting is on, else None
_clock = time.monotonic


@contextmanager
def reporting(stream=None, *, enabled=True):
    """Show progress bars on ``stream`` (standard error by default) inside this block."""
    global _stream
    before = _stream
    _stream = (stream or sys.stderr) if enabled else None
    try:
        yield
    finally:
        _stream = before


def steps(items, what, total=None):
    """Yield from ``items``, showing ``what`` and a count of ``total`` (len(items) by default) on
    the bar while reporting is on; the bar is erased at the end (or on Ctrl-C)."""
    stream = _stream
    if stream is None:
        yield from items
        return
    if total is None:
        total = len(items)
    start = _clock()
    shown = last = 0.0
    done = 0
    try:
        for item in items:
            yield item
            done += 1
            now = _clock()
            if now - start >= _DELAY and now - last >= _INTERVAL:
                shown = last = now
                stream.write("\r" + line(what, done, total, now - start))
                stream.flush()
    finally:
        if shown:
            stream.write("\r" + " " * len(line(what, total, total, _clock() - start)) + "\r")
            stream.flush()


def line(what, done, total, seconds) -> str:
    """One state of the bar: what, the bar, the count and the elapsed time (m:ss)."""
    filled = _WIDTH * done // total if total else 0
    m, s = divmod(int(seconds), 60)
    width = len(str(total))
    return f"{what} [{'#' * filled}{'.' * (_WIDTH - filled)}] {done:>{width}}/{total}  {m}:{s:02d}"
