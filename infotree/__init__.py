"""infotree: ID3/C4.5 decision trees with exact information measures.

Every measure is an exact value ``c0 + Σ c_p·log2(p)`` (:class:`Exact`), every
comparison is decided exactly, and every node of a tree keeps the derivation
of its split.
"""

from .errors import DataError, InfotreeError, NotFittedError, UndecidedError
from .check import Report, check_answers
from .data import Dataset, from_arrays, from_records, load, read_arff, read_csv
from .estimators import C45Classifier, ID3Classifier
from .exact import Exact, Ratio, decimal_text
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
from .model import load_model, save_model
from .parse import ParseError, parse_exact
from .tree import Node, Tree, build_tree, node_at

__version__ = "0.1.0"

__all__ = [
    "C45Classifier",
    "DataError",
    "Dataset",
    "Exact",
    "ID3Classifier",
    "InfotreeError",
    "Node",
    "NotFittedError",
    "ParseError",
    "Ratio",
    "Report",
    "Tree",
    "UndecidedError",
    "build_tree",
    "check_answers",
    "conditional_entropy",
    "conditional_entropy_form",
    "conditional_entropy_from_table",
    "conditional_mutual_information",
    "cross_entropy",
    "decimal_text",
    "entropy",
    "entropy_form",
    "entropy_of_labels",
    "entropy_of_probabilities",
    "from_arrays",
    "from_records",
    "gain_form",
    "gain_ratio",
    "gain_ratio_from_table",
    "information_gain",
    "information_gain_from_table",
    "joint_entropy",
    "kl_divergence",
    "load",
    "load_model",
    "mutual_information",
    "node_at",
    "parse_exact",
    "read_arff",
    "read_csv",
    "save_model",
    "specific_conditional_entropy",
    "split_information",
    "split_information_from_table",
]
