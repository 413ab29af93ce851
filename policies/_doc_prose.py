"""What a documented thing does, is for, or leads to, when the page says it in prose rather than
under a term.

A reference page of a command or a setting often opens with a sentence whose subject is
the thing itself: "The VACUUM command rebuilds the database file, ..." answers "What does
the VACUUM command do?" with its predicate, from the verb on. A sentence of the form "the
purpose of X is to ..." answers "What is the purpose of X?" with the clause after "is".
Only a sentence whose grammatical subject is the thing asked about answers (it opens the
sentence, with an article and the kind of thing at most around it), so a sentence that
names it in passing ("Running VACUUM ensures ...") does not. "What happens if/when C?" is
answered by the consequence of the one sentence that states C ("An attempt to ... will
return SQLITE_FULL"), and "What <noun> ...?" by "a <noun> of <value>" ("a date of
2000-01-01").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import (
    DocCandidate,
    about,
    mentions,
    overlap,
    page_subject,
    sentences_of,
    stems,
    under_named,
)
from ._doc_questions import DocQuestion

# The kinds of thing a question may name after the thing itself ("the VACUUM command").
KINDS: Final = (
    r"command|statement|pragma|function|keyword|clause|modifier|option|directive|operator|setting"
    r"|parameter|method|module|tool|program|utility|subcommand|extension|feature|flag"
)
_KIND_NAMES: Final = frozenset(KINDS.split("|"))
# After a word in -s, a verb shows the word was a plural noun: "The UPDATE rows are locked".
_NOUN_NEXT: Final = re.compile(r" (?:are|were|is|was|may|can|must|will|should|have|do|cannot)\b")
# A verb that states what the subject does, not what it is ("is", "has") or may be ("can").
_NOT_ACTIONS: Final = frozenset({"is", "was", "has", "does", "its", "this", "thus", "always", "also", "as"})
# What a page under its own name scores over another naming the same thing in its first words.
_OWN_PAGE: Final = 0.5


def named_thing(subject: str) -> str:
    """ "the VACUUM command" -> "VACUUM"; "the 'auto' modifier" -> "'auto'"."""
    thing = re.sub(r"^(?:the|an?) ", "", subject.strip(), flags=re.IGNORECASE)
    return re.sub(rf"\s+(?:{KINDS})$", "", thing, flags=re.IGNORECASE)


def does_in_prose(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The predicate of the first sentence, per page, whose subject is the thing the question names.

    The subject opens the sentence, or the main clause after a condition ("If the value is numeric,
    then the 'auto' modifier causes ..."). Asked with a condition ("What does X do with a numeric
    value?"), the sentence must state most of it.
    """
    thing = named_thing(q.subject or "").strip("'\"")
    if not thing or len(thing.split()) > 4:
        return
    # The thing as the question writes it ("ONLY" is not "Only rows ..."); article and kind in any case.
    subject = rf"(?i:the |an? )?['\"]?{re.escape(thing)}['\"]?(?i: (?:{KINDS}))?(?: \([^)]*\))?"
    opening = re.compile(rf"(?:^|(?<=\bthen )|(?<=, then )){subject} ([a-z]+s)\b(.*)$")
    asked = replace(q, words=tuple(w for w in q.words if w not in stems(q.subject or "")))
    seen: set[str] = set()
    for page, _line, sentence in sentences_of(pages):
        if page.url in seen:
            continue
        match = opening.search(sentence.text)
        if match is None or match.group(1) in _NOT_ACTIONS or not match.group(2).strip():
            continue
        if (
            match.group(1)[:-1] in _KIND_NAMES
            or match.group(1).endswith("ss")
            or _NOUN_NEXT.match(match.group(2))
        ):
            continue  # "The UPDATE statements inside a trigger ...": a plural noun, not what UPDATE does
        if match.start() > 0 and not sentence.text.casefold().startswith(("if ", "when ")):
            continue  # "then" of a condition the sentence opens with, not any "then"
        if asked.words and overlap(asked, sentence.text) < CONDITION_FIT:
            continue  # the condition asked about is not this sentence's
        seen.add(page.url)
        answer = sentence.text[match.start(1) :].rstrip(" .:")
        own = _OWN_PAGE if mentions(page_subject(page), thing) or mentions(page.title, thing) else 0.0
        how = "what the sentence about it says it does"
        yield DocCandidate(page.url, answer, sentence.text, 2.0 + own, how)


