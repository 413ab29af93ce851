"""The short span a chosen sentence answers with, for `ExtractivePolicy` (split out of `_extractive_score`).

The sentence is the evidence; the answer is the span of the asked type in it: the place after
a preposition of place, the name (the doer after "by", for "which N" the name the sentence
opens with and types as an N, the longest otherwise), the date or century beside what is asked,
the counted amount (in a unit of the measure "how far/long/old" asks). Spans are taken as the
text writes them, so the gate finds the answer in the quote; no span of the type means the
sentence itself, which the finish then refuses for a typed question.
"""

from __future__ import annotations

import re
from typing import Final

from ._amounts import amount, measured
from ._extractive_score import candidate_positions, capitalized_runs
from ._places import as_written, where_answer
from ._questions import CHOOSES_ONE, STOPWORDS, Question
from ._sentences import POINTING_BACK, stem, words
from ._when import when_answer


def short_answer(question: Question, text: str) -> str | None:
    """A short span answering the question's type, if one stands out; None to answer with the sentence."""
    span = _short_answer(question, text)
    if span is None:
        return None
    if span in _PLACEHOLDERS:
        return None  # "group: X # 0 for coordinator": a placeholder, not a name (unlike C, a language)
    endpoint = (
        re.match(rf"{re.escape(span)} (/[\w./{{}}<>-]*)", text[text.find(span) :])
        if span in _METHODS
        else None
    )
    # "the GET /metrics endpoint": a request method names no endpoint; with its path it does.
    return f"{span} {endpoint.group(1)}" if endpoint is not None else span


# Letters that stand for a value to fill in.
_PLACEHOLDERS: Final = frozenset({"X", "Y", "Z"})
# The request methods of HTTP, which an endpoint's path follows ("GET /history").
_METHODS: Final = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


def _short_answer(question: Question, text: str) -> str | None:
    if question.kind == "when":
        return when_answer(question, text)
    positions = candidate_positions(question, text)
    found = [span for _, span in positions]
    if not found:
        return _opening_name(question, text) if question.kind == "who" else None
    if question.kind == "where":
        return where_answer(question, text, positions)
    if question.kind == "which":
        subject = _typed_subject(question.text, text)
        if subject is not None and stem(subject.split()[0]) not in set(question.entities):
            return subject
        titled = _titled_by_noun(question, text, positions)
        if titled is not None:
            return titled
    if question.kind in ("who", "which"):
        return _name(question, text, positions)
    if question.kind in ("how_many", "how_much"):
        measure = re.search(
            r"\bhow (far|long|tall|high|wide|deep|heavy|old)\b(?! ago)", question.text.casefold()
        )
        if measure is not None:
            return measured(text, measure.group(1), question.terms)
        found_amount = amount(question, text, candidate_positions(question, text))
        if (
            found_amount is not None
            and _SHARE.search(question.text)
            and not _share_of(question, text, found_amount)
        ):
            return None
        return found_amount
    return as_written(found[0], text)


# A question asking for a part of a whole, and what writes one: "75 percent", "2%", "a third".
_SHARE: Final = re.compile(r"(?i)\b(?:what|which) (?:share|percentage|percent|proportion|fraction)\b")
_PART: Final = re.compile(r"(?i)%|\bper ?cent\b|\b(?:half|third|quarter|fifth|tenth)s?\b")


def _share_of(question: Question, text: str, found: str) -> bool:
    """Whether `found` answers "What share of W ...?": a part ("75 percent", "2%", "a third", not "3.1
    million"), in a clause of `text` holding half of the question's words ("about 75 percent is covered
    by forest, and 23 million hectares are used for timber" says no share used for timber)."""
    if not _PART.search(found):
        return False
    at = text.find(found)
    if re.search(r"\bby $", text[:at]):
        return False  # "fell by 1.5 percent": a change, not the share
    clause = re.split(r"[,;]| and | but ", text[:at])[-1] + re.split(r"[,;]| and | but ", text[at:])[0]
    held = {stem(word.casefold()) for word in words(clause)}
    terms = [t for t in question.terms if not t.startswith(("share", "percent", "proport", "fraction"))]
    found_terms = [t for t in terms if t in held or any(_same_stem(t, h) for h in held)]
    return bool(terms) and len(found_terms) >= len(terms) / 2


