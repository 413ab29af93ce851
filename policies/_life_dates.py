"""Birth and death dates as a page's first sentence writes them in brackets: "(born 3 June 1865)",
"(3 June 1865 - 20 January 1936)", also with the dash the extracted text lost."""

from __future__ import annotations

import re
from typing import Final

_DATE: Final = re.compile(
    r"\b(?:\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r" \d{3,4}|(?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r" \d{1,2}, \d{3,4}|\d{3,4})\b"
)
_LIFE: Final = re.compile(r"\(([^()]*)\)")
_MONTH: Final = "(?:January|February|March|April|May|June|July|August|September|October|November|December)"
# Two full dates with the dash between them lost, as some extracted text has them: "(14 August
# 193322 November 2012)", "(September 14, 1914January 7, 1996)". A year has four digits, so the
# first date ends after its fourth and the second begins with its day or month right after it.
FULL_DATE: Final = rf"(\d{{1,2}} {_MONTH} \d{{4}}|{_MONTH} \d{{1,2}}, \d{{4}})"
_GLUED: Final = re.compile(rf"\b{FULL_DATE}{FULL_DATE}\b")


_OLD_STYLE: Final = re.compile(r"\s*\[O\.S\.[^\]]*\]")


def life_dates(sentence: str) -> tuple[str | None, str | None]:
    """Birth and death dates in a first sentence: "(born 3 June 1865)", "(3 June 1865 - 20 January 1936)",
    also with the dash lost ("(3 June 186520 January 1936)")."""
    # (Russian lives carry an old-style date in square brackets: "18 February [O.S. 5 February] 1903".)
    for group in _LIFE.finditer(_OLD_STYLE.sub("", sentence)):
        inside = group.group(1)
        glued = _GLUED.search(inside)
        if glued is not None:
            return glued.group(1), glued.group(2)
        dates = list(_DATE.finditer(inside))
        if not dates:
            continue
        if re.search(r"\bborn\b", inside) and len(dates) == 1:
            return dates[0].group(0), None
        dash = re.search(r"\s[\u2013\u2014-]\s|[\u2013\u2014]", inside)
        if dash is not None and len(dates) >= 2 and dates[0].end() <= dash.start() < dates[1].start():
            return dates[0].group(0), dates[1].group(0)
        if (
            len(dates) == 2
            and not inside[dates[0].end() : dates[1].start()].strip()
            and " " in dates[1].group(0)
        ):
            return dates[0].group(0), dates[1].group(0)  # two full dates, the dash between them lost
        return None, None
    return None, None
