"""Saving a tree as JSON and loading it back for prediction.

A saved model is the JSON contract (:mod:`infotree.printers.json`).  Loading
checks it thoroughly, because a model file may have been edited by hand: every
error names the file, the node path and what was expected.

Formats 1 (nominal splits, integer counts), 2 (C4.5: numeric splits with their
thresholds, fractional weights), 3 (CART's binary tests) and 4 (M-of-N tests) are read; a newer format is refused with a one-line
message.  A loaded C4.5 tree predicts as the saved one, missing values included
(they combine the branches by their weights, as J48 does), and keeps the pruning
records (``node.pruned``, ``node.reason``).

    >>> tree = load_model("model.json")       # doctest: +SKIP
    >>> tree.predict([{"outlook": "sunny", ...}])  # doctest: +SKIP
"""

from __future__ import annotations

import io
import json
import math
import os
from fractions import Fraction

import numpy as np

from .data import number_text
from .errors import DataError, InfotreeError, LimitError
from .limits import CEILINGS
from .escape import clip as _clip
from .parse import ParseError, parse_rational
from .printers.json import FORMAT_VERSION, FORMATS_READ, write
from .criteria import CRITERIA
from .records import Complexity, CostComplexity, Pessimistic, ReducedError, Surrogate, WeakestLink
from .splits import MofNSplit, NominalSplit, SubsetSplit, ThresholdSplit
from .tree import Node, Tree

__all__ = ["dumps", "load_model", "loads", "save_model"]


def dumps(tree, *, nodes="none") -> str:
    from . import limits

    buf = io.StringIO()
    with limits.recursion_room(4 * limits.current().nesting):  # the writer recurses once per level
        write(tree, buf, nodes=nodes)
    return buf.getvalue()


def save_model(tree, path, *, nodes="none") -> None:
    """Write the tree's JSON to ``path`` atomically (temporary file, then rename)."""
    from .output import write_atomic

    write_atomic(path, dumps(tree, nodes=nodes))


