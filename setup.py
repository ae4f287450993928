"""The compiled loops in C (infotree/grow/_loops.c, _draws.c): a plain shared library that
infotree/grow/cloops.py loads with ctypes, built where a C compiler is found.  It is optional:
without a compiler the install goes on, and the builder takes numba's loops or numpy's."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 -- no compiler, or one that fails: the loops are optional
            print(f"infotree: the compiled loops in C were not built ({e}); numba's or numpy's are used")

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001
            print(f"infotree: the compiled loops in C were not built ({e}); numba's or numpy's are used")


# -ffp-contract=off: the error bounds of the float scores assume each operation rounds on its
# own (no fused multiply-add); the library has no Python entry point (ctypes loads it).
setup(ext_modules=[Extension("infotree.grow._clib", ["infotree/grow/_loops.c", "infotree/grow/_draws.c"],
                             extra_compile_args=["-O3", "-std=c99", "-ffp-contract=off"], optional=True)],
      cmdclass={"build_ext": OptionalBuildExt})
