"""``infotree predict``: classes, probabilities and explained paths, from a model or a training file."""

from __future__ import annotations

import sys

from ..data import number_text
from ..errors import InfotreeError
from .args import _UsageError, _build, _frac, _located, _rows_for, _unseen_flag, read_data
from .emit import _emit
from .tree import _pictures


def _cmd_predict(args, out):
    from ..model import load_model

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


def _csv(s):
    return f'"{s}"' if any(c in s for c in ',"\n') else s