def _same_stem(one: str, other: str) -> bool:
    """Two stems of one word from four letters on ("serv" / "server")."""
    return min(len(one), len(other)) >= 4 and (one.startswith(other) or other.startswith(one))


# "Which company owns ...", "Which American actor starred ...": the verb right after the asked noun.
_WHICH_DOES: Final = re.compile(r"\s*[Ww]hich\s+(?:[\w'-]+\s+){0,3}?[a-z]{3,}\s+([a-z]{3,}(?:s|ed))\b")


def _name(question: Question, text: str, positions: list[tuple[int, str]]) -> str | None:
    """The name answering "who" or "which": the doer after "by" when "by" follows the asked verb
    ("written by the monk Aldred Lode"; "... which was opened by Ines Duarte" names who opened it,
    not who built it), else the longest name, and only as the text writes it (a run read across a
    comma, "Smith, Jones and Brown" or "Ada Brook, Leeds", may be one name of a list or a name and
    a place: no answer)."""
    tokens = words(text)
    # "Which company owns ...?" asks its verb as "Who owns ...?" does.
    which = _WHICH_DOES.match(question.text)
    forms = verb_forms(question.text) or (verb_forms(f"Who {which.group(1)}") if which else None)
    entities = set(question.entities)
    agents = [
        run
        for i, run in positions
        if forms is not None and _agent(tokens, i, forms, entities) and not _describes_noun(text, run)
    ]
    ranked = sorted(agents or [run for _, run in positions], key=lambda run: -len(run.split()))
    return ranked[0] if ranked[0] in text else None


_IRREGULAR_PAST: Final = {
    "wrote": "write", "led": "lead", "built": "build", "won": "win", "made": "make", "sang": "sing",
    "drew": "draw", "took": "take", "gave": "give", "began": "begin", "became": "become", "bought": "buy",
    "sold": "sell", "taught": "teach", "brought": "bring", "held": "hold", "told": "tell", "ran": "run",
    "spoke": "speak", "fought": "fight", "chose": "choose", "sent": "send", "paid": "pay", "met": "meet",
}  # fmt: skip
# "Which American character actor ...?" -> "actor": the last word before a verb or a relative pronoun; any
# verb in -s, -ed or irregular ("wrote") with an object counts ("Which firm owns the hotel ...?": its doer).
_WHICH_NOUN: Final = re.compile(
    r"\b[Ww]hich\s+((?:[\w'-]+\s+){0,6}?)([a-z][a-z-]{2,})(?=\s+(?:is|was|are|were|did|does|do|has|had|have"
    r"|who|that|which|whose|starred|played|won)\b|\s*[?,]"
    rf"|\s+(?:[a-z][a-z-]*(?:s|ed)(?: and [a-z]+(?:s|ed))?|{'|'.join(_IRREGULAR_PAST)})"
    r" (?:the|a|an|his|her|its|their)\b|\s+[a-z]{3,}ed (?:with|for|in|on|at|under|alongside)\b)"
)
# Words a sentence may open with before its subject, capitalized as its first word.
_OPENERS: Final = frozenset(
    {"today", "now", "then", "later", "however", "meanwhile", "yesterday", "here", "there", "also", "still"}
)
# What may follow a name after a comma and still be the name: a degree, a suffix, initials of honours.
_SUFFIX: Final = r"(?:Ph\.?D\.?|Jr\.?|Sr\.?|M\.?D\.?|[A-Z]{2,5})"
_SUBJECT: Final = r"(?P<name>[A-Z][\w.'&-]*(?:\s+(?:of|the|de|van|von)?\s*[A-Z][\w.'&-]*)*)"


def _titled_by_noun(question: Question, text: str, positions: list[tuple[int, str]]) -> str | None:
    """The one name the text writes right after the noun a "which N" question asks ("in collaboration
    with choreographer Graeme Murphy of the Sydney Dance Company" -> "Graeme Murphy" for "Which
    choreographer ...?"), not one the question writes."""
    noun = which_noun(question.text)
    if noun is None or CHOOSES_ONE.search(question.text) is not None:
        return None  # (a choice between names the question offers is answered by one of them)
    titled = {
        run
        for _, run in positions
        if re.search(rf"\b{re.escape(noun)}s? {re.escape(run)}", text, re.IGNORECASE) is not None
        and stem(run.split()[0]) not in set(question.entities)
    }
    return as_written(titled.pop(), text) if len(titled) == 1 else None


