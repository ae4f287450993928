"""rpart's tree growth (method "class" with default priors and losses, and "anova"),
re-implemented with exact arithmetic from docs/cart_rules.md.

Standard library only.  It exists to check that document: benchmarks/rpart_parity.py
--emulate grows every case with it and compares node by node with what R's rpart prints
(benchmarks/rpart_dump.R).  It follows rpart's C code step by step (file and function in
each docstring) with counts and Fractions where rpart has doubles; ``information`` needs
logarithms and uses Decimal at 50 digits.  Unit case weights, surrogatestyle 0 and 1.

emulate(rows, features, kinds, target_kind, controls) returns the same structure as the
"nodes" list of rpart_dump.R's JSON, with exact values (Fraction or Decimal) in place of
the %.17g strings.
"""

from __future__ import annotations

from decimal import Decimal, getcontext
from fractions import Fraction

LEFT, RIGHT = -1, 1
getcontext().prec = 50


# --- impurities: n * I(p) for the counts at one side (gini.c: gini_impure1/2) -----------

def gini_n(counts, n):
    """n * (1 - sum p^2) = n - sum c^2 / n: rpart's rwt * sum p(1-p) with aprior = 1."""
    if n == 0:
        return Fraction(0)
    return Fraction(n) - Fraction(sum(c * c for c in counts), n)


def info_n(counts, n):
    """-sum c * ln(c / n), natural logarithm (gini_impure2 is -p log p)."""
    total = Decimal(0)
    for c in counts:
        if c:
            total -= Decimal(c) * (Decimal(c) / Decimal(n)).ln()
    return +total


def _key(value):
    """Float-free comparison key: Decimal sums of logs are compared at 40 digits so that
    two equal impurities reached in a different order are a tie, as exact values are."""
    if isinstance(value, Decimal):
        return value.quantize(Decimal(1).scaleb(-38)) if value else value
    return value


# --- the splitting functions -----------------------------------------------------------

class ClassSplitter:
    """gini.c: giniinit, ginidev, gini (default prior and loss: aprior = prior/freq = 1)."""

    def __init__(self, nclass, rule):
        self.nclass = nclass
        self.impurity = gini_n if rule == "gini" else info_n

    def counts(self, ys):
        c = [0] * self.nclass
        for y in ys:
            c[y] += 1
        return c

    def evaluate(self, ys):
        """ginidev: predicted class = first class of largest count, risk = misclassified."""
        c = self.counts(ys)
        best = max(c)
        return {"counts": c, "yval": c.index(best)}, Fraction(len(ys) - best)

    def _side_mean(self, c, n):
        return Fraction(sum(j * cj for j, cj in enumerate(c)), n)

    def choose(self, xs, ys, ncat, edge, node_risk):
        """gini(): returns (improve, threshold, direction) or (improve, csplit list)."""
        k = len(ys)
        total = self.counts(ys)
        parent = self.impurity(total, k)
        if ncat == 0:
            order = sorted(range(k), key=lambda i: xs[i])
            left = [0] * self.nclass
            right = total[:]
            best, where, direction = parent, None, LEFT
            for pos in range(k - 1):
                if k - pos - 1 < edge:          # rtot > edge fails: loop ends
                    break
                y = ys[order[pos]]
                left[y] += 1
                right[y] -= 1
                nl, nr = pos + 1, k - pos - 1
                if nl >= edge and xs[order[pos + 1]] != xs[order[pos]]:
                    temp = self.impurity(left, nl) + self.impurity(right, nr)
                    if _key(temp) < _key(best):
                        best, where = temp, pos
                        direction = (LEFT if self._side_mean(left, nl) < self._side_mean(right, nr)
                                     else RIGHT)
            improve = parent - best
            if where is None or not _key(improve) > 0:
                return None
            t = (xs[order[where]] + xs[order[where + 1]]) / 2
            return improve, ("threshold", t, direction)
        # categorical: collapse into a class x category table
        cnt = [[0] * ncat for _ in range(self.nclass)]
        countn = [0] * ncat
        for x, y in zip(xs, ys):
            cnt[y][x] += 1
            countn[x] += 1
        tsplit = [RIGHT if countn[i] else 0 for i in range(ncat)]
        left = [0] * self.nclass
        right = total[:]
        nl, nr = 0, k
        best, csplit = parent, None
        if self.nclass == 2:
            moves = ordered_moves(countn, [Fraction(cnt[0][i], countn[i]) if countn[i] else None
                                           for i in range(ncat)])
        else:
            moves = gray_moves(countn)
        for i in moves:
            sign = 1 if tsplit[i] == RIGHT else -1   # RIGHT -> LEFT moves rows left
            tsplit[i] = -tsplit[i]
            for j in range(self.nclass):
                left[j] += sign * cnt[j][i]
                right[j] -= sign * cnt[j][i]
            nl += sign * countn[i]
            nr -= sign * countn[i]
            if nl >= edge and nr >= edge:
                temp = self.impurity(left, nl) + self.impurity(right, nr)
                if _key(temp) < _key(best):
                    best = temp
                    flip = 1 if self._side_mean(left, nl) < self._side_mean(right, nr) else -1
                    csplit = [flip * t for t in tsplit]
        improve = parent - best
        if csplit is None or not _key(improve) > 0:
            return None
        return improve, ("subset", csplit)


