"""The truth of the class answer-sheet set (tests/data/class), computed without infotree.

Every value here comes from the data files by this module's own arithmetic: Fractions for
counts, Gini, SSE and alphas; entropies as exact linear forms c0 + Σ c_p·log2 p over primes
(log2 of distinct primes are linearly independent over Q, so two forms are equal exactly when
their coefficients are), printed as sympy expressions and evaluated with mpmath at 50 digits.
The trees (ID3, CART with Gini, CART regression, the bagged ID3 trees) are grown by the small
builders below, written from the textbooks' definitions, not from infotree's code.

    python tests/class_truth.py --write    # write the sheets and truth.csv from SHEETS (sheets.py)
    python tests/class_truth.py --verify   # recompute every value of truth.csv, check every claim

Never import infotree here: the point is an independent witness.
"""

from __future__ import annotations

import csv
import itertools
import sys
from decimal import ROUND_HALF_UP, Decimal, getcontext
from fractions import Fraction
from pathlib import Path

import mpmath
import sympy

mpmath.mp.dps = 50
getcontext().prec = 100
HERE = Path(__file__).resolve().parent / "data" / "class"


# -- exact logarithms ------------------------------------------------------------------------------

class Log2:
    """c0 + Σ c_p·log2(p), p odd primes (log2 2 = 1 goes into c0); exact, comparable exactly."""

    __slots__ = ("c0", "cs")

    def __init__(self, c0=Fraction(0), cs=None):
        self.c0 = Fraction(c0)
        self.cs = {p: c for p, c in (cs or {}).items() if c}

    @classmethod
    def of_int(cls, n: int) -> "Log2":
        """log2(n) for a positive integer n."""
        c0, cs = Fraction(0), {}
        for p, e in sympy.factorint(n).items():
            if p == 2:
                c0 += e
            else:
                cs[p] = Fraction(e)
        return cls(c0, cs)

    def __add__(self, other):
        other = other if isinstance(other, Log2) else Log2(other)
        cs = dict(self.cs)
        for p, c in other.cs.items():
            cs[p] = cs.get(p, 0) + c
        return Log2(self.c0 + other.c0, cs)

    __radd__ = __add__

    def __neg__(self):
        return Log2(-self.c0, {p: -c for p, c in self.cs.items()})

    def __sub__(self, other):
        return self + (-(other if isinstance(other, Log2) else Log2(other)))

    def __rsub__(self, other):
        return Log2(other) - self

    def scale(self, k) -> "Log2":
        k = Fraction(k)
        return Log2(self.c0 * k, {p: c * k for p, c in self.cs.items()})

    def __eq__(self, other):
        other = other if isinstance(other, Log2) else Log2(other)
        return self.c0 == other.c0 and self.cs == other.cs

    def __hash__(self):
        return hash((self.c0, tuple(sorted(self.cs.items()))))

    def mpf(self):
        v = mpmath.mpf(self.c0.numerator) / self.c0.denominator
        for p, c in self.cs.items():
            v += mpmath.mpf(c.numerator) / c.denominator * mpmath.log(p, 2)
        return v

    def __lt__(self, other):
        other = other if isinstance(other, Log2) else Log2(other)
        if self == other:
            return False
        d = (self - other).mpf()
        assert abs(d) > mpmath.mpf(10) ** -40, "an exact comparison too close for 50 digits"
        return d < 0

    def __gt__(self, other):
        return (other if isinstance(other, Log2) else Log2(other)) < self

    def sympy(self):
        e = sympy.Rational(self.c0.numerator, self.c0.denominator)
        for p in sorted(self.cs):
            c = self.cs[p]
            e += sympy.Rational(c.numerator, c.denominator) * sympy.log(p) / sympy.log(2)
        return e


def lg(q) -> Log2:
    """log2 of a positive rational."""
    q = Fraction(q)
    return Log2.of_int(q.numerator) - Log2.of_int(q.denominator)


def entropy(counts) -> Log2:
    """H of a count vector; 0·log 0 = 0 by skipping zero counts."""
    n = sum(counts)
    h = Log2()
    for c in counts:
        if c:
            h = h - lg(Fraction(c, n)).scale(Fraction(c, n))
    return h


def entropy_ln(counts):
    """The natural-log entropy (the nats a student gets with ln): mpf."""
    n = sum(counts)
    return -sum(mpmath.mpf(c) / n * mpmath.log(mpmath.mpf(c) / n) for c in counts if c)


