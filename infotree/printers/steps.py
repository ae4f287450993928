"""The worked solution: a node's derivation as the lines a student writes.

Each equation ends with its value rounded exactly to ``digits`` decimals.  When a
line combines rounded values (``IG = 0.9403 - 0.6935``) and their arithmetic does not
round to the same digits as the exact result, the next line says so and gives the
exact value: the printed result is always the exact value correctly rounded.

    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> tree = build_tree(load("tests/data/weather.arff"), criterion="gain")
    >>> lines = list(node_steps(tree, tree.root))
    >>> lines[1]
    'H(play) = -(9/14)·log2(9/14) - (5/14)·log2(5/14) = 0.9403'
    >>> lines[lines.index("IG(outlook) = H(play) - H(play | outlook) = 0.9403 - 0.6935 = 0.2467") + 1]
    '  (the rounded values give 0.2468; exact: 9/7 + log2(7) - 6/7*log2(3) - 15/14*log2(5) = 0.24674982)'
"""

from __future__ import annotations

from fractions import Fraction

from ..exact import decimal_text
from ..forms import conditional_entropy_form, entropy_form, h_of
from ..records import BinaryCandidate, RegressionCandidate
from .cells import (TEXT, Markup, all_missing, class_counts_text, count_text, entropy_name, equal_gain_groups,
                    known_gain, latex_escape, mdl_form, node_title, pruning_table)

__all__ = ["node_steps"]


def _fn(name: str, arg: str) -> tuple[str, str]:
    """``IG(outlook)`` as (text, latex)."""
    return f"{name}({arg})", f"\\mathrm{{{name}}}(\\text{{{latex_escape(arg)}}})"


def _sub_fn(name: str, sub: str, arg: str) -> tuple[str, str]:
    """``IG_lookahead(outlook)`` as (text, latex), the subscript as text in LaTeX."""
    return f"{name}_{sub}({arg})", f"\\mathrm{{{name}}}_{{\\text{{{sub}}}}}(\\text{{{latex_escape(arg)}}})"


def _check(value, shown: str, rounded: Fraction | None, digits: int, exact_text: str | None, m: Markup):
    """A note when arithmetic on rounded operands would print another result than ``shown``."""
    if rounded is None:
        return None
    naive = decimal_text(rounded, digits)
    if naive == shown:
        return None
    more = decimal_text(value, digits + 4)
    if exact_text is not None:
        exact = m.equation([(exact_text, value.latex() if m.uses_latex else "")], approx=more)
        return f"  (the rounded values give {naive}; exact: {exact})"
    return f"  (the rounded values give {naive}; the exact ratio is {more} to {digits + 4} decimals)"


