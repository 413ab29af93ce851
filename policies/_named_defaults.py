"""Defaults a sentence names before saying they are the default: "InnoDB is the default storage
engine", "MyISAM is used for temporary tables by default", "The language PL/Lua is installed by
default", "By default, the server uses the PLAIN mechanism".

`_doc_defaults` reads a value *after* the word default ("the default is X"); these forms put it
first, as the subject (or, after "By default, ... uses", as the object). A subject is any word, so
the value must look like a name (code-shaped, capitalized or quoted: "uses a random port" names
none) and must not be one of the question's own words ("The cache is used by default" asked
"Which cache ...?"). Only verbs of choice count ("Logging is enabled by default" states a state).
"""

from __future__ import annotations

import re
from typing import Final

from ._doc_match import VALUE
from ._doc_questions import DocQuestion
from ._sentences import stem, words

# Verbs saying which thing is taken when none is named (not states: "enabled", "on").
_CHOSEN: Final = (
    r"(?:used|installed|loaded|selected|chosen|created|started|run|applied|assumed|preferred|tried"
    r"|searched|read|shown|printed|displayed|returned|generated|included)"
)
# "InnoDB is the default storage engine." (at the sentence start or after a comma)
IS_THE_DEFAULT: Final = re.compile(
    # (a run of keywords whole: "If the clause is not specified, MATCH SIMPLE is the default."; a type
    # word before the value or a noun after it: "boolean OFF is the default value", "then the ALL_BUILD
    # project will be the default")
    rf"(?:^|(?<=, ))(?:then )?(?:the )?(?-i:[a-z]+ )??((?-i:(?:[A-Z][A-Z_]+ )+[A-Z][A-Z_]+)|{VALUE})"
    r"(?-i: [a-z]+)? (?:is|was|will be) (?:now )?the default\b",
    re.IGNORECASE,
)
# "two-phase-locking (2PL), which is the default, ..."
WHICH_IS_THE_DEFAULT: Final = re.compile(rf"{VALUE}(?: \([^)]*\))?, which is the default\b", re.IGNORECASE)
# "MyISAM is used for temporary tables by default.", "The language PL/Lua is installed by default"
CHOSEN_BY_DEFAULT: Final = re.compile(
    rf"^(?:(?:the|an?) (?:[a-z-]+ )?)?{VALUE} (?:is|are) {_CHOSEN}\b[^.;,]*? by default\b", re.IGNORECASE
)
# "By default, the server uses the PLAIN authentication mechanism."
USES_BY_DEFAULT: Final = re.compile(
    rf"^by default,? [^.;]*?\b(?:uses?|selects?|chooses?|loads?|installs?|tries|runs?) (?:the |an? )?{VALUE}",
    re.IGNORECASE,
)
# 'CMake uses "CMakePredefinedTargets" as a default value for this property.'
USED_AS_DEFAULT: Final = re.compile(rf"\buses (?:the )?{VALUE} as (?:a|the|its) default\b", re.IGNORECASE)
NAMED_FORMS: Final = (
    IS_THE_DEFAULT,
    WHICH_IS_THE_DEFAULT,
    CHOSEN_BY_DEFAULT,
    USES_BY_DEFAULT,
    USED_AS_DEFAULT,
)
_NAME_SHAPED: Final = re.compile(r".*(?:[A-Z0-9_./]|\w-\w).*")


def named_value_ok(value: str, q: DocQuestion) -> bool:
    """Whether `value`, read by one of `NAMED_FORMS`, may answer `q`: a name the question does not write."""
    if not _NAME_SHAPED.fullmatch(value) and not value.startswith(("'", '"')):
        return False  # "a random port", "the server": a description, not a name
    asked = {stem(w.casefold()) for w in words(q.text)}
    return not all(stem(w.casefold()) in asked for w in words(value))
