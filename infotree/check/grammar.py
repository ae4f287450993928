"""The claim grammar: the left-hand side's tokenizer, a path step's conditions, the measure names and a
measure's parsed form, with its canonical text (the quantity a rubric matches)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .names import Unreadable as _Unreadable
from .names import did_you_mean
from .expected import number_text



# punctuation | 'quoted' | "quoted" | a name: a run without punctuation or quotes, trimmed
# | {a set, of values} (CART's subsets)
_LHS_TOKEN = re.compile(r"""\s*(?:([(),;|=≈∣<>≤≥])|'([^']*)'|"([^"]*)"|(\{[^{}]{0,1000}\})|"""
                        r"""([^(),;|=≈∣<>≤≥'"{}\s](?:(?:_\{[^{}]{0,200}\}|[^(),;|=≈∣<>≤≥'"{}])*"""
                        r"""(?:_\{[^{}]{0,200}\}|[^(),;|=≈∣<>≤≥'"{}\s]))?))""")  # S_{sunny}: a subscript


@dataclass(frozen=True)
class _Cut:
    """A numeric condition in place of a value: ``<= t`` or ``> t`` (C4.5's two branches and CART's);
    under CART also rpart's ``< t`` and ``>= t``."""

    op: str
    t: Fraction

    def __str__(self):
        return f"{self.op} {number_text(self.t)}"

    def cond(self, var):
        return (var, self.op, self.t)


@dataclass(frozen=True)
class _Subset:
    """CART's subset condition: ``in {a, b}`` or ``not in {a, b}`` (values in domain order)."""

    op: str
    values: tuple

    def __str__(self):
        return f"{self.op} {{{', '.join(self.values)}}}"

    def cond(self, var):
        return (var, self.op, self.values)


@dataclass(frozen=True)
class _Known:
    """The rows where a feature's value is known: ``SSE(Ozone | Solar.R known)`` (a regression decrease is
    over them when the feature is missing in some rows)."""

    def __str__(self):
        return "known"

    def cond(self, var):
        return (var, "known", None)


def _cond_text(var, value) -> str:
    return f"{var} {value}" if isinstance(value, (_Cut, _Subset, _Known)) else f"{var} = {value}"


def _as_cond(var, value) -> tuple:
    """(feature, op, value) of a path step, as the grader's masks read it."""
    return value.cond(var) if isinstance(value, (_Cut, _Subset, _Known)) else (var, "=", value)


_MEASURES = {
    "h": "H", "entropy": "H", "info": "H",
    "i": "I", "mi": "I", "mutualinformation": "I",
    "ig": "IG", "gain": "IG", "infogain": "IG", "informationgain": "IG",
    "splitinfo": "SplitInfo", "splitinformation": "SplitInfo", "iv": "SplitInfo", "intrinsicvalue": "SplitInfo",
    "gr": "GR", "gainratio": "GR",
    # CART's impurities (exact rationals) and the decrease of the Gini index a split gives.
    "gini": "Gini", "giniindex": "Gini", "giniimpurity": "Gini",
    "me": "ME", "misclassification": "ME", "misclassificationerror": "ME", "classificationerror": "ME",
    "ginigain": "GiniGain", "ginidecrease": "GiniGain", "err": "ME",
    # CART's decrease of the impurity by a feature's best binary split (or by a split written out), and
    # rpart's improvement n × decrease; ΔGini, ΔErr, ΔH as infotree's worked solution writes them.
    "δgini": "Decrease", "δerr": "Decrease", "δme": "Decrease", "δh": "Decrease", "decrease": "Decrease",
    "impuritydecrease": "Decrease", "improvement": "Improvement",
    # regression trees: a node's sum of squared errors Σ(y − ȳ)² and its mean ȳ
    "sse": "SSE", "sumofsquarederrors": "SSE", "rss": "SSE", "residualsumofsquares": "SSE", "δsse": "Decrease", "mean": "Mean", "meanȳ": "Mean", "ȳ": "Mean", "ŷ": "Mean", "yhat": "Mean",
    "y\u0302": "Mean", "y\u0304": "Mean",
}


# The impurity a decrease measures: ΔGini, ΔErr, ΔH; Decrease and Improvement: the criterion's.
_DECREASE_OF = {"δgini": "Gini", "ginigain": "Gini", "ginidecrease": "Gini", "δerr": "ME", "δme": "ME", "δh": "H",
                "δsse": "SSE"}


_IMPURITY = ("H", "Gini", "ME", "SSE", "Mean")   # measures of a node's classes: Entropy(S), Gini(S), Gini(S, A) forms


_TREE_CLAIMS = ("root", "split", "leaf")


