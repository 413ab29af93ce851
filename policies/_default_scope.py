"""Whose default a sentence gives, and for which case and version (split out of `_doc_defaults`).

A default belongs to the parameter a sentence names last before it ("X, which is set to 5 by
default"), not to another one a form names ("The default for archive_mode is off") nor to the name
right before a bracket ("hash_multiplier (default 2.0)"); a description's subjectless default belongs
to its term. It is today's unless said of older versions ("with versions before 2.5", "prior to
version 5 it was 100"), and the question may ask an older one ("What was the default before version
9.5?": refused) or a case ("on a standby server", "for topics"): a default given per case ("3 for
queues and 1 for topics") answers only the case asked, with that case's value. A list default keeps
its rest ('"$user", public').
"""

from __future__ import annotations

import re
from typing import Final

from ._doc_identifiers import is_identifier
from ._doc_match import PLAIN, names, prefix_of, stems, term_name
from ._doc_questions import DocQuestion
from ._doc_returns import trim
from ._outline import clean
from ._questions import STOPWORDS
from ._sentences import stem

# What older versions did: "with Postfix versions before 2.5", "Postfix 2.4 and earlier", "Prior to
# PostgreSQL 14, ...", "Until version 13, ...", "older releases" (not "Unlike versions before 2.5, the
# default is ...", which is today's).
OLDER: Final = re.compile(
    r"\b(?:with|for|in|on) (?:[\w.-]+ )?(?:versions?|releases?) (?:before|prior to|older than|earlier than)\b"
    r"|\b\d+(?:\.\d+)* (?:and|or) (?:earlier|older)\b"
    r"|(?:^|[(;] ?)(?:prior to|before|until) (?:[A-Z][\w.-]* )?(?:versions? |releases? )?\d"
    r"|\b(?:older|earlier|previous) (?:versions|releases)\b",
    re.IGNORECASE,
)
# A default qualified by a version or a setting after it: "set to yes by default in Postfix 2.x and to no
# ... with compatibility_level 3" is not the default of today.
QUALIFIED_AFTER: Final = re.compile(
    # ("999 for SQLite versions prior to 3.32.0 or 32766 for SQLite versions after 3.32.0")
    r"(?: by default)? (?:(?:in|with|for|as of) (?:[A-Z][\w.-]* )?"
    r"(?:versions? (?:before |prior to |after |since |earlier than |later than |up to )?)?\d"
    # "set to yes by default when smtpd_tls_security_level is encrypt": a default under a condition (not
    # the value's absence: "if not given").
    r"|(?:when|if|unless) (?!not\b|no\b|none\b|omitted|unset|empty))"
)


def _code_before(text: str, at: int) -> list[re.Match[str]]:
    """The code-shaped names `text` gives before offset `at`, in order."""
    return [m for m in re.finditer(r"[\w.-]+", text[:at]) if is_identifier(m.group(0).rstrip(".,;:"))]


def named_last(text: str, at: int, q: DocQuestion) -> bool:
    """Whether the code-shaped name `text` gives last before `at` is the one the question asks about,
    in the same clause ("virtual_mailbox_limit ...; the message size limit, which is set to 10240000
    by default" gives the default of the message size limit)."""
    found = _code_before(text, at)
    if not found:
        return False
    last = found[-1]
    between = text[last.end() : at]
    # Right before it, and no clause, subject or condition between: "X of 1 instead of the default 100",
    # "X parameter which is set to 5 by default"; not "X to 5 for sites that accept 10 connections
    # instead of the default 20", nor "If X is yes then logging is set to on by default".
    if re.search(r"[,;:]|\b(?:the|then|if|when|so)\b", between) or len(between.split()) > 4:
        return False
    return any(names(i)[0] == last.group(0).rstrip(".,;:").casefold() for i in q.identifiers)


def last_named_another(text: str, at: int, q: DocQuestion, product: frozenset[str] = frozenset()) -> bool:
    """Whether the code-shaped name `text` gives last before `at` is another than the asked one, named
    after it: "after wal_sender_timeout of inactivity, ..., while the receiver uses wal_receiver_timeout,
    which defaults to 75 seconds" gives wal_receiver_timeout's default, not wal_sender_timeout's. The
    product the manual documents (`product`) is no other setting: "If no explicit UNITY_BUILD_MODE has
    been specified, CMake will default to BATCH" gives UNITY_BUILD_MODE's default."""
    code = [m for m in _code_before(text, at) if m.group(0).rstrip(".,;:") not in product]
    asked = {names(i)[0] for i in q.identifiers}
    named = [m for m in code if m.group(0).rstrip(".,;:").casefold() in asked]
    if not code or not named or code[-1] in named:
        return False
    # "For METHOD_SHA256 and METHOD_SHA512 ... the default is 5000": names joined share what follows.
    return re.fullmatch(r",? (?:and|or) |, ", text[named[-1].end() : code[-1].start()]) is None


