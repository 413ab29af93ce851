"""Text from the log made safe for a terminal: control characters are shown, never obeyed.

Questions, thoughts, URLs, answers, page text and tool errors come from models, web pages
and imported files. Printed raw, an ESC starts a control sequence (clear the screen, set
the window title, an OSC 8 hyperlink whose target the reader never sees), a carriage
return or a backspace overwrites what was already printed, and a bidi override reorders
the line the reader sees. `escape_controls` prints each of them as its Python-style escape
(`\\x1b`, `\\r`, `\\u202e`) instead; every other character is kept. A backslash is not
doubled, so a page that spells out `\\x1b` looks the same as one that holds an ESC: the
output is for reading, and `--json` is the exact form.

`json_terminal_safe` does the same for JSON text with JSON's own escapes, so the document
still decodes to exactly the same value.
"""

from __future__ import annotations

from typing import Final

# C0 (but tab, which only moves the cursor right), DEL, and C1: 0x9b alone is a CSI.
_CONTROLS: Final = (*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0))
# Bidi embeddings, overrides and isolates (the "Trojan Source" set, CVE-2021-42574).
_BIDI: Final = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
# Lone surrogates cannot be encoded for the terminal at all; shown, they cannot crash the print.
_SURROGATES: Final = tuple(range(0xD800, 0xE000))

_NAMED: Final = {0x0A: "\\n", 0x0D: "\\r"}


def _visible(code: int) -> str:
    if code in _NAMED:
        return _NAMED[code]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_ONE_LINE: Final = {code: _visible(code) for code in (*_CONTROLS, *_BIDI, *_SURROGATES)}
_KEEP_NEWLINES: Final = {code: text for code, text in _ONE_LINE.items() if code != 0x0A}
# JSON escapes C0 itself; what it leaves raw, and a terminal may still act on.
_JSON: Final = {code: f"\\u{code:04x}" for code in (0x7F, *range(0x80, 0xA0), *_BIDI)}


def escape_controls(text: str, *, newlines: bool = False) -> str:
    """`text` with every control character, bidi override and lone surrogate as a visible escape.

    Newlines are kept when `newlines` is true (a multi-line answer); otherwise they become
    `\\n` too, so that a table cell or a one-line field stays one line.
    """
    return text.translate(_KEEP_NEWLINES if newlines else _ONE_LINE)


def json_terminal_safe(json_text: str) -> str:
    """JSON text with DEL, C1 controls and bidi overrides as `\\uXXXX`: the same value, safe to print.

    Those characters can only occur inside JSON strings, where the escape means the same
    character, so the document decodes to exactly what it did before.
    """
    return json_text.translate(_JSON)
