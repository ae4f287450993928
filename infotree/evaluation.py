"""How well a way of growing trees predicts rows it was not grown on: on a test file, or
by K-fold cross-validation on the folds of :mod:`infotree.folds` (the same folds as the
cp table's for the same seed), exactly.

A *configuration* is a label and a function from a training :class:`~infotree.data.Dataset`
to a grown tree; :func:`cross_validate` and :func:`on_test` run one, and running several
on the same folds compares them side by side.  Classification gives the confusion matrix,
the accuracy and each class's precision and recall as exact fractions; regression the
mean squared error and R².
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .errors import InfotreeError
from .folds import assign, resolve
from .progress import steps
from .records import Evaluation

__all__ = ["cross_validate", "on_test", "reduced_error_split"]


def _predictions(tree, rows, unseen="majority", routing="infotree"):
    """Predicted labels, or (regression) exact means, of a Dataset's rows.  A fold may lack a
    value its held-out rows have: cross-validation sends such a row to the node's majority.
    ``routing``: how the rows go down (:mod:`infotree.rpart_routing`)."""
    return tree.predict(rows, unseen=unseen, routing=routing)


def _actual(data, regression):
    if regression:
        from .growing import target_numbers

        values = target_numbers(data)
        return [values[c] for c in np.asarray(data.y).tolist()]
    return [data.classes[c] for c in np.asarray(data.y).tolist()]


def _evaluation(how, actual, predicted, classes, leaves) -> Evaluation:
    total = Fraction(len(actual))
    mean_leaves = Fraction(sum(leaves), len(leaves))
    if classes is None:
        sse = sum(((Fraction(a) - Fraction(p)) ** 2 for a, p in zip(actual, predicted)), Fraction(0))
        mean = sum(map(Fraction, actual), Fraction(0)) / total
        sst = sum(((Fraction(a) - mean) ** 2 for a in actual), Fraction(0))
        return Evaluation(how, total, mean_leaves, mse=sse / total, r2=None if not sst else 1 - sse / sst)
    extra = [c for c in dict.fromkeys(actual) if c not in classes]  # test classes never seen in training
    classes = tuple(classes) + tuple(extra)
    index = {c: i for i, c in enumerate(classes)}
    k = len(classes)
    cm = [[0] * k for _ in range(k)]
    for a, p in zip(actual, predicted):
        cm[index[a]][index[p]] += 1
    correct = sum(cm[i][i] for i in range(k))
    precision = tuple(None if not sum(cm[r][i] for r in range(k)) else Fraction(cm[i][i], sum(cm[r][i] for r in range(k)))
                      for i in range(k))
    recall = tuple(None if not sum(cm[i]) else Fraction(cm[i][i], sum(cm[i])) for i in range(k))
    return Evaluation(how, total, mean_leaves, classes, tuple(map(tuple, cm)), Fraction(correct),
                      Fraction(correct) / total, precision, recall)


def cross_validate(data, grow, *, folds=10, seed=0, regression=False, weights=None, routing="infotree") -> Evaluation:
    """Grow on K−1 folds, predict the held-out fold, K times; pooled over the folds.
    ``folds``: K (dealt from ``seed``), one fold id per row, or a scikit-learn splitter
    (:func:`infotree.folds.resolve`); ``weights``: sample weights the trees are grown
    with (``grow(rows, weights)``); the held-out rows count one each."""
    fold, k, given = resolve(np.asarray(data.y), folds, seed, stratify=not regression)
    actual, predicted, leaves = [], [], []
    for f in steps(range(1, k + 1), "evaluate: cross-validation fold"):
        train, test = np.flatnonzero(fold != f), np.flatnonzero(fold == f)
        if not len(test):
            continue
        tree = grow(data.subset(train)) if weights is None else grow(data.subset(train), [weights[r] for r in
                                                                                           train.tolist()])
        held = data.subset(test)
        actual += _actual(held, regression)
        predicted += _predictions(tree, held, routing=routing)
        leaves.append(sum(1 for _ in tree.leaves()))
    dealt = "on the given folds" if given else f"seed {seed}"
    return _evaluation(f"{k}-fold cross-validation, {dealt}: each row predicted by the tree grown "
                       f"without its fold", actual, predicted, None if regression else data.classes, leaves)


def on_test(data, test, grow, *, name="the test file", regression=False, unseen="majority",
            routing="infotree") -> Evaluation:
    """Grow on ``data``, predict ``test``; a test value not seen in training is refused, or
    (``unseen="majority"``) sent to the node's majority, as ``Tree.predict`` does; ``routing``:
    infotree's rules or rpart's."""
    tree = grow(data)
    return _evaluation(f"grown on the training file, predicting {name}", _actual(test, regression),
                       _predictions(tree, test, unseen, routing), None if regression else data.classes,
                       [sum(1 for _ in tree.leaves())])


def reduced_error_split(data, seed=0):
    """(growing rows, pruning rows) for reduced-error pruning without a validation file:
    the folds of :func:`infotree.folds.assign` with K = 3 on these rows, fold 3 prunes
    (as Weka's J48 -R: one fold of three)."""
    if len(data.y) < 3:
        raise InfotreeError(f"reduced-error pruning sets a third of the rows aside; {len(data.y)} rows are too few")
    fold = assign(np.asarray(data.y), 3, seed)
    return data.subset(np.flatnonzero(fold != 3)), data.subset(np.flatnonzero(fold == 3))