# A data set in textbook notation (not a variable of the data): S, D, S_sunny, D_youth, S_{sunny}.
_SAMPLE = re.compile(r"[SD](?:_\{?([^{}]{1,200}?)\}?)?")


def _measure_head(text: str):
    """(measure, subscript) of a claim's head: ``Gain`` → (IG, None), ``Info_age`` → (H, "age")."""
    n = _norm_name(text)
    if n in _MEASURES:
        return _MEASURES[n], None
    for i, c in enumerate(text):
        if c == "_" and i and _norm_name(text[:i]) in _MEASURES and text[i + 1:].strip():
            return _MEASURES[_norm_name(text[:i])], text[i + 1:].strip()
    return None


_KIND = {"H": "entropy", "I": "mutual_information", "IG": "information_gain",
         "SplitInfo": "split_information", "GR": "gain_ratio", "Gini": "gini", "ME": "misclassification",
         "GiniGain": "gini_gain", "Decrease": "impurity_decrease", "Improvement": "improvement", "SSE": "sse",
         "Mean": "mean"}


def _norm_name(word: str) -> str:
    return re.sub(r"[\s_\-]", "", word).lower()


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos  # kind: "p" punctuation or "w" name


def _split_claim(body: str, split=True):
    """Tokens of the left-hand side up to the first ``=``/``≈`` outside parentheses, and the rest
    (``split=False``: every token, and None)."""
    toks, pos, depth = [], 0, 0
    while pos < len(body):
        m = _LHS_TOKEN.match(body, pos)
        if not m or m.end() == pos:
            rest = body[pos:].lstrip()
            if not rest:
                break
            if rest[0] in "'\"":
                raise _Unreadable(f"quote {rest[0]} at position {len(body) - len(rest) + 1} is never closed")
            if rest[0] == "{":
                raise _Unreadable(f"'{{' at position {len(body) - len(rest) + 1} is never closed; a set of values "
                                  f"is written {{a, b}}")
            raise _Unreadable(f"cannot read {_clip(rest, 30)!r}")
        punct, sq, dq, braces, word = m.groups()
        start = m.end() - len(m.group().lstrip())
        pos = m.end()
        if punct:
            p = {"≈": "=", "∣": "|", "≤": "<=", "≥": ">="}.get(punct, punct)
            if p == "=" and depth == 0 and split:
                return toks, body[pos:]
            depth += p == "("
            depth -= p == ")"
            toks.append(_Tok("p", p, start))
        elif braces is not None:
            toks.append(_Tok("s", braces, start))
        else:
            toks.append(_Tok("w", sq if sq is not None else dq if dq is not None else word, start))
    return toks, None


def _claim_kind(toks) -> str:
    if not toks:
        raise _Unreadable("nothing before '='; expected H(...), I(...), IG(...), SplitInfo(...), GR(...), "
                          "root, split(...) or leaf(...)")
    head = toks[0]
    if head.kind != "w":
        raise _Unreadable(f"a claim starts with a name such as H, IG or root; found {head.text!r}")
    low = head.text.lower()
    if low == "root":
        return "root"
    if low in ("split", "leaf"):
        return low
    if _measure_head(head.text):
        return _KIND[_measure_head(head.text)[0]]
    raise _Unreadable(f"unknown claim {_clip(head.text, 30)!r}; expected H, I, IG (Gain), SplitInfo (IV), "
                      f"GR (GainRatio), root, split or leaf{did_you_mean(head.text, _CLAIM_WORDS)}")


_CLAIM_WORDS = ("H", "I", "IG", "Gain", "SplitInfo", "IV", "GR", "GainRatio", "root", "split", "leaf")


def _no_equals(body, toks) -> str:
    opened = []
    for t in toks:
        if t.kind == "p" and t.text == "(":
            opened.append(t)
        elif t.kind == "p" and t.text == ")" and opened:
            opened.pop()
    if opened:
        return (f"'(' at position {opened[0].pos + 1} is never closed; expected a claim such as "
                f"H(play | outlook) = 0.694")
    return "no '=' in the line; expected a claim such as H(play) = 0.940, root = outlook, or a tree line"


def _inside_parens(toks, head):
    if len(toks) < 2 or toks[1].text != "(" or toks[1].kind != "p":
        raise _Unreadable(f"{head} needs parentheses: {head}(...) = ...")
    depth, end = 0, None
    for i, t in enumerate(toks[1:], 1):
        if t.kind == "p" and t.text == "(":
            depth += 1
            if depth > 1:
                raise _Unreadable(f"unexpected '(' inside {head}(...); quote names with parentheses: '(a)'")
        elif t.kind == "p" and t.text == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    if end is None:
        raise _Unreadable(f"'(' after {head} is never closed")
    if end != len(toks) - 1:
        raise _Unreadable(f"unexpected {_show_toks(toks[end + 1:])} after {head}(...); expected '='")
    return toks[2:end]