class AnovaSplitter:
    """anova.c: anovass and anova (improve is divided by the node's deviance)."""

    def evaluate(self, ys):
        n = len(ys)
        mean = sum(ys, Fraction(0)) / n
        return {"mean": mean}, sum(((y - mean) ** 2 for y in ys), Fraction(0))

    def choose(self, xs, ys, ncat, edge, node_risk):
        k = len(ys)
        grand = sum(ys, Fraction(0)) / k
        if ncat == 0:
            order = sorted(range(k), key=lambda i: xs[i])
            lsum, lw = Fraction(0), 0
            best, where, direction = Fraction(0), None, LEFT
            for pos in range(k - 1):
                if k - pos - 1 < edge:
                    break
                lsum += ys[order[pos]] - grand
                lw += 1
                if xs[order[pos + 1]] != xs[order[pos]] and lw >= edge:
                    temp = lsum * lsum / lw + lsum * lsum / (k - lw)   # right sum = -left sum
                    if temp > best:
                        best, where = temp, pos
                        direction = LEFT if lsum < -lsum else RIGHT
            if where is None or not node_risk:
                return None
            t = (xs[order[where]] + xs[order[where + 1]]) / 2
            return best / node_risk, ("threshold", t, direction)
        sums = [Fraction(0)] * ncat
        countn = [0] * ncat
        for x, y in zip(xs, ys):
            sums[x] += y - grand
            countn[x] += 1
        tsplit = [RIGHT if countn[i] else 0 for i in range(ncat)]
        means = [sums[i] / countn[i] if countn[i] else None for i in range(ncat)]
        lsum, lw, best, csplit = Fraction(0), 0, Fraction(0), None
        for i in ordered_moves(countn, means):
            tsplit[i] = LEFT
            lw += countn[i]
            lsum += sums[i]
            if lw >= edge and k - lw >= edge:
                temp = lsum * lsum / lw + lsum * lsum / (k - lw)
                if temp > best:
                    best = temp
                    flip = -1 if lsum / lw > -lsum / (k - lw) else 1
                    csplit = [flip * t for t in tsplit]
        if csplit is None or not node_risk:
            return None
        return best / node_risk, ("subset", csplit)


def ordered_moves(countn, value):
    """graycode_init2 + graycode(): the present categories by increasing value, a stable
    insertion sort (equal values keep level order); each one moves to the left in turn."""
    present = [i for i in range(len(countn)) if countn[i]]
    return sorted(present, key=lambda i: value[i])


def gray_moves(countn):
    """graycode_init1 + graycode(): the classic Gray code over the present categories,
    leaving out the last level (index ncat-1) whatever its count."""
    maxc = len(countn)
    gray = [1 if c else 0 for c in countn]
    while True:
        for i in range(maxc - 1):
            if gray[i] == 1:
                gray[i] = 2
                yield i
                break
            if gray[i] == 2:
                gray[i] = 1
        else:
            return


# --- insert_split.c, including its max == 2 behaviour ---------------------------------------

