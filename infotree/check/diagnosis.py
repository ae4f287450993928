"""Naming the usual mistake behind a wrong number.

For a wrong answer to a measure claim, the values the usual mistakes give are computed
(exactly where they are exact) and compared with the answer the way the answer is graded
(at its decimals, or exactly for an expression).  The first that matches is named:

* **natural logarithm**: the value times ln 2 (ln instead of log2), or times log10(2);
* **unweighted average**: H(Y | X) as the plain mean of the branch entropies, and the gain
  computed from it;
* **wrong parent**: at a node, the gain with the root's entropy (or the parent node's)
  in place of the node's own;
* **wrong split information**: a gain ratio divided by the class entropy H(Y), or by
  the split information at the root instead of at the node; a split information
  computed from the class counts.

* **Gini with counts** instead of proportions (``1 - 9² - 5²``), and the unweighted average
  of the branch Gini indices;
* CART: **rpart's improvement** (n × decrease) given for the decrease, or the decrease for the
  improvement, and a decrease from the **unweighted average** of the two children's impurities.
A diagnosis is a hint beside the verdict, never a change of it.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from ..exact import Exact, Ratio

from ..decimals import decimal_text
from ..measures import conditional_entropy, entropy_of_labels
from ..measures import gini as gini_of
from ..measures import misclassification as misclassification_of

__all__ = ["diagnose"]

#: The measures with logarithms: only they get a logarithm diagnosis.
_LOGARITHMIC = ("H", "I", "IG", "SplitInfo", "GR")


def _float(x) -> float:
    return float(x)


def _div(x, y):
    """x / y exactly: a Fraction, an Exact, or a Ratio of two logarithmic values."""
    if isinstance(y, Fraction) or (isinstance(y, Exact) and y.is_rational()):
        return x / (y if isinstance(y, Fraction) else y.c0)
    return Ratio(x if isinstance(x, Exact) else Exact(x), y)


def _matches(candidate, answer) -> bool:
    """Whether a mistaken value gives the student's answer, judged as the answer is."""
    if candidate is None:
        return False
    exact = isinstance(candidate, (Fraction, Exact, Ratio))
    if answer.form in ("exact", "nats"):
        return exact and answer.form == "exact" and candidate == answer.value
    a = answer.value
    if answer.form == "integer":
        # an integer answer is matched only exactly: at 0 decimals every value within 1/2 would round to it,
        # so Info(D) = 0 would "match" ln- and log10-mistakes by accident
        return candidate == a if exact else abs(candidate - float(a)) < 1e-12
    unit = Fraction(1, 10 ** answer.decimals)
    if exact:
        if answer.form in ("decimal", "integer") and Fraction(decimal_text(candidate, answer.decimals)) == a:
            return True
        lo, hi = a - unit, a + unit
        return candidate.compare(lo) >= 0 and candidate.compare(hi) <= 0 if not isinstance(candidate, Fraction) \
            else lo <= candidate <= hi
    return abs(candidate - float(a)) <= float(unit) * 0.5 + 1e-12 if answer.form in ("decimal", "integer") \
        else abs(candidate - float(a)) <= float(unit)


def _cmp0(x) -> int:
    """The sign of an exact value."""
    return (x > 0) - (x < 0) if isinstance(x, Fraction) else x.compare(0)


def _mean_branch_entropy(checker, left, given, mask):
    """The plain (unweighted) mean of H(left | given = g) over the values g on the rows."""
    L = checker.joint(left, mask)
    C = checker.joint(given, mask)
    groups: dict = {}
    for c, l in zip(C, L):
        groups.setdefault(c, []).append(l)
    hs = [entropy_of_labels(g) for _, g in sorted(groups.items())]
    if not hs:
        return None
    total = hs[0]
    for h in hs[1:]:
        total = total + h
    return total / len(hs)


def _h(checker, left, mask):
    return entropy_of_labels(checker.joint(left, mask))


def _rows(checker, fixed):
    try:
        return checker.rows(fixed)
    except Exception:  # an empty node: no candidate there
        return None


