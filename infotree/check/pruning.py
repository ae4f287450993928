"""Claims about cost-complexity pruning (docs/cost_complexity.md), as the worked example writes them.

``alpha(PATH) = 1/2`` or ``g(PATH)``: the weakest-link alpha (R(t) - R(T_t))/(|leaves(T_t)| - 1) of the
internal node at PATH in the grown tree T0; ``R(PATH)``, ``R(T_{PATH})``: its risk as a leaf and its
branch's risk; ``R(T_k)``: the risk of the sequence's k-th tree; ``alpha_k``, ``alphas = a, b, ...``: the
sequence's alphas; ``CP(nsplit = 2)``, ``CP(row 3)``, ``rel error(...)``: a cp table row; ``weakest link
= PATH`` (``weakest link_k``); the worked example's line ``PATH  R(t) = 3, R(T_t) = 1, leaves 2: alpha =
...``.  ``t`` is the node of a ``Node: PATH`` line.  T0 is grown with the check's own tree options, before
any pruning, exactly as ``infotree cptable`` grows it.  :class:`CpTableText` reads ``cptable``'s output.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..errors import InfotreeError
from ..decimals import decimal_text
from .answers import read_answer
from .names import Unreadable
from .expected import split_condition, where

__all__ = ["CpTableText", "PruningClaims", "first_match"]

_NUMBER = r"\s*=\s*(?P<answer>.+)"
_FORMS = [
    # the worked example's line: "colour in {green, blue}   R(t) = 3, R(T_t) = 0, leaves 4: alpha = (3 - 0)/(4 - 1) = 1"
    ("link_row", re.compile(r"(?P<path>.+?)\s+R\(t\)\s*=\s*(?P<r>[^,]+),\s*R\(T_t\)\s*=\s*(?P<b>[^,]+),\s*"
                            r"leaves\s+(?P<n>\d+):\s*(?:alpha|α|g\(t\))" + _NUMBER, re.IGNORECASE)),
    ("alphas", re.compile(r"(?:alphas|α's|alpha's)" + _NUMBER, re.IGNORECASE)),
    ("alpha_k", re.compile(r"(?:alpha|α)_\{?(?P<k>\d+)\}?" + _NUMBER, re.IGNORECASE)),
    ("alpha", re.compile(r"(?:alpha|α|g)\s*\((?P<path>[^()]*)\)" + _NUMBER, re.IGNORECASE)),
    ("tree_risk", re.compile(r"R\s*\(\s*T_?\{?(?P<k>\d+)\}?\s*\)" + _NUMBER)),
    ("branch_risk", re.compile(r"R\s*\(\s*T_\{?(?P<path>[^()]*?)\}?\s*\)" + _NUMBER)),
    ("risk", re.compile(r"R\s*\((?P<path>[^()]*)\)" + _NUMBER)),
    ("cp", re.compile(r"(?P<what>CP|rel\s*error)\s*(?:_\{?(?P<k>\d+)\}?|\((?P<row>[^()]*)\))" + _NUMBER, re.IGNORECASE)),
    # a printcp row: "CP = 1/7, nsplit = 2, rel error = 2/7" (nsplit names the row)
    ("cp_line", re.compile(r"CP\s*=\s*[^,=]+(?=.*,\s*nsplit\s*=)(?:,\s*(?:nsplit|rel\s*error)\s*=\s*[^,=]+)+",
                           re.IGNORECASE)),
    ("weakest_link", re.compile(r"weakest[\s-]*link(?:_\{?(?P<k>\d+)\}?)?" + _NUMBER, re.IGNORECASE)),
]


def first_match(forms, body):
    """(kind, match) of the first of ``forms`` [(kind, regex)] that reads the whole line, or None."""
    for kind, form in forms:
        m = form.fullmatch(body.strip())
        if m:
            return kind, m
    return None


def _path_text(node) -> str:
    conds = []
    while node.parent is not None:
        parent = node.parent
        conds.append(split_condition(parent.test, parent.children.index(node), parent.split_feature))
        node = parent
    return where(conds[::-1]) or "root"


class PruningClaims:
    """Grades the claims of this module's grammar for one checker (its names, paths and judge)."""

    def __init__(self, checker, options, cache=None):
        self.checker = checker
        self.options = options
        self.cache = {} if cache is None else cache   # the grown path and cp table, shared by a class's sheets
        self.last_node = None   # the node of the last alpha claim (its diagnosis reads it)

    def match(self, body):
        return first_match(_FORMS, body)

    # -- the grown tree, its weakest-link sequence and cp table, each computed once --
    def path(self):
        if "path" not in self.cache:
            from ..complexity import pruning_path
            from ..growing import build_tree

            opts = {k: v for k, v in self.options.items() if not k.startswith("ccp_") and k not in ("folds", "seed")}
            if not opts["criterion"].binary:
                raise Unreadable("cost-complexity claims are about a CART tree: check with --algorithm cart "
                                 "(and the tree options of 'infotree cptable')")
            opts["prune"] = "none"
            try:
                tree = build_tree(self.checker.data, **opts)
                self.cache["path"] = pruning_path(tree, self.options.get("ccp_risk") or "rpart")
            except InfotreeError as e:
                raise Unreadable(str(e)) from None
        return self.cache["path"]

    def table(self):
        if "table" not in self.cache:
            from ..complexity import cp_table

            if self.path().risk != "rpart":
                raise Unreadable("a cp table is rpart's (risk = misclassified rows); check without --risk impurity")
            try:
                self.cache["table"] = cp_table(self.path().tree, cp=self.options.get("cp") or 0)
            except InfotreeError as e:
                raise Unreadable(str(e)) from None
        return self.cache["table"]

    def node(self, text, head):
        """T0's node at a path (``t``: the node of the last ``Node:`` line; ``root``)."""
        from .grammar import _as_cond, _split_claim

        text = text.strip()
        if text == "t" and self.checker.context_error:
            raise Unreadable(self.checker.context_error)
        fixed = self.checker.context if text == "t" else self.checker.path(_split_claim(text, split=False)[0], head)
        node, problem = self.checker.node_of_tree(fixed, self.path().tree.root)
        if problem is not None:
            raise Unreadable(f"T0 has no node {where(_as_cond(v, c) for v, c in fixed)}: {_path_text(node)} "
                             + ("is a leaf" if node.split is None else f"splits on {node.split_feature}"))
        return node

    def links(self):
        """id(node) -> its weakest-link record (alpha, R(t), R(T_t), leaves) when the sequence cuts it."""
        return {id(link.node): link for step in self.path().steps for link in step.links}

    def step(self, k):
        steps = self.path().steps
        if not 1 <= k <= len(steps):
            raise Unreadable(f"the sequence has steps 1 to {len(steps)}, not {k}")
        return steps[k - 1]

    # -- grading --
    def check(self, number, body, kind, m):
        from .results import ClaimResult

        if kind == "cp_line":
            return self.check_cp_line(number, body, m)
        answer = m.group("answer").strip()
        if kind == "weakest_link":
            return self.check_link(number, body, m, answer)
        if kind == "alphas":
            return self.check_alphas(number, body, answer)
        if kind == "link_row":
            return self.check_row(number, body, m, answer)

        self.last_node = None
        value, quantity, kind, lines = self.value(kind, m)
        if kind != "cp" and kind != "rel_error":
            value = self.scaled(value)
        got, verdict, message = self.checker.judge_chain(value, answer)
        diagnosis = None
        if verdict == "wrong":
            message = self.units_note(value, got) or message
            if kind == "ccp_alpha" and self.last_node is not None:
                diagnosis = self.alpha_mistake(self.last_node, got)
        return ClaimResult(number, body, kind, verdict, answer=got.text, answer_value=got.value, expected=value,
                           expected_decimal=decimal_text(value, max(self.checker.digits, got.decimals)),
                           quantity=quantity, message=message, explanation=tuple(lines), diagnosis=diagnosis)

    def alpha_mistake(self, node, got):
        """The usual weakest-link mistake a wrong alpha matches: |leaves| for |leaves| - 1, or R(T_t) taken
        from another subtree (the whole tree's, or one child's branch)."""
        r, branch, leaves = (self.scaled(x) if i < 2 else x for i, x in enumerate(self.branch(node)))
        tree = self.path().tree
        whole = self.scaled(self.branch(tree.root)[1])
        candidates = [("|leaves(T_t)| in the denominator instead of |leaves(T_t)| - 1: "
                       f"({r} - {branch})/{leaves}", (r - branch) / leaves)]
        if node is not tree.root and leaves > 1:
            candidates.append((f"R(T_t) from the wrong subtree: the whole tree's R(T) = {whole} instead of the "
                               f"branch's {branch}", (r - whole) / (leaves - 1)))
        for child in node.children:
            if child.split is not None:
                _, b, _ = self.branch(child)
                b = self.scaled(b)
                candidates.append((f"R(T_t) from the wrong subtree: the branch of {_path_text(child)} ({b}) instead "
                                   f"of the whole branch of t ({branch})", (r - b) / (leaves - 1)))
        for description, value in candidates:
            if value != (r - branch) / (leaves - 1) and self.checker.judge(value, got)[0] == "right":
                return description
        return None

    def check_row(self, number, body, m, answer):
        """Every number of a line of the worked example's table: R(t), R(T_t), the leaves and alpha."""
        from .results import ClaimResult

        node = self.node(m.group("path"), "the node")
        where_ = _path_text(node)
        if node.split is None:
            raise Unreadable(f"{where_} is a leaf of T0: only internal nodes have an alpha")
        # g(t) is recomputed as the sequence cuts below t (the worked example: 1, then (3 - 1)/(2 - 1) = 2):
        # the line is read in the first tree T_k whose R(T_t) and leaves are the ones written, else in T0
        states = self.states(node)
        written = []
        for text in (m.group("b"), m.group("n")):
            try:
                written.append(read_answer(text, log=self.checker.log).value)
            except Unreadable:
                written.append(None)
        states = [(k, self.scaled(r), self.scaled(b), n) for k, r, b, n in states]
        k, r, branch, leaves = next((st for st in states if [st[2], st[3]] == written), states[0])
        alpha = (r - branch) / (leaves - 1)
        line = f"{where_} in T_{k}: R(t) = {r}, R(T_t) = {branch}, leaves {leaves}: alpha = {alpha}"
        got, verdict, message = self.checker.judge_chain(alpha, answer)
        for name, value, text in (("R(t)", r, m.group("r")), ("R(T_t)", branch, m.group("b")),
                                  ("leaves", leaves, m.group("n"))):
            v, msg = self.checker.judge(value, read_answer(text, log=self.checker.log))
            if v != "right":
                verdict, message = ("wrong" if v == "wrong" else verdict), f"{name}: {msg}"
                break
        return ClaimResult(number, body, "ccp_alpha", verdict, answer=got.text, answer_value=got.value,
                           expected=alpha, expected_decimal=decimal_text(alpha, max(self.checker.digits, got.decimals)),
                           quantity=f"alpha({where_})", message=message, explanation=(line,))

    def value(self, kind, m):
        """(exact value, quantity, JSON kind, explanation) of a numeric claim."""
        path = self.path()
        if kind == "alpha_k":
            s = self.step(int(m.group("k")))
            return s.alpha, f"alpha_{m.group('k')}", "ccp_alpha", [self.link_line(x) for x in s.links]
        if kind == "tree_risk":
            k = int(m.group("k"))
            risk = path.tree_risk if k == 0 else self.step(k).risk
            return risk, f"R(T_{k})", "risk", []
        if kind == "cp":
            return self.cp_row(m)
        node = self.node(m.group("path"), {"alpha": "alpha", "risk": "R", "branch_risk": "R(T_...)"}[kind])
        self.last_node = node
        where_ = _path_text(node)
        if kind == "risk":
            return path_risk(path, node), f"R({where_})", "risk", []
        if node.split is None:
            raise Unreadable(f"{where_} is a leaf of T0: "
                             + ("R(T_t) = R(t) there" if kind == "branch_risk" else "only internal nodes have an alpha"))
        r, branch, leaves = self.branch(node)
        if kind == "branch_risk":
            return branch, f"R(T_{{{where_}}})", "risk", []
        alpha = (r - branch) / (leaves - 1)
        line = f"{where_}: alpha = (R(t) - R(T_t))/(|leaves| - 1) = ({r} - {branch})/({leaves} - 1) = {alpha} in T0"
        return alpha, f"alpha({where_})", "ccp_alpha", [line]

    def states(self, node):
        """[(k, R(t), R(T_t), |leaves(T_t)|)] of an internal node of T0 in each tree T_k of the sequence
        where it is still internal."""
        path, out, cut = self.path(), [], set()
        above = set()
        up = node
        while up is not None:
            above.add(id(up))
            up = up.parent
        for k in range(len(path.steps) + 1):
            if k:
                cut |= {id(link.node) for link in path.steps[k - 1].links}
            if above & cut:
                break
            leaves, stack = [], [node]
            while stack:
                d = stack.pop()
                if d.split is None or id(d) in cut:
                    leaves.append(d)
                else:
                    stack.extend(d.children)
            risk = sum((path_risk(path, d) for d in leaves[1:]), path_risk(path, leaves[0]))
            out.append((k, path_risk(path, node), risk, len(leaves)))
        return out

    def branch(self, node):
        """(R(t), R(T_t), |leaves(T_t)|) of a node of T0, unpruned."""
        path = self.path()
        leaves = [d for d in node.walk() if d.split is None]
        return path_risk(path, node), sum((path_risk(path, d) for d in leaves[1:]), path_risk(path, leaves[0])), \
            len(leaves)

    def link_line(self, link):
        return (f"{_path_text(link.node)}: alpha = ({link.risk} - {link.subtree_risk})/({link.leaves} - 1) = "
                f"{link.alpha}")

    def row_index(self, text):
        """The cp table's row (index) that ``row 3``, ``3`` or ``nsplit = 2`` names."""
        rows = self.table().rows
        spec = re.fullmatch(r"\s*(?:row\s*)?(\d+)\s*|\s*nsplit\s*=\s*(\d+)\s*", text, re.IGNORECASE)
        if spec is None:
            raise Unreadable(f"cannot read {text!r}; name the row as in CP(row 3) or CP(nsplit = 2)")
        if spec.group(1) is not None:
            if not 1 <= int(spec.group(1)) <= len(rows):
                raise Unreadable(f"the cp table has rows 1 to {len(rows)}, not {spec.group(1)}")
            return int(spec.group(1)) - 1
        found = [i for i, r in enumerate(rows) if r.nsplit == int(spec.group(2))]
        if not found:
            raise Unreadable(f"no row of the cp table has nsplit {spec.group(2)}; its rows have nsplit "
                             f"{', '.join(str(r.nsplit) for r in rows)}")
        return found[0]

    def row_line(self, i):
        table = self.table()
        row = table.rows[i]
        return (f"row {i + 1}: CP = alpha / R(root) = {row.alpha}/{table.path.root_risk} = {row.cp}, nsplit "
                f"{row.nsplit}, rel error = R(T)/R(root) = {row.rel_error}")

    def cp_row(self, m):
        i = self.row_index(m.group("k") or m.group("row"))
        row = self.table().rows[i]
        cp = m.group("what").upper() == "CP"
        return (row.cp if cp else row.rel_error), f"{'CP' if cp else 'rel error'}(row {i + 1})", \
            "cp" if cp else "rel_error", [self.row_line(i)]

    def scaled(self, x):
        """A risk or an alpha in the units the course uses: misclassified rows, or Breiman's rates over
        the n rows (R(t) = r(t)·p(t))."""
        return x if self.checker.risk_units == "count" else Fraction(x) / self.rows()

    def rows(self) -> int:
        return len(self.checker.data.y)

    def units_note(self, value, got):
        """The message for an answer that is right in the other risk units, or None."""
        n = self.rows()
        if self.checker.risk_units == "count":
            other, rule = Fraction(value) / n, "rate"
        else:
            other, rule = Fraction(value) * n, "count"
        verdict, _ = self.checker.judge(other, got)
        if verdict != "right":
            return None
        if rule == "rate":
            return (f"your value is Breiman's normalised risk, divided by the n = {n} rows (R(t) = r(t)·p(t)); "
                    f"this sheet is graded in misclassified rows (--risk-units count); --risk-units rate "
                    f"grades rates")
        return (f"your value counts misclassified rows; this sheet is graded in Breiman's rates over the "
                f"n = {n} rows (--risk-units rate), which divide it by {n}")

    def check_cp_line(self, number, body, m):
        """``CP = 1/7, nsplit = 2, rel error = 2/7``: a row of the cp table as printcp shows it."""
        from .results import ClaimResult

        fields = {}
        for part in body.split(","):
            key, _, value = part.partition("=")
            fields[re.sub(r"\s+", " ", key.strip().lower())] = value.strip()
        i = self.row_index(f"nsplit = {fields['nsplit']}")
        row = self.table().rows[i]
        verdict, message, order = "right", "", ("right", "imprecise", "close", "wrong")
        for key, value in (("cp", row.cp), ("rel error", row.rel_error)):
            if key in fields:
                v, msg = self.checker.judge(value, read_answer(fields[key], log=self.checker.log))
                if order.index(v) > order.index(verdict):
                    verdict, message = v, f"{'CP' if key == 'cp' else key}: {msg}"
        return ClaimResult(number, body, "cp", verdict, answer=fields["cp"], expected=row.cp,
                           expected_decimal=decimal_text(row.cp, self.checker.digits), quantity=f"CP(row {i + 1})",
                           message=message, explanation=(self.row_line(i),))

    def check_alphas(self, number, body, answer):
        from .results import ClaimResult

        expected = [self.scaled(s.alpha) for s in self.path().steps]
        shown = ", ".join(map(str, expected))
        parts = [p.strip() for p in answer.split(",")]
        if len(parts) != len(expected):
            return ClaimResult(number, body, "ccp_alphas", "wrong", answer=answer, expected=shown,
                               message=f"the sequence has {len(expected)} alphas ({shown}), "
                                       f"not {len(parts)}")
        worst, message = "right", ""
        order = ("right", "imprecise", "close", "wrong")
        for k, (value, text) in enumerate(zip(expected, parts), 1):
            verdict, msg = self.checker.judge(value, read_answer(text, log=self.checker.log))
            if order.index(verdict) > order.index(worst):
                worst, message = verdict, f"alpha_{k}: {msg}"
        return ClaimResult(number, body, "ccp_alphas", worst, answer=answer, expected=shown,
                           expected_decimal=", ".join(decimal_text(a, self.checker.digits) for a in expected),
                           quantity="alphas", message=message,
                           explanation=tuple(self.link_line(x) for s in self.path().steps for x in s.links))

    def check_link(self, number, body, m, answer):
        from .results import ClaimResult

        k = int(m.group("k") or 1)
        step = self.step(k)
        node = self.node(answer, "weakest link")
        names = tuple(_path_text(x.node) for x in step.links)
        lines = tuple(self.link_line(x) for x in step.links)
        if any(x.node is node for x in step.links):
            return ClaimResult(number, body, "weakest_link", "right", answer=answer, answer_value=_path_text(node),
                               expected=names, explanation=lines)
        if node.split is not None:
            # a node whose g(t) in T_(k-1) equals the step's alpha ties with the link the sequence cuts (an
            # ancestor, whose cut removes it too): it is a weakest link of that tree as well
            state = next((st for st in self.states(node) if st[0] == k - 1), None)
            if state is not None and state[3] > 1 and (state[1] - state[2]) / (state[3] - 1) == step.alpha:
                return ClaimResult(number, body, "weakest_link", "right", answer=answer, answer_value=_path_text(node),
                                   expected=names, explanation=lines,
                                   message=f"{_path_text(node)} ties with {' and '.join(names)} at alpha "
                                           f"{step.alpha}; the sequence cuts {' and '.join(names)}, which removes it "
                                           f"too")
        own = self.links().get(id(node))
        why = (f"its alpha is {own.alpha}, cut at step {next(i for i, s in enumerate(self.path().steps, 1) if own in s.links)}"
               if own is not None else "the sequence never cuts it itself (an ancestor's cut removes it)")
        return ClaimResult(number, body, "weakest_link", "wrong", answer=answer, answer_value=_path_text(node),
                           expected=names, explanation=lines,
                           message=f"step {k} cuts {' and '.join(names)} (alpha {step.alpha}); "
                                   f"not {_path_text(node)}: {why}")


