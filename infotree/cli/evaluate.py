"""``infotree evaluate``: accuracy and confusion matrices on a test file or by cross-validation,
several pruning methods on the same folds."""

from __future__ import annotations

import os
from fractions import Fraction

from ..criteria import ALGORITHMS
from ..errors import InfotreeError
from .args import _flagged, _folds, _unseen_flag, read_data, tree_options
from .emit import _emit, _plot


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
    from ..evaluation import reduced_error_split
    from ..growing import build_tree

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
    from ..printers.complexity import write

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
        from ..printers.plots import confusion_plot

        _plot(args, [args.data, args.test], lambda: confusion_plot(results))
    return _emit(args, [args.data, args.test], lambda f: write(results, f, fmt=args.format, digits=args.digits,
                                                                table_format=args.table_format))


def _evaluate_each(args, configs, results, read):
    from ..evaluation import cross_validate, on_test

    for label, o, a in configs:
        if getattr(o["criterion"], "counts_events", False):  # MSE of a count against a rate means nothing
            raise InfotreeError(f"evaluate scores error rates and squared errors; a {o['criterion'].name} tree's "
                                f"held-out deviance is cptable's xerror (infotree cptable ... --method "
                                f"{o['criterion'].name})")
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