def gini(counts) -> Fraction:
    n = sum(counts)
    return 1 - sum(Fraction(c, n) ** 2 for c in counts)


def errors(counts) -> int:
    """Misclassified rows of a node as a leaf (Breiman's R(t) in counts)."""
    return sum(counts) - max(counts)


def value_of(x):
    """A value as mpf, whatever its exact type."""
    if isinstance(x, Log2):
        return x.mpf()
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, sympy.Basic):
        return mpmath.mpf(str(sympy.N(x, 60)))
    return mpmath.mpf(x)


def exact_text(x) -> str:
    """The value column: a fraction or a sympy-printable expression."""
    if isinstance(x, Log2):
        return sympy.sstr(x.sympy())
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, sympy.Basic):
        return sympy.sstr(x)
    return str(x)


def sym(x):
    """An exact value as a sympy expression (for quotients of entropies)."""
    if isinstance(x, Log2):
        return x.sympy()
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    return sympy.sympify(x)


# -- data ---------------------------------------------------------------------------------------

class Table:
    """A CSV as rows of strings; numeric columns read as Fractions of their decimal text."""

    def __init__(self, name, target, numeric=()):
        with open(HERE / name, newline="") as f:
            r = list(csv.reader(f))
        self.name, self.columns, self.target = name, r[0], target
        self.numeric = set(numeric)
        self.rows = [dict(zip(r[0], row)) for row in r[1:]]
        for row in self.rows:
            for c in self.numeric:
                row[c] = Fraction(row[c])
        self.features = [c for c in self.columns if c != target]
        # class order: the order of first appearance in the file
        self.classes = list(dict.fromkeys(row[target] for row in self.rows))

    def values(self, col, rows=None):
        return list(dict.fromkeys(r[col] for r in (self.rows if rows is None else rows)))

    def counts(self, rows):
        return [sum(1 for r in rows if r[self.target] == k) for k in self.classes]


def holds(row, cond):
    """cond: (column, op, value) with op one of = != < >= <= > in notin."""
    col, op, v = cond
    x = row[col]
    return {"=": lambda: x == v, "!=": lambda: x != v, "<": lambda: x < v, ">=": lambda: x >= v,
            "<=": lambda: x <= v, ">": lambda: x > v, "in": lambda: x in v, "notin": lambda: x not in v}[op]()


def select(rows, *conds):
    return [r for r in rows if all(holds(r, c) for c in conds)]


def midpoints(xs):
    xs = sorted(set(xs))
    return [(a + b) / 2 for a, b in zip(xs, xs[1:])]


# -- ID3 and C4.5 measures ------------------------------------------------------------------------

def branches(t: Table, rows, a, cut=None):
    """The row groups of a test: one a value of a nominal a, or x <= cut and x > cut."""
    if cut is not None:
        return [select(rows, (a, "<=", cut)), select(rows, (a, ">", cut))]
    return [select(rows, (a, "=", v)) for v in t.values(a, rows)]


def info_given(t: Table, rows, a, cut=None) -> Log2:
    """Info_A(D): the branches' entropies weighted by their rows."""
    n = len(rows)
    return sum((entropy(t.counts(b)).scale(Fraction(len(b), n)) for b in branches(t, rows, a, cut)), Log2())


def gain(t: Table, rows, a, cut=None) -> Log2:
    return entropy(t.counts(rows)) - info_given(t, rows, a, cut)


def split_info(t: Table, rows, a, cut=None) -> Log2:
    return entropy([len(b) for b in branches(t, rows, a, cut)])


def gain_ratio(t: Table, rows, a, cut=None):
    return sympy.nsimplify(sym(gain(t, rows, a, cut)) / sym(split_info(t, rows, a, cut)))


def best_cut(t: Table, rows, a):
    """C4.5's cut of a numeric a: the midpoint of largest (plain) gain, the lowest on a tie."""
    best = None
    for c in midpoints(r[a] for r in rows):
        g = gain(t, rows, a, c)
        if best is None or g > best[1]:
            best = (c, g)
    return best


def majority(t: Table, counts):
    """The first class of most rows in class order."""
    return t.classes[max(range(len(counts)), key=lambda i: (counts[i], -i))]


