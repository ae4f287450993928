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

__all__ = ["SafeWriter", "clip", "escape_controls"]

# C0 and C1 controls and DEL; Unicode format characters that steer layout (bidi marks,
# embeddings, overrides and isolates, zero-width characters, the BOM, interlinear
# annotation); the line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f"
                     "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")


# How each output format shows the code point c of an unsafe character, so that it is
# neither interpreted (a terminal, Graphviz, TeX) nor changes the value (JSON decodes
# \u001b back to ESC).
_STYLES = {
    "text": lambda c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}",
    "json": lambda c: f"\\u{c:04x}",
    "dot": lambda c: f"\\\\x{c:02x}" if c < 0x100 else f"\\\\u{c:04x}",
    "latex": lambda c: f"\\ensuremath{{\\backslash}}x{c:02x}" if c < 0x100 else f"\\ensuremath{{\\backslash}}u{c:04x}",
}


def escape_controls(s: str, style: str = "text", keep: str = "") -> str:
    """``s`` with every control, bidi or separator character (but those in ``keep``) written as an escape."""
    if not _UNSAFE.search(s):
        return s
    show = _STYLES[style]
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else show(ord(m.group())), s)


class SafeWriter:
    """A text stream that escapes unsafe characters on the way to ``out``.

    Newlines and tabs pass: the printers lay out with them (J48's summary has a tab),
    and neither can rewrite a terminal.
    """

    def __init__(self, out, style: str = "text"):
        # ``style`` may be an output format: TikZ is TeX; rules, Python, SVG show text escapes.
        style = {"tikz": "latex"}.get(style, style)
        self.out, self.style = out, style if style in _STYLES else "text"

    def write(self, s: str) -> int:
        return self.out.write(escape_controls(s, self.style, keep="\n\t"))

    def __getattr__(self, name):
        return getattr(self.out, name)


def clip(value, limit: int = 60) -> str:
    """``str(value)`` cut to ``limit`` characters with an ellipsis, for quoting in a message."""
    s = str(value)
    return s if len(s) <= limit else s[:limit] + "..."
