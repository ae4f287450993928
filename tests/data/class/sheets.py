"""The class answer sheets and their key: each sheet is a list of its lines, '' a blank line, and
every other line a claim with its truth (class_truth.M, S, T) or not a claim (N).

`python tests/class_truth.py --write` writes <family>/<student>.txt and truth.csv from here;
`--verify` recomputes every value and checks every written answer against the key. The values
come from class_truth's own arithmetic on the data files (never from infotree).
"""

from fractions import Fraction as F

import mpmath

from class_truth import (M, N, S, T, Table, sym, _num, best_cut, binary_splits, c45, ccp_sequence, cond_text, sse_split, cart, entropy, entropy_ln, gain, gain_ratio, gini, gini_split,
                         id3, info_given, mean, path_text, predict, sample_rows, select, split_info, sse,
                         tree_at, value_of, leaves, g_alpha, errors)

# -- ID3: the loan applications (Li Hang, table 5.1) -------------------------------------------------

LOAN = Table("loan.csv", "approve")
D = LOAN.rows
LOAN_TREE = id3(LOAN, D)


def H(*conds):
    return entropy(LOAN.counts(select(D, *conds)))


def G(a, *conds):
    return gain(LOAN, select(D, *conds), a)


def I(a, *conds):
    return info_given(LOAN, select(D, *conds), a)


def SI(a):
    return split_info(LOAN, D, a)


def GR(a):
    return gain_ratio(LOAN, D, a)


HOUSE_NO = ("house", "=", "no")
LN_H = entropy_ln(LOAN.counts(D))


def root_of(tree):
    return tree.get("split") or path_text([tree["cond"][0]])


def loan_tree(path, **kw):
    return T(kw.pop("text"), LOAN_TREE, path, **kw)


ID3 = {
    "s01.txt": [
        N("# HW 2, question 1: loan data, ID3 (student s01)", "heading"),
        "",
        M("Info(D) = -(9/15)log2(9/15) - (6/15)log2(6/15) = 0.971", H()),
        M("Info_age(D) = 5/15 × 0.971 + 5/15 × 0.971 + 5/15 × 0.722 = 0.888", I("age")),
        M("Gain(age) = 0.971 - 0.888 = 0.083", G("age")),
        M("Info_job(D) = 0.647", I("job")),
        M("Gain(job) = 0.324", G("job")),
        M("Info_house(D) = 0.551", I("house")),
        M("Gain(house) = 0.420", G("house")),
        M("Gain(credit) = 0.608", G("credit"), "forgot to subtract from the parent", via=I("credit")),
        N("house has the largest gain, so we split on it first."),
        S("root = house", root_of(LOAN_TREE), "house", "house"),
    ],
    "s02.txt": [
        N("Q1 (Mitchell's notation)", "heading"),
        M("Entropy(S) = 0.673", H(), "natural log instead of log2", via=LN_H),
        M("Gain(S, Age) = 0.083", G("age")),
        M("Gain(S, Job) = 0.324", G("job")),
        M("Gain(S, House) = 0.420", G("house")),
        M("Gain(S, Credit) = 0.363", G("credit")),
        N("Entropy(S_no) = 0.918", "ambiguous"),
        M("Gain(S_{house=no}, Job) = 0.918", G("job", HOUSE_NO)),
        M("Gain(S_{house=no}, Credit) = 0.474", G("credit", HOUSE_NO)),
        M("Gain(S_{house=no}, Age) = 0.352", G("age", HOUSE_NO), "arithmetic slip"),
    ],
    "s03.txt": [
        N("information gain IG(Y|X) = H(Y) - H(Y|X), Y = approve", "prose"),
        M("H(approve) = 0.971", H()),
        M("H(approve|house) = 0.551", I("house")),
        M("IG(approve|house) = 0.420", G("house")),
        M("IG(approve|credit) = 0.363", G("credit")),
        M("IG(approve|age) = 0.0830", G("age")),
        M("H(approve|credit) = 0.547", I("credit"), "unweighted average of the branch entropies",
          via=(entropy([4, 1]).mpf() + entropy([2, 4]).mpf()) / 3),
        M("IG(approve|job) = 0.647", G("job"), "forgot to subtract from the parent", via=I("job")),
        N("so the first test is house, then job"),
    ],
    "s04.txt": [
        N("Gain ratios (C4.5 style, but all attributes nominal)", "heading"),
        M("SplitInfo_age(D) = log2(3) = 1.585", SI("age")),
        M("GainRatio(age) = 0.083/1.585 = 0.052", GR("age")),
        M("SplitInfo_credit(D) = 0.971", SI("credit"), "split information taken for the class entropy", via=H()),
        M("GainRatio(credit) = 0.363/0.971 = 0.374", GR("credit"), "split information taken for the class entropy",
          via=sym(G("credit")) / sym(H())),
        M("GainRatio(job) = 0.324/0.918 = 0.353", GR("job"), carried=True),
        M("GainRatio(house) = 0.420", GR("house"), "gain and gain ratio swapped", via=G("house")),
        N("GainRatio(house) = ???", "unreadable"),
        M("SplitInfo(house) = 0.971", SI("house")),
    ],
    "s05.txt": [
        N("Second level, D_2 = rows with house = no (9 rows: 3 yes, 6 no)", "prose"),
        M("Entropy(S_{house = no}) = 0.918", H(HOUSE_NO)),
        M("Info_age(D_{house=no}) = 0.667", I("age", HOUSE_NO)),
        M("Gain(house = no, age) = 0.918 - 0.667 = 0.251", G("age", HOUSE_NO), carried=True),
        M("Gain(house = no, credit) = 0.971 - 0.444 = 0.527", G("credit", HOUSE_NO),
          "wrong parent: the root's entropy", via=H() - I("credit", HOUSE_NO)),
        M("Gain(S_{house=no}, credit) = 0.444", G("credit", HOUSE_NO), "forgot to subtract from the parent",
          via=I("credit", HOUSE_NO)),
        M("Gain(S_{house=no}, job) = 0.918", G("job", HOUSE_NO)),
        S("split(house = no) = job", tree_at(LOAN_TREE, [HOUSE_NO])["split"], "job", "job"),
        S("leaf(house = yes) = yes", tree_at(LOAN_TREE, [("house", "=", "yes")])["leaf"], "yes", "yes"),
        S("leaf(house = no, job = no) = yes", tree_at(LOAN_TREE, [HOUSE_NO, ("job", "=", "no")])["leaf"], "yes",
          "no", "wrong leaf class"),
    ],
    "s06.txt": [
        M("Info(D) = 0.971", H()),
        M("Info_credit(D) = 5/15(0.722) + 6/15(0.918) + 4/15(0) = 0.608", I("credit")),
        M("Gain(credit) = 0.971 - 0.608 = 0.363", G("credit")),
        M("GainRatio(credit) = 0.232", GR("credit")),
        M("Gain(age) = 0.971 - 0.888 = 0.093", G("age"), "arithmetic slip"),
        M("Gain(house) = 0.971 - 0.551 = 0.420", G("house")),
        "",
        N("final tree:", "heading"),
        T("house = yes: yes", LOAN_TREE, [("house", "=", "yes")], leaf="yes"),
        T("house = no", LOAN_TREE, [HOUSE_NO]),
        T("|   job = yes: yes", LOAN_TREE, [HOUSE_NO, ("job", "=", "yes")], leaf="yes"),
        T("|   job = no: no", LOAN_TREE, [HOUSE_NO, ("job", "=", "no")], leaf="no"),
    ],
}

