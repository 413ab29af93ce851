"""What one value of a setting means: "What happens when X is set to 0?", "What does a value of -1
mean for X?", "What does setting X to off do?"; and the unit a bare value of it is taken in ("If
X is specified without units, what unit is it taken as?": "If this value is specified without
units, it is taken as milliseconds").

A manual says it of the setting itself, in a sentence under the setting's term (or one naming
it) whose subject is the value: "A value of 0 means no limit.", "Setting this to zero disables
the timeout.", "If set to off, the server ...", "-1 (the default) disables the check.",
"Specify 0 for mail that should be returned immediately". The answer is what the sentence says
the value does, from its verb on (without "means"). A sentence whose subject is another setting
("Setting other_limit to 0 ...") says nothing of the asked one, and neither does a value that only
begins the asked one ("0.5" is not "0").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, mentions, own_quote, sentences_of, term_name
from ._doc_questions import DocQuestion

# What a sentence says a value does: "means (that) ...", or the verb it does it with.
_EFFECT: Final = (
    r"(?:(?:will )?(?:means?|indicates?|signifies|specifies)(?: that)? (?P<meant>.+)"
    r"|(?P<does>(?:will \w+|disables|enables|turns|causes|makes|prevents|removes|allows|forces|keeps"
    r"|selects|tells|lets|suppresses|stops|requests|restores|deactivates|activates|switches|results in"
    r"|is (?:treated|interpreted|taken) as|is equivalent to|has the effect of|instructs|skips|uses) .+))"
)
# The setting a sentence may call by a pronoun or its kind instead of its name.
_ITSELF: Final = r"(?:(?:this|the) (?:parameter|option|setting|value|variable|directive)|this|it)"
_ASIDE: Final = r"(?: \((?:the |which is the )?default\))?"


def value_meanings(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """What the sentences about the setting `q` asks of (its subject) say its value (its noun) does."""
    setting, value = q.subject or "", q.noun or ""
    said = _spellings(value)
    named = rf"(?:{re.escape(setting)}|{_ITSELF})"
    forms = (
        # "A value of 0 means ...", "The special value -1 disables ..."
        rf"(?:^|[;:] |, )(?i:an? |the )?(?i:special )?(?i:value) (?:of )?{said}{_ASIDE},? {_EFFECT}",
        # "Setting this to zero disables ...", "Specifying 0 causes ..."
        rf"^(?i:setting|specifying|set|using) (?:{named} )?(?:to |as )?{said}{_ASIDE},? {_EFFECT}",
        # "If (this is) set to 0, ...": the main clause after the condition's comma.
        rf"^(?i:if|when) (?:{named} )?(?:(?:is|are) )?(?:set to |specified as |given as |equal to )?{said}"
        rf"(?: is (?:given|specified|used))?{_ASIDE}, (?:then )?(?P<clause>.+)",
        # "-1 (the default) disables the check.", "Zero means no limit."
        rf"(?:^|; ){said}{_ASIDE} {_EFFECT}",
        # "Specify 0 for mail that should be returned immediately ..."
        rf"^(?i:specify|use|set) (?:{named} to )?{said} (?:for|to) (?P<purpose>.+)",
    )
    patterns = [re.compile(form) for form in forms]
    seen: set[str] = set()
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if text in seen or not about(line, text, q):
            continue
        opener = re.match(r"(?i:setting|specifying|set|using|if|when|specify|use) (\S+)", text)
        if opener is not None and _other_setting(opener.group(1), setting):
            continue  # "Setting other_limit to 0 ...": what another setting's value does
        if not _owns(line.terms, text, setting) or (
            line.cells and line.cells[0].casefold() != setting.casefold()
        ):
            continue  # under another term: "-1 means that retention_period applies" is that term's -1
        for pattern in patterns:
            match = pattern.search(text)
            if match is None:
                continue
            groups = match.groupdict()
            answer = next((groups[k] for k in ("meant", "does", "clause", "purpose") if groups.get(k)), "")
            answer = re.split(r" \(|; |\. ", answer, maxsplit=1)[0].rstrip(" .:,")
            if answer:
                seen.add(text)
                # Under the setting's own term the sentence is about it; under a heading only, less so.
                own = any(mentions(t, setting) for t in line.terms) or mentions(text, setting)
                yield DocCandidate(
                    page.url,
                    answer,
                    own_quote(page, line, sentence),
                    2.0 if own else 1.8,
                    f"what the value {value} of {setting} does",
                )
            break


def _spellings(value: str) -> str:
    """A value as manuals write it: 0 also "zero", -1 also "minus one", a word in quotes or in any case."""
    words = {"0": "zero", "-1": "minus one", "1": "one"}
    escaped = re.escape(value)
    if value.startswith("-"):
        escaped = rf"[-\u2212]{re.escape(value[1:])}"
    alternatives = [escaped, *([words[value]] if value in words else [])]
    if value == "zero":
        alternatives.append("0")
    spelled = "|".join(alternatives)
    # Not the start of a longer value: "0.5" or "0s" is not "0", "on" not "one".
    return rf"[\"'`]?(?i:{spelled})[\"'`]?(?![\w-]|\.\d)"


def _owns(terms: Sequence[str], text: str, setting: str) -> bool:
    """Whether a sentence speaks of `setting`: it sits under no term or under the setting's own, or it
    opens with the setting's name ("Setting X to 0 ...", "If X is ...", "X is specified in ...")."""
    if not terms or term_name(terms[-1]).casefold() == setting.casefold() or mentions(terms[-1], setting):
        return True  # its own term, also as one of its spellings ("-j njobs, --jobs=njobs")
    return (
        re.match(rf"(?i)^(?:(?:setting|specifying|if|when|set|using) )?(?:the )?{re.escape(setting)}\b", text)
        is not None
    )


