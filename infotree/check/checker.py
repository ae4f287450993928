"""The checker of one answers sheet: one line to one claim, each claim kind to its reader.

A line is rewritten from textbook notations (:mod:`.notation`), then read as prose or a region, a
``... exactly`` or ``undefined`` line of infotree's steps, a cost-complexity or forest claim (their own
grammars: :mod:`.pruning`, :mod:`.forests`), a tree claim (:mod:`.treeclaims`) or a measure claim
(:mod:`.measures`, CART's decreases in :mod:`.decreases`, a regression tree's in :mod:`.regression`); the
path in any of them is read by :mod:`.paths`.  :func:`conventions` lists what a
sheet is graded under, for the report's header.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..criteria import C45GainRatio, criterion_named
from ..forms import counts_text
from .decreases import Decreases
from .forests import ForestClaims
from .grammar import _EXACTLY, _UNDEFINED, _Measure, _Tok, _claim_kind, _clip, _no_equals, _split_claim
from .judging import Judging
from .measures import MeasureClaims
from .names import Names
from .names import Unreadable as _Unreadable
from .notation import at_region, best_split, region_definition, rewrite, threshold_claim
from .paths import Paths
from .pruning import PruningClaims
from .regression import RegressionValues
from .results import ClaimResult
from .sheet import MAX_LINE_LENGTH
from .treeclaims import TreeClaims, _where, _where_the
from .grower import Grower
from .values import Values

__all__ = ["CLAIM_KINDS", "MAX_CLAIM_CELLS", "conventions"]

#: Most cells of the count table a measure claim may need (``--max-claim-cells``).
MAX_CLAIM_CELLS = 100_000

#: Claim kinds with a grammar of their own beside cost-complexity's and a forest's: each a class made
#: with the checker, ``match(body)`` -> (kind, match) or None, ``check(number, body, kind, match)`` ->
#: a ClaimResult (docs/architecture.md, "Adding a claim kind").
CLAIM_KINDS = []


class _TextbookC45(C45GainRatio):
    """C4.5 as textbooks print it: a numeric attribute's gain is the plain gain at its best cut, without
    Release 8's log2(cuts)/n (``--c45-gain plain``); the tree is grown with that gain too."""

    mdl = False


