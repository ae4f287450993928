"""infotree check on cost-complexity homework (issue 24 item 6): alpha(path) / g(path), R(t), R(T_t), the
sequence's alphas, a cp table's CP and rel error, the weakest link, and the worked example's own lines.

Expected values are computed here: R(t) from the CSV rows that reach a node, and the sequence by
enumerating every pruning of T0 with Fractions and taking, for each alpha, the smallest subtree of least
R(T) + alpha·|leaves(T)| (Breiman et al.'s definition), not by infotree.complexity.
"""

import csv
import itertools
import json
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from infotree import load
from infotree.check import check_answers, report_json
from infotree.check.expected import split_condition
from infotree.criteria import criterion_named
from infotree.growing import build_tree

EXAMPLE = Path(__file__).resolve().parent.parent / "worked_examples" / "cost_complexity"
DATA = EXAMPLE / "data.csv"
FULL = {"criterion": "gini", "cp": Fraction(0), "min_samples_split": 2, "min_leaf": 1}


def grow(data):
    return build_tree(data, criterion=criterion_named("gini"), cp=0, min_samples_split=2, min_leaf=1,
                      max_depth=30, competitors=4, surrogates=5)


def read(path):
    return load(path, numeric="auto")  # as 'infotree check --algorithm cart' reads a CSV


def check(text, data=DATA, **options):
    return check_answers(text, read(data), criterion="gini", tree_options={**FULL, **options}).results


def conds_of(node):
    out = []
    while node.parent is not None:
        out.append(split_condition(node.parent.test, node.parent.children.index(node), node.parent.split_feature))
        node = node.parent
    return out[::-1]


def path_text(node):
    parts = []
    for f, op, v in conds_of(node):
        parts.append(f"{f} {op} {{{', '.join(v)}}}" if op in ("in", "not in") else f"{f} {op} {v}")
    return ", ".join(parts) or "root"


def holds(row, cond):
    f, op, v = cond
    x = row[f]
    if op in ("in", "not in"):
        return (x in v) == (op == "in")
    return (Fraction(x) <= v) == (op == "<=")


def risk(rows, node, target):
    """Misclassified rows at the node as a leaf, from the CSV rows that satisfy its path."""
    labels = [r[target] for r in rows if all(holds(r, c) for c in conds_of(node))]
    return Fraction(len(labels) - max(Counter(labels).values()))


def prunings(node):
    """Every pruned subtree of the branch at ``node``: frozensets of its leaves (nodes kept as leaves)."""
    if node.split is None:
        return [frozenset([id(node)])]
    below = [prunings(c) for c in node.children]
    out = [frozenset([id(node)])]
    for combo in itertools.product(*below):
        out.append(frozenset().union(*combo))
    return out


def brute_sequence(tree, rows, target):
    """[(alpha_k, R(T_k), leaves)] of the smallest minimisers of R(T) + alpha·|T|, by enumeration."""
    nodes = {id(n): n for n in tree.root.walk()}
    r = {k: risk(rows, n, target) for k, n in nodes.items()}
    trees = [(sum(r[i] for i in t), len(t), t) for t in prunings(tree.root)]
    cands = sorted({Fraction(0)} | {(ra - rb) / (nb - na) for (ra, na, _), (rb, nb, _) in
                                    itertools.combinations(trees, 2) if nb != na and (ra - rb) / (nb - na) > 0})
    out, last = [], None
    for a in cands:
        best = min(trees, key=lambda t: (t[0] + a * t[1], t[1]))
        if best != last:
            out.append((a, best[0], best[1], best[2]))
            last = best
    return out  # [0] is T0 at alpha 0