def unasked_owner(text: str, at: int, q: DocQuestion) -> bool:
    """For a question naming no code: whether the snake_case name `text` gives last before `at` owns the
    default there and is not what the question describes ("a page read from disk costs
    vacuum_cost_page_miss (default 4)" asked "What does reading a page cost by default?": "miss" is
    not asked; "btree_skip_scan_max_distinct (default 100)" is no fillfactor)."""
    if q.identifiers:
        return False
    code = [m.group(0) for m in re.finditer(r"\b[a-z]\w*_\w+", text[:at])]
    if not code:
        return False
    asked = stems(q.text)
    return not all(stem(part) in asked for part in re.findall(r"[a-z]{3,}", code[-1].casefold()))


# A case the question asks the default in, after the name it asks about: "X on a standby server".
_QUALIFIER: Final = re.compile(r"^\s*(?:on|for|in|with|under|inside) (?:an?|the) ([\w -]+)$")


def asked_case(q: DocQuestion) -> list[str]:
    """The words of the case a question asks a code name's default in, when one ends it."""
    if not q.identifiers:
        return []
    last = q.text.rfind(q.identifiers[-1])
    match = _QUALIFIER.match(q.text[last + len(q.identifiers[-1]) :]) if last >= 0 else None
    if match is None:
        return []
    return [stem(w) for w in PLAIN.findall(match.group(1).casefold()) if w not in STOPWORDS]


def asks_term(term: str, q: DocQuestion) -> bool:
    """Whether a question naming no code names the term a description sits under, by one word of its
    name at least ("the default debugging level of an NNTP object" for NNTP.set_debuglevel; not "the
    default ESCAPE character" for QUOTE). A term of no words ("-<digit>") is not judged."""
    # Not a word of the case the default is asked in ("the default delimiter in csv format" names no FORMAT).
    held = stems(_CASE_ASKED.sub("", q.text)) & set(q.words)
    assigned = re.match(r"([A-Za-z_][\w -]*?)\s*=", clean(term))
    if assigned is not None:
        # An option given a value ("ADD SEQUENCES = boolean"): named by all its words ("the KEY parameter
        # of SET ADD TABLE" does not name ADD SEQUENCES).
        words = [stem(part) for part in PLAIN.findall(assigned.group(1).casefold()) if len(part) >= 3]
        return all(part in held or prefix_of(part, held) for part in words)
    name = re.sub(r"<[^>]*>", "", term_name(term))  # a placeholder names no term
    parts = [stem(part) for part in PLAIN.findall(name.casefold()) if len(part) >= 3]
    return not parts or any(part in held or prefix_of(part, held) for part in parts)


_CASE_ASKED: Final = re.compile(r"\b(?:in|for) (?:the )?[\w-]+ (?:format|mode)\b", re.IGNORECASE)
# The rest of a list its first item opens, to the sentence's end or a clause ('"$user", public',
# "localhost, ::1"): not "10, which ..." nor "60, meaning one minute".
LIST_REST: Final = re.compile(
    r"((?:, ?(?!(?:so|which|and|but|that|or|as|if|when|unless)\b)(?:\"[^\"]*\"|'[^']*'|[\w$:./-]+))+)"
    r"(?=,? (?:so|which|but|and)\b|[.;]?\s*$)"
)
# The case a default is given for: "\N (backslash-N) in text format", "peer for Unix-domain socket
# connections" (up to four words, to the clause's end).
_CASE_WORDS: Final = r"([\w/-]+(?: (?!and\b|or\b|but\b)[\w/-]+){0,3}?)"
_CASE_AFTER: Final = re.compile(
    rf"\s+(?:\([^)]*\)\s+)?(?:in|for) (?:the )?{_CASE_WORDS}(?: (format|mode|output|input))?"
    r"(?=[.,;]|\s+(?:and|but)\b|$)",
    re.IGNORECASE,
)
# The other cases after it: ", and an unquoted empty string in csv format", "and 1 for topics".
_OTHER_CASES: Final = re.compile(
    rf"(?:,|\band\b|\bbut\b)\s+(?:and\s+)?([^,;]+?) (?:in|for) (?:the )?{_CASE_WORDS}"
    r"(?= (?:format|mode|output|input)\b|[.,;]|$)",
    re.IGNORECASE,
)


def case_value(text: str, end: int, q: DocQuestion) -> str | None:
    """For a default given per case ("3 for queues and 1 for topics", "\\N in text format, and an
    empty string in csv format", "peer for Unix-domain socket connections and scram for TCP/IP
    connections"): the value of the case the question names by a word the other cases lack ("...
    for topics?": "1"), "" when it names another case or none, or None when the default ending at
    `end` is given for no case. A single case with no other beside it ("10 for each connection") is
    no choice of cases."""
    given = _CASE_AFTER.match(text, end)
    if given is None:
        return None
    asked = stems(q.text)
    others = _OTHER_CASES.findall(text[given.end() :])
    mine = stems(given.group(1)) - STOPWORDS
    theirs = set().union(*(stems(case) for _, case in others)) if others else set()
    if (mine - theirs) & asked:
        return None  # the case asked: the value as read
    for value, case in others:
        if (stems(case) - mine) & asked:
            return trim(value)
    return "" if others or given.group(2) else None