class _Checker(TreeClaims, MeasureClaims, Decreases, Paths, RegressionValues, Values, Judging):
    def __init__(self, data, criterion, tolerance, digits, options, *, min_digits=3, log="2",
                 max_claim_cells=MAX_CLAIM_CELLS, forest=None, min_decimals=3, c45_gain="mdl", risk_units="count",
                 shared=None):
        self.min_digits = min_digits
        self.min_decimals, self.c45_gain, self.risk_units = min_decimals, c45_gain, risk_units
        self.log = log
        self.max_claim_cells = max_claim_cells
        self.data = data
        self.criterion = criterion_named(criterion)   # as named: C4.5's keeps its MDL term under c45_gain="plain"
        self.tolerance = tolerance
        self.digits = digits
        self.names = Names(data)
        X = np.asarray(data.X)
        self.columns = {f: X[:, j] for j, f in enumerate(data.features)}
        self.columns[data.target] = np.asarray(data.y)
        self.domain = self.names.domain
        self.variables = self.names.variables
        grown_by = _TextbookC45() if self.criterion.mdl and c45_gain == "plain" else criterion
        # A class's sheets share the trees grown for them (the expected tree, the subtrees below students'
        # choices, the examinations, the pruning sequence): one Grower and one PruningClaims cache per
        # data set and options; the data object is kept in the key's value so its id is never reused.
        key = (id(data), repr(sorted(options.items())), criterion, c45_gain)
        cached = (shared or {}).get(key)
        if cached is None:
            cached = (data, Grower(data, dict(options, criterion=grown_by)), {})
            if shared is not None:
                shared[key] = cached
        _, self.grower, pruning_cache = cached
        self.grower.new_sheet()
        # claims with their own grammar: cost-complexity (the grown tree's sequence) and a forest's votes
        self.families = (PruningClaims(self, dict(options, criterion=self.grower.criterion), pruning_cache),
                         ForestClaims(self, forest), *(kind(self) for kind in CLAIM_KINDS))
        self.context = ()   # the node of an "At outlook = sunny:" line: IG, GR, SplitInfo claims below are there
        self.context_error = None   # why the last "At" line could not be read: the claims below are not graded
        self.stated = set()         # the decimal answers of the claims so far (rounded values the sheet shows)
        self.sheet_numbers = set()  # every decimal written on the sheet
        self.regions = {}           # ISLR's R1 = {X | Years < 4.5}: region name -> path
        self.last_feature = None   # the feature the last claim measured: H_known(Y), improvement (rpart)
        self.regression = self.criterion.regression
        if self.regression:
            from ..growing import target_numbers

            self.y_numbers = target_numbers(data)   # the exact number of each target code
        self._tree_text = None

    def set_context(self, number, body, path_text):
        """Read an ``At path:`` line; an unreadable path is reported (and clears the context)."""
        self.context, self.context_error = (), None
        try:
            self.context = self.path(_split_claim(rewrite(path_text), split=False)[0], "At")
        except _Unreadable as e:
            # the claims below are about the node this line meant: graded at no node rather than at another
            self.context_error = f"the node of line {number} ({_clip(body, 40)}) could not be read, so this claim " \
                                 f"about it is not graded"
            return ClaimResult(number, body, "context", "unreadable", message=str(e))
        return None

    def variable(self, tok: _Tok) -> str:
        return self.names.variable(tok.text)

    def value(self, var: str, name: str) -> str:
        return self.names.value(var, name)

    # -- one line --
    def check_line(self, number: int, body: str) -> ClaimResult:
        if len(body) > MAX_LINE_LENGTH:
            return ClaimResult(number, _clip(body, 80), "unknown", "unreadable",
                               message=f"line of {len(body):,} characters; at most {MAX_LINE_LENGTH:,} are allowed")
        result = self.check_rewritten(number, rewrite(body))
        return result if result.text == body else replace(result, text=body)

    def check_rewritten(self, number: int, body: str) -> ClaimResult:
        kind, answer = "unknown", None
        try:
            prose = self.prose_claim(number, body)
        except _Unreadable as e:
            return ClaimResult(number, body, "unknown", "unreadable", message=str(e))
        if prose is not None:
            return prose
        special = _EXACTLY.fullmatch(body) or _UNDEFINED.fullmatch(body)
        if special:
            try:
                return self.check_special(number, body, special)
            except _Unreadable as e:
                return ClaimResult(number, body, kind, "unreadable", message=str(e))
        family = self.family(body)
        if family is not None:  # alpha(path), R(T_t), alpha_k, CP(row k), weakest link; votes, OOB error
            handler, kind, m = family
            try:
                return handler.check(number, body, kind, m)
            except _Unreadable as e:
                return ClaimResult(number, body, kind, "unreadable", message=str(e))
        try:
            toks, rhs = _split_claim(body)
            kind = _claim_kind(toks)
            if rhs is None:
                raise _Unreadable(_no_equals(body, toks))
            answer = rhs.strip()
            if kind in ("root", "split", "leaf"):
                return self.check_tree_claim(number, body, kind, toks, answer)
            measure = self.parse_measure(toks)
            return self.check_measure(number, body, measure, answer)
        except _Unreadable as e:
            return ClaimResult(number, body, kind, "unreadable", answer=answer, message=str(e))

    def prose_claim(self, number, body):
        """The result of a claim in ISLR's region notation or in short prose, or None for other lines."""
        region = region_definition(body)
        if region is not None:
            name, path_text = region
            path = self.path(_split_claim(path_text, split=False)[0], name)
            self.regions[name] = path
            node, problem = self.node_of_tree(path)
            if problem is not None:   # a region is a node of the tree itself: no carry-forward below another split
                return ClaimResult(number, body, "region", "wrong", answer=path_text, message=problem,
                                   quantity=name)
            what = "a leaf" if node.split is None else f"a node that splits on {node.split_feature}"
            return ClaimResult(number, body, "region", "right", answer=path_text, quantity=name,
                               message=f"{name} = {_where_the(path)}, {what}")
        found = at_region(body)
        if found is not None:
            measure, name, answer = found
            if name not in self.regions:
                raise _Unreadable(f"{name} is not defined on an earlier line; define it as {name} = {{X | Years < 4.5}}")
            m = _Measure(measure, (self.data.target,), (), self.regions[name])
            return self.check_measure(number, body, m, answer)
        found = threshold_claim(body)
        if found is not None:
            return self.check_threshold(number, body, *found)
        answer = best_split(body)
        if answer is not None:
            path = self.context if not self.context_error else None
            if path is None:
                raise _Unreadable(self.context_error)
            toks = [_Tok("w", "split", 0), _Tok("p", "(", 0)] + _split_claim(_where(path), split=False)[0] + \
                [_Tok("p", ")", 0)] if path else [_Tok("w", "root", 0)]
            return self.check_tree_claim(number, body, "split" if path else "root", toks, answer)
        return None

    def family(self, body):
        """(handler, kind, match) of a cost-complexity or forest claim, or None."""
        for handler in self.families:
            found = handler.match(body)
            if found is not None:
                return (handler, *found)
        return None


def conventions(checker, tolerance, min_digits, min_decimals, log) -> tuple:
    """((name, value, meaning), ...): the conventions a sheet is graded under, for the report's header."""
    out = [("precision", f"{min_decimals} decimals or {min_digits} significant digits",
            f"a rounded decimal is right with at least {min_decimals} decimal places or {min_digits} significant "
            f"digits")]
    if tolerance is not None:
        out.append(("tolerance", counts_text(tolerance), f"numbers within {counts_text(tolerance)} are right"))
    out.append(("log", log, "'log' in answers is " + ("log2" if log == "2" else "ln")))
    g = checker.grower
    if checker.criterion.mdl:
        out.append(("c45_gain", checker.c45_gain,
                    "the gain of a numeric attribute is C4.5 Release 8's, less log2(cuts)/n" if checker.c45_gain == "mdl"
                    else "the gain of a numeric attribute is the plain gain at its best cut (textbooks)"))
    if g.numeric_any:
        out.append(("threshold", g.threshold_rule,
                    "a numeric cut is at the largest data value below the midpoint" if g.threshold_rule == "data"
                    else "a numeric cut is at the midpoint between two data values"))
    if g.binary:
        out.append(("risk_units", checker.risk_units,
                    "cost-complexity risks R(t) and alphas count misclassified rows" if checker.risk_units == "count"
                    else "cost-complexity risks are rates: R(t) = r(t)·p(t), alphas divided by n"))
    return tuple(out)
