"""The argument parser: the shared option groups (data, growing, showing, pictures, forests) and
each subcommand's own options (the values' checks are in :mod:`.flags`).  It names each
command's function without importing it (``_later``), so the checker and the exercise maker
can read options as ``tree`` does."""

from __future__ import annotations

import argparse
import importlib

from ..criteria import ALGORITHMS
from .args import FOREST_ALGORITHM, _CRITERIA
from .flags import _add_limit_options, _at_most, _digits, _engine_flags, _jobs, _m_of_n_flag, _nonneg, _positive, _routing_flag, _smoothing


def _later(module, name):
    """A command's function, imported when the command runs: the parser imports no command (the
    checker and the exercise maker read options through it), and a command's imports stay its own."""
    def run(args, out):
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)(args, out)

    run.__qualname__ = f"{module}.{name}"
    return run


# A derivation for more nodes than this is more than anyone reads: 'tree' prints the root's unless
# --nodes all is given, and says so; past it, --nodes all and 'report' say how big the output will be.
LARGE_DERIVATION = 1000


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(command=None) -> argparse.ArgumentParser:
    """The argument parser; ``command`` is the subcommand about to run, if known.

    The checker's options are defined by the checker (a large module): it is imported
    only when ``check`` runs or the command is not known yet; otherwise ``check`` is
    listed with its one-line help.
    """
    p = _Parser(prog="infotree", description="Exact ID3/C4.5 decision trees and information measures.")
    p.add_argument("--version", action="version", version=f"infotree {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    e = sub.add_parser("entropy", help="entropy of counts or of a probability vector, exactly",
                       description="Print the textbook form, the exact closed form and the decimal.")
    e.add_argument("values", nargs="+", metavar="VALUE", help="class counts (9 5) or, with --probs, probabilities (1/2 1/4 ...)")
    e.add_argument("--probs", action="store_true", help="the values are probabilities that sum to 1")
    e.add_argument("--digits", type=_digits, default=4, help="decimals to print (default 4)")
    _add_limit_options(e, "factor_digits")
    e.set_defaults(func=_later("entropy", "_cmd_entropy"))

    common = _Parser(add_help=False)
    common.add_argument("--target", metavar="T", help="the class column (default: the last column)")
    common.add_argument("--quiet", action="store_true",
                        help="no progress bar on standard error (shown only on a terminal, for work over half a second)")
    common.add_argument("--algorithm", choices=list(ALGORITHMS),
                        help="id3 (default; cptable and forest: cart), c45 (C4.5 as J48) or cart (binary splits, "
                             "rpart's controls); implied by --criterion")
    common.add_argument("--criterion", choices=list(_CRITERIA), type=lambda s: s.replace("_", "-"),
                        help="id3: gain (default; cptable and forest: gini), gain-ratio-plain; c45: gain-ratio; "
                             "cart: gini (default), entropy, misclassification (gain_ratio, as the API and the "
                             "reports spell it, is the same)")
    common.add_argument("--missing-as-value", action="store_true",
                        help="treat the missing-value tokens ? and empty as an ordinary value (default: "
                             "id3 refuses them; gain-ratio weights them as C4.5; cart keeps them and sends "
                             "their rows by surrogate splits, then the majority, as rpart)")
    common.add_argument("--numeric", action="append", metavar="COL|A,B|all|auto",
                        help="read these columns as numeric (repeatable, or comma-separated; 'all': every feature "
                             "not named by --categorical; 'auto': every CSV column of numbers; default: auto for "
                             "gain-ratio and cart, none for id3; ARFF types always apply)")
    common.add_argument("--categorical", action="append", metavar="COL|A,B|all",
                        help="read these columns as categorical even if they hold numbers or are declared numeric "
                             "(repeatable, or comma-separated; 'all': every feature not named by --numeric)")
    common.add_argument("--drop", action="append", metavar="COL",
                        help="leave column COL out (an id, a comment; repeatable); its cells are not read")
    common.add_argument("--columns", action="append", metavar="A,B,...",
                        help="read only these columns, the target among them (default: all)")
    _add_limit_options(common, "input_bytes", "value_length", "nesting", "table_cells")
    grow = _Parser(add_help=False)
    grow.add_argument("--max-depth", type=_nonneg, metavar="N",
                      help="a node this deep is a leaf (default: no limit; cart: 30, rpart's maxdepth; forest: none)")
    grow.add_argument("--min-samples-split", type=_positive, metavar="N",
                      help="a node with fewer rows is a leaf (default 2; cart: 20, rpart's minsplit)")
    grow.add_argument("--min-samples-leaf", "--min-leaf", dest="min_leaf", type=_positive, metavar="N",
                      help="cart: rows at least on each side of a split (default round(min-samples-split/3), "
                           "rpart's minbucket)")
    grow.add_argument("--cp", metavar="X",
                      help="cart: the complexity parameter (default 0.01, as rpart)")
    grow.add_argument("--competitors", type=_nonneg, metavar="N",
                      help="cart: runner-up splits listed at each node (default 4, rpart's maxcompete; forest: 0)")
    grow.add_argument("--surrogates", type=_nonneg, metavar="N",
                      help="cart: surrogate splits kept at each node (default 5, rpart's maxsurrogate; forest: 0)")
    grow.add_argument("--use-surrogate", type=int, choices=[0, 1, 2], default=2, metavar="{0,1,2}",
                      help="cart: a row with a missing split value stays in the node (0), follows the first "
                           "usable surrogate (1), and else the majority (2, the default, as rpart)")
    grow.add_argument("--surrogate-style", type=int, choices=[0, 1], default=0, metavar="{0,1}",
                      help="cart: a surrogate's agreement over the rows with the split value known (0, the "
                           "default) or with both values known (1), as rpart's surrogatestyle")
    grow.add_argument("--max-subsets", type=_at_most("max_subsets"), default=1 << 15, metavar="N",
                      help="cart: the most subsets of a nominal feature's values one exact split compares "
                           "(default 32768; more are refused, never approximated)")
    grow.add_argument("--lookahead", type=int, choices=[0, 1], default=0, metavar="{0,1}",
                      help="1: score each feature by the gain of its best two-level split (its children split once "
                           "more by their best feature); 0: greedy (default). See docs/pet_lookahead.md")
    grow.add_argument("--min-gain", metavar="X", help="stop when the best gain is below X (exact rational)")
    grow.add_argument("--stop-at-zero-gain", action="store_true", help="do not split on a zero gain (Weka's Id3)")
    grow.add_argument("--min-objects", type=_positive, default=2, metavar="N", help="C4.5: minimum rows in two branches (default 2)")
    grow.add_argument("--no-collapse", action="store_true", help="C4.5: keep subtrees that do not reduce training errors")
    grow.add_argument("--average-gain-slack", default="1/1000", metavar="X",
                      help="C4.5: gain may be this far below the average (default 1/1000, as C4.5/J48; 0 = textbook)")
    grow.add_argument("--threshold", choices=["data", "midpoint"],
                      help="numeric cut: the largest training value below the midpoint (C4.5/J48; default for "
                           "gain-ratio) or the midpoint (lecture notes; default otherwise)")
    grow.add_argument("--prune", choices=["none", "pessimistic", "reduced-error", "cost-complexity"], default="none",
                      help="none (default: the whole grown tree), pessimistic (C4.5/J48 error-based, with subtree "
                           "raising), reduced-error (needs --validation) or cost-complexity (cart: weakest-link "
                           "pruning at --cp X, --alpha X or --select min|1se)")
    grow.add_argument("--ccp-alpha", "--alpha", dest="alpha", metavar="X",
                      help="cost-complexity: prune at this alpha (exact rational; risk per leaf)")
    grow.add_argument("--select", choices=["min", "1se"],
                      help="cost-complexity: prune at the cp table's row of least xerror (min) or by the 1-SE rule "
                           "(1se), cross-validated on --folds (default 10) from --seed")
    grow.add_argument("--risk", choices=["rpart", "impurity"],
                      help="cost-complexity: rpart's risk (misclassified rows; the default) or scikit-learn's "
                           "(N_t/N · impurity)")
    grow.add_argument("--sequence", choices=["weakest-link", "rpart"],
                      help="cost-complexity and cptable: the exact weakest-link sequence (default) or rpart's own "
                           "complexities (printcp and prune.rpart to the last digit; docs/cost_complexity.md)")
    grow.add_argument("--folds", type=_at_most("folds"), metavar="K",
                      help="cross-validation folds (cptable, evaluate, --select; default 10 for --select)")
    grow.add_argument("--folds-from", metavar="COL|FILE",
                      help="cross-validate on given folds (cptable, evaluate, --select): a column of fold ids, "
                           "left out of the features, or a file of fold ids, one a line (rpart's xval vector)")
    grow.add_argument("--split", choices=["gini", "information"],
                      help="cart: rpart's parms split: gini (= --criterion gini) or information (= --criterion entropy)")
    grow.add_argument("--method", choices=["class", "anova", "poisson", "exp"],
                      help="cart: rpart's method: class (= --criterion gini, or --split's), anova (= --criterion "
                           "squared-error), poisson (the target counts events, over --exposure) or exp (survival: "
                           "the target is the status, --time the observed times)")
    grow.add_argument("--exposure", "--time", dest="exposure", metavar="COL",
                      help="poisson: each row's exposure (rpart's cbind(COL, events); default 1 each); exp: the "
                           "observed time (rpart's Surv(COL, status)); left out of the features")
    grow.add_argument("--shrink", metavar="K",
                      help="poisson, exp: rpart's parms shrink, the prior's coefficient of variation (default 1; "
                           "0: no shrinkage); a node predicts (events + 1/K²)/(exposure + 1/K²/root rate)")
    grow.add_argument("--prior", metavar="C=P,...",
                      help="cart (gini, entropy): class priors as rpart's parms prior, e.g. absent=1/2,present=1/2 "
                           "(exact, summing to 1; default: the classes' shares)")
    grow.add_argument("--loss", metavar="MATRIX|FILE",
                      help="cart (gini, entropy): rpart's loss matrix, rows the true class and columns the predicted "
                           "one in class order: inline '0,1;4,0' or a file of rows (commas or spaces)")
    grow.add_argument("--cost", action="append", metavar="COL=FACTOR",
                      help="cart: rpart's per-variable cost: COL's improvement is divided by FACTOR (a positive "
                           "rational) when splits are ranked; repeat it or separate by commas (others cost 1)")
    grow.add_argument("--sample-weight", metavar="COL",
                      help="weigh each row by column COL (exact positive numbers; left out of the features): "
                           "counts become weighted sums as rpart's weights= (CART's row minimums still count rows)")
    grow.add_argument("--random-state", "--seed", dest="seed", type=_nonneg, default=0, metavar="S",
                      help="the seed of every random draw: the folds (docs/cost_complexity.md) and a forest's "
                           "samples and features (docs/forests.md); default 0")
    grow.add_argument("--confidence", default="1/4", metavar="CF",
                      help="pessimistic pruning's confidence factor (default 0.25, as J48)")
    grow.add_argument("--validation", metavar="FILE", help="validation rows for --prune reduced-error")
    show = _Parser(add_help=False)
    show.add_argument("--digits", type=_digits, default=4, help="decimals to print (default 4)")
    show.add_argument("--splits", choices=["best", "all"], default="best",
                      help="CART: each feature's best split (default), or also every threshold and subset it tried")
    show.add_argument("--table-format", default="simple", metavar="F", help="any tabulate tablefmt (text format; default simple)")
    show.add_argument("--output", "-o", metavar="FILE", help="write here (atomically) instead of standard output")

    pictures = _Parser(add_help=False)
    pictures.add_argument("--max-display-depth", type=_nonneg, metavar="N",
                          help="drawings (dot, tikz, svg, png, html): draw nodes down to depth N (0: the root); a "
                               "deeper subtree is one box with its leaf and class counts")
    pictures.add_argument("--hide-empty", action="store_true", help="drawings: leave out branches no row reached")
    pictures.add_argument("--color", choices=["none", "class"], default="none",
                          help="drawings: none (black and white, for print; default) or class (fill by the majority "
                               "class, paler the less pure, colour-blind-safe, with a key)")
    pictures.add_argument("--show", choices=["counts", "proportions", "percent"], default="counts",
                          help="drawings: class counts (default), class proportions, or counts and the node's "
                               "percentage of all rows (rpart.plot's extra)")

    t = sub.add_parser("tree", parents=[common, grow, show, pictures], help="grow a tree and print it with its derivation")
    t.add_argument("data", metavar="DATA", help="CSV or ARFF file")
    t.add_argument("--format", choices=["text", "markdown", "latex", "json", "dot", "rules", "python", "tikz",
                                        "svg", "png", "html"], default="text",
                   help="text (default), markdown, latex, json, dot (Graphviz), rules (if-then), python (a "
                        "predict function), tikz (LaTeX forest), svg or png (drawings; pip install 'infotree[plot]'), "
                        "html (the report: a zoomable tree and every derivation)")
    t.add_argument("--nodes", choices=["all", "root", "none"],
                   help=f"whose candidate tables to print (default: all; root for a tree of more than "
                        f"{LARGE_DERIVATION:,} nodes, said on standard error)")
    t.add_argument("--steps", action="store_true", help="add a worked solution in prose")
    t.add_argument("--standalone", action="store_true", help="latex, tikz: a complete document")
    t.add_argument("--exact-values", action="store_true",
                   help="tikz, svg, png: each split's box also shows its measure's exact value")
    t.add_argument("--weights", choices=["decimal", "exact", "j48"], default="decimal",
                   help="leaf weights when C4.5 splits rows: decimal (two places, as J48), exact fractions, "
                        "or j48 (J48's whole text block: |   indents, 2.0; text and markdown)")
    t.add_argument("--exact-weights", action="store_true", help="same as --weights exact")
    t.add_argument("--smoothing", type=_smoothing, metavar="S",
                   help="print each leaf's class probabilities (text, markdown, latex, json, dot): none (frequencies), "
                        "laplace or m=M (m-estimate with the root's class distribution as prior)")
    _m_of_n_flag(t)
    _engine_flags(t, "tree")
    t.set_defaults(func=_later("tree", "_cmd_tree"))

    r = sub.add_parser("report", parents=[common, grow, pictures], help="one self-contained HTML file: drawing, tree, "
                       "worked solution and every derivation",
                       description="Write one HTML file an instructor can hand out: the drawing (needs matplotlib: "
                                   "pip install 'infotree[plot]'; without it, the text tree only), the tree, the "
                                   "worked solution in prose and every node's derivation table.")
    r.add_argument("data", metavar="DATA", help="CSV, ARFF or Parquet file")
    r.add_argument("--digits", type=_digits, default=4, help="decimals to print (default 4)")
    r.add_argument("--title", help="the page's title (default: Decision tree for TARGET)")
    r.add_argument("--exact-weights", action="store_true", help="fractional C4.5 weights as exact fractions")
    r.add_argument("--output", "-o", metavar="FILE", help="write here (atomically) instead of standard output")
    _m_of_n_flag(r)
    r.set_defaults(func=_later("report", "_cmd_report"))

    m = sub.add_parser("measures", parents=[common, show], help="the candidate table at the root or at a node")
    m.add_argument("data", metavar="DATA")
    m.add_argument("--at", metavar="PATH", help="e.g. 'outlook=sunny,humidity=high'")
    m.add_argument("--format", choices=["text", "markdown", "latex", "json"], default="text",
                   help="text (default), markdown, latex or json (every measure exact and as a float, as tree's JSON)")
    m.add_argument("--lookahead", type=int, choices=[0, 1], default=0, metavar="{0,1}",
                   help="1: add each candidate's two-level score (docs/pet_lookahead.md)")
    m.add_argument("--m-of-n", action="store_true",
                   help="grow an M-of-N test at the node from its best single condition (ID2-of-3 style; "
                        "nominal features; see docs/pet_lookahead.md)")
    m.set_defaults(func=_later("measures", "_cmd_measures"))

    pr = sub.add_parser("predict", parents=[common, grow, pictures],
                        help="predict classes with a saved model or a training file")
    pr.add_argument("model_or_data", metavar="MODEL.json", nargs="?")
    pr.add_argument("data", metavar="DATA", nargs="?")
    pr.add_argument("--train", metavar="TRAIN", help="grow the tree on TRAIN instead of loading a model")
    pr.add_argument("--proba", action="store_true", help="print exact class probabilities")
    pr.add_argument("--smoothing", type=_smoothing, metavar="S",
                    help="with --proba: none (leaf frequencies, the default), laplace ((n_c+1)/(n+k)) or m=M "
                         "(m-estimate (n_c+M·p_c)/(n+M), p_c the root's class distribution)")
    pr.add_argument("--unseen", choices=["error", "majority"], default="error",
                    help="a value not seen in training: error (default) or predict the node's majority")
    _routing_flag(pr)
    pr.add_argument("--output", "-o", metavar="FILE")
    pr.add_argument("--explain", action="store_true",
                    help="each row's path, one line per test; with --format svg or png the drawing with one row's "
                         "path highlighted (--row K)")
    pr.add_argument("--format", choices=["text", "svg", "png"], default="text",
                    help="--explain: text (default), or the drawing as svg or png")
    pr.add_argument("--row", type=_positive, metavar="K",
                    help="--explain --format svg/png: the row of DATA to draw (1-based; default: the only row)")
    _m_of_n_flag(pr)
    pr.set_defaults(func=_later("predict", "_cmd_predict"))

    cpt = sub.add_parser("cptable", parents=[common, grow, show],
                         help="rpart's cp table (CP, nsplit, rel error; xerror, xstd with --folds), exactly",
                         description="Grow a CART tree (rpart's controls; --cp 0 for the whole sequence) and print "
                                     "rpart's cp table with exact values; with --folds K the cross-validated xerror "
                                     "and xstd on folds dealt from --seed, and the rows the least xerror and the "
                                     "1-SE rule pick.")
    cpt.add_argument("data", metavar="DATA", help="CSV, ARFF or Parquet file")
    cpt.add_argument("--format", choices=["text", "markdown", "latex", "json"], default="text")
    cpt.add_argument("--steps", action="store_true", help="add the weakest-link derivation (each alpha)")
    cpt.add_argument("--plot", metavar="FILE", help="also draw rpart's plotcp (needs --folds): xerror ±1 SE against "
                                                    "cp and tree size, the 1-SE line; .png, .svg or .pdf")
    cpt.set_defaults(func=_later("cptable", "_cmd_cptable"), algorithm_default="cart")

    ev = sub.add_parser("evaluate", parents=[common, grow, show],
                        help="accuracy, confusion matrix, precision and recall on a test file or by cross-validation",
                        description="Grow trees as the options say and predict rows they were not grown on: a "
                                    "--test file, or --folds K from --seed (default: 10 folds; the same folds as "
                                    "cptable's). --compare runs several pruning methods on the same folds.")
    ev.add_argument("data", metavar="DATA", help="CSV, ARFF or Parquet file (the training rows)")
    ev.add_argument("--test", metavar="FILE", help="rows to predict (instead of cross-validation)")
    ev.add_argument("--unseen", choices=["error", "majority"], default="error",
                    help="--test: a value not seen in training is an error (default), or goes to the node's majority")
    ev.add_argument("--compare", nargs="?", const="all", metavar="LIST",
                    help="run several configurations on the same rows: a comma-separated list of unpruned, "
                         "pessimistic, reduced-error, cost-complexity (default: every one the algorithm has)")
    ev.add_argument("--format", choices=["text", "markdown", "latex", "json"], default="text")
    _routing_flag(ev)
    ev.add_argument("--plot", metavar="FILE", help="also draw the confusion matrix (one per configuration); "
                                                   ".png, .svg or .pdf")
    _m_of_n_flag(ev)
    ev.set_defaults(func=_later("evaluate", "_cmd_evaluate"))

    # the forest's draws and vote: 'forest' and 'check' (votes, OOB error claims) read them alike
    forest_opts = _Parser(add_help=False)
    forest_opts.add_argument("--n-estimators", "--trees", dest="trees", type=_at_most("trees"), metavar="T", help="how many trees (default 100, as "
                    "scikit-learn; with --sample or --samples, one per sample)")
    forest_opts.add_argument("--max-features", default="sqrt", metavar="M",
                    help="features drawn: an integer, sqrt (default, as scikit-learn), log2, all (bagging) or a "
                         "fraction such as 0.5")
    forest_opts.add_argument("--subspace", action="store_true",
                    help="draw the features once per tree (random subspace) instead of at every node (random forest)")
    forest_opts.add_argument("--sample-fraction", default="1", metavar="F",
                    help="rows per tree as a fraction of the data's, in (0, 1] (default 1)")
    forest_opts.add_argument("--bootstrap", action=argparse.BooleanOptionalAction, default=True,
                    help="draw the rows with replacement (default) or, --no-bootstrap, without")
    forest_opts.add_argument("--sampling", choices=["draw", "poisson"], default="draw",
                    help="draw: each tree's rows as one sample (default); poisson: each row's count from a hash of "
                         "(row, seed, tree), the same on every engine (docs/forests.md)")
    forest_opts.add_argument("--sample", action="append", metavar="ROWS",
                    help="one tree's rows, 1-based as in DATA: '1-5,7,7' (a repeat counts twice) or "
                         "'all but 3,10,14,16'; repeat the option for more trees")
    forest_opts.add_argument("--samples", metavar="FILE", help="one tree's rows per line, written as for --sample")
    forest_opts.add_argument("--unseen", choices=["error", "majority"], default="error",
                    help="--predict: a value not seen in training is an error (default), or a tree predicts its "
                         "node's majority there")
    forest_opts.add_argument("--vote", choices=["majority", "average"], default="average",
                    help="class probabilities: the trees' mean leaf probabilities (default, scikit-learn's) or "
                         "their vote fractions (majority)")
    forest_opts.add_argument("--predict", metavar="FILE",
                             help="rows to classify: print every tree's vote on each (check: the rows that "
                                  "votes(row k) and prediction(row k) claims name)")
    forest_opts.add_argument("--builder", choices=["auto", "levelwise", "reference"], default="auto",
                    help="which builder grows the trees (they grow the same forest)")
    forest_opts.add_argument("--jobs", "--n-jobs", dest="jobs", type=_jobs, default=-1, metavar="N",
                    help="processes growing the trees: N, -1 every core (default), -2 all but one; the forest is "
                         "the same whatever N")
    fo = sub.add_parser("forest", parents=[common, grow, forest_opts], help="grow a forest (bagging, random forest, random "
                        "subspace) and print its trees, votes, OOB error and importances, exactly",
                        description="Grow T trees, each on rows drawn from DATA and choosing among drawn features; "
                                    "every draw comes from --seed (docs/forests.md), so the output is the same on "
                                    "every run.")
    fo.add_argument("data", metavar="DATA", help="CSV or ARFF file")
    _engine_flags(fo, "forest (with --sampling poisson)")
    fo.add_argument("--show-samples", action="store_true", help="print the rows each tree drew and its out-of-bag rows")
    fo.add_argument("--show-oob", action="store_true", help="print every training row's out-of-bag votes")
    fo.add_argument("--importance", choices=["both", "mdi", "permutation", "none"], default="both",
                    help="mean decrease in impurity, permutation importance on out-of-bag rows, both (default) or none")
    fo.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    fo.add_argument("--plot", metavar="FILE", help="also draw the importances, each feature's spread over the trees; "
                                                   ".png, .svg or .pdf")
    fo.add_argument("--nodes", choices=["none", "root", "all"], default="none",
                    help="whose candidate tables to print with each tree (default none)")
    fo.add_argument("--digits", type=_digits, default=4, help="decimals to print (default 4)")
    fo.add_argument("--table-format", default="simple", metavar="F", help="any tabulate tablefmt (text format)")
    fo.add_argument("--output", "-o", metavar="FILE", help="write here (atomically) instead of standard output")
    fo.set_defaults(func=_later("forest", "_cmd_forest"), default_algorithm=FOREST_ALGORITHM)  # unlike cptable's, any algorithm goes

    ex = sub.add_parser("exercise", help="an exercise per student: a small data set, the questions and the worked "
                        "key, with check's rubric and options", description="Write DIR/<student>/: data.csv, "
                        "sheet.md/.tex/.html, key.md/.tex/.html, answers_key.txt, rubric.toml, check.toml; the same "
                        "seed and student id give the same files (docs/exercise.md).")
    ex.add_argument("--kind", required=True, choices=["id3", "c45", "gini", "regression", "cost-complexity", "bagging"])
    ex.add_argument("--seed", type=_nonneg, required=True, metavar="S", help="the class's seed")
    ex.add_argument("--students", default="1", metavar="FILE|N",
                    help="a roster CSV (a column 'id', else the first column) or a number N of students s01, s02, ... "
                         "(default 1)")
    ex.add_argument("--rows", type=_positive, metavar="N", help="rows of each data set (default: 10 to 16 drawn)")
    ex.add_argument("--features", type=_positive, metavar="N", help="attributes (default: 3 or 4; 2 or 3 for "
                    "regression and cost-complexity)")
    ex.add_argument("--ties", action="store_true", help="draw data with an exact tie at a decision asked about "
                    "(the key names it); default: none")
    ex.add_argument("--max-prime", type=_positive, default=7, metavar="P",
                    help="no asked value needs a prime above P: in a denominator or a log2(p) (default 7)")
    ex.add_argument("--out", default="exercises", metavar="DIR", help="where the students' folders go "
                    "(default: exercises)")
    ex.set_defaults(func=_later("exercise", "_cmd_exercise"))

    if command in (None, "check"):
        from .check import add_check_command

        add_check_command(sub, [common, grow, forest_opts], help=_CHECK_HELP)
    else:
        sub.add_parser("check", help=_CHECK_HELP)
    from ..options import fit

    for name, parser in sub.choices.items():
        fit(parser, name)
    return p


_CHECK_HELP = "check a student's answers file against a data set, exactly"


def _version() -> str:
    """The installed distribution's version; the package's own when run from a source tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("infotree")
    except PackageNotFoundError:
        from .. import __version__

        return __version__


