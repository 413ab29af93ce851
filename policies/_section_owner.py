"""The setting a section is about when its heading is the setting's name.

A server's reference often gives each setting a heading of its own and states its facts below
it without naming it again: "### udp-max-payload" over "Default: 1232", "#### TimeRequery"
over a one-row table `type | default | mandatory`. Such a line is about the name in its
heading, as a description is about its `<dt>` term. The converse matters as much: "The default
value is 0." under "#### RcvBufSize" is RcvBufSize's default, whatever the question asked.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

from ._doc_match import overlap_words, stems, term_name
from ._doc_questions import DocQuestion
from ._outline import Line

# One name and nothing else: "udp-max-payload", "TimeRequery", "queue.type", "Port".
_ONE_NAME: Final = re.compile(r"[A-Za-z_$][\w$.:-]*\w")
# Shaped as code rather than as a word ("Examples", "Threads" may head prose about anything):
# camel case, or words joined by "-", "_", "." or ":".
_CODE_SHAPED: Final = re.compile(r"[a-z][A-Z]|\w[-_.:]\w")
_QUESTION_TOKEN: Final = re.compile(r"[\w$][\w$.:-]*\w|\w")


def one_name(title: str) -> bool:
    """Whether a title is a single name and nothing else ("udp-max-payload", not "Logging levels")."""
    return _ONE_NAME.fullmatch(title.strip()) is not None


def heading_name(line: Line) -> str | None:
    """The title of the innermost heading over `line` when that title is a single name."""
    if not line.headings:
        return None
    title = line.headings[-1].strip()
    return title if one_name(title) else None


def asked_names(q: DocQuestion) -> frozenset[str]:
    """The question's tokens as written, case-folded ("imudp", "ratelimit.burst", "udp-max-payload")."""
    return _tokens(q.text)


@functools.lru_cache(maxsize=256)
def _tokens(question: str) -> frozenset[str]:
    # Cached: asked of every line of every opened page, for one question.
    return frozenset(t.casefold() for t in _QUESTION_TOKEN.findall(question))


def under_asked_heading(line: Line, q: DocQuestion) -> bool:
    """Whether `line` sits under a heading that is exactly a name the question writes."""
    name = heading_name(line)
    return name is not None and name.casefold() in asked_names(q)


def under_other_setting(line: Line, q: DocQuestion) -> bool:
    """Whether `line` sits under a heading naming a setting (shaped as code) the question does not name."""
    name = heading_name(line)
    return (
        name is not None and _CODE_SHAPED.search(name) is not None and name.casefold() not in asked_names(q)
    )


def heading_owns(line: Line, q: DocQuestion, wanted: Sequence[str], body: str, *said: str) -> bool:
    """Whether `line` of `body` is about what `q` asks by its heading: the heading is a name the
    question writes, and every other word in `wanted` is said in `said`, the headings or the section
    the line is in ("tcp-max-clients in the xdp section" is not the one under the server section's
    heading; "the default number of probe channels" is the one under "channels", described as
    "Number of channels")."""
    if not under_asked_heading(line, q):
        return False
    named = stems(line.headings[-1])
    end = body.find("\n#", line.start)
    section = body[body.rfind("\n#", 0, line.start) + 1 : end if end >= 0 else len(body)]
    return all(overlap_words([w], section, *said, *line.headings) for w in wanted if w not in named)


def under_asked_name(line: Line, q: DocQuestion) -> bool:
    """Whether `line` sits under a heading, or a term shaped as code ("clients-per-query", not "key"),
    that is a name the question writes; for a term, when the question asks nothing the line and what
    it sits under do not say ("min-update-interval for RPZ zones" is not the catalog zones' term of
    that name)."""
    if under_asked_heading(line, q):
        return True
    if not line.terms:
        return False
    name = term_name(line.terms[-1])
    if _CODE_SHAPED.search(name) is None or name.casefold() not in asked_names(q):
        return False
    others = [w for w in q.words if w not in stems(name)]
    return all(overlap_words([w], line.text, *line.terms, *line.headings) for w in others)