def rows_of(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


# -- the worked example --

def test_every_internal_node_alpha_risks_and_sequence_against_enumeration():
    data, rows = read(DATA), rows_of(DATA)
    tree = grow(data)
    lines = []
    for node in tree.root.walk():
        if node.split is None:
            continue
        leaves = [d for d in node.walk() if d.split is None]
        rt, rb = risk(rows, node, "buy"), sum(risk(rows, d, "buy") for d in leaves)
        p = path_text(node)
        lines += [f"alpha({p}) = {(rt - rb) / (len(leaves) - 1)}", f"g({p}) = {(rt - rb) / (len(leaves) - 1)}",
                  f"R({p}) = {rt}", f"R(T_{{{p}}}) = {rb}"]
    seq = brute_sequence(tree, rows, "buy")[1:]
    assert [a for a, *_ in seq] == [Fraction(1, 2), 1, 2, 3]
    lines += [f"alpha_{k} = {a}" for k, (a, *_) in enumerate(seq, 1)]
    lines += [f"R(T_{k}) = {rk}" for k, (_, rk, *_) in enumerate(seq, 1)]
    lines.append("alphas = " + ", ".join(str(a) for a, *_ in seq))
    results = check("\n".join(lines))
    assert len(results) == len(lines) and all(r.right for r in results), [(r.text, r.message) for r in results]


def test_wrong_imprecise_close_and_unreadable_verdicts():
    results = check("""alpha(colour in {green, blue}, size > 5) = 1
alpha(root) = 1.4
alpha(root) = 1.40
CP(row 3) = 0.14
alpha_1 = 0.5
alpha_2 = 0.5
alpha(colour in {green, blue}, size <= 5) = 1
alpha(size > 5) = 1
CP(row 9) = 1
alphas = 1/2, 1, 2
alpha(root) = (7 - 1)/(6 - 1) = 7/5""")
    assert [r.verdict for r in results] == ["wrong", "right", "right", "imprecise", "right", "wrong", "unreadable",
                                            "unreadable", "unreadable", "wrong", "wrong"]
    assert "is a leaf of T0" in results[6].message
    assert "T0 has no node size > 5: root splits on colour" in results[7].message
    assert "rows 1 to 5" in results[8].message
    assert "4 alphas" in results[9].message
    assert results[10].message.startswith("step 1")


def test_weakest_links_step_by_step():
    results = check("""weakest link = colour in {green, blue}, size > 5
weakest link_2 = colour = red
weakest link_3 = colour in {green, blue}
weakest link_4 = root
weakest link = colour not in {green, blue}
weakest link_2 = colour in {green, blue}, size > 5, size <= 7.5""")
    assert [r.verdict for r in results] == ["right"] * 4 + ["wrong"] * 2
    assert results[4].kind == "weakest_link" and "its alpha is 1, cut at step 2" in results[4].message
    assert "never cuts it itself" in results[5].message


def test_node_of_a_context_line_and_subset_side_by_one_value():
    results = check("Node: colour in {green, blue}\nR(t) = 3\nR(T_t) = 0\nalpha(t) = 1\nalpha(colour = green) = 1\n"
                    "g(colour = red) = 1")
    assert all(r.right for r in results), [(r.text, r.message) for r in results]


def test_cp_table_rows_are_alpha_over_root_risk_and_risk_over_root_risk():
    rows = rows_of(DATA)
    tree = grow(read(DATA))
    seq = brute_sequence(tree, rows, "buy")[1:]
    r0 = risk(rows, tree.root, "buy")
    # rpart's order: the root first (largest CP), T0 last with CP 0
    table = [(a / r0, leaves - 1, rk / r0) for a, rk, leaves, _ in reversed(seq)] + [(Fraction(0), 5, Fraction(0))]
    lines = []
    for i, (cp, nsplit, rel) in enumerate(table, 1):
        lines += [f"CP(row {i}) = {cp}", f"CP_{i} = {float(cp):.4f}", f"CP(nsplit = {nsplit}) = {cp}",
                  f"rel error(row {i}) = {rel}", f"rel error(nsplit = {nsplit}) = {float(rel):.4f}",
                  f"CP = {float(cp):.4f}, nsplit = {nsplit}, rel error = {float(rel):.4f}"]
    results = check("\n".join(lines))
    assert len(results) == len(lines) and all(r.right for r in results), \
        [(r.text, r.message) for r in results if not r.right]
    wrong = check("CP = 1/7, nsplit = 2, rel error = 1/7\nCP = 0.1, nsplit = 7\nCP(row 0) = 1")
    assert [r.verdict for r in wrong] == ["wrong", "unreadable", "unreadable"]
    assert wrong[0].message.startswith("rel error: ") and "nsplit 0, 1, 2, 3, 5" in wrong[1].message


def test_readme_round_trip():
    """The worked example's own lines and tables, fed back, are all right."""
    text = EXAMPLE.joinpath("README.md").read_text(encoding="utf-8")
    step1 = [line for line in text.split("## Step 1", 1)[1].split("The least", 1)[0].splitlines() if "R(t) =" in line]
    assert len(step1) == 5
    claims = list(step1)
    seq = text.split("**the nested sequence", 1)[1].split("**each weakest link", 1)[0]
    for m in re.finditer(r"^\| (\d+) \| `([^`]+)` \| [0-9.]+ \| (.+?) \| \d+ \| `([^`]+)` \|$", seq, re.MULTILINE):
        k, alpha, cut, r = m.groups()
        claims += [f"alpha_{k} = {alpha}", f"R(T_{k}) = {r}", f"weakest link_{k} = {cut.replace(chr(92), '')}"]
    exact = text.split("**exact values**", 1)[1].split("###", 1)[0]
    for m in re.finditer(r"^\| (\d+) \| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|", exact, re.MULTILINE):
        i, cp, _, rel = m.groups()
        claims += [f"CP(row {i}) = {cp}", f"rel error(row {i}) = {rel}"]
    assert len(claims) == 5 + 3 * 4 + 2 * 5
    results = check("\n".join(claims))
    assert len(results) == len(claims) and all(r.right for r in results), \
        [(r.text, r.message) for r in results if not r.right]


def test_the_line_of_a_node_in_every_tree_of_the_sequence():
    """g(t) recomputed as the sequence cuts below t (the README: "its g becomes (3 - 1)/(2 - 1) = 2"): the
    line is right in every T_k (enumerated) where t is still internal."""
    rows = rows_of(DATA)
    tree = grow(read(DATA))
    claims = []
    for _, _, _, kept in brute_sequence(tree, rows, "buy"):
        for node in tree.root.walk():
            below = [d for d in node.walk() if id(d) in kept]
            if node.split is None or id(node) in kept or not below:
                continue  # a leaf of T0, or not internal in this T_k
            rt, rb = risk(rows, node, "buy"), sum(risk(rows, d, "buy") for d in below)
            claims.append(f"{path_text(node)}  R(t) = {rt}, R(T_t) = {rb}, leaves {len(below)}: "
                          f"alpha = ({rt} - {rb})/({len(below)} - 1) = {(rt - rb) / (len(below) - 1)}")
    assert len(claims) == 5 + 3 + 2 + 1
    results = check("\n".join(claims))
    assert all(r.right for r in results), [(r.text, r.message) for r in results if not r.right]


def test_a_wrong_number_in_the_readme_line_is_named():
    r, = check("colour in {green, blue}   R(t) = 3, R(T_t) = 1, leaves 4: alpha = (3 - 1)/(4 - 1) = 2/3")
    assert r.verdict == "wrong" and r.message.startswith("R(T_t): 1 is not the value")


@pytest.mark.parametrize("seed", range(6))
def test_random_data_against_enumeration(seed, tmp_path):
    rng = random.Random(seed)
    lines = ["a,b,x,y"] + [f"{rng.choice('pqr')},{rng.choice('st')},{rng.randint(1, 9)},{rng.choice('uvw')}"
                           for _ in range(22)]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(lines) + "\n")
    data, rows = read(path), rows_of(path)
    tree = grow(data)
    if sum(1 for _ in prunings(tree.root)) > 50_000:
        pytest.skip("too many prunings to enumerate")
    seq = brute_sequence(tree, rows, "y")[1:]
    claims = ["alphas = " + ", ".join(str(a) for a, *_ in seq)]
    for node in tree.root.walk():
        if node.split is not None:
            leaves = [d for d in node.walk() if d.split is None]
            rt, rb = risk(rows, node, "y"), sum(risk(rows, d, "y") for d in leaves)
            claims.append(f"alpha({path_text(node)}) = {(rt - rb) / (len(leaves) - 1)}")
    results = check("\n".join(claims), data=path)
    assert all(r.right for r in results), [(r.text, r.message) for r in results if not r.right]


