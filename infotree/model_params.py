"""A saved model's growing parameters (its JSON "params"), each checked with what it allows."""

from __future__ import annotations

from .errors import LimitError
from .limits import CEILINGS
from .parse import ParseError, parse_rational


def _int(low, high=None):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low and (high is None or v <= high)


def _exact(v) -> bool:
    """An exact rational as the writer leaves it: an int or a string such as ``1/100``."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    try:
        return isinstance(v, str) and parse_rational(v, what="parameter") is not None
    except (ParseError, LimitError):
        return False


def _none_or(check):
    return lambda v: v is None or check(v)


def _one_of(*allowed):
    return lambda v: isinstance(v, (str, int, type(None))) and not isinstance(v, bool) and v in allowed


def _bool(v) -> bool:
    return isinstance(v, bool)


#: The documented growing parameters of a model's "params": how each is checked, what is allowed.
_PARAMS = {
    "max_depth": (_none_or(_int(0)), "null or an integer of at least 0"),
    "min_samples_split": (_none_or(_int(0)), "null or an integer of at least 0"),
    "min_gain": (_none_or(_exact), "null or an exact rational such as \"1/100\""),
    "stop_at_zero_gain": (_bool, "true or false"),
    "min_objects": (_int(1), "an integer of at least 1"),
    "collapse": (_none_or(_bool), "null, true or false"),
    "average_gain_slack": (_exact, "an exact rational such as \"1/1000\""),
    "threshold": (_one_of("data", "midpoint"), "\"data\" or \"midpoint\""),
    "prune": (_one_of("none", "pessimistic", "reduced-error", "cost-complexity"),
              "\"none\", \"pessimistic\", \"reduced-error\" or \"cost-complexity\""),
    "confidence": (_exact, "an exact rational such as \"1/4\""),
    "lookahead": (_one_of(0, 1), "0 or 1"),
    "m_of_n": (_bool, "true or false"),
    "every_split": (_bool, "true or false"),
    "min_leaf": (_int(1), "an integer of at least 1"),
    "cp": (_none_or(_exact), "null or an exact rational such as \"1/100\""),
    "max_subsets": (_int(1, CEILINGS["max_subsets"][0]), f"an integer from 1 to {CEILINGS['max_subsets'][0]}"),
    "competitors": (_int(0), "an integer of at least 0"),
    "surrogates": (_int(0), "an integer of at least 0"),
    "use_surrogate": (_one_of(0, 1, 2), "0, 1 or 2 (rpart's usesurrogate)"),
    "surrogate_style": (_one_of(0, 1), "0 or 1 (rpart's surrogatestyle)"),
    "ccp_alpha": (_none_or(_exact), "null or an exact rational"),
    "ccp_cp": (_none_or(_exact), "null or an exact rational"),
    "ccp_select": (_one_of(None, "min", "1se"), "null, \"min\" or \"1se\""),
    "ccp_risk": (_one_of(None, "rpart", "impurity"), "null, \"rpart\" or \"impurity\""),
    "shrink": (_exact, "an exact rational of at least 0 such as \"1\" or \"1/2\" (rpart's Poisson shrink)"),
}
