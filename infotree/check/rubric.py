"""Rubrics: points per quantity, and a graded answers file scored against them.

A rubric is TOML (``infotree exercise`` writes the same format)::

    [credit]              # the fraction of an item's points each verdict earns (these are the defaults)
    right = 1
    imprecise = 0.5
    close = 0.5
    wrong = 0
    # carried = 1         # a right tree node graded against the tree grown from the student's own
                          # earlier choice (default: as its verdict says, right = 1)

    [[item]]
    id = "gain_outlook"   # the gradebook's column
    claim = "IG(outlook)" # a left-hand side in check's grammar
    points = 2

An item is matched by meaning, not by spelling: its claim is read by the checker (``IG(outlook) = 0``)
and its ``quantity`` compared with each student claim's, so ``Gain(S, Outlook)`` and ``IG(outlook)``
are one item. ``root``, ``split(path)`` and ``leaf(path)`` items name a node of the tree: a student's
root/split/leaf claim about that node, or the node in a whole tree the student drew, answers them.
A student who answers an item twice gets the better credit; an item not answered scores 0 ("missing").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .profile import ProfileError, read_toml

__all__ = ["DEFAULT_CREDIT", "Item", "ItemScore", "Rubric", "Scorer", "read_rubric"]

DEFAULT_CREDIT = {"right": Fraction(1), "imprecise": Fraction(1, 2), "close": Fraction(1, 2), "wrong": Fraction(0)}
#: Gradebook columns an item id may not take.
RESERVED = frozenset({"id", "score", "max", "error", "claims"})
_NODE_KINDS = ("root", "split", "leaf")
#: Claims whose value is not a number, so that "<claim> = 0" has no quantity: keyed by their left-hand side.
_BY_NAME = ("ccp_alphas", "weakest_link")


@dataclass(frozen=True)
class Item:
    id: str
    claim: str
    points: Fraction


@dataclass(frozen=True)
class Rubric:
    items: tuple
    credit: dict           # verdict -> fraction of the points
    carried: Fraction | None = None   # a right node graded against the carried-forward tree
    source: str = ""

    @property
    def max(self) -> Fraction:
        return sum((i.points for i in self.items), Fraction(0))


@dataclass(frozen=True)
class ItemScore:
    item: Item
    verdict: str           # right, imprecise, close, wrong, unreadable, ungraded, or missing
    points: Fraction
    line: int | None = None
    claim: str | None = None   # the student's line that earned it
    carried: bool = False


def _fraction(where, key, v, low, high=None) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ProfileError(f"{where}: {key} = {v!r} is not a number; give e.g. 1, 0.5 or 1/2")
    try:
        q = Fraction(str(v)) if isinstance(v, float) else Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise ProfileError(f"{where}: {key} = {v!r} is not a number; give e.g. 1, 0.5 or 1/2") from None
    if q < low or (high is not None and q > high):
        span = f"from {low} to {high}" if high is not None else f"above {low}" if low else "0 or more"
        raise ProfileError(f"{where}: {key} = {v!r} is not allowed; give a number {span}")
    return q


_ABOUT = ("exercise", "student", "kind", "seed")
# an item for the tree drawn whole (infotree exercise asks for it so)
_WHOLE_TREE = ("tree", "the tree", "whole tree", "the whole tree")


def read_rubric(path) -> Rubric:
    """The rubric file, checked; every problem one line naming the file and the key."""
    where = str(path)
    table = read_toml(path)
    for key in table:
        # exercise, student, kind, seed: what `infotree exercise` records of the sheet (not graded)
        if key not in ("credit", "item") + _ABOUT:
            raise ProfileError(f"{where}: unknown key {key!r}; a rubric has a [credit] table and [[item]] tables "
                               f"(and {', '.join(_ABOUT)} describing the exercise)")
        if key in _ABOUT and not isinstance(table[key], (str, int)) or isinstance(table[key], bool):
            raise ProfileError(f"{where}: {key} = {table[key]!r} is not allowed; give a text or a whole number")
    credit, carried = dict(DEFAULT_CREDIT), None
    raw = table.get("credit", {})
    if not isinstance(raw, dict):
        raise ProfileError(f"{where}: 'credit' must be a table: [credit] with right, imprecise, close, wrong, carried")
    for key, v in raw.items():
        if key not in (*DEFAULT_CREDIT, "carried"):
            raise ProfileError(f"{where}: unknown key {key!r} in [credit]; allowed: right, imprecise, close, wrong, "
                               f"carried")
        q = _fraction(where, f"credit.{key}", v, 0, 1)
        if key == "carried":
            carried = q
        else:
            credit[key] = q
    items, ids = [], set()
    raw = table.get("item", [])
    if not isinstance(raw, list) or not raw:
        raise ProfileError(f"{where}: no [[item]]; each item has an id (its gradebook column), a claim (such as "
                           f"'IG(outlook)') and points")
    for k, it in enumerate(raw, 1):
        at = f"{where}: item {k}"
        if not isinstance(it, dict):
            raise ProfileError(f"{at}: not a table; write [[item]] with id, claim and points")
        for key in it:
            if key not in ("id", "claim", "points", "question", "answer", "note"):
                raise ProfileError(f"{at}: unknown key {key!r}; allowed: id, claim, points (and question, answer, "
                                   f"note, not graded)")
        for key in ("id", "claim", "points"):
            if key not in it:
                raise ProfileError(f"{at}: no {key!r}; each item has an id, a claim and points")
        ident, claim = it["id"], it["claim"]
        if not isinstance(ident, str) or not ident.strip() or any(c in ident for c in "\r\n"):
            raise ProfileError(f"{at}: id {ident!r} is not allowed; give a short name on one line (a gradebook column)")
        if ident in RESERVED or ident in ids:
            why = "is a column of the gradebook itself" if ident in RESERVED else "is given twice"
            raise ProfileError(f"{at}: id {ident!r} {why}; give each item its own id")
        if not isinstance(claim, str) or not claim.strip() or "\n" in claim:
            raise ProfileError(f"{at}: claim {claim!r} is not allowed; give a left-hand side on one line, such as "
                               f"'IG(outlook)', 'root' or 'split(outlook = sunny)'")
        if _has_value(claim):
            raise ProfileError(f"{at}: claim {claim!r} has a value; give the left-hand side only, such as "
                               f"'IG(outlook)' (the key's value is the data's)")
        ids.add(ident)
        items.append(Item(ident, claim.strip(), _fraction(at, "points", it["points"], 0)))
        if items[-1].points == 0:
            raise ProfileError(f"{at}: points = 0 is not allowed; give a positive number")
    return Rubric(tuple(items), credit, carried, where)


def _has_value(claim: str) -> bool:
    """An '=' outside parentheses: 'IG(outlook) = 0.25' has a value, 'split(outlook = sunny)' has none."""
    depth = 0
    for c in claim:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c in "=≈" and depth == 0:
            return True
    return False


def _lhs_key(kind, text) -> tuple:
    """('name', kind, the left-hand side without case, spaces or '_'): 'weakest link_3', 'alphas'."""
    depth, end = 0, len(text)
    for i, c in enumerate(text):
        depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(c, 0)
        if c in "=≈" and depth == 0:
            end = i
            break
    return ("name", kind, "".join(text[:end].lower().replace("_", "").split()))


def _head(text: str) -> str:
    return text.lstrip().split("(", 1)[0].strip().lower()


def node_path_text(kind, text) -> str | None:
    """The path a root/split/leaf claim is about, as written: ``split(outlook = sunny) = humidity`` ->
    ``outlook = sunny``; ``root`` for the root; None when there is no parenthesised path."""
    if kind == "root":
        return "root"
    start = text.find("(")
    if start < 0:
        return None
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            inner = text[start + 1:i].strip()
            return inner or "root"
    return None


class Scorer:
    """Keys claims by meaning for one data set and its options: ``grade(text) -> Report`` is the
    checker under the sheet's options; paths are made canonical by the checker itself, each once."""

    _TEMPLATES = ("H({t} | {p}) = 0", "Entropy({p}) = 0", "Mean({t} | {p}) = 0")

    def __init__(self, grade, target):
        self.grade, self.target = grade, target
        self.paths = {"root": "root", "": "root"}

    def canonical(self, texts) -> None:
        """Make each path text canonical (one checker call per template for all of them)."""
        todo = sorted({t for t in texts if t is not None and t not in self.paths})
        for template in self._TEMPLATES:
            if not todo:
                break
            lines = [template.format(t=self.target, p=p) for p in todo]
            found = {r.line: r for r in self.grade("\n".join(lines)).results}
            left = []
            for k, p in enumerate(todo, 1):
                r = found.get(k)
                if r is not None and r.last_line == k and r.quantity:
                    q = r.quantity
                    self.paths[p] = q[q.index(" | ") + 3:-1] if " | " in q else "root"
                else:
                    left.append(p)
            todo = left
        for p in todo:  # not a path the checker reads: kept as written, spaces and case evened
            self.paths[p] = " ".join(p.lower().split())

    def item_keys(self, rubric) -> dict:
        """{item id: key}; an item whose claim the checker cannot read is a one-line error."""
        report = self.grade("\n".join(f"{i.claim} = 0" for i in rubric.items))
        found = {r.line: r for r in report.results}
        keys, paths = {}, {}
        for k, item in enumerate(rubric.items, 1):
            r = found.get(k)
            kind = r.kind if r is not None and r.last_line == k else _head(item.claim)
            if " ".join(item.claim.lower().split()) in _WHOLE_TREE:
                keys[item.id] = ("tree",)   # the tree drawn whole: credit by the share of its nodes right
            elif kind in _NODE_KINDS:
                paths[item.id] = node_path_text(kind, item.claim + " = 0") if kind != "root" else "root"
                if paths[item.id] is None:
                    raise ProfileError(f"{rubric.source}: item {item.id!r}: claim {item.claim!r} names no node; "
                                       f"write split(outlook = sunny) or leaf(outlook = overcast)")
            elif r is not None and r.quantity:
                keys[item.id] = ("quantity", r.quantity)
            elif kind in _BY_NAME:
                keys[item.id] = _lhs_key(kind, item.claim)
            else:
                why = r.message if r is not None and r.message else "the checker does not read it as a claim"
                raise ProfileError(f"{rubric.source}: item {item.id!r}: claim {item.claim!r} is not a quantity "
                                   f"infotree check reads: {why}")
        self.canonical(paths.values())
        keys.update({i: ("node", self.paths[p]) for i, p in paths.items()})
        return keys

    def attempts(self, report) -> list:
        """(key, verdict, carried, line, text) of every graded statement of a report, in file order."""
        raw, whole = [], []
        for r in report.results:
            if r.kind == "tree":
                raw.extend((n.path, n.verdict, n.carried, n.line, f"{r.text.splitlines()[0]} ... (node {n.path})",
                            True) for n in r.nodes)
                whole.append((("tree",), r.verdict, False, r.line, r.text.splitlines()[0] + " ...", r.nodes, False))
            elif r.kind in _NODE_KINDS:
                raw.append((node_path_text(r.kind, r.text), r.verdict, False, r.line, r.text, False))
            elif r.quantity:
                raw.append((("quantity", r.quantity), r.verdict, False, r.line, r.text, False))
            elif r.kind in _BY_NAME:
                raw.append((_lhs_key(r.kind, r.text), r.verdict, False, r.line, r.text, False))
        self.canonical(p for p, *_ in raw if not isinstance(p, tuple))
        return [(p if isinstance(p, tuple) else ("node", self.paths[p]) if p is not None else None, *rest[:-1], None,
                 rest[-1]) for p, *rest in raw] + whole

    def score(self, report, rubric, keys) -> tuple:
        """(ItemScore, ...) in the rubric's order."""
        attempts = self.attempts(report)
        out = []
        for item in rubric.items:
            best = None
            mine = [a for a in attempts if a[0] == keys[item.id]]
            if any(not a[6] for a in mine):
                # a node claimed on its own line (root = colour) is the answer to its item, not the same node
                # inside a tree drawn elsewhere on the sheet: a contradiction is not resolved in the student's favour
                mine = [a for a in mine if not a[6]]
            for key, verdict, carried, line, text, nodes, _ in mine:
                fraction = credit_of(rubric, verdict, carried) if nodes is None else tree_credit(rubric, nodes)
                if best is None or fraction > best[0]:
                    best = (fraction, verdict, carried, line, text)
            if best is None:
                out.append(ItemScore(item, "missing", Fraction(0)))
            else:
                fraction, verdict, carried, line, text = best
                out.append(ItemScore(item, verdict, fraction * item.points, line, text, carried))
        return tuple(out)


def tree_credit(rubric, nodes) -> Fraction:
    """A whole tree's credit: the mean of its nodes' credits (a node graded against the student's own
    earlier choice earns the rubric's carried credit)."""
    if not nodes:
        return Fraction(0)
    return sum((credit_of(rubric, n.verdict, n.carried) for n in nodes), Fraction(0)) / len(nodes)


def credit_of(rubric, verdict, carried=False) -> Fraction:
    """The fraction of the points a verdict earns (unreadable, ungraded and missing: 0)."""
    credit = rubric.credit if rubric is not None else DEFAULT_CREDIT
    if carried and verdict == "right" and rubric is not None and rubric.carried is not None:
        return rubric.carried
    return credit.get(verdict, Fraction(0))