# "IG(a) = IG(b) exactly (each 0.0200)" and "GainRatio(a): undefined (split info 0)", as --steps prints them.
_EXACTLY = re.compile(r"([^()]{1,100}\([^()]{0,300}\)(?:\s{0,5}=\s{0,5}[^()]{1,100}\([^()]{0,300}\)){1,20})"
                      r" exactly \(each ([^()]{1,100})\)")


_UNDEFINED = re.compile(r"([^()]{1,100}\([^()]{0,300}\)):\s{0,5}undefined(?: \([^()]{0,200}\))?")


def _set_item(item):
    """(name, "in" | "not in", "{...}") of ``outlook in {sunny, rainy}`` (tokens), or None."""
    if len(item) == 2 and item[0].kind == "w" and item[1].kind == "s":
        head = item[0].text
        for op in ("not in", "in"):
            if head.endswith(" " + op) and head[:-len(op)].strip():
                return head[:-len(op)].strip(), op, item[1].text
    return None


def _value_item(item):
    """(name, value) of ``outlook = sunny`` (tokens), or None."""
    if len(item) == 3 and item[0].kind == "w" and item[1].text == "=" and item[2].kind == "w":
        return item[0].text, item[2].text
    return None


def _cut_item(item):
    """(name, op, threshold text) of ``humidity <= 75``, ``humidity > 75`` (tokens), or None."""
    if len(item) >= 3 and item[0].kind == "w" and item[-1].kind == "w" and all(t.kind == "p" for t in item[1:-1]):
        op = "".join(t.text for t in item[1:-1])
        if op in ("<=", ">", "<", ">="):
            return item[0].text, op, item[-1].text
    return None


def _chain(text: str) -> list[str]:
    """``a = b = c`` split at each ``=`` or ``≈`` outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "=≈" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _split_on(toks, sep):
    out, cur = [], []
    for t in toks:
        if t.kind == "p" and t.text == sep:
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    out.append(cur)
    return out


def _show_toks(toks) -> str:
    return repr(_clip(" ".join(t.text for t in toks), 30))


def _answer_name(answer: str, kind: str) -> str:
    s = answer.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1]
    if not s:
        what = "class" if kind == "leaf" else "feature"
        raise _Unreadable(f"no {what} after '='")
    return s


@dataclass(frozen=True)
class _Measure:
    name: str                  # H, I, IG, SplitInfo, GR, Gini, ME, GiniGain, Decrease, Improvement
    left: tuple                # H: variables; I: (group A, group B); IG/SplitInfo/GR: (variable,)
    given: tuple               # variables averaged over
    fixed: tuple               # ((variable, value), ...)
    split_on: str | None = None   # CART: Gini(Y | split on A), the weighted impurity of A's best binary split
    split: tuple | None = None    # CART: the split a decrease is of, (feature, _Cut or _Subset); None: A's best
    impurity: str | None = None   # Decrease, Improvement: the impurity measured (Gini, ME, H)
    known: bool = False           # H_known(Y): on the rows where the feature just measured is known (C4.5)
    lookahead: bool = False       # IG_lookahead(A), GR_lookahead(A), Decrease_lookahead(A): the two-level score
    counts: tuple | None = None   # I(9,5), H(9,5), Gini(9,5): the measure of these class counts, no data needed


def _canonical(m: _Measure) -> str:
    if m.counts is not None:
        return f"{m.name}({','.join(map(str, m.counts))})"
    if m.name == "I":
        inner = f"{', '.join(m.left[0])}; {', '.join(m.left[1])}"
    elif m.split is not None and not m.split_on:
        inner = _cond_text(*m.split)
    else:
        inner = ", ".join(m.left)
    name = {"Decrease": f"Δ{m.impurity}", "H": "H_known" if m.known else "H"}.get(m.name, m.name)
    if m.lookahead:
        name = {"Decrease": "Decrease"}.get(m.name, m.name) + "_lookahead"
    on = None if not m.split_on else _cond_text(*m.split) if m.split is not None else m.split_on
    given = tuple(m.given) + ((f"split on {on}",) if on else ())
    return _with_conditions(name, inner, given, m.fixed)


def _with_conditions(name, inner, given, fixed):
    conds = list(given) + [_cond_text(v, x) for v, x in fixed]
    return f"{name}({inner} | {', '.join(conds)})" if conds else f"{name}({inner})"


def _h_symbol(left, given, fixed):
    return _with_conditions("H", ", ".join(left), given, fixed)


def _clip(s: str, limit: int = 60) -> str:
    return s if len(s) <= limit else s[:limit] + "..."


_CLAIM_NAMES = frozenset(_MEASURES) | frozenset(_TREE_CLAIMS)
