"""Whose default a sentence states, for `_doc_defaults` (split out of it).

A default sentence answers only for what the question asks about: the thing a "Which N is used by
default?" question names (not the scheme's default beside the datacenter asked for), the setting a
bracketed default follows ("The quoted option (default true)" is no field separator's), and - for a
subjectless "The default is 100 KB." - the setting the sentence before it names in code, unless
that sentence describes the one asked about. A value that is a run of keywords is read whole
("READ COMMITTED", "NO ACTION"), a state ("true") answers no question asking what something
shows or uses, and "If port is omitted, X is used" gives a default by another name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from ._doc_identifiers import is_identifier
from ._doc_match import NUMBER, clause_start, overlap, overlap_words, stems
from ._doc_questions import DocQuestion
from ._questions import STOPWORDS
from ._sentences import split_sentences, stem

# An SQL-style keyword, and the keywords that continue it ("READ COMMITTED", "ABSENT ON NULL").
_KEYWORD: Final = re.compile(r"[A-Z][A-Z_]+")
_KEYWORD_REST: Final = re.compile(r"(?: [A-Z][A-Z_]+\b(?![.(][\w]))*")


def keyword_rest(value: str, text: str, end: int) -> str:
    """The keywords continuing a keyword `value` that ends at `end` ("COMMITTED" after "READ"), or ""."""
    if not _KEYWORD.fullmatch(value):
        return ""
    rest = _KEYWORD_REST.match(text, end)
    return rest.group(0) if rest is not None else ""


# "Which Consul datacenter is used by default?": the noun before the verb is the thing asked for.
_WHICH_NOUN: Final = re.compile(
    # (after a leading clause too: "When both -R and -I are given, which set of tests is run ...?" asks
    # for a set, "of tests" saying of what)
    r"(?:^|, )which (?:[\w-]+ ){0,3}?([a-z][a-z-]+)(?: of [a-z]+)? "
    r"(?:is|are|was|were|does|do|did|will|should|can|gets?)\b",
    re.IGNORECASE,
)
_GENERIC_NOUNS: Final = frozenset(
    {"value", "values", "setting", "parameter", "option", "default", "one", "kind", "type", "sort"}
)


def asked_noun(question: str) -> tuple[str, list[str]] | None:
    """The stem of the noun a "which N ..." default question asks for, unless it is a generic one,
    and the stems of the words qualifying it ("checkpoint" of "which checkpoint mode is the default"):
    those say which kind of N, so the sentence stating the default must say them too."""
    found = _WHICH_NOUN.search(question)
    if found is None or found.group(1).casefold() in _GENERIC_NOUNS:
        return None
    before = question[found.start() : found.start(1)].casefold().split()[1:]
    kinds = [stem(w) for w in before if w not in STOPWORDS and w not in _GENERIC_NOUNS and w.isalpha()]
    return stem(found.group(1).casefold()), kinds


_SNAKE: Final = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
_DESCRIBED: Final = 0.6  # the share of a question's words a sentence describing its setting holds


def before_names_another(paragraph: str, q: DocQuestion, wanted: Sequence[str]) -> bool:
    """Whether the sentence before a subjectless default ("The default is 100 KB.") is about a
    setting it names in code ("The cache_size property sets ...") that a question naming none does
    not, nor describes: most of the question's words would be there if it were the one asked about
    ("primary_start_timeout: the amount of time a primary is allowed to recover ...")."""
    if q.identifiers or not wanted:
        return False
    sentences = split_sentences(paragraph)
    before = sentences[-1].text if sentences else ""
    if not any(name.casefold() not in q.text.casefold() for name in _SNAKE.findall(before)):
        return False
    return overlap(replace(q, words=tuple(wanted)), before) < _DESCRIBED


def owner_asked(text: str, at: int, q: DocQuestion, wanted: Sequence[str]) -> bool:
    """Whether the words right before a bracketed default at `at` ("The quoted option (default true)")
    name what a question naming no code asks about (a question naming code is checked by its name)."""
    if q.identifiers or not wanted:
        return True
    owner = " ".join(text[clause_start(text, at) : at].split()[-3:])
    return overlap_words(wanted, owner) or described_after(text, at, q, wanted)


def described_after(text: str, at: int, q: DocQuestion, wanted: Sequence[str]) -> bool:
    """Whether the bracketed default at `at` follows a setting named in code that the words after
    the bracket describe as the question asks ("The smtpd_recipient_limit parameter (default: 1000)
    controls how many recipients the smtpd(8) server will take per delivery", asked how many
    recipients smtpd accepts per delivery): the question asks of that setting without naming it."""
    if q.identifiers or not wanted:
        return False
    owner = " ".join(text[clause_start(text, at) : at].split()[-3:])
    described = _DESCRIBED_AFTER.match(text, at)
    return (
        _SNAKE.search(owner) is not None
        and described is not None
        and overlap(replace(q, words=tuple(wanted)), described.group(1)) >= _DESCRIBED
    )


_DESCRIBED_AFTER: Final = re.compile(
    r"\([^)]*\)\s*(?:controls|specifies|sets|limits|determines)\b([^.;]*)", re.IGNORECASE
)


# "What does git stash show display by default?": a question asking what something shows or uses
# asks for a thing, which a state ("true", "off") is not.
# ("When notes are copied ..., what does Git do by default?" asks what it does, too.)
_ASKS_THING: Final = re.compile(
    r"(?:^|, )what (?:does|do|will) .+? "
    r"(?:display|show|print|output|return|use|contain|include|write|do)(?:e?s)?\b",
    re.IGNORECASE,
)
_STATES: Final = frozenset({"true", "false", "yes", "no", "on", "off", "enabled", "disabled"})


def state_for_thing(question: str, value: str) -> bool:
    """Whether `value` is a state given for a question asking what something shows or uses."""
    return value.casefold() in _STATES and _ASKS_THING.search(question) is not None


# "... - does git overwrite it by default?": whether something does what a verb says.
_DOES_IT: Final = re.compile(
    r"(?:^|[-\u2014;:,.] )(?:does|do|did|will|would) (?P<asked>[^?;]+)", re.IGNORECASE
)
_NOT_ASKED: Final = frozenset(stem(w) for w in ("default", "it", "them", "this", "that", *STOPWORDS))


def state_unsaid(question: str, value: str, quote: str) -> bool:
    """Whether `value` is a state answering "does X <verb> ... by default?" from a quote that never says
    what is asked: "Defaults to true." of a variable that copies notes answers no "does git overwrite
    it?"."""
    asked = _DOES_IT.search(question)
    if value.casefold() not in _STATES or asked is None:
        return False
    return not stems(asked.group("asked")) - _NOT_ASKED <= stems(quote)