def test_json_kinds_and_refusal_without_cart():
    results = check("alpha_1 = 1/2\nR(root) = 7\nCP(row 1) = 3/7\nrel error(row 2) = 4/7\nweakest link = root\n"
                    "alphas = 1/2, 1, 2, 3")
    assert [r.kind for r in results] == ["ccp_alpha", "risk", "cp", "rel_error", "weakest_link", "ccp_alphas"]
    report = check_answers("alpha(root) = 7/5", load(DATA), criterion="gain")
    doc = report_json(report, data="d", answers="a")
    assert doc["version"] == 3
    claim, = doc["claims"]
    assert claim["verdict"] == "unreadable" and "--algorithm cart" in claim["message"]
    json.dumps(doc)


def test_readme_scikit_learn_risk_round_trip(tmp_path):
    """The README's scikit-learn section (R(t) = N_t/N · Gini(t)), through the command line with
    --prune cost-complexity --risk impurity: its sequence, and each weakest link's line in the tree it was
    cut from (root: R(T_t) = 31/140 with 3 leaves, in T_2)."""
    import io

    from infotree.cli.check import run_check_command
    from infotree.cli import build_parser

    text = EXAMPLE.joinpath("README.md").read_text(encoding="utf-8").split("## scikit-learn's risk", 1)[1]
    claims = []
    seq = text.split("**the nested sequence", 1)[1].split("**each weakest link", 1)[0]
    for m in re.finditer(r"^\| (\d+) \| `([^`]+)` \| [0-9.]+ \| (.+?) \| \d+ \| `([^`]+)` \|$", seq, re.MULTILINE):
        k, alpha, cut, r = m.groups()
        claims += [f"alpha_{k} = {alpha}", f"R(T_{k}) = {r}", f"weakest link_{k} = {cut.replace(chr(92), '')}"]
    links = text.split("**each weakest link", 1)[1]
    for m in re.finditer(r"^\| \d+ \| (.+?) \| `([^`]+)` \| `([^`]+)` \| (\d+) \| `([^`]+)` \|", links, re.MULTILINE):
        node, rt, rb, leaves, alpha = m.groups()
        claims.append(f"{node.replace(chr(92), '')}  R(t) = {rt}, R(T_t) = {rb}, leaves {leaves}: alpha = {alpha}")
    assert len(claims) == 3 * 3 + 3
    answers = tmp_path / "a.txt"
    answers.write_text("\n".join(claims) + "\nalpha_1 = 1/2\n", encoding="utf-8")
    args = build_parser("check").parse_args(
        ["check", str(answers), "--data", str(DATA), "--algorithm", "cart", "--min-samples-split", "2",
         "--min-leaf", "1", "--prune", "cost-complexity", "--risk", "impurity", "--alpha", "0"])
    out = io.StringIO()
    assert run_check_command(args, out) == 1
    lines = out.getvalue().splitlines()
    assert [line[0] for line in lines if " line " in line[:10]] == ["✓"] * len(claims) + ["✗"], out.getvalue()


