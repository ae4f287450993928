"""A float column read by from_arrays: its numbers are taken by the Dataset unchecked (issue 37)."""

from __future__ import annotations

import numpy as np

from infotree.data import from_arrays


def test_float_columns_are_read_canonical():
    """A float column's numbers are taken by the Dataset unchecked, so the reader's own texts
    must be number_text's of its exact numbers, ascending (checked here against number_text
    on floats of every magnitude, signed zeros and the extremes; digits made in floats below
    2^51, parsed from the text past it)."""
    from fractions import Fraction

    from infotree.data import number_text

    rng = np.random.default_rng(5)
    col = np.concatenate([rng.normal(size=3000) * 10.0 ** rng.integers(-9, 21, size=3000),
                          np.round(rng.normal(size=1000), 3),
                          [0.0, -0.0, 1.0, -1.0, 0.1, 1e-4, 9.999e-5, 1e15, 1e16, 5e-324, 1.7976931348623157e308,
                           0.1 + 0.2, 123456789012345.6, 2.0 ** 51, 2.0 ** 51 + 1, 2.0 ** 52 + 1, 4503599627370497.5,
                           0.00012345678901234567, 12345.678901234567, -2251799813685247.5],
                          rng.random(2000) * 10.0 ** rng.integers(-4, 16, size=2000)])
    data = from_arrays(col[:, None], ["a"] * len(col), numeric="auto")
    numbers, domain = data.numbers[0], data.domains[0]
    assert type(numbers).__name__ == "_Canonical"
    assert list(domain) == [number_text(q) for q in numbers]
    assert all(a < b for a, b in zip(numbers, numbers[1:]))
    assert {Fraction(repr(float(x))) for x in col} == set(numbers)  # each float read from its shortest text
