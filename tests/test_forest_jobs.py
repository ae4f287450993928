"""Forests grown in several processes (n_jobs): the same forest, byte for byte, whatever the number."""

from __future__ import annotations

import io
import os
import pickle

import numpy as np
import pytest

from infotree import RandomForestClassifier, grow_forest
from infotree.data import from_arrays
from infotree.errors import InfotreeError
from infotree.parallel import cores, n_workers
from infotree.printers.forest import write


def _json(forest) -> str:
    """The forest with every node's derivation (its records), its rows and its OOB votes."""
    out = io.StringIO()
    write(forest, out, fmt="json", nodes="all", show_samples=True, oob=forest.oob(), show_oob=True)
    return out.getvalue()


def _numeric(n=300, missing=False):
    rng = np.random.default_rng(7)
    X = np.round(rng.normal(size=(n, 5)), 2)
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int) + (X[:, 3] > 1)
    if missing:
        X[rng.random(X.shape) < 0.05] = np.nan
    return X, [f"c{v}" for v in y]


@pytest.mark.parametrize("criterion, options", [
    ("gini", dict(max_features="sqrt", min_leaf=1, cp=None, competitors=0, surrogates=0)),  # scikit-learn's
    ("gini", dict(max_features=3)),                                # rpart's records: competitors, surrogates
    ("gain_ratio", dict(max_features=2)),                          # C4.5: grown tree by tree
])
def test_the_same_forest_whatever_the_number_of_jobs(criterion, options):
    X, y = _numeric(missing=criterion == "gini" and "surrogates" not in options)
    data = from_arrays(X, y, numeric="auto", on_missing="keep" if np.isnan(X).any() else "reject")
    forests = [grow_forest(data, n_estimators=7, random_state=3, criterion=criterion, n_jobs=jobs, **options)
               for jobs in (1, 2, 3)]
    texts = [_json(f) for f in forests]
    assert texts[0] == texts[1] == texts[2]
    assert '"candidates"' in texts[0] and '"trees"' in texts[0]  # every node's records compared
    if "surrogates" not in options and criterion == "gini":
        assert '"agree"' in texts[0]  # and the surrogates'
    # the trees from the workers pickle as any tree does (a saved estimator)
    again = pickle.loads(pickle.dumps(forests[1].trees[-1]))
    assert again.predict([list(r) for r in X[:20].tolist()]) == forests[1].trees[-1].predict(
        [list(r) for r in X[:20].tolist()])


def test_an_id3_forest_on_nominal_data_in_two_processes():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(200, 6)).astype(str)
    y = [f"k{v}" for v in (X[:, 0] == X[:, 1]).astype(int) + (X[:, 2] == "2")]
    data = from_arrays(X, y)
    texts = [_json(grow_forest(data, n_estimators=5, random_state=0, criterion="gain", max_features="sqrt",
                               n_jobs=jobs)) for jobs in (1, 2)]
    assert texts[0] == texts[1]


def test_n_jobs_reads_as_scikit_learn_reads_it():
    assert n_workers(None, 100) == 1
    assert n_workers(2, 100) == 2
    assert n_workers(8, 3) == 3                      # never more processes than trees
    assert n_workers(-1, 100) == cores()
    assert n_workers(-2, 100) == max(cores() - 1, 1)
    assert n_workers(-1000, 100) == 1
    for bad in (0, 1.5, "2", True):
        with pytest.raises(InfotreeError, match="n_jobs .* is not allowed; allowed: a positive number"):
            n_workers(bad, 100)


def test_the_estimator_takes_n_jobs():
    X, y = _numeric(120)
    one = RandomForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    two = RandomForestClassifier(n_estimators=6, random_state=0, n_jobs=2).fit(X, y)
    assert one.get_params()["n_jobs"] is None  # scikit-learn's default: one process
    assert (one.predict_proba(X) == two.predict_proba(X)).all()
    assert _json(one.forest_) == _json(two.forest_)


def test_an_error_in_a_worker_is_raised_here(monkeypatch):
    """A tree a worker cannot grow is the caller's one-line error, not a hang or a traceback of the worker's."""
    import infotree.ensemble as ensemble

    grow = ensemble.grow_trees
    parent = os.getpid()

    def failing(data, drawn, draws, options):
        if os.getpid() != parent:
            raise InfotreeError("no tree here")
        return grow(data, drawn, draws, options)

    monkeypatch.setattr(ensemble, "grow_trees", failing)
    X, y = _numeric(60)
    with pytest.raises(InfotreeError, match="no tree here"):
        grow_forest(from_arrays(X, y, numeric="auto"), n_estimators=4, criterion="gini", n_jobs=2)


def test_the_command_line_takes_jobs(capsys):
    from infotree.cli import main

    outs = []
    for jobs in ("1", "2"):
        assert main(["forest", "tests/data/labor.csv", "--trees", "5", "--seed", "2", "--nodes", "all",
                     "--format", "json", "--jobs", jobs]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and '"candidates"' in outs[0]
    with pytest.raises(SystemExit):
        main(["forest", "tests/data/labor.csv", "--jobs", "0"])
    assert "--jobs" in capsys.readouterr().err

