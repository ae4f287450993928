"""infotree: ID3/C4.5 decision trees with exact information measures.

Every measure is an exact value ``c0 + Σ c_p·log2(p)`` (:class:`Exact`), every
comparison is decided exactly, and every node of a tree keeps the derivation
of its split.
"""

import importlib

# Names are imported on first use (PEP 562), so that `infotree tree` loads only what it
# runs: the command line starts without the checker, the estimators or sympy.
_WHERE = {
    "DataError": "errors", "InfotreeError": "errors", "LimitError": "errors", "NotFittedError": "errors", "UndecidedError": "errors",
    "Report": "check", "check_answers": "check",
    "Dataset": "data", "from_arrays": "data", "from_records": "data", "load": "data",
    "read_arff": "data", "read_csv": "data", "read_parquet": "data", "show": "printers.html",
    "Forest": "ensemble", "grow_forest": "ensemble",
    "BaggingClassifier": "forest_estimators", "RandomForestClassifier": "forest_estimators",
    "C45Classifier": "estimators", "CARTClassifier": "estimators", "CARTRegressor": "estimators", "ID3Classifier": "estimators",
    "Exact": "exact", "Ratio": "exact", "decimal_text": "decimals",
    "cp_table": "complexity", "pruning_path": "complexity",
    "conditional_entropy_form": "forms", "entropy_form": "forms", "gain_form": "forms",
    "load_model": "model", "save_model": "model",
    "ParseError": "parse", "parse_exact": "parse",
    "Node": "tree", "Tree": "tree", "build_tree": "growing", "node_at": "growing",
    **{name: "measures" for name in (
        "conditional_entropy", "conditional_entropy_from_table", "conditional_mutual_information",
        "cross_entropy", "entropy", "entropy_of_labels", "entropy_of_probabilities", "gain_ratio",
        "gain_ratio_from_table", "information_gain", "information_gain_from_table", "joint_entropy",
        "kl_divergence", "mutual_information", "specific_conditional_entropy", "split_information",
        "split_information_from_table", "gini", "misclassification")},
}


def __getattr__(name):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'infotree' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE))


__version__ = "0.1.0"

__all__ = [
    "BaggingClassifier",
    "C45Classifier",
    "CARTClassifier",
    "CARTRegressor",
    "DataError",
    "Dataset",
    "Exact",
    "Forest",
    "ID3Classifier",
    "InfotreeError",
    "LimitError",
    "Node",
    "NotFittedError",
    "ParseError",
    "RandomForestClassifier",
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
    "cp_table",
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
    "gini",
    "grow_forest",
    "information_gain",
    "information_gain_from_table",
    "joint_entropy",
    "kl_divergence",
    "load",
    "load_model",
    "misclassification",
    "mutual_information",
    "node_at",
    "parse_exact",
    "pruning_path",
    "read_arff",
    "read_csv",
    "read_parquet",
    "save_model",
    "show",
    "specific_conditional_entropy",
    "split_information",
    "split_information_from_table",
]