# Words that name no setting between "default" and "is" ("the default value is", "the default
# port number is").
_GENERIC_DESCRIBED: Final = frozenset(
    stem(w) for w in ("default", "value", "values", "number", "setting", "the", "a", "an", "its", "of")
)


def names_other_default(text: str, match: re.Match[str], q: DocQuestion) -> bool:
    """Whether "default <words> is X" names by its words a default the question does not ask about
    ("The default directory mode is 0750 and default file mode is 0640", asked the file mode),
    while the sentence states another default: then that one is the question's."""
    described = {stem(w) for w in re.findall(r"[a-z]+", text[match.start() : match.start(1)].casefold())}
    described -= _GENERIC_DESCRIBED | {stem("is")}
    asked = {stem(w) for w in re.findall(r"[a-z]+", q.text.casefold())}
    if not described or described <= asked:
        return False
    return len(re.findall(r"\bdefault\b", text, re.IGNORECASE)) > 1


# "What transaction behavior does BEGIN use ...?", "Which conflict resolution algorithm is ...": the
# noun phrase the question asks for, between its question word and its verb.
_ASKED_PHRASE: Final = re.compile(
    r"(?:^|, )(?:(?:at|in|on|for|with|by|from|over|during|within|to|into) )?"
    r"(?:what|which) ((?:[\w-]+ ){1,4}?)"
    r"(?:does|do|did|is|are|was|were|will|would|should|can|could|gets?|has|have)\b",
    re.IGNORECASE,
)


