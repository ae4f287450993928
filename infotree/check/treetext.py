"""Reading a tree written as text: infotree's own output, Weka/J48's, or a student's.

A tree is a block of consecutive lines, one branch a line::

    outlook = sunny                     a branch with lines below it
    |  humidity <= 75: yes (2)          a numeric branch ending in a leaf, with its count
    |  humidity > 75: no (3.38/0.38)    C4.5 weights: n/errors, any decimals
    outlook = overcast: yes (4.0)

Depth is the number of ``|`` before the branch or, when a block has no ``|`` at all,
its indentation (spaces; a tab counts as 4).  J48's header and footer lines
(``J48 pruned tree``, a line of dashes, ``Number of Leaves  : 5``, ``Size of the tree : 8``)
and infotree's footer are ignored.

Every line is read by scanning it once (no regular expression that can backtrack):
a line of 1,000 characters is read in microseconds whatever it holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["CUTS", "ClaimedLeaf", "ClaimedSplit", "TreeTextError", "arrow_lines", "is_arrow_line", "is_arrow_root",
           "is_ignored", "is_tree_line", "read_tree"]

#: The operators of a numeric cut; C4.5 writes '<=' and '>', rpart '<' and '>='.
CUTS = ("<=", ">", "<", ">=")

_OP_ALIASES = {"≤": "<=", "≥": ">=", "≈": "="}
# CART's subset tests, as infotree prints them: 'outlook in {sunny, rainy}', 'outlook not in {sunny, rainy}'.
_SET_OPS = (" not in {", " in {")
# rpart's print(): '2) Start>=8.5 62  6 absent (0.90322581 0.09677419)', '*' ending a leaf.
_RPART_LINE = re.compile(r"\s{0,200}(\d{1,9})\)\s")


class TreeTextError(Exception):
    """A tree block that cannot be read; the message names the line and what was expected."""


@dataclass
class ClaimedLeaf:
    number: int
    label: str
    counts: tuple | None = None       # (n text, errors text or None), as written
    counts_text: str | None = None


@dataclass
class ClaimedSplit:
    number: int
    feature: str
    threshold: str | None = None      # numeric split: the written threshold
    branches: dict = field(default_factory=dict)   # key ("=", value) / (cut, "") / ("in", values) -> child
    lines: dict = field(default_factory=dict)      # same key -> line number of the branch


@dataclass
class _Line:
    number: int
    depth: int
    indent: int
    feature: str | None
    op: str | None
    value: str | None
    label: str | None
    counts: tuple | None
    counts_text: str | None


# J48's header, its rule of dashes, and the two count lines; infotree's footer lines.
_IGNORED = re.compile(r"(?:J48 (?:un)?pruned tree|-{3,}|=== .{0,200} ===|"
                      r"Number of [Ll]eaves\s{0,20}:\s{0,20}\d{1,9}|Size of the tree\s{0,20}:\s{0,20}\d{1,9}|"
                      r"single leaf:.{0,1000}|leaf probabilities: .{1,1000}|"
                      # rpart's print() header: 'n= 81', its legend, and '* denotes terminal node'
                      r"n\s{0,5}=\s{0,5}\d{1,12}|node\), split, n, (?:loss, yval, \(yprob\)|deviance, yval)|"
                      r"\* denotes terminal node)")


def is_ignored(body: str) -> bool:
    """A header or footer line of a printed tree (J48's or infotree's)."""
    return _IGNORED.fullmatch(body.strip()) is not None


def _find_op(s: str):
    """(position, operator) of the first comparison operator in ``s``, or (-1, None); ``in`` and
    ``not in`` count when a set ``{...}`` follows."""
    for op in _SET_OPS:
        k = s.find(op)
        if k > 0 and not any(c in s[:k] for c in "<>=≤≥≈"):
            return k + 1, op.strip(" {")
    for i, c in enumerate(s):
        c = _OP_ALIASES.get(c, c)
        if len(c) == 2:
            return i, c
        if c in "<>=":
            two = s[i:i + 2]
            return (i, two) if two in ("<=", ">=") else (i, c)
    return -1, None


def is_tree_line(body: str, claim_words) -> bool:
    """Whether a (stripped) line is a tree line rather than a claim such as ``H(play) = 0.94``."""
    s = body.lstrip()
    if s.startswith(("|", ":")) or _RPART_LINE.match(body):
        return True
    cut = s.find(":")
    head = s if cut < 0 else s[:cut]
    i, _ = _find_op(head)
    if i <= 0:
        return False
    word = head[:i].strip()
    if not word or "(" in word or ")" in word:
        return False
    return word.lower().replace(" ", "").replace("_", "").replace("-", "") not in claim_words


def _parse_line(number: int, body: str, indent: int):
    s = body.strip()
    bars = 0
    i = 0
    while i < len(s) and (s[i] == "|" or s[i].isspace()):
        bars += s[i] == "|"
        i += 1
    s = s[i:]
    feature = op = value = None
    if s.startswith(":"):
        rest = s[1:]
    else:
        cut = s.find(":")
        cond, rest = (s, None) if cut < 0 else (s[:cut], s[cut + 1:])
        j, op = _find_op(cond)
        if j <= 0:
            raise TreeTextError(f"line {number}: cannot read the tree line {_clip(body)!r}; expected "
                                f"'feature = value', 'feature <= number', '|  feature = value: class (n)' or ': class'")
        feature = cond[:j].strip()
        value = cond[j + len(op):].strip()
        if not value:
            raise TreeTextError(f"line {number}: no value after '{op}'; write 'feature {op} value'")
    label = counts = ctext = None
    if rest is not None:
        r = rest.strip()
        if r.endswith("]") and "[" in r:
            # a probability estimation tree's leaf probabilities, [yes 6/17, no 11/17]: not graded (check has
            # no --smoothing to grade them under)
            r = r[:r.rfind("[")].strip()
        if r.endswith(")") and "(" in r:
            k = r.rfind("(")
            ctext = r[k + 1:-1].strip()
            counts = _leaf_counts(number, ctext)
            r = r[:k].strip()
        if not r:
            raise TreeTextError(f"line {number}: no class after ':'; write '{_clip(body.split(':')[0].strip())}: class'")
        label = r
    return _Line(number, bars, indent, feature, op, value, label, counts, ctext)


def _leaf_counts(number, text):
    """(n, errors or None) as written: ``3``, ``3/1``, ``3.38/0.38``, ``0, empty``."""
    s = text.strip()
    if s.replace(" ", "") in ("0,empty", "0.0,empty"):
        return ("0", None)
    m = _REGRESSION_COUNTS.fullmatch(s)
    if m:  # a regression leaf: (n = 3, SSE = 3800/3)
        return m.group(1), m.group(2)
    parts = [p.strip() for p in s.split("/")]
    if len(parts) <= 2 and all(_is_count(p) for p in parts):
        return (parts[0], parts[1] if len(parts) == 2 else None)
    raise TreeTextError(f"line {number}: cannot read the leaf counts ({_clip(text, 20)}); "
                        f"expected (n), (n/errors), (2.43/0.43), (0, empty), (n = 3) or (n = 3, SSE = 3800/3)")


_REGRESSION_COUNTS = re.compile(r"n\s{0,3}=\s{0,3}(\d{1,12}(?:\.\d{1,12})?)(?:,\s{0,3}SSE\s{0,3}=\s{0,3}"
                                r"(\d{1,40}(?:\.\d{1,40}|/\d{1,40})?))?")


def _is_count(p: str) -> bool:
    whole, _, frac = p.partition(".")
    return 0 < len(whole) <= 12 and whole.isdigit() and len(frac) <= 12 and (not frac or frac.isdigit())


def count_value(text: str) -> Fraction:
    return Fraction(text)


def _clip(s: str, limit: int = 40) -> str:
    return s if len(s) <= limit else s[:limit] + "..."


def _parse_rpart(number: int, body: str):
    """A line of rpart's print(): ``2) Start>=8.5 62  6 absent (0.9032 0.0968)``, ``*`` ending a leaf;
    the depth is the node number's (its children are 2k and 2k + 1); None for the root line."""
    m = _RPART_LINE.match(body)
    k = int(m.group(1))
    s = body[m.end():].strip()
    leaf = s.endswith("*")
    s = s.rstrip("*").strip()
    if s.endswith(")") and "(" in s:
        s = s[:s.rfind("(")].strip()   # the class probabilities: not graded (the counts are)
    parts = s.rsplit(None, 3)
    if len(parts) != 4 or not (_is_count(parts[1]) and _is_count(parts[2])):
        raise TreeTextError(f"line {number}: cannot read rpart's line {_clip(body)!r}; expected "
                            f"'k) split n loss class (probabilities)', '*' ending a leaf")
    cond, n, loss, label = parts
    if k == 1:
        return None, (label, (n, loss)) if leaf else None
    j, op = _find_op(cond)
    if j <= 0:
        raise TreeTextError(f"line {number}: cannot read rpart's split {_clip(cond)!r}; expected 'Start>=8.5', "
                            f"'Start< 8.5' or 'Country=Japan,Korea'")
    value = cond[j + len(op):].strip()
    if op == "=":  # rpart writes a subset as its values: Country=Japan,Korea
        op, value = "in", "{" + value + "}"
    return _Line(number, k.bit_length() - 2, 0, cond[:j].strip(), op, value, label if leaf else None,
                 (n, loss) if leaf else None, f"{n}/{loss}" if leaf else None), None


