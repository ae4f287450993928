"""Typed controls (infotree.controls): one dataclass per algorithm family is the one place an
option is defined.  The CLI's flags, tree_options, the estimators' parameters and the JSON
model's params are checked against its fields here, so a new option added anywhere else and
not there fails a test."""

import dataclasses
import inspect
from fractions import Fraction

import pytest

from infotree import InfotreeError, build_tree, load
from infotree.controls import CONTROLS, CARTControl, C45Control, ID3Control, control_for, families_taking, field_doc
from infotree.options import FIELD, TABLE

DATA = "tests/data/weather.csv"

# Options that are not a tree's control: how data is read, what is printed, how new rows are routed,
# a forest's draws and vote, check's and exercise's own.  Each named with why.
NOT_CONTROLS = {
    "data": {"target", "missing_as_value", "numeric", "categorical", "drop", "columns", "sample_weight", "exposure",
             "limit_input_bytes", "limit_value_length", "limit_nesting", "limit_table_cells", "limit_factor_digits",
             "at", "train", "test", "probs", "folds_from", "validation"},  # folds_from becomes the folds field
    "algorithm": {"algorithm", "routing"},  # algorithm picks the control class; routing is prediction's
    "forest": {"trees", "max_features", "subspace", "sample_fraction", "bootstrap", "sample", "samples", "vote"},
}


def _fields(cls=None):
    classes = [cls] if cls else CONTROLS.values()
    return {f.name for c in classes for f in dataclasses.fields(c)}


def test_every_tree_option_of_the_cli_is_a_control_field():
    """A flag in the table's algorithm, stopping or pruning groups sets a control field (under its own
    name or the one FIELD gives), or is named above as not a control."""
    fields = _fields()
    loose = set().union(*NOT_CONTROLS.values()) | {"compare"}
    for dest, option in TABLE.items():
        if option.group not in ("algorithm", "stopping", "pruning") or dest in loose:
            continue
        assert FIELD.get(dest, dest) in fields, f"--{dest.replace('_', '-')} sets no control field"


def test_the_cli_refuses_no_option_a_control_takes():
    """The table's algorithms for a control-backed option are never more than the control's
    (the CLI may be stricter: --no-collapse only turns off C4.5's default)."""
    for dest, option in TABLE.items():
        families = families_taking(FIELD.get(dest, dest))
        if families and option.algorithms is not None:
            assert set(option.algorithms) <= set(families), dest


def test_tree_options_are_control_fields(tmp_path):
    """Whatever the CLI hands build_tree is a field (or one of build_tree's own: the data's
    weights, the validation rows)."""
    from infotree.cli.args import _resolve_criterion, tree_options
    from infotree.cli.parser import build_parser

    for argv in (["tree", DATA], ["tree", DATA, "--algorithm", "cart"], ["tree", DATA, "--criterion", "gain-ratio"],
                 ["tree", DATA, "--algorithm", "cart", "--prune", "cost-complexity", "--select", "1se"]):
        args = build_parser("tree").parse_args(argv)
        _resolve_criterion(args)
        opts = tree_options(args)
        extra = set(opts) - _fields() - {"sample_weight", "validation"}
        assert not extra, (argv, extra)
        build_tree(load(DATA), **opts)  # and the family's control takes them


@pytest.mark.parametrize("name", ["ID3Classifier", "C45Classifier", "CARTClassifier", "CARTRegressor"])
def test_estimator_parameters_are_control_fields(name):
    """An estimator's parameter is a control field, under scikit-learn's name where it has one, or
    one of the estimator's own (reading, prediction, scikit-learn's bookkeeping)."""
    import infotree

    cls = getattr(infotree, name)
    sklearn_names = {"min_samples_leaf": "min_leaf", "cv": "folds"}  # scikit-learn's names for the fields
    own = {"unseen", "numeric", "smoothing", "random_state", "max_features", "class_weight"}
    fields = _fields()
    for p in inspect.signature(cls.__init__).parameters:
        if p in ("self",) or p in own:
            continue
        assert sklearn_names.get(p, p) in fields, f"{name}({p}=...) is no control field"


@pytest.mark.parametrize("criterion", ["gain", "gain_ratio", "gini", "squared_error"])
def test_model_params_are_control_fields(criterion):
    """A tree's params (the JSON model's) name control fields only."""
    from infotree.data import from_records

    if criterion == "squared_error":
        data = from_records({"x": ["1", "2", "3", "4"], "y": ["1", "2", "2", "5"]}, target="y", numeric=["x"])
    else:
        data = load(DATA)
    tree = build_tree(data, criterion=criterion, prune="pessimistic" if criterion == "gain_ratio" else "none")
    assert set(tree.params) <= _fields(), set(tree.params) - _fields()


