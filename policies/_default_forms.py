"""The sentence forms a stated default takes, for `_doc_defaults` (split out of it).

"(default: X)", "defaults to X", "the default is X", "a default of X", "X (the default)", "by
default, ... is X", "Includes just X by default", "set to X by default", "instead of the default
X", "it will be given the default value 60", "with the default value being 5", "The default size
for the kill ring is eight": each a pattern whose first group is the value; `_doc_defaults` reads
whose default it is. Also the number a standard value stands for ("defaults to the standard Telnet
port (23)", `standard_number`) and a "default" that is part of a longer name (`in_token`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ._doc_match import NUMBER, UNIT, VALUE
from ._named_defaults import NAMED_FORMS
from ._sentences import stem

# "the parameter which is set to 5 by default", "Use a limit of 1 instead of the default 100" (a number
# or a quoted value, not "the default one"): the default of the parameter the sentence names last
# before it, only ("when smtpd_sasl_auth_enable, which is set to no by default, is on" is not the
# default of another parameter the sentence names first).
SET_BY_DEFAULT: Final = rf"\bset to {VALUE} by default\b"
INSTEAD_OF_DEFAULT: Final = (
    rf"\b(?:instead of|rather than) the default ({NUMBER}(?: ?{UNIT})?(?!\w|\.\d)|'[^']*'|\"[^\"]*\")"
    # The value itself, not a word describing a noun after it ('the default "mbox" file').
    r"(?=\s*(?:[.,;:)]|$))"
)
# "the default size of a log file is 10MB": plain words only (no code name's default), each of them
# the question's ("the default size of the log buffer" is not a log file's).
# A label, as manual pages print it: "default: 200ms.", "default: 1 allowed: 1-999 example: ..."
DEFAULT_LABEL: Final = (
    rf"(?:^|(?<=[.;] )|(?<=\. ))default(?: value)?: {VALUE}"
    # "Default: 1000000 (one million)": a gloss in brackets may follow the value.
    r"(?=[.;]?$|[.;] | \([^()]*\)[.;]?$| (?:allowed|example|range): )"
)
DEFAULT_NAMED: Final = (
    rf"\bdefault(?: (?!is\b)[a-z_.]+(?:-[a-z_.]+)*){{0,4}} is "
    # ("Default maximum age is set to 118 seconds": the value it is set to)
    r"(?:usually |always |now |sometimes |often |[a-z]+ly )?(?:(?:set|initiali[sz]ed|limited|fixed) to )?"
    rf"{VALUE}"
)
# ("The default size for the kill ring is eight")
DEFAULT_OF_NOUN: Final = rf"\bdefault [a-z]+ (?:of|for) (?:an? |the )?[a-z]+(?: [a-z]+)? is {VALUE}"
DEFAULT_FORMS: Final = (
    tuple(
        re.compile(form, re.IGNORECASE)
        for form in (
            # "(default 360 minutes; -1 disables the limit)": what follows a semicolon is another value's
            rf"\(defaults?:? (?:is |to )?{VALUE}(?:;[^)]*)?\)",
            DEFAULT_LABEL,
            # "Range: [0,100], default: 3", "Range: [30-30000], default 300ms": a label after a range
            rf"(?<=\], )default:? {VALUE}(?=[.;]?$|[.;] )",
            rf"\bdefaults? to {VALUE}",
            rf"\bdefaulting to {VALUE}",  # "at most N errors, with N defaulting to 100"
            rf"\bby default,? with an? [\w-]+ of {VALUE}",  # "enabled by default with an interval of 1000"
            # "By default, all lockers are created with a priority of 100."
            rf"^by default, [^.;]*? with an? [\w-]+ of {VALUE}",
            rf"\ba default(?: value)? of {VALUE}",
            # "it will be given the default value 60", "set to the default value 450, i.e. ...": a number
            # (no comma after it) or a quoted value
            rf"\b(?:given|set to|assigned) the default(?: value)? (-?\d+(?:[.,]\d+)*(?: ?{UNIT})?(?![\w.]\d)"
            r"|'[^']*'|\"[^\"]*\")",
            # "an integer from 0 to 9 with the default value being 5"
            rf"\bwith the default(?: value)? being {VALUE}",
            # "The default is typically 100 connections": an adverb before the value is not it.
            DEFAULT_NAMED,
            DEFAULT_OF_NOUN,
            rf"\bdefault value of [\w.]+ changed from \S+ to {VALUE}",
            # "The default value of the SQLITE_TEMP_STORE compile-time parameter is 1"
            rf"\bdefault value (?:of|for) (?:the )?[\w.]+(?: [\w-]+){{0,2}} is {VALUE}",
            # "X (the default)", "onsuccess (default, can be omitted)": the value marked in a list of them.
            # Only what the bracket adds is no value: "(default, can be omitted)", not "(default, none)" nor
            # a condition ("(default, when both sides lack the others)").
            rf"{VALUE} \((?:the )?default(?:, (?:can|may|see|since)\b[^)]*)?\)",
            rf"\bthe default, {VALUE},",
            # "The strip mode is default.": a value named by its kind
            rf"\bthe {VALUE} (?:mode|style|method|format|strategy|policy|action|level)"
            r" is (?:the )?default(?=[.;]|$)",
            # "If the trailing keyword is omitted, then VIRTUAL is the default."
            rf"(?:^|\bthen |, ){VALUE} is the default(?=[.;]|$)",
            # "The recommended encoding, and the default value, is 'utf-8-sig'."
            rf"\band the default(?: value)?, is {VALUE}",
            # "The default 'qDe' educates normal quote characters": a quoted value the sentence goes on about
            r"\bthe default ('[^']+'|\"[^\"]+\") (?=[a-z]+s\b)",
            rf"(?:^|; )by default\b[^.;]*? is {VALUE}",
            rf"\bincludes (?:just |only )?{VALUE} by default\b",  # "Includes just '#' by default."
            SET_BY_DEFAULT,
            INSTEAD_OF_DEFAULT,
            # "By default, notes are saved to and read from refs/notes/commits": a path or name the
            # default goes to, from or into (only a code-shaped one: "saved to disk" names no default).
            r"^by default,? [^.;]*?\b(?:to|from|into|in|at) "
            r"((?:[\w.-]+/)+[\w.-]*\w|\w+_[\w.]+|[a-z_]\w*\.[a-z_]\w*)(?=[\s.,;]|$)",
        )
    )
    + NAMED_FORMS
)


# "which defaults to the standard Telnet port (23)", "The defaults are to connect ... at the standard
# SMTP port (25)": the number a standard or default value stands for, right after the noun it names
# and ending its clause ("found in (1) the X variable or (2) ..." numbers a list), with no comma or
# contrast between it and "defaults to" ("defaults to 0 rather than the standard port (418)").
_DEFAULTS_TO: Final = re.compile(r"\bdefaults? (?:to|are to|is to) ", re.IGNORECASE)
_NAMED_NUMBER: Final = re.compile(
    rf"\b(?:the|an?) (?:[\w-]+ ){{0,4}}?([\w-]+) \(({NUMBER})\)(?=[.,;]|$)", re.IGNORECASE
)
_CONTRAST: Final = re.compile(r"[,;]|\b(?:rather than|instead of|not|but)\b", re.IGNORECASE)


def in_token(text: str, match: re.Match[str]) -> bool:
    """Whether the word "default" the match reads is part of a longer name ("RPM-DEFAULT",
    "USE_DEFAULT_PATH"), which names a value or an option, not a default."""
    at = text.casefold().find("default", match.start(), match.end())
    return at >= 0 and (text[at - 1 : at] in ("-", "_") or text[at + 7 : at + 8] in ("-", "_"))


def standard_number(text: str, wanted: Sequence[str]) -> re.Match[str] | None:
    """The "(N)" a default's standard value stands for, when the noun before it is the one asked
    ("the default teapot timeout (30) and ... the standard teapot port (418)": 418 for the port)."""
    for anchor in _DEFAULTS_TO.finditer(text):
        for match in _NAMED_NUMBER.finditer(text, anchor.end()):
            if _CONTRAST.search(text, anchor.end(), match.start()):
                break
            if stem(match.group(1).casefold()) in wanted:
                return match
    return None