ID3["s07.txt"] = [
    N("Q1 again (second attempt)", "heading"),
    M("Info(D) = -(9/15)ln(9/15) - (6/15)ln(6/15) = 0.673", H(), "natural log instead of log2", via=LN_H),
    M("Info_house(D) = (9/15)(0.918) = 0.551", I("house")),
    M("Gain(house) = 0.673 - 0.551 = 0.122", G("house"), "natural-log parent less log2 children",
      via=LN_H - I("house").mpf()),
    M("Gain(job) = 0.324", G("job")),
    M("Gain(age) = 0.888", G("age"), "forgot to subtract from the parent", via=I("age")),
    S("root = credit", root_of(LOAN_TREE), "credit", "house", "wrong root"),
    M("Info_credit(D) = -0.608", I("credit"), "sign slip", via=-I("credit").mpf()),
    M("Info(D) = 0.292", H(), "log10 instead of log2", via=H().mpf() * mpmath.log10(2)),
    M("Gain(credit) = 0.363", G("credit")),
]

SHEETS = {"id3": ID3}

# -- trees drawn as text: contact lenses (Cendrowska 1987), ID3 ------------------------------------------

LENS = Table("lenses.csv", "contact-lenses")
LENS_TREE = id3(LENS, LENS.rows)
LENS_ASTIG = id3(LENS, LENS.rows, force={(): "astigmatism"})  # carry-forward below a wrong root
NAMES = {"tear": "tear-prod-rate", "astig": "astigmatism", "spec": "spectacle-prescrip", "age": "age"}


def P(*steps):
    """A path from 'tear=normal'-style steps."""
    return [(NAMES[a], "=", v) for a, v in (s.split("=") for s in steps)]


def L(text, *steps, tree=LENS_TREE, **kw):
    return T(text, tree, P(*steps), **kw)


NORMAL, NO_ASTIG, ASTIG = "tear=normal", "astig=no", "astig=yes"