def id3(t: Table, rows, features=None, parent_major=None, *, force=None, path=()):
    """Quinlan's ID3 on nominal features: split on the largest gain (the first feature in column
    order on an exact tie), every value of the feature in the whole data a branch (one no row
    reaches predicts its parent's majority), down to pure nodes or no feature left. force: {path:
    feature} splits a student chose (carry-forward grows the rest from there); a path is a tuple of
    (feature, value)."""
    features = t.features if features is None else features
    counts = t.counts(rows)
    if not rows:
        return {"leaf": parent_major, "n": 0, "rows": rows}
    major = majority(t, counts)
    if max(counts) == len(rows) or not features:
        return {"leaf": major, "n": len(rows), "rows": rows}
    gains = [(gain(t, rows, a), a) for a in features]
    top = max(g for g, _ in gains)
    a = next(a for g, a in gains if g == top)
    if force and path in force:
        a, top = force[path], next(g for g, b in gains if b == force[path])
    rest = [f for f in features if f != a]
    return {"split": a, "gain": top, "tied": [b for g, b in gains if g == top], "n": len(rows), "rows": rows,
            "children": {v: id3(t, select(rows, (a, "=", v)), rest, major, force=force, path=path + ((a, v),))
                         for v in t.values(a)}}


def tree_at(tree, path):
    """The node of an ID3/CART tree at a path [(feature, op, value), ...]: each step is the child
    whose rows it selects from its parent's (so `price = high` names CART's side price ∉ {low,
    medium}); None when no child matches (the path is not in the tree)."""
    node = tree
    for step in path:
        want = select(node["rows"], step)
        node = next((ch for ch in node.get("children", {}).values() if ch["rows"] == want), None)
        if node is None:
            return None
    return node


# -- CART -----------------------------------------------------------------------------------------

def binary_splits(t: Table, rows, a):
    """Every binary split of a: (left, right) conditions; numeric at midpoints (x < c | x >= c),
    nominal by subsets (the side holding the first value listed on the left)."""
    if a in t.numeric:
        return [((a, "<", c), (a, ">=", c)) for c in midpoints(r[a] for r in rows)]
    vals = t.values(a, rows)
    out = []
    for k in range(1, len(vals)):
        for left in itertools.combinations(vals, k):
            if vals[0] in left:
                s = frozenset(left)
                out.append(((a, "in", s), (a, "notin", s)))
    return out


def gini_split(t: Table, rows, split) -> Fraction:
    n = len(rows)
    return sum(Fraction(len(s), n) * gini(t.counts(s)) for s in (select(rows, c) for c in split))


def sse(ys) -> Fraction:
    if not ys:
        return Fraction(0)
    m = Fraction(sum(ys), len(ys))
    return sum((y - m) ** 2 for y in ys)


def mean(ys) -> Fraction:
    return Fraction(sum(ys), len(ys))


def sse_split(t: Table, rows, split) -> Fraction:
    return sum(sse([r[t.target] for r in select(rows, c)]) for c in split)


def best_split(t: Table, rows, *, regression=False, min_leaf=1):
    """The split of largest decrease (Gini, or SSE for regression) over every feature; ties listed."""
    parent = sse([r[t.target] for r in rows]) if regression else gini(t.counts(rows))
    found = []
    for a in t.features:
        for sp in binary_splits(t, rows, a):
            if min(len(select(rows, c)) for c in sp) < min_leaf:
                continue
            child = sse_split(t, rows, sp) if regression else gini_split(t, rows, sp)
            found.append((parent - child, sp))
    if not found:
        return None, Fraction(0), []
    top = max(d for d, _ in found)
    tied = [sp for d, sp in found if d == top]
    return tied[0], top, tied


def cart(t: Table, rows, *, regression=False, max_depth=None, min_split=2, min_leaf=1):
    """CART grown with cp 0 (rpart's minsplit, minbucket and maxdepth): a node of at least min_split
    rows splits by its best split with min_leaf rows on each side, while that decreases the impurity."""
    if regression:
        ys = [r[t.target] for r in rows]
        node = {"n": len(rows), "mean": mean(ys), "sse": sse(ys), "rows": rows}
    else:
        counts = t.counts(rows)
        node = {"n": len(rows), "counts": counts, "class": majority(t, counts), "R": errors(counts), "rows": rows}
    deep = max_depth is not None and max_depth <= 0
    sp, dec, tied = (best_split(t, rows, regression=regression, min_leaf=min_leaf)
                     if len(rows) >= min_split and not deep else (None, 0, []))
    if sp is None or dec <= 0:
        return node
    node["cond"], node["decrease"], node["tied"] = sp, dec, tied
    below = None if max_depth is None else max_depth - 1
    node["children"] = {c: cart(t, select(rows, c), regression=regression, max_depth=below, min_split=min_split,
                                min_leaf=min_leaf) for c in sp}
    return node


