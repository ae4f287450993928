"""An ID3 or C4.5 node's derivation as strings, and :func:`node_view` for any node.

The entropy families' view: H(Y) as form = exact = decimal, each branch's entropy, per
feature H(Y|X), IG, SplitInfo and GainRatio (with C4.5's average-gain filter, validity and
gain corrections for missing values and numeric cuts).  :func:`node_view` gives any
node's :class:`~infotree.printers.cells.NodeView`: CART's from :mod:`.impurity`,
regression's from :mod:`.regression`, these otherwise.  Values are read from the
records; nothing is computed here but text.

    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> tree = build_tree(load("tests/data/weather.csv"), criterion="gain")
    >>> view = node_view(tree, tree.root, digits=4)
    >>> view.facts[1]
    'H(play) = -(5/14)·log2(5/14) - (9/14)·log2(9/14) = 1 + log2(7) - 9/7*log2(3) - 5/14*log2(5) = 0.9403'
    >>> view.summary.rows[0]
    ('*', 'outlook', '5/14·H(3,2) + 4/14·H(0,4) + 5/14·H(2,3)', '0.6935', '0.2467', '1.5774', '0.1564')
    >>> view.decision
    'split on outlook: maximal information gain'
"""

from __future__ import annotations

from ..forms import conditional_entropy_form, entropy_form
from ..records import BinaryCandidate, RegressionCandidate
from .cells import (LATEX, TEXT, Markup, NodeView, Table, _decision_text, _markers, _tex_name, _weight_fact,
                    class_counts_text, count_text, entropy_name, lookahead_note, node_title, pruning_table)
from .impurity import impurity_view
from .numbers import approx, number
from .regression import regression_view

__all__ = ["all_missing", "entropy_view", "equal_gain_groups", "known_gain", "mdl_form", "node_view"]


def all_missing(c) -> bool:
    """True for a C4.5 candidate whose value is missing for every row at the node (no measures)."""
    return not any(any(r) for r in c.table)


def equal_gain_groups(node) -> list[list[str]]:
    """:meth:`Node.equal_gain_groups` over the candidates that have measures.

    Groups come in the order of their first feature.  Exactly equal values have
    the same coefficients and so the same float: candidates are grouped by float
    first, and exactly only within one float (hashing exact values costs more).
    """
    by_float: dict = {}
    for c in node.candidates():
        if not all_missing(c):
            g = c.gain
            bucket = by_float.setdefault(g.approx()[0], [])
            for value, features in bucket:
                if value == g:
                    features.append(c.feature)
                    break
            else:
                bucket.append((g, [c.feature]))
    groups = [features for bucket in by_float.values() for _, features in bucket if len(features) > 1]
    if len(groups) > 1:
        order = {f: i for i, f in enumerate(c.feature for c in node.candidates())}
        groups.sort(key=lambda g: order[g[0]])
    return groups


def _filter_shown(cands) -> bool:
    """Whether the C4.5 columns (average-gain filter, validity) belong in the table."""
    return any(c.passes_average_gain is not None or not c.valid for c in cands)


def node_view(tree, node, *, digits: int = 4, markup: Markup = TEXT) -> NodeView:
    """The strings of ``node``'s derivation (a node with candidates; see :func:`has_derivation`):
    a regression node's from :mod:`.regression`, a CART node's from :mod:`.impurity`, else
    the entropies and gains of ID3 and C4.5."""
    cands = node.candidates()
    if cands and isinstance(cands[0], RegressionCandidate):  # regression: means and SSEs
        return regression_view(tree, node, digits=digits, markup=markup)
    if cands and isinstance(cands[0], BinaryCandidate):  # CART: impurities, not entropies
        return impurity_view(tree, node, digits=digits, markup=markup)
    return entropy_view(tree, node, digits=digits, markup=markup)