def read_tree(block):
    """The claimed tree of ``block`` [(line number, indentation width, stripped text), ...]."""
    if _RPART_LINE.match(block[0][2]):
        lines = []
        for n, _, body in block:
            if not _RPART_LINE.match(body):
                raise TreeTextError(f"line {n}: not a line of rpart's print() ('k) split n loss class ...') "
                                    f"inside its tree")
            line, root_leaf = _parse_rpart(n, body)
            if root_leaf is not None:
                return ClaimedLeaf(n, root_leaf[0], root_leaf[1], "/".join(root_leaf[1]))
            if line is not None:
                lines.append(line)
        if not lines:
            raise TreeTextError(f"line {block[0][0]}: rpart's root line without its branches below it")
        return _build(lines, 0, 0)[0]
    lines = [_parse_line(n, body, indent) for n, indent, body in block]
    if not any(ln.depth for ln in lines):  # no '|' anywhere: the indentation gives the depth
        widths = sorted({ln.indent for ln in lines})
        for ln in lines:
            ln.depth = widths.index(ln.indent)
    if lines[0].feature is None:
        if len(lines) > 1:
            raise TreeTextError(f"line {lines[1].number}: a tree that is a single leaf ': class' has one line")
        return ClaimedLeaf(lines[0].number, lines[0].label, lines[0].counts, lines[0].counts_text)
    if lines[0].depth != 0:
        raise TreeTextError(f"line {lines[0].number}: the first line of a tree is not indented; found "
                            f"{lines[0].depth} levels")
    node, i = _build(lines, 0, 0)
    return node