def _names_another(before: str, setting: str) -> bool:
    """Whether the words before a phrase name code other than `setting` (the phrase is about that)."""
    return any(_other_setting(word, setting) for word in re.findall(r"[\w.]+", before))


def _other_setting(word: str, setting: str) -> bool:
    """Whether the word after "Setting"/"If" names a setting other than the asked one (code, not "this")."""
    bare = word.strip("\"'`,")
    code = "_" in bare or any(c.isupper() for c in bare[1:])
    return code and bare.casefold() != setting.casefold()


# A unit a bare value may be taken in: its last word.
_UNIT_WORD: Final = re.compile(
    r"(?i)(?:^|\s)(?:(?:milli|micro|nano)?seconds?|minutes?|hours?|days?|(?:kilo|mega|giga)?bytes?|[kMGT]B|bits?"
    r"|blocks?|pages?|percent|buffers?|segments?|ms|s|min|h)$"
)
# The unit a bare number is read in: "If this value is specified without units, it is taken as
# milliseconds", "The value is specified in kilobytes", "in units of 8kB blocks".
_UNIT_FORMS: Final = tuple(
    re.compile(form, re.IGNORECASE)
    for form in (
        r"\bwithout (?:a )?units?, (?:it|the value|this value|the setting|this setting|\S+) is "
        r"(?:taken|interpreted|assumed|read) (?:to be )?(?:as |in )?"
        r"(?P<unit>(?:[\w-]+ ){0,2}?[\w-]+?)(?=[.,;]|$)",
        r"\b(?:is|are) (?:specified|given|measured|expressed) in (?:units of )?(?P<unit>[\w-]+(?: [\w-]+)?)"
        r"(?=[.,;]|$)",
        r"\bin units of (?P<unit>[\w-]+(?: [\w-]+)?)(?=[.,;]|$)",
        # "... expressing the result in seconds", "the specified minimum data rate (in bytes per second)"
        r"\bexpress(?:es|ed|ing)? (?:the result |it |them |the value )?in (?P<unit>[\w-]+)(?=[.,;]|$)",
        r"\(in (?P<unit>[\w-]+(?: per [\w-]+)?)\)",
    )
)


def bare_unit(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The unit a sentence about the setting `q` names says its bare values are taken in."""
    setting = q.subject or ""
    for page, line, sentence in sentences_of(pages):
        if not about(line, sentence.text, q) or not _owns(line.terms, sentence.text, setting):
            continue  # "... at least three times heartbeat_interval; if specified without units, it ..."
        for form in _UNIT_FORMS:
            match = form.search(sentence.text)
            if match is None or not _UNIT_WORD.search(match.group("unit")):
                continue  # "specified in murrelet.conf", "given in square brackets": no unit
            if _names_another(re.split(r"[;:] ", sentence.text[: match.start()])[-1], setting):
                continue  # "less than ack_timeout, which is specified in seconds": ack_timeout's unit
            own = any(mentions(t, setting) for t in line.terms) or mentions(sentence.text, setting)
            yield DocCandidate(
                page.url,
                match.group("unit"),
                own_quote(page, line, sentence),
                2.0 if own else 1.8,
                f"the unit of a bare {setting} value",
            )
            break