def which_noun(question: str) -> str | None:
    """The noun a "which N" question asks for: "Which American character actor starred ...?" -> "actor"."""
    asked = _WHICH_NOUN.search(question)
    return asked.group(2) if asked is not None else None


def _typed_subject(question: str, text: str) -> str | None:
    """For "Which American character actor starred in ...?", the name a sentence opens with and then
    types as that noun: "Don Davis, PhD (1942 - 2008) was an American character actor ..." -> "Don
    Davis". A sentence that opens with a name and says what it is answers which one it is."""
    asked = _WHICH_NOUN.search(question)
    if asked is None:
        return None
    noun = re.escape(asked.group(2))
    typed = re.match(
        rf"{_SUBJECT}(?:,\s*{_SUFFIX})?(?:\s*\([^()]*\))?,?\s+(?:is|was|are|were)\s+(?:a|an|the)\s+"
        rf"(?:(?!(?:who|which|that|whose|of|to|for|with)\b)[\w'-]+\s+){{0,4}}{noun}s?\b",
        text,
    )
    # The noun must be what the subject is, not a word describing another: "a film director",
    # "an actor's agent", "the team captain" type no film, actor or team.
    if typed is None or not _HEAD_ENDS.match(text, typed.end()):
        return None
    # "Richard Dreyfuss is an American actor who turned down the role of Quint": what the relative
    # clause says he did must be what the question asks ("played"), or he is no answer.
    relative = _RELATIVE_VERB.match(text, typed.end())
    if relative is not None:
        asked_verb = which_verb(question, asked.end(2))
        if asked_verb is None or not says_verb(relative.group(1), asked_verb):
            return None
    name = typed.group("name").split()
    if name[0].casefold() in _OPENERS and len(name) > 1:
        name = name[1:]  # "Today Robert Shaw is the actor ...": the name is Robert Shaw
    if name[0].casefold() in STOPWORDS or name[0].casefold() in _OPENERS or name[0].casefold().endswith("ly"):
        return None  # "In Paris, the Louvre is ...": a sentence opening with no name types none
    return " ".join(name)


_RELATIVE_VERB: Final = re.compile(r"\s+(?:who|that|which)\s+([a-z]+)\b")


def which_verb(question: str, after_noun: int) -> frozenset[str] | None:
    """The verb a "which N" question asks of its N ("Which actor played Quint?" -> "played"), as
    `verb_forms` gives a verb; None when no verb follows the noun."""
    verb = re.match(r"\s+(?:who\s+|that\s+)?([a-z][a-z-]*)\b", question[after_noun:])
    if verb is None or verb.group(1) in _AUX_AFTER_WHO:
        return None
    return verb_forms(f"Who {verb.group(1)}")


# What may follow the noun a subject is typed as: the end of the phrase (a verb, a relative word,
# a preposition, punctuation), not another noun or a possessive.
_HEAD_ENDS: Final = re.compile(
    r"\s*(?:[,.;:()\-\u2013\u2014]|$)|\s+(?:who|which|that|whose|in|of|from|for|with|and|or|at|on|by|best|"
    r"known|born|based|since|until|to|as|is|was|during|between|after|before)\b"
)


# Past tenses whose base form shares no four letters with them ("wrote" / "writer").
_AUX_AFTER_WHO: Final = frozenset(
    {
        "is",
        "was",
        "are",
        "were",
        "has",
        "had",
        "have",
        "did",
        "does",
        "do",
        "can",
        "could",
        "will",
        "would",
        "may",
    }
)


def verb_forms(question: str) -> frozenset[str] | None:
    """The verb of "Who <verb> ...?" and, for an irregular past, its base ("wrote" -> "write"), for
    "co-founded" "founded" too ("founded by A and B" says it); None for "Who is ...?" and the like."""
    asked = re.match(r"\s*[Ww]ho\s+([a-z][a-z-]*)\b", question)
    if asked is None or asked.group(1) in _AUX_AFTER_WHO:
        return None
    verb = asked.group(1)
    return frozenset({verb, _IRREGULAR_PAST.get(verb, verb), verb.removeprefix("co-")})