def insert_split(lst, improve, maxn):
    """Return the index at which a split of this improve goes into lst (or None), and
    update lst in place with a placeholder (the caller fills it).  Mirrors insert_split.c:
    a new split goes before the first one it beats strictly (ties keep the earlier
    variable first); with a full list of two, a split that beats the first one replaces
    the whole list."""
    if not lst:
        lst.append(None)
        return 0
    if maxn < 2:
        if not _key(improve) > _key(lst[0]["improve"]):
            return None
        lst[:] = [None]
        return 0
    pos = len(lst)
    for i, s in enumerate(lst):
        if _key(improve) > _key(s["improve"]):
            pos = i
            break
    if len(lst) == maxn:
        if pos == len(lst):
            return None
        if maxn == 2 and pos == 0:
            lst[:] = [None]
            return 0
        lst.pop()
    lst.insert(pos, None)
    return pos


# --- surrogates: choose_surg.c ----------------------------------------------------------------

def choose_surg(xs, dirs, ncat, tleft, tright, style):
    """xs: the surrogate's values for the node's rows that have one; dirs: the primary's
    direction for those rows (LEFT, RIGHT, or 0 when the primary is missing)."""
    if ncat == 0:
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        ll = sum(1 for d in dirs if d == LEFT)
        rl = sum(1 for d in dirs if d == RIGHT)
        if not order:
            return None
        lastx = xs[order[0]]
        agree = max(ll, rl)
        majority, total = agree, ll + rl
        lr = rr = 0
        success, split, csplit = False, lastx, LEFT
        for i in order:
            if ll + rl < 2:
                break
            if lr + rr >= 2 and xs[i] != lastx:
                if ll + rr > agree:
                    success, agree, csplit, split = True, ll + rr, RIGHT, (xs[i] + lastx) / 2
                elif lr + rl > agree:
                    success, agree, csplit, split = True, lr + rl, LEFT, (xs[i] + lastx) / 2
            if dirs[i] == LEFT:
                ll, lr = ll - 1, lr + 1
            elif dirs[i] == RIGHT:
                rl, rr = rl - 1, rr + 1
            lastx = xs[i]
        test = ("threshold", split, csplit)
    else:
        left, right = [0] * ncat, [0] * ncat
        for x, d in zip(xs, dirs):
            if d == LEFT:
                left[x] += 1
            elif d == RIGHT:
                right[x] += 1
        llwt, rrwt = sum(left), sum(right)
        defdir, majority = (LEFT, llwt) if llwt > rrwt else (RIGHT, rrwt)
        total = llwt + rrwt
        agree, wrong, right_way, csplit = 0, 0, 0, []
        for i in range(ncat):
            if left[i] == 0 and right[i] == 0:
                csplit.append(0)
            elif left[i] < right[i] or (left[i] == right[i] and defdir == RIGHT):
                agree += right[i]
                csplit.append(RIGHT)
                wrong += left[i]
                right_way += right[i]
            else:
                agree += left[i]
                csplit.append(LEFT)
                wrong += right[i]
                right_way += left[i]
        # choose_surg.c's lcount/rcount: the rows sent against and along the primary
        success = wrong > 1 and right_way > 1
        test = ("subset", csplit)
    if not success:
        return None
    if style == 0:
        total, majority = tleft + tright, max(tleft, tright)
    if total == 0:
        return None
    agreement = Fraction(agree, total)
    maj = Fraction(majority, total)
    adj = (agreement - maj) / (1 - maj) if maj != 1 else Fraction(0)
    return agreement, adj, test


# --- the tree ----------------------------------------------------------------------------------

class Node:
    __slots__ = ("rows", "num", "risk", "value", "complexity", "primary", "surrogates",
                 "last", "left", "right")


def goes(test, x):
    """Direction of a non-missing x under a split test (nodesplit.c)."""
    if test[0] == "threshold":
        _, t, extra = test
        return extra if x < t else -extra
    return test[1][x]


