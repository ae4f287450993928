"""``infotree exercise``: every student's exercise into DIR/<student>/."""

from __future__ import annotations

import os

from ..errors import InfotreeError
from . import make_exercise, read_roster, write_exercise

__all__ = ["run", "students"]

#: the most students a number may name (a roster file may list more)
MAX_STUDENTS = 1000


def students(spec: str) -> list:
    """The ids of ``--students``: a number N gives s01 ... sN (zero-padded to N's width), else a roster file."""
    text = spec.strip()
    if text.isdigit() and not os.path.exists(spec):
        n = int(text)
        if not 1 <= n <= MAX_STUDENTS:
            raise InfotreeError(f"--students {spec!r}: give 1 to {MAX_STUDENTS} students, or a roster file")
        width = max(2, len(str(n)))
        return [f"s{i:0{width}d}" for i in range(1, n + 1)]
    return read_roster(spec)


def run(args, out) -> int:
    ids = students(args.students)
    for sid in ids:
        ex = make_exercise(args.kind, seed=args.seed, student=sid, rows=args.rows, features=args.features,
                           ties=args.ties, max_prime=args.max_prime)
        where = os.path.join(args.out, sid)
        write_exercise(ex, where)
        out.write(f"{sid}: {where} ({len(ex.rows)} rows, {len(ex.header) - 1} attributes, "
                  f"{len(ex.questions)} questions, {sum(q.points for q in ex.questions)} points"
                  f"{', ' + str(len(ex.ties)) + ' tie' + 's' * (len(ex.ties) != 1) if ex.ties else ''})\n")
    return 0
