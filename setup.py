"""The compiled loops in C (infotree/grow/_loops.c, _draws.c): a plain shared library that
infotree/grow/cloops.py loads with ctypes, built where a C compiler is found.  It is optional
(setuptools warns and goes on where the build fails): without it the builder takes numba's
loops or numpy's."""

from setuptools import Extension, setup

# -ffp-contract=off: the error bounds of the float scores assume each operation rounds on its
# own (no fused multiply-add); the library has no Python entry point (ctypes loads it).
setup(ext_modules=[Extension("infotree.grow._clib", ["infotree/grow/_loops.c", "infotree/grow/_draws.c"],
                             extra_compile_args=["-O3", "-std=c99", "-ffp-contract=off"], optional=True)])