def diagnose(checker, m, value, answer) -> str | None:
    """The name and value of the usual mistake the answer matches, or None."""
    if answer.form == "nats":
        if answer.value == value:
            return "natural logarithm: your expression is the right one with ln in place of log2 (a value in nats)"
        return None
    target = checker.data.target
    d = max(checker.digits, answer.decimals)
    candidates = []   # (description, value)
    try:
        vf = _float(value)
    except (OverflowError, ValueError):
        return None
    logarithmic = m.name in _LOGARITHMIC or (m.name in ("Decrease", "Improvement") and m.impurity == "H")
    if logarithmic:   # a logarithm mistake only where the measure has logarithms (not Gini, ME, SSE)
        candidates.append(("natural logarithm: the value computed with ln instead of log2 (in nats)",
                           vf * math.log(2)))
        candidates.append(("common logarithm: the value computed with log10 instead of log2", vf * math.log10(2)))
    if m.counts is not None:   # I(9,5): counts written out, no rows to recompute a mistake from
        return _first(candidates, value, answer, d)
    if m.name in ("SSE", "Mean", "Decrease", "Improvement") and checker.regression:
        candidates.extend(_regression_mistakes(checker, m, value))
        return _first(candidates, value, answer, d)
    mask = _rows(checker, m.fixed)
    if mask is None:
        return None
    if m.split is not None and m.name in ("IG", "GR", "SplitInfo", "Gini", "ME", "H"):
        candidates.extend(_split_mistakes(checker, m, mask, value))
        return _first(candidates, value, answer, d)
    if m.name in ("Gini", "ME") and not m.given and not m.split_on:
        counts = list(Counter(checker.joint(m.left, mask)).values())
        other = misclassification_of(counts) if m.name == "Gini" else gini_of(counts)
        candidates.append(("the misclassification error given for the Gini index" if m.name == "Gini" else
                           "the Gini index given for the misclassification error", other))
    if m.name == "H" and m.given:
        candidates.append(("unweighted average: the branch entropies averaged without weighting each by its "
                           "share of the rows", _mean_branch_entropy(checker, m.left, m.given, mask)))
    if logarithmic and _cmp0(value) > 0:
        candidates.append(("the sign: −Σ p·log2 p is never negative; the minus sign was dropped", -vf))
    if m.name in ("IG", "GR") or (m.name == "I" and (target,) in m.left):
        a = (m.left[0] if m.left[1] == (target,) else m.left[1]) if m.name == "I" else m.left
        a = tuple(a) if isinstance(a, tuple) else (a,)
        hy = _h(checker, (target,), mask)
        cond = tuple(a) + tuple(m.given)
        mean = _mean_branch_entropy(checker, (target,), cond, mask)
        ig = value if m.name != "GR" else None
        if m.name == "GR":
            ig = hy - conditional_entropy(checker.joint((target,), mask), given=checker.joint(cond, mask)) \
                if not m.given else None
        if mean is not None and m.name != "GR":
            candidates.append(("unweighted average: H(Y | X) taken as the plain mean of the branch entropies",
                               hy - mean))
        if not m.given:
            hyx = conditional_entropy(checker.joint((target,), mask), given=checker.joint(cond, mask))
            si = _h(checker, a, mask)
            gain = hy - hyx
            if m.name in ("IG", "I"):
                candidates.append(("forgot to subtract from the parent: H(Y | X), the children's weighted entropy, "
                                   "given for the gain H(Y) - H(Y | X)", hyx))
                candidates.append(("logarithms mixed: H(Y) in nats (ln) less H(Y | X) in bits (log2)",
                                   _float(hy) * math.log(2) - _float(hyx)))
                if si:
                    candidates.append(("gain and gain ratio swapped: the gain ratio given for the gain",
                                       _div(gain, si)))
                candidates.append(("split information taken for the class entropy: SplitInfo(X) - H(Y | X) "
                                   "instead of H(Y) - H(Y | X)", si - hyx))
            if m.name == "GR":
                candidates.append(("gain and gain ratio swapped: the gain given for the gain ratio", gain))
        if m.fixed and m.name != "GR":
            hxy = conditional_entropy(checker.joint((target,), mask), given=checker.joint(cond, mask)) \
                if not m.given else None
            if hxy is not None:
                root = _rows(checker, ())
                candidates.append(("wrong parent: the gain uses the root's entropy H(Y) instead of the node's",
                                   _h(checker, (target,), root) - hxy))
                if len(m.fixed) > 1:
                    parent = _rows(checker, m.fixed[:-1])
                    if parent is not None:
                        candidates.append(("wrong parent: the gain uses the parent node's entropy instead of this "
                                           "node's", _h(checker, (target,), parent) - hxy))
        if m.name == "GR" and ig is not None:
            if hy:
                candidates.append(("wrong split information: the gain divided by the class entropy H(Y) instead "
                                   "of the split information H(X)", _div(ig, hy)))
            if m.fixed:
                root = _rows(checker, ())
                si_root = _h(checker, a, root)
                if si_root:
                    candidates.append(("wrong split information: the split information taken at the root "
                                       "instead of at the node", _div(ig, si_root)))
    if m.name == "Gini" and not m.given and not m.split_on:
        # 1 - 9/14 - 5/14 = 0: the proportions not squared (0 for every node, so only an answer of 0 fits)
        candidates.append(("forgot to square the proportions: 1 - Σ p = {} for every node; the Gini index is "
                           "1 - Σ p²", Fraction(0)))
    if m.name == "Gini" and not m.given and not m.split_on:
        counts = list(Counter(checker.joint(m.left, mask)).values())
        n = sum(counts)
        squares = sum(c * c for c in counts)
        candidates.append(("Gini with counts instead of proportions: 1 - Σ count²", Fraction(1 - squares)))
        candidates.append(("Gini with counts instead of proportions: 1 - Σ count² / n", 1 - Fraction(squares, n)))
    if m.name == "Gini" and m.given:
        groups: dict = {}
        for c, lab in zip(checker.joint(m.given, mask), checker.joint(m.left, mask)):
            groups.setdefault(c, Counter())[lab] += 1
        ginis = [1 - sum(Fraction(k * k, sum(g.values()) ** 2) for k in g.values()) for g in groups.values()]
        candidates.append(("unweighted average: the branch Gini indices averaged without weighting each by its "
                           "share of the rows", sum(ginis, Fraction(0)) / len(ginis)))
    if m.name in ("Decrease", "Improvement") and m.impurity in ("Gini", "ME", "H"):
        from ..measures import entropy

        f = {"Gini": gini_of, "ME": misclassification_of, "H": lambda c: entropy(list(c))}[m.impurity]
        table = checker.split_table(m, "")
        n = sum(map(sum, table))
        if m.name == "Decrease":
            candidates.append(("rpart's improvement (n × decrease) given for the decrease", value * n))
            weighted = sum((Fraction(sum(r), n) * f(list(r)) for r in table if sum(r)), Fraction(0))
            candidates.append(("forgot to subtract from the parent: the children's weighted impurity given for "
                               "the decrease", weighted))
            children = [f(r) for r in table if sum(r)]
            parent = f([sum(c) for c in zip(*table)])
            mean = children[0] if len(children) == 1 else (children[0] + children[1]) / 2
            candidates.append(("unweighted average: the two children's impurities averaged without weighting "
                               "each by its share of the rows", parent - mean))
        else:
            candidates.append(("the decrease given for rpart's improvement (n × decrease)", value / n))
    if m.name == "SplitInfo" and not m.given:
        candidates.append(("wrong split information: computed from the class counts (H(Y)) instead of the "
                           "attribute's value counts", _h(checker, (target,), mask)))
    return _first(candidates, value, answer, d)


