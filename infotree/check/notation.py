"""Textbook and student notations rewritten into the claim grammar, before a line is parsed.

One place turns what books and students write into the forms :mod:`infotree.check` parses, so every
claim kind reads them alike:

* ``∈`` and ``∉`` are ``in`` and ``not in`` (Han–Kamber–Pei: ``income ∈ {low, medium}``);
* a subscript that holds a condition: Han's ``Gini_{income ∈ {low,medium}}(D)`` is the weighted Gini
  of that binary split of D, ``Gini(D | split on income in {low,medium})``; a data set's branch,
  ``Entropy(S_{humidity ≤ 82.5})``, is the node ``humidity <= 82.5`` (braces may nest: the subscript
  ends at its matching brace);
* ISLR's regions: ``R1 = {X | Years < 4.5}`` names a node (the claim is that the tree has it) and
  ``ŷ_R1``, ``ȳ_{R1}``, ``mean(R1)``, ``RSS(R1)`` are read at that node;
* IF-THEN rules (any case, ``AND``, ``∧``, ``&``): ``IF age = youth AND student = no THEN buys = no`` is
  the leaf claim ``leaf(age = youth, student = no) = no``;
* short prose: ``best threshold for humidity = 82.5`` is ``threshold(humidity) = 82.5``;
  ``best split: Years < 4.5`` and ``best split = outlook`` are the split of the current node (the root,
  or the node of the last ``At`` line).

Every function here is linear in the line (one scan, no backtracking regular expression).
"""

from __future__ import annotations

import re

__all__ = ["at_region", "best_split", "region_definition", "rewrite", "rule_claim", "threshold_claim"]

# an operator that makes a subscript a condition rather than a value (after ∈/∉ are rewritten)
_CONDITION = re.compile(r"<=|>=|<|>|≤|≥|=| in | not in ")
_HEAD = re.compile(r"([A-Za-zΔδ]{1,40})$")
_SAMPLE_HEADS = ("S", "D")


def _closing(text: str, start: int, pair: str = "{}") -> int:
    """The index of the bracket that closes the one at ``start`` (``pair``: its two characters), or -1."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == pair[0]:
            depth += 1
        elif c == pair[1]:
            depth -= 1
            if depth == 0:
                return i
    return -1


# IF age = youth AND student = no THEN buys_computer = no   (any case; ∧, &, commas; R1: before it)
_RULE = re.compile(r"(?:R_?\d{1,4}\s*[:.)]\s*)?if\s+(.{1,800}?)\s+then\s+(.{1,200})", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+|\s*∧\s*|\s*&&?\s*|\s*,\s*", re.IGNORECASE)


def rule_claim(body: str):
    """An IF-THEN rule as the leaf claim it makes, ``leaf(age = youth, student = no) = no``, or None."""
    m = _RULE.fullmatch(body.strip())
    if m is None:
        return None
    conds = [c.strip() for c in _AND.split(m.group(1))]
    conds = [c[1:-1].strip() if c.startswith("(") and c.endswith(")") else c for c in conds]
    label = m.group(2).strip().rstrip(".")
    if label.startswith("(") and label.endswith(")"):
        label = label[1:-1].strip()
    if "=" in label:   # THEN buys_computer = no: the class after the target's name
        label = label.rpartition("=")[2].strip()
    return f"leaf({', '.join(conds)}) = {label}"


# "the Gini index of D = 0.459", "entropy of S_sunny = 0.971", "gain of outlook = 0.247"
_PROSE_MEASURE = re.compile(r"(?:the\s+)?(gini(?:\s+index)?|entropy|info(?:rmation)?|information\s+gain|gain(?:\s+ratio)?|"
                            r"split\s*info(?:rmation)?)\s+(?:of|for)\s+([^=≈]{1,200}?)\s*([=≈].{0,800})",
                            re.IGNORECASE)
_PROSE_HEADS = {"gini": "Gini", "giniindex": "Gini", "entropy": "Entropy", "info": "Info", "information": "Info",
                "informationgain": "Gain", "gain": "Gain", "gainratio": "GainRatio", "splitinfo": "SplitInfo",
                "splitinformation": "SplitInfo"}


def prose_measure(body: str):
    """``the Gini index of D = 0.459`` as ``Gini(D) = 0.459``, or None."""
    m = _PROSE_MEASURE.fullmatch(body.strip())
    if m is None:
        return None
    head = _PROSE_HEADS["".join(m.group(1).lower().split())]
    return f"{head}({m.group(2)}) {m.group(3)}"


def rewrite(body: str) -> str:
    """The line with ∈/∉, condition subscripts and IF-THEN rules in the grammar's own forms (anything
    else unchanged)."""
    if "∈" in body or "∉" in body:
        body = re.sub(r"\s*∈\s*", " in ", re.sub(r"\s*∉\s*", " not in ", body))
    rule = rule_claim(body) or prose_measure(body)
    if rule is not None:
        return rule
    out, i = [], 0
    while True:
        j = body.find("_{", i)
        if j < 0:
            out.append(body[i:])
            break
        end = _closing(body, j + 1)
        if end < 0:
            out.append(body[i:])
            break
        inner = " ".join(body[j + 2:end].split())
        head = _HEAD.search(body, i, j)
        if not _CONDITION.search(f" {inner} ") or head is None:
            if head is not None and head.group(1) not in _SAMPLE_HEADS and body[end + 1:end + 2] == "(" and \
                    "{" not in inner:
                out.append(f"{body[i:j]}_{inner}")   # Info_{age}(D): Han's attribute subscript, braced
            else:
                out.append(body[i:end + 1])
            i = end + 1
            continue
        word = head.group(1)
        if word in _SAMPLE_HEADS:          # S_{humidity ≤ 82.5}: the node of that branch
            out.append(body[i:head.start()] + inner)
            i = end + 1
            continue
        after = end + 1
        while after < len(body) and body[after] == " ":
            after += 1
        if after < len(body) and body[after] == "(":   # Gini_{income in {low,medium}}(D): that split of D
            close = _closing(body, after, "()")
            if close < 0:
                out.append(body[i:])
                break
            args = body[after + 1:close].strip()
            sep = ", " if "|" in args else " | "
            out.append(f"{body[i:j]}({args}{sep}split on {inner})" if args else
                       f"{body[i:j]}(split on {inner})")
            i = close + 1
            continue
        out.append(body[i:end + 1])
        i = end + 1
    return "".join(out)


# best threshold for humidity = 82.5; the best threshold of humidity is 82.5; threshold(humidity) = 82.5
_THRESHOLD = re.compile(r"(?:the\s+)?(?:best\s+)?(?:threshold|cut(?:\s*point)?|split\s*point)\s*(?:for|of|on|\()\s*"
                        r"([^()=:]{1,200}?)\s*\)?\s*(?:=|:|\bis\b)\s*(.{1,200})", re.IGNORECASE)


def threshold_claim(body: str):
    """(feature text, answer) of a claim about a feature's best cut point, or None."""
    m = _THRESHOLD.fullmatch(body.strip())
    return None if m is None else (m.group(1).strip(), m.group(2).strip())