TREES = {
    "t01.txt": [
        N("Q3. ID3 tree for the contact lenses data:", "heading"),
        "",
        L("tear-prod-rate = reduced: none", "tear=reduced", leaf="none"),
        L("tear-prod-rate = normal", NORMAL),
        L("|   astigmatism = no", NORMAL, NO_ASTIG),
        L("|   |   age = young: soft", NORMAL, NO_ASTIG, "age=young", leaf="soft"),
        L("|   |   age = pre-presbyopic: hard", NORMAL, NO_ASTIG, "age=pre-presbyopic", leaf="hard",
          mistake="wrong leaf class"),
        L("|   |   age = presbyopic", NORMAL, NO_ASTIG, "age=presbyopic"),
        L("|   |   |   spectacle-prescrip = myope: none", NORMAL, NO_ASTIG, "age=presbyopic", "spec=myope", leaf="none"),
        L("|   |   |   spectacle-prescrip = hypermetrope: soft", NORMAL, NO_ASTIG, "age=presbyopic", "spec=hypermetrope",
          leaf="soft"),
        L("|   astigmatism = yes", NORMAL, ASTIG),
        L("|   |   spectacle-prescrip = myope: hard", NORMAL, ASTIG, "spec=myope", leaf="hard"),
        L("|   |   spectacle-prescrip = hypermetrope", NORMAL, ASTIG, "spec=hypermetrope"),
        L("|   |   |   age = young: hard", NORMAL, ASTIG, "spec=hypermetrope", "age=young", leaf="hard"),
        L("|   |   |   age = pre-presbyopic: none", NORMAL, ASTIG, "spec=hypermetrope", "age=pre-presbyopic", leaf="none"),
        L("|   |   |   age = presbyopic: none", NORMAL, ASTIG, "spec=hypermetrope", "age=presbyopic", leaf="none"),
    ],
    "t02.txt": [
        N("tree (arrows as in Han's figure 8.2):", "heading"),
        L("tear-prod-rate?", split="tear-prod-rate"),
        L("  reduced -> none", "tear=reduced", leaf="none"),
        L("  normal -> astigmatism?", NORMAL, split="astigmatism"),
        L("    no -> age?", NORMAL, NO_ASTIG, split="age"),
        L("      young -> soft", NORMAL, NO_ASTIG, "age=young", leaf="soft"),
        L("      pre-presbyopic -> soft", NORMAL, NO_ASTIG, "age=pre-presbyopic", leaf="soft"),
        L("      presbyopic -> soft", NORMAL, NO_ASTIG, "age=presbyopic", leaf="soft",
          mistake="a leaf where the tree splits (majority class)"),
        L("    yes -> spectacle-prescrip?", NORMAL, ASTIG, split="spectacle-prescrip"),
        L("      myope -> hard", NORMAL, ASTIG, "spec=myope", leaf="hard"),
        L("      hypermetrope -> none", NORMAL, ASTIG, "spec=hypermetrope", leaf="none",
          mistake="a leaf where the tree splits (majority class)"),
    ],
    "t03.txt": [
        N("Rules read off the tree", "heading"),
        L("IF tear-prod-rate = reduced THEN contact-lenses = none", "tear=reduced", leaf="none"),
        L("IF tear-prod-rate = normal AND astigmatism = no AND age = young THEN contact-lenses = soft",
          NORMAL, NO_ASTIG, "age=young", leaf="soft"),
        L("if tear-prod-rate = normal and astigmatism = no and age = pre-presbyopic then soft",
          NORMAL, NO_ASTIG, "age=pre-presbyopic", leaf="soft"),
        L("If tear-prod-rate = normal and astigmatism = yes and spectacle-prescrip = myope then hard",
          NORMAL, ASTIG, "spec=myope", leaf="hard"),
        L("IF tear-prod-rate = normal AND astigmatism = yes AND spectacle-prescrip = hypermetrope AND age = young "
          "THEN soft", NORMAL, ASTIG, "spec=hypermetrope", "age=young", leaf="soft", mistake="wrong leaf class"),
        L("IF tear-prod-rate = normal AND astigmatism = no AND age = presbyopic AND spectacle-prescrip = myope "
          "THEN none", NORMAL, NO_ASTIG, "age=presbyopic", "spec=myope", leaf="none"),
        L("IF astigmatism = yes AND spectacle-prescrip = myope THEN hard", ASTIG, "spec=myope", leaf="hard",
          mistake="rule without the root's test"),
        L("IF tear-prod-rate = reduced AND age = young THEN soft", "tear=reduced", "age=young", leaf="soft",
          mistake="a rule through a split the tree does not make"),
        N("(the other rules are the same pattern)"),
    ],
    "t04.txt": [
        N("Root: I picked astigmatism (it separates hard from soft)", "prose"),
        L("astigmatism = no", ASTIG.replace("yes", "no"), mistake="wrong root"),
        L("|   tear-prod-rate = reduced: none (6)", "astig=no", "tear=reduced", tree=LENS_ASTIG, leaf="none", n=6),
        L("|   tear-prod-rate = normal", "astig=no", NORMAL, tree=LENS_ASTIG),
        L("|   |   age = young: soft (2)", "astig=no", NORMAL, "age=young", tree=LENS_ASTIG, leaf="soft", n=2),
        L("|   |   age = pre-presbyopic: soft (2)", "astig=no", NORMAL, "age=pre-presbyopic", tree=LENS_ASTIG,
          leaf="soft", n=2),
        L("|   |   age = presbyopic: none (2)", "astig=no", NORMAL, "age=presbyopic", tree=LENS_ASTIG, leaf="none",
          n=2, mistake="a leaf where the tree splits (a tie taken as a class)"),
        L("astigmatism = yes", ASTIG, mistake="wrong root"),
        L("|   tear-prod-rate = reduced: none (6)", ASTIG, "tear=reduced", tree=LENS_ASTIG, leaf="none", n=6),
        L("|   tear-prod-rate = normal", ASTIG, NORMAL, tree=LENS_ASTIG),
        L("|   |   spectacle-prescrip = myope: hard (3)", ASTIG, NORMAL, "spec=myope", tree=LENS_ASTIG, leaf="hard",
          n=3),
        L("|   |   spectacle-prescrip = hypermetrope: none (3)", ASTIG, NORMAL, "spec=hypermetrope", tree=LENS_ASTIG,
          leaf="none", n=3, mistake="a leaf where the tree splits (majority class)"),
    ],
    "t05.txt": [
        N("Tree (indentation only, leaf counts in brackets)", "heading"),
        L("tear-prod-rate = reduced: none (12)", "tear=reduced", leaf="none", n=12),
        L("tear-prod-rate = normal", NORMAL),
        L("    astigmatism = yes", NORMAL, ASTIG),
        L("        spectacle-prescrip = myope: hard (3)", NORMAL, ASTIG, "spec=myope", leaf="hard", n=3),
        L("        spectacle-prescrip = hypermetrope", NORMAL, ASTIG, "spec=hypermetrope"),
        L("            age = young: hard (1)", NORMAL, ASTIG, "spec=hypermetrope", "age=young", leaf="hard", n=1),
        L("            age = pre-presbyopic: none (1)", NORMAL, ASTIG, "spec=hypermetrope", "age=pre-presbyopic",
          leaf="none", n=1),
        L("            age = presbyopic: none (2)", NORMAL, ASTIG, "spec=hypermetrope", "age=presbyopic", leaf="none",
          n=2, mistake="wrong leaf count"),
        L("    astigmatism = no", NORMAL, NO_ASTIG),
        L("        age = young: soft (2)", NORMAL, NO_ASTIG, "age=young", leaf="soft", n=2),
        L("        age = pre-presbyopic: soft (2)", NORMAL, NO_ASTIG, "age=pre-presbyopic", leaf="soft", n=2),
        L("        age = presbyopic", NORMAL, NO_ASTIG, "age=presbyopic"),
        L("            spectacle-prescrip = myope: none (1)", NORMAL, NO_ASTIG, "age=presbyopic", "spec=myope",
          leaf="none", n=1),
        L("            spectacle-prescrip = hypermetrope: soft (1)", NORMAL, NO_ASTIG, "age=presbyopic",
          "spec=hypermetrope", leaf="soft", n=1),
        N("=> 9 leaves", "prose"),
    ],
}

TREES["t06.txt"] = [
    N("My tree (I stopped where one class was most of the node):", "heading"),
    L("tear-prod-rate = reduced: none", "tear=reduced", leaf="none"),
    L("tear-prod-rate = normal", NORMAL),
    L("|   astigmatism = no: soft", NORMAL, NO_ASTIG, leaf="soft", mistake="a leaf where the tree splits (majority class)"),
    L("|   astigmatism = yes", NORMAL, ASTIG),
    L("|   |   age = young: hard", NORMAL, ASTIG, "age=young", leaf="hard", mistake="wrong attribute at a node"),
    L("|   |   age = pre-presbyopic: hard", NORMAL, ASTIG, "age=pre-presbyopic", leaf="hard",
      mistake="wrong attribute at a node"),
    L("|   |   age = presbyopic: none", NORMAL, ASTIG, "age=presbyopic", leaf="none", mistake="wrong attribute at a node"),
]

SHEETS["trees"] = TREES

# -- C4.5 with numeric attributes: the exam table (invented), textbook gain at midpoints -------------

EXAM = Table("exam.csv", "result", numeric=["hours", "sleep"])
E = EXAM.rows
EXAM_TREE = c45(EXAM, E)
HI = ("hours", ">", F(9, 2))


def EH(*conds):
    return entropy(EXAM.counts(select(E, *conds)))


def EG(a, cut=None, *conds):
    """Gain of a at rows conds: at cut, or at its best cut (numeric), or multiway (nominal)."""
    rows = select(E, *conds)
    if cut is None and a in EXAM.numeric:
        cut = best_cut(EXAM, rows, a)[0]
    return gain(EXAM, rows, a, cut)


def ESI(a, cut=None, *conds):
    rows = select(E, *conds)
    if cut is None and a in EXAM.numeric:
        cut = best_cut(EXAM, rows, a)[0]
    return split_info(EXAM, rows, a, cut)


def EGR(a, cut=None, *conds):
    rows = select(E, *conds)
    if cut is None and a in EXAM.numeric:
        cut = best_cut(EXAM, rows, a)[0]
    return gain_ratio(EXAM, rows, a, cut)


def EI(a, cut=None, *conds):
    rows = select(E, *conds)
    if cut is None and a in EXAM.numeric:
        cut = best_cut(EXAM, rows, a)[0]
    return info_given(EXAM, rows, a, cut)


def cut_text(node):
    return f"{node['split']} <= {_num(node['cut'])}" if node.get("cut") is not None else node["split"]


def best_cut_text(a, *conds):
    return f"{a} <= {_num(best_cut(EXAM, select(E, *conds), a)[0])}"


