"""What reads as code in a documentation question or sentence (split out of `_doc_questions`).

An identifier is dotted, snake_case, CamelCase, a call, an index, a flag or a name with a leading
underscore ("_thread"); a question also names code by calling a word by its kind: "the max-errors
style", "the listen directive" (`named_by_kind`).
"""

from __future__ import annotations

import re
from typing import Final

_TOKEN: Final = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|[A-Za-z_][\w.]*(?:\[[^\]\s]*\]|\([^)\s]*\))?|\*\*")
_DOTTED: Final = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# "docs.python.org", "www.example.com": a host name, dotted like code but no identifier.
_DOMAIN: Final = re.compile(r"^www\.|\.(?:org|com|net|edu|gov|io|int|info)$", re.IGNORECASE)
CAMEL: Final = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]")
_PLURAL_MARK: Final = re.compile(r"[A-Za-z]+\((?:s|es)\)")


def is_identifier(token: str) -> bool:
    """Whether `token` reads as code: dotted, snake_case, CamelCase, a call, an index, a flag, or a name
    with a leading underscore."""
    if token.startswith("-") and len(token) > 2:
        return True
    if _PLURAL_MARK.fullmatch(token.rstrip(".,;:")):
        return False  # "the zone(s)", "file(es)": prose leaving the number open, not a call
    if (token.endswith(("()", ")", "]")) and "(" in token) or "[" in token:
        return True
    if "_" in token.strip("_") and any(c.isalpha() for c in token):
        return True
    if re.fullmatch(r"_+[A-Za-z][A-Za-z0-9]*", token.rstrip(".,;:")):
        return True  # a private or internal name: "_thread", zsh's "_approximate" completer
    bare = token.rstrip(".")
    if bare.casefold() in ("i.e", "e.g"):
        return False  # abbreviations of prose, not dotted names
    if _DOTTED.fullmatch(bare) is not None and _DOMAIN.search(bare) is None:
        return True
    return CAMEL.search(token) is not None


def code_tokens(text: str) -> list[tuple[int, str]]:
    """Each identifier of `text` with its offset."""
    return [
        (m.start(), m.group(0).rstrip("."))
        for m in _TOKEN.finditer(text)
        if is_identifier(m.group(0).rstrip(".?"))
    ]


# "the max-errors style", "the proxy-protocol option", "the listen directive": a word the question
# calls by the noun of a configuration name is that name - hyphenated before "option" or "setting",
# which plain words describe ("the compression option"), and any before the nouns only names take.
_NAMED_BY_KIND: Final = re.compile(
    r"(?<![\w-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+) (?:style|directive|keyword|widget|hook|option|setting)s?\b"
    r"|\bthe (?:[\w.-]+ )?([a-z][a-z0-9]*) (?:style|directive|widget|hook)s?\b"
)


def named_by_kind(text: str) -> list[tuple[int, str]]:
    """Each name `text` calls by its kind, with its offset ("the vcs_info formats style": formats)."""
    return [(m.start(m.lastindex or 1), m.group(m.lastindex or 1)) for m in _NAMED_BY_KIND.finditer(text)]
