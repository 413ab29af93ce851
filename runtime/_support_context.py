"""What a quote sits under in its page: the terms and headings above it (docs/corpus.md, "Structure").

The corpus writes a page's structure into its text (a heading is a line opened by `#`
marks, a definition description is indented four spaces per level under its term), so
the support methods can read it back without the index: from the quote's place in a
cited body, walk back line by line and keep each line that is less indented than the
lines kept so far (an enclosing term) and each heading of a higher level than the ones
kept so far. Only read when a method needs it (focus-entity, when the quote alone does
not name the focus), so the accepted path pays nothing for it in the common case.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._focus import Focus
from ._quantities import fold_text
from ._text import find_normalized

_MAX_WALK = 200_000  # characters walked back at most: a context is near its quote
# A line opened by "#" of more words is a collapsed code block ("# Example A: ..."), not a
# heading: the same limit as policies/_outline.py (tests/runtime/test_support_context.py holds
# the two readers together).
_HEADING_WORDS = 24
# Past the page's first deeper heading, a level-1 line of eight words or more holding a quote, a
# bracket or "=", neither numbered nor marked by a pilcrow, is a configuration example opened by a
# comment ("# X-Foo's value is set ... Header set X-Foo: baz"): the same rule as policies/_outline.py's
# `code_comment`.
_NUMBERED = re.compile(r"\d+(?:\.\d+)*\.?\s")
# A quoted span (not an apostrophe inside a word: "the teapot's own settings"), a bracket or "=".
_CODE_CHARACTERS = re.compile(r"""(?<!\w)(?:'[^'\s][^']*'|"[^"]+")(?!\w)|[<>=]""")
_DEEPER_HEADING = re.compile(r"^#{2,6}\s", re.MULTILINE)
# A line opening with a setting's name and a colon describes that setting: policies/_outline.py's
# `INLINE_TERM` (the same rule, held together by tests/runtime/test_support_context.py).
_INLINE_TERM = re.compile(r"([a-z][a-z0-9_.-]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?: \([^)]*\))?: (?=[a-z(])")
# Terms listed one per line over one description: policies/_outline.py's STACKED_TERMS and TERM_SHAPE
# (tests/runtime/test_support_context.py holds the two readers together).
_STACKED_TERMS = 4
_TERM_SHAPE = re.compile(r"\S+(?: \S+){0,5}(?<![.:;,])")
_LABELS = frozenset({"default", "example", "note", "see", "type", "range", "allowed", "warning", "tip"})


def enclosing(body: str, start: int) -> list[str]:
    """The terms and headings above offset `start` of `body`, nearest first."""
    found: list[str] = []
    line_start = body.rfind("\n", 0, start) + 1
    line = body[line_start : body.find("\n", start) if body.find("\n", start) >= 0 else len(body)]
    setting = inline_term(line)
    if setting is not None:
        found.append(setting)  # "loop_wait: ... Default value: 10": the line's own setting
    depth = _depth(line)
    level = 7
    stop = max(0, start - _MAX_WALK)
    end = line_start - 1
    while end > stop and (depth > 0 or level > 1):
        begin = body.rfind("\n", 0, end) + 1
        text = body[begin:end]
        end = begin - 1
        stripped = text.strip()
        if not stripped:
            continue
        marks = len(stripped) - len(stripped.lstrip("#"))
        if (
            marks
            and len(stripped.split()) <= _HEADING_WORDS
            and not (marks == 1 and _code_comment(stripped[1:].strip(), body, begin))
        ):
            if marks < level and stripped[marks : marks + 1].isspace():
                level = marks
                found.append(stripped[marks:].strip())
            continue
        own = _depth(text)
        if own < depth:
            depth = own
            found.append(stripped)
            if "\t" not in text:  # a table row is no term to the outline, nor are lines above it
                found.extend(_stacked_terms(body, begin, own))
    return found