def names_asked_default(text: str, match: re.Match[str], q: DocQuestion) -> bool:
    """Whether "default <words> is X" names by its words exactly what the question asks for ("The
    default transaction behavior is DEFERRED.", asked what transaction behavior BEGIN uses when none
    is specified): that sentence states the very default asked, over one sharing a word of it."""
    asked = _ASKED_PHRASE.search(q.text)
    if asked is None:
        return False
    described = {stem(w) for w in re.findall(r"[a-z]+", text[match.start() : match.start(1)].casefold())}
    described -= _GENERIC_DESCRIBED | {stem("is")}
    wanted = {stem(w) for w in re.findall(r"[a-z]+", asked.group(1).casefold())} - _GENERIC_DESCRIBED
    return bool(described) and described == wanted


# "What is the default maximum time Postfix waits ...?" asks for a noun too: the one after "default".
_DEFAULT_NOUN: Final = re.compile(r"\bthe default (?!values?\b|settings?\b)[a-z]", re.IGNORECASE)


def names_unasked_default(text: str, match: re.Match[str], q: DocQuestion) -> bool:
    """For a question naming no code and asking for a noun ("Over what time window ..."): whether
    "default <words> is X" names by its last word a thing the question does not ask about ("the
    default SMTP connection timeout is 30s", asked over what time window rate limits are counted):
    the default of that thing, not of the one asked."""
    if q.identifiers or (_ASKED_PHRASE.search(q.text) is None and _DEFAULT_NOUN.search(q.text) is None):
        return False  # ("What is the default value of GLOBSORT?" asks for no noun: "default sorting")
    described = re.findall(r"[a-z]+", text[match.start() : match.start(1)].casefold())
    named = [w for w in described if stem(w) not in _GENERIC_DESCRIBED | {stem("is")}]
    # (the question's words split at hyphens too: "ttl" of "the default max-cache-ttl")
    asked = stems(q.text) | {stem(w) for w in re.findall(r"[a-z]+", q.text.casefold())}
    return bool(named) and stem(named[-1]) not in asked


# "If port is omitted, X is used.", "If port is not specified, 995, the standard ... port is used.":
# the omission is the whole condition ("If port is omitted and tls is true, ..." is another).
# "If no status argument is given, the redirect will be "temporary" (HTTP status 302).": the same
# omission said the other way round, and the value in brackets where the result is named.
_USED_IF_OMITTED: Final = re.compile(
    r"^If (?:the )?(\w+)(?: argument| parameter)? is (?:omitted|not (?:given|specified|provided|passed)), "
    r"((?:(?! and | or | unless | when | if )[^;])+?) (?:is|will be) used(?=\s*(?:[.;]|$))"
    r"|^If no (\w+)(?: argument| parameter)? is (?:given|specified|provided|passed), "
    r"((?:(?! and | or | unless | when | if )[^;])+? (?:is|will be) [^;]*?\([^()]*\))(?=\s*(?:[.;]|$))"
)


_LEFT_OUT: Final = re.compile(
    r"\bno (\w+)(?: argument| parameter)? (?:is|are) (?:given|specified|provided|passed)\b"
    r"|\b(\w+)(?: argument| parameter)? (?:is|are) (?:omitted|not (?:given|specified|provided|passed))\b"
)


