"""The class answer sheets and their key: each sheet is a list of its lines, '' a blank line, and
every other line a claim with its truth (class_truth.M, S, T) or not a claim (N).

`python tests/class_truth.py --write` writes <family>/<student>.txt and truth.csv from here;
`--verify` recomputes every value and checks every written answer against the key. The values
come from class_truth's own arithmetic on the data files (never from infotree).
"""

from fractions import Fraction as F

from class_truth import (M, N, S, T, Table, c45, cart, entropy, entropy_ln, gain, gain_ratio, gini, gini_split,
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
        M("GainRatio(credit) = 0.232", GR("credit")),
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

SHEETS["trees"] = TREES
