"""Measure claims: the left-hand side of ``H(play | outlook = sunny) = 0.971`` and its textbook forms
(``Entropy(S_sunny)``, ``Gain(S, outlook)``, ``Info_age(D)``, Han's ``I(9,5)``, CART's ``ΔGini(Age <= 55)``,
rpart's improvement, ISLR's ``RSS(Years < 4.5)``) read into a :class:`~.grammar._Measure`, and the claim
graded: its exact value (:mod:`.values`), the number judged (:mod:`.judging`), a wrong one diagnosed
(:mod:`.diagnosis`)."""

from __future__ import annotations

from ..decimals import decimal_text
from ..printers.numbers import approx
from .answers import read_answer
from .diagnosis import diagnose
from .grammar import (_IMPURITY, _KIND, _SAMPLE, _UNDEFINED, _Cut, _Known, _Measure, _Subset, _Tok, _canonical,


                      _chain, _claim_kind, _clip, _cond_text, _cut_item, _inside_parens, _measure_head, _norm_name,
                      _set_item, _show_toks, _split_claim, _split_on)
from .names import Unreadable as _Unreadable
from .results import ClaimResult, _Undefined
from .values import _exact_text, _simplify, _steps_lines


class MeasureClaims:
    """The checker's measure claims (a mixin of the checker)."""

    def lhs_measure(self, text) -> _Measure:
        toks, _ = _split_claim(text.strip(), split=False)
        kind = _claim_kind(toks)
        if kind in ("root", "split", "leaf"):
            raise _Unreadable(f"{_clip(text.strip(), 30)!r} is not a measure; expected H(...), IG(...), GR(...)")
        return self.parse_measure(toks)

    def check_special(self, number, body, m) -> ClaimResult:
        """``IG(a) = IG(b) exactly (each 0.0200)`` and ``GR(a): undefined (split info 0)``."""
        if m.re is _UNDEFINED:
            measure = self.lhs_measure(m.group(1))
            quantity = _canonical(measure)
            try:
                value = _simplify(self.evaluate(measure, None, quantity)[0])
            except _Undefined as e:
                return ClaimResult(number, body, _KIND[measure.name], "right", answer="undefined",
                                   quantity=quantity, explanation=(str(e),))
            return ClaimResult(number, body, _KIND[measure.name], "wrong", answer="undefined", expected=value,
                               expected_decimal=decimal_text(value, self.digits), quantity=quantity,
                               message=f"{quantity} is defined: it is {decimal_text(value, self.digits)}")
        measures = [self.lhs_measure(part) for part in _chain(m.group(1))]
        values = []
        for measure in measures:
            q = _canonical(measure)
            values.append((q, _simplify(self.evaluate(measure, None, q)[0])))
        answer = read_answer(m.group(2), log=self.log)
        (q0, v0), kind = values[0], _KIND[measures[0].name]
        differ = [(q, v) for q, v in values[1:] if v != v0]
        if differ:
            q, v = differ[0]
            return ClaimResult(number, body, kind, "wrong", answer=answer.text, expected=v0, quantity=q0,
                               expected_decimal=decimal_text(v0, self.digits),
                               message=f"not equal: {q0} = {decimal_text(v0, self.digits)}, "
                                       f"{q} = {decimal_text(v, self.digits)}")
        verdict, message = self.judge(v0, answer)
        return ClaimResult(number, body, kind, verdict, answer=answer.text, answer_value=answer.value, expected=v0,
                           expected_decimal=decimal_text(v0, max(self.digits, answer.decimals)), quantity=q0,
                           message=message)

    def check_measure(self, number, body, m: _Measure, answer_text) -> ClaimResult:
        kind = _KIND[m.name]
        target = self.data.target
        mentioned = [v for v in tuple(m.left) + tuple(m.given) + ((m.split_on,) if m.split_on else ())
                     if isinstance(v, str) and v != target]
        if len(mentioned) == 1:
            self.last_feature = mentioned[0]
        quantity = _canonical(m)
        value, steps, before, parts = self.evaluate(m, None, quantity)
        value = _simplify(value)
        answer, verdict, message = self.judge_chain(value, answer_text, parts)
        expected_decimal = decimal_text(value, max(self.digits, answer.decimals))
        explanation = before + _steps_lines(quantity, steps + [_exact_text(value), approx(value, self.digits).text])
        try:
            diagnosis = diagnose(self, m, value, answer) if verdict == "wrong" else None
        except _Unreadable:  # a mistake computed from the rows of a numeric or incomplete column
            diagnosis = None
        if verdict == "wrong":
            message = self.c45_gain_note(m, answer) or message
        return ClaimResult(number, body, kind, verdict, answer=answer.text, answer_value=answer.value,
                           expected=value, expected_decimal=expected_decimal, message=message,
                           explanation=tuple(explanation), quantity=quantity, diagnosis=diagnosis)

    def parse_measure(self, toks) -> _Measure:
        head = toks[0].text
        name, sub = _measure_head(head)
        if name in ("Mean", "SSE") and len(toks) == 1:  # "mean ȳ = 1870/10", "ȳ = 187", "RSS = Σ(y - ȳ)² = 548.4"
            return _Measure(name, (self.data.target,), (), self.in_context(()))
        inner = _inside_parens(toks, head)
        counts = self.class_counts_claim(name, inner)
        if counts is not None:   # Han's I(9,5), Mitchell's Entropy([9+, 5-]) written as counts
            return _Measure("Gini" if name == "Gini" else "ME" if name == "ME" else "H", (), (), (), counts=counts)
        known = sub is not None and sub.lower() == "known" and name == "H"
        lookahead = sub is not None and sub.lower() == "lookahead" and name in ("IG", "GR", "Decrease", "GiniGain")
        if known or lookahead:
            sub = None
        bars = [i for i, t in enumerate(inner) if t.kind == "p" and t.text == "|"]
        if len(bars) > 1:
            raise _Unreadable(f"more than one '|' in {head}(...); write {head}(variables | conditions)")
        left = inner[:bars[0]] if bars else inner
        right = inner[bars[0] + 1:] if bars else []
        if bars and not right:
            raise _Unreadable(f"nothing after '|' in {head}(...); write conditions such as outlook or outlook = sunny")
        right, split_on = self.split_on_item(right)
        given, fixed = self.conditions(right)
        if lookahead:
            names = self.var_names(left, head)
            if len(names) != 1 or names[0] == self.data.target or given:
                raise _Unreadable(f"{head}(...) takes one feature and the node's path: {head}(outlook | outlook = "
                                  f"sunny)")
            kind = "Decrease" if name in ("Decrease", "GiniGain") else name
            return _Measure(kind, names, (), self.in_context(fixed), lookahead=True,
                            impurity="lookahead" if kind == "Decrease" else None)
        if name in ("Decrease", "Improvement") or (name == "GiniGain" and self.grower.binary):
            return self.decrease_measure(head, name, left, given, fixed)
        if known:
            if self.last_feature is None:
                raise _Unreadable(f"{head}(...) is the entropy on the rows where a feature is known; write it after "
                                  f"a claim about that feature, as infotree's worked solution does")
            names = self.var_names(left, head)
            return _Measure("H", names, given, self.in_context(fixed), known=True)
        if split_on is not None:
            shown = split_on if isinstance(split_on, str) else _cond_text(*split_on)
            if name not in _IMPURITY or (not self.grower.binary and isinstance(split_on, str)):
                raise _Unreadable(f"'split on {shown}' is CART's binary split: write Gini(target | split on A) "
                                  f"with --algorithm cart")
            node, rest = self.sample_node(_split_on(left, ","), head)
            if node is not None and not rest:   # Han: Gini_{income in {low, medium}}(D), the split of D
                left_names, fixed = (self.data.target,), tuple(node) + tuple(fixed)
            else:
                left_names = self.var_names(left, head)
            if isinstance(split_on, str):
                return _Measure(name, left_names, given, self.in_context(fixed), split_on=split_on)
            return _Measure(name, left_names, given, self.in_context(fixed), split_on=split_on[0], split=split_on)
        if _norm_name(head) in ("rss", "residualsumofsquares") and (_cut_item(left) or _set_item(left)):
            # ISLR: RSS(Years < 4.5) is the RSS of the two regions that split makes
            f, v = self.cut(left)
            return _Measure("SSE", (self.data.target,), given, self.in_context(fixed), split_on=f, split=(f, v))
        node, rest = self.sample_node(_split_on(left, ","), head) if name != "I" else (None, None)
        if node is not None:
            return self.textbook_measure(head, name, sub, node, rest, given, fixed)
        if sub is not None:
            raise _Unreadable(f"{head}(...) names the attribute {sub!r} as a subscript; the subscript form is "
                              f"{head}(D) or {head}(S_sunny), with the data set (a node) in the parentheses")
        if name == "I":
            groups = _split_on(left, ";")
            if len(groups) == 1:
                names = self.var_names(groups[0], head)
                if len(names) != 2:
                    raise _Unreadable(f"{head}(...) needs two variables: I(A; B) or I(A, B), found {len(names)}")
                sides = ((names[0],), (names[1],))
            elif len(groups) == 2:
                sides = (self.var_names(groups[0], head), self.var_names(groups[1], head))
            else:
                raise _Unreadable(f"more than one ';' in {head}(...); write I(A; B) or I(A; B | C)")
            return _Measure(name, sides, given, fixed)
        if any(t.kind == "p" and t.text == ";" for t in left):
            raise _Unreadable(f"';' in {head}(...); a ';' separates the two sides of I(A; B)")
        names = self.var_names(left, head)
        target = self.data.target
        if name not in _IMPURITY and len(names) != 1:
            raise _Unreadable(f"{head}(...) takes one attribute, found {len(names)}: "
                              f"write {head}(outlook) or {head}(outlook | conditions)")
        if name == "IG" and names == (target,) and given:
            # IG(Y | X) = H(Y) - H(Y | X): the gain of X, in Andrew Moore's notation and the courses that use it
            return _Measure("I", ((target,), tuple(given)), (), self.in_context(fixed))
        if name == "GR" and names == (target,) and given:
            # GR(play | outlook) is literally a ratio about play given outlook: almost surely GR(outlook).
            x = ", ".join(given)
            raise _Unreadable(f"{head}({target} | {x}) reads as the gain of {target} given {x}, which is 0; "
                              f"did you mean {head}({x}) = I({target}; {x})?")
        return _Measure(name, names, given, self.in_context(fixed))

    def class_counts_claim(self, name, inner):
        """The counts of ``I(9,5)``, ``H(9, 5)``, ``Gini(9,5)``: every argument a whole number that names no
        variable; None otherwise."""
        if name not in ("I", "H", "Gini", "ME") or not inner:
            return None
        items = _split_on(inner, ",")
        if len(items) < 2 or any(len(i) != 1 or i[0].kind != "w" or not i[0].text.isdigit() for i in items):
            return None
        if any(self.names.find_variable(i[0].text) is not None for i in items):
            return None
        counts = tuple(int(i[0].text) for i in items)
        if not any(counts) or len(counts) > 1000 or max(counts) > 10 ** 12:
            raise _Unreadable(f"{name}({', '.join(map(str, counts))}): give class counts, at least one positive "
                              f"and each at most 10^12")
        return counts

    def in_context(self, fixed):
        """The conditions of a claim below an ``At path:`` line of infotree's solution: the path first."""
        if self.context_error and not fixed:   # a claim that names its own node is graded there
            raise _Unreadable(self.context_error)
        ctx = self.context
        return fixed if not ctx or tuple(fixed[:len(ctx)]) == ctx else ctx + tuple(fixed)

    def split_on_item(self, inner):
        """The tokens without a ``split on A`` condition, and A (or None); a split written out
        (``split on income in {low, medium}``, ``split on Years < 4.5``) gives (A, its condition)."""
        out, found = [], None
        for i, item in enumerate(_split_on(inner, ",")):
            if item and item[0].kind == "w" and item[0].text.lower().startswith("split on "):
                rest = item[0].text[len("split on "):].strip()
                if len(item) == 1 and " in" not in f" {rest}":
                    found = self.names.feature(rest)
                else:
                    found = self.cut([_Tok("w", rest, item[0].pos)] + item[1:])
                continue
            if out:
                out.append(_Tok("p", ",", item[0].pos if item else 0))
            out.extend(item)
        return (out if found is not None else inner), found

    def sample_node(self, items, head):
        """The node of a textbook claim and the items after it: ``S``, ``D``, ``S_sunny``, ``D_youth`` (a
        data set, or its rows with a value) or ``outlook = sunny, ...`` (a path); (None, None) otherwise."""
        if not items or not items[0]:
            return None, None
        first = items[0]
        if len(first) == 1 and first[0].kind == "w" and self.names.find_variable(first[0].text) is None:
            m = _SAMPLE.fullmatch(first[0].text)
            if m:
                return self.subscript_path(m.group(1) or "", first[0].text), items[1:]
            return None, None
        path = []
        for i, item in enumerate(items):
            step = self.step(item)
            if step is None:
                break
            path.append(step)
        else:
            i = len(items)
        return (tuple(path), items[i:]) if path else (None, None)

    def subscript_path(self, sub: str, symbol: str) -> tuple:
        """``sunny`` → ((outlook, sunny),); ``sunny_high`` → two steps; a value of two features is a question."""
        if not sub:
            return ()
        parts = [sub] if self.value_owners(sub) else sub.split("_")
        path = []
        for v in parts:
            owners = self.value_owners(v)
            if not owners:
                raise _Unreadable(f"{symbol}: no feature has the value {v!r}; write the node as a path, e.g. "
                                  f"H({self.data.target} | feature = value)")
            if len(owners) > 1:
                opts = " or ".join(f"{f} = {x}" for f, x in owners)
                raise _Unreadable(f"{symbol}: {v!r} is a value of {len(owners)} features; did you mean {opts}?")
            path.append(owners[0])
        return tuple(path)

    def value_owners(self, v: str):
        out = []
        for f in self.data.features:
            if self.names.kinds[f] != "nominal":
                continue
            try:
                out.append((f, self.names.value(f, v)))
            except _Unreadable:
                pass
        return out

    def textbook_measure(self, head, name, sub, node, rest, given, fixed) -> _Measure:
        """Entropy(S) = H(target) at S; Info_A(D) = H(target | A) at D; Gain(S, A) = IG(A) at S; ..."""
        fixed = tuple(node) + tuple(fixed)
        seen = [f for f, v in fixed if not isinstance(v, _Cut)]   # a numeric feature may be cut twice
        if len(set(seen)) < len(seen):
            raise _Unreadable(f"a feature is fixed twice in {head}(...); a node fixes each feature once")
        target = self.data.target
        attrs = [self.names.feature(sub)] if sub is not None else []
        for item in rest:
            if len(item) == 1 and item[0].kind == "w":
                attrs.append(self.names.feature(item[0].text))
            elif (_cut_item(item) or _set_item(item)) and name in ("IG", "GR", "SplitInfo"):
                attrs.append(self.cut(item))
            else:
                raise _Unreadable(f"cannot read {_show_toks(item) if item else 'an empty part'} in {head}(...); "
                                  f"expected an attribute, as in Gain(S, outlook)")
        if len(attrs) > 1:
            raise _Unreadable(f"{head}(...) names {len(attrs)} attributes ({', '.join(attrs)}); it takes one")
        if name in _IMPURITY:
            if given:
                raise _Unreadable(f"{head}(S | ...) is not a textbook form; write {name}({target} | conditions)")
            if attrs and self.grower.binary and name in ("Gini", "ME"):
                # CART (Han's Gini_income(D)): the impurity of A's best binary split, not of its values
                return _Measure(name, (target,), (), fixed, split_on=attrs[0])
            # Entropy(S); Info_A(D) = H(target | A); Gini(S, A) = Gini(target | A)
            return _Measure(name, (target,), tuple(attrs), fixed)
        if isinstance(attrs[0] if attrs else None, tuple):   # Gain(S, hours <= 4.5): the gain of that cut
            f, v = attrs[0]
            return _Measure(name, (f,), tuple(given), fixed, split=(f, v))
        if not attrs and fixed and isinstance(fixed[-1][1], (_Cut, _Subset)) and name in ("IG", "GR", "SplitInfo"):
            f, v = fixed[-1]   # Gain(hours <= 11.5): a gain is of a split, so the condition is the split
            return _Measure(name, (f,), tuple(given), fixed[:-1], split=(f, v))
        if not attrs:
            raise _Unreadable(f"{head}(...) needs an attribute: {head}(S, outlook) or {head}(outlook)")
        return _Measure(name, (attrs[0],), tuple(given), fixed)

    def var_names(self, toks, head) -> tuple:
        items = _split_on(toks, ",")
        out = []
        for item in items:
            if len(item) == 1 and item[0].kind == "w":
                out.append(self.variable(item[0]))
            elif not item:
                raise _Unreadable(f"a variable is missing in {head}(...); variables are: {', '.join(self.variables)}")
            elif any(t.kind == "p" and t.text == "=" for t in item):
                raise _Unreadable(f"'=' before '|' in {head}(...); a value is a condition: "
                                  f"{head}(play | outlook = sunny)")
            else:
                raise _Unreadable(f"unexpected {_show_toks(item)} in {head}(...); expected a variable name")
        return tuple(out)

    def conditions(self, toks):
        given, fixed = [], []
        if not toks:
            return (), ()
        for item in _split_on(toks, ","):
            if len(item) == 1 and item[0].kind == "w" and item[0].text.endswith(" known") and \
                    self.names.find_variable(item[0].text) is None:
                fixed.append((self.names.feature(item[0].text[:-len(" known")].strip()), _Known()))
            elif len(item) == 1 and item[0].kind == "w":
                given.append(self.variable(item[0]))
            elif (step := self.step(item, target=True)) is not None:
                fixed.append(step)
            elif not item:
                raise _Unreadable("a condition is missing after ','; write conditions such as outlook, humidity = high")
            else:
                raise _Unreadable(f"cannot read the condition {_show_toks(item)}; write a variable (outlook) "
                                  f"or variable = value (outlook = sunny)")
        return tuple(given), tuple(fixed)
