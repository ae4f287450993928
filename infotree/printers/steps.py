"""The worked solution: a node's derivation as the lines a student writes.

Each equation ends with its value rounded exactly to ``digits`` decimals.  When a
line combines rounded values (``IG = 0.9403 - 0.6935``) and their arithmetic does not
round to the same digits as the exact result, the next line says so and gives the
exact value: the printed result is always the exact value correctly rounded.

    >>> from infotree.data import load
    >>> from infotree.tree import build_tree
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
from .cells import TEXT, Markup, class_counts_text, count_text, entropy_name, latex_escape, node_title

__all__ = ["node_steps"]


def _fn(name: str, arg: str) -> tuple[str, str]:
    """``IG(outlook)`` as (text, latex)."""
    return f"{name}({arg})", f"\\mathrm{{{name}}}(\\text{{{latex_escape(arg)}}})"


def _check(value, shown: str, rounded: Fraction | None, digits: int, exact_text: str | None, m: Markup):
    """A note when arithmetic on rounded operands would print another result than ``shown``."""
    if rounded is None:
        return None
    naive = decimal_text(rounded, digits)
    if naive == shown:
        return None
    more = decimal_text(value, digits + 4)
    if exact_text is not None:
        exact = m.equation([(exact_text, value.latex())], approx=more)
        return f"  (the rounded values give {naive}; exact: {exact})"
    return f"  (the rounded values give {naive}; the exact ratio is {more} to {digits + 4} decimals)"


def node_steps(tree, node, *, digits: int = 4, markup: Markup = TEXT):
    """The lines of ``node``'s worked solution in ``markup`` ("" separates the candidates)."""
    m = markup
    counts = node.class_counts
    yield (f"At {node_title(node, m)}: {count_text(node.n)} rows "
           f"({class_counts_text(tree, counts, m)})")
    h = node.entropy
    hy = entropy_name(tree, node)
    h_dec = decimal_text(h, digits)
    yield m.equation([hy, (entropy_form(counts), entropy_form(counts, latex=True))], approx=h_dec)
    c45 = tree.criterion == "gain_ratio"
    ratio = tree.criterion in ("gain_ratio", "gain_ratio_plain")
    mo = tree.params.get("min_objects")
    for c in node.candidates():
        yield ""
        if c45 and not c.valid:
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
            yield m.equation([name, (h_counts, h_counts), (entropy_form(b.counts), entropy_form(b.counts, latex=True))],
                             approx=decimal_text(hb, digits))
        hyx = entropy_name(tree, node, c.feature)
        hyx_dec = decimal_text(c.conditional_entropy, digits)
        yield m.equation([hyx, (conditional_entropy_form(c.table), conditional_entropy_form(c.table, latex=True))],
                         approx=hyx_dec)
        ig_dec = decimal_text(c.gain, digits)
        yield m.equation([_fn("IG", c.feature), (f"{hy[0]} - {hyx[0]}", f"{hy[1]} - {hyx[1]}"),
                          (f"{h_dec} - {hyx_dec}", f"{h_dec} - {hyx_dec}")], approx=ig_dec)
        note = _check(c.gain, ig_dec, Fraction(h_dec) - Fraction(hyx_dec), digits, str(c.gain), m)
        if note:
            yield note
        sizes = [b.n for b in c.branches]
        si_dec = decimal_text(c.split_info, digits)
        yield m.equation([_fn("SplitInfo", c.feature), (entropy_form(sizes), entropy_form(sizes, latex=True))],
                         approx=si_dec)
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
        if c45 and c.passes_average_gain is not None:
            where = "at least" if c.passes_average_gain else "below"
            yield f"C4.5: valid (two or more branches with at least {mo} rows); gain {where} the average gain"
    yield ""
    for group in node.equal_gain_groups():
        gain = next(c.gain for c in node.candidates() if c.feature == group[0])
        yield f"{m.equation([_fn('IG', f) for f in group])} exactly (each {decimal_text(gain, digits)})"
    if node.split is not None:
        yield f"{m.symbols['then']} split on {m.name(node.split_feature)} ({m.name(node.reason)})"
    else:
        yield f"{m.symbols['then']} leaf labelled {m.name(node.label_name)} ({m.name(node.reason)})"