KYPHOSIS = Path(__file__).parent / "data" / "kyphosis.csv"


@pytest.mark.parametrize("data, extra", [(DATA, ["--folds", "3"]), (KYPHOSIS, ["--min-digits", "2"])])
def test_cptable_text_output_fed_back(data, extra, tmp_path, capsys):
    """'infotree cptable --steps' output is read back row by row: every table row's claims are right
    (kyphosis' decimal CPs such as 0.0089 have 2 significant digits, hence --min-digits 2); a changed
    alpha is wrong."""
    from infotree.cli import main

    growth = ["--cp", "0", "--min-samples-split", "2", "--min-leaf", "1"]
    folds = [x for x in extra if x != "--min-digits" and x != "2"]
    assert main(["cptable", str(data), *growth, "--steps", *folds]) == 0
    printed = capsys.readouterr().out
    answers = tmp_path / "cptable.txt"
    answers.write_text(printed, encoding="utf-8")
    digits = [x for x in extra if x not in folds]
    assert main(["check", str(answers), "--data", str(data), "--algorithm", "cart", *growth, *digits]) == 0
    out = capsys.readouterr().out
    assert "?" not in {line[:1] for line in out.splitlines()}, out
    n = int(re.search(r"(\d+)/\1 correct", out).group(1))
    seq_rows = len(re.findall(r"^\s+\d+\s+\S+\s+\d+\.\d{4}\s", printed.split("the nested sequence", 1)[1], re.MULTILINE))
    assert n >= 2 + 3 * seq_rows
    changed = printed.replace("(1 - 0)/(3 - 1) = 1/2", "(1 - 0)/(3 - 1) = 1/3", 1)
    if changed != printed:
        answers.write_text(changed, encoding="utf-8")
        assert main(["check", str(answers), "--data", str(data), "--algorithm", "cart", *growth, *digits]) == 1
        assert "✗" in capsys.readouterr().out


@pytest.mark.parametrize("pruning", [["--alpha", "1"], ["--cp", "1/10"], ["--risk", "impurity", "--alpha", "1/20"]])
def test_tree_steps_pruned_by_cost_complexity_fed_back(pruning, tmp_path, capsys):
    """'infotree tree --prune cost-complexity --steps' output checked with the same options: every claim right,
    nothing unreadable (each pruned node's cost-complexity table is skipped as the node report's tables are)."""
    from infotree.cli import main

    options = ["--algorithm", "cart", "--min-samples-split", "2", "--min-leaf", "1", "--prune", "cost-complexity",
               *pruning]
    assert main(["tree", str(DATA), *options, "--steps"]) == 0
    answers = tmp_path / "steps.txt"
    answers.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["check", str(answers), "--data", str(DATA), *options]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^(\d+)/\1 correct$", out, re.MULTILINE), out
