"""The parsed command line turned into the library's calls: the data read (`read_data`), a tree's
options (`tree_options`), a forest (`forest_from_args`), rows to predict.  Shared by every command,
by ``check`` (which grows what ``tree`` grows) and by ``exercise`` (whose keys must be what ``check``
finds); it imports no command."""

from __future__ import annotations

import contextlib
import os
import re
from fractions import Fraction

from ..criteria import ALGORITHMS, CRITERIA
from ..errors import DataError, InfotreeError
from ..escape import clip as _clip

__all__ = ["read_data", "tree_options", "forest_from_args", "predicted_ballots"]


def _frac(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


# The criteria by their option spelling: gain-ratio for gain_ratio.
_CRITERIA = {name.replace("_", "-"): c for name, c in CRITERIA.items()}


def _resolve_criterion(args) -> None:
    """--algorithm and --criterion together: the criterion (option spelling) in args.criterion."""
    algorithm, name = getattr(args, "algorithm", None) or getattr(args, "algorithm_default", None), args.criterion
    if getattr(args, "criterion_chosen", None) is None:  # the first call sees the command line's own choice
        args.criterion_chosen = bool(name or getattr(args, "algorithm", None) or getattr(args, "split", None)
                                     or getattr(args, "method", None))
    method = getattr(args, "method", None)
    if method is not None:  # rpart's method = "class" | "anova" | "poisson" | "exp"
        named = {"class": None, "anova": "squared-error", "poisson": "poisson", "exp": "exp"}[method]
        if named is None:
            named = {"information": "entropy"}.get(getattr(args, "split", None), name or "gini")
        if name not in (None, named):
            raise InfotreeError(f"--method {method} is --criterion {named}; it cannot be combined with --criterion {name}")
        if algorithm not in (None, "cart"):
            raise InfotreeError(f"--method {method} is rpart's (--algorithm cart), not --algorithm {algorithm}")
        args.criterion = name = named
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
    from ..data import load

    try:
        data = load(path, **reading(args), **selection(args))
    except DataError as e:
        raise DataError(as_flags(str(e))) from None
    return _roles(path, args, data)


def reading(args) -> dict:
    """The reader's keywords the criterion and the data options ask for (shared with the engines)."""
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
    return dict(target=args.target, on_missing=on_missing, numeric=numeric or None,
                categorical=categorical if categorical == "all" else tuple(categorical),
                numeric_target=crit.regression)


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
    from ..roles import exposures_of, fold_file, take_column, weights_of

    main = path == getattr(args, "data", None)
    name = getattr(args, "sample_weight", None)
    if name and (main or name in data.features):
        data, cells = take_column(data, name, "sample weight")
        if main:
            args.row_weights = weights_of(data, cells, name)
    name = getattr(args, "exposure", None)
    if name and (main or name in data.features):
        data, cells = take_column(data, name, "exposure")
        if main:
            args.row_exposure = exposures_of(data, cells, name)
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
    if getattr(args, "row_exposure", None) is not None:
        controls["exposure"] = args.row_exposure
    if getattr(args, "shrink", None) is not None:
        controls["shrink"] = _rational_flag(args.shrink, "--shrink")
    return dict(criterion=crit, min_gain=args.min_gain, **controls, sample_weight=getattr(args, "row_weights", None),
                stop_at_zero_gain=args.stop_at_zero_gain, min_objects=args.min_objects,
                collapse=False if args.no_collapse else None,
                average_gain_slack=args.average_gain_slack, threshold=args.threshold,
                prune=args.prune, confidence=args.confidence, validation=validation, lookahead=args.lookahead,
                **({"m_of_n": True} if getattr(args, "m_of_n", False) else {}))


def _rational_flag(text, flag):
    from ..parse import ParseError, parse_rational

    try:
        q = parse_rational(text, what=flag)
    except ParseError:
        q = None
    if q is None:
        raise _UsageError(f"{flag} {_clip(text)!r} is not allowed; give a rational such as 1, 0.5 or 1/2")
    return q


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


def _build(args, data):
    from ..growing import build_tree

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


def forest_from_args(args, data, grow=None):
    """The forest ``infotree forest`` grows from its options (shared with ``check``) on ``data``
    (``grow``: in place of grow_forest, an engine's)."""
    from ..ensemble import forest_criterion, grow_forest, m_try
    from ..parse import ParseError, parse_rational

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
        from ..data import _read_text

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
    return (grow or grow_forest)(data, n_trees=args.trees or FOREST_TREES, seed=args.seed, max_features=max_features,
                       draw="tree" if args.subspace else "node", sample_fraction=fraction,
                       bootstrap=args.bootstrap, sampling=args.sampling, samples=samples, vote=args.vote,
                       builder=args.builder,
                       n_jobs=getattr(args, "jobs", None), **options)


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
    from .. import limits
    from ..ensemble import parse_rows

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


def _rows_for(tree, path):
    """The rows of DATA as dicts keyed by column name (a target column may be absent).

    Every column is read as text (the tree reads numbers from it), and a missing
    value (``?`` or empty, numeric columns included) stays the token ``?``, which the
    tree treats as missing.
    """
    import numpy as np

    from ..data import load

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
    from ..data import arff_numeric_names

    if not os.fspath(path).lower().endswith(".arff"):
        return ()
    try:
        return arff_numeric_names(path)
    except DataError:
        return ()  # the caller's own read reports the problem


class _UsageError(InfotreeError):
    """A bad option value found after parsing (exit 2, as argparse's own)."""


# The smallest confidence factor C4.5's estimate can use: below it 1 - CF rounds to 1 in
# floating point and the normal quantile is infinite.
_MIN_CONFIDENCE = "1e-15"


def _rationals(args):
    """Read the exact options in bounded work (after --max-value-length has been applied)."""
    from fractions import Fraction

    from ..errors import LimitError
    from ..parse import ParseError, parse_rational

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


def _limits(args) -> dict:
    out = {k[len("limit_"):]: v for k, v in vars(args).items() if k.startswith("limit_") and v is not None}
    if "input_bytes" in out:
        out["input_bytes"] = min(out["input_bytes"], 2 ** 30) * 2 ** 20  # past 2**20 MiB the ceiling refuses it
    return out