def X(text, path, **kw):
    return T(text, EXAM_TREE, path, **kw)


C45 = {
    "c01.txt": [
        N("Question 2 (C4.5, numeric attributes, thresholds at midpoints)", "heading"),
        M("Entropy(S) = -(5/12)log2(5/12) - (7/12)log2(7/12) = 0.980", EH()),
        N("hours sorted: 2 3 4 | 5 6 7 ..., candidate thresholds 2.5, 3.5, ..., 12.5"),
        M("Entropy(S_{hours ≤ 4.5}) = 0", EH(("hours", "<=", F(9, 2))), answer="0"),
        M("Entropy(S_{hours > 4.5}) = 0.764", EH(HI)),
        M("Gain(S, hours ≤ 4.5) = 0.980 - (9/12)(0.764) = 0.407", EG("hours", F(9, 2))),
        M("Gain(S, hours ≤ 6.5) = 0.334", EG("hours", F(13, 2))),
        S("best threshold for hours = 4.5", best_cut(EXAM, E, "hours")[0], F(9, 2), "4.5"),
        M("Gain(S, hours) = 0.407", EG("hours")),
        M("Gain(S, sleep) = 0.237", EG("sleep"), "wrong threshold (sleep ≤ 7.5)", via=EG("sleep", F(15, 2))),
        M("Gain(S, hours ≤ 3.5) = 0.734", EG("hours", F(7, 2)), "forgot to subtract from the parent",
          via=EI("hours", F(7, 2))),
    ],
    "c02.txt": [
        N("gain ratios", "heading"),
        M("SplitInfo(hours ≤ 4.5) = 0.811", ESI("hours", F(9, 2))),
        M("GainRatio(hours) = 0.407/0.811 = 0.502", EGR("hours"), carried=True),
        M("SplitInfo(S, coffee) = log2(3) = 1.585", ESI("coffee")),
        M("Gain(S, coffee) = 0.169", EG("coffee")),
        M("GainRatio(S, coffee) = 0.169", EGR("coffee"), "gain and gain ratio swapped", via=EG("coffee")),
        M("SplitInfo(sleep) = 0.980", ESI("sleep"), "split information taken for the class entropy", via=EH()),
        S("root = hours <= 4.5", cut_text(EXAM_TREE), "hours <= 4.5", cut_text(EXAM_TREE)),
    ],
    "c03.txt": [
        M("H(result) = 0.679", EH(), "natural log instead of log2", via=entropy_ln(EXAM.counts(E))),
        M("Info_hours(D) = 0.573", EI("hours")),
        M("Gain(hours) = 0.980 - 0.573 = 0.407", EG("hours")),
        M("GainRatio(hours) = 0.407/0.980 = 0.415", EGR("hours"), "split information taken for the class entropy",
          via=sym(EG("hours")) / sym(EH())),
        M("Gain(sleep) = 0.245", EG("sleep")),
        M("Gain(coffee) = 0.811", EG("coffee"), "forgot to subtract from the parent", via=EI("coffee")),
        "",
        N("J48 style:", "heading"),
        X("hours <= 4.5: fail (3.0)", [("hours", "<=", F(9, 2))], leaf="fail", n=3),
        X("hours > 4.5", [HI]),
        X("|   sleep <= 4.5: fail (2.0)", [HI, ("sleep", "<=", F(9, 2))], leaf="fail", n=2),
        X("|   sleep > 4.5: pass (7.0)", [HI, ("sleep", ">", F(9, 2))], leaf="pass", n=7),
    ],
    "c04.txt": [
        M("Info(D) = 0.980", EH()),
        M("Entropy(S_{sleep ≤ 4.5}) = 0.0", EH(("sleep", "<=", F(9, 2)))),
        M("Entropy(S_{sleep > 4.5}) = 0.881", EH(("sleep", ">", F(9, 2)))),
        M("Entropy(S_{sleep ≤ 7.5}) = 0.687", EH(("sleep", "<=", F(15, 2))), "natural log instead of log2",
          via=entropy_ln(EXAM.counts(select(E, ("sleep", "<=", F(15, 2)))))),
        M("Gain(S, sleep ≤ 4.5) = 0.980 - (10/12)(0.881) = 0.246", EG("sleep", F(9, 2)), carried=True),
        M("Gain(S, sleep ≤ 7.5) = 0.237", EG("sleep", F(15, 2))),
        S("best threshold for sleep = 4.5", best_cut(EXAM, E, "sleep")[0], F(9, 2), "4.5"),
        M("Gain(hours ≤ 4.5) = 0.573", EG("hours", F(9, 2)), "forgot to subtract from the parent",
          via=EI("hours", F(9, 2))),
        M("Gain(hours <= 11.5) = 0.147", EG("hours", F(23, 2))),
        M("GainRatio(sleep) = 0.378", EGR("sleep")),
        S("best split = hours ≤ 6.5", cut_text(EXAM_TREE), "hours <= 6.5", cut_text(EXAM_TREE), "wrong threshold"),
        N("gain hours @4.5 .407 <- best", "unreadable"),
    ],
    "c05.txt": [
        N("At hours > 4.5 (9 rows: 7 pass, 2 fail):", "prose"),
        M("Entropy(S_{hours > 4.5}) = 0.764", EH(HI)),
        M("Gain(S_{hours > 4.5}, sleep) = 0.764", EG("sleep", None, HI)),
        M("Gain(S_{hours > 4.5}, coffee) = 0.458", EG("coffee", None, HI)),
        M("SplitInfo(S_{hours > 4.5}, coffee) = 1.585", ESI("coffee", None, HI)),
        M("GainRatio(S_{hours > 4.5}, coffee) = 0.289", EGR("coffee", None, HI)),
        M("GainRatio(S_{hours > 4.5}, sleep) = 0.764", EGR("sleep", None, HI), "gain and gain ratio swapped",
          via=EG("sleep", None, HI)),
        S("split(hours > 4.5) = sleep ≤ 4.5", cut_text(tree_at(EXAM_TREE, [HI])), "sleep <= 4.5",
          cut_text(tree_at(EXAM_TREE, [HI]))),
        X("leaf(hours > 4.5, sleep > 4.5) = pass", [HI, ("sleep", ">", F(9, 2))], leaf="pass"),
        X("leaf(hours <= 4.5) = pass", [("hours", "<=", F(9, 2))], leaf="pass", mistake="wrong leaf class"),
        M("Gain(S_{hours > 4.5}, coffee) = 0.169", EG("coffee", None, HI), "measured on the whole data, not the node",
          via=EG("coffee")),
        X("leaf(hours > 4.5, sleep <= 4.5) = pass", [HI, ("sleep", "<=", F(9, 2))], leaf="pass",
          mistake="wrong leaf class"),
    ],
}

