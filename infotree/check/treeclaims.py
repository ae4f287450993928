"""Tree claims: ``root``, ``split(path)``, ``leaf(path)``, a region, and a whole tree drawn as text, graded
node by node against the expected tree (:mod:`.trees`)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..decimals import decimal_text
from .expected import Expected, binary_choices, complement, cond_text, number_text, split_condition, where
from .grammar import (_CLAIM_NAMES, _Cut, _answer_name, _as_cond, _clip, _cond_text, _cut_item, _inside_parens,
                      _set_item, _show_toks, _split_claim)
from .names import Unreadable as _Unreadable
from .notation import at_region, best_split, region_definition, threshold_claim
from .results import ClaimResult
from .treetext import (ClaimedLeaf, TreeTextError, arrow_lines, is_arrow_line, is_arrow_root, is_tree_line,
                       read_tree)
from .trees import grade_tree



def _where(path) -> str:
    """``outlook = sunny, humidity <= 75`` from (feature, value) or (feature, op, value) steps."""
    return where(tuple(p if len(p) == 3 else _as_cond(*p) for p in path))


def _where_the(path) -> str:
    return f"the node {_where(path)}" if path else "the root"


def _or(names) -> str:
    return " or ".join(names)


def _not_split_on(exp, where: str, feature: str) -> str:
    """``the node outlook = rainy splits on windy, not on humidity`` (or: is a leaf ...)."""
    if exp.feature is None:
        return f"{where} is {exp.leaf_text}, not a split on {feature}"
    return f"{where} {exp.describe()}, not on {feature}"


def _empty_note(exp) -> str:
    return " (no training row reaches it: an empty branch takes its parent's majority class)" if not exp.n else ""


def _count_text(x) -> str:
    q = Fraction(x)
    return str(q.numerator) if q.denominator == 1 else decimal_text(q, 2)


def _decision_text(exp) -> str:
    if exp.feature is None:
        return f"leaf {_or(exp.labels)}: {exp.reason}"
    return f"split on {_or(exp.splits)}: {exp.reason}"


def _branch_of(test, var, val):
    """The branch (index) of split ``test`` that the path step (var, val) names, or None."""
    cond = _as_cond(var, val)
    _, op, v = cond
    if getattr(test, "threshold", None) is not None:
        if op in ("<=", ">") and v == test.threshold:
            return 0 if op == "<=" else 1
        return None
    if hasattr(test, "left"):  # CART's subset
        left, right = test.left_values, test.right_values
        if op in ("in", "not in") and tuple(v) in (left, right):
            return (0 if tuple(v) == left else 1) if op == "in" else (1 if tuple(v) == left else 0)
        return None
    if op == "=" and v in test.values:
        return test.values.index(v)
    return None


def _test_of(candidate, j):
    """The split a C4.5/ID3 candidate record stands for."""
    from ..splits import NominalSplit, ThresholdSplit

    if candidate.threshold is not None:
        return ThresholdSplit(j, candidate.threshold)
    return NominalSplit(j, candidate.values)


class TreeClaims:
    """The checker's tree claims (a mixin of the checker)."""

    def node_of_tree(self, path, root=None):
        """(the node at ``path`` of the expected tree, or of the tree below ``root``; None) or (the last node the
        path reaches, why the tree has no such node). A CART step names the child whose rows it selects."""
        node, conds = self.grower.tree.root if root is None else root, ()
        for i, (var, val) in enumerate(path):
            cond = _as_cond(var, val)
            b = None
            if node.split is not None and self.grower.binary:
                b = self.grower.side_named(conds, node.test, node.split_feature, cond)
            elif node.split is not None and node.split_feature == var:
                b = _branch_of(node.test, var, val)
            if b is None:
                here = _where_the(path[:i])
                did = "is a leaf" if node.split is None else f"splits on {node.split_feature}"
                return node, f"the tree has no node {_where(path)}: {here} {did}, not on {_cond_text(var, val)}"
            if self.grower.binary:
                conds += (split_condition(node.test, b, node.split_feature),)
            node = node.children[b]
        return node, None

    # -- trees: one node at a time --
    def expected_at(self, path):
        """The expected node at ``path`` [(feature, value), ...], or a message naming where the path leaves
        the tree.  Below a feature tied exactly with the builder's, the nodes are those that choice grows."""
        exp = self.grower.root()
        for i, (f, v) in enumerate(path):
            if self.grower.binary:
                exp, problem = self.binary_step(exp, path, i)
                if exp is None:
                    return None, problem
                continue
            if isinstance(v, _Cut):
                if f == exp.feature and exp.threshold == v.t:
                    exp = exp.child((v.op, ""))
                    continue
                if f in exp.splits and f != exp.feature and self.grower.can_carry() and (
                        grown := self.grower.grown_at(exp.conds + ((f, v.op, v.t),), exp.labels)) is not None:
                    exp = grown
                    continue
                at = "" if f != exp.feature else f" at {number_text(exp.threshold)}"
                return None, (f"the tree has no node {_where(path)}: {_where_the(path[:i])} "
                              f"{exp.describe() if f != exp.feature else f'cuts {f}' + at}, not {f} {v}")
            if f == exp.feature and exp.threshold is None:
                exp = exp.child(("=", v))
            elif f in exp.splits and exp.threshold is None and self.grower.can_carry() and (
                    grown := self.grower.grown_at(exp.conds + ((f, "=", v),), exp.labels)) is not None:
                exp = grown
            else:
                return None, (f"the tree has no node {_where(path)}: "
                              f"{_not_split_on(exp, _where_the(path[:i]), f)}")
        return exp, None

    def leaf_label(self, text, where):
        """A leaf's class as in the data (any case), or a regression leaf's mean as written (a number)."""
        if not self.regression:
            return self.names.label(text)
        try:
            Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise _Unreadable(f"{where + ': ' if where else ''}a regression leaf predicts a number (its mean), "
                              f"not {_clip(text, 20)!r}") from None
        return text

    def binary_step(self, exp, path, i):
        """CART: the node one step down ``path[i]``: the builder's child whose rows the condition
        selects, else (carry-forward) the tree grown on those rows."""
        g = self.grower
        cond = _as_cond(*path[i])
        if cond[1] == "=":  # CART: a value is the subset of that value
            cond = (cond[0], "in", (cond[2],))
        rows = g.mask(exp.conds)
        chosen = rows & g.side_mask(*cond)
        if exp.feature is not None:
            for b in (0, 1):
                side = split_condition(exp.node.test, b, exp.feature)
                if np.array_equal(chosen, rows & g.side_mask(*side)):
                    child = exp.child(("side", b))
                    return Expected(g, exp.conds + (cond,), child.node, child.parent_labels, child.forced), None
        if g.can_carry() and chosen.any() and not np.array_equal(chosen, rows):
            # the student's split forced here: the builder's tree below it, under rpart's cp rule
            forced = dict(exp.forced)
            forced[rows.tobytes()] = (cond[0], (cond, complement(cond)))
            view = g.forced(forced, rows)
            if view is not None:
                below = view.kept if view.kept is not None else view.children
                return Expected(g, exp.conds + (cond,), below[0], exp.labels, forced), None
        here = _where_the(path[:i])
        return None, (f"the tree has no node {_where(path)}: {here} "
                      f"{exp.describe() if exp.feature is not None else 'is ' + exp.leaf_text}"
                      f", not {_cond_text(*path[i])}")

    def binary_answer(self, exp, answer, where):
        """CART's ``root = Start < 8.5`` or ``= Start``: (verdict, message, acceptable splits as text)."""
        toks, _ = _split_claim(answer, split=False)
        choices = binary_choices(exp)
        shown = tuple(cond_text(split_condition(t, 0, f)) for f, t in choices)
        if len(toks) == 1 and toks[0].kind == "w":
            feature = self.names.feature(toks[0].text)
            if any(f == feature for f, _ in choices):
                return "right", "", shown
            return "wrong", _not_split_on(exp, where, feature), shown
        f, v = self.cut(toks)
        g = self.grower
        rows = g.mask(exp.conds)
        chosen = rows & g.side_mask(*_as_cond(f, v))
        for k, (feature, test) in enumerate(choices):
            if feature == f and any(np.array_equal(chosen, rows & g.side_mask(*split_condition(test, b, feature)))
                                    for b in (0, 1)):
                note = "" if not k else (f"{f} {v} decreases the impurity exactly as much as the builder's "
                                         f"{shown[0]}; both are right")
                return "right", note, shown
        return "wrong", _not_split_on(exp, where, _cond_text(f, v)), shown

    def check_tree_claim(self, number, body, kind, toks, answer) -> ClaimResult:
        if kind == "root":
            if len(toks) != 1:
                raise _Unreadable(f"unexpected {_show_toks(toks[1:])} after 'root'; write root = outlook")
            path = ()
        else:
            path = self.path(_inside_parens(toks, toks[0].text), toks[0].text)
        if self.grower.binary and kind != "leaf":
            exp, problem = self.expected_at(path)
            if exp is None:
                return ClaimResult(number, body, kind, "wrong", answer=answer, message=problem)
            verdict, msg, shown = self.binary_answer(exp, _answer_name(answer, kind), _where_the(path))
            return ClaimResult(number, body, kind, verdict, answer=answer, answer_value=answer.strip(),
                               expected=shown, message=msg, explanation=tuple(self.node_lines(exp)))
        name = _answer_name(answer, kind)
        cut = None
        if kind != "leaf":
            parts, _ = _split_claim(name, split=False)
            if _cut_item(parts) or _set_item(parts):  # root = humidity <= 75: C4.5's cut (a set: CART's)
                name, cut = self.cut(parts, tree=True)
        name = self.leaf_label(name, "") if kind == "leaf" else self.names.feature(name)
        exp, problem = self.expected_at(path)
        if exp is None:
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, message=problem)
        where = _where_the(path)
        expl = tuple(self.node_lines(exp))
        if kind == "leaf":
            expected = exp.labels if exp.feature is None else ()
            if exp.feature is None and exp.has_label(name):
                return ClaimResult(number, body, kind, "right", answer=answer, answer_value=name,
                                   expected=expected, explanation=expl)
            if exp.feature is None:
                msg = f"{where} is {exp.leaf_text}, not {name}{_empty_note(exp)}"
            else:
                msg = f"{where} is not a leaf: it {exp.describe()}"
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=expected,
                               message=msg, explanation=expl)
        if cut is not None and name == exp.feature and cut.t != exp.threshold:
            return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=exp.splits,
                               message=f"{where} {exp.describe()}, not at {cut}", explanation=expl)
        if name in exp.splits:
            msg = "" if name == exp.feature else (f"{name} ties exactly with {exp.feature}, which the builder "
                                                  f"takes (first in column order); both are right")
            return ClaimResult(number, body, kind, "right", answer=answer, answer_value=name, expected=exp.splits,
                               message=msg, explanation=expl)
        return ClaimResult(number, body, kind, "wrong", answer=answer, answer_value=name, expected=exp.splits,
                           message=_not_split_on(exp, where, name), explanation=expl)

    def node_lines(self, exp) -> list[str]:
        """The candidate measures at a node and its decision, for --explain."""
        classes = self.names.domain[self.data.target]
        node = exp.node
        counts = [0] * len(classes) if node is None else node.class_counts.tolist()
        if self.regression and node is not None and exp.n:
            lines = [f"{_where_the(exp.conds)}: n = {_count_text(exp.n)}, mean {number_text(node.mean)}, "
                     f"SSE {number_text(node.risk)}"]
        else:
            lines = [f"{_where_the(exp.conds)}: n = {_count_text(exp.n)} "
                     f"({', '.join(f'{c} {_count_text(k)}' for c, k in zip(classes, counts))})"]
        if node is not None and exp.n:
            digits = self.digits
            for c in node.candidates():
                if self.grower.binary:
                    lines.append(f"  {cond_text(split_condition(c.split, 0, c.feature))}: decrease "
                                 f"{decimal_text(c.decrease, digits)}, improvement {decimal_text(c.improvement, digits)}")
                    continue
                parts = [f"IG({c.feature}) = {decimal_text(c.gain, digits)}"]
                if self.criterion.ratio:
                    gr = c.gain_ratio
                    parts.append(f"SplitInfo({c.feature}) = {decimal_text(c.split_info, digits)}")
                    parts.append(f"GR({c.feature}) = {'undefined' if gr is None else decimal_text(gr, digits)}")
                lines.append("  " + ", ".join(parts))
        lines.append(f"decision: {_decision_text(exp)}")
        return lines

    # -- trees: a whole tree --
    def is_tree_part(self, body, block, lines, number) -> bool:
        """Whether a line belongs to a tree block: a tree line (``|``, ``feature = value: class``, J48's,
        rpart's, arrows) that no claim form reads, or ``age?`` opening a tree drawn with arrows."""
        if self.is_claim_form(body):
            return False
        if is_arrow_line(body):
            return True
        if is_arrow_root(body) and not block:
            following = next((ln.strip() for ln in lines[number:number + 20] if ln.strip()), "")
            return is_arrow_line(following)
        return is_tree_line(body, _CLAIM_NAMES)

    def is_claim_form(self, body) -> bool:
        """Whether a line is one of the claim forms that look like tree lines (regions, prose, the
        cost-complexity and forest families)."""
        return bool(region_definition(body) or at_region(body) or threshold_claim(body) or best_split(body)
                    or self.family(body) is not None)

    def check_block(self, block) -> list:
        """A tree block's result; when the block is no tree, each of its lines on its own (one line, one
        verdict: an unreadable line never hides its neighbours)."""
        try:
            read_tree(arrow_lines(block) if any(is_arrow_line(b) for _, _, b in block) else block)
        except TreeTextError as e:
            problem = str(e)
        else:
            return [self.check_tree_block(block)]   # a tree: graded node by node, names resolved there
        if len(block) == 1:
            return [ClaimResult(block[0][0], block[0][2], "tree", "unreadable", message=problem)]
        out = []
        for number, _, body in block:
            r = self.check_line(number, body)
            if r.verdict == "unreadable":
                why = problem if problem.startswith(f"line {number}:") else \
                    f"not a claim, and the tree around it cannot be read ({problem})"
                r = ClaimResult(number, body, "tree", "unreadable", message=why)
            out.append(r)
        return out

    def check_tree_block(self, block) -> ClaimResult:
        first, last = block[0][0], block[-1][0]
        text = "\n".join(b for _, _, b in block)
        try:
            if any(is_arrow_line(b) for _, _, b in block):
                block = arrow_lines(block)
            claimed = read_tree(block)
            self.resolve_tree(claimed)
        except (TreeTextError, _Unreadable) as e:
            return ClaimResult(first, text, "tree", "unreadable", last_line=last, message=str(e))
        nodes = tuple(grade_tree(self.grower, claimed, self.names))
        expected = self.tree_text()
        expl = tuple(["the tree grown with the builder's tie-breaks:"] + ["  " + s for s in expected.split("\n")])
        wrong = [v for v in nodes if v.verdict == "wrong"]
        ungraded = [v for v in nodes if v.verdict == "ungraded"]
        if not wrong and not ungraded:
            return ClaimResult(first, text, "tree", "right", last_line=last, answer=text, expected=expected,
                               explanation=expl, nodes=nodes)
        msgs = [f"line {v.line}: {v.message}" if not v.message.startswith("branch ") else v.message for v in wrong]
        msg = "; ".join(msgs[:5]) + (f"; and {len(msgs) - 5} more" if len(msgs) > 5 else "")
        graded = [v for v in nodes if v.verdict != "ungraded"]
        right = sum(v.verdict == "right" for v in graded)
        carried = sum(v.carried for v in graded)
        tally = f"{right} of {len(graded)} nodes right"
        if carried:
            tally += f" ({carried} graded against the tree grown from your own earlier choice)"
        if ungraded:
            tally += f"; {len(ungraded)} not graded ({ungraded[0].message[len('not graded: '):]})"
        verdict = "wrong" if wrong else "unreadable"
        return ClaimResult(first, text, "tree", verdict, last_line=last, answer=text, expected=expected,
                           message=f"{msg}; {tally}" if msg else tally, explanation=expl, nodes=nodes)

    def resolve_tree(self, claimed):
        """Names as in the data (any case); numeric tests on numeric features with numbers; under CART
        every branch key becomes its condition (op, threshold or values in domain order)."""
        if isinstance(claimed, ClaimedLeaf):
            claimed.label = self.leaf_label(claimed.label, f"line {claimed.number}")
            return
        claimed.feature = f = self.names.feature(claimed.feature)
        numeric = self.names.kinds[f] == "numeric"
        cart = self.grower.binary
        where = f"line {claimed.number}"
        ops = {k[0] for k in claimed.branches}
        if claimed.threshold is not None:
            if not numeric:
                raise _Unreadable(f"{where}: {f} is nominal; test it with " +
                                  ("'in {a, b}'" if cart else "'=', not '<=' or '>'"))
            try:
                t = Fraction(claimed.threshold)
            except (ValueError, ZeroDivisionError):
                raise _Unreadable(f"{where}: threshold {_clip(claimed.threshold, 20)!r} of {f} is "
                                  f"not a number") from None
            if not cart and ops - {"<=", ">"}:
                raise _Unreadable(f"{where}: '{f} {sorted(ops - {'<=', '>'})[0]} {claimed.threshold}': a numeric "
                                  f"branch is written '<= t' or '> t' (as C4.5 and J48 print it; '<' and '>=' "
                                  f"are rpart's: check with --algorithm cart)")
        elif numeric:
            raise _Unreadable(f"{where}: {f} is numeric; its branches are '{f} <= t' and '{f} > t'")
        elif not cart and ops - {"="}:
            raise _Unreadable(f"{where}: '{f} in {{...}}' is CART's subset split; check with --algorithm cart")
        branches = {}
        for (op, value), child in claimed.branches.items():
            if not cart:
                key = (op, self.names.value(f, value) if op == "=" else "")
            elif op in ("<=", ">", "<", ">="):
                key = (op, t)
            else:  # a value or a set of values: CART's subset, values in domain order
                chosen = {self.names.value(f, v) for v in ((value,) if op == "=" else value)}
                key = ("not in" if op == "not in" else "in", tuple(v for v in self.domain[f] if v in chosen))
            if key in branches:
                raise _Unreadable(f"{where}: two branches of {f} test {_cond_text(f, key[1]) if key[0] == '=' else cond_text((f, *key))}")
            branches[key] = child
            self.resolve_tree(child)
        claimed.branches = branches

    def tree_text(self) -> str:
        if self._tree_text is None:
            from ..printers.lines import tree_lines

            self._tree_text = "\n".join("|  " * depth + line for _, depth, line in tree_lines(self.grower.tree))
        return self._tree_text