def test_every_field_has_a_default_and_a_line_of_doc():
    for cls in CONTROLS.values():
        for f in dataclasses.fields(cls):
            assert f.default is not dataclasses.MISSING, (cls.__name__, f.name)
            doc = field_doc(cls, f.name)
            assert doc and "\n" not in doc, (cls.__name__, f.name)


def test_families_are_data():
    assert families_taking("min_leaf") == ("cart",)
    assert families_taking("average_gain_slack") == ("c45",)
    assert families_taking("min_objects") == ("id3", "c45")
    assert families_taking("max_depth") == ("id3", "c45", "cart")
    assert isinstance(control_for(criterion="gain_ratio_plain"), ID3Control)
    assert type(control_for(criterion="gain_ratio")) is C45Control
    assert isinstance(control_for(criterion="squared_error"), CARTControl)


def test_checked_once_with_the_messages_users_see():
    with pytest.raises(InfotreeError, match=r"min_leaf 0 is not allowed; give a positive integer"):
        CARTControl(min_leaf=0)
    with pytest.raises(InfotreeError, match=r"cp 2 is not allowed; give a rational from 0 to 1"):
        CARTControl(cp=2)
    with pytest.raises(InfotreeError, match=r"max_depth -1 is not allowed"):
        ID3Control(max_depth=-1)
    with pytest.raises(InfotreeError, match=r"unknown criterion 'gni'"):
        control_for(criterion="gni")
    with pytest.raises(InfotreeError, match=r"unknown option 'min_leafs'"):
        control_for(criterion="gini", min_leafs=3)
    with pytest.raises(InfotreeError, match=r"min_leaf applies to CART .* not to criterion 'gain'"):
        build_tree(load(DATA), criterion="gain", min_leaf=3)
    # the same option at its default is no refusal (the CLI and the estimators pass every option)
    assert build_tree(load(DATA), criterion="gini", min_objects=2, collapse=None).root is not None


def test_a_control_grows_what_its_keywords_grow():
    data = load(DATA)
    c = CARTControl(criterion="gini", min_leaf=2, cp="1/100", surrogates=0)
    assert c.cp == Fraction(1, 100) and c.threshold == "midpoint"
    from infotree.printers import render
    import io

    a, b = io.StringIO(), io.StringIO()
    render(build_tree(data, c), a, nodes="all")
    render(build_tree(data, criterion="gini", min_leaf=2, cp=Fraction(1, 100), surrogates=0), b, nodes="all")
    assert a.getvalue() == b.getvalue()
    d = io.StringIO()
    render(build_tree(data, c, min_leaf=5), d, nodes="all")  # keywords replace a control's fields
    assert d.getvalue() != a.getvalue()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.min_leaf = 3


def test_the_model_reader_checks_only_control_fields():
    """A saved model's params are read against a table (model_params._PARAMS): every key of it is a
    control field, so a field renamed in one place and not the other fails here."""
    from infotree.model_params import _PARAMS

    assert set(_PARAMS) <= _fields(), set(_PARAMS) - _fields()


def test_forest_options_are_forest_control_fields():
    """A forest's flags, its estimators' parameters and its params are ForestControl's fields (or a
    tree control's, or the estimator's own reading and scoring)."""
    import infotree
    from infotree.controls import ForestControl

    forest = {f.name for f in dataclasses.fields(ForestControl)}
    cli = {"trees": "n_estimators", "subspace": "draw", "sample": "samples", "jobs": "n_jobs", "builder": "builder"}
    for dest, option in TABLE.items():
        if option.group == "forest":
            assert cli.get(dest, dest) in forest | _fields(), dest
    own = {"oob_score", "max_samples", "numeric", "unseen", "criterion", "min_samples_leaf"}
    for cls in (infotree.RandomForestClassifier, infotree.BaggingClassifier):
        for p in inspect.signature(cls.__init__).parameters:
            if p != "self" and p not in own:
                assert p in forest | _fields(), f"{cls.__name__}({p}=...) is no control field"
    with pytest.raises(InfotreeError, match="vote 'most' is not allowed"):
        ForestControl(vote="most")
    with pytest.raises(InfotreeError, match=r"sample_fraction 2 is not allowed; give a fraction in \(0, 1\]"):
        ForestControl(sample_fraction=2)
    from infotree.ensemble import grow_forest

    data = load(DATA)
    a = grow_forest(data, ForestControl(n_estimators=5, random_state=3, max_features=2), criterion="gini")
    b = grow_forest(data, n_estimators=5, random_state=3, max_features=2, criterion="gini")
    assert [t.root.split for t in a.trees] == [t.root.split for t in b.trees]