def leaves(node):
    if "children" not in node:
        return [node]
    return [lf for ch in node["children"].values() for lf in leaves(ch)]


def internal(node, path=()):
    """(path, node) of every internal node, root first, left before right."""
    if "children" not in node:
        return []
    out = [(path, node)]
    for c, ch in node["children"].items():
        out += internal(ch, path + (c,))
    return out


def g_alpha(node) -> Fraction:
    """Breiman's g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1), R in misclassified rows."""
    lv = leaves(node)
    return Fraction(node["R"] - sum(x["R"] for x in lv), len(lv) - 1)


def ccp_sequence(tree):
    """Breiman's weakest-link pruning: [(alpha_k, paths cut at step k, R(T_k))], every node of the
    least g(t) cut at once (ties together), until the root is a leaf."""
    import copy
    tree = copy.deepcopy(tree)
    out = []
    while "children" in tree:
        gs = [(g_alpha(node), path, node) for path, node in internal(tree)]
        low = min(g for g, _, _ in gs)
        cut = [(p, node) for g, p, node in gs if g == low]
        for _, node in cut:
            node.pop("children", None)
        out.append((low, [p for p, _ in cut], sum(x["R"] for x in leaves(tree))))
    return out


# -- bagging ----------------------------------------------------------------------------------------

def sample_rows(t: Table, numbers):
    """A bootstrap sample given by 1-based row numbers (a repeat counts twice)."""
    return [t.rows[i - 1] for i in numbers]


def predict(tree, row):
    node = tree
    while "leaf" not in node:
        node = node["children"][row[node["split"]]]
    return node["leaf"]


# -- what a sheet line claims ------------------------------------------------------------------------

class Line:
    """One non-blank sheet line: its text, whether it is right, wrong or not a claim, the exact
    value (measure claims) or the expected answer (tree, split, vote claims), and the mistake."""

    def __init__(self, text, truth, value="", mistake=""):
        self.text, self.truth, self.value, self.mistake = text, truth, value, mistake

    def check(self):
        """Problems with this line's key (empty: the written answer is as right or wrong as the key says)."""
        return []


class N(Line):
    """Not a claim: kind is prose, heading, unreadable or ambiguous (the checker should ask)."""

    def __init__(self, text, kind="prose"):
        super().__init__(text, "none", "", kind)


class M(Line):
    """A measure claim. value: the exact value; mistake: the planted mistake (then the claim is
    wrong); via: the value the mistake gives, which the written answer must match; carried: the
    answer is computed from rounded intermediates written on the line (right by issue #31 item 3);
    answer: the written answer when it is not the text after the last '='."""

    def __init__(self, text, value, mistake="", via=None, carried=False, answer=None):
        super().__init__(text, "wrong" if mistake else "right", value, mistake)
        self.exact, self.via, self.carried = value, via, carried
        self.answer = answer if answer is not None else answer_text(text)

    def check(self):
        ok = agrees(self.answer, self.exact)
        if self.carried:
            before = self.text.rsplit("=", 2)[-2]
            ok = agrees(self.answer, expression(before), places_only=True)
        out = []
        if ok != (self.truth == "right"):
            out.append(f"written {self.answer!r} {'agrees' if ok else 'disagrees'} with {exact_text(self.exact)} "
                       f"= {mpmath.nstr(value_of(self.exact), 8)}, but the key says {self.truth}")
        if self.via is not None and not agrees(self.answer, self.via, places_only=True):
            out.append(f"written {self.answer!r} is not what the mistake gives ({mpmath.nstr(value_of(self.via), 8)})")
        return out


class S(Line):
    """A claim whose answer is a thing (a feature, a split, a class, a node): right when what was
    written (given) is what the data gives (expected); shown is expected as text."""

    def __init__(self, text, expected, given, shown, mistake=""):
        super().__init__(text, "wrong" if mistake else "right", shown, mistake)
        self.expected, self.given = expected, given

    def check(self):
        if (self.given == self.expected) != (self.truth == "right"):
            return [f"given {self.given!r}, expected {self.expected!r}, but the key says {self.truth}"]
        return []


