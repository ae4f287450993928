"""Showing untrusted text (names and values from data files) safely.

A value may hold control characters, ANSI escape sequences (``\\x1b[2J`` clears a
terminal), bidirectional overrides (``\\u202e`` turns the rest of a line around) or
line separators.  Printed raw, they would rewrite the terminal or make the output
say something other than what it holds.  Every printer shows them as Python-style
escapes instead (``\\x1b``, ``\\u202e``); ordinary text, any script, is unchanged.

    >>> escape_controls("sunny\\x1b[31m")
    'sunny\\\\x1b[31m'
"""

from __future__ import annotations

import re

__all__ = ["escape_controls"]

# C0 and C1 controls and DEL; Unicode format characters that steer layout (bidi marks,
# embeddings, overrides and isolates, zero-width characters, the BOM, interlinear
# annotation); the line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f"
                     "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")


def _escaped(m) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def escape_controls(s: str) -> str:
    """``s`` with every control, bidi or separator character written as an escape."""
    return _UNSAFE.sub(_escaped, s) if _UNSAFE.search(s) else s