def load_model(path) -> Tree:
    """Read a model saved by ``infotree tree --format json`` (or :func:`save_model`)."""
    from . import limits

    name = os.fspath(path)
    budget = limits.current().input_bytes
    try:
        with open(name, "rb") as f:
            data = f.read(budget + 1)
    except FileNotFoundError:
        raise DataError(f"{name}: no such model file") from None
    except IsADirectoryError:
        raise DataError(f"{name}: is a directory, not a model file") from None
    except OSError as e:
        raise DataError(f"{name}: cannot read the model file ({e.strerror or e})") from None
    if len(data) > budget:
        raise DataError(f"{name}: the model file is larger than the input limit of {budget} bytes "
                        f"(raise it with {limits.option('input_bytes')})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(f"{name}: not a UTF-8 JSON model file (bytes that are not UTF-8)") from None
    return loads(text, source=name)


def loads(text: str, *, source="model") -> Tree:
    from . import limits

    # json and the loader below recurse once per level: measure the depth first, so that
    # a file nested too deep is a one-line refusal, never a RecursionError.
    budget = limits.current().nesting
    depth = _json_depth(text)
    if depth > 3 * budget + 8:  # a tree level is three JSON levels: node, children, child
        raise DataError(f"{source}: JSON nested {depth} levels deep; a model's tree may be at most {budget} "
                        f"levels deep (raise it with {limits.option('nesting')})")
    with limits.recursion_room(depth + 3 * budget):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise DataError(f"{source} line {e.lineno}: not valid JSON ({e.msg}); expected a model written by 'infotree tree --format json'") from None
        return _Loader(source).tree(doc)


def _weight(v):
    """A surrogate's agreed, total or majority as written: an int, or an exact weight's text."""
    if isinstance(v, str):
        try:
            q = parse_rational(v, what="weight")
        except ParseError:
            return None
        return q.numerator if q.denominator == 1 else q
    return v


def _json_depth(text: str) -> int:
    """Deepest nesting of [ and { in JSON text, strings skipped (linear, no recursion)."""
    import re

    bare = re.sub(r'"(?:[^"\\]|\\.)*"', "", text)
    b = np.frombuffer(bare.encode("utf-8", "replace"), dtype=np.uint8)
    step = (b == ord("[")).astype(np.int64) + (b == ord("{")) - (b == ord("]")) - (b == ord("}"))
    return int(np.cumsum(step).max(initial=0))


def _int(low, high=None):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low and (high is None or v <= high)


def _exact(v) -> bool:
    """An exact rational as the writer leaves it: an int or a string such as ``1/100``."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    try:
        return isinstance(v, str) and parse_rational(v, what="parameter") is not None
    except (ParseError, LimitError):
        return False


def _none_or(check):
    return lambda v: v is None or check(v)


def _one_of(*allowed):
    return lambda v: isinstance(v, (str, int, type(None))) and not isinstance(v, bool) and v in allowed


def _bool(v) -> bool:
    return isinstance(v, bool)


#: The documented growing parameters of a model's "params": how each is checked, what is allowed.
_PARAMS = {
    "max_depth": (_none_or(_int(0)), "null or an integer of at least 0"),
    "min_samples_split": (_none_or(_int(0)), "null or an integer of at least 0"),
    "min_gain": (_none_or(_exact), "null or an exact rational such as \"1/100\""),
    "stop_at_zero_gain": (_bool, "true or false"),
    "min_objects": (_int(1), "an integer of at least 1"),
    "collapse": (_none_or(_bool), "null, true or false"),
    "average_gain_slack": (_exact, "an exact rational such as \"1/1000\""),
    "threshold": (_one_of("data", "midpoint"), "\"data\" or \"midpoint\""),
    "prune": (_one_of("none", "pessimistic", "reduced-error", "cost-complexity"),
              "\"none\", \"pessimistic\", \"reduced-error\" or \"cost-complexity\""),
    "confidence": (_exact, "an exact rational such as \"1/4\""),
    "lookahead": (_one_of(0, 1), "0 or 1"),
    "m_of_n": (_bool, "true or false"),
    "every_split": (_bool, "true or false"),
    "min_leaf": (_int(1), "an integer of at least 1"),
    "cp": (_none_or(_exact), "null or an exact rational such as \"1/100\""),
    "max_subsets": (_int(1, CEILINGS["max_subsets"][0]), f"an integer from 1 to {CEILINGS['max_subsets'][0]}"),
    "competitors": (_int(0), "an integer of at least 0"),
    "surrogates": (_int(0), "an integer of at least 0"),
    "use_surrogate": (_one_of(0, 1, 2), "0, 1 or 2 (rpart's usesurrogate)"),
    "surrogate_style": (_one_of(0, 1), "0 or 1 (rpart's surrogatestyle)"),
    "ccp_alpha": (_none_or(_exact), "null or an exact rational"),
    "ccp_cp": (_none_or(_exact), "null or an exact rational"),
    "ccp_select": (_one_of(None, "min", "1se"), "null, \"min\" or \"1se\""),
    "ccp_risk": (_one_of(None, "rpart", "impurity"), "null, \"rpart\" or \"impurity\""),
    "shrink": (_exact, "an exact rational of at least 0 such as \"1\" or \"1/2\" (rpart's Poisson shrink)"),
}


class _Loader:
    def __init__(self, source):
        self.source = source

    def fail(self, where, what):
        raise DataError(f"{self.source}: {where}: {what}")

    def get(self, obj, key, kind, where):
        if not isinstance(obj, dict) or key not in obj:
            self.fail(where, f"missing key {key!r}")
        v = obj[key]
        if kind is not None and not isinstance(v, kind):
            self.fail(where, f"{key!r} is {type(v).__name__}, expected {kind.__name__ if isinstance(kind, type) else 'a value'}")
        return v

    def tree(self, doc):
        from . import __version__

        if not isinstance(doc, dict) or "infotree" not in doc:
            self.fail("top level", "not an infotree model (no 'infotree' key); save one with 'infotree tree --format json'")
        fmt = doc.get("format")
        if fmt not in FORMATS_READ or isinstance(fmt, bool):
            self.fail("top level", f"model format {fmt!r} written by infotree {doc.get('infotree')!r}; "
                      f"this is infotree {__version__}, which reads formats "
                      f"{', '.join(map(str, FORMATS_READ))}")
        self.format = fmt
        features = self.get(doc, "features", list, "top level")
        criterion = self.get(doc, "criterion", str, "top level")
        if criterion not in CRITERIA:
            self.fail("top level", f"unknown criterion {criterion!r}; allowed: {', '.join(CRITERIA)}")
        regression = CRITERIA[criterion].regression
        classes = [] if regression else self.get(doc, "classes", list, "top level")
        domains = self.get(doc, "domains", dict, "top level")
        if CRITERIA[criterion].binary and fmt < 3:
            self.fail("top level", f"criterion {criterion!r} (CART) needs model format 3 (this file says {fmt})")
        if not all(isinstance(f, str) for f in features + classes) or len(set(features)) != len(features) or len(set(classes)) != len(classes):
            self.fail("top level", "features and classes must be lists of distinct strings")
        target = doc.get("target", "class")
        if not isinstance(target, str):
            self.fail("top level", f"'target' is {type(target).__name__}, expected str")
        for name in [target, *features, *classes]:
            self.one_line(name, "top level", "name")
        kinds_doc = doc.get("kinds", {})
        if not isinstance(kinds_doc, dict):
            self.fail("top level", "'kinds' must map each feature to \"nominal\" or \"numeric\"")
        doms, kinds, numbers = [], [], []
        for f in features:
            d = domains.get(f)
            if not isinstance(d, list) or not all(isinstance(v, str) for v in d) or len(set(d)) != len(d):
                self.fail("domains", f"feature {f!r} needs a list of distinct value strings")
            kind = kinds_doc.get(f, "nominal")
            if kind not in ("nominal", "numeric"):
                self.fail("kinds", f"feature {f!r} has kind {kind!r}; expected \"nominal\" or \"numeric\"")
            for v in d:
                self.one_line(v, "domains", f"value of {f!r}")
            doms.append(d)
            kinds.append(kind)
            numbers.append(tuple(self.number(v, f"domains of numeric feature {f!r}") for v in d)
                           if kind == "numeric" else None)
            if kind == "numeric" and list(numbers[-1]) != sorted(set(numbers[-1])):
                self.fail("domains", f"numeric feature {f!r} needs its values in ascending order, each once")
        t = Tree(features=features, domains=doms, classes=classes, target=target,
                 criterion=CRITERIA[criterion], params=self.params(doc.get("params", {})),
                 kinds=kinds, numbers=numbers, values=() if regression else None)
        root = self.get(doc, "root", dict, "top level")
        self.node_type = Node
        if getattr(t.criterion, "counts_events", False):  # Poisson, exp: bound to the root's events and exposure
            from .survival import RateNode

            self.node_type = RateNode
            stats = self.event_stats(self.get(root, "stats", dict, "root"), "root")
            try:
                t.criterion = t.criterion.bound(t.params.get("shrink", 1), stats[1], stats[2])
            except (InfotreeError, ValueError, ZeroDivisionError) as e:
                self.fail("params", f"shrink: {e}")
        t.root = self.node(t, root, (), 0, None)
        if t.params.get("prior") is not None:  # rpart's priors and losses: the root's counts fix the factors
            from .criteria import with_costs

            try:
                t.criterion = with_costs(t.criterion, t.classes, t.root.class_counts.tolist(), t.params["prior"],
                                         t.params.get("loss"))
            except InfotreeError as e:
                self.fail("params", f"prior and loss: {e}")
        if t.params.get("cost"):  # rpart's per-variable costs scale the recorded improvements
            from .criteria import with_variable_costs

            try:
                t.criterion = with_variable_costs(t.criterion, t.features, t.params["cost"])
            except InfotreeError as e:
                self.fail("params", f"cost: {e}")
        return t

    def one_line(self, text, where, what):
        """Refuse a name or value holding a line break: every printer shows it on one line."""
        if "\n" in text or "\r" in text:
            self.fail(where, f"{what} {_clip(text)!r} holds a line break; names and values are one line of text")

    def params(self, params) -> dict:
        """The growing parameters, each checked against :data:`_PARAMS` (others, added by a later
        infotree of the same format, are kept as they are: they change no answer here)."""
        if not isinstance(params, dict):
            self.fail("top level", f"'params' is {type(params).__name__}, expected an object")
        for key, (ok, allowed) in _PARAMS.items():
            if key in params and not ok(params[key]):
                self.fail("params", f"{key!r} is {_clip(repr(params[key]))}; allowed: {allowed}")
        return dict(params)

    def deviance(self, text, where):
        """A Poisson deviance: a rational plus rational multiples of ln a (``12 - 3*ln(2)``)."""
        from .lnpoly import LnPoly

        try:
            return LnPoly.parse(text)
        except (ValueError, ZeroDivisionError):
            self.fail(where, f"deviance {_clip(text)!r} is not an exact value such as '12 - 3*ln(2) + 1/2*ln(5)'")

    def count(self, text, where):
        """A count: a non-negative integer string, or (format 2) a non-negative exact fraction."""
        kind = "a non-negative integer string" if self.format < 2 else "a non-negative integer or fraction string"
        try:
            v = parse_rational(text, what="count") if isinstance(text, str) else None
        except LimitError as e:
            self.fail(where, str(e))
        except ParseError:
            v = None
        if v is None or v < 0 or (v.denominator != 1 and self.format < 2):
            self.fail(where, f"count {_clip(text)!r} is not {kind}")
        return int(v) if v.denominator == 1 else v

    def number(self, text, where) -> Fraction:
        """A numeric value or threshold as the model writes it: ``75``, ``2.5``, ``1/3``."""
        from .data import number_text

        try:
            q = parse_rational(text, what="number") if isinstance(text, str) else None
        except LimitError as e:
            self.fail(where, str(e))
        except ParseError:
            q = None
        if q is None or number_text(q) != text:
            self.fail(where, f"{_clip(text)!r} is not a number as infotree writes one (75, 2.5, -0.125 or 1/3)")
        return q

    def cost_complexity(self, node, r, where, bad):
        """A cost-complexity record; a link inherited from an ancestor is the nearest one's own."""
        from .parse import parse_exact

        if r.get("action") not in ("collapsed", "kept"):
            bad("a cost-complexity record's action is \"collapsed\" or \"kept\"")
        values = []
        for k in ("alpha", "risk", "subtree_risk", "link_alpha"):
            try:
                values.append(parse_exact(r[k]) if isinstance(r.get(k), str) else bad(f"{k!r} must be an exact string"))
            except ParseError:
                bad(f"{k!r} is not an exact value: {_clip(r[k])!r}")
        leaves = r.get("leaves")
        if isinstance(leaves, bool) or not isinstance(leaves, int) or leaves < 2:
            bad("'leaves' must be an integer of at least 2")
        alpha, risk, subtree, link_alpha = values
        owner = node
        if r.get("own_link") is False:
            owner = node.parent
            while owner is not None and not (isinstance(owner.pruned, CostComplexity) and owner.pruned.link.node is owner):
                owner = owner.parent
            if owner is None:
                bad("'own_link' is false but no ancestor has a cost-complexity record of its own")
            return CostComplexity(r["action"], alpha, owner.pruned.link)
        return CostComplexity(r["action"], alpha, WeakestLink(owner, risk, subtree, leaves, link_alpha))

    def pruned(self, t, r, where, node=None):
        """The pruning record, back in the form infotree.prune makes (None when absent)."""
        if r is None:
            return None

        def bad(what):
            self.fail(where, f"pruning record: {what}")

        if not isinstance(r, dict) or r.get("action") not in ("leaf", "kept", "raised", "not tried", "collapsed"):
            bad("expected an object with \"action\": \"leaf\", \"kept\" or \"raised\"")
        if r.get("method") == "cp":
            if r.get("action") not in ("not tried", "collapsed", "kept"):
                bad("a cp record's action is \"not tried\", \"collapsed\" or \"kept\"")
            risk = self.deviance if getattr(t.criterion, "counts_events", False) else self.count
            exact = [risk(r.get(k), where) if isinstance(r.get(k), str) else bad(f"{k!r} must be an exact string")
                     for k in ("risk", "bound", "alpha")]
            more = [None if r.get(k) is None else risk(r[k], where) for k in ("complexity", "subtree_risk")]
            return Complexity(r["action"], *exact, *more, r.get("splits"))
        if r.get("method") == "cost-complexity":
            return self.cost_complexity(node, r, where, bad)
        if r.get("method") == "reduced-error":
            return ReducedError(r["action"], *(
                self.count(r.get(k), where) if isinstance(r.get(k), str) else bad(f"{k!r} must be an exact string")
                for k in ("validation_leaf", "validation_subtree", "validation_weight")))
        if r.get("method") != "pessimistic":
            bad(f"method {r.get('method')!r}; expected \"pessimistic\" or \"reduced-error\"")
        est = r.get("estimated_errors")
        if not isinstance(est, dict):
            bad("'estimated_errors' must be an object with leaf, subtree and largest_branch")
        out = {}
        for k in ("leaf", "subtree", "largest_branch"):
            v = est.get(k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                bad(f"estimated errors {k!r} must be a non-negative number")
            out[k] = float(v)
        cf = r.get("confidence")
        if isinstance(cf, bool) or not isinstance(cf, (int, float)) or not 0 < cf <= 0.5:
            bad("'confidence' must be a number in (0, 0.5]")
        largest = r.get("largest")
        if (not isinstance(largest, list) or len(largest) != 3 or largest[0] not in t.features
                or largest[1] not in ("=", "<=", ">") or not isinstance(largest[2], str)):
            bad("'largest' must be [feature, operator, value]")
        out.update(largest=tuple(largest), confidence=float(cf), action=r["action"])
        if "raised_from" in r:
            rf = r["raised_from"]
            if not isinstance(rf, dict) or rf.get("feature") not in t.features or not isinstance(rf.get("branch"), int):
                bad("'raised_from' must be {\"feature\": <feature>, \"branch\": <index>}")
            out["raised_from"] = (t.features.index(rf["feature"]), rf["branch"])
        if "after_raising" in r:
            out["after_raising"] = self.pruned(t, r["after_raising"], where)
            if not isinstance(out["after_raising"], Pessimistic):
                bad("'after_raising' must be a pessimistic record")
        return Pessimistic(**out)

    def surrogates(self, t, obj, where):
        """A CART node's surrogate splits (in the order they are tried) and majority direction."""
        out = []
        listed = obj.get("surrogates") or []
        if not isinstance(listed, list):
            self.fail(where, f"'surrogates' must be a list of surrogate splits, not {_clip(repr(listed))}")
        for s in listed:
            if not isinstance(s, dict) or not isinstance(s.get("feature"), str) or s.get("feature") not in t.features:
                self.fail(where, "each surrogate needs a \"feature\" that is one of the features")
            f = t.features.index(s["feature"])
            test = s.get("test") if isinstance(s.get("test"), dict) else {}
            ints = [_weight(s.get(k)) for k in ("agreed", "total", "majority")] + [s.get("count")]
            if (not all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) and v >= 0 for v in ints)
                    or not isinstance(ints[3], int) or not ints[2] < ints[1] or ints[0] > ints[1]):
                self.fail(where, "a surrogate needs non-negative agreed, total and majority (integers, or exact "
                                 "weights such as \"7/2\") and an integer count, with agreed <= total and "
                                 "majority < total")
            if t.kinds[f] == "numeric":
                if test.get("left_op") not in ("<=", ">"):
                    self.fail(where, "a numeric surrogate's test needs \"left_op\": \"<=\" or \">\"")
                split = self.binary_test(t, f, test, where)
                sides, rights = ((0, 1) if test["left_op"] == "<=" else (1, 0)), None
            else:
                dom = t.domains[f]
                left, right = test.get("left"), test.get("right")
                if (test.get("kind") != "subset" or not isinstance(left, list) or not isinstance(right, list)
                        or not all(isinstance(v, str) for v in left + right)
                        or not set(left + right) <= set(dom) or set(left) & set(right)):
                    self.fail(where, f"a surrogate on {s['feature']!r} needs a subset test of its values")
                split = SubsetSplit(f, frozenset(dom.index(v) for v in left), dom)
                sides, rights = None, frozenset(dom.index(v) for v in right)
            out.append(Surrogate(s["feature"], f, split, sides, rights, *ints))
        majority = obj.get("majority")
        if majority not in ("left", "right", None) or not isinstance(majority, (str, type(None))):
            self.fail(where, f"\"majority\" must be \"left\", \"right\" or null, not {_clip(repr(majority))}")
        majority = {"left": 0, "right": 1, None: None}[majority]
        return tuple(out), majority

    def binary_test(self, t, f, test, where):
        """A CART node's test: a threshold of a numeric feature, a subset of a nominal one."""
        kind = test.get("kind") if isinstance(test, dict) else None
        if t.kinds[f] == "numeric":
            if kind != "threshold" or not isinstance(test.get("threshold"), str):
                self.fail(where, f"a split on numeric feature {t.features[f]!r} needs \"test\": "
                                 f"{{\"kind\": \"threshold\", \"threshold\": \"<number>\"}}")
            return ThresholdSplit(f, self.number(test["threshold"], where))
        domain = t.domains[f]
        left, right = (test.get("left"), test.get("right")) if kind == "subset" else (None, None)
        if (not isinstance(left, list) or not isinstance(right, list) or not left or not right
                or sorted(left + right, key=str) != sorted(domain) or len(set(left)) != len(left)):
            self.fail(where, f"a split on nominal feature {t.features[f]!r} needs \"test\": {{\"kind\": \"subset\", "
                             f"\"left\": [...], \"right\": [...]}} dividing its values {', '.join(domain)}")
        return SubsetSplit(f, frozenset(domain.index(v) for v in left), domain)

    def m_of_n_test(self, t, test, where):
        """An M-of-N node's test (format 4): at least m of the conditions feature = value, one per
        nominal feature."""
        if self.format < 4:
            self.fail(where, f"an M-of-N test needs model format 4 (this file says {self.format})")
        m, conds = test.get("m"), test.get("conditions")
        shape = ("\"test\": {\"kind\": \"m_of_n\", \"m\": <1..N>, \"conditions\": [{\"feature\": f, "
                 "\"value\": v}, ...]} with N conditions on distinct nominal features")
        if (not isinstance(conds, list) or not conds or not isinstance(m, int) or isinstance(m, bool)
                or not 1 <= m <= len(conds) or not all(isinstance(c, dict) for c in conds)):
            self.fail(where, f"an M-of-N node needs {shape}")
        pairs, names = [], []
        for c in conds:
            f, v = c.get("feature"), c.get("value")
            if f not in t.features or t.kinds[t.features.index(f)] != "nominal":
                self.fail(where, f"M-of-N condition feature {f!r} is not a nominal feature; features are: "
                                 f"{', '.join(t.features)}")
            j = t.features.index(f)
            if v not in t.domains[j]:
                self.fail(where, f"M-of-N condition value {v!r} is not a value of {f!r}; values are: "
                                 f"{', '.join(t.domains[j])}")
            pairs.append((j, t.domains[j].index(v)))
            names.append(f"{f} = {v}")
        if len({j for j, _ in pairs}) != len(pairs):
            self.fail(where, f"an M-of-N node needs {shape}")
        return MofNSplit(m, tuple(pairs), tuple(names))

    def stats(self, t, obj, where):
        """A regression node's (n, Σy, Σy²), exact, and its label (the mean) checked (Poisson, exp:
        n, events, exposure and the saturated log-likelihood Σw·d·ln(d/t))."""
        st = self.get(obj, "stats", dict, where)
        if getattr(t.criterion, "counts_events", False):
            return self.event_stats(st, where)
        n = self.count(self.get(st, "n", str, where), where)
        s, q = (self.number(self.get(st, k, str, where), where) for k in ("sum", "sum_squares"))
        if n and self.get(obj, "label", str, where) != number_text(s / n):
            self.fail(where, f"label {obj.get('label')!r} is not the mean sum/n = {number_text(s / n)}")
        if n and q * n < s * s:
            self.fail(where, "sum_squares is less than sum²/n: these are not the statistics of any rows")
        counts = np.empty(3, dtype=object)
        counts[:] = [n, s, q]
        return counts

    def event_stats(self, st, where):
        n = self.count(self.get(st, "n", str, where), where)
        d = self.count(self.get(st, "events", str, where), where)
        time = self.number(self.get(st, "exposure", str, where), where)
        if n and not time > 0:
            self.fail(where, f"exposure {st.get('exposure')!r} must be above 0")
        e = self.deviance(self.get(st, "saturated", str, where), where)
        counts = np.empty(4, dtype=object)
        counts[:] = [n, Fraction(d), time, e]
        return counts

    def node(self, t, obj, path, depth, parent, steps=()):
        where = "node " + (", ".join(steps) or "root")
        if t.criterion.regression:
            return self.grow(t, obj, path, depth, parent, steps, where, self.stats(t, obj, where))
        cc = self.get(obj, "class_counts", dict, where)
        if list(cc) != list(t.classes):
            self.fail(where, f"class_counts must list the classes {', '.join(t.classes)} in order")
        values = [self.count(cc[c], where) for c in t.classes]
        if all(isinstance(v, int) and v < 2 ** 63 for v in values):
            counts = np.array(values, dtype=np.int64)
        else:
            counts = np.empty(len(values), dtype=object)
            counts[:] = [Fraction(v) for v in values]  # exact: fractions, or integers beyond int64
        n = self.count(self.get(obj, "n", str, where), where)
        total = sum(values)
        if n != total:
            self.fail(where, f"n = {n} but the class counts sum to {total}")
        label = self.get(obj, "label", str, where)
        if label not in t.classes:
            self.fail(where, f"label {label!r} is not a class; classes are: {', '.join(t.classes)}")
        return self.grow(t, obj, path, depth, parent, steps, where, counts, t.classes.index(label))

    def grow(self, t, obj, path, depth, parent, steps, where, counts, label=0):
        """The node with these counts (or regression statistics) and label, and its subtree."""
        node = self.node_type(t, path, depth, counts, parent=parent)
        node.label = label
        if "errors" in obj:
            e = self.count(self.get(obj, "errors", str, where), where)
            if e != node.errors:
                self.fail(where, f"errors = {e} but n minus the largest class count is {node.errors}")
        node.pruned = self.pruned(t, obj.get("pruned"), where, node)
        split = obj.get("split")
        children = self.get(obj, "children", list, where)
        if split is None:
            if children:
                self.fail(where, "a leaf ('split': null) must have no children")
            if obj.get("threshold") is not None:
                self.fail(where, "a leaf has no threshold")
            node.stop = ("pruned" if node.pruned is not None and node.pruned.action == "leaf" else
                         "cp" if isinstance(node.pruned, Complexity) else
                         "cost_complexity" if isinstance(node.pruned, CostComplexity) else "loaded")
            return node
        test = obj.get("test")
        m_of_n = isinstance(test, dict) and test.get("kind") == "m_of_n"
        if m_of_n:
            node.test = self.m_of_n_test(t, test, where)
            if split != node.test.text:
                self.fail(where, f"the split of this M-of-N node must read {node.test.text!r} (its test), not {split!r}")
            split = node.test.text
            f = node.test.feature
        elif split not in t.features:
            self.fail(where, f"split feature {split!r} is not a feature; features are: {', '.join(t.features)}")
        else:
            f = t.features.index(split)
        values = [self.get(c, "value", str, where) for c in children]
        threshold = obj.get("threshold")
        if m_of_n:
            if values != list(node.test.labels):
                self.fail(where, f"children of this M-of-N split must be {', '.join(node.test.labels)} in order")
        elif t.criterion.binary:
            node.test = self.binary_test(t, f, obj.get("test"), where)
            if isinstance(node.test, SubsetSplit):  # levels the node's rows never had (rpart's routing)
                absent = obj["test"].get("absent", [])
                if not isinstance(absent, list) or not set(absent) <= set(t.domains[f]):
                    self.fail(where, f"\"absent\" must list values of {split!r}: {', '.join(t.domains[f])}")
                node.levels = frozenset(i for i, v in enumerate(t.domains[f]) if v not in absent)
            if values != list(node.test.labels):
                self.fail(where, f"children of this split must be {', '.join(node.test.labels)} in order")
        elif t.kinds[f] == "numeric":
            # Format 1 may list a numeric feature (its reader ignores kinds) but not split on one.
            if self.format < 2:
                self.fail(where, f"a split on numeric feature {split!r} needs model format 2 (this file says {self.format})")
            if not isinstance(threshold, str):
                self.fail(where, f"a split on numeric feature {split!r} needs \"threshold\": \"<number>\"")
            node.test = ThresholdSplit(f, self.number(threshold, where))
            expected = list(node.test.labels)
            if values != expected:
                self.fail(where, f"children of a split on {split!r} at {threshold} must be {', '.join(expected)} in order")
        else:
            if threshold is not None:
                self.fail(where, f"a split on nominal feature {split!r} has no threshold")
            if values != list(t.domains[f]):
                self.fail(where, f"children of a split on {split!r} must be its values {', '.join(t.domains[f])} in order")
        if node.test is None:
            node.test = NominalSplit(f, t.domains[f])
        node.children = []
        for v, c in enumerate(children):
            step = " ".join(node.branch_condition(v)) if m_of_n else "{} {} {}".format(split, *node.branch_condition(v))
            node.children.append(self.node(t, self.get(c, "node", dict, where), path + ((f, v),), depth + 1, node,
                                           steps + (step,)))
        total = [sum(ch.class_counts.tolist()[i] for ch in node.children) for i in range(len(counts))]
        if t.criterion.regression:
            if total[0] > counts[0]:
                self.fail(where, "the children hold more rows than the node")
            node.surrogates, node.majority = self.surrogates(t, obj, where)
        elif t.criterion.binary:  # CART: rows with a missing value may stay in the node
            if any(a > b for a, b in zip(total, counts.tolist())):
                self.fail(where, "the children's class counts exceed the node's")
            node.surrogates, node.majority = self.surrogates(t, obj, where)
        elif total != counts.tolist():
            self.fail(where, "the children's class counts do not add up to the node's")
        return node
