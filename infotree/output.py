"""Writing output files without ever destroying an input.

``--output`` writes to a temporary file in the same folder and renames it into
place, so a reader never sees half a file.  It refuses a path that is one of the
command's inputs, an empty path, a directory (or a path ending in ``/``) and an
existing file that is not a regular file (``/dev/null``, a FIFO, a socket): a rename
would replace the device node itself.  As the shell's ``>``, it writes through a
symbolic link to the file it points to, and refuses a file that cannot be opened for
writing (a read-only file, for a user other than root).  The new file gets the mode a
plain ``open`` would give it (``0666`` less the umask; an existing file keeps its
mode).  When the write fails (a full disk) the temporary file is removed and the
previous file stays as it was; the temporary file is removed as well when the process
is interrupted (``SIGINT``; the command line turns ``SIGTERM``, ``SIGHUP``, ``SIGUSR1``,
``SIGUSR2`` and ``SIGALRM`` into the same exception; ``SIGPIPE`` is ignored, as Python
does, and a closed pipe shows as an error on writing).  ``-o -`` is standard output
(the command line never calls this for it).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from .errors import InfotreeError

__all__ = ["atomic_writer", "check_not_input", "write_atomic"]


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)  # hard links and symbolic links too
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_not_input(path, inputs) -> None:
    """Refuse an output path that names one of the input files."""
    out = os.fspath(path)
    for p in inputs:
        if p is not None and os.path.exists(p) and _same_file(os.fspath(p), out):
            raise InfotreeError(f"--output {_shown(out)} is an input file; refusing to overwrite it (choose another name)")


def _shown(path: str, limit=80) -> str:
    return repr(path if len(path) <= limit else path[:limit] + "...")


def _check_target(path: str) -> None:
    """Refuse a path that cannot be replaced by a regular file without harm."""
    if not path:
        raise InfotreeError("--output '' is an empty file name; give a file name, or leave out --output "
                            "to write to standard output")
    if os.path.isdir(path):
        raise InfotreeError(f"--output {_shown(path)} is a directory; give a file name")
    if path.endswith(os.sep) or (os.altsep and path.endswith(os.altsep)):
        raise InfotreeError(f"--output {_shown(path)} ends in {path[-1]!r}, so it names a directory; give a file name")
    try:
        mode = os.stat(path).st_mode  # through a symbolic link: its target is what gets written
    except FileNotFoundError:
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            raise InfotreeError(f"cannot write {_shown(path)}: no such folder {_shown(folder)}") from None
        return
    except OSError as e:
        raise InfotreeError(f"cannot write {_shown(path)}: {e.strerror}") from None
    if not stat.S_ISREG(mode):
        kind = ("a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
                else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise InfotreeError(f"--output {_shown(path)} is {kind}, not a regular file; refusing to replace it "
                            "(leave out --output and redirect standard output instead)")
    try:  # the shell's > opens the file for writing; what it refuses (a read-only file), refuse too
        os.close(os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0)))
    except OSError as e:
        raise InfotreeError(f"--output {_shown(path)} cannot be written ({e.strerror}); refusing to replace it "
                            f"(the shell's > would refuse it too)") from None


def _resolved(path: str) -> str:
    """The file a symbolic link ``path`` points to (as ``>`` writes through it), else ``path``."""
    return os.path.realpath(path) if os.path.islink(path) else path


def _new_file_mode(path: str) -> int:
    """The mode ``open(path, 'w')`` would leave: the existing file's, else 0666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    umask = os.umask(0o022)  # reading the umask means setting it; put it back at once
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_writer(path):
    """A text file handle on a temporary file that replaces ``path`` on success."""
    path = os.fspath(path)
    _check_target(path)
    path = _resolved(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".infotree-", dir=folder)
    except OSError as e:
        raise InfotreeError(f"cannot write {_shown(path)}: {e.strerror}") from None
    try:
        try:
            os.fchmod(fd, _new_file_mode(path))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                yield f
                f.flush()
                os.fsync(f.fileno())  # a full disk shows here at the latest, before the rename
            os.replace(tmp, path)
        except OSError as e:
            raise InfotreeError(f"cannot write {_shown(path)}: {e.strerror or e}; "
                                f"the previous file (if any) is unchanged") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    with atomic_writer(path) as f:
        f.write(text)
