"""The builders: a reference recursion that reads like the textbook, and a fast level-wise twin.

Both grow the same tree with the same records for the same data and parameters
(``tests/test_builders.py`` checks it); :func:`infotree.growing.build_tree` picks one.
"""
