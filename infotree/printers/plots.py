"""Plots of what a tree's numbers say (matplotlib, ``pip install 'infotree[plot]'``).

- :func:`cp_plot`: rpart's ``plotcp``: the cross-validated relative error (xerror) of each
  row of a cp table with ±1 SE bars, against cp (bottom axis) and the tree's size (top
  axis: leaves, nsplit + 1), the 1-SE line (least xerror plus its SE) dashed, and the rows
  the least xerror and the 1-SE rule pick marked;
- :func:`importance_plot`: a forest's importances, one box per feature over its trees
  (the spread) with the forest's mean marked, mean decrease in impurity and permutation
  importance side by side;
- :func:`confusion_plot`: an evaluation's confusion matrix as an image, the counts
  written in the cells (one panel per configuration compared).

Each takes the records the computing modules made (:class:`~infotree.records.CpTable`,
:meth:`~infotree.ensemble.Forest.mdi_by_tree`, :class:`~infotree.records.Evaluation`) and
turns exact values into floats only to place them.  The file's type follows its name
(``.png`` at 150 dpi, ``.svg``, ``.pdf``); SVG output is the same bytes on every run.
"""

from __future__ import annotations

import os

from ..errors import InfotreeError
from .numbers import number, ratio_text

__all__ = ["confusion_plot", "cp_plot", "importance_plot", "save"]

KINDS = ("png", "svg", "pdf")
GREYS = dict(color="black", ecolor="black")


def _figure(width, height):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InfotreeError("plots need matplotlib: pip install 'infotree[plot]'") from None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def kind_of(path) -> str:
    """The plot's file type from its name: ``cp.png`` -> png; one line naming what is allowed."""
    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    if ext not in KINDS:
        raise InfotreeError(f"--plot {str(path)!r}: name a .png, .svg or .pdf file (its ending says the type)")
    return ext


def save(fig, out, kind) -> None:
    """Write ``fig`` to ``out`` (a binary stream, or a text stream's ``buffer``), deterministically."""
    import matplotlib as mpl

    meta = {"png": {"Software": "infotree"}, "svg": {"Date": None, "Creator": "infotree"},
            "pdf": {"CreationDate": None, "Creator": "infotree", "Producer": "infotree"}}[kind]
    target = getattr(out, "buffer", out)
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "infotree", "font.family": "DejaVu Sans"}):
        fig.savefig(target, format=kind, dpi=150, metadata=meta, bbox_inches="tight")


def cp_plot(table, *, digits=4):
    """rpart's ``plotcp`` of a cp table grown with cross-validation (``xerror``, ``xstd``)."""
    rows = table.rows
    if table.folds is None:
        raise InfotreeError("a cp plot shows the cross-validated error: give --folds K (rpart's xval)")
    fig = _figure(max(5.0, 0.55 * len(rows) + 2.5), 4.2)
    ax = fig.add_axes((0.12, 0.16, 0.84, 0.66))
    xs = list(range(len(rows)))
    err = [float(r.xerror) for r in rows]
    se = [float(r.xstd) for r in rows]
    ax.errorbar(xs, err, yerr=se, fmt="o-", capsize=3, markersize=4, linewidth=1, **GREYS)
    best = table.best
    line = float(rows[best].xerror) + float(rows[best].xstd)
    ax.axhline(line, linestyle="--", color="0.35", linewidth=0.9)
    ax.annotate("1-SE line", (len(rows) - 1, line), textcoords="offset points", xytext=(0, 4), ha="right",
                fontsize=8, color="0.35")
    ax.plot([best], [err[best]], marker="o", markersize=9, markerfacecolor="none", color="black")
    if table.one_se is not None:
        ax.plot([table.one_se], [err[table.one_se]], marker="s", markersize=10, markerfacecolor="none",
                color="black")
    ax.set_xticks(xs, [number(r.cp, digits) for r in rows], rotation=45 if len(rows) > 8 else 0, fontsize=8)
    ax.set_xlabel("cp (complexity parameter of each row)")
    ax.set_ylabel("X-val relative error")
    top = ax.secondary_xaxis("top")
    top.set_xticks(xs, [str(r.nsplit + 1) for r in rows], fontsize=8)
    top.set_xlabel("size of tree (leaves)")
    ax.set_title(f"{table.folds}-fold cross-validation, seed {table.seed}: ○ least xerror, □ 1-SE rule",
                 fontsize=9, pad=30)
    ax.grid(axis="y", color="0.9")
    return fig


def importance_plot(features, panels):
    """A forest's importances: per feature a box of its trees' values, the mean as a diamond; one
    panel per ``(title, values per tree)`` (``Forest.mdi_by_tree``, ``Forest.permutation_by_tree``)."""
    if not panels or not all(per_tree for _, per_tree in panels):
        raise InfotreeError("no importances to plot: no tree has out-of-bag rows (permutation) or none was asked for")
    fig = _figure(4.2 * len(panels) + 1.5, max(2.5, 0.38 * len(features) + 1.3))
    for k, (title, per_tree) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), k + 1)
        values = [[float(t[j]) for t in per_tree] for j in range(len(features))]
        ys = list(range(len(features), 0, -1))  # the first feature at the top, as in the table
        ax.boxplot(values, positions=ys, vert=False, widths=0.55, showfliers=True, showmeans=True,
                   medianprops=dict(color="black"), meanprops=dict(marker="D", markerfacecolor="white",
                                                                     markeredgecolor="black", markersize=5),
                   flierprops=dict(marker=".", markersize=4, markerfacecolor="black"))
        ax.set_yticks(ys, features if k == 0 else [""] * len(features), fontsize=8)
        ax.axvline(0, color="0.6", linewidth=0.8)
        ax.set_title(f"{title}\nover {len(per_tree)} trees (◇ mean)", fontsize=9)
        ax.grid(axis="x", color="0.9")
    fig.tight_layout()
    return fig


def confusion_plot(results):
    """Confusion matrices of ``(label, Evaluation)`` pairs: rows actual, columns predicted, the counts
    written in, darker the more rows; the accuracy in each title."""
    results = [(label, e) for label, e in results]
    if any(e.confusion is None for _, e in results):
        raise InfotreeError("a confusion matrix is a classifier's: a regression tree has MSE and R² instead")
    k = len(results[0][1].classes)
    side = max(2.8, 0.42 * k + 1.6)
    fig = _figure(side * len(results) + 0.6, side + 0.5)
    for i, (label, e) in enumerate(results):
        ax = fig.add_subplot(1, len(results), i + 1)
        counts = [[float(c) for c in row] for row in e.confusion]
        most = max(max(row) for row in counts) or 1.0
        ax.imshow(counts, cmap="Greys", vmin=0, vmax=most * 1.25)
        for r, row in enumerate(e.confusion):
            for c, v in enumerate(row):
                ax.text(c, r, number(v, 2), ha="center", va="center", fontsize=8,
                        color="white" if counts[r][c] > most * 0.6 else "black")
        ax.set_xticks(range(k), list(e.classes), rotation=45 if k > 4 else 0, fontsize=8)
        ax.set_yticks(range(k), list(e.classes), fontsize=8)
        ax.set_xlabel("predicted")
        ax.set_ylabel("actual")
        ax.set_title(f"{label}\naccuracy {ratio_text(e.correct, e.total)}", fontsize=8)
    fig.suptitle(results[0][1].how, fontsize=8, wrap=True)
    fig.tight_layout()
    return fig
