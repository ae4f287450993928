"""infotree: ID3/C4.5 decision trees with exact information measures.

Every measure is an exact value ``c0 + Σ c_p·log2(p)`` (:class:`Exact`), every
comparison is decided exactly, and every node of a tree keeps the derivation
of its split.
"""

from .errors import DataError, InfotreeError, NotFittedError, UndecidedError
from .exact import Exact, Ratio
from .forms import conditional_entropy_form, entropy_form, gain_form
from .measures import (
    conditional_entropy,
    conditional_entropy_from_table,
    conditional_mutual_information,
    cross_entropy,
    entropy,
    entropy_of_labels,
    entropy_of_probabilities,
    gain_ratio,
    gain_ratio_from_table,
    information_gain,
    information_gain_from_table,
    joint_entropy,
    kl_divergence,
    mutual_information,
    specific_conditional_entropy,
    split_information,
    split_information_from_table,
)
from .parse import ParseError, parse_exact

__version__ = "0.1.0"

__all__ = [
    "DataError",
    "Exact",
    "InfotreeError",
    "NotFittedError",
    "ParseError",
    "Ratio",
    "UndecidedError",
    "conditional_entropy",
    "conditional_entropy_form",
    "conditional_entropy_from_table",
    "conditional_mutual_information",
    "cross_entropy",
    "entropy",
    "entropy_form",
    "entropy_of_labels",
    "entropy_of_probabilities",
    "gain_form",
    "gain_ratio",
    "gain_ratio_from_table",
    "information_gain",
    "information_gain_from_table",
    "joint_entropy",
    "kl_divergence",
    "mutual_information",
    "parse_exact",
    "specific_conditional_entropy",
    "split_information",
    "split_information_from_table",
]