def answer_text(text: str) -> str:
    """The answer of 'quantity = answer   # comment': after the last '=' or '≈', less a trailing
    comment, unit or parenthesised remark."""
    text = text.split("#")[0]
    for sep in ("≈", "="):
        text = text.replace(sep, "\0")
    a = text.rsplit("\0", 1)[-1].strip()
    for unit in (" bits", " bit"):
        a = a.removesuffix(unit)
    if "(" in a and not a.startswith(("(", "1", "-")) and a.endswith(")"):
        a = a[:a.index("(")].strip()
    return a.strip()


def rational(x):
    """x as a Fraction when it is rational, else None."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, Log2):
        return None if x.cs else x.c0
    if isinstance(x, sympy.Basic) and x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    return None


def round_half_up(v, places: int) -> Decimal:
    return Decimal(mpmath.nstr(v, 45, min_fixed=-100, max_fixed=100)).quantize(
        Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def expression(text: str):
    """A written expression as sympy: ^ or ² powers, log2(x), ln(x), × and ·, implicit products."""
    from sympy.parsing.sympy_parser import (implicit_multiplication_application, parse_expr,
                                            standard_transformations)
    t = (text.replace("^", "**").replace("²", "**2").replace("×", "*").replace("·", "*").replace("−", "-")
         .replace("log2(", "log2("))
    return parse_expr(t, local_dict={"log2": lambda x: sympy.log(x, 2), "ln": sympy.log, "log": lambda x: sympy.log(x, 2)},
                      transformations=standard_transformations + (implicit_multiplication_application,),
                      evaluate=True)


def agrees(answer: str, exact, *, places_only=False) -> bool:
    """Issue #31 item 3: a decimal is right when it is the exact value rounded to its decimals and it
    gives at least 3 decimal places or 3 significant digits (places_only: the rounding alone);
    an integer or a fraction or an expression without decimals must equal the value exactly;
    '2/3 for no' is its leading number."""
    a = answer.split(" for ")[0].strip()
    v = value_of(exact)
    try:
        d = Decimal(a)
    except ArithmeticError:
        d = None
    if d is not None and "." in a and rational(exact) == Fraction(a):
        return True  # the exact value itself needs no digits (0.44 for 11/25)
    if d is not None and "." in a:
        places = -d.as_tuple().exponent
        digits = len(a.lstrip("+-").replace(".", "").lstrip("0"))
        enough = places >= 3 or digits >= 3 or places_only
        return enough and round_half_up(v, places) == d
    e = expression(a)
    if any(isinstance(x, sympy.Float) for x in e.atoms(sympy.Number)):
        raise ValueError(f"an expression with decimals is not an answer: {answer!r}")
    ev = mpmath.mpf(str(sympy.N(e, 60)))
    return abs(ev - v) < mpmath.mpf(10) ** -40


def c45(t: Table, rows, min_objects=2):
    """Quinlan's C4.5 without pruning, textbook gain (no MDL term) and cuts at midpoints: among the
    tests with at least min_objects rows in two branches and gain at least the average, the one of
    largest gain ratio; a numeric feature's test is its cut of largest gain."""
    counts = t.counts(rows)
    major = majority(t, counts)
    if max(counts) == len(rows) or len(rows) < 2 * min_objects:
        return {"leaf": major, "n": len(rows), "rows": rows}
    tests = []
    for a in t.features:
        cut = best_cut(t, rows, a)[0] if a in t.numeric else None
        if a in t.numeric and cut is None:
            continue
        if sum(1 for b in branches(t, rows, a, cut) if len(b) >= min_objects) < 2:
            continue
        tests.append((a, cut, gain(t, rows, a, cut)))
    if not tests:
        return {"leaf": major, "n": len(rows), "rows": rows}
    avg = sum((g for _, _, g in tests), Log2()).scale(Fraction(1, len(tests)))
    a, cut, _ = max((x for x in tests if not x[2] < avg), key=lambda x: value_of(gain_ratio(t, rows, x[0], x[1])))
    conds = [(a, "<=", cut), (a, ">", cut)] if cut is not None else [(a, "=", v) for v in t.values(a, rows)]
    return {"split": a, "cut": cut, "n": len(rows), "rows": rows,
            "children": {c: c45(t, select(rows, c), min_objects) for c in conds}}