def _first(candidates, value, answer, d):
    """The mistake that gives the answer, named with its value; when two different mistakes give it, both
    (never one picked silently); None when none does."""
    found = []
    for description, candidate in candidates:
        if candidate is None or (not isinstance(candidate, float) and candidate == value):
            continue
        if _matches(candidate, answer):
            shown = f"{candidate:.{d}f}" if isinstance(candidate, float) else decimal_text(candidate, d)
            text = description.format(shown) if "{}" in description else f"{description} = {shown}"
            if text.split(":")[0] not in [t.split(":")[0] for t in found]:
                found.append(text)
    if len(found) > 1:
        return "either " + "; or ".join(found)
    return found[0] if found else None


def _split_mistakes(checker, m, mask, value):
    """The usual mistakes about one binary split written out (``Gain(S, hours <= 4.5)``,
    ``Gini_{income ∈ {low, medium}}(D)``): from its two sides' class counts."""
    from ..measures import conditional_entropy_from_table, entropy, information_gain_from_table
    from .grammar import _as_cond

    f, v = m.split
    known = mask & (checker.columns[f] >= 0)
    side = known & checker.grower.side_mask(*_as_cond(f, v))
    table = [checker.class_counts(side), checker.class_counts(known & ~side)]
    table = [r for r in table if sum(r)]
    out = []
    if m.name in ("Gini", "ME"):
        f_ = gini_of if m.name == "Gini" else misclassification_of
        parts = [f_(list(r)) for r in table]
        if len(parts) == 2:
            out.append(("unweighted average: the two sides' impurities averaged without weighting each by its "
                        "share of the rows", (parts[0] + parts[1]) / 2))
            out.extend(("one side's impurity given for the weighted sum of both", p) for p in parts)
        return out
    hyx = conditional_entropy_from_table(tuple(table))
    gain = information_gain_from_table(tuple(table))
    hy = entropy([sum(c) for c in zip(*table)])
    si = entropy([sum(r) for r in table])
    if m.name == "IG":
        out.append(("forgot to subtract from the parent: H(Y | split), the sides' weighted entropy, given for the "
                    "gain", hyx))
        if si:
            out.append(("gain and gain ratio swapped: the gain ratio given for the gain", _div(gain, si)))
    if m.name == "GR":
        out.append(("gain and gain ratio swapped: the gain given for the gain ratio", gain))
        if hy:
            out.append(("wrong split information: the gain divided by the class entropy H(Y) instead of the "
                        "split information", _div(gain, hy)))
    if m.name == "SplitInfo":
        out.append(("wrong split information: computed from the class counts (H(Y)) instead of the sides' sizes",
                    hy))
    return out


