"""``infotree cptable``: rpart's cp table, exactly."""

from __future__ import annotations

from ..errors import InfotreeError
from .args import _folds, read_data, tree_options
from .emit import _emit, _plot


def _cmd_cptable(args, out):
    from ..complexity import cp_table
    from ..printers.complexity import write
    from ..growing import build_tree, fold_grower

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
        from ..printers.plots import cp_plot

        _plot(args, [args.data], lambda: cp_plot(table, digits=args.digits))
    return _emit(args, [args.data], lambda f: write(table, f, fmt=args.format, digits=args.digits, steps=args.steps,
                                                     table_format=args.table_format))
