"""Whether a documentation question asks for a default, and the words that only say so.

"What is the default X?", "... if port is not given", "when none is specified", "If a foreign key
does not specify an action, which action is used?", "which header table ... when no condition is
given": each asks for the value used when none is stated. The words saying a value is left out
("doesn't say", "is omitted") are not what a sentence stating the default must hold (it says
"If the keyword is omitted, then VIRTUAL is the default." or only "The default is ABORT.").
"""

from __future__ import annotations

import re
from typing import Final

from ._sentences import stem

# Saying a value is left out: "does not specify", "doesn't say", "is omitted", "no condition is given".
# ("If I don't pass --format", "called without a starting value,", "when port is left at zero")
_LEFT_OUT: Final = re.compile(
    r"\b(?:does not|doesn't|do not|don't) (?:specify|say|give|name|pass|provide|supply)\b"
    r"|\bno [\w-]+ (?:is|are) (?:given|specified)\b|\b(?:is|are) omitted\b|\bnone is (?:given|specified)\b"
    r"|\bwithout (?:an?|any) [\w-]+(?: [\w-]+)?(?=,| what\b| which\b)"
    r"|\bleft (?:at|as) (?:zero|0|none|empty)\b"
    # ("if compresslevel isn't given", "unless I change it")
    r"|\b(?:isn't|aren't) (?:given|specified|set|passed|provided)\b|\bunless (?:i|you|we|one) changes? it\b"
    # ("if DeflateMemLevel is not set", "if I never set X", "unless gc.aggressiveDepth is set", "unless
    # configured otherwise", "when no UserDir directive was configured")
    r"|\b(?:is|are|was|were) not (?:set|configured)\b|\bnever set\b|\bleft unset\b"
    r"|\bunless (?:[\w.<>-]+ ){1,3}(?:is|are) (?:set|configured|given|specified)\b"
    r"|\bunless (?:configured|told|set) otherwise\b|\bunless otherwise (?:configured|specified|set)\b"
    r"|\bno [\w-]+ (?:directive|option|setting|parameter)s? (?:is|are|was|were)"
    r" (?:configured|present|set|given)\b"
)
# (not the noun of "no condition is given": the condition is what the default is of)
_LEFT_OUT_WORDS: Final = frozenset(
    stem(w)
    for w in (
        "does", "not", "doesn't", "do", "don't", "specify", "say", "give", "name", "no", "is", "are", "given",
        "specified", "omitted", "none", "pass", "provide", "supply", "without", "left", "isn't", "aren't",
        "unless", "i", "you", "we", "one", "change", "changes", "it", "set", "passed", "provided",
        "never", "configured", "otherwise", "unset", "was", "were", "present", "told",
    )
)  # fmt: skip
_DEFAULT_ASKED: Final = re.compile(
    r"\bdefaults?\b|\b(?:not given|omitted|not specified|not provided|not passed)\b"
    r"|\bno (?:[\w-]+ ){0,2}?(?:argument|parameter|value)s? (?:is |are )?"
    r"(?:given|specified|provided|passed)\b"
    rf"|{_LEFT_OUT.pattern}"
)
_NAMED_DEFAULTS: Final = re.compile(r"\b(?:the|its|their) [\w-]+-[\w-]+ defaults\b")
_NAMES_A_DEFAULT: Final = re.compile(r"\b(?:the|its|a) default (?!values?\b)\w+")
_DEFAULT_ITSELF: Final = re.compile(
    r"\bhow (?:many|much) \w+(?: \w+)? (?:is|are|was|were) (?:the|its) default\b"
)

# Asking which setting does something by default asks for the setting's name, not its value.
_SETTING_ASKED: Final = re.compile(
    r"\b(?:which|what) (?:config(?:uration)?(?: (?:variable|option|setting|key))?|setting|variable"
    r"|parameter|directive)s? (?!values?\b|defaults?\b)"
)


def asks_default(lowered: str, measured: bool) -> bool:
    """Whether `lowered` (a question, lower-cased) asks for a default. A question asking for a measure
    (`measured`: "Within how many digits does the default tolerance assure ...?") asks for a count, not
    the default it names - unless it asks how much the default itself is ("How many seconds is the
    default timeout?")."""
    # "zlib.compress uses level -1 by default; which numeric level does that correspond to?": the
    # clause before a semicolon is what the asker already knows, the question is the one after it.
    lowered = lowered.rsplit(";", 1)[-1]
    # "With the stress-adaptive defaults (Postfix 2.6+), what smtpd_timeout ... under stress?": a set of
    # defaults a modifier names is the case asked about, not a default asked for.
    lowered = _NAMED_DEFAULTS.sub("", lowered)
    if _SETTING_ASKED.search(lowered) is not None:
        return False  # "which config makes git stash show list untracked files by default?": a name
    counting = measured and _DEFAULT_ITSELF.search(lowered) is None
    return _DEFAULT_ASKED.search(_NAMES_A_DEFAULT.sub("", lowered) if counting else lowered) is not None


def left_out_words(lowered: str) -> frozenset[str]:
    """The stems of the words of `lowered` (a question, lower-cased) that say a value is left out."""
    return (
        frozenset(stem(w) for m in _LEFT_OUT.finditer(lowered) for w in m.group(0).split()) & _LEFT_OUT_WORDS
    )