def node_steps(tree, node, *, digits: int = 4, markup: Markup = TEXT):
    """The lines of ``node``'s worked solution in ``markup`` ("" separates the candidates)."""
    if node.candidates() and isinstance(node.candidates()[0], RegressionCandidate):
        from .regression import regression_steps

        yield from regression_steps(tree, node, digits, markup)
        return
    if node.candidates() and isinstance(node.candidates()[0], BinaryCandidate):  # CART
        from .impurity import impurity_steps

        yield from impurity_steps(tree, node, digits, markup)
        return
    m = markup
    counts = node.class_counts
    yield (f"At {node_title(node, m)}: {count_text(node.n)} rows "
           f"({class_counts_text(tree, counts, m)})")
    h = node.entropy
    hy = entropy_name(tree, node)
    h_dec = decimal_text(h, digits)
    yield m.equation([hy, m.form(entropy_form, counts)], approx=h_dec)
    ratio = tree.criterion.ratio
    mo = tree.params.get("min_objects")
    for c in node.candidates():
        yield ""
        if all_missing(c):
            yield (f"{m.name(c.feature)}: missing for every row here (weight {count_text(sum(c.unknown or ()))}), "
                   f"so it has no measures and cannot split")
            continue
        if not c.valid:  # only C4.5 records validity
            yield (f"{m.name(c.feature)}: not valid (fewer than two branches with at least {mo} rows), "
                   f"so not a C4.5 candidate")
            continue
        for b in c.branches:
            name = entropy_name(tree, node, c.feature, b.value)
            hb = b.entropy
            if hb is None:
                yield f"{m.code(*name)}: no rows (an empty branch has weight 0)"
                continue
            h_counts = h_of(b.counts)
            yield m.equation([name, (h_counts, h_counts), m.form(entropy_form, b.counts)],
                             approx=decimal_text(hb, digits))
        hyx = entropy_name(tree, node, c.feature)
        hyx_dec = decimal_text(c.conditional_entropy, digits)
        yield m.equation([hyx, m.form(conditional_entropy_form, c.table)],
                         approx=hyx_dec)
        ig_dec = decimal_text(c.gain, digits)
        if c.unknown or c.mdl:
            yield from _corrected_gain(tree, node, c, hyx, hyx_dec, digits, m)
        else:
            yield m.equation([_fn("IG", c.feature), (f"{hy[0]} - {hyx[0]}", f"{hy[1]} - {hyx[1]}"),
                              (f"{h_dec} - {hyx_dec}", f"{h_dec} - {hyx_dec}")], approx=ig_dec)
            note = _check(c.gain, ig_dec, Fraction(h_dec) - Fraction(hyx_dec), digits, str(c.gain), m)
            if note:
                yield note
        sizes = [b.n for b in c.branches] + ([sum(c.unknown)] if c.unknown else [])
        si_dec = decimal_text(c.split_info, digits)
        yield m.equation([_fn("SplitInfo", c.feature), m.form(entropy_form, sizes)],
                         approx=si_dec)
        if c.unknown:
            yield f"  (the rows with {m.name(c.feature)} missing, weight {count_text(sum(c.unknown))}, are the last branch)"
        if ratio:
            gr = c.gain_ratio
            if gr is None:
                yield f"{m.code(*_fn('GainRatio', c.feature))}: undefined (split info 0)"
            else:
                gr_dec = decimal_text(gr, digits)
                yield m.equation([_fn("GainRatio", c.feature), (f"{ig_dec} / {si_dec}", f"{ig_dec} / {si_dec}")],
                                 approx=gr_dec)
                si_q = Fraction(si_dec)
                note = _check(gr, gr_dec, Fraction(ig_dec) / si_q if si_q else None, digits, None, m)
                if note:
                    yield note
        if c.lookahead is not None:
            yield m.equation([_sub_fn("IG", "lookahead", c.feature), m.value(c.lookahead)],
                             approx=decimal_text(c.lookahead, digits))
            if ratio and c.lookahead_ratio is not None:
                yield m.equation([_sub_fn("GainRatio", "lookahead", c.feature), m.value(c.lookahead_ratio)],
                                 approx=decimal_text(c.lookahead_ratio, digits))
        if c.passes_average_gain is not None:  # C4.5's average-gain test
            where = "at least" if c.passes_average_gain else "below"
            yield f"C4.5: valid (two or more branches with at least {mo} rows); gain {where} the average gain"
    yield ""
    for group in equal_gain_groups(node):
        gain = next(c.gain for c in node.candidates() if c.feature == group[0])
        yield f"{m.equation([_fn('IG', f) for f in group])} exactly (each {decimal_text(gain, digits)})"
    if node.mofn is not None:  # an M-of-N tree's node: the search that grew its test
        from .mofn import search_lines

        yield from search_lines(node.mofn, tree.target, digits, m)
        yield ""
    if node.split is not None:
        yield f"{m.symbols['then']} split on {m.name(node.split_feature)} ({m.name(node.reason)})"
    else:
        yield f"{m.symbols['then']} leaf labelled {m.name(node.label_name)} ({m.name(node.reason)})"
    p = pruning_table(tree, node, digits, m)
    if p is not None:
        yield ""
        yield f"{m.name(p.title[0].upper() + p.title[1:])}:"
        for what, value in p.rows:
            yield f"  {what}: {value}"


def _corrected_gain(tree, node, c, hyx, hyx_dec, digits, m):
    """C4.5's gain with missing values and the MDL term: K/W·(H(known) − H(Y|X)) − log2(cuts)/W."""
    kf = c.known_fraction
    ig_k = known_gain(c)
    h_known = ig_k + c.conditional_entropy
    if c.unknown:
        known = [sum(col) for col in zip(*c.table)]
        yield (f"{m.name(c.feature)} is missing for weight {count_text(sum(c.unknown))} "
               f"({class_counts_text(tree, c.unknown, m)}): the gain is computed on the known rows "
               f"(weight {count_text(sum(known))}) and multiplied by the known fraction {count_text(kf)}")
        hk = (f"H_known({tree.target})", f"H_{{\\text{{known}}}}(\\text{{{latex_escape(tree.target)}}})")
        yield m.equation([hk, m.form(entropy_form, known)],
                         approx=decimal_text(h_known, digits))
    else:
        hk = entropy_name(tree, node)
    hk_dec = decimal_text(h_known, digits)
    ig_dec = decimal_text(c.gain, digits)
    kf_t = count_text(kf)
    kf_l = f"\\frac{{{kf.numerator}}}{{{kf.denominator}}}" if kf.denominator != 1 else str(kf)
    form_t, form_l = f"{hk[0]} - {hyx[0]}", f"{hk[1]} - {hyx[1]}"
    dec_t = f"{hk_dec} - {hyx_dec}"
    if c.unknown:
        form_t, form_l = f"{kf_t}·({form_t})", f"{kf_l} \\cdot ({form_l})"
        dec_t = f"{kf_t}·({dec_t})"
    mdl = mdl_form(c)
    rounded = (Fraction(hk_dec) - Fraction(hyx_dec)) * kf
    if mdl:
        mdl_dec = decimal_text(c.mdl_penalty, digits)
        form_t, form_l = f"{form_t} - {mdl[0]}", f"{form_l} - {mdl[1]}"
        dec_t = f"{dec_t} - {mdl_dec}"
        rounded -= Fraction(mdl_dec)
        yield (f"C4.5 MDL term for a numeric feature: log2(number of cuts)/n = {mdl[0]} = {mdl_dec} "
               f"({c.n_cuts} cuts evaluated, threshold {m.name(tree.number_text(c.threshold))})")
    yield m.equation([_fn("IG", c.feature), (form_t, form_l), (dec_t, dec_t.replace("·", " \\cdot "))], approx=ig_dec)
    note = _check(c.gain, ig_dec, rounded, digits, str(c.gain), m)
    if note:
        yield note