class T(Line):
    """A line of a tree drawn as text (or a rule, or a split claim): the node at path (steps
    (feature, op, value)) is in tree; split: that node splits on this feature (ID3, C4.5) or by
    this condition (CART; any condition sending its rows the same way); leaf: it is a leaf of that
    class (regression: its mean, written as a decimal); n: the rows it holds."""

    def __init__(self, text, tree, path, leaf=None, split=None, n=None, mistake=""):
        node = tree_at(tree, path) if all(_same_feature(tree, path[:i], s) for i, s in enumerate(path)) else None
        ok = node is not None and (n is None or node["n"] == n)
        if ok and leaf is not None:
            ok = "children" not in node and (agrees(leaf, node["mean"]) if "mean" in node
                                              else leaf == node.get("leaf", node.get("class")))
        if ok and split is not None:
            ok = ("children" in node and (tree_at(node, [split]) is not None if isinstance(split, tuple)
                                          else node.get("split") == split))
        super().__init__(text, "wrong" if mistake else "right", _node_text(node), mistake)
        self.ok = ok

    def check(self):
        if self.ok != (self.truth == "right"):
            return [f"the tree has {self.value or 'no such node'}, but the key says {self.truth}"]
        return []


def _same_feature(tree, path, step):
    """ID3 and C4.5 nodes name their feature: a step must test it (CART's are matched by rows)."""
    node = tree_at(tree, path)
    return node is not None and node.get("split", step[0]) == step[0]


def _node_text(node):
    if node is None:
        return "no such node"
    if "children" in node:
        if "cond" in node:
            return "split " + cond_text(node["cond"][0])
        return "split " + node["split"]
    if "mean" in node:
        return f"leaf {node['mean']}"
    return f"leaf {node.get('leaf', node.get('class'))}"


def cond_text(c):
    a, op, v = c
    if op in ("in", "notin"):
        return f"{a} {'in' if op == 'in' else 'not in'} {{{', '.join(sorted(v))}}}"
    return f"{a} {op} {v if isinstance(v, str) else _num(v)}"


def _num(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else str(Decimal(q.numerator) / Decimal(q.denominator))


def path_text(path):
    return ", ".join(cond_text(c) for c in path) or "root"


# -- the sheets and truth.csv -------------------------------------------------------------------------

def sheets():
    """{family: {sheet name: [Line or '' (blank)]}} from tests/data/class/sheets.py."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("class_sheets", HERE / "sheets.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("class_truth", sys.modules[__name__])
    spec.loader.exec_module(mod)
    return mod.SHEETS


def truth_rows():
    rows = []
    for family, group in sheets().items():
        for name, lines in group.items():
            for i, line in enumerate(lines, 1):
                if line == "":
                    continue
                value = exact_text(line.value) if isinstance(line, M) else line.value
                rows.append({"sheet": f"{family}/{name}", "line": i, "truth": line.truth, "value": value,
                             "family": family, "mistake": line.mistake})
    return rows


def write():
    for family, group in sheets().items():
        (HERE / family).mkdir(exist_ok=True)
        for name, lines in group.items():
            text = "".join((x if isinstance(x, str) else x.text) + "\n" for x in lines)
            (HERE / family / name).write_text(text, encoding="utf-8")
    with open(HERE / "truth.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, ["sheet", "line", "truth", "value", "family", "mistake"], lineterminator="\n")
        w.writeheader()
        w.writerows(truth_rows())


def verify() -> int:
    """Recompute every value of truth.csv and check each claim's written answer against it; the
    sheets on disk must be the ones SHEETS writes. Prints each problem; returns their number."""
    problems = []
    with open(HERE / "truth.csv", newline="", encoding="utf-8") as f:
        stored = list(csv.DictReader(f))
    fresh = [{k: str(v) for k, v in r.items()} for r in truth_rows()]
    if stored != fresh:
        for a, b in itertools.zip_longest(stored, fresh):
            if a != b:
                problems.append(f"truth.csv has {a}, the computation gives {b}")
    for family, group in sheets().items():
        for name, lines in group.items():
            text = "".join((x if isinstance(x, str) else x.text) + "\n" for x in lines)
            path = HERE / family / name
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                problems.append(f"{family}/{name} differs from its key in sheets.py")
            for i, line in enumerate(lines, 1):
                if line != "":
                    problems += [f"{family}/{name}:{i}: {line.text}: {p}" for p in line.check()]
    for p in problems:
        print(p)
    counts = {}
    for r in fresh:
        counts[r["truth"]] = counts.get(r["truth"], 0) + 1
    print(f"{len(fresh)} lines ({counts}); {len(problems)} problems")
    return len(problems)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
        sys.exit(verify() != 0)
    if sys.argv[1:] == ["--verify"]:
        sys.exit(verify() != 0)
    sys.exit("usage: python tests/class_truth.py --write | --verify")