def _stacked_terms(body: str, begin: int, depth: int) -> list[str]:
    """The terms listed right above the term at `begin` that share its description, nearest first
    ("--dirty[=<mark>]" over "--broken[=<mark>]" over one paragraph): policies/_outline.py's
    `_stacked_above`, read on the text."""
    stacked: list[str] = []
    end = begin - 1
    above = ""
    while end > 0:
        start = body.rfind("\n", 0, end) + 1
        text = body[start:end]
        end = start - 1
        if not text.strip():
            continue  # the outline has no empty lines
        if len(stacked) == _STACKED_TERMS or not _stacked(text, depth):
            above = text
            break
        stacked.append(text.strip())
    opened = not above or _depth(above) > depth or above.strip().startswith("#")
    return stacked if opened else []


def _stacked(text: str, depth: int) -> bool:
    stripped = text.strip()
    return (
        _depth(text) == depth
        and "\t" not in text
        and not stripped.startswith("#")
        and _TERM_SHAPE.fullmatch(stripped) is not None
    )


def inline_term(line: str) -> str | None:
    """The setting a line opens with as "name: description" ("loop_wait: the number of ..."), if any."""
    own = _INLINE_TERM.match(line.strip())
    if own is None or own.group(1).casefold() in _LABELS:
        return None
    return own.group(1)


def _code_comment(title: str, body: str, begin: int) -> bool:
    """Whether the level-1 line titled `title` at `begin` is a collapsed code block, not a heading."""
    if len(title.split()) < 8 or title.endswith("\u00b6") or _NUMBERED.match(title):
        return False
    if not _CODE_CHARACTERS.search(title):
        return False
    return _DEEPER_HEADING.search(body, 0, begin) is not None


def _depth(line: str) -> int:
    return (len(line) - len(line.lstrip(" "))) // 4


def quote_context(evidence: str, pages: Sequence[tuple[str, str]]) -> list[str]:
    """The terms and headings above the quote in the first of `pages` (title, body) that holds it."""
    needle = " ".join(evidence.split())
    for _title, body in pages:
        span = find_normalized(body, needle)
        if span is not None:
            return enclosing(body, span[0])
    return []


_TERM_NAME = re.compile(r"(?:(?:class|exception|classmethod|staticmethod|async|abstractmethod) )*([\w.]+)")


def member_of(context: str, dotted: str) -> bool:
    """Whether a folded `context` (`quote_context`, " | "-joined) puts the quote under member `b` of `a`.

    A page documents a method under its class ("peek(n)" under "class gzip.GzipFile"), so
    "gzip.GzipFile.peek" / "GzipFile.peek" is in no one line: the nearest term must be named
    `b` and a term further up `a` (in full or as the last part of its dotted name).
    """
    owner, _, member = dotted.rpartition(".")
    if not owner:
        return False
    found = [_TERM_NAME.match(line) for line in context.split(" | ")]
    names = [match.group(1) for match in found if match is not None]
    return bool(names) and _named(names[0], member) and any(_named(name, owner) for name in names[1:])


def _named(name: str, part: str) -> bool:
    return name == part or name.endswith("." + part)


_CODE_SHAPED = re.compile(r"_|[a-z][A-Z]")


def own_page_members(foci: Sequence[Focus], titles: Sequence[str]) -> list[Focus]:
    """`setlocale()` for a focus `locale.setlocale` when a cited page is the `locale` module's own
    (and `Telnet.open` for `telnetlib.Telnet.open` on `telnetlib`'s).

    A module's page calls its members by their own names ("the locale passed to setlocale()");
    there the last part stands for the dotted name: as a call, or as a name no word is spelled
    like (`snake_case`, `CamelCase`). A page is a module's own when its title opens with the name.
    """
    subjects = {fold_text(title).split(" ", 1)[0] for title in titles if title.strip()}
    found = []
    for focus in foci:
        if focus.kind != "identifier":
            continue
        # The module is the dotted name's first part ("Telnet.open" for `telnetlib.Telnet.open`) or
        # all but its last ("steep" for `teapot.leaves.steep` on the `teapot.leaves` page).
        first, _, rest = focus.text.partition(".")
        owner, _, last = focus.text.rpartition(".")
        for module, member in dict.fromkeys(((first, rest), (owner, last))):
            if not module or not member or fold_text(module) not in subjects:
                continue
            # A dotted rest is code-shaped as it stands.
            shown = member if "." in member or _CODE_SHAPED.search(member) else member + "()"
            found.append(Focus(shown, fold_text(shown), "identifier"))
    return found
