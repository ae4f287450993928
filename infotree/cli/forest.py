"""``infotree forest``: grow a forest and print its trees, votes, OOB error and importances."""

from __future__ import annotations

from ..errors import InfotreeError
from .args import forest_from_args, predicted_ballots, read_data
from .emit import _emit, _plot


def _cmd_forest(args, out):
    from ..printers.forest import write

    if args.format != "text" and args.table_format != "simple":
        raise InfotreeError("--table-format applies to --format text only")
    from ..engines.command import engine_forest

    forest = engine_forest(args) or forest_from_args(args, read_data(args.data, args))
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
        from ..printers.plots import importance_plot

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
