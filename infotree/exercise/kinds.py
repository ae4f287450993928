"""The kinds of exercise: what data each draws, how it is graded, what it asks, and when a drawn
table is a good exercise.

Every number of a key comes from infotree itself: the data file is read and the tree (the
weakest-link sequence, the forest) grown through the command line's own functions with the
options that ``check.toml`` records, so the key is what ``infotree check`` grades against.
A kind is an object with

* ``name``, ``title``, ``task`` (the sheet's instructions);
* ``draw(rng, rows, features)``: (header, rows of text), see :mod:`infotree.exercise.tables`;
* ``options(header)``: the check options (CLI long names without dashes, in order);
* ``solve(path, options, rng)``: the grown objects (:class:`Solution`), with the options
  completed where the answer fixes one (cost-complexity's alpha, bagging's samples);
* ``shape(solution)``: None for a good exercise, else why not (the depth it asks for);
* ``questions(solution)``: the :class:`Question` list; ``ties(solution)``: a sentence per exact
  tie at a decision the questions ask about.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..data import number_text
from ..exact import Exact, Ratio
from . import tables

__all__ = ["KINDS", "Question", "Solution", "flags_of", "primes_of"]


@dataclass(frozen=True)
class Question:
    """One asked quantity: ``claim`` is the left-hand side in check's grammar (``IG(outlook)``),
    ``answer`` the key's right-hand side (an exact value, a name, ``2/3 for yes``), ``value``
    the exact number when there is one (the key's decimals and the simple-numbers test)."""

    claim: str
    answer: str
    points: int
    value: object = None
    #: the sheet's wording when the claim alone does not say it (a whole tree)
    prompt: str = ""
    #: how to write the answer, when it is not a number or a name
    hint: str = ""

    @property
    def line(self) -> str:
        """The key's claim: ``claim = answer``; a whole tree (claim ``tree``) is its block of lines."""
        return self.answer if self.claim == "tree" else f"{self.claim} = {self.answer}"


@dataclass
class Solution:
    """What one data set gives: the grown tree (or T0 and the pruned tree, or the forest), the
    options that grade it, and the pieces the sheet shows (samples, the pruning alpha)."""

    options: dict
    tree: object = None
    path: object = None
    pruned: object = None
    forest: object = None
    extra: dict = field(default_factory=dict)


def flags_of(options: dict) -> list:
    """check.toml's options as command-line flags: ``key = v`` -> the long option ``key`` and v; true -> the
    option alone; a list -> the option once per item."""
    argv = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is False or value is None:
            continue
        else:
            for v in value if isinstance(value, (list, tuple)) else [value]:
                argv += [flag, str(v)]
    return argv


@functools.lru_cache(maxsize=None)
def _parser(command):
    from ..cli.parser import build_parser

    return build_parser(command)


def _args(command, path, options):
    from ..cli.args import _resolve_criterion

    args = _parser(command).parse_args([command, str(path), *flags_of(options)])
    _resolve_criterion(args)
    return args


def grow(path, options, command="tree"):
    """(data, tree) exactly as ``infotree tree DATA <options>`` (and ``check``) reads and grows them."""
    from ..cli.args import read_data, tree_options
    from ..growing import build_tree

    args = _args(command, path, options)
    data = read_data(str(path), args)
    return data, build_tree(data, **tree_options(args))


def primes_of(value) -> set:
    """The primes a student meets computing ``value``: of every denominator, and every p of a log2(p)."""
    out = set()

    def frac(q):
        d, p = Fraction(q).denominator, 2
        while d > 1:
            while d % p == 0:
                out.add(p)
                d //= p
            p += 1

    if isinstance(value, Ratio):
        return primes_of(value.num) | primes_of(value.den)
    if isinstance(value, Exact):
        frac(value.c0)
        for p, c in value.terms:
            out.add(p)
            frac(c)
    elif value is not None:
        frac(value)
    return out


def _exact_text(v) -> str:
    if isinstance(v, (Exact, Ratio)):
        return str(v)
    return number_text(Fraction(v))


def _depth(tree) -> int:
    return max(n.depth for n in tree.root.walk())


def _path(node) -> str:
    return node.describe_path()


def _split_text(node) -> str:
    """A CART split as check reads it (``colour in {green, blue}``, ``size <= 5``); ID3: the feature."""
    f, op, v = node.children[0].path_conditions()[-1]
    return f if op == "=" else f"{f} {op} {v}"


def _node_ties(tree, nodes) -> list:
    out = []
    for node in nodes:
        if node.ties:
            names = [tree.features[node.split]] + [tree.features[j] for j in node.ties]
            out.append(f"at {_path(node)} the features {', '.join(names)} tie exactly; "
                       f"the tree takes {names[0]} (the first in column order), any of them is right")
        chosen = node.chosen if node.split is not None else None
        if chosen is not None and getattr(chosen, "ties", ()):
            out.append(f"at {_path(node)} {tree.features[node.split]} has {len(chosen.ties) + 1} best splits of "
                       f"exactly the same decrease; the tree takes {_split_text(node)}, any of them is right")
    return out


def _tree_block(tree) -> str:
    """The tree as ``infotree tree --nodes none`` prints it, without the footer: check reads it back."""
    import io

    from ..printers import render

    buf = io.StringIO()
    render(tree, buf, fmt="text", nodes="none")
    return buf.getvalue().split("\n\n")[0]


TREE_PROMPT = ("the whole tree, one line a branch as infotree prints it, each leaf with its class and rows "
               "(a branch below another indented by '|  ')")


def _tree_questions(tree, split_text, prompt=TREE_PROMPT) -> list:
    """The root's split and the whole tree (one claim: check grades it node by node)."""
    out = [Question("root", split_text(tree.root), 2)] if tree.root.split is not None else []
    return out + [Question("tree", _tree_block(tree), max(len(tree) - 1, 1), prompt=prompt)]


class _Kind:
    name = title = task = ""
    rows = (10, 16)
    features = (3, 4)
    #: a class column (not a regression target): each class must hold a quarter of the rows
    classify = True
    #: the root's value (entropy, Gini) is asked: its denominator is the number of rows
    root_denominator = False

    def shape(self, sol):
        return None

    def ties(self, sol):
        return _node_ties(sol.tree, [n for n in sol.tree.root.walk() if n.split is not None])

    def solve(self, path, options, rng):
        return Solution(options, tree=grow(path, options)[1])

    def worked(self, sol):
        """[(heading, tree)]: the trees whose ``--steps`` solution the key prints."""
        return [("", sol.tree)]


class ID3(_Kind):
    name, title = "id3", "ID3: entropy and information gain"
    task = ("Grow the ID3 decision tree for {target} (information gain; a tie goes to the attribute "
            "listed first). Give each value exactly or to 4 decimals.")
    root_denominator = True

    def draw(self, rng, rows, features):
        return tables.nominal_table(rng, rows=rows, features=features)

    def options(self, header):
        return {"algorithm": "id3", "criterion": "gain", "target": header[-1]}

    def shape(self, sol):
        return None if _depth(sol.tree) == 2 else f"the tree has depth {_depth(sol.tree)}, not 2"

    def questions(self, sol):
        t = sol.tree
        out = [Question(f"H({t.target})", _exact_text(t.root.entropy), 1, t.root.entropy)]
        for c in t.root.candidates():
            out.append(Question(f"IG({c.feature})", _exact_text(c.gain), 2, c.gain))
        return out + _tree_questions(t, lambda n: n.split_feature)


class C45(_Kind):
    name, title = "c45", "C4.5: gain ratio, a numeric threshold, a missing value"
    task = ("Grow C4.5's tree for {target} (gain ratio among the attributes of at least average gain; a numeric "
            "attribute split at its best cut, as C4.5 takes it; a missing value '?' weighted as C4.5 does). "
            "Give each value exactly or to 4 decimals.")
    rows = (10, 16)
    root_denominator = True

    def draw(self, rng, rows, features):
        header, body = tables.numeric_table(rng, rows=rows, features=features)
        i = rng.randrange(rows)
        body[i][rng.randrange(1, len(header) - 1)] = "?"  # one nominal cell: C4.5's fractional weights
        return header, body

    def options(self, header):
        return {"algorithm": "c45", "criterion": "gain-ratio", "target": header[-1]}

    def shape(self, sol):
        t = sol.tree
        if t.root.split is None or t.kinds[t.root.split] != "numeric":
            return "the root does not split on the numeric attribute"
        return None if _depth(t) <= 2 else f"the tree has depth {_depth(t)}, more than 2"

    def questions(self, sol):
        t = sol.tree
        out = [Question(f"H({t.target})", _exact_text(t.root.entropy), 1, t.root.entropy)]
        for c in t.root.candidates():
            out.append(Question(f"IG({c.feature})", _exact_text(c.gain), 2, c.gain))
            out.append(Question(f"SplitInfo({c.feature})", _exact_text(c.split_info), 1, c.split_info))
            if c.gain_ratio is not None:
                out.append(Question(f"GR({c.feature})", _exact_text(c.gain_ratio), 2, c.gain_ratio))
        return out + _tree_questions(t, _split_text)


class Gini(_Kind):
    name, title = "gini", "CART with the Gini index: binary splits and subsets"
    task = ("Grow the CART tree for {target} with the Gini index to depth 2 (binary splits: a value subset "
            "against the rest; a tie goes to the attribute listed first). Give each value exactly or to 4 "
            "decimals; write a split as 'colour in {{red, blue}}'.")
    root_denominator = True

    def draw(self, rng, rows, features):
        return tables.nominal_table(rng, rows=rows, features=features)

    def options(self, header):
        return {"algorithm": "cart", "criterion": "gini", "target": header[-1], "max_depth": 2,
                "min_samples_split": 2, "min_leaf": 1, "cp": "0"}

    def shape(self, sol):
        t = sol.tree
        if any(len(dom) < 3 for j, dom in enumerate(t.domains) if j == t.root.split):
            return "the root's attribute has two values: no subset to choose"
        return None if _depth(t) == 2 else f"the tree has depth {_depth(t)}, not 2"

    def questions(self, sol):
        t = sol.tree
        target = t.target
        out = [Question(f"Gini({target})", _exact_text(t.root.impurity), 1, t.root.impurity)]
        for c in t.root.candidates():
            out.append(Question(f"Gini({target} | split on {c.feature})", _exact_text(c.weighted), 2, c.weighted))
            out.append(Question(f"ΔGini({c.feature})", _exact_text(c.decrease), 1, c.decrease))
        return out + _tree_questions(t, _split_text)


class Regression(_Kind):
    name, title = "regression", "Regression tree: means, SSE and the best cut"
    task = ("Grow the regression tree for {target} to depth 2 (CART's squared error: each split the cut of least "
            "SSE(left) + SSE(right); a tie goes to the attribute listed first). Give each value exactly or to 4 "
            "decimals; write a cut as 'age <= 30.5' (the midpoint between two values).")
    features = (2, 3)
    classify = False

    def draw(self, rng, rows, features):
        return tables.regression_table(rng, rows=rows, features=features)

    def options(self, header):
        return {"algorithm": "cart", "criterion": "squared-error", "target": header[-1], "numeric": "auto",
                "max_depth": 2, "min_samples_split": 2, "min_leaf": 1, "cp": "0"}

    def shape(self, sol):
        return None if _depth(sol.tree) == 2 else f"the tree has depth {_depth(sol.tree)}, not 2"

    def questions(self, sol):
        t = sol.tree
        y = t.target
        out = [Question(f"Mean({y})", _exact_text(t.root.mean), 1, t.root.mean),
               Question(f"SSE({y})", _exact_text(t.root.risk), 1, t.root.risk)]
        for c in t.root.candidates():
            out.append(Question(f"ΔSSE({c.feature})", _exact_text(c.decrease), 2, c.decrease))
        return out + _tree_questions(t, _split_text)


def _between(low, high) -> Fraction:
    """The simplest fraction strictly between low and high (smallest denominator, then numerator)."""
    for d in range(1, 1000):
        n = math.floor(low * d) + 1
        if Fraction(n, d) < high:
            return Fraction(n, d)
    return (low + high) / 2


class CostComplexity(_Kind):
    name, title = "cost-complexity", "Cost-complexity pruning: the weakest-link sequence"
    task = ("The CART tree T0 below was grown fully (Gini; rpart's risk R(t): the rows t misclassifies as a "
            "leaf). Prune it by cost complexity: g(t) = (R(t) - R(T_t)) / (leaves(T_t) - 1) for each internal "
            "node t, cut the weakest link, repeat. Give each value exactly.")
    rows = (10, 14)
    features = (2, 3)

    def draw(self, rng, rows, features):
        return tables.numeric_table(rng, rows=rows, features=features, noise=rng.randint(1, 2))

    def options(self, header):
        return {"algorithm": "cart", "criterion": "gini", "target": header[-1], "numeric": header[0],
                "min_samples_split": 2, "min_leaf": 1}

    def solve(self, path, options, rng):
        from ..complexity import pruning_path

        t0 = grow(path, dict(options, cp="0"))[1]
        sol = Solution(options, tree=t0, path=pruning_path(t0))
        steps = sol.path.steps
        if len(steps) < 2:
            return sol
        k = len(steps) // 2  # the tree between the middle alphas
        alpha = _between(steps[k - 1].alpha, steps[k].alpha)
        sol.options = dict(options, prune="cost-complexity", alpha=number_text(alpha))
        sol.pruned = grow(path, sol.options)[1]
        sol.extra.update(alpha=alpha, k=k)
        return sol

    def shape(self, sol):
        if sol.pruned is None:
            return "the sequence has one step"
        internal = sum(1 for n in sol.tree.root.walk() if n.split is not None)
        if not 3 <= internal <= 5:
            return f"T0 has {internal} internal nodes, not 3 to 5"
        return None if _depth(sol.tree) <= 3 else f"T0 has depth {_depth(sol.tree)}, more than 3"

    def ties(self, sol):
        return [f"step {i + 1} cuts {len(s.links)} nodes of the same alpha {number_text(s.alpha)}: "
                + "; ".join(_path(link.node) for link in s.links) for i, s in enumerate(sol.path.steps)
                if len(s.links) > 1]

    def questions(self, sol):
        from ..complexity import resubstitution

        path = sol.path
        out = []
        for node in sol.tree.root.walk():
            if node.split is None:
                continue
            t = _path(node)
            leaves = [d for d in node.walk() if d.split is None]
            r, rt = resubstitution(node), sum(map(resubstitution, leaves))
            g = (r - rt) / (len(leaves) - 1)  # g(t) in T0 (the sequence records it at each cut)
            out += [Question(f"R({t})", _exact_text(r), 1, r),
                    Question(f"R(T_{{{t}}})", _exact_text(rt), 1, rt),
                    Question(f"alpha({t})", _exact_text(g), 2, g)]
        first_link = path.steps[0].links[0].node
        out.append(Question("weakest link", _path(first_link), 2,
                            hint="the node cut first, named by its path as in alpha(...)"))
        alphas = [s.alpha for s in path.steps]
        out.append(Question("alphas", ", ".join(map(_exact_text, alphas)), 3,
                            hint="every alpha of the sequence, smallest first, separated by commas"))
        k = sol.extra["k"]
        out.append(Question(f"R(T_{k})", _exact_text(path.steps[k - 1].risk), 1, path.steps[k - 1].risk))
        out += [q for q in _tree_questions(sol.pruned, _split_text, f"the tree T0 pruned at alpha = "
                                           f"{number_text(sol.extra['alpha'])}, one line a branch as T0 is printed")
                if q.claim == "tree"]
        return out


class Bagging(_Kind):
    name, title = "bagging", "Bagging: trees on bootstrap samples, votes and the out-of-bag error"
    task = ("Grow an ID3 tree (information gain) on each bootstrap sample below: the rows listed, a row listed "
            "twice counts twice. The forest predicts the majority vote of its trees. Give fractions exactly.")
    trees = 3

    def draw(self, rng, rows, features):
        return tables.nominal_table(rng, rows=rows, features=features)

    def options(self, header):
        # bagging as the sheet asks for it, not forest's scikit-learn defaults (√M features, averaged leaves)
        return {"criterion": "gain", "target": header[-1], "trees": self.trees, "max-features": "all",
                "vote": "majority"}

    def solve(self, path, options, rng):
        from ..cli.args import forest_from_args, read_data

        data = read_data(str(path), _args("forest", path, options))
        n = data.n_rows
        samples = [",".join(str(r) for r in sorted(rng.randrange(n) + 1 for _ in range(n)))
                   for _ in range(self.trees)]
        options = dict(options, sample=samples)
        forest = forest_from_args(_args("forest", path, options), data)
        ballots, _, error = forest.oob()
        sol = Solution(options, forest=forest, extra={"oob": (ballots, error), "samples": samples})
        # the rows asked about: one the trees disagree on (when there is one) and one other
        votes = forest.ballots()
        order = list(range(n))
        rng.shuffle(order)
        split = [i for i in order if len(set(votes[i].votes)) > 1]
        first = split[0] if split else order[0]
        oob_rows = [i for i in order if ballots[i].prediction is not None and i != first]
        sol.extra["rows"] = (first, oob_rows[0] if oob_rows else None)
        return sol

    def shape(self, sol):
        ballots, error = sol.extra["oob"]
        if error is None or sol.extra["rows"][1] is None:
            return "no row is out of bag"
        return None

    def ties(self, sol):
        f = sol.forest
        out = []
        for k, tree in enumerate(f.trees):
            inner = [n for n in tree.root.walk() if n.split is not None]
            out += [f"tree {k + 1}: " + s for s in _node_ties(tree, inner)]
        ballots, _ = sol.extra["oob"]
        for i, b in enumerate(ballots):
            if len(b.tied) > 1:
                out.append(f"row {i + 1}'s out-of-bag votes tie ({' = '.join(f.classes[c] for c in b.tied)}); "
                           f"the first class in class order, {f.classes[b.tied[0]]}, is predicted")
        return out

    def questions(self, sol):
        f = sol.forest
        row, oob_row = sol.extra["rows"]
        ballots, error = sol.extra["oob"]
        b = f.ballots()[row]
        out = [Question(f"vote(tree {t + 1}, row {row + 1})", f.classes[v], 1) for t, v in enumerate(b.votes)]
        p = b.proba[b.prediction]
        hint = "the share of the trees voting for the forest's class, written as '2/3 for yes'"
        out.append(Question(f"votes(row {row + 1})", f"{_exact_text(p)} for {f.classes[b.prediction]}", 1, p,
                            hint=hint))
        out.append(Question(f"prediction(row {row + 1})", f.classes[b.prediction], 1))
        ob = ballots[oob_row]
        q = ob.proba[ob.prediction]
        out.append(Question(f"OOB votes(row {oob_row + 1})", f"{_exact_text(q)} for {f.classes[ob.prediction]}", 1, q,
                            hint="the same, by the trees that did not draw the row"))
        out.append(Question(f"OOB prediction(row {oob_row + 1})", f.classes[ob.prediction], 1))
        out.append(Question("OOB error", _exact_text(error), 3, error))
        return out

    def worked(self, sol):
        return [(f"Tree {k + 1}", tree) for k, tree in enumerate(sol.forest.trees)]


KINDS = {k.name: k for k in (ID3(), C45(), Gini(), Regression(), CostComplexity(), Bagging())}
