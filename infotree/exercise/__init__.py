"""Exercise sets for a class: a small data set per student, the questions, and the worked key.

``make_exercise(kind, seed=S, student=ID)`` draws a table from the seed and the student id
(:mod:`~infotree.exercise.tables`), grows the tree the kind asks about exactly as ``infotree
check`` will (:mod:`~infotree.exercise.kinds`), and keeps the first table that makes a good
exercise: the tree has the kind's depth, no exact tie at a decision the questions ask about
(``ties=True``: at least one, named in the key), and every asked number needs no prime above
``max_prime`` (denominators, and the p of every log2(p)).  ``write_exercise`` writes the student's
files (:data:`~infotree.exercise.sheets.FILES`).

    >>> ex = make_exercise("id3", seed=1, student="s01")
    >>> ex.questions[0].claim
    'H(buy)'
"""

from __future__ import annotations

import os
import random
import re
import tempfile
from dataclasses import dataclass
from fractions import Fraction

from ..errors import InfotreeError
from .kinds import KINDS, flags_of, primes_of
from .sheets import FILES, write_files

__all__ = ["FILES", "KINDS", "Exercise", "make_exercise", "read_roster", "write_exercise"]

#: the most tables drawn for one student before giving up (a good one is usually among the first 100)
ATTEMPTS = 3000
ROWS = (4, 40)
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


@dataclass
class Exercise:
    """One student's exercise: the data (``header``, ``rows`` of text), the check ``options``,
    the ``questions`` with their exact answers, the ``ties`` the key names, and the grown
    ``solution`` the worked key is printed from."""

    kind: str
    seed: int
    student: str
    header: list
    rows: list
    options: dict
    questions: list
    ties: list
    solution: object
    attempts: int

    @property
    def kind_obj(self):
        return KINDS[self.kind]

    @property
    def title(self) -> str:
        return self.kind_obj.title

    @property
    def flags(self) -> list:
        """check.toml's options as ``infotree check`` flags."""
        return flags_of(self.options)


def _check_args(kind, seed, student, rows, features, max_prime):
    if kind not in KINDS:
        raise InfotreeError(f"unknown exercise kind {kind!r}; allowed: {', '.join(KINDS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InfotreeError(f"seed {seed!r} is not allowed; give a non-negative integer")
    if not isinstance(student, str) or not _ID.match(student):
        raise InfotreeError(f"student id {student!r} is not allowed; use 1 to 64 letters, digits, '.', '_' or '-', "
                            f"starting with a letter or digit (it names the student's folder)")
    if rows is not None and not ROWS[0] <= rows <= ROWS[1]:
        raise InfotreeError(f"rows {rows!r} is not allowed; give {ROWS[0]} to {ROWS[1]} (done by hand)")
    if features is not None and not 2 <= features <= 5:
        raise InfotreeError(f"features {features!r} is not allowed; give 2 to 5")
    if isinstance(max_prime, bool) or not isinstance(max_prime, int) or max_prime < 2:
        raise InfotreeError(f"max_prime {max_prime!r} is not allowed; give an integer of at least 2")


def _balanced(labels) -> bool:
    """Every class holds at least a quarter of the rows (and two): a tree worth growing by hand."""
    counts = [labels.count(c) for c in set(labels)]
    return len(counts) > 1 and min(counts) >= max(2, len(labels) / 4)


def make_exercise(kind, *, seed, student, rows=None, features=None, ties=False, max_prime=7,
                  attempts=ATTEMPTS) -> Exercise:
    """The exercise of ``kind`` for ``student``: the same seed and id give the same exercise.

    ``rows`` (default: drawn from the kind's range, within 8 to 20) and ``features`` (default 3 or
    4; 2 or 3 for regression and cost complexity) size the table."""
    _check_args(kind, seed, student, rows, features, max_prime)
    k = KINDS[kind]
    big = max(primes_of(Fraction(1, rows)), default=2) if rows else 2
    if k.root_denominator and big > max_prime:
        raise InfotreeError(f"rows {rows} put the prime {big} in the denominator of the root's {k.name} values; "
                            f"allow it (--max-prime {big}) or give --rows without primes above {max_prime}")
    rng = random.Random(f"infotree exercise|{kind}|{seed}|{student}")
    with tempfile.TemporaryDirectory(prefix="infotree-exercise-") as tmp:
        path = os.path.join(tmp, "data.csv")
        for attempt in range(1, attempts + 1):
            n = rows or rng.randint(*k.rows)
            m = features or rng.randint(*k.features)
            header, body = k.draw(rng, n, m)
            if k.classify and not _balanced([r[-1] for r in body]):
                continue
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write("\n".join(",".join(r) for r in [header, *body]) + "\n")
            try:
                sol = k.solve(path, k.options(header), rng)
            except InfotreeError:
                continue  # a draw infotree refuses (a column of one value): draw again
            if k.shape(sol) is not None:
                continue
            found = k.ties(sol)
            if bool(found) != ties:
                continue
            questions = k.questions(sol)
            if any(p > max_prime for q in questions for p in primes_of(q.value)):
                continue
            return Exercise(kind, seed, student, header, body, sol.options, questions, found, sol, attempt)
    sized = f"{f' of {rows} rows' if rows else ''}{f' and {features} attributes' if features else ''}"
    if ties:
        raise InfotreeError(f"no {kind} exercise with an exact tie at an asked decision for student {student!r} in "
                            f"{attempts} drawn tables{sized}; such ties are rare in this kind: try another seed, "
                            f"or leave out --ties")
    raise InfotreeError(f"no good {kind} exercise for student {student!r} in {attempts} drawn tables{sized}; allow "
                        f"larger primes (--max-prime {max(max_prime, 11)}) or change --rows/--features")


def write_exercise(ex: Exercise, directory) -> None:
    """Write the student's files (:data:`FILES`) into ``directory``."""
    write_files(ex, directory)


def read_roster(path) -> list:
    """The student ids of a roster CSV: the column ``id`` (or ``student``), else the first column;
    a header line is recognised by that name.  Blank lines are skipped; ids must be unique."""
    import csv

    from ..data import _read_text

    text = _read_text(os.fspath(path))
    rows = [(i + 1, r) for i, r in enumerate(csv.reader(text.splitlines())) if any(c.strip() for c in r)]
    if not rows:
        raise InfotreeError(f"{path}: no student ids; write one id a line (a header 'id' is optional)")
    col = 0
    head = [c.strip().lower() for c in rows[0][1]]
    if "id" in head or "student" in head:
        col = head.index("id") if "id" in head else head.index("student")
        rows = rows[1:]
    ids, seen = [], {}
    for line, r in rows:
        sid = r[col].strip() if col < len(r) else ""
        if not _ID.match(sid):
            raise InfotreeError(f"{path} line {line} column {col + 1}: student id {sid!r} is not allowed; use 1 to 64 "
                                f"letters, digits, '.', '_' or '-', starting with a letter or digit")
        if sid in seen:
            raise InfotreeError(f"{path} line {line}: student id {sid!r} repeats line {seen[sid]}; ids must be unique")
        seen[sid] = line
        ids.append(sid)
    return ids
