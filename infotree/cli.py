"""The ``infotree`` command line.

Errors reach the user as one line on stderr, ``infotree: error: ...``: exit 1
for bad input, 2 for bad usage; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
import warnings
from fractions import Fraction

from .criteria import ALGORITHMS, CRITERIA
from .data import number_text
from .errors import DataError, InfotreeError
from .escape import SafeWriter
from .escape import clip as _clip

__all__ = ["main", "read_data", "tree_options"]


def _digits(text):
    try:
        d = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50") from None
    if not 0 <= d <= 50:
        raise argparse.ArgumentTypeError(f"invalid digits {text!r}; give an integer from 0 to 50")
    return d


def _cmd_entropy(args, out):
    from .exact import decimal_text
    from .forms import entropy_form, h_of
    from .measures import entropy, entropy_of_probabilities
    from .parse import parse_exact

    if args.probs:
        from fractions import Fraction

        probs = []
        for t in args.values:
            v = parse_exact(t)
            if not isinstance(v, Fraction):
                raise InfotreeError(f"probability {t!r} is not a rational number; write it like 1/64")
            _check_factoring(t, v, "probability")
            probs.append(v)
        value = entropy_of_probabilities(probs)
        form = " + ".join(f"{_frac(p)}·log2({_frac(1 / p)})" for p in probs if p) or "0"
        lhs = "H(P)"
    else:
        counts = []
        for t in args.values:
            v = parse_exact(t)
            if not hasattr(v, "denominator"):
                raise InfotreeError(f"count {t!r} is not a rational number; counts are non-negative integers or fractions")
            _check_factoring(t, v, "count")
            counts.append(v)
        value = entropy(counts)
        form = entropy_form(counts)
        lhs = h_of(counts)
    out.write(f"{lhs} = {form}\n")
    out.write(f"{' ' * len(lhs)} = {value}\n")
    out.write(f"{' ' * len(lhs)} = {decimal_text(value, args.digits)}\n")
    return 0


def _check_factoring(text, q, what):
    """Refuse a value whose logarithm needs a factorisation beyond the budget (minutes for 40 digits)."""
    from . import limits

    digits = limits.current().factor_digits
    if abs(q.numerator) > 10 ** digits or q.denominator > 10 ** digits:
        raise InfotreeError(f"{what} {_clip(text)!r} is too large; numerators and denominators up to 10**{digits} "
                            f"are allowed (their logarithms are factored exactly; raise the limit with "
                            f"{limits.option('factor_digits')})")


def _frac(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


# The criteria by their option spelling: gain-ratio for gain_ratio.
_CRITERIA = {name.replace("_", "-"): c for name, c in CRITERIA.items()}


def _resolve_criterion(args) -> None:
    """--algorithm and --criterion together: the criterion (option spelling) in args.criterion."""
    algorithm, name = getattr(args, "algorithm", None) or getattr(args, "algorithm_default", None), args.criterion
    if getattr(args, "criterion_chosen", None) is None:  # the first call sees the command line's own choice
        args.criterion_chosen = bool(name or getattr(args, "algorithm", None) or getattr(args, "split", None))
    split = getattr(args, "split", None)
    if split is not None:  # rpart's parms split = "gini" | "information"
        named = {"gini": "gini", "information": "entropy"}[split]
        if name not in (None, named):
            raise InfotreeError(f"--split {split} is --criterion {named}; it cannot be combined with --criterion {name}")
        if algorithm not in (None, "cart"):
            raise InfotreeError(f"--split {split} is rpart's (--algorithm cart), not --algorithm {algorithm}")
        args.criterion = name = named
    if name is None:
        args.criterion = _default_criterion(algorithm or getattr(args, "default_algorithm", None) or "id3")
        return
    family = _CRITERIA[name].algorithm
    if algorithm is not None and algorithm != family:
        allowed = ", ".join(n.replace("_", "-") for n in ALGORITHMS[algorithm])
        raise InfotreeError(f"--criterion {name} belongs to --algorithm {family}; with --algorithm {algorithm} "
                            f"the criteria are: {allowed}")


def read_data(path, args):
    """Read DATA as the criterion needs it.

    C4.5 (gain-ratio) keeps missing values (fractional weights) and reads CSV columns
    of numbers as numeric; the ID3 criteria refuse missing values and read CSV
    columns as categorical.  ``--missing-as-value``, ``--numeric`` and
    ``--categorical`` override these defaults.
    """
    from .data import load

    crit = _CRITERIA[args.criterion]
    on_missing = "value" if args.missing_as_value else ("keep" if crit.missing is not None else "reject")
    if getattr(args, "m_of_n", False) and on_missing == "reject":
        on_missing = "keep"  # build_tree refuses them, naming what --m-of-n allows
    numeric, categorical = _kinds(args, "numeric"), _kinds(args, "categorical")
    if numeric == ["auto"] or (not numeric and crit.reads_numbers and categorical != ["all"]):
        numeric = "auto"
    elif "auto" in numeric:
        raise InfotreeError("--numeric auto cannot be combined with column names")
    if numeric == ["all"]:
        numeric = "all"
    if categorical == ["all"]:
        categorical = "all"
    try:
        data = load(path, target=args.target, on_missing=on_missing, numeric=numeric or None,
                    categorical=categorical if categorical == "all" else tuple(categorical),
                    numeric_target=crit.regression, **selection(args))
    except DataError as e:
        raise DataError(as_flags(str(e))) from None
    return _roles(path, args, data)


def _kinds(args, option):
    """--numeric / --categorical: repeated and comma-separated names, or one word (all, auto)."""
    names = [n.strip() for text in getattr(args, option, None) or () for n in text.split(",") if n.strip()]
    for word in ("all", "auto"):
        if word in names and len(names) > 1:
            raise InfotreeError(f"--{option} {word} cannot be combined with column names")
    return names


def _roles(path, args, data):
    """``--sample-weight COL`` and ``--folds-from COL|FILE``: the columns leave the features of
    every file read (the test file's too, where present); the data file's values are kept
    in ``args.row_weights`` and ``args.row_folds`` for the commands that grow trees."""
    from .roles import fold_file, take_column, weights_of

    main = path == getattr(args, "data", None)
    name = getattr(args, "sample_weight", None)
    if name and (main or name in data.features):
        data, cells = take_column(data, name, "sample weight")
        if main:
            args.row_weights = weights_of(data, cells, name)
    source = getattr(args, "folds_from", None)
    if source and (source in data.features or source == data.target or (main and not os.path.isfile(source))):
        data, cells = take_column(data, source, "fold")
        if main:
            args.row_folds = [int(v) if isinstance(v, Fraction) and v.denominator == 1 else v for v in cells]
    elif source and main:
        args.row_folds = fold_file(source, len(data.y))
    return data


def selection(args) -> dict:
    """``columns=`` and ``drop=`` for the readers, from ``--columns A,B`` and ``--drop COL`` (both repeatable)."""
    columns = None
    if getattr(args, "columns", None):
        columns = [c.strip() for text in args.columns for c in text.split(",") if c.strip()]
    return {"columns": columns, "drop": tuple(getattr(args, "drop", None) or ())}


# The reader's messages name its keywords; at the command line the flags say the same.
_FLAGS = ((re.compile(r"on_missing='keep' or on_missing='value'"),
           "--criterion gain-ratio, which weights them as C4.5 does, or --missing-as-value"),
          (re.compile(r"on_missing='keep'"), "--criterion gain-ratio"),
          (re.compile(r"on_missing='value'"), "--missing-as-value"),
          (re.compile(r"categorical=\[('(?:[^'\\]|\\.)*')\]"), r"--categorical \1"),
          (re.compile(r"^columns= names"), "--columns names"), (re.compile(r"^drop= names"), "--drop names"),
          (re.compile(r"after columns=/drop="), "after --columns/--drop"),
          (re.compile(r"numeric=\[('(?:[^'\\]|\\.)*')\]"), r"--numeric \1"),
          (re.compile(r"m_of_n=True"), "--m-of-n"), (re.compile(r"lookahead=([01])"), r"--lookahead \1"),
          (re.compile(r"\? use delimiter=('[^']*'|\"'\")\)"), "? the command line reads commas, and tabs from a .tsv file)"),
          (re.compile(r"\b(columns|drop|target)=(?=[ ,;)]|$)"), r"--\1"),
          (re.compile(r"^prune '([a-z-]+)'"), r"--prune \1"), (re.compile(r"^criterion '([a-z_]+)'"), lambda m: "--criterion " + m.group(1).replace("_", "-")))


def as_flags(message: str) -> str:
    for pattern, flag in _FLAGS:
        message = pattern.sub(flag, message)
    return message


def tree_options(args) -> dict:
    """The keywords of build_tree that ``tree``, ``predict`` and ``check`` take from the command line."""
    _rationals(args)
    validation = None
    if args.prune == "reduced-error":
        if not args.validation:
            raise InfotreeError("--prune reduced-error needs --validation FILE (rows the tree is not grown on)")
        validation = read_data(args.validation, args)
    elif args.validation:
        raise InfotreeError("--validation applies to --prune reduced-error only")
    crit = _CRITERIA[args.criterion]
    pruning = _cost_complexity(args, crit)
    if crit.binary:  # rpart's controls and defaults
        split = 20 if args.min_samples_split is None else args.min_samples_split
        controls = dict(competitors=4 if args.competitors is None else args.competitors,
                        surrogates=5 if args.surrogates is None else args.surrogates, use_surrogate=args.use_surrogate,
                        surrogate_style=args.surrogate_style,
                        min_leaf=round(Fraction(split, 3)) if args.min_leaf is None else args.min_leaf,
                        cp=Fraction(1, 100) if args.cp is None else args.cp, max_subsets=args.max_subsets,
                        max_depth=30 if args.max_depth is None else args.max_depth, min_samples_split=split)
    else:  # CART's options given to another algorithm are refused by options.refusal
        controls = dict(max_depth=args.max_depth, min_samples_split=args.min_samples_split or 2)
    controls.update(pruning)  # cost-complexity's growth cp replaces rpart's
    controls.update(_costs(args, crit))
    return dict(criterion=crit, min_gain=args.min_gain, **controls, sample_weight=getattr(args, "row_weights", None),
                stop_at_zero_gain=args.stop_at_zero_gain, min_objects=args.min_objects,
                collapse=False if args.no_collapse else None,
                average_gain_slack=args.average_gain_slack, threshold=args.threshold,
                prune=args.prune, confidence=args.confidence, validation=validation, lookahead=args.lookahead,
                **({"m_of_n": True} if getattr(args, "m_of_n", False) else {}))


def _cost_complexity(args, crit) -> dict:
    """build_tree's cost-complexity keywords; under it --cp is the pruning cp and the tree
    is grown with cp 0 (rpart's risk) or fully (scikit-learn's)."""
    given = [f for f, v in (("--alpha", args.alpha), ("--select", args.select), ("--risk", args.risk)) if v is not None]
    command = getattr(args, "command", None)
    if args.prune != "cost-complexity":
        if given:
            raise InfotreeError(f"{given[0]} applies to --prune cost-complexity")
        for flag, v in (("--folds", args.folds), ("--folds-from", getattr(args, "folds_from", None))):
            if v is not None and command not in ("cptable", "evaluate"):
                raise InfotreeError(f"{flag} applies to --prune cost-complexity --select, cptable and evaluate")
        if args.sequence is not None and command != "cptable":
            raise InfotreeError("--sequence applies to --prune cost-complexity and cptable")
        return {}
    if not crit.binary:
        raise InfotreeError("--prune cost-complexity is CART's: use --algorithm cart")
    chosen = [f for f, v in (("--cp", args.cp), ("--alpha", args.alpha), ("--select", args.select)) if v is not None]
    if len(chosen) != 1:
        raise InfotreeError("--prune cost-complexity needs exactly one of --cp X, --alpha X and --select min|1se"
                            + (f" (given: {', '.join(chosen)})" if chosen else ""))
    risk = args.risk or "rpart"
    if args.select and risk != "rpart":
        raise InfotreeError("--select chooses by rpart's cross-validated cp table: it uses --risk rpart")
    out = dict(ccp_cp=args.cp, ccp_alpha=args.alpha, ccp_select=args.select, ccp_risk=risk,
               folds=_folds(args) or 10, seed=args.seed, ccp_sequence=args.sequence or "weakest-link")
    out["cp"] = Fraction(0) if risk == "rpart" else None  # the growth cp (None: fully)
    return out


def _costs(args, crit) -> dict:
    """build_tree's prior and loss from --prior C=P,... and --loss MATRIX|FILE."""
    out = {}
    if getattr(args, "prior", None):
        if not crit.binary:
            raise InfotreeError("--prior applies to --algorithm cart (criterion gini or entropy)")
        prior = {}
        for part in args.prior.split(","):
            name, eq, value = part.partition("=")
            if not eq or not name.strip():
                raise InfotreeError(f"--prior {args.prior!r}: {part.strip()!r} is not CLASS=P; write each class "
                                    f"and its prior, comma-separated: 'absent = 1/2, present = 1/2'")
            prior[name.strip()] = value.strip()
        out["prior"] = prior
    if getattr(args, "loss", None):
        if not crit.binary:
            raise InfotreeError("--loss applies to --algorithm cart (criterion gini or entropy)")
        text = args.loss
        if os.path.isfile(text):
            with open(text, encoding="utf-8") as f:
                text = ";".join(line for line in f.read().splitlines() if line.strip())
        out["loss"] = [[x for x in re.split(r"[,\s]+", row.strip()) if x] for row in text.split(";") if row.strip()]
    for spec in getattr(args, "cost", None) or ():
        if not crit.binary:
            raise InfotreeError("--cost applies to --algorithm cart")
        for part in spec.split(","):
            name, eq, value = part.rpartition("=")
            if not eq or not name.strip():
                raise InfotreeError(f"--cost {spec!r}: {part.strip()!r} is not COL=FACTOR; write each column and "
                                    f"its cost, e.g. --cost Age=2,Start=1/2")
            out.setdefault("cost", {})[name.strip()] = value.strip()
    return out


def _folds(args):
    """K from --folds, the fold ids from --folds-from, or None; not both."""
    if getattr(args, "folds_from", None):
        if args.folds is not None:
            raise InfotreeError("give either --folds K or --folds-from COL|FILE, not both")
        return args.row_folds
    return args.folds


def _routing_flag(parser):
    parser.add_argument("--routing", choices=["infotree", "rpart"], default="infotree",
                        help="cart: how new rows go down: infotree's rules (default: a value equal to a threshold "
                             "goes to the low side x <= t, a level a node never saw goes right) or rpart's predict "
                             "(x < t, so an equal value goes high; a level the node never saw is missing: surrogates, "
                             "then the majority). See docs/cart_rules.md")


def _m_of_n_flag(parser):
    parser.add_argument("--m-of-n", action="store_true",
                        help="every split is the M-of-N test grown at its node from the best single condition "
                             "(ID2-of-3; criterion gain, nominal features, no missing values). "
                             "See docs/pet_lookahead.md")


def _build(args, data):
    from .tree import build_tree

    with _flagged(args):
        return build_tree(data, every_split=_every_split(args), **tree_options(args))


@contextlib.contextmanager
def _flagged(args):
    """build_tree's M-of-N refusals name its keywords; at the command line the flags say the same."""
    try:
        yield
    except InfotreeError as e:
        if not getattr(args, "m_of_n", False):
            raise
        raise InfotreeError(as_flags(str(e))) from None


def _every_split(args) -> bool:
    """``--splits all``: CART candidates keep every threshold and subset they tried."""
    if getattr(args, "splits", "best") != "all":
        return False
    if not _CRITERIA[args.criterion].binary:
        raise InfotreeError("--splits all applies to --algorithm cart (each feature's thresholds and subsets)")
    return True


def _emit(args, inputs, write):
    """Run ``write(out)`` to stdout or atomically to ``--output`` (``-o ''`` too is refused there)."""
    if args.output not in (None, "-"):  # -o - is standard output, as for most tools
        from .output import atomic_writer, check_not_input

        check_not_input(args.output, inputs + [getattr(args, "validation", None)])
        with atomic_writer(args.output) as f:
            write(SafeWriter(f, getattr(args, "format", "text")))
    else:
        write(SafeWriter(sys.stdout, getattr(args, "format", "text")))
    return 0


def _plot(args, inputs, make) -> None:
    """``--plot FILE``: the figure ``make()`` draws, written atomically (its type from the name)."""
    if not getattr(args, "plot", None):
        return
    from .output import atomic_writer, check_not_input
    from .printers.plots import kind_of, save

    kind = kind_of(args.plot)
    check_not_input(args.plot, inputs)
    fig = make()
    with atomic_writer(args.plot) as f:
        save(fig, f, kind)


def _cmd_tree(args, out):
    from .printers import render

    data = read_data(args.data, args)
    tree = _build(args, data)
    if args.format != "text" and args.table_format != "simple":
        raise InfotreeError("--table-format applies to --format text only")
    if args.exact_values and args.format not in ("tikz", "svg", "png"):
        raise InfotreeError("--exact-values shows exact values in drawn boxes: --format tikz, svg or png")
    if args.standalone and args.format not in ("latex", "tikz"):
        raise InfotreeError("--standalone makes a complete LaTeX document: --format latex or tikz")
    if args.format == "png" and args.output in (None, "-") and sys.stdout.isatty():
        raise InfotreeError("PNG is binary; write it to a file: --output tree.png")
    args.nodes = _nodes_shown(args, tree)
    _note_drawing_size(args, tree)
    return _emit(args, [args.data], lambda f: render(
        tree, f, fmt=args.format, digits=args.digits, nodes=args.nodes, steps=args.steps,
        table_format=args.table_format, standalone=args.standalone,
        weights="exact" if args.exact_weights else args.weights, exact=args.exact_values, smoothing=args.smoothing,
        **_pictures(args)))


def _pictures(args) -> dict:
    """The drawings' options (dot, tikz, svg, png, html), refused for a format that draws nothing."""
    opts = dict(max_display_depth=args.max_display_depth, hide_empty=args.hide_empty, color=args.color, show=args.show)
    fmt = getattr(args, "format", "html")
    if fmt not in ("dot", "tikz", "svg", "png", "html") and (
            args.max_display_depth is not None or args.hide_empty or args.color != "none" or args.show != "counts"):
        raise InfotreeError("--max-display-depth, --hide-empty, --color and --show shape drawings: "
                            "--format dot, tikz, svg, png or html")
    return opts


# A derivation for more nodes than this is more than anyone reads: 'tree' prints the root's unless
# --nodes all is given, and says so; past it, --nodes all and 'report' say how big the output will be.
LARGE_DERIVATION = 1000
# A drawing wider than this many points (an A4 page in landscape, less its margins) is one no page holds.
PAGE_POINTS = 770
_DERIVED = ("text", "markdown", "latex", "json")   # the formats that print derivations


def _note(text):
    """A word on standard error before a large output is written (the output itself is unchanged)."""
    sys.stderr.write(f"infotree: note: {text}\n")
    sys.stderr.flush()


def _nodes_shown(args, tree) -> str:
    """--nodes as given; not given: all, or root for a tree of more than LARGE_DERIVATION nodes."""
    size = len(tree)
    if args.format not in _DERIVED or size <= LARGE_DERIVATION:
        return args.nodes or "all"
    if args.nodes is None:
        _note(f"the tree has {size:,} nodes; printing the root's derivation only (--nodes all prints every "
              f"node's, --nodes none the tree alone)")
        return "root"
    if args.nodes == "all":
        _note(f"writing the derivations of a tree of {size:,} nodes; --nodes root or --max-depth N narrows it")
    return args.nodes


def _note_drawing_size(args, tree) -> None:
    """A drawing wider than a page says how wide before it is drawn: the drawing's own layout, each
    character taken at 0.6 em of the 9-point font (DejaVu Sans averages a little less)."""
    if args.format not in ("svg", "png"):
        return
    from .printers.drawing import FONT_SIZE, boxes, layout

    root = boxes(tree, digits=args.digits, exact=args.exact_values,
                 weights="exact" if args.exact_weights else args.weights)
    width, height = layout(root, lambda text, bold: len(text) * FONT_SIZE * 0.6)
    if width > PAGE_POINTS:
        leaves = sum(1 for _ in tree.leaves())
        _note(f"the drawing will be about {width:,.0f} by {height:,.0f} points ({leaves:,} leaves; a page holds "
              f"about {PAGE_POINTS} across); --max-display-depth N draws fewer levels, --max-depth N grows a "
              f"shallower tree, --format text prints it in lines")


def _cmd_report(args, out):
    from .printers.html import write_report

    data = read_data(args.data, args)
    tree = _build(args, data)
    if len(tree) > LARGE_DERIVATION:
        _note(f"the report holds the derivation and worked solution of each of the tree's {len(tree):,} nodes; "
              f"--max-display-depth N narrows the drawing, --max-depth N the tree")
    pictures = _pictures(args)
    pictures["max_depth"] = pictures.pop("max_display_depth")
    return _emit(args, [args.data], lambda f: write_report(
        tree, f, digits=args.digits, title=args.title, source=os.path.basename(args.data),
        weights="exact" if args.exact_weights else "decimal", **pictures))


def _cmd_cptable(args, out):
    from .complexity import cp_table
    from .printers.complexity import write
    from .tree import build_tree, fold_grower

    if args.prune != "none":
        raise InfotreeError("cptable prints the sequence of the grown tree; --prune does not apply (prune with "
                            "'infotree tree --prune cost-complexity')")
    if args.format != "text" and args.table_format != "simple":
        raise InfotreeError("--table-format applies to --format text only")
    data = read_data(args.data, args)
    opts = tree_options(args)
    if not opts["criterion"].binary:
        raise InfotreeError("cptable is CART's: use --algorithm cart (criterion gini, entropy or misclassification)")
    tree = build_tree(data, **opts)
    grow = fold_grower(**{k: v for k, v in opts.items() if k not in ("prune", "confidence", "folds", "seed")})
    table = cp_table(tree, cp=opts["cp"], data=data, grow=grow, folds=_folds(args), seed=args.seed,
                     sequence=args.sequence or "weakest-link", weights=opts["sample_weight"])
    if args.plot:
        from .printers.plots import cp_plot

        _plot(args, [args.data], lambda: cp_plot(table, digits=args.digits))
    return _emit(args, [args.data], lambda f: write(table, f, fmt=args.format, digits=args.digits, steps=args.steps,
                                                     table_format=args.table_format))


_METHODS = {"id3": ("unpruned", "reduced-error"), "c45": ("unpruned", "pessimistic", "reduced-error"),
            "cart": ("unpruned", "cost-complexity")}
# where a method goes when the chosen family lacks it (reduced-error: C4.5's, as J48 -R)
_HOME = {"pessimistic": "c45", "reduced-error": "c45", "cost-complexity": "cart"}


def _configurations(args, opts) -> list:
    """(label, build_tree keywords, the options' namespace) of every configuration ``evaluate`` runs.

    ``--compare`` names methods of the chosen algorithm, a method it lacks (pessimistic and
    reduced-error: c45, cost-complexity: cart), or ``ALGORITHM:METHOD``; another family's
    configuration is read and grown with that family's defaults (the CART-only options
    apply to CART only)."""
    family = opts["criterion"].algorithm
    if args.compare is None:
        return [(_label(opts), opts, args)]
    names = list(_METHODS[family]) if args.compare == "all" else [n.strip() for n in args.compare.split(",")
                                                                    if n.strip()]
    out = []
    for name in names:
        fam, _, method = name.rpartition(":")
        fam = fam or (family if method in _METHODS[family] else _HOME.get(method))
        if fam not in _METHODS or method not in _METHODS[fam]:
            listed = "; ".join(f"{f}: {', '.join(m)}" for f, m in _METHODS.items())
            raise InfotreeError(f"--compare {name!r} is not allowed; give methods of --algorithm {family}, or "
                                f"ALGORITHM:METHOD ({listed})")
        a = args if fam == family else _args_for(args, fam)
        o = _configured(opts if fam == family else tree_options(a), method, a)
        out.append((_label(o), o, a))
    return out


def _args_for(args, family):
    """The options as another algorithm family reads them: its default criterion, no pruning,
    and no CART-only option outside CART."""
    import copy

    a = copy.copy(args)
    a.algorithm, a.criterion = family, ALGORITHMS[family][0].replace("_", "-")
    a.prune, a.validation = "none", None
    a.alpha = a.select = a.risk = a.sequence = None
    a.m_of_n = False  # M-of-N tests are ID3's (criterion gain)
    if family != "cart":
        a.cp = a.min_leaf = None
    return a


def _configured(o, method, a) -> dict:
    """build_tree's keywords for one pruning method on top of the options ``o``."""
    base = dict(o, prune="none", validation=None)
    for k in ("ccp_cp", "ccp_alpha", "ccp_select", "ccp_risk", "ccp_sequence"):
        base.pop(k, None)
    if method == "unpruned":
        return dict(base, cp=0) if o["criterion"].binary else base
    if method == "cost-complexity":
        return dict(o) if o.get("prune") == "cost-complexity" else dict(
            base, prune="cost-complexity", cp=Fraction(0), ccp_select="1se", ccp_risk="rpart",
            folds=a.folds or 10, seed=a.seed)
    return dict(base, prune=method)


def _label(o) -> str:
    label = _method_label(o)
    return f"{label}, M-of-N tests" if o.get("m_of_n") else label


def _method_label(o) -> str:
    crit = o["criterion"]
    prune = o.get("prune", "none")
    if prune == "cost-complexity":
        how = (f"select {o['ccp_select']}" if o.get("ccp_select") else
               f"cp {o['ccp_cp']}" if o.get("ccp_cp") is not None else f"alpha {o['ccp_alpha']}")
        return f"{crit.name}, cost-complexity ({how})"
    if prune == "none":
        return f"{crit.name}, unpruned" + (f" (cp {o['cp']})" if crit.binary and o.get("cp") is not None else "")
    return f"{crit.name}, {prune}"


def _grower(o, seed):
    """Training rows -> a tree; reduced-error without a validation file prunes on a third of them."""
    from .evaluation import reduced_error_split
    from .tree import build_tree

    def grow(train, weights=None):
        if o.get("prune") == "reduced-error" and o.get("validation") is None:
            if weights is not None:
                raise InfotreeError("--sample-weight cannot be combined with evaluate's reduced-error pruning (it "
                                    "sets a third of the rows aside); give --validation FILE")
            grow_rows, prune_rows = reduced_error_split(train, seed)
            return build_tree(grow_rows, **dict(o, validation=prune_rows))
        return build_tree(train, **dict(o, sample_weight=weights))

    return grow


def _cmd_evaluate(args, out):
    from .printers.complexity import write

    if args.test and (args.folds or getattr(args, "folds_from", None)):
        raise InfotreeError(f"evaluate takes either --test FILE or {'--folds K' if args.folds else '--folds-from'}, "
                            f"not both")
    if args.format != "text" and args.table_format != "simple":
        raise InfotreeError("--table-format applies to --format text only")
    if args.prune == "reduced-error" and not args.validation:
        args.validation = None  # evaluate sets a third of the training rows aside instead
        opts_prune = "reduced-error"
        args.prune = "none"
        opts = dict(tree_options(args), prune=opts_prune)
        args.prune = opts_prune
    else:
        opts = tree_options(args)
    configs = _configurations(args, opts)
    results = []
    read = {}  # each family reads the files its own way (ID3: columns as categories)
    with _flagged(args):
        _evaluate_each(args, configs, results, read)
    if args.plot:
        from .printers.plots import confusion_plot

        _plot(args, [args.data, args.test], lambda: confusion_plot(results))
    return _emit(args, [args.data, args.test], lambda f: write(results, f, fmt=args.format, digits=args.digits,
                                                                table_format=args.table_format))


def _evaluate_each(args, configs, results, read):
    from .evaluation import cross_validate, on_test

    for label, o, a in configs:
        if a.criterion not in read:
            read[a.criterion] = (read_data(args.data, a), read_data(args.test, a) if args.test else None)
        data, test = read[a.criterion]
        weights = getattr(args, "row_weights", None)
        grow = _grower(dict(o, sample_weight=None), args.seed)
        regression = o["criterion"].regression
        routing = args.routing if o["criterion"].binary else "infotree"  # rpart's routing is CART's
        if test is not None:
            try:
                results.append((label, on_test(data, test, lambda d: grow(d, weights), name=os.path.basename(args.test),
                                               regression=regression, unseen=args.unseen,
                                               routing=routing)))
            except InfotreeError as e:
                message = _unseen_flag(str(e))
                raise InfotreeError(message if message.startswith(args.test) else f"{args.test}: {message}") from None
        else:
            results.append((label, cross_validate(data, grow, folds=_folds(args) or 10, seed=args.seed,
                                                  regression=regression, weights=weights, routing=routing)))


_STEP = re.compile(r"\s*(.+?)\s*(<=|>|=)\s*(.*?)\s*$", re.S)


def _parse_at(text):
    """``outlook=sunny,humidity<=75`` as [(feature, operator, value), ...]."""
    path = []
    for part in text.split(","):
        if not part.strip():
            continue
        m = _STEP.match(part)
        if m is None:
            raise InfotreeError(f"--at {text!r}: {part.strip()!r} is not feature=value or feature<=t / feature>t; "
                                f"write e.g. 'outlook=sunny,humidity<=75'")
        path.append(m.groups())
    return path


def _cmd_measures(args, out):
    from .printers import render_node
    from .tree import node_at

    data = read_data(args.data, args)
    node = node_at(data, _parse_at(args.at or ""), criterion=_CRITERIA[args.criterion],
                   every_split=_every_split(args), lookahead=args.lookahead)
    if args.m_of_n:
        return _m_of_n(args, data, node)
    if args.format == "json":
        from .printers.json import write_measures

        return _emit(args, [args.data], lambda f: write_measures(node.tree, node, f))
    return _emit(args, [args.data], lambda f: render_node(
        node.tree, node, f, fmt=args.format, digits=args.digits, table_format=args.table_format))


def _m_of_n(args, data, node):
    """``measures --m-of-n``: the M-of-N test grown at the node (nominal paths only)."""
    import numpy as np

    from .mofn import grow_m_of_n
    from .printers.mofn import write

    mask = np.ones(len(data.y), bool)
    for j, v in node.path:
        if data.kinds[j] == "numeric":
            raise InfotreeError(f"--m-of-n follows nominal paths only; {data.features[j]!r} is numeric")
        mask &= np.asarray(data.X)[:, j] == v
    search = grow_m_of_n(data, np.flatnonzero(mask))
    if args.format == "json":
        import json

        from .printers.json import search_json

        return _emit(args, [args.data], lambda f: f.write(json.dumps(
            {"target": data.target, "at": [list(p) for p in node.path_names()],
             "m_of_n_search": search_json(node.tree, search)}, ensure_ascii=False, indent=1) + "\n"))
    return _emit(args, [args.data], lambda f: write(search, f, target=data.target, where=node.describe_path(),
                                                     digits=args.digits, fmt=args.format))


def _cmd_predict(args, out):
    from .model import load_model

    if args.train:
        if args.model_or_data is None:
            raise InfotreeError("predict --train TRAIN needs a DATA file to predict")
        if args.data is not None:
            raise InfotreeError("predict takes either MODEL.json DATA or --train TRAIN DATA, not both")
        tree = _build(args, read_data(args.train, args))
        data_path = args.model_or_data
    else:
        if args.model_or_data is None or args.data is None:
            raise InfotreeError("predict needs MODEL.json DATA (a model saved by 'infotree tree --format json') or --train TRAIN DATA")
        if args.m_of_n:
            raise InfotreeError("--m-of-n grows the tree with M-of-N tests: it applies with --train TRAIN (a saved "
                                "model predicts with the tests it has)")
        given = [f for f, v in (("--target", args.target), ("--drop", args.drop), ("--columns", args.columns)) if v]
        if given:
            raise _UsageError(f"{given[0]} chooses the columns a tree is grown on: it applies with --train TRAIN "
                              f"(a saved model reads the columns it names from DATA, and ignores the others)")
        tree = load_model(args.model_or_data)
        data_path = args.data
    if args.smoothing is not None and not args.proba:
        raise _UsageError("--smoothing applies to --proba (the predicted class is the leaf's majority either way)")
    rows, lines = _rows_for(tree, data_path)
    unseen = args.unseen
    if tree.criterion.regression and args.proba:
        raise InfotreeError("--proba is for classification trees; a regression tree predicts each row's leaf mean")
    if args.explain or args.format != "text" or args.row is not None:
        return _explain(args, tree, rows, data_path, inputs=[data_path, args.train, None if args.train else
                                                             args.model_or_data])

    try:  # every row's answer before the first line is written: a refusal leaves no half output
        labels = tree.predict(rows, unseen=unseen, routing=args.routing)
        probas = (tree.predict_proba(rows, unseen=unseen, smoothing=args.smoothing, routing=args.routing)
                  if args.proba else None)
    except InfotreeError as e:
        raise InfotreeError(_located(_unseen_flag(str(e)), data_path, lines)) from None

    def write(f):
        if args.proba:
            f.write(",".join(["prediction"] + [_csv(c) for c in tree.classes]) + "\n")
            for label, proba in zip(labels, probas):
                f.write(",".join([_csv(label)] + [_frac(proba[c]) for c in tree.classes]) + "\n")
        else:
            for label in labels:  # a regression tree: the exact mean
                f.write((number_text(label) if tree.criterion.regression else label) + "\n")

    inputs = [data_path, args.train, None if args.train else args.model_or_data]
    return _emit(args, inputs, write)


def _explain(args, tree, rows, data_path, inputs):
    """``predict --explain``: each row's path as text, or one row's path drawn (svg, png)."""
    if not args.explain:
        raise InfotreeError("--format and --row draw a row's path: add --explain")
    if args.proba:
        raise InfotreeError("--explain prints each row's path; --proba its probabilities: give one of them")
    if args.format == "text":
        if args.row is not None or args.max_display_depth is not None or args.hide_empty or args.color != "none" \
                or args.show != "counts":
            raise InfotreeError("--row and the drawing options apply to --explain --format svg or png")

        def write(f):
            for k, row in enumerate(rows, 1):
                f.write(f"row {k}:\n" + "".join(f"  {line}\n" for line in tree.explain(row, unseen=args.unseen)))
        return _emit(args, inputs, write)
    if args.row is None and len(rows) != 1:
        raise InfotreeError(f"{data_path} has {len(rows)} rows; a drawing shows one row's path: give --row K (1 to {len(rows)})")
    k = args.row or 1
    if k > len(rows):
        raise InfotreeError(f"--row {k}: {data_path} has {len(rows)} row{'s' * (len(rows) != 1)}")
    if args.format == "png" and not args.output and sys.stdout.isatty():
        raise InfotreeError("PNG is binary; write it to a file: --output path.png")
    opts = _pictures(args)
    opts["max_depth"] = opts.pop("max_display_depth")
    return _emit(args, inputs, lambda f: tree.plot_path(rows[k - 1], f, fmt=args.format, unseen=args.unseen, **opts))


def forest_from_args(args, data):
    """The forest ``infotree forest`` grows from its options (shared with ``check``) on ``data``."""
    from .ensemble import forest_criterion, grow_forest, m_try
    from .parse import ParseError, parse_rational

    args, data = _forest_default(args, data)
    try:
        fraction = parse_rational(args.sample_fraction, what="--sample-fraction")
    except ParseError:
        fraction = None
    if fraction is None or not 0 < fraction <= 1:
        raise _UsageError(f"--sample-fraction {_clip(args.sample_fraction)!r} is not allowed; "
                          f"give a fraction in (0, 1], such as 0.632 or 2/3")
    crit = forest_criterion(_CRITERIA[args.criterion])
    if args.prune != "none":
        raise InfotreeError("a forest grows its trees unpruned; --prune is not allowed here")
    if args.lookahead:
        raise InfotreeError("a forest's trees choose greedily among drawn features; --lookahead is not allowed here")
    for flag in ("sample_weight", "folds_from"):
        if getattr(args, flag, None):
            raise InfotreeError(f"--{flag.replace('_', '-')} is not taken by forest (its trees grow on drawn samples)")
    # A forest's trees are grown whole (scikit-learn's defaults), not with rpart's stopping rules.
    if crit.binary:
        args.min_samples_split = args.min_samples_split or 2
        args.min_leaf = args.min_leaf or 1
        args.competitors = args.competitors or 0
        args.surrogates = args.surrogates or 0
    options = tree_options(args)
    if crit.binary and args.cp is None:
        options["cp"] = None
    if crit.binary and args.max_depth is None:
        options["max_depth"] = None
    options.pop("validation")
    options.pop("prune")
    n = data.n_rows
    texts = list(args.sample or [])
    if args.samples:
        if texts:
            raise InfotreeError("give the trees' rows with --sample or with --samples FILE, not both")
        from .data import _read_text

        lines = [(i + 1, line) for i, line in enumerate(_read_text(args.samples).splitlines()) if line.strip()]
        samples = _parsed_samples(lines, n, args.samples)
        if not samples:
            raise InfotreeError(f"{args.samples}: no rows; write one tree's rows per line, e.g. '1-5,7,7'")
    else:
        samples = _parsed_samples(list(enumerate(texts, 1)), n) or None
    if samples is not None and args.trees is not None and args.trees != len(samples):
        raise _UsageError(f"--trees {args.trees} does not match the {len(samples)} samples given; "
                          f"leave --trees out or give one sample per tree")
    text = args.max_features.strip().lower()
    try:
        max_features = int(text)
    except ValueError:
        max_features = text
        if text not in ("sqrt", "log2", "all"):
            try:
                max_features = parse_rational(text, what="--max-features")
            except ParseError:
                pass
    m_try(max_features, data.n_features, name="--max-features")
    return grow_forest(data, n_trees=args.trees or FOREST_TREES, seed=args.seed, max_features=max_features,
                       draw="tree" if args.subspace else "node", sample_fraction=fraction,
                       bootstrap=args.bootstrap, samples=samples, vote=args.vote, builder=args.builder, **options)


# RandomForestClassifier's defaults, which 'forest' shares: CART's Gini trees grown whole, sqrt(M)
# features drawn at each node, the trees' leaf probabilities averaged, 100 trees.
FOREST_ALGORITHM, FOREST_TREES = "cart", 100


def _forest_default(args, data):
    """(args, data) as ``forest`` reads them when no --algorithm, --criterion or --split chose the
    trees: CART's Gini, the data read as CART reads it.  ``check`` resolves its criterion for its tree
    claims (ID3's gain by default), so its forest is re-read from DATA to be the forest ``forest`` grows."""
    import copy

    if getattr(args, "criterion_chosen", True) or args.criterion == _default_criterion(FOREST_ALGORITHM):
        return args, data
    args = copy.copy(args)
    before = _CRITERIA[args.criterion]
    args.criterion, args.default_algorithm = None, FOREST_ALGORITHM
    _resolve_criterion(args)
    after = _CRITERIA[args.criterion]
    reads = lambda c: (c.missing is None, c.reads_numbers, c.regression)  # noqa: E731
    if reads(before) != reads(after) and getattr(args, "data", None):
        data = read_data(args.data, args)
    return args, data


def _default_criterion(algorithm) -> str:
    return ALGORITHMS[algorithm][0].replace("_", "-")


def _parsed_samples(lines, n, path=None) -> list:
    """Each tree's rows, refused past the forest's ceilings before they are all expanded in memory."""
    from . import limits
    from .ensemble import parse_rows

    limits.within("trees", len(lines), " samples")
    samples, drawn = [], 0
    for i, line in lines:
        samples.append(parse_rows(line, n, what=f"{path} line {i}" if path else "--sample"))
        drawn += len(samples[-1])
        limits.within("forest_rows", drawn, f" (after {len(samples)} samples)")
    return samples


def _unseen_flag(message: str) -> str:
    """Tree.predict's refusal names its keyword; at the command line the flag says the same."""
    return message.replace("(or unseen='majority')", "(or --unseen majority)")


def predicted_ballots(forest, path, unseen="error") -> list:
    """The forest's ballot on each row of the file ``path`` (``forest --predict``), in file order."""
    rows, lines = _rows_for(forest.trees[0], path)
    try:
        return forest.ballots(rows, unseen=unseen)
    except InfotreeError as e:
        raise InfotreeError(_located(_unseen_flag(str(e)), path, lines)) from None


def _cmd_forest(args, out):
    from .printers.forest import write

    if args.format != "text" and args.table_format != "simple":
        raise InfotreeError("--table-format applies to --format text only")
    forest = forest_from_args(args, read_data(args.data, args))
    predicted = None
    if args.predict:
        ballots = predicted_ballots(forest, args.predict, args.unseen)
        predicted = ([str(i + 1) for i in range(len(ballots))], ballots)
    mdi = share = perm = None
    if args.importance in ("both", "mdi", "permutation"):
        mdi, share = forest.mdi_shares()
    if args.importance in ("both", "permutation"):
        perm = forest.permutation_importance()[0]
    if args.plot:
        from .printers.plots import importance_plot

        if args.importance == "none":
            raise InfotreeError("--plot draws the importances: drop --importance none")
        panels = ([("mean decrease in impurity", forest.mdi_by_tree)] if args.importance in ("both", "mdi") else []) + (
            [("permutation importance (out-of-bag rows)", forest.permutation_by_tree)]
            if args.importance in ("both", "permutation") else [])
        _plot(args, [args.data, args.predict, args.samples],
              lambda: importance_plot(forest.features, [(title, each()) for title, each in panels]))
    return _emit(args, [args.data, args.predict, args.samples], lambda f: write(
        forest, f, fmt=args.format, digits=args.digits, nodes=args.nodes, table_format=args.table_format,
        show_samples=args.show_samples, predicted=predicted, oob=forest.oob(), show_oob=args.show_oob,
        mdi=mdi, share=share, permutation=perm))


def _cmd_exercise(args, out):
    from .exercise.command import run

    return run(args, out)


def _csv(s):
    return f'"{s}"' if any(c in s for c in ',"\n') else s


def _rows_for(tree, path):
    """The rows of DATA as dicts keyed by column name (a target column may be absent).

    Every column is read as text (the tree reads numbers from it), and a missing
    value (``?`` or empty, numeric columns included) stays the token ``?``, which the
    tree treats as missing.
    """
    import numpy as np

    from .data import load

    try:
        data = load(path, on_missing="value", categorical=_arff_numeric_columns(path))
    except DataError as e:
        raise DataError(as_flags(str(e))) from None
    cols = list(data.features) + [data.target]
    missing = [f for f in tree.features if f not in cols]
    if missing:
        raise InfotreeError(f"{path}: no column {missing[0]!r}; the model needs: {', '.join(tree.features)}")
    codes = np.column_stack([data.X, data.y]) if len(data.y) else np.zeros((0, len(cols)), int)
    doms = list(data.domains) + [data.classes]
    idx = [cols.index(f) for f in tree.features]
    rows = [{tree.features[k]: doms[i][r[i]] for k, i in enumerate(idx)} for r in codes.tolist()]
    return rows, data.lines


def _located(message: str, path, lines) -> str:
    """A refusal about "row N" of the rows read from ``path`` (1-based, as Tree.predict counts them),
    naming the row as the file's reader does: its line (``lines``), or a Parquet row from 0."""
    path = os.fspath(path)
    m = re.match(r"row (\d+)(.*)", message, re.S)
    if m is None or (lines is not None and not 1 <= int(m.group(1)) <= len(lines)):
        return f"{path}: {message}"
    i = int(m.group(1)) - 1
    return f"{path} line {int(lines[i])}{m.group(2)}" if lines is not None else f"{path} row {i}{m.group(2)}"


def _arff_numeric_columns(path):
    """The numeric attributes of an ARFF file (read as text for prediction); () for CSV."""
    from .data import arff_numeric_names

    if not os.fspath(path).lower().endswith(".arff"):
        return ()
    try:
        return arff_numeric_names(path)
    except DataError:
        return ()  # the caller's own read reports the problem


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
    e.set_defaults(func=_cmd_entropy)

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
    t.set_defaults(func=_cmd_tree)

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
    r.set_defaults(func=_cmd_report)

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
    m.set_defaults(func=_cmd_measures)

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
    pr.set_defaults(func=_cmd_predict)

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
    cpt.set_defaults(func=_cmd_cptable, algorithm_default="cart")

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
    ev.set_defaults(func=_cmd_evaluate)

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
    fo = sub.add_parser("forest", parents=[common, grow, forest_opts], help="grow a forest (bagging, random forest, random "
                        "subspace) and print its trees, votes, OOB error and importances, exactly",
                        description="Grow T trees, each on rows drawn from DATA and choosing among drawn features; "
                                    "every draw comes from --seed (docs/forests.md), so the output is the same on "
                                    "every run.")
    fo.add_argument("data", metavar="DATA", help="CSV or ARFF file")
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
    fo.set_defaults(func=_cmd_forest, default_algorithm=FOREST_ALGORITHM)  # unlike cptable's, any algorithm goes

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
    ex.set_defaults(func=_cmd_exercise)

    if command in (None, "check"):
        from .check.command import add_check_command

        add_check_command(sub, [common, grow, forest_opts], help=_CHECK_HELP)
    else:
        sub.add_parser("check", help=_CHECK_HELP)
    from .options import fit

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
        from . import __version__

        return __version__


def _smoothing(text):
    from .smoothing import smoothing_named

    try:
        return smoothing_named(text)
    except InfotreeError:
        raise argparse.ArgumentTypeError(f"invalid value {_clip(text)!r}; give none, laplace or m=M with M a "
                                         f"positive number (m=2, m=1/2)") from None


def _nonneg(text):
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; give a non-negative integer")
    return v


def _at_most(name):
    """An argparse type: a positive integer within the ceiling ``name`` of :mod:`infotree.limits`,
    refused before any file is read."""
    def check(text):
        from . import limits

        value = _positive(text)
        try:
            limits.within(name, value)
        except InfotreeError as e:
            raise argparse.ArgumentTypeError(str(e).split(": ", 1)[1]) from None
        return value
    return check


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; give a positive integer")
    return v


class _UsageError(InfotreeError):
    """A bad option value found after parsing (exit 2, as argparse's own)."""


# The smallest confidence factor C4.5's estimate can use: below it 1 - CF rounds to 1 in
# floating point and the normal quantile is infinite.
_MIN_CONFIDENCE = "1e-15"


def _rationals(args):
    """Read the exact options in bounded work (after --max-value-length has been applied)."""
    from fractions import Fraction

    from .errors import LimitError
    from .parse import ParseError, parse_rational

    for name in ("min_gain", "average_gain_slack", "confidence", "cp", "alpha"):
        text = getattr(args, name, None)
        if text is None or isinstance(text, Fraction):
            continue
        flag = "--" + name.replace("_", "-")
        try:
            value = parse_rational(text, what=flag)
        except LimitError as e:
            raise _UsageError(str(e)) from None
        except ParseError:
            raise _UsageError(f"argument {flag}: invalid value {_clip(text)!r}; "
                              "give a rational number such as 0.01 or 1/100") from None
        if name == "confidence" and not parse_rational(_MIN_CONFIDENCE) <= value <= Fraction(1, 2):
            raise _UsageError(f"--confidence {_clip(text)!r} is not allowed; give a value from {_MIN_CONFIDENCE} "
                              f"to 0.5 (C4.5's default is 0.25)")
        setattr(args, name, value)


def _add_limit_options(p, *names):
    """The options that raise the budgets of :mod:`infotree.limits`."""
    helps = {"input_bytes": ("--max-input-mb", "largest data or model file read, in MiB (default 256)"),
             "value_length": ("--max-value-length", "longest exact number in a model or option (default 4000)"),
             "nesting": ("--max-nesting", "deepest tree a model file may hold (default 1000)"),
             "factor_digits": ("--max-factor-digits", "digits of a value entropy factors (default 12)"),
             "table_cells": ("--max-table-cells", "cells of one node's count table, features × values × classes "
                                                  "(default 16777216)")}
    for name in names:
        flag, text = helps[name]
        p.add_argument(flag, dest="limit_" + name, type=_positive, metavar="N", help=text)


def _limits(args) -> dict:
    out = {k[len("limit_"):]: v for k, v in vars(args).items() if k.startswith("limit_") and v is not None}
    if "input_bytes" in out:
        out["input_bytes"] = min(out["input_bytes"], 2 ** 30) * 2 ** 20  # past 2**20 MiB the ceiling refuses it
    return out


class _Terminated(KeyboardInterrupt):
    """A signal that ends the process (SIGTERM, SIGHUP, ...), raised where the process is, so that
    open temporary files are removed."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _on_sigterm(signum, frame):
    raise _Terminated(signum)


# Signals whose default action ends the process: each is raised as _Terminated instead.
# SIGINT is Python's KeyboardInterrupt already; SIGPIPE stays ignored (Python's default:
# a closed pipe shows as BrokenPipeError on the next write).
_ENDING = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM")
           if hasattr(signal, name)]


def _one_line(message: str, limit: int = 2000) -> str:
    """A message as one line of bounded length: control characters escaped, the middle cut."""
    from .escape import escape_controls

    message = escape_controls(message)
    if len(message) > limit:
        message = message[:limit // 2] + " ... " + message[-limit // 2:]
    return message


def _error(text: str) -> None:
    try:
        sys.stderr.write(_one_line(text) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # nowhere left to report to


def _tolerant_streams():
    """Never fail on a character the terminal's encoding lacks (a non-UTF-8 locale): escape it."""
    for stream in (sys.stdout, sys.stderr):
        enc = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if enc != "utf8" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, OSError, TypeError):
                pass


