"""The compiled loops in C (infotree/grow/_loops.c, _draws.c): a plain shared library that
infotree/grow/cloops.py loads with ctypes, built where a C compiler is found.  It is optional
(setuptools warns and goes on where the build fails): without it the builder takes numba's
loops or numpy's."""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCES = ["infotree/grow/_loops.c", "infotree/grow/_draws.c"]
# The library carries a digest of the sources it was built from: cloops refuses one built
# from other sources than those beside it (a checkout edited or pulled after its build).
# cloops._digest computes the same.
digest = hashlib.sha256(b"".join((Path(__file__).parent / s).read_bytes() for s in SOURCES)).hexdigest()[:16]

# -ffp-contract=off: the error bounds of the float scores assume each operation rounds on its
# own (no fused multiply-add); the library has no Python entry point (ctypes loads it).
setup(ext_modules=[Extension("infotree.grow._clib", SOURCES, define_macros=[("INFOTREE_SOURCE", f'"{digest}"')],
                             extra_compile_args=["-O3", "-std=c99", "-ffp-contract=off"], optional=True)])
