"""Sample weights in CART as rpart sums them (issue 35): surrogates, the majority
direction and min_samples_split.  Every value below is derived by hand in the docstring."""

from fractions import Fraction

from infotree.data import from_records
from infotree.growing import build_tree


def _grow(columns, weights, **options):
    data = from_records(columns, target="y", numeric=[k for k in columns if k != "y" and isinstance(columns[k][0], int)], on_missing="keep")
    return build_tree(data, criterion=options.pop("criterion", "gini"), sample_weight=weights, min_samples_split=2,
                      min_leaf=1, cp=0, **options)


def test_missing_row_follows_the_weighted_majority():
    """The issue's five rows: x < 6.5 holds 3 rows of weight 1 (3), the other side one row
    of weight 5; the row with x missing (no surrogate: z is constant) goes right, 3 | 6."""
    t = _grow({"x": [1, 2, 3, 10, None], "z": ["k"] * 5, "y": list("aaabb")}, [1, 1, 1, 5, 1])
    assert t.root.majority == 1
    assert [c.n for c in t.root.children] == [3, 6]


def test_weighted_numeric_surrogate_and_majority():
    """x = 1..6 splits a|b at 3.5; z = 1,2,6,3,4,5 agrees on 5 rows of 6 at z < 2.5, but
    row 3 (z = 6, left) weighs 4: left weighs 6, right 3, and no cut of z beats going
    left (its cuts reach 5 of 9 at z < 2.5, 6 of 9 at z < 4.5 with sides swapped, which
    only ties the majority).  So no surrogate, the majority is left, and the seventh row
    (x missing, z = 5.5) goes left; unweighted it follows z (agree 5/6, adj 2/3) right."""
    cols = {"x": [1, 2, 3, 4, 5, 6, None], "z": [1, 2, 6, 3, 4, 5, "5.5"], "y": list("aaabbbb")}
    plain = _grow(cols, None, max_depth=1).root
    (s,) = plain.surrogates
    assert (s.agreed, s.total, s.majority, s.agree, s.adj) == (5, 6, 3, Fraction(5, 6), Fraction(2, 3))
    assert plain.majority is None and [c.n for c in plain.children] == [3, 4]
    weighted = _grow(cols, [1, 1, 4, 1, 1, 1, 1], max_depth=1).root
    assert weighted.surrogates == () and weighted.majority == 0
    assert [c.n for c in weighted.children] == [7, 3]


def test_weighted_nominal_surrogate():
    """x = 1..8 splits a|b at 4.5; z = p,p,q,q,q,q,r,r.  Row 5 (z = q, right) weighs 5:
    q's rows weigh 2 left and 6 right, so q goes right; agreement 2 + 6 + 2 = 10 of 12,
    majority 8 (right), adj = (10 − 8)/(12 − 8) = 1/2.  Unweighted q ties 2 : 2 and goes
    the default way (right: the sides tie 4 : 4), agree 6/8, adj 1/2."""
    cols = {"x": list(range(1, 9)), "z": list("ppqqqqrr"), "y": list("aaaabbbb")}
    (s,) = _grow(cols, [1, 1, 1, 1, 5, 1, 1, 1], max_depth=1).root.surrogates
    assert (s.agreed, s.total, s.majority, s.adj) == (10, 12, 8, Fraction(1, 2))
    assert (s.test.left, s.rights) == (frozenset({0}), frozenset({1, 2}))
    (u,) = _grow(cols, None, max_depth=1).root.surrogates
    assert (u.agreed, u.total, u.majority, u.adj) == (6, 8, 4, Fraction(1, 2))


def test_two_rows_each_way_counts_rows_not_weight():
    """rpart's "at least two rows each way" counts rows: z = p,q,q,q sends one row (weight
    9) against the primary; by weight it would pass, by rows it is not a surrogate."""
    cols = {"x": [1, 2, 3, 4], "z": list("pqqq"), "y": list("aabb")}
    assert _grow(cols, [9, 1, 1, 1], max_depth=1).root.surrogates == ()


def test_min_samples_split_counts_rows():
    """4 rows of weight 10 with min_samples_split = 5: one node, as rpart (partition.c
    compares num_obs) and scikit-learn; with 4 they split.  Classification and regression."""
    for crit, y in (("gini", list("aabb")), ("squared_error", [1, 2, 5, 6])):
        data = from_records({"x": [1, 2, 3, 4], "y": y}, target="y", numeric=["x"])
        assert build_tree(data, criterion=crit, sample_weight=[10] * 4, min_samples_split=5).root.stop == \
            "min_samples_split"
        assert len(build_tree(data, criterion=crit, sample_weight=[10] * 4, min_samples_split=4).root.children) == 2


def test_weighted_surrogates_survive_a_json_model():
    """Weighted agreements are exact fractions in the JSON model and read back equal: left
    weighs 1/2 + 3 = 7/2, right 8; p (3/2 left), q (2 left, 6 right), r (2 right) agree
    on 3/2 + 6 + 2 = 19/2 of 23/2."""
    from infotree.model import dumps, loads

    cols = {"x": [1, 2, 3, 4, 5, 6, 7, 8, None], "z": list("ppqqqqrrq"), "y": list("aaaabbbba")}
    t = _grow(cols, ["1/2", 1, 1, 1, 5, 1, 1, 1, 1], max_depth=1)
    (s,) = t.root.surrogates
    assert (s.agreed, s.total, s.majority) == (Fraction(19, 2), Fraction(23, 2), 8)
    assert loads(dumps(t, nodes="all")).root.surrogates == t.root.surrogates
