"""The linear HTML tokenizer `_html` reads pages with (split out of it): each character is read a
bounded number of times, so malformed markup cannot make it quadratic (see `_html`'s docstring)."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Protocol

_RAW = frozenset({"script", "style"})
_RAW_END = {name: re.compile(rf"</{name}[\t\n\f\r />]", re.ASCII | re.IGNORECASE) for name in _RAW}
_SPACE = " \t\n\r\f"
_CHUNK = 1 << 16  # characters between two calls of the caller's checkpoint


class TagSink(Protocol):
    """What the tokenizer reports to: `_html`'s extractor."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None: ...
    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None: ...
    def handle_endtag(self, tag: str) -> None: ...
    def handle_data(self, data: str) -> None: ...


def tokenize(source: str, out: TagSink, checkpoint: Callable[[], None] | None) -> None:
    """Feed `out` the tags and the text of `source`; every search moves forward, never back."""
    n = len(source)
    i = 0
    next_check = _CHUNK
    while i < n:
        if checkpoint is not None and i >= next_check:
            checkpoint()
            next_check = i + _CHUNK
        lt = source.find("<", i)
        if lt < 0:
            out.handle_data(unescape(source[i:]))
            return
        if lt > i:
            out.handle_data(unescape(source[i:lt]))
        i = lt
        after = source[i + 1 : i + 2]
        if source.startswith("<!--", i):
            end = source.find("-->", i + 4)
            i = n if end < 0 else end + 3
        elif after in ("!", "?"):  # a doctype, a CDATA section, a processing instruction
            end = source.find(">", i + 2)
            i = n if end < 0 else end + 1
        elif after == "/":
            end = source.find(">", i + 2)
            name = _name(source, i + 2, n if end < 0 else end)
            if end < 0:
                return  # an end tag open at the end of the file
            if name:
                out.handle_endtag(name)
            i = end + 1
        elif after.isascii() and after.isalpha():
            i = _start_tag(source, i + 1, out)
        else:
            out.handle_data("<")  # a lone "<" in the text ("a < b")
            i += 1


def _name(source: str, start: int, stop: int) -> str:
    """The tag name at `start` (up to white space, "/" or ">"), lower-cased; "" if none."""
    end = start
    while end < stop and source[end] not in _SPACE and source[end] not in "/>":
        end += 1
    return source[start:end].lower() if source[start : start + 1].isalpha() else ""


def _start_tag(source: str, start: int, out: TagSink) -> int:
    """Read the start tag whose name begins at `start`, report it, and return where text resumes."""
    n = len(source)
    name = _name(source, start, n)
    j = start + len(name)
    attrs: list[tuple[str, str | None]] = []
    closing = False
    while True:
        while j < n and (source[j] in _SPACE or source[j] == "/"):
            closing = source[j] == "/"
            j += 1
        if j >= n:
            return n  # a tag open at the end of the file
        if source[j] == ">":
            j += 1
            break
        closing = False
        begin = j
        j += 1  # an attribute name may start with "="
        while j < n and source[j] not in _SPACE and source[j] not in "/>=":
            j += 1
        key = source[begin:j].lower()
        while j < n and source[j] in _SPACE:
            j += 1
        value: str | None = None
        if j < n and source[j] == "=":
            j += 1
            while j < n and source[j] in _SPACE:
                j += 1
            if j < n and source[j] in "\"'":
                end = source.find(source[j], j + 1)
                if end < 0:
                    return n
                value, j = source[j + 1 : end], end + 1
            else:
                begin = j
                while j < n and source[j] not in _SPACE and source[j] != ">":
                    j += 1
                value = source[begin:j]
            value = unescape(value)
        attrs.append((key, value))
    if closing:
        out.handle_startendtag(name, attrs)
        return j
    out.handle_starttag(name, attrs)
    if name in _RAW:
        # Raw text: no tags and no entities until the element's own end tag.
        end_tag = _RAW_END[name].search(source, j)
        if end_tag is None:
            return n  # left open at the end of the file: dropped
        out.handle_data(source[j : end_tag.start()])
        return end_tag.start()
    return j