def _regression_mistakes(checker, m, value):
    """A regression tree's usual mistakes: the MSE for the SSE, deviations from the parent's mean, and the
    children's SSE given for the decrease."""
    out = []
    target = checker.data.target
    if m.name == "SSE" and m.left == (target,) and not m.given:
        if m.split_on and m.split is not None:
            rows = checker.rows(m.fixed)
            sides = _sides(checker, m, rows)
            n = sum(len(ys) for ys in sides)
            out.append(("MSE for SSE: the sum divided by the n rows", value / n))
            parent = sum((y for ys in sides for y in ys), Fraction(0)) / n
            out.append(("deviations from the parent's mean: each side's squares taken around the node's mean "
                        "instead of the side's own", sum(((y - parent) ** 2 for ys in sides for y in ys), Fraction(0))))
        elif not m.split_on:
            ys = _targets(checker, checker.rows(m.fixed))
            if ys:
                out.append(("MSE for SSE: the sum divided by the n rows", value / len(ys)))
            if m.fixed:
                parent_rows = _rows(checker, m.fixed[:-1])
                if parent_rows is not None:
                    whole = _targets(checker, parent_rows)
                    mean = sum(whole, Fraction(0)) / len(whole)
                    out.append(("deviations from the parent's mean: Σ(y − ȳ)² taken around the parent node's mean "
                                "instead of this node's", sum(((y - mean) ** 2 for y in ys), Fraction(0))))
    if m.name == "Decrease" and m.split is not None:
        rows = checker.rows(m.fixed)
        sides = _sides(checker, m, rows)
        out.append(("the children's SSE given for the decrease: SSE(left) + SSE(right), not subtracted from the "
                    "node's SSE", sum((_sse_of(ys) for ys in sides), Fraction(0))))
    return out


def _targets(checker, mask):
    import numpy as np

    return [checker.y_numbers[c] for c in np.asarray(checker.data.y)[mask].tolist()]


def _sides(checker, m, rows):
    from .grammar import _as_cond

    f, v = m.split
    side = rows & checker.grower.side_mask(*_as_cond(f, v))
    other = rows & ~side & (checker.columns[f] >= 0)
    return _targets(checker, side), _targets(checker, other)


def _sse_of(ys):
    if not ys:
        return Fraction(0)
    mean = sum(ys, Fraction(0)) / len(ys)
    return sum(((y - mean) ** 2 for y in ys), Fraction(0))
