"""Small data sets that make good exercises: a planted concept, rows drawn around it.

A table is drawn from a ``random.Random`` only (no numpy stream), so that the same seed and
student id give the same rows on every platform and Python version (``random.Random`` seeded
with a string hashes it with SHA-512; its generator is fixed by the language).  The concept
gives the classes a tree can find in a couple of levels; whether a drawn table is a good
exercise (depth, ties, simple numbers) is decided by growing the tree on it
(:mod:`infotree.exercise.kinds`).

    >>> import random
    >>> header, rows = nominal_table(random.Random("doc"), rows=4, features=3)
    >>> header[-1], len(rows), len(rows[0])
    ('buy', 4, 4)
"""

from __future__ import annotations

__all__ = ["CLASSES", "POOL", "TARGET", "nominal_table", "numeric_table", "regression_table"]

#: nominal attributes and their values; every value names one attribute only, so that the
#: textbook notation S_sunny reads unambiguously in check
POOL = (("outlook", ("sunny", "overcast", "rainy", "foggy")),
        ("temp", ("hot", "mild", "cool", "cold")),
        ("humidity", ("high", "normal", "low", "dry")),
        ("wind", ("weak", "strong", "gusty", "calm")),
        ("size", ("small", "medium", "large", "huge")),
        ("colour", ("red", "green", "blue", "white")),
        ("shape", ("round", "square", "oval", "flat")),
        ("price", ("cheap", "fair", "dear", "luxury")))
TARGET = "buy"
CLASSES = ("yes", "no")
#: numeric attributes (C4.5's thresholds, CART's cuts, regression): name, low, high
NUMBERS = (("age", 18, 60), ("height", 150, 195), ("rooms", 1, 9), ("distance", 1, 30))


def _attributes(rng, features, low=2, high=4):
    picked = rng.sample(POOL, features)
    return [(name, values[:rng.randint(low, high)]) for name, values in picked]


def _concept(rng, attrs, numeric=None):
    """A two-level rule: the root's branches are classes or a second attribute's value -> class.

    ``numeric`` (a cut on a numeric column, index -1 of the row) makes the root ``x <= cut``."""
    root = 0
    branches = 2 if numeric is not None else len(attrs[root][1])
    rule = {}
    split_some = False
    for b in range(branches):
        others = [j for j in range(len(attrs)) if j != root or numeric is not None]
        if rng.random() < 0.6 or (b == branches - 1 and not split_some):
            j = rng.choice(others)
            classes = [rng.choice(CLASSES) for _ in attrs[j][1]]
            if len(set(classes)) == 1:
                classes[rng.randrange(len(classes))] = CLASSES[classes[0] == CLASSES[0]]
            rule[b] = (j, classes)
            split_some = True
        else:
            rule[b] = rng.choice(CLASSES)
    return rule


def _label(rule, branch, row):
    r = rule[branch]
    if isinstance(r, str):
        return r
    j, classes = r
    return classes[row[j]]


def nominal_table(rng, *, rows, features, noise=0):
    """(header, rows of text) with ``features`` nominal attributes of 2 to 4 values each; the class
    follows a planted two-level rule, ``noise`` labels flipped."""
    attrs = _attributes(rng, features)
    rule = _concept(rng, attrs)
    codes = [[rng.randrange(len(values)) for _, values in attrs] for _ in range(rows)]
    labels = [_label(rule, r[0], r) for r in codes]
    for i in rng.sample(range(rows), noise):
        labels[i] = CLASSES[labels[i] == CLASSES[0]]
    header = [name for name, _ in attrs] + [TARGET]
    return header, [[attrs[j][1][c] for j, c in enumerate(r)] + [y] for r, y in zip(codes, labels)]


def numeric_table(rng, *, rows, features, noise=0):
    """Like :func:`nominal_table` with one numeric attribute first (distinct integers), the
    planted root a cut on it."""
    name, low, high = rng.choice(NUMBERS)
    attrs = _attributes(rng, features - 1)
    numbers = sorted(rng.sample(range(low, high + 1), min(rows, high - low + 1)))
    numbers = [rng.choice(numbers) for _ in range(rows)]
    cut = sorted(numbers)[rng.randint(rows // 3, (2 * rows) // 3)]
    rule = _concept(rng, attrs, numeric=cut)
    codes = [[rng.randrange(len(values)) for _, values in attrs] for _ in range(rows)]
    labels = [_label(rule, 0 if x <= cut else 1, r) for x, r in zip(numbers, codes)]
    for i in rng.sample(range(rows), noise):
        labels[i] = CLASSES[labels[i] == CLASSES[0]]
    header = [name] + [n for n, _ in attrs] + [TARGET]
    return header, [[str(x)] + [attrs[j][1][c] for j, c in enumerate(r)] + [y]
                    for x, r, y in zip(numbers, codes, labels)]


def regression_table(rng, *, rows, features):
    """(header, rows): numeric attributes (and a nominal one when there are three or more), a
    numeric target: a step on a cut of the first attribute plus a small integer wobble."""
    picks = rng.sample(NUMBERS, min(features, 2))
    attrs = _attributes(rng, features - len(picks), 2, 3) if features > 2 else []
    columns = [[rng.randint(low, high) for _ in range(rows)] for _, low, high in picks]
    cut = sorted(columns[0])[rng.randint(rows // 3, (2 * rows) // 3)]
    low_level, high_level = rng.sample(range(10, 61, 5), 2)
    codes = [[rng.randrange(len(values)) for _, values in attrs] for _ in range(rows)]
    effect = [rng.choice((0, 5, 10)) for _ in (attrs[0][1] if attrs else ())]
    ys = []
    for i in range(rows):
        y = (low_level if columns[0][i] <= cut else high_level) + rng.randint(-2, 2)
        if attrs:
            y += effect[codes[i][0]]
        ys.append(y)
    header = [p[0] for p in picks] + [n for n, _ in attrs] + ["price" if "price" not in dict(attrs) else "cost"]
    return header, [[str(c[i]) for c in columns] + [attrs[j][1][k] for j, k in enumerate(codes[i])] + [str(ys[i])]
                    for i in range(rows)]
