"""Which count of a sentence answers "how many X": the one whose counted thing the question names.

"8 character salt and 22 character hash" gives two counts; "how many characters is the hash"
asks for the one followed by "hash". A count that measures something else ("a sample size of
two bytes") answers no question about another thing.
"""

from __future__ import annotations

import re
from typing import Final

from ._doc_match import overlap_words, stems
from ._doc_questions import DocQuestion
from ._questions import STOPWORDS


def the_count(q: DocQuestion, text: str, counted: re.Pattern[str]) -> re.Match[str] | None:
    """The count of the asked unit a sentence gives: of several ("8 character salt and 22 character
    hash"), the one whose counted thing (the word after it, or "the size of" before it) the
    question names, and none when the question picks none of them, or more than one."""
    found = list(counted.finditer(text))
    unit = stems(q.noun or "")
    wanted = [w for w in q.words if w not in unit]
    if len(found) == 1:
        # "a sample size of two bytes" measures the sample size: not a question about something else.
        thing = _counted_thing(text, found[0], after=False)
        return found[0] if not thing or overlap_words(wanted, thing) else None
    picked = [m for m in found if overlap_words(wanted, _counted_thing(text, m))]
    return picked[0] if len(picked) == 1 else None


def _counted_thing(text: str, match: re.Match[str], after: bool = True) -> str:
    """What a count counts: the word after it ("22 character hash", "13 characters of hash"), or
    what "... of" before it measures ("a frame size of 4 bytes")."""
    following = re.match(r" (?:of )?([a-z][\w-]*)", text[match.end() :]) if after else None
    # Only the last characters before the count: a search over a long token before it is slow.
    before = re.search(r"(\w+ \w+) of (?:an? |the )?$", text[max(0, match.start() - 200) : match.start()])
    thing = [found.group(1) for found in (following, before) if found is not None]
    # "a maximum of 8 fields" counts fields: a maximum (a total, a minimum) qualifies the count.
    return " ".join(
        w
        for w in " ".join(thing).split()
        if w.casefold() not in STOPWORDS and w.casefold() not in _QUALIFIERS
    )


# Words that qualify a count rather than name what it counts ("a maximum of 8", "the most of 8");
# "up to 8", "at most 8" have no "of" and so name no counted thing.
_QUALIFIERS: Final = frozenset({"maximum", "minimum", "total", "most", "least"})
