"""The exact value of a measure claim: from the rows (ID3's measures, CART's impurities, a split written
out) or from the builder's records at a node (C4.5's weights and cuts, CART's best binary splits);
CART's decreases are valued in :mod:`.decreases`, a regression tree's measures in :mod:`.regression`."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from ..exact import Exact, Ratio

from ..decimals import decimal_text
from ..forms import conditional_entropy_form, counts_text, entropy_form, gini_form, h_of, misclassification_form
from ..measures import (conditional_entropy, conditional_mutual_information, entropy_of_labels, gini,
                        information_gain_from_table, misclassification, mutual_information,
                        split_information_from_table)
from ..printers.numbers import approx
from .answers import read_answer
from .expected import number_text
from .grammar import _IMPURITY, _Known, _Measure, _as_cond, _canonical, _cond_text, _h_symbol, _with_conditions
from .names import Unreadable as _Unreadable
from .results import ClaimResult, _Undefined
from .treeclaims import _branch_of, _count_text, _test_of


def _entropy_of_counts(counts):
    from ..measures import entropy

    return entropy(list(counts))


def _counts_symbol(name, counts) -> str:
    return f"{name}({','.join(_count_text(c) for c in counts)})"


def _bracket(form: str) -> str:
    return form if form.startswith("H(") and form.count("H(") == 1 else f"[{form}]"


def _table(C, L):
    """Rows: values of the conditioning joint; columns: values of the left joint (occurring ones), code order."""
    cols = sorted(set(L))
    index = {k: j for j, k in enumerate(cols)}
    rows: dict = {}
    for c, l in zip(C, L):
        rows.setdefault(c, [0] * len(cols))[index[l]] += 1
    return [rows[c] for c in sorted(rows)]


def _steps_lines(lhs, steps):
    out, pad = [], " " * len(lhs)
    seen = []
    for s in steps:
        if s not in seen:
            seen.append(s)
    for i, s in enumerate(seen):
        out.append(f"{lhs if i == 0 else pad} = {s}")
    return out


def _simplify(x):
    """A rational Exact as the Fraction it is."""
    if isinstance(x, Exact) and x.is_rational():
        return x.c0
    return x


def _exact_text(x) -> str:
    if isinstance(x, Fraction):
        return counts_text(x)
    return str(x)


class Values:
    """The checker's evaluation of measures (a mixin of the checker)."""

    def rows(self, fixed):
        target = self.data.target
        mask = self.grower.mask([_as_cond(var, val) for var, val in fixed if var != target])
        for var, val in fixed:
            if var == target:  # H(outlook | play = yes): the target as a condition
                mask &= self.columns[var] == self.domain[var].index(val)
        if not mask.any():
            where = ", ".join(_cond_text(v, x) for v, x in fixed)
            raise _Undefined(f"no row of the data has {where}; the measure is undefined")
        return mask

    def joint(self, names, mask):
        for v in names:
            if self.names.kinds[v] == "numeric":
                # C4.5 measures a numeric feature at its best cut (with an MDL term); reading each value
                # as a category would grade such claims against another quantity.
                raise _Unreadable(f"{v} is numeric: it is measured at its best cut, one feature at a time "
                                  f"(IG({v}), GR({v}), SplitInfo({v}), H({self.data.target} | {v})); "
                                  f"--categorical {v} reads its values as categories")
            if (self.columns[v][mask] < 0).any():
                raise _Unreadable(f"{v} has missing values on these rows: C4.5 measures it one feature at a time "
                                  f"(IG({v}), GR({v}), SplitInfo({v}), H({self.data.target} | {v})); this form "
                                  f"needs complete columns")
        cols = [self.columns[v][mask].tolist() for v in names]
        return list(zip(*cols)) if cols else [()] * int(mask.sum())

    def evaluate(self, m: _Measure, mask, quantity):
        """The exact value (by infotree.measures on label sequences), the textbook steps, the
        derivation lines of its parts, and ``(op, x, y)`` when it is x - y or x / y."""
        target = self.data.target
        if m.counts is not None:
            counts = list(m.counts)
            f = {"H": _entropy_of_counts, "Gini": gini, "ME": misclassification}[m.name]
            return f(counts), [_counts_symbol(m.name, counts)], [], None
        at_node = self.node_value(m, quantity)
        if at_node is not None:
            return at_node
        if mask is None:
            mask = self.rows(m.fixed)
        if m.name in ("Gini", "ME"):
            value, steps = self.impurity(m.name, m.left, m.given, mask)
            return value, steps, [], None
        if m.name == "GiniGain":
            parent, p_steps = self.impurity("Gini", (target,), (), mask)
            child, c_steps = self.impurity("Gini", (target,), tuple(m.left) + tuple(m.given), mask)
            sym = (f"{_with_conditions('Gini', target, m.given, m.fixed)} - "
                   f"{_with_conditions('Gini', target, tuple(m.left) + tuple(m.given), m.fixed)}")
            return parent - child, [sym, f"[{p_steps[-1]}] - [{c_steps[-1]}]"], [], ("-", parent, child)
        if m.name in ("H", "SplitInfo"):
            value, steps = self.entropy(m.left, m.given, mask)
            if m.name == "SplitInfo":
                steps = [_h_symbol(m.left, m.given, m.fixed)] + steps
            return value, steps, [], None
        a, b = m.left if m.name == "I" else (m.left, (target,))
        value, steps, parts = self.information(a, b, m.given, m.fixed, mask)
        if m.name != "GR":
            return value, steps, [], parts
        si, si_steps = self.entropy(a, m.given, mask)
        ig_name = _with_conditions("IG", ", ".join(a), m.given, m.fixed)
        si_name = _with_conditions("SplitInfo", ", ".join(a), m.given, m.fixed)
        if not si:
            raise _Undefined(f"{quantity} is undefined: {si_name} = 0 ({', '.join(a)} has a single value "
                              f"on these rows)")
        d = self.digits
        before = (_steps_lines(ig_name, steps + [_exact_text(_simplify(value)), approx(value, d).text])
                  + _steps_lines(si_name, [_h_symbol(a, m.given, m.fixed)] + si_steps
                                 + [_exact_text(_simplify(si)), approx(si, d).text]))
        return Ratio(value, si), [f"{ig_name} / {si_name}"], before, ("/", value, si)

    # -- measures from the builder's records at a node: C4.5's weights and cuts, CART's binary splits --
    def tree_node(self, fixed):
        """The builder's node (of the expected tree) at the path ``fixed``, or None."""
        node = self.grower.tree.root
        for var, val in fixed:
            if node is None or node.split_feature != var:
                return None
            b = _branch_of(node.test, var, val)
            if b is None:
                return None
            node = node.children[b]
        return node

    def node_at(self, fixed):
        """The node whose candidates a measure of a feature at ``fixed`` reads: the expected tree's (C4.5
        weights included), else the builder's examination of the rows that satisfy ``fixed``."""
        node = self.tree_node(fixed)
        if node is not None and node.candidates():
            return node
        return self.grower.examined_at(tuple(_as_cond(v, x) for v, x in fixed if v != self.data.target))

    def candidate(self, fixed, feature, quantity):
        """The builder's record of ``feature`` at the node of ``fixed``: the expected tree's, else (a node the
        tree does not split, or one where a minimum size left the feature out) the builder's examination of
        the node's rows with no minimum size."""
        node = self.node_at(fixed)
        for c in (() if node is None else node.candidates()):
            if c.feature == feature:
                return c
        node = self.grower.examined_at(tuple(_as_cond(v, x) for v, x in fixed if v != self.data.target))
        for c in (() if node is None else node.candidates()):
            if c.feature == feature:
                return c
        raise _Unreadable(f"{quantity}: {feature} is no candidate at this node (the builder does not "
                          f"examine it here)")

    def node_value(self, m: _Measure, quantity):
        """(value, steps, [], parts) of a measure read from the builder's records at a node, or None when
        the rows give it (complete nominal columns, no weights): C4.5's measures of a numeric feature (at
        its cut, with the MDL term) or of one with missing values (gain × known fraction, split information
        with the missing branch), measures at a node reached with fractional weights (an ``At`` line of the
        worked solution), and CART's binary splits (ΔGini, improvement, split on A)."""
        target = self.data.target
        if m.lookahead:
            c = self.candidate(m.fixed, m.left[0], quantity)
            value = c.lookahead_ratio if m.name == "GR" else c.lookahead
            if value is None:
                raise _Unreadable(f"{quantity}: no two-level score here; the tree is grown with --lookahead 0 "
                                  f"(give --lookahead 1, as tree was)")
            return value, [f"the two-level score of {m.left[0]} at this node"], [], None
        if self.regression or m.name in ("SSE", "Mean"):
            return self.regression_value(m, quantity)
        if m.name in ("IG", "GR", "SplitInfo") and m.split is not None:
            return self.split_measure(m, quantity)
        if m.name in ("Decrease", "Improvement") or m.split_on:
            return self.decrease_value(m, quantity)
        numbers = {"Gini": gini, "ME": misclassification, "H": _entropy_of_counts}
        if m.known:
            c = self.candidate(m.fixed, self.last_feature, quantity)
            counts = [sum(col) for col in zip(*c.table)]
            return _entropy_of_counts(counts), [h_of(counts)], [], None
        single = len(m.left) == 1 and not isinstance(m.left[0], tuple)
        weighted_data = not self.grower.complete
        if m.name in ("IG", "GR", "SplitInfo") and single and not m.given and (
                self.names.kinds[m.left[0]] == "numeric" or weighted_data) and not self.grower.binary:
            # (CART's candidates are binary splits: its IG and GR of a nominal feature stay its values')
            c = self.candidate(m.fixed, m.left[0], quantity)
            if m.name == "IG":
                return c.gain, [f"C4.5's gain of {m.left[0]} at this node"], [], None
            if m.name == "SplitInfo":
                return c.split_info, [f"C4.5's split information of {m.left[0]} at this node"], [], None
            if c.gain_ratio is None:
                raise _Undefined(f"{quantity} is undefined: its split information is 0")
            return c.gain_ratio, [f"IG({m.left[0]}) / SplitInfo({m.left[0]})"], [], ("/", c.gain, c.split_info)
        if m.name == "H" and m.left == (target,) and len(m.given) == 1 and not self.grower.binary and (
                self.names.kinds[m.given[0]] == "numeric" or weighted_data):
            c = self.candidate(m.fixed, m.given[0], quantity)
            return c.conditional_entropy, [f"the branches of {m.given[0]} at this node"], [], None
        if m.name in _IMPURITY and m.left == (target,) and not m.given and (weighted_data or self.grower.binary
                                                                             or self.context):
            f = numbers[m.name]
            if m.fixed and isinstance(m.fixed[-1][1], _Known):
                # the node's rows with the feature known: its candidate's branches together
                c = self.candidate(m.fixed[:-1], m.fixed[-1][0], quantity)
                counts = [sum(col) for col in zip(*c.table)]
                return f(counts), [_counts_symbol(m.name, counts)], [], None
            if m.fixed and m.fixed == self.context:
                node = self.tree_node(m.fixed)
                if node is not None:
                    counts = node.class_counts.tolist()
                    return f(counts), [_counts_symbol(m.name, counts)], [], None
            if m.fixed:
                node = self.tree_node(m.fixed[:-1])
                var, val = m.fixed[-1]
                if node is not None and var in self.data.features:
                    for c in node.candidates():
                        if c.feature == var:
                            split = getattr(c, "split", None) or _test_of(c, self.data.features.index(var))
                            b = _branch_of(split, var, val)
                            if b is not None:
                                counts = list(c.table[b])
                                return f(counts), [_counts_symbol(m.name, counts)], [], None
        return None

    def split_measure(self, m: _Measure, quantity):
        """IG, SplitInfo or GR of a split written out (``Gain(S, hours <= 4.5)``): its two branches on the
        node's rows with the feature known; C4.5's known fraction and missing branch when some are missing."""
        rows = self.rows(m.fixed)
        f, v = m.split
        known = rows & (self.columns[f] >= 0)
        side = known & self.grower.side_mask(*_as_cond(f, v))
        table = (self.class_counts(side), self.class_counts(known & ~side))
        unknown = self.class_counts(rows & ~known)
        gain = information_gain_from_table(table)
        n, n_known = int(rows.sum()), int(known.sum())
        if n_known < n:
            gain = gain * Fraction(n_known, n)
        si = split_information_from_table(table + ((unknown,) if n_known < n else ()))
        shown = _cond_text(f, v)
        if m.name == "IG":
            return gain, [f"the gain of the split {shown}: {table[0]} | {table[1]}"], [], None
        if m.name == "SplitInfo":
            return si, [f"the split information of {shown}: {sum(table[0])} | {sum(table[1])} rows"], [], None
        if not si:
            raise _Undefined(f"{quantity} is undefined: the split information of {shown} is 0")
        return Ratio(gain, si), [f"IG({shown}) / SplitInfo({shown})"], [], ("/", gain, si)

    def class_counts(self, mask):
        return tuple(np.bincount(np.asarray(self.data.y)[mask], minlength=len(self.data.classes)).tolist())

    def entropy(self, left, given, mask):
        """H(left | given) on the masked rows, with its textbook form."""
        L = self.joint(left, mask)
        if not given:
            counts = [c for _, c in sorted(Counter(L).items())]
            self.budget(left, (), len(counts), 1)
            return entropy_of_labels(L), [h_of(counts), entropy_form(counts, style="inverse")]
        C = self.joint(given, mask)
        self.budget(left, given, len(set(L)), len(set(C)))
        return conditional_entropy(L, given=C), [conditional_entropy_form(_table(C, L))]

    def impurity(self, kind, left, given, mask):
        """Gini(left | given) or ME(left | given) on the masked rows: the impurity of each group of
        ``given`` weighted by its share of the rows, exactly, with its textbook form."""
        f, form = (gini, gini_form) if kind == "Gini" else (misclassification, misclassification_form)
        L = self.joint(left, mask)
        C = self.joint(given, mask) if given else [()] * len(L)
        self.budget(left, given, len(set(L)), len(set(C)))
        n = len(L)
        rows = _table(C, L)  # every class that occurs on these rows, zero counts kept: Gini(0,4)
        value = sum((Fraction(sum(r), n) * f(r) for r in rows), Fraction(0))
        if not given:
            return value, [form(rows[0])]
        return value, [" + ".join(f"{sum(r)}/{n}·{kind}({','.join(map(str, r))})" for r in rows)]

    def budget(self, left, given, n_left, n_given):
        """Refuse a claim whose count table (values of ``given`` by values of ``left``) is too large:
        its derivation is printed cell by cell (I(a,b,c;d,e|f) on 5,000 rows of ID-like columns
        took 15 s and 700 MB before this limit)."""
        cells = n_left * n_given
        if cells > self.max_claim_cells:
            what = _h_symbol(left, given, ())
            raise _Unreadable(f"{what} needs a count table of {n_given:,} x {n_left:,} = {cells:,} cells; at most "
                              f"{self.max_claim_cells:,} are allowed (raise the limit with --max-claim-cells)")

    def information(self, a, b, given, fixed, mask):
        """I(a; b | given) on the masked rows, its form H(b | given) - H(b | a, given), and those two parts."""
        h1, (form1, *_) = self.entropy(b, given, mask)
        h2, (form2, *_) = self.entropy(b, tuple(a) + tuple(given), mask)
        A, B = self.joint(a, mask), self.joint(b, mask)
        if given:
            value = conditional_mutual_information(A, B, given=self.joint(given, mask))
        else:
            value = mutual_information(A, B)
        symbolic = f"{_h_symbol(b, given, fixed)} - {_h_symbol(b, tuple(a) + tuple(given), fixed)}"
        return value, [symbolic, f"{_bracket(form1)} - {_bracket(form2)}"], ("-", h1, h2)

    def c45_gain_note(self, m: _Measure, answer):
        """For C4.5's gain (or gain ratio) of a numeric attribute answered in the other convention (with or
        without Release 8's log2(cuts)/n), the message that says so; None otherwise."""
        if not self.criterion.mdl or m.name not in ("IG", "GR") or m.given or len(m.left) != 1 or m.split or \
                self.names.kinds.get(m.left[0]) != "numeric":
            return None
        try:
            c = self.candidate(m.fixed, m.left[0], _canonical(m))
        except _Unreadable:
            return None
        if not c.n_cuts or c.n_cuts < 2:
            return None
        penalty = Exact.log2(c.n_cuts) / Fraction(c.n)
        plain = c.gain + penalty if self.c45_gain == "mdl" else c.gain
        reduced = plain - penalty
        other = plain if self.c45_gain == "mdl" else reduced
        if m.name == "GR":
            if not c.split_info:
                return None
            other = Ratio(other, c.split_info)
        if self.judge(other, answer)[0] != "right":
            return None
        term = f"log2(cuts)/n = log2({c.n_cuts})/{number_text(Fraction(c.n))} = {decimal_text(penalty, self.digits)}"
        if self.c45_gain == "mdl":
            return (f"under C4.5 Release 8 (--c45-gain mdl) the gain of a numeric attribute is reduced by {term}; "
                    f"your value is the plain gain at the cut (--c45-gain plain grades it so)")
        return (f"your value is C4.5 Release 8's gain, reduced by {term}; this sheet is graded with the plain gain "
                f"at the cut (--c45-gain plain; --c45-gain mdl grades Release 8's)")

    def check_threshold(self, number, body, feature_text, answer_text) -> ClaimResult:
        """``best threshold for humidity = 82.5``: the cut of the feature's best split at the current node."""
        f = self.names.feature(feature_text)
        if self.names.kinds[f] != "numeric":
            raise _Unreadable(f"{f} is nominal: it has no threshold (give --numeric {f} if it holds numbers)")
        quantity = f"threshold({_with_conditions('', f, (), self.in_context(()))[1:-1]})" if self.context else \
            f"threshold({f})"
        c = self.candidate(self.in_context(()), f, quantity)
        t = c.threshold if c.threshold is not None else getattr(getattr(c, "split", None), "threshold", None)
        if t is None:
            raise _Undefined(f"{quantity}: {f} has no cut here (a single value on these rows)")
        answer = read_answer(answer_text, log=self.log)
        verdict, message = ("right", "") if answer.value == t else ("wrong", f"{answer.text} is not the cut {number_text(t)}")
        if verdict == "wrong":
            rule = self.grower.threshold_rule
            other = self.midpoint_of(f, t, rule)
            if other is not None and answer.value == other:
                message = (f"under --threshold {rule} the cut of {f} is {number_text(t)}"
                           + (" (the largest data value below the midpoint {})".format(number_text(other))
                              if rule == "data" else " (the midpoint between the two data values)")
                           + f"; {answer.text} is the {'midpoint' if rule == 'data' else 'data value'} rule's")
        return ClaimResult(number, body, "threshold", verdict, answer=answer.text, answer_value=answer.value,
                           expected=t, expected_decimal=number_text(t), quantity=quantity, message=message)

    def midpoint_of(self, f, t, rule):
        """The same cut under the other threshold rule: the midpoint above a data threshold, or the largest
        data value below a midpoint."""
        j = self.data.features.index(f)
        values = sorted({x for x in self.grower.numbers(j) if x is not None})
        if rule == "data":
            above = [x for x in values if x > t]
            return (t + above[0]) / 2 if above else None
        below = [x for x in values if x < t]
        return below[-1] if below else None