def _silence_stdout():
    """After a failed write to stdout, keep the interpreter's final flush from failing again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv=None) -> int:
    """Run the command line; errors are one line on stderr, never a traceback."""
    previous = {}
    try:
        for sig in _ENDING:
            previous[sig] = signal.signal(sig, _on_sigterm)
    except (ValueError, OSError):  # not the main thread: leave signals alone
        pass
    try:
        return _main(argv)
    except _Terminated as e:
        _error("infotree: terminated" + ("" if e.signum == signal.SIGTERM else f" ({signal.Signals(e.signum).name})"))
        return 128 + e.signum
    except KeyboardInterrupt:
        _error("infotree: interrupted")
        return 130
    finally:
        for sig, handler in previous.items():
            if handler is not None:  # None: set outside Python, cannot be put back from here
                signal.signal(sig, handler)


def _refuse_what_does_nothing(parser, args, argv):
    """An option given where it does nothing (another command's, another algorithm's) is bad usage."""
    from .options import refusal, subparser

    crit = _CRITERIA[args.criterion]
    message = refusal(args, subparser(parser, args.command), args.command, argv, crit.algorithm, args.criterion)
    if message:
        raise _UsageError(message)


def _main(argv):
    from . import limits, progress

    _tolerant_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in ("entropy", "tree", "measures", "predict", "report", "cptable",
                                              "evaluate", "forest", "exercise") else None
    parser = build_parser(command)
    if not argv:  # bare 'infotree': the usage and the list of commands
        sys.stderr.write(parser.format_help())
        return 2
    args = parser.parse_args(argv)
    try:
        if hasattr(args, "criterion"):
            _resolve_criterion(args)
            _refuse_what_does_nothing(parser, args, argv)
        with limits.raised(**_limits(args)) as budget, limits.recursion_room(4 * budget.nesting), \
                warnings.catch_warnings():
            # A library's warning (numpy on a float filter, matplotlib on a missing glyph) is nothing
            # a user of the command can act on, and every answer is decided exactly.
            warnings.simplefilter("ignore")
            with progress.reporting(enabled=sys.stderr.isatty() and not getattr(args, "quiet", False)):
                status = args.func(args, sys.stdout)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return status
    except _UsageError as e:
        _error(f"infotree {args.command}: error: {e}")
        return 2
    except InfotreeError as e:
        _error(f"infotree: error: {e}")
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except MemoryError:
        _error("infotree: error: out of memory; try --nodes none or a smaller data set")
        return 1
    except OSError as e:
        if e.filename is not None:
            _error(f"infotree: error: {e.filename!r}: {e.strerror or e}")
        else:
            _silence_stdout()
            _error(f"infotree: error: cannot write the output: {e.strerror or e}")
        return 1
    except RecursionError:
        _error("infotree: error: the input is nested too deeply to process (please report this with the command and data)")
        return 3
    except Exception as e:  # a bug: still one line, and say where to look
        _error(f"infotree: internal error: {type(e).__name__}: {e} (please report this with the command and data)")
        return 3