def entropy_view(tree, node, *, digits: int = 4, markup: Markup = TEXT) -> NodeView:
    """The strings of an ID3 or C4.5 node's derivation: entropies, gains, split information, gain ratios."""
    m = markup
    sym = m.symbols
    cands = node.candidates()
    target = tree.target

    h_text, h_latex = entropy_name(tree, node)
    facts = [f"n = {_weight_fact(node.n, digits, m)}: {class_counts_text(tree, node.class_counts, m)}"]
    if node.entropy is not None:
        h = node.entropy
        facts.append(m.equation([(h_text, h_latex), m.form(entropy_form, node.class_counts), m.value(h)],
                                approx=approx(h, digits)))

    # Branches: one row per (feature, value).
    hx = m.math(f"H({target}|value)", f"H({_tex_name(target)} \\mid \\text{{value}})")
    b_headers = ("feature", "value", "n", *(m.name(k) for k in tree.classes), hx, "exact")
    b_rows = []
    for c in cands:
        feature = m.name(c.feature)
        for b in c.branches:
            h = b.entropy
            b_rows.append((feature, m.name(b.value), count_text(b.n),
                           *(count_text(k) for k in b.counts),
                           number(h, digits) if h is not None else "empty",
                           m.code(*m.value(h)) if h is not None else sym["dash"]))
        if c.unknown:
            # C4.5: rows whose value is missing are not in H(Y|X); they only scale the gain
            # (known fraction) and are one more branch of the split information.
            b_rows.append((m.name(c.feature), sym["missing"], count_text(sum(c.unknown)),
                           *(count_text(k) for k in c.unknown), "not in H(Y|X)", sym["dash"]))
    b_align = ("l", "l", "r", *("r" for _ in tree.classes), "r", "l")

    # Summary: one row per feature.
    groups = equal_gain_groups(node)
    mark = _markers(node, groups)
    show_filter = _filter_shown(cands)
    hyx = m.math(f"H({target}|X)", f"H({_tex_name(target)} \\mid X)")
    s_headers = ("", "feature", f"{hyx} form", hyx, "IG", "SplitInfo", "GainRatio")
    # lookahead 1: the two-level score beside the greedy one (and its ratio when the criterion ranks by ratio)
    look = [] if not any(c.lookahead is not None for c in cands) else (
        ["IG (lookahead)", "GainRatio (lookahead)"] if tree.criterion.ratio else ["IG (lookahead)"])
    s_headers += tuple(look)
    if show_filter:
        s_headers += (m.math("gain ≥ avg", r"\text{gain} \geq \text{avg}"), "valid")
    s_rows = []
    e_rows = []
    for c in cands:
        if all_missing(c):
            none = m.name("no known value")
            row = (sym[mark[c.feature]] if c.feature in mark else "", m.name(c.feature), none,
                   sym["dash"], sym["dash"], sym["dash"], sym["dash"]) + (sym["dash"],) * len(look)
            if show_filter:
                row += (sym["dash"], "yes" if c.valid else "no")
            s_rows.append(row)
            e_rows.append((m.name(c.feature), none, sym["dash"], sym["dash"]) + (sym["dash"],) * bool(look))
            continue
        table = c.table
        gr = c.gain_ratio
        row = (sym[mark[c.feature]] if c.feature in mark else "", m.name(c.feature),
               m.code(*m.form(conditional_entropy_form, table)),
               number(c.conditional_entropy, digits), number(c.gain, digits),
               number(c.split_info, digits),
               number(gr, digits) if gr is not None else sym["undefined"])
        if look:
            lr = c.lookahead_ratio
            row += (number(c.lookahead, digits),) + ((number(lr, digits) if lr is not None
                                                            else sym["undefined"],) if len(look) > 1 else ())
        if show_filter:
            # The average-gain test is applied to valid features only.
            if not c.valid or c.passes_average_gain is None:
                passes = sym["dash"]
            else:
                passes = sym["ge"] if c.passes_average_gain else sym["lt"]
            row += (passes, "yes" if c.valid else "no")
        s_rows.append(row)
        e_rows.append((m.name(c.feature), m.code(*m.value(c.conditional_entropy)), m.code(*m.value(c.gain)),
                       m.code(*m.value(c.split_info))) + ((m.code(*m.value(c.lookahead)),) if look else ()))
    s_align = ("l", "l", "l", "r", "r", "r", "r") + ("r",) * len(look) + (("l", "l") if show_filter else ())

    notes = []
    used = set(mark.values())
    legend = [f"{sym[k]} {what}" for k, what in (("chosen", "chosen"), ("tied", "tied exactly with the chosen feature"),
                                                  ("equal", "exactly equal information gain, not the decision"))
              if k in used]
    if legend:
        notes.append("; ".join(legend))
    by_name = {c.feature: c for c in cands}
    for group in groups:
        gain = by_name[group[0]].gain
        notes.append(f"exactly equal information gain: {', '.join(m.name(f) for f in group)} "
                     f"(IG = {number(gain, digits)})")
    if look:
        notes.append(lookahead_note(tree, m))
    if show_filter:
        notes.append(f"C4.5: valid = at least two branches with {m.name('min_objects')} = {tree.params.get('min_objects')} rows; "
                     f"{sym['ge']} = gain at least the average gain of the valid features")

    if any(c.unknown or c.threshold is not None for c in cands):
        times, minus = (r"$\times$", "$-$") if m is LATEX else ("×", "−")
        notes.append(f"C4.5: IG = (known fraction) {times} IG(known rows) {minus} MDL; the rows with a missing value "
                     f"({sym['missing']}) are left out of {hyx} "
                     f"and are one more branch of SplitInfo")

    return NodeView(
        title=node_title(node, m),
        facts=facts,
        branches=Table("branches", b_headers, b_rows, b_align),
        summary=Table("candidates", s_headers, s_rows, s_align),
        exact=Table("exact values", ("feature", hyx, "IG", "SplitInfo") + (("IG (lookahead)",) if look else ()),
                    e_rows, ("l",) * (4 + bool(look))),
        notes=notes,
        decision=_decision_text(node, m),
        corrections=_corrections(tree, cands, digits, m),
        pruning=pruning_table(tree, node, digits, m),
    )