C45["c06.txt"] = [
    N("tree:", "heading"),
    X("hours <= 6.5: fail (5)", [("hours", "<=", F(13, 2))], leaf="fail", n=5, mistake="wrong threshold"),
    X("hours > 6.5: pass (7)", [("hours", ">", F(13, 2))], leaf="pass", n=7, mistake="wrong threshold"),
    M("Gain(hours ≤ 6.5) = 0.334", EG("hours", F(13, 2))),
    M("Gain(hours ≤ 4.5) = 0.407", EG("hours", F(9, 2))),
    N("(I used 6.5 because it is in the middle of the range)"),
]

SHEETS["c45"] = C45

# -- CART with Gini: the car table (invented) ----------------------------------------------------------

CAR = Table("car.csv", "buy")
C = CAR.rows
CAR_TREE = cart(CAR, C)
fs = frozenset
MH = ("safety", "in", fs({"medium", "high"}))
LOW = ("safety", "=", "low")


def GI(*conds):
    return gini(CAR.counts(select(C, *conds)))


def GS(cond, *at):
    """Han's Gini_{A ∈ S}(D): the split's weighted Gini, at the node at."""
    rows = select(C, *at)
    other = {"in": "notin", "notin": "in", "=": "!=", "!=": "="}[cond[1]]
    return gini_split(CAR, rows, (cond, (cond[0], other, cond[2])))


def DG(a, *at):
    """ΔGini of a's best binary split at the node at."""
    rows = select(C, *at)
    return gini(CAR.counts(rows)) - min(gini_split(CAR, rows, sp) for sp in binary_splits(CAR, rows, a))


def part(cond, *at):
    """A split as the partition of the node's rows it makes (either side may be named)."""
    rows = select(C, *at)
    left = fs(i for i, r in enumerate(C) if r in select(rows, cond))
    return fs({left, fs(i for i, r in enumerate(C) if r in rows) - left})


def split_at(*at):
    node = tree_at(CAR_TREE, list(at))
    return part(node["cond"][0], *at), cond_text(node["cond"][0])


def K(text, path, **kw):
    return T(text, CAR_TREE, path, **kw)


ROOT_SPLIT, ROOT_TEXT = split_at()
MH_SPLIT, MH_TEXT = split_at(MH)

CART = {
    "k01.txt": [
        N("CART, Gini index (Han, Kamber & Pei 8.2.2)", "heading"),
        M("Gini(D) = 1 - (9/15)^2 - (6/15)^2 = 0.48", GI()),
        M("Gini_{price∈{low,medium}}(D) = (10/15)(0.42) + (5/15)(0.48) = 0.44", GS(("price", "in", fs({"low", "medium"})))),
        M("Gini_{price∈{low}}(D) = 0.474", GS(("price", "in", fs({"low"})))),
        M("Gini_{price∈{medium}}(D) = 0.464", GS(("price", "in", fs({"medium"})))),
        M("ΔGini(price) = 0.48 - 0.44 = 0.04", DG("price")),
        M("Gini_{safety∈{medium,high}}(D) = 0.218", GS(MH)),
        M("Gini_{safety∈{low,high}}(D) = 0.474", GS(("safety", "in", fs({"low", "high"})))),
        M("ΔGini(safety) = 0.262", DG("safety")),
        S("best split: safety ∈ {medium, high}", ROOT_SPLIT, part(MH), ROOT_TEXT),
    ],
    "k02.txt": [
        M("Gini(D) = 0.480", GI()),
        M("Gini(D_{safety ∈ {medium, high}}) = 1 - (9/11)^2 - (2/11)^2 = 0.298", GI(MH)),
        M("Gini(D_{safety = low}) = 0", GI(LOW)),
        M("Gini_{safety∉{low}}(D) = (11/15)(0.298) + (4/15)(0) = 0.218", GS(("safety", "notin", fs({"low"})))),
        M("ΔGini(safety) = 0.218", DG("safety"), "the children's weighted Gini reported as the decrease", via=GS(MH)),
        M("ΔGini(price) = 0.040", DG("price")),
        M("ΔGini(doors) = 0.0059", DG("doors")),
        M("Gini_{price∈{low,high}}(D) = 0.453", GS(("price", "in", fs({"low", "high"}))), "arithmetic slip"),
        S("root = safety ∈ {medium, high}", ROOT_SPLIT, part(MH), ROOT_TEXT),
    ],
    "k03.txt": [
        N("At the node safety ∈ {medium, high} (11 rows, 9 yes):", "prose"),
        M("Gini(D_{safety ∈ {medium, high}}) = 36/121", GI(MH)),
        M("ΔGini(price | safety ∈ {medium, high}) = 0.116", DG("price", MH)),
        M("ΔGini(doors | safety ∈ {medium, high}) = 0.000551", DG("doors", MH)),
        M("ΔGini(safety | safety ∈ {medium, high}) = 0.055", DG("safety", MH)),
        S("split(safety ∈ {medium, high}) = price ∈ {low, medium}", MH_SPLIT,
          part(("price", "in", fs({"low", "medium"})), MH), MH_TEXT),
        "",
        K("safety in {medium, high}", [MH]),
        K("|   price in {low, medium}: yes (7)", [MH, ("price", "in", fs({"low", "medium"}))], leaf="yes", n=7),
        K("|   price = high", [MH, ("price", "=", "high")]),
        K("|   |   safety = high: yes (2)", [MH, ("price", "=", "high"), ("safety", "=", "high")], leaf="yes", n=2),
        K("|   |   safety = medium: no (2)", [MH, ("price", "=", "high"), ("safety", "=", "medium")], leaf="no", n=2),
        K("safety = low: no (4)", [LOW], leaf="no", n=4),
    ],
    "k04.txt": [
        M("Gini(D) = 1 - 9/15 - 6/15 = 0", GI(), "proportions not squared", via=F(0)),
        M("ME(D) = 6/15", F(errors(CAR.counts(C)), len(C))),
        M("Gini_{safety∈{high}}(D) = 0.32", GS(("safety", "in", fs({"high"})))),
        M("Gini_price(D) = 0.438", GS(("price", "in", fs({"low", "medium"}))),
          "the multiway Gini for CART's Gini_A(D) (A's best binary split)",
          via=sum(F(len(select(C, ("price", "=", v))), len(C)) * GI(("price", "=", v)) for v in CAR.values("price"))),
        M("ΔGini(safety) = 72/275", DG("safety")),
        M("ΔGini(price) = 0.040 × 15 = 0.6", DG("price"), "rpart's improvement (n × decrease) for the decrease",
          via=15 * DG("price")),
        S("best split: price ∈ {low, medium}", ROOT_SPLIT, part(("price", "in", fs({"low", "medium"}))), ROOT_TEXT,
          "wrong root (the first attribute's best split)"),
        N("so the tree starts with price", "prose"),
    ],
    "k05.txt": [
        M("Gini(S) = 12/25", GI()),
        M("Gini(buy | safety ∈ {medium, high}) = 0.298", GI(MH)),
        M("Gini(buy | safety = low) = 0", GI(LOW)),
        M("Gini(buy | safety = medium) = 0.5", GI(("safety", "=", "medium")), "arithmetic slip"),
        M("Gini(buy | split on safety) = 0.218", GS(MH)),
        M("ΔGini(safety) = 0.262", DG("safety")),
        M("Gini(buy | split on price) = 0.444", GS(("price", "in", fs({"low", "medium"}))), "arithmetic slip"),
        M("Gini(buy | safety ∈ {medium, high}, price = high) = 0.5", GI(MH, ("price", "=", "high"))),
        M("Gini(buy | price = high) = 0.4", GI(("price", "=", "high")), "misclassification error for Gini",
          via=F(errors(CAR.counts(select(C, ("price", "=", "high")))), 5)),
    ],
}