def _values(number, text):
    """The values of a set ``{a, b}`` (or rpart's ``a,b``), stripped, in the order written."""
    t = text.strip()
    if not (t.startswith("{") and t.endswith("}")):
        raise TreeTextError(f"line {number}: a set of values is written in braces: {{a, b}}; found {_clip(t, 20)!r}")
    values = tuple(v.strip() for v in t[1:-1].split(","))
    if not all(values):
        raise TreeTextError(f"line {number}: an empty value in the set {_clip(t, 30)}")
    return values


def _key(ln: _Line):
    """A branch's key: ``("=", value)``, a cut ``(op, "")`` (the threshold is the node's), or a set
    ``("in" | "not in", values)`` (CART)."""
    if ln.op == "=" and "," in ln.value:
        return ("in", _values(ln.number, "{" + ln.value + "}"))
    if ln.op == "=":
        return ("=", ln.value)
    if ln.op in ("in", "not in"):
        return (ln.op, _values(ln.number, ln.value))
    return (ln.op, "")


def _build(lines, i, depth):
    """The claimed node whose branch lines start at ``lines[i]`` (all at ``depth``), and the next index."""
    first = lines[i]
    node = ClaimedSplit(first.number, first.feature)
    while i < len(lines) and lines[i].depth == depth:
        ln = lines[i]
        if ln.feature is None:
            raise TreeTextError(f"line {ln.number}: ': class' without 'feature = value' inside a tree")
        if ln.feature != node.feature:
            raise TreeTextError(f"line {ln.number}: the branches of one node test one feature; "
                                f"found {ln.feature} after {node.feature} (line {first.number})")
        key = _key(ln)
        if key[0] in CUTS:
            if node.threshold is None:
                node.threshold = ln.value
            elif ln.value != node.threshold:
                raise TreeTextError(f"line {ln.number}: the two branches of a numeric split cut at one "
                                    f"threshold; found {ln.value} after {node.threshold}")
        if key in node.branches:
            raise TreeTextError(f"line {ln.number}: branch {ln.feature} {ln.op} {ln.value} appears twice")
        i += 1
        node.lines[key] = ln.number
        if ln.label is not None:
            node.branches[key] = ClaimedLeaf(ln.number, ln.label, ln.counts, ln.counts_text)
            if i < len(lines) and lines[i].depth > depth:
                raise TreeTextError(f"line {lines[i].number}: indented below a leaf (line {ln.number} "
                                    f"ends with ': {_clip(ln.label, 20)}')")
        else:
            if i < len(lines) and lines[i].depth > depth + 1:
                raise TreeTextError(f"line {lines[i].number}: indented {lines[i].depth - depth} levels below line "
                                    f"{ln.number}; each level adds one '|'")
            if i >= len(lines) or lines[i].depth != depth + 1:
                raise TreeTextError(f"line {ln.number}: {ln.feature} {ln.op} {ln.value} has neither ': class' nor "
                                    f"lines indented one level more below it")
            node.branches[key], i = _build(lines, i, depth + 1)
    if any(k[0] in CUTS for k in node.branches) and any(k[0] not in CUTS for k in node.branches):
        raise TreeTextError(f"line {first.number}: {node.feature} is tested both by a value and by a cut")
    return node, i