def path_risk(path, node):
    """R(t) under the path's risk (rpart's misclassified rows, or scikit-learn's N_t/N · impurity)."""
    from ..complexity import _risk_function

    return _risk_function(path.tree, path.risk)(node)


# -- 'infotree cptable' text output fed back (its round trip) --
_CPT_COLUMNS = {"cp table": {"CP", "nsplit", "rel error"}, "exact values": {"CP", "alpha", "rel error"},
                "the nested sequence T0, T1, ..., root": {"k", "alpha_k", "cut at", "R(T_k)"},
                "each weakest link": {"k", "node t", "R(t)", "R(T_t)", "leaves", "alpha"}}
_CPT_TITLES = tuple(_CPT_COLUMNS)
_CPT_PROSE = re.compile(r"Cost-complexity \(cp\) table|Weakest-link pruning|=+|risk: .*|each step cuts .*|"
                        r"\d+-fold cross-validation, .*|min: row .*|the sequence .*")
_CPT_ROOT = re.compile(r"R\(root\) = (?P<r>[^ ;]+)(?:; T0 has (?P<n>\d+) leaves and R\(T0\) = (?P<t>\S+)| \(.*)")


class CpTableText:
    """Reads ``infotree cptable --steps`` text output line by line: each row of its tables becomes the
    claims it states (``alpha_1 = 1/2``, ``CP = 0.1429, nsplit = 2, rel error = 0.2857``, a weakest link's
    line); its prose is skipped.  xerror and xstd are not graded (they need the folds)."""

    def __init__(self):
        self.title = self.header = None
        self.rows = False

    def claims(self, body):
        """The claims a line states ([] for prose), or None when the line is not cptable's output."""
        s = body.strip()
        if self.title is not None:
            if not s:
                self.title, self.header, self.rows = None, None, False
                return []
            if self.header is None:
                self.header = re.split(r"\s{2,}", s)
                if not _CPT_COLUMNS[self.title] <= set(self.header):
                    self.title = "other"   # a node report's "exact values": skipped up to its blank line
                return []
            if self.title == "other":
                return []
            if not self.rows and set(s) <= set("- "):
                self.rows = True
                return []
            if self.rows:
                try:
                    return self.row(re.split(r"\s{2,}", s))
                except (KeyError, IndexError):
                    return None   # not a row as cptable prints it: read as any other line
            self.title = None
        if s in _CPT_TITLES:
            self.title = s
            return []
        if _CPT_PROSE.fullmatch(s):
            return []
        m = _CPT_ROOT.fullmatch(s)
        if m:
            return [f"R(root) = {m.group('r')}"] + ([f"R(T_0) = {m.group('t')}"] if m.group("t") else [])
        return None

    def row(self, cells):
        head = self.header
        # the cp tables' first column (the row number) has no header; the sequence's is "k"
        k, named = cells[0], dict(zip(head, cells if head[0] == "k" else cells[1:]))
        if self.title == "cp table":
            return [f"CP = {named['CP']}, nsplit = {named['nsplit']}, rel error = {named['rel error']}"]
        if self.title == "exact values":
            return [f"CP(row {k}) = {named['CP']}", f"rel error(row {k}) = {named['rel error']}"]
        if len(cells) < len(head):   # T0's row: no alpha, no cut
            return []
        if self.title.startswith("the nested"):
            return [f"alpha_{k} = {named['alpha_k']}", f"R(T_{k}) = {named['R(T_k)']}"] + \
                [f"weakest link_{k} = {cut}" for cut in named["cut at"].split("; ")]
        return [f"{named['node t']}  R(t) = {named['R(t)']}, R(T_t) = {named['R(T_t)']}, leaves {named['leaves']}: "
                f"alpha = {named['alpha']}"]
