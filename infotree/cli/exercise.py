"""``infotree exercise``: an exercise per student."""

from __future__ import annotations




def _cmd_exercise(args, out):
    from ..exercise.command import run

    return run(args, out)