CART["k06.txt"] = [
    N("CART / Gini -- my working", "heading"),
    M("Gini(D) = 0.52", GI(), "arithmetic slip"),
    M("Gini_{safety∈{medium,high}}(D) = 0.149", GS(MH), "unweighted average of the two sides",
      via=(GI(MH) + GI(LOW)) / 2),
    M("ΔGini(safety) = 0.480 - 0.298 = 0.182", DG("safety"), "one side's Gini for the weighted sum",
      via=F(480 - 298, 1000)),
    M("ΔGini(price | safety ∈ {medium, high}) = 0.182", DG("price", MH),
      "the children's weighted Gini reported as the decrease", via=GS(("price", "in", fs({"low", "medium"})), MH)),
    S("split(safety ∈ {medium, high}) = doors", MH_SPLIT, part(("doors", "=", "4"), MH), MH_TEXT,
      "wrong attribute at a node"),
    M("Gini(D_{safety = low}) = 0", GI(LOW)),
    M("ΔGini(price) = 0.040", DG("price")),
    S("best split: safety ∈ {medium, high}", ROOT_SPLIT, part(MH), ROOT_TEXT),
]

SHEETS["cart"] = CART

# -- regression: the mpg table (invented), CART with squared error, depth 2 ------------------------------

MPG = Table("mpg.csv", "mpg", numeric=["weight", "power", "mpg"])
Y = MPG.rows
MPG_TREE = cart(MPG, Y, regression=True, max_depth=2)
W = F(31, 20)  # 1.55
WL, WR = ("weight", "<", W), ("weight", ">=", W)


def ys(*conds):
    return [r["mpg"] for r in select(Y, *conds)]


def RSS(cond, *at):
    """ISLR's RSS of a split: SSE of the two regions it makes at the node at."""
    other = {"<": ">=", ">=": "<", "in": "notin", "notin": "in"}[cond[1]]
    rows = select(Y, *at)
    return sse_split(MPG, rows, (cond, (cond[0], other, cond[2])))


def DSSE(a, *at):
    """ΔSSE of a's best split at the node at."""
    rows = select(Y, *at)
    return sse([r["mpg"] for r in rows]) - min(sse_split(MPG, rows, sp) for sp in binary_splits(MPG, rows, a))


def regions(cond, *at):
    rows = select(Y, *at)
    left = fs(i for i, r in enumerate(Y) if r in select(rows, cond))
    return fs({left, fs(i for i, r in enumerate(Y) if r in rows) - left})


def region(cond):
    """R1 = {X | cond}: the rows of one side of the root's split."""
    return fs(i for i, r in enumerate(Y) if r in select(Y, cond))


ROOT_REG = regions(MPG_TREE["cond"][0])
ROOT_REG_TEXT = cond_text(MPG_TREE["cond"][0])
PARENT_DEV = sum((y - mean(ys())) ** 2 for y in ys(WL))  # a child's SSE about the parent's mean


def Q(text, path, **kw):
    return T(text, MPG_TREE, path, **kw)


