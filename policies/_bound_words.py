"""The words that ask for a bound ("the maximum X", "the smallest X"): `_doc_questions`, `_doc_bounds`."""

from __future__ import annotations

import re
from typing import Final

UPPER: Final = ("maximum", "max", "largest", "highest", "greatest", "longest", "biggest")
LOWER: Final = ("minimum", "min", "smallest", "lowest", "least", "shortest")
# "What is the minimum receive buffer size accepted by X?" (lowered, "?" gone): the bound asked.
ASKS_BOUND: Final = re.compile(rf"^what (?:is|are) the ({'|'.join(UPPER + LOWER)}) \w")


def bound_of(word: str) -> str:
    """'maximum' or 'minimum': the bound a word asks for."""
    return "minimum" if word in LOWER else "maximum"
