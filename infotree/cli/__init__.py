"""The ``infotree`` command line: one module per subcommand (``tree``, ``measures``, ``predict``,
``report``, ``cptable``, ``evaluate``, ``forest``, ``exercise``, ``check``, ``entropy``), the shared
option groups (:mod:`.parser`), the parsed options turned into the library's calls (:mod:`.args`)
and the entry point (:mod:`.app`: errors as one line, signals, exit codes)."""

from .app import main
from .args import forest_from_args, read_data, tree_options
from .parser import LARGE_DERIVATION, build_parser

__all__ = ["main", "build_parser", "read_data", "tree_options", "forest_from_args", "LARGE_DERIVATION"]