def purpose_in_prose(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """ "the purpose of X is to ...": the clause after "is", for "What is the purpose of X?"."""
    asked = re.search(rf"\bpurpose of (?:the |an? )?(.+?)(?: (?:{KINDS}))?(?: (?:in|of|for) \S+)?$", q.text)
    if asked is None:
        return
    thing = asked.group(1)
    stated = re.compile(
        rf"\bpurpose of (?:the |an? )?{re.escape(thing)}(?: (?:{KINDS}))? is (to .+?)[.;]?$", re.IGNORECASE
    )
    for page, _line, sentence in sentences_of(pages):
        match = stated.search(sentence.text)
        if match is not None:
            how = "the purpose the sentence states"
            yield DocCandidate(page.url, match.group(1), sentence.text, 2.0, how)


# What a sentence says follows from its condition: "... will return SQLITE_FULL", "... results in an error".
_CONSEQUENCE: Final = re.compile(
    r"\b(?:(?:will|would) (?:not )?(?:be )?\w+|results? in|returns?|raises?|fails?|causes?) "
)
# What opens a condition in a sentence: "if", "when", "an attempt to", "trying to".
_CONDITIONAL: Final = re.compile(
    r"(?i)\b(?:if|when|whenever|once|unless|attempts?|trying|tries|in which case|otherwise)\b"
)
_NEGATION: Final = re.compile(r"(?i)\b(?:not|no|never|cannot)\b|n't\b")
# The share of the question's condition a sentence must state to be the one whose consequence it asks.
CONDITION_FIT: Final = 0.6


def consequence_in_prose(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """ "What happens if/when C?": the consequence of the sentence that states C, from its verb on."""
    if len(q.words) < 2:
        return
    # What the question writes in capitals (AUTOINCREMENT, WITHOUT ROWID) is named, as written, by the
    # sentence: "a WITHOUT ROWID table" alone is not "AUTOINCREMENT on a WITHOUT ROWID table".
    spelled = re.findall(r"\b[A-Z][A-Z_]+\b", q.text)
    for page, line, sentence in sentences_of(pages):
        fit = overlap(q, sentence.text, *line.headings[-1:])
        if fit < CONDITION_FIT or not about(line, sentence.text, q):
            continue
        if not all(re.search(rf"\b{word}\b", sentence.text) for word in spelled):
            continue
        # The consequence is the last verb phrase of its kind ("that would make the pot grow ... will
        # return X": the condition's own verbs come first), after a condition the sentence states ("An
        # attempt to ...", "If ..."): "returns the columns of the table" describes, it does not follow.
        text = sentence.text
        markers = list(_CONSEQUENCE.finditer(text))
        conditions = _clauses(text, list(_CONDITIONAL.finditer(text)))
        # One condition only: in "When A, X; when B, Y" or "X unless B, in which case Y" the last
        # consequence may be another condition's.
        if len(conditions) != 1 or not markers:
            continue
        condition = conditions[0]
        if _CONTRARY.fullmatch(condition.group(0)):
            continue  # "X unless C", "otherwise X": what happens when C does not hold
        if condition.start() < markers[-1].start():
            stated, answer = text[: markers[-1].start()], text[markers[-1].start() :]
        else:
            # The consequence first: "... will throw an error on any attempt to insert a NULL". Only
            # what follows ("will", "results in", "fails"): "X returns the names when asked" describes X.
            before = [m for m in markers if m.start() < condition.start() and _FOLLOWS.match(m.group(0))]
            if not before:
                continue
            stated, answer = text[condition.start() :], text[before[-1].start() : condition.start()]
            if _ATTEMPT.fullmatch(condition.group(0)):
                answer = _LEAD_IN.sub("", answer)
        # As negated as the question: "If autocommit is not enabled, ..." says nothing of when it is.
        if (_NEGATION.search(stated) is None) != (_NEGATION.search(q.text) is None):
            continue
        # The condition itself states the case: "If the client fails to complete each of these stages
        # within the configured time" is not "if a negative timeout value is configured for a stage".
        if overlap(q, stated, *line.headings[-1:]) < CONDITION_FIT:
            continue
        yield DocCandidate(
            page.url, answer.rstrip(" .;:,"), text, 1.0 + fit, "the consequence the sentence states"
        )


# What leads from a consequence into an attempt after it: "an error [on any] attempt to ...". A
# preposition goes only with the determiner after it: "will be turned on when ..." keeps its "on".
_LEAD_IN: Final = re.compile(
    r"(?:\s+(?:on|upon|for|at|with|in|by|during))?\s+(?:any|an|a|each|every|the)\s*$"
)
_ATTEMPT: Final = re.compile(r"(?i)attempts?|trying|tries")
_CONTRARY: Final = re.compile(r"(?i)unless|otherwise")
# A consequence that follows from a condition, as opposed to one that describes ("returns the names").
_FOLLOWS: Final = re.compile(r"(?:will|would|results? in|raises?|fails?)\b")


def _clauses(text: str, found: list[re.Match[str]]) -> list[re.Match[str]]:
    """The condition markers that open a clause of their own: "If an earlier version attempts to
    read ..." is one condition, not two ("attempts" within the "if" clause, no comma between).
    Only an attempt is folded so: "if A the pour will wait when B and will fail otherwise" is three."""
    kept: list[re.Match[str]] = []
    for match in found:
        within = kept and not re.search(r"[,;]", text[kept[-1].end() : match.start()])
        if within and _ATTEMPT.fullmatch(match.group(0)):
            continue
        kept.append(match)
    return kept


# The longest object taken for "What does S <verb> to ...?", in words.
_OBJECT_WORDS: Final = 8


def object_in_prose(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """ "What does SQLite use to implement file locking on Unix?": X of "SQLite uses X to implement ...",
    the sentence naming the subject, the verb in any form, the question's next two words after X,
    and every capitalised name the question gives after the verb ("Unix")."""
    verb, subject = q.noun or "", q.subject or ""
    after = re.search(rf"\b{re.escape(verb)} ((?:to|for|as) \w+)", q.text, re.IGNORECASE)
    if not verb or not subject or after is None:
        return
    stated = re.compile(
        rf"\b{re.escape(subject)} {re.escape(verb)}(?:s|es|d|ed)? ([^,;:]+?) {re.escape(after.group(1))}\b",
        re.IGNORECASE,
    )
    # What the object is for, as the question says it: its names ("on Unix") must all be said.
    purpose = q.text[after.start(1) :]
    named = re.findall(r"\b[A-Z][\w-]*", purpose)
    for page, line, sentence in sentences_of(pages):
        match = stated.search(sentence.text)
        if match is None or len(match.group(1).split()) > _OBJECT_WORDS:
            continue
        if not all(re.search(rf"\b{re.escape(name)}\b", sentence.text) for name in named):
            continue  # "... to implement locking on Unix" does not say what is used on Windows
        fit = overlap(q, sentence.text, *line.headings[-1:])
        yield DocCandidate(page.url, match.group(1), sentence.text, 1.0 + fit, f"what the subject {verb}s")


# '"-dirty" is appended to it': a literal, quoted, as the subject of the verb asked in the passive.
_PASSIVE_FIT: Final = 0.5


def passive_object(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """ "What does git describe --dirty append to its output when ...?": the quoted literal a sentence
    under the term asked about says "is appended" ('If the working tree has local modification "-dirty"
    is appended to it.'), the sentence holding half of the question's words with its term."""
    verb = q.noun or ""
    if len(verb) < 3 or not q.identifiers:
        return
    stem_of_verb = verb[:-1] if verb.endswith("e") else verb
    said = rf"(?:is|are|will be|gets?) {re.escape(stem_of_verb)}e?d\b"
    passive = re.compile(rf"([\"\u201c])([^\"\u201c\u201d]{{1,40}})[\"\u201d] {said}")
    for page, line, sentence in sentences_of(pages):
        if not under_named(line.terms, q.identifiers) and not about(line, sentence.text, q):
            continue
        found = passive.findall(sentence.text)
        if len(found) != 1:
            continue  # two literals said so ("-dirty" or "-broken"): the condition decides, not this
        fit = overlap(q, sentence.text, *line.terms[-1:], *line.headings[-1:])
        if fit >= _PASSIVE_FIT:
            yield DocCandidate(page.url, found[0][1], sentence.text, 1.0 + fit, f"what is {verb}ed")


# Two bounds as a sentence gives them: "between 1 (less compression) and 9 (more compression)",
# "from 0 to 255"; a bound may carry a bracketed gloss.
_BOUND: Final = r"-?\d[\d,.]*(?: \([^()]{1,40}\))?"
_RANGE_GIVEN: Final = re.compile(rf"\bbetween {_BOUND} and {_BOUND}|\bfrom {_BOUND} to {_BOUND}")
# The share of the question's words the sentence (with its heading) must hold, and the words that
# only frame a question for a range.
_RANGE_FIT: Final = 0.5
_RANGE_FRAME: Final = frozenset(stems("range within lie lies between value values must fall"))


def range_in_prose(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """ "Within what range must the value of X lie?": the one range a sentence about X gives."""
    q = replace(q, words=tuple(w for w in q.words if w not in _RANGE_FRAME))
    for page, line, sentence in sentences_of(pages):
        given = list(_RANGE_GIVEN.finditer(sentence.text))
        if len(given) != 1 or not about(line, sentence.text, q):
            continue
        fit = overlap(q, sentence.text, *line.terms[-1:], *line.headings[-1:])
        if fit >= _RANGE_FIT:
            yield DocCandidate(
                page.url, given[0].group(0), sentence.text, 1.0 + fit, "the range the sentence gives"
            )


# The share of the question's words a sentence (with its heading) must hold to give "a <noun> of V".
_STATED_FIT: Final = 0.5


def noun_of_value(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """ "What date do the functions assume ...?": the value a sentence gives as "a date of 2000-01-01"
    (with a digit in it). Not "the timeout is 0", which is as often a condition as a value."""
    if q.noun is None:
        return
    given = re.compile(rf"\b(?:a|an) (?i:{re.escape(q.noun)}) of ([^\s,;]*\d[^\s,;]*)")
    for page, line, sentence in sentences_of(pages):
        match = given.search(sentence.text)
        if match is None:
            continue
        fit = overlap(q, sentence.text, *line.headings[-1:])
        if fit >= _STATED_FIT and about(line, sentence.text, q):
            value = match.group(1).rstrip(".")
            yield DocCandidate(page.url, value, sentence.text, 1.0 + fit, f"the {q.noun} the sentence gives")