def omitted_default(text: str, q: DocQuestion) -> str | None:
    """What a sentence says is used when the parameter asked about is left out: the number a named
    value stands for ("the standard POP3 port (110)") or a literal it opens with ("995, the ...").
    The parameter must be what the question asks for, not the condition it is asked under."""
    match = _USED_IF_OMITTED.match(text)
    asked = re.split(r"\b(?:if|when|unless)\b", q.text, maxsplit=1)[0]
    if match is None:
        return None
    parameter, used = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    if stem(parameter.casefold()) not in stems(asked):
        return None
    # Asked under an omission of its own ("when no timeout parameter is given"), the sentence's must be it.
    left_out = _LEFT_OUT.search(q.text[len(asked) :])
    if left_out is not None and stem((left_out.group(1) or left_out.group(2)).casefold()) != stem(
        parameter.casefold()
    ):
        return None
    # "(110)", "(HTTP status 302)": the number the bracket gives, a word or two naming it before.
    bracketed = re.search(rf"\((?:[A-Za-z]+ ){{0,2}}({NUMBER})\)", used)
    if bracketed is not None:
        return bracketed.group(1)
    literal = re.match(rf"({NUMBER}|'[^']*'|\"[^\"]*\"),", used)
    return literal.group(1) if literal is not None else None


# "the get-mq style must be true (default)": a clause calling a name by what it is gives that name's
# default, whatever the sentence sits under.
_CALLED: Final = re.compile(
    r"\bthe ([\w.-]+) (?:style|option|parameter|setting|directive|keyword|variable|flag)\b", re.IGNORECASE
)


def clause_calls_another(text: str, at: int, q: DocQuestion) -> bool:
    """Whether the clause before a default at `at` calls by its kind a name of code the question does
    not name ("the get-mq style must be true (default)", asked the default of the formats style)."""
    for match in _CALLED.finditer(text[clause_start(text, at) : at]):
        name = match.group(1)
        if (is_identifier(name) or "-" in name.strip("-")) and name.casefold() not in q.text.casefold():
            return True
    return False


# The nouns that say what kind of thing a name is: "the X global property", "the X environment variable".
_KINDS: Final = "property|variable|option|directive|parameter|setting|module|command|policy|attribute"


def kind_words(q: DocQuestion) -> set[str]:
    """The stems of the words right after a name the question writes that say what kind of thing it
    is ("global property" of "the PREDEFINED_TARGETS_FOLDER global property"): the name's kind, which a
    sentence under its own page need not repeat, not a case the question asks about."""
    found: set[str] = set()
    for name in q.identifiers:
        kind = re.search(rf"{re.escape(name)} ((?:[a-z]+ ){{0,2}}(?:{_KINDS}))\b", q.text)
        found |= {stem(w) for w in kind.group(1).split()} if kind is not None else set()
    return found


# "What is LimitRequestBody's default value?", "the default value of X": X is the name asked.
_OWNER_OF_DEFAULT: Final = re.compile(
    r"([\w.-]+)['\u2019]s default\b|\bdefault (?:value )?(?:of|for) ([\w.-]+)"
)
# A name a condition of the question gives: "When DeflateInflateLimitRequestBody is unset, ...".
_IN_CONDITION: Final = re.compile(r"(?i)\b(?:when|if|unless|while) ([\w.-]+) (?:is|are|was|were) ")


def without_condition_names(q: DocQuestion) -> DocQuestion:
    """`q` without the code a condition of it names, when it asks another name's default ("When
    DeflateInflateLimitRequestBody is unset, ... What is LimitRequestBody's default value?"): the
    condition's default is not the one asked."""
    owner = _OWNER_OF_DEFAULT.search(q.text)
    name = next((g for g in owner.groups() if g), None) if owner is not None else None
    if name is None or name not in q.identifiers:
        return q
    conditions = {m.group(1) for m in _IN_CONDITION.finditer(q.text)} - {name}
    kept = tuple(i for i in q.identifiers if i not in conditions)
    return replace(q, identifiers=kept) if kept != q.identifiers else q