def says_verb(word: str, forms: frozenset[str]) -> bool:
    """Whether `word` is a form of the asked verb (`verb_forms`): the same stem ("founded"/
    "founding"), its doer ("director", "founder", "writer") or, for a base ending in "e", any
    ending on it ("written"). Not a look-alike: "found" (of "find") is no form of "founded",
    "designated" none of "designed", "completed" none of "composed"."""
    folded = word.casefold()
    if folded == "found" and "found" not in forms:
        return False
    for form in forms:
        root = stem(form)
        if (
            folded == form
            or stem(folded) == root
            or folded in (root + "or", root + "er", root + "ors", root + "ers")
        ):
            return True
        if (
            form.endswith("e")
            and len(form) >= 4
            and folded.startswith(form[:-1])
            and len(folded) <= len(form) + 3
        ):
            return True
    return False


def _agent(tokens: list[str], at: int, forms: frozenset[str], entities: set[str]) -> bool:
    """Whether the run at `at` follows "by" (at most two words between) right after the asked verb,
    in a sentence that names what the question names before it ("The Seafarer is ... written by
    X"; not "Borg, founded by Pedro Lima, bought Acme", where the founding is Borg's)."""
    for by in range(max(1, at - 3), at):
        if tokens[by].casefold() == "by" and says_verb(tokens[by - 1], forms):
            return bool(entities) and bool(entities & _clause_stems(tokens, by - 1))
    return False


# Words that may follow a name and end it: a preposition, a conjunction, a relative word.
_AFTER_NAME: Final = frozenset(
    {"in", "on", "at", "and", "or", "of", "for", "with", "to", "from", "during", "after", "before", "as",
     "who", "which", "that", "while", "when", "since", "until", "the", "is", "was", "has", "had"}
)  # fmt: skip


def _describes_noun(text: str, run: str) -> bool:
    """Whether `run` is a capitalized word describing the noun after it ("built by Italian masons"),
    not a name: a lowercase word other than a preposition or conjunction follows it."""
    following = re.search(rf"{re.escape(run)}\s+([a-z]+)\b", text)
    return following is not None and following.group(1) not in _AFTER_NAME


def _clause_stems(tokens: list[str], end: int) -> set[str]:
    """The stems of the words before `end` back to the sentence start (the words a participle's
    subject may be among)."""
    return {stem(t) for t in tokens[:end]}


def _opening_name(question: Question, text: str) -> str | None:
    """The name a sentence opens with, for "Who <verb> ...?" when the sentence names no one else and
    the asked verb follows the name: "Lenin wrote ... that imperialism was the highest stage of
    capitalism" answers who wrote it. Not "Dickens admired the bridge, which was built ..." (another
    verb), "Originally built as ..." (an adverb), nor a name the question states."""
    forms = verb_forms(question.text)
    tokens = words(text)
    first = tokens[0].casefold() if tokens else ""
    if forms is None or not first or first in STOPWORDS or first in POINTING_BACK or first.endswith("ly"):
        return None
    asked = set(question.terms) | set(question.entities) | {stem(t) for t in words(question.text)}
    runs = capitalized_runs(["", *tokens], asked)
    opening = next((run for begin, run in runs if begin == 1), None)
    written = as_written(opening, text) if opening is not None else None
    after = re.match(rf"{re.escape(written)} ([a-z]+)", text) if written is not None else None
    if written is None or after is None or not says_verb(after.group(1), forms):
        return None
    # What it did must be done to what the question names: "Costa founded the firm that later
    # bought Acme Robotics" does not say who founded Acme Robotics.
    if question.entities and not _object_is_asked(question, text[after.end() :]):
        return None  # "Goethe wrote an essay on Hamlet" says who wrote the essay, not Hamlet
    return written


def _object_is_asked(question: Question, rest: str) -> bool:
    """Whether the verb's object (the words after it) is what the question names: its name after
    articles and words the question also says ("directed the film Night Harbour")."""
    for word in words(rest)[:5]:
        if word.casefold() in ("the", "a", "an"):
            continue
        if stem(word) in set(question.entities):
            return True
        if stem(word) not in set(question.terms):
            return False
    return False
