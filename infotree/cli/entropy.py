"""``infotree entropy``: the entropy of counts or of a probability vector, exactly."""

from __future__ import annotations

from ..errors import InfotreeError
from ..escape import clip as _clip
from .args import _frac


def _cmd_entropy(args, out):
    from ..printers.numbers import approx
    from ..forms import entropy_form, h_of
    from ..measures import entropy, entropy_of_probabilities
    from ..parse import parse_exact

    if args.probs:
        from fractions import Fraction

        probs = []
        for t in args.values:
            v = parse_exact(t)
            if not isinstance(v, Fraction):
                raise InfotreeError(f"probability {t!r} is not a rational number; write it like 1/64")
            _check_factoring(t, v, "probability")
            probs.append(v)
        value = entropy_of_probabilities(probs)
        form = " + ".join(f"{_frac(p)}·log2({_frac(1 / p)})" for p in probs if p) or "0"
        lhs = "H(P)"
    else:
        counts = []
        for t in args.values:
            v = parse_exact(t)
            if not hasattr(v, "denominator"):
                raise InfotreeError(f"count {t!r} is not a rational number; counts are non-negative integers or fractions")
            _check_factoring(t, v, "count")
            counts.append(v)
        value = entropy(counts)
        form = entropy_form(counts)
        lhs = h_of(counts)
    out.write(f"{lhs} = {form}\n")
    out.write(f"{' ' * len(lhs)} = {value}\n")
    tail = approx(value, args.digits)
    if not (tail.exact and tail.text == str(value)):  # a chain never ends x = x
        out.write(f"{' ' * len(lhs)} = {tail.text}\n")
    return 0


def _check_factoring(text, q, what):
    """Refuse a value whose logarithm needs a factorisation beyond the budget (minutes for 40 digits)."""
    from .. import limits

    digits = limits.current().factor_digits
    if abs(q.numerator) > 10 ** digits or q.denominator > 10 ** digits:
        raise InfotreeError(f"{what} {_clip(text)!r} is too large; numerators and denominators up to 10**{digits} "
                            f"are allowed (their logarithms are factored exactly; raise the limit with "
                            f"{limits.option('factor_digits')})")
