"""The one escaping function of the command line's human output, and its JSON counterpart."""

from __future__ import annotations

import json

import orjson
import pytest
from citeloop.runtime.cli._escape import escape_controls, json_terminal_safe
from hypothesis import given
from hypothesis import strategies as st

DANGEROUS = (
    [chr(c) for c in range(0x00, 0x09)]
    + [chr(c) for c in range(0x0B, 0x20)]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),  # clear screen
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),  # window title
        ("\x1b]8;;http://evil\x07click\x1b]8;;\x07", "\\x1b]8;;http://evil\\x07click\\x1b]8;;\\x07"),  # OSC 8
        ("\x9b31m", "\\x9b31m"),  # the 8-bit CSI
        ("safe\rFAKE", "safe\\rFAKE"),  # carriage return overwrites the line
        ("ab\x08\x08XY", "ab\\x08\\x08XY"),  # backspace
        ("\u202eevil\u202c \u2066x\u2069", "\\u202eevil\\u202c \\u2066x\\u2069"),  # bidi
        ("\x00\x7f", "\\x00\\x7f"),
        ("\ud800", "\\ud800"),  # a lone surrogate cannot be printed at all
    ],
)
def test_controls_become_visible_escapes(raw: str, shown: str) -> None:
    assert escape_controls(raw) == shown


def test_ordinary_text_markup_and_tabs_are_kept() -> None:
    text = "Ada Ortiz, née Ørsted — 1999 [bold]x[/bold] \\x1b\tcafé 日本 مرحبا \u200f"
    assert escape_controls(text) == text


def test_newlines_are_kept_only_when_the_layout_needs_them() -> None:
    assert escape_controls("one\ntwo") == "one\\ntwo"
    assert escape_controls("one\ntwo\r\n", newlines=True) == "one\ntwo\\r\n"


@given(st.text())
def test_nothing_dangerous_survives(text: str) -> None:
    escaped = escape_controls(text, newlines=True)
    assert not [char for char in DANGEROUS if char in escaped]


JSON_VALUES = st.recursive(
    st.text() | st.integers() | st.none(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
)


@given(JSON_VALUES)
def test_json_stays_the_exact_value_without_raw_c1_or_bidi(value: object) -> None:
    try:
        text = orjson.dumps(value).decode()
    except orjson.JSONEncodeError:  # a lone surrogate: orjson refuses it, so it never reaches print_json
        return
    safe = json_terminal_safe(text)
    assert json.loads(safe) == value
    assert not [char for char in DANGEROUS if char in safe]