REGRESSION = {
    "r01.txt": [
        N("Regression tree for mpg (ISLR 8.1)", "heading"),
        M("ȳ = 29.6", mean(ys())),
        M("RSS = Σ(y_i - ȳ)² = 548.4", sse(ys())),
        M("RSS(weight < 1.55) = 125.524", RSS(WL)),
        S("R1 = {X | weight < 1.55}", region(WL) in ROOT_REG, True, ROOT_REG_TEXT),
        S("R2 = {X | weight >= 1.55}", region(WR) in ROOT_REG, True, ROOT_REG_TEXT),
        M("ŷ_R1 = 33.857", mean(ys(WL))),
        M("ŷ_R2 = 19.667", mean(ys(WR))),
        S("best split: weight < 1.55", ROOT_REG, regions(WL), ROOT_REG_TEXT),
        M("RSS(origin ∈ {asia, eu}) = 95.5", RSS(("origin", "in", fs({"asia", "eu"}))), "one region's SSE only",
          via=sse(ys(("origin", "in", fs({"asia", "eu"}))))),
    ],
    "r02.txt": [
        M("SSE(D) = 548.4", sse(ys())),
        M("RSS(weight < 1.55) = 125.52", RSS(WL)),
        M("RSS(weight < 1.45) = 137.583", RSS(("weight", "<", F(29, 20)))),
        M("RSS(power < 115) = 23.558", RSS(("power", "<", F(115))), "MSE (RSS/n) for RSS",
          via=RSS(("power", "<", F(115))) / 10),
        M("ΔSSE(weight) = 548.4 - 125.524 = 422.876", DSSE("weight")),
        M("ΔSSE(origin) = 188.25", DSSE("origin"), "the sum of the children's SSE reported as the decrease",
          via=RSS(("origin", "in", fs({"asia", "eu"})))),
        M("SSE(D_{origin ∈ {asia, eu}}) = 95.5", sse(ys(("origin", "in", fs({"asia", "eu"}))))),
        M("mean(origin = us) = 22.25", mean(ys(("origin", "=", "us")))),
        M("ΔSSE(power) = 548.4 - 235.583 = 312.817", DSSE("power")),
    ],
    "r03.txt": [
        M("ȳ(weight < 1.55) = 33.86", mean(ys(WL))),
        M("SSE(D_{weight < 1.55}) = 112.857", sse(ys(WL))),
        M("SSE(D_{weight >= 1.55}) = 12.667", sse(ys(WR))),
        M("ΔSSE(weight | weight < 1.55) = 22.75", DSSE("weight", WL),
          "the sum of the children's SSE reported as the decrease", via=RSS(("weight", "<", F(23, 20)), WL)),
        "",
        N("tree (depth 2):", "heading"),
        Q("weight < 1.55", [WL]),
        Q("    weight < 1.15: 38 (n = 3)", [WL, ("weight", "<", F(23, 20))], leaf="38", n=3),
        Q("    weight >= 1.15: 30.75 (n = 4)", [WL, ("weight", ">=", F(23, 20))], leaf="30.75", n=4),
        Q("weight >= 1.55", [WR]),
        Q("    weight < 1.9: 21 (n = 2)", [WR, ("weight", "<", F(19, 10))], leaf="21", n=2),
        Q("    weight >= 1.9: 19 (n = 1)", [WR, ("weight", ">=", F(19, 10))], leaf="19", n=1,
          mistake="the parent's mean for a leaf (rounded)"),
    ],
    "r04.txt": [
        S("best split: weight < 1.45", ROOT_REG, regions(("weight", "<", F(29, 20))), ROOT_REG_TEXT,
          "wrong threshold"),
        M("RSS(weight < 1.45) = 137.583", RSS(("weight", "<", F(29, 20)))),
        M("RSS(power < 115) = 235.583", RSS(("power", "<", F(115)))),
        M("RSS(origin ∈ {asia, eu}) = 188.25", RSS(("origin", "in", fs({"asia", "eu"})))),
        M("RSS(power < 97.5) = 371.58", RSS(("power", "<", F(195, 2)))),
        M("RSS(weight < 1.25) = 217.58", RSS(("weight", "<", F(5, 4))), "arithmetic slip"),
        M("SSE(D) = 54.84", sse(ys()), "MSE (SSE/n) for SSE", via=sse(ys()) / 10),
        M("SSE(D_{weight >= 1.55}) = 4.222", sse(ys(WR)), "MSE (SSE/n) for SSE", via=sse(ys(WR)) / 3),
        S("R1 = {X | power < 115}", region(("power", "<", F(115))) in ROOT_REG, True, ROOT_REG_TEXT,
          "the best split of one predictor, not the best overall"),
        N("the regions are boxes in (weight, power) space", "prose"),
    ],
    "r05.txt": [
        N("Inside R1 (weight < 1.55, 7 cars):", "prose"),
        M("ΔSSE(weight | weight < 1.55) = 90.107", DSSE("weight", WL)),
        M("mean(weight < 1.55, weight >= 1.15) = 30.75", mean(ys(WL, ("weight", ">=", F(23, 20))))),
        M("ŷ(weight >= 1.55, weight < 1.9) = 21", mean(ys(WR, ("weight", "<", F(19, 10))))),
        M("mean(weight >= 1.55) = 29.6", mean(ys(WR)), "the parent's mean", via=mean(ys())),
        M("SSE(D_{weight < 1.55}) = 239.72", sse(ys(WL)), "deviations from the parent's mean", via=PARENT_DEV),
        Q("leaf(weight < 1.55, weight < 1.15) = 38", [WL, ("weight", "<", F(23, 20))], leaf="38"),
        M("ΔSSE(weight | weight >= 1.55) = 10.667", DSSE("weight", WR)),
        M("mean(weight < 1.55, weight < 1.15) = 37", mean(ys(WL, ("weight", "<", F(23, 20)))), "arithmetic slip"),
    ],
}

SHEETS["regression"] = REGRESSION

# -- cost-complexity pruning: the dose table (invented), CART Gini, minsplit 4, minbucket 2, cp 0 --------

DOSE = Table("dose.csv", "outcome", numeric=["dose", "age"])
T0 = cart(DOSE, DOSE.rows, min_split=4, min_leaf=2)
SEQ = ccp_sequence(T0)
A11 = ("dose", "<", F(23, 2))
AGE = ("age", "<", F(115, 2))
D8 = ("dose", ">=", F(8))


def node(*path):
    return tree_at(T0, list(path))


def R(*path):
    return F(node(*path)["R"])


def RT(*path):
    return F(sum(x["R"] for x in leaves(node(*path))))


def ALPHA(*path):
    return g_alpha(node(*path))


def cuts(k):
    """The rows of each node step k cuts (a tie: any of them is the weakest link)."""
    return {fs(map(id, node(*p)["rows"])) for p in SEQ[k - 1][1]}


def link(k, *path):
    return S(f"weakest link{'_' + str(k) if k > 1 else ''} = {path_text(path)}", fs(map(id, node(*path)["rows"])) in cuts(k),
             True, " or ".join(path_text(p) for p in SEQ[k - 1][1]))


def wrong_link(k, mistake, *path):
    line = link(k, *path)
    return S(line.text, line.expected, True, line.value, mistake)


PRUNING = {
    "p01.txt": [
        N("Cost-complexity pruning (Breiman et al. 1984, ch. 3); R(t) = misclassified training rows", "heading"),
        M("R(dose < 11.5) = 5", R(A11)),
        M("R(T_{dose < 11.5}) = 0", RT(A11)),
        M("alpha(dose < 11.5) = (5 - 0)/(4 - 1) = 5/3", ALPHA(A11)),
        M("g(dose < 11.5, age < 57.5) = (2 - 0)/(3 - 1) = 1", ALPHA(A11, AGE)),
        M("g(dose < 11.5, age < 57.5, dose >= 8) = 2", ALPHA(A11, AGE, D8)),
        M("alpha(root) = 8/5 = 1.6", ALPHA(), "|leaves| instead of |leaves| - 1",
          via=F(R() - RT(), len(leaves(T0)))),
        link(1, A11, AGE),
        M("alpha_1 = 1", SEQ[0][0]),
    ],
    "p02.txt": [
        N("node                      R(t)  R(T_t)  leaves  g(t)", "prose"),
        M("dose < 11.5, age < 57.5, dose >= 8   R(t) = 2, R(T_t) = 0, leaves 2: alpha = (2 - 0)/(2 - 1) = 2",
          ALPHA(A11, AGE, D8)),
        M("dose < 11.5, age < 57.5   R(t) = 2, R(T_t) = 0, leaves 3: alpha = (2 - 0)/(3 - 1) = 1", ALPHA(A11, AGE)),
        M("dose < 11.5   R(t) = 5, R(T_t) = 2, leaves 4: alpha = (5 - 2)/(4 - 1) = 1", ALPHA(A11),
          "R(T_t) of the wrong subtree (the pruned T_1's, with T_0's leaves)", via=F(5 - 2, 4 - 1)),
        M("root   R(t) = 8, R(T_t) = 0, leaves 5: alpha = (8 - 0)/(5 - 1) = 2", ALPHA()),
        link(1, A11, AGE),
        M("R(T_1) = 2", F(SEQ[0][2])),
    ],
    "p03.txt": [
        M("alpha_1 = 1", SEQ[0][0]),
        M("alpha_2 = 3", SEQ[1][0]),
        M("R(T_2) = 8", F(SEQ[1][2])),
        M("R(T_{dose < 11.5, age < 57.5}) = 2", RT(A11, AGE), "R(t) for R(T_t)", via=R(A11, AGE)),
        S("alphas = 1, 3", tuple(a for a, _, _ in SEQ), (1, 3), ", ".join(str(a) for a, _, _ in SEQ)),
        link(2, A11),
        M("alpha(dose < 11.5) = 5/4", ALPHA(A11), "|leaves| instead of |leaves| - 1", via=F(5, 4)),
        wrong_link(1, "the smallest subtree taken as the weakest link", A11, AGE, D8),
        M("R(T_{dose < 11.5}) = 2", RT(A11), "R(T_t) from the pruned tree T_1 instead of T_0", via=F(2)),
        M("R(T_1) = 0", F(SEQ[0][2]), "the risk of T_0", via=RT()),
    ],
    "p04.txt": [
        N("R(t) counts misclassified rows (not rates)", "prose"),
        M("R(dose >= 11.5) = 0", R(("dose", ">=", F(23, 2)))),
        M("R(dose < 11.5, age >= 57.5) = 0", R(A11, ("age", ">=", F(115, 2)))),
        M("R(dose < 11.5, age < 57.5) = 2", R(A11, AGE)),
        M("alpha_2 = 5/3", SEQ[1][0], "the next g of T_0, not recomputed after the first cut", via=ALPHA(A11)),
        M("R(T_{dose < 11.5, age < 57.5}) = 0", RT(A11, AGE)),
        M("g(dose < 11.5, age < 57.5) = 2/3", ALPHA(A11, AGE), "|leaves| instead of |leaves| - 1", via=F(2, 3)),
        M("alpha(dose < 11.5, age < 57.5, dose >= 8) = (2 - 0)/(2 - 1) = 2", ALPHA(A11, AGE, D8)),
        M("root   R(t) = 8, R(T_t) = 0, leaves 5: alpha = (8 - 0)/5 = 1.6", ALPHA(), "|leaves| instead of |leaves| - 1",
          via=F(8, 5)),
        N("alpha(dose < 11.5, age >= 57.5) = 0", "unreadable"),
        M("R(root) = 8/18 = 0.444", R(), "R(t) as a rate (r(t)·p(t)) in a course that counts rows",
          via=F(8, 18)),
    ],
}