# -- trees drawn with arrows -----------------------------------------------------------------------
#     age?
#       youth -> student?
#         no -> no
#         yes -> yes
#       middle_aged -> yes
# A node is 'feature?' (the root alone on its line); a branch 'value -> feature?' or 'value -> class',
# or with its feature written, 'age = youth -> student?'.  Depth comes from indentation.
_ARROWS = ("->", "→", "=>")
_ROOT_QUESTION = re.compile(r"[^\s?(){}|:=<>][^?(){}|:=<>]{0,200}\?")


def is_arrow_line(body: str) -> bool:
    s = body.strip()
    return any(a in s for a in _ARROWS) and not s.lower().startswith("if ")


def is_arrow_root(body: str) -> bool:
    """A tree's first line in arrow notation: ``age?``."""
    return _ROOT_QUESTION.fullmatch(body.strip()) is not None


def arrow_lines(block):
    """The lines of an arrow-drawn tree [(number, indent, text)] as ``|``-lines read_tree reads."""
    out, stack = [], []   # stack: (indentation, feature tested below it, depth of its branches)
    for number, indent, body in block:
        s = body.strip()
        arrow = next((a for a in _ARROWS if a in s), None)
        if arrow is None:
            if not is_arrow_root(s) or stack:
                raise TreeTextError(f"line {number}: expected 'value -> feature?' or 'value -> class' in a tree "
                                    f"drawn with arrows; found {_clip(s)!r}")
            stack.append((indent, s[:-1].strip(), 0))
            continue
        left, _, right = s.partition(arrow)
        left, right = left.strip(), right.strip()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if "=" in left:
            feature, _, value = left.partition("=")
            feature, value = feature.strip(), value.strip()
            depth = stack[-1][2] if stack else 0
        elif stack:
            _, feature, depth = stack[-1]
            value = left
        else:
            raise TreeTextError(f"line {number}: '{_clip(left, 20)} {arrow}' names no feature: start the tree "
                                f"with the root's feature ('age?') or write 'feature = value {arrow} ...'")
        if not left or not right or not value:
            raise TreeTextError(f"line {number}: expected 'value {arrow} feature?' or 'value {arrow} class'")
        bars = "|  " * depth
        if right.endswith("?"):
            out.append((number, 0, f"{bars}{feature} = {value}"))
            stack.append((indent, right[:-1].strip(), depth + 1))
        else:
            out.append((number, 0, f"{bars}{feature} = {value}: {right}"))
    if not out:
        raise TreeTextError(f"line {block[0][0]}: a tree drawn with arrows needs branches 'value -> ...'")
    return out
