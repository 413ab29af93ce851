"""The setting a manual names after describing what it does: "Current Postfix versions postpone the
evaluation of client, helo and sender restriction lists until the RCPT TO or ETRN command. This
behavior is controlled by the smtpd_delay_reject parameter."

"Which parameter controls ...?" is answered by such a sentence ("This behavior is controlled by X",
"This feature is controlled by the boolean X parameter") when what it points back to - the sentence
before it in the paragraph, or for the first sentence of a description the term it describes
("Rewrite "site!user" to "user@site"") - holds most of what the question says the setting does.
The quote runs from that sentence or term through the one naming the setting.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, mentions, overlap, sentences_of
from ._doc_questions import DocQuestion
from ._outline import clean
from ._which_checks import SETTING_NOUNS, SETTING_VERBS

# "This behavior is controlled by the smtpd_delay_reject parameter", "This feature is controlled by the
# boolean swap_bangpath parameter", "this is configured with tag.gpgSign": a sentence pointing back.
_CONTROLLED: Final = re.compile(
    r"(?:This|That|These|It)(?: [a-z]+){0,2} (?:is|are) (?:controlled|configured|governed|determined) "
    r"(?:by|with|via) (?:the )?(?:boolean |configuration )?(?P<name>[a-z][a-z0-9]*(?:[_.][A-Za-z0-9]+)+)\b"
)
# The share of the question's words (its verbs of setting aside) what the sentence points back to holds.
_FIT: Final = 0.6


def controlling_settings(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The settings sentences pointing back name, for "Which parameter controls ...?"."""
    if q.noun not in SETTING_NOUNS:
        return
    described = replace(q, words=tuple(w for w in q.words if w not in SETTING_VERBS))
    previous: tuple[tuple[str, int], int, str] = (("", -1), 0, "")  # (page, line), start, text
    for page, line, sentence in sentences_of(pages):
        place = (page.url, line.start)
        before = previous if previous[0] == place else None
        previous = (place, line.start + sentence.start, sentence.text)
        named = _CONTROLLED.match(sentence.text)
        if named is None:
            continue
        end = line.start + sentence.end
        if before is not None:
            context, start = before[2], before[1]
        elif line.terms and sentence.start == 0:
            context = clean(line.terms[-1])
            start = page.body.rfind(context, 0, line.start)
        else:
            continue
        quote = " ".join(page.body[start:end].split())
        fit = overlap(described, context, sentence.text)
        if start < 0 or fit < _FIT or not all(mentions(quote, i) for i in q.identifiers):
            continue
        yield DocCandidate(page.url, named.group("name"), quote, 1.0 + fit, "the setting said to control it")