class Grower:
    def __init__(self, X, y, kinds, ncats, splitter, controls):
        self.X, self.y, self.ncats, self.splitter = X, y, ncats, splitter
        self.nvar = len(kinds)
        c = controls
        self.minsplit = int(c["minsplit"])
        self.edge = int(c["minbucket"])
        self.maxpri = max(int(c["maxcompete"]) + 1, 1)
        self.maxsur = int(c["maxsurrogate"])
        self.usesur = int(c["usesurrogate"])
        self.style = int(c.get("surrogatestyle", 0))
        self.maxnode = 2 ** int(c["maxdepth"]) - 1
        self.cp = Fraction(c["cp"])

    def grow(self):
        root = Node()
        root.rows = list(range(len(self.y)))
        root.value, root.risk = self.splitter.evaluate([self.y[r] for r in root.rows])
        root.complexity = root.risk
        self.alpha = self.cp * root.risk
        self.partition(1, root)
        return root

    def bsplit(self, me):
        """bsplit.c: the best split of each variable, kept in a list of maxpri by improve."""
        lst = []
        for v in range(self.nvar):
            rows = [r for r in me.rows if self.X[r][v] is not None]
            xs = [self.X[r][v] for r in rows]
            if not rows or (self.ncats[v] == 0 and min(xs) == max(xs)):
                continue
            got = self.splitter.choose(xs, [self.y[r] for r in rows], self.ncats[v], self.edge,
                                       me.risk)
            if got is None:
                continue
            improve, test = got
            pos = insert_split(lst, improve, self.maxpri)
            if pos is not None:
                lst[pos] = {"var": v, "improve": improve, "test": test, "count": len(rows)}
        return lst

    def surrogate(self, me):
        """surrogate.c: the primary's direction per row, the majority, each other variable."""
        p = me.primary[0]
        dirs = {r: (0 if self.X[r][p["var"]] is None else goes(p["test"], self.X[r][p["var"]]))
                for r in me.rows}
        tleft = sum(1 for d in dirs.values() if d == LEFT)
        tright = sum(1 for d in dirs.values() if d == RIGHT)
        me.last = RIGHT if tleft < tright else LEFT if tleft > tright else 0
        lst = []
        for v in range(self.nvar):
            if v == p["var"]:
                continue
            rows = [r for r in me.rows if self.X[r][v] is not None]
            got = choose_surg([self.X[r][v] for r in rows], [dirs[r] for r in rows],
                              self.ncats[v], tleft, tright, self.style)
            if got is None or not got[1] > 0:
                continue
            agreement, adj, test = got
            pos = insert_split(lst, agreement, self.maxsur)
            if pos is not None:
                lst[pos] = {"var": v, "improve": agreement, "adj": adj, "test": test,
                            "count": 0}
        return lst

    def nodesplit(self, me):
        """nodesplit.c: primary, then surrogates in order (usesurrogate >= 1), then the
        majority direction (usesurrogate 2); the others stay in the node."""
        p = me.primary[0]
        left, right = [], []
        for r in me.rows:
            x = self.X[r][p["var"]]
            d = 0
            if x is not None:
                d = goes(p["test"], x)
            elif self.usesur > 0:
                for s in me.surrogates:
                    xs = self.X[r][s["var"]]
                    if xs is None:
                        continue
                    d = goes(s["test"], xs)
                    if d:
                        s["count"] += 1
                        break
                if not d and self.usesur == 2:
                    d = me.last
            (left if d == LEFT else right if d == RIGHT else []).append(r)
        return left, right

    def make_child(self, rows, num, complexity):
        child = Node()
        child.rows, child.num = rows, num
        child.value, child.risk = self.splitter.evaluate([self.y[r] for r in rows])
        child.complexity = complexity
        return child

    def partition(self, num, me):
        """partition.c, exactly: returns (number of splits kept below, risk of the subtree)."""
        me.num, me.left, me.right, me.primary, me.surrogates = num, None, None, [], []
        tempcp = me.risk if num == 1 else min(me.risk, me.complexity)
        if len(me.rows) < self.minsplit or tempcp <= self.alpha or num > self.maxnode:
            me.complexity = self.alpha
            return 0, me.risk
        me.primary = self.bsplit(me)
        if not me.primary:
            me.complexity = self.alpha
            return 0, me.risk
        me.last = 0
        me.surrogates = self.surrogate(me) if self.maxsur > 0 else []
        lrows, rrows = self.nodesplit(me)
        me.left = self.make_child(lrows, 2 * num, tempcp - self.alpha)
        left_split, left_risk = self.partition(2 * num, me.left)
        tempcp = max((me.risk - left_risk) / (left_split + 1), me.risk - me.left.risk)
        tempcp = min(tempcp, me.complexity)
        me.right = self.make_child(rrows, 2 * num + 1, tempcp - self.alpha)
        right_split, right_risk = self.partition(2 * num + 1, me.right)
        tempcp = (me.risk - (left_risk + right_risk)) / (left_split + right_split + 1)
        if me.right.complexity > me.left.complexity:
            if tempcp > me.left.complexity:
                left_risk, left_split = me.left.risk, 0
                tempcp = (me.risk - (left_risk + right_risk)) / (left_split + right_split + 1)
                if tempcp > me.right.complexity:
                    right_risk, right_split = me.right.risk, 0
        elif tempcp > me.right.complexity:
            right_risk, right_split = me.right.risk, 0
            tempcp = (me.risk - (left_risk + right_risk)) / (left_split + right_split + 1)
            if tempcp > me.left.complexity:
                left_risk, left_split = me.left.risk, 0
        me.complexity = (me.risk - (left_risk + right_risk)) / (left_split + right_split + 1)
        if me.complexity <= self.alpha:
            me.left = me.right = None
            me.primary, me.surrogates = [], []
            return 0, me.risk
        return left_split + right_split + 1, left_risk + right_risk