# best split: Years < 4.5; best split = outlook; the best split is outlook; best attribute: outlook
_BEST = re.compile(r"(?:the\s+)?best\s+(?:split|attribute|feature|test)(?:\s+(?:at|for)\s+(?:the\s+)?root)?"
                   r"\s*(?:=|:|\bis\b)\s*(.{1,200})", re.IGNORECASE)


def best_split(body: str):
    """The answer of a ``best split: ...`` claim, or None."""
    m = _BEST.fullmatch(body.strip())
    return None if m is None else m.group(1).strip()


# R1 = {X | Years < 4.5}; R_2 = {X : Years >= 4.5, Hits < 117.5}
_REGION = re.compile(r"(R_?\{?\d{1,3}\}?)\s*=\s*\{\s*X\s*(?:\||:|∣)\s*(.{1,500}?)\s*\}")


def region_definition(body: str):
    """(region name, path text) of ISLR's region definition, or None."""
    m = _REGION.fullmatch(body.strip())
    return None if m is None else (region_name(m.group(1)), m.group(2))


def region_name(text: str) -> str:
    """``R1``, ``R_1``, ``R_{1}`` → ``R1``."""
    return "R" + "".join(c for c in text if c.isdigit())


# ŷ_R1, ȳ_{R1}, y-hat_R1, mean(R1), mean_R1, RSS(R1), SSE(R1): a measure at a region
_AT_REGION = re.compile(r"(ŷ|ȳ|y\u0302|y\u0304|yhat|y-hat|mean|RSS|SSE)\s*(?:_\{?|\()\s*(R_?\{?\d{1,3}\}?)\s*[})]?\s*"
                        r"(?:=|≈)(.{1,500})", re.IGNORECASE)


def at_region(body: str):
    """(measure, region name, answer) of a claim about a region's mean or RSS, or None."""
    m = _AT_REGION.fullmatch(body.strip())
    if m is None:
        return None
    what = m.group(1).lower()
    measure = "SSE" if what in ("rss", "sse") else "Mean"
    return measure, region_name(m.group(2)), m.group(3).strip()