def known_gain(c):
    """IG on the known rows of a candidate: (gain + MDL term) / known fraction (exact)."""
    kf = c.known_fraction
    if not kf:
        return c.gain + c.mdl_penalty
    return (c.gain + c.mdl_penalty) / kf


def mdl_form(c) -> tuple[str, str] | None:
    """``log2(7)/57`` (text, latex) for a numeric candidate under C4.5, else None."""
    if not c.mdl or not c.n_cuts or c.n_cuts < 2:
        return None
    n = count_text(c.n)
    n_text = f"({n})" if "/" in n else n
    return f"log2({c.n_cuts})/{n_text}", f"\\frac{{\\log_2 {c.n_cuts}}}{{{n}}}"


def _corrections(tree, cands, digits, m) -> Table | None:
    """The C4.5 gain corrections: threshold and cuts, known fraction, MDL term."""
    rows = []
    for c in cands:
        if (not c.unknown and c.threshold is None) or all_missing(c):
            continue
        dash = m.symbols["dash"]
        ig_known = known_gain(c)
        mdl = mdl_form(c)
        kf = c.known_fraction
        rows.append((
            m.name(c.feature),
            m.name(tree.number_text(c.threshold)) if c.threshold is not None else dash,
            str(c.n_cuts) if c.n_cuts is not None else dash,
            m.code(count_text(kf), f"\\frac{{{kf.numerator}}}{{{kf.denominator}}}" if kf.denominator != 1 else str(kf)),
            number(ig_known, digits),
            m.code(*m.value(ig_known)),
            (f"{m.code(*mdl)} = {number(c.mdl_penalty, digits)}" if mdl else
             ("0 (one cut)" if c.mdl else dash)),
            number(c.gain, digits),
        ))
    if not rows:
        return None
    headers = ("feature", "threshold", "cuts", "known fraction", "IG(known)", "IG(known) exact",
               m.math("MDL = log2(cuts)/n", r"\text{MDL} = \log_2(\text{cuts})/n"), "IG")
    return Table("C4.5 gain corrections", headers, rows, ("l", "r", "r", "l", "r", "l", "l", "r"))