def fix_complexity(node, parent, alpha):
    """make_cp_list.c: each node's complexity becomes min(own, the parent's, floored at alpha)."""
    if node.complexity > parent:
        node.complexity = parent
    me_cp = max(node.complexity, alpha)
    if node.left:
        fix_complexity(node.left, me_cp, alpha)
        fix_complexity(node.right, me_cp, alpha)


def emulate(X, y, ncats, target_kind, classes, rule, controls):
    """X: rows of per-feature values (Fraction, level index, or None); y: class index or
    Fraction.  Returns the node list in rpart's frame order (preorder, left first)."""
    splitter = (ClassSplitter(len(classes), rule) if target_kind == "class" else AnovaSplitter())
    g = Grower(X, y, [0] * len(ncats), ncats, splitter, controls)
    root = g.grow()
    fix_complexity(root, root.complexity, g.alpha)
    out = []

    def split_out(s, surrogate):
        d = {"var": s["var"], "count": s["count"], "improve": s["improve"], "test": s["test"]}
        if surrogate:
            d["agree"], d["adj"] = s["improve"], s["adj"]
        return d

    def walk(node):
        rec = {"node": node.num, "n": len(node.rows), "dev": node.risk, "rows": node.rows,
               "complexity": node.complexity / root.risk if root.risk else Fraction(0)}
        rec.update(node.value)
        if node.left:
            rec["primary"] = split_out(node.primary[0], False)
            rec["competitors"] = [split_out(s, False) for s in node.primary[1:]]
            rec["surrogates"] = [split_out(s, True) for s in node.surrogates]
        out.append(rec)
        if node.left:
            walk(node.left)
            walk(node.right)

    walk(root)
    return out


def improve_of(X, y, ncats, target_kind, classes, rule, rows, var, side):
    """The exact improve of one given split at a node (to explain a float near-tie):
    side(x) is LEFT or RIGHT for a non-missing value of feature var."""
    present = [r for r in rows if X[r][var] is not None]
    left = [y[r] for r in present if side(X[r][var]) == LEFT]
    right = [y[r] for r in present if side(X[r][var]) == RIGHT]
    if target_kind == "class":
        sp = ClassSplitter(len(classes), rule)
        f = sp.impurity
        whole = [y[r] for r in present]
        return (f(sp.counts(whole), len(whole)) - f(sp.counts(left), len(left))
                - f(sp.counts(right), len(right)))
    sp = AnovaSplitter()
    node_risk = sp.evaluate([y[r] for r in rows])[1]
    ss = [sp.evaluate(part)[1] if part else 0 for part in ([y[r] for r in present], left, right)]
    return (ss[0] - ss[1] - ss[2]) / node_risk