SHEETS["pruning"] = PRUNING

# -- bagging: the flu table (invented), three given bootstrap samples, ID3 trees -------------------------

FLU = Table("flu.csv", "flu")
SAMPLES = [[1, 1, 2, 3, 6, 6, 8, 8], [1, 2, 4, 5, 5, 7, 7, 8], [2, 3, 5, 5, 6, 6, 7, 8]]
BAGGED = [id3(FLU, sample_rows(FLU, s)) for s in SAMPLES]


def vote(tree, row):
    return predict(BAGGED[tree - 1], FLU.rows[row - 1])


def ballot(row, oob=False):
    return [vote(k, row) for k in (1, 2, 3) if not (oob and row in SAMPLES[k - 1])]


def share(row, cls, oob=False):
    b = ballot(row, oob)
    return F(b.count(cls), len(b))


def winner(b):
    return max(FLU.classes, key=lambda c: (b.count(c), -FLU.classes.index(c)))


def oob_error(oob=True):
    voted = [r for r in range(1, len(FLU.rows) + 1) if ballot(r, oob)]
    return F(sum(winner(ballot(r, oob)) != FLU.rows[r - 1]["flu"] for r in voted), len(voted))


def V(text, tree, row, given, mistake=""):
    return S(text, vote(tree, row), given, vote(tree, row), mistake)


def PRED(text, row, given, oob=False, mistake=""):
    return S(text, winner(ballot(row, oob)), given, winner(ballot(row, oob)), mistake)


BAGGING = {
    "b01.txt": [
        N("Bagging with 3 bootstrap samples (rows numbered from 1):", "heading"),
        N("S1 = {1, 1, 2, 3, 6, 6, 8, 8}, S2 = {1, 2, 4, 5, 5, 7, 7, 8}, S3 = {2, 3, 5, 5, 6, 6, 7, 8}"),
        V("vote(tree 1, row 3) = no", 1, 3, "no"),
        V("vote(tree 2, row 3) = yes", 2, 3, "yes"),
        V("vote(tree 3, row 3) = no", 3, 3, "no"),
        M("votes(row 3) = 2/3 for no", share(3, "no")),
        PRED("prediction(row 3) = no", 3, "no"),
        M("OOB votes(row 3) = 1 for yes", share(3, "yes", oob=True)),
        PRED("OOB prediction(row 3) = yes", 3, "yes", oob=True),
        PRED("OOB prediction(row 7) = no", 7, "no", oob=True, mistake="a vote counting a tree that saw the row"),
        M("OOB error = 1/2", oob_error()),
        V("vote(tree 1, row 6) = no", 1, 6, "no", mistake="the row sent down the wrong branch"),
    ],
    "b02.txt": [
        N("tree 1 splits on fever, tree 2 on cough, tree 3 on headache"),
        V("vote(tree 1, row 7) = yes", 1, 7, "yes"),
        V("vote(tree 3, row 1) = no", 3, 1, "no"),
        M("votes(row 1) = 2/3 for yes", share(1, "yes")),
        M("votes(row 7) = 1/3 for yes", share(7, "yes")),
        M("OOB votes(row 4) = 1 for no", share(4, "no", oob=True)),
        M("OOB error = 0", oob_error(), "votes counting the trees that saw the row", via=oob_error(oob=False)),
        PRED("majority vote for row 6: yes", 6, "yes"),
        M("votes(row 3) = 1/3 for no", share(3, "no"), "arithmetic slip"),
        M("OOB votes(row 7) = 2/3 for no", share(7, "no", oob=True), "a vote counting the trees that saw the row",
          via=share(7, "no")),
    ],
    "b03.txt": [
        V("vote(tree 2, row 6) = no", 2, 6, "no", mistake="the row sent down the wrong branch"),
        M("votes(row 6) = 3/3 for yes", share(6, "yes")),
        M("OOB votes(row 1) = 1 for no", share(1, "no", oob=True)),
        PRED("OOB prediction(row 1) = yes", 1, "yes", oob=True, mistake="a vote counting a tree that saw the row"),
        M("OOB error = 3/6 = 0.5", oob_error()),
        M("OOB votes(row 5) = 1 for yes", share(5, "yes", oob=True)),
        PRED("prediction(row 7) = yes", 7, "yes", mistake="one tree's vote (tree 1) for the forest's"),
        M("OOB error = 3/8", oob_error(), "rows without an out-of-bag vote counted", via=F(3, 8)),
        N("OOB err. = 3 of 6 -> 50% ??", "unreadable"),
    ],
}

SHEETS["bagging"] = BAGGING
