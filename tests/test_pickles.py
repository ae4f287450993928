"""Trees pickled by an earlier infotree load as the trees grown today.

``tests/data/pickled_by_b52f07a.pkl.gz`` holds trees pickled before a node's ``levels`` was
always set (None: no levels): each node's state was then a tuple of 24 fields, levels last
(``_UNSET`` where a node had none).  It was written by the code
of commit b52f07a running the script in this module's ``_MADE`` (kept for the record).
"""

import gzip
import io
import pickle
from pathlib import Path

import pytest

from infotree import build_tree, load
from infotree.printers import render

DATA = Path(__file__).parent / "data"

_MADE = {  # name: (data, options), as the pickles were made
    "c45_labor": ("labor.csv", {"criterion": "gain_ratio", "prune": "pessimistic"}),
    "c45_contact": ("contact-lenses.csv", {"criterion": "gain_ratio"}),
    "cart_stagec": ("stagec.csv", {"criterion": "gini"}),
    "cart_stagec_cp": ("stagec.csv", {"criterion": "gini", "cp": 0.01}),
    "mofn_weather": ("weather.csv", {"m_of_n": True}),
}
# what each old tree must carry through, so that a loader dropping them fails here
_RARE_SEEN = {"c45_labor": {"pruned", "scale"}, "c45_contact": {"collapsed_errors"},
              "cart_stagec": {"levels", "ties"}, "cart_stagec_cp": {"pruned", "levels"}, "mofn_weather": {"mofn"}}

_OLD = pickle.loads(gzip.decompress((DATA / "pickled_by_b52f07a.pkl.gz").read_bytes()))


def _shown(tree) -> str:
    out = io.StringIO()
    render(tree, out, nodes="all")
    return out.getvalue()


def _fields(tree) -> set:
    seen = set()
    for node in tree.root.walk():
        for f in ("ties", "collapsed_errors", "pruned", "mofn", "levels", "scale"):
            v = getattr(node, f, None)
            if v is not None and not (isinstance(v, tuple) and not v) and not (f == "scale" and v == 1):
                seen.add(f)
    return seen


@pytest.mark.parametrize("name", sorted(_MADE))
def test_a_tree_pickled_by_an_earlier_version_loads_as_grown(name):
    file, options = _MADE[name]
    old = pickle.loads(_OLD[name])
    grown = build_tree(load(DATA / file, on_missing="keep"), **options)
    assert _RARE_SEEN[name] <= _fields(old)
    assert _fields(old) == _fields(grown)
    assert _shown(old) == _shown(grown)
    assert [n.levels for n in old.root.walk()] == [n.levels for n in grown.root.walk()]
    again = pickle.loads(pickle.dumps(old))  # and pickled again today, in today's state
    assert _shown(again) == _shown(grown)