def word_before(text: str, at: int) -> str:
    """The word right before offset `at` (a bracket's owner: "hash_arena_multiplier (default 2.0)")."""
    words = text[:at].split()
    return words[-1] if words else ""


def names_another(before_value: str, q: DocQuestion) -> bool:
    """Whether the words of a default form before its value name code the question does not ask
    about: "The default for archive_mode is" gives archive_mode's default, not archive_command's."""
    if not q.identifiers:
        return False  # a question naming no code may name the parameter in words
    for word in re.findall(r"[\w.-]+", before_value):
        bare = word.rstrip(".,;:")
        if not is_identifier(bare) or any(names(i)[0] == names(bare)[0] for i in q.identifiers):
            continue
        # "the default sort key" asks for sort_key in words
        if not all(stem(part) in q.words for part in PLAIN.findall(bare.casefold())):
            return True
    return False


def older(text: str, at: int) -> bool:
    """Whether the default at `at` is said of older versions: "(with Postfix versions before 2.5, the
    default is ...)", within its bracket or its part of the sentence."""
    start = max(text.rfind("(", 0, at), text.rfind(";", 0, at), 0)
    return OLDER.search(text, start, at) is not None


# A question about an older version's default: "before version 9.5", "prior to 10", "in version 9",
# "What was the default ... in Postfix 2.4?" (not "in Postfix 3.0 and later", today's).
PAST_ASKED: Final = re.compile(
    r"\b(?:before|prior to|earlier than|older than|until|up to) "
    r"(?:[A-Z][\w.-]* )?(?:versions? |releases? )?\d"
    r"|\b(?:in|with|for) (?:[\w.-]+ )?(?:versions?|releases?) \d[\d.]*(?! (?:and|or) (?:later|newer|above))"
    r"|^what was\b.*\b\d+(?:\.\d+)*(?! (?:and|or) (?:later|newer|above))\b"
    r"|\b(?:earlier|older|previous|prior|former) (?:versions?|releases?)\b"
    r"|\b(?:previous|former|old|earlier|original|initial) default\b|\bused to (?:be|default)\b",
    re.IGNORECASE,
)


# "By default, how many simultaneous connections may a client open?": the noun counted, before the verb.
_COUNTED: Final = re.compile(
    r"\bhow many (?:[\w-]+ ){0,2}?([a-z]{3,}s) (?:may|can|could|does|do|did|is|are|was|were|will|would"
    r"|should|must|of|in|per|at|a|an|the)\b"
)
# What a number counts: "100 SMTP client processes" (a plural noun within three words after it).
_COUNTED_AFTER: Final = re.compile(r" (?:[A-Za-z][\w-]* ){0,2}?([a-z]{3,}s)\b")
# Units a count may be given in either way round ("how many seconds": "5 minutes").
_UNITS: Final = frozenset(
    stem(w) for w in ("seconds", "minutes", "hours", "days", "weeks", "months", "years", "bytes", "kilobytes")
)


def counts_another(question: str, text: str, end: int) -> bool:
    """Whether the number ending at `end` counts a noun other than the one a "how many N" question asks
    ("the default limit is 100 SMTP client processes", asked how many connections a client may open)."""
    asked = _COUNTED.search(question.casefold())
    counted = _COUNTED_AFTER.match(text, end)
    if asked is None or counted is None:
        return False
    nouns = {stem(asked.group(1)), stem(counted.group(1))}
    return len(nouns) == 2 and not nouns <= _UNITS


# "how long is each response delayed by default?": a duration asked (not "how long can a pattern be",
# a length): "how long" and a verb of time.
_ASKS_DURATION: Final = re.compile(
    r"(?i)\bhow long\b.*\b(?:delay|wait|take|last|keep|kept|stay|retain|sleep|hold|remain|cache|live)"
)
# What makes a bare number a duration: a unit after it, or a time word naming what it sets.
_TIMED: Final = re.compile(
    r"(?i)time|delay|sleep|interval|timeout|wait|expir|\bage\b|ttl|period|duration|second|minute|hour|\bdays?\b"
)


def untimed(question: str, text: str, start: int, end: int) -> bool:
    """Whether a bare number given as a default at `start:end` answers no "how long" question: nothing
    within 40 characters before it, nor the word after it, says it is a time ("$smtpd_soft_error_limit
    (default: 10)" is a count of errors, asked how long each response is delayed)."""
    if _ASKS_DURATION.search(question) is None or re.fullmatch(r"[\d.,]+", text[start:end].strip()) is None:
        return False
    return _TIMED.search(text, max(0, start - 40), min(len(text), end + 12)) is None
