"""The shape of name each "which" noun asks for, and the names a sentence calls by a noun.

Split from `_doc_which`: a function is called `f()`, an option starts with `-`, a macro is spelled
SQLITE_MAX_LENGTH, a manual page "local(8)" is a program's (sections 1 and 8) or a C function's (2
and 3), a file ("main.cf") is neither a parameter nor an option. A sentence may call a name by the
noun asked ("the preprocessor macro SQLITE_MAX_LENGTH", "an SQLITE_BUSY error"): `typed_name` finds the
one such name where the sentence says something of what the question asks, and a name denied or
set aside in its clause ("not through the saslauthd(8) daemon", "unlike X") answers nothing.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from ._doc_identifiers import is_identifier
from ._doc_match import clause_start, names, overlap
from ._doc_questions import DocQuestion
from ._questions import STOPWORDS
from ._sentences import stem

CODE_TOKEN: Final = re.compile(r"[-\w.]+(?:\([^)\s]*\)|\[[^\]\s]*\])?(?:/[-\w]+)?")
# A sentence calling a name by the noun asked ("the preprocessor macro SQLITE_MAX_LENGTH") answers with
# fewer of the question's words, for what it adds to the score.
TYPED_FIT: Final = 0.5
TYPED: Final = 0.25
# A preprocessor macro is spelled in capitals with an underscore: SQLITE_MAX_LENGTH.
MACRO: Final = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
# A module's own exception is often plain `error` ("struct.error", "socket.error").
EXCEPTION_NAME: Final = re.compile(r"[a-z](?:Error|Exception|Warning|Exit|Interrupt|Iteration)$|\.error$")
# Nouns for a thing that is not called: a call ("get()") is a function, not one of these.
_NOT_CALLED: Final = frozenset(
    {"exception", "attribute", "constant", "variable", "module", "field", "property", "setting", "type",
     "value", "format", "mode", "level", "header", "keyword", "pragma", "macro", "table", "error"}
)  # fmt: skip
# A program's first line, quoted as an example: "import crypt", "from hmac import ...", "def login():",
# or an SQL statement, its lines perhaps numbered ("1SELECT * FROM pgr_TSP(", "UPDATE vertices SET ...").
PROGRAM_EXAMPLE: Final = re.compile(
    r"(?:import [\w.]+|from [\w.]+ import|def \w+\("
    r"|\d*\s?(?:\$\$)?(?:SELECT\b.*\bFROM\b|UPDATE \w+ SET\b|INSERT INTO\b|DELETE FROM\b|WITH \w+ AS \("
    r"|CREATE (?:TABLE|VIEW|INDEX)\b)"
    # A command invoked with a keyword or a placeholder: "math(EXPR <variable> ...)", "add_test(NAME ...".
    r"|[a-z_]\w*\((?:[A-Z][A-Z0-9_]+\b|<\w)"
    # A line of a program, its statement keyword in lower case: "if not compare_hash(hashed, ...):".
    r"|(?:if|elif|while|for|with|return|raise|assert|try|except)\b[^.]*(?:\(|:$)"
    # ... or an assignment: "hashed = crypt.crypt(plaintext)".
    r"|[A-Za-z_][\w.]*(?:\[[^\]]*\])? = \S)"
)
# A command's synopsis, its options in brackets: "[RETURN_VALUE <result-var>] [QUIET]".
SYNOPSIS_OPTIONS: Final = re.compile(
    r"\[[A-Z][A-Z0-9_]*(?: <[^<>\]]+>)*\](?:\s+\[[A-Z][A-Z0-9_]*(?: <[^<>\]]+>)*\])+"
)
# A configuration or source file by its extension: "main.cf", "postgresql.conf", "setup.py".
_FILE_NAME: Final = re.compile(r"\w\.(?:cf|conf|cfg|ini|txt|html?|c|h|json|ya?ml|xml|toml)$")
# A manual page named with its section: "local(8)", "postconf(5)", "git-describe(1)".
MAN_PAGE: Final = re.compile(r"[A-Za-z][\w.-]*\(([1-9])[a-z]?\)")
_MAN_SECTION: Final = re.compile(r"\([1-9][a-z]?\)$")
PROGRAM_NOUNS: Final = frozenset({"program", "daemon", "server"})
# What such a page documents, by section: a program (1 and 8) or a C interface (2 and 3); 5 is a file's.
_PROGRAMS: Final = frozenset({"command", "program", "daemon", "server"})
# A configuration parameter's term with its type: "max_senders (integer)", "journal_level (enum)". It
# names a setting, never a program, a function or a command, whatever its bracket looks like.
SETTING_TERM: Final = re.compile(
    r"\s\((?:integer|int|string|boolean|bool|enum|real|floating point|float|double|time|size)\)\s*$",
    re.IGNORECASE,
)
NOT_SETTINGS: Final = frozenset(
    {"program", "daemon", "server", "command", "subcommand", "tool", "utility", "function", "method",
     "interface", "class", "module", "macro", "exception", "error", "file", "flag", "decorator"}
)  # fmt: skip
_MAN_PAGE_NOUNS: Final = {
    "1": _PROGRAMS,
    "8": _PROGRAMS,
    "2": {"function", "interface"},
    "3": {"function", "interface"},
}


def shape_ok(identifier: str, noun: str | None) -> bool:
    if noun in _NOT_CALLED and "(" in identifier:
        return False
    if _FILE_NAME.search(identifier) is not None and noun not in ("file", "module"):
        return False  # "a main.cf parameter" names the file the parameter is set in
    page = MAN_PAGE.fullmatch(identifier)
    if page is not None and noun not in _MAN_PAGE_NOUNS.get(page.group(1), ()):
        # "local(8)" names a program's manual page, not a parameter or an option; "master(5)" a file format.
        return False
    if noun == "exception":
        return EXCEPTION_NAME.search(identifier) is not None
    if noun == "error":
        # An error is raised as an exception ("ValueError") or returned as a code ("SQLITE_BUSY").
        return EXCEPTION_NAME.search(identifier) is not None or MACRO.fullmatch(identifier) is not None
    if noun != "class" and EXCEPTION_NAME.search(identifier) is not None:
        return False  # an exception answers a question asking for one (or for a class), not a format
    if noun in ("function", "method", "decorator", "interface"):  # a C interface is a function
        return identifier.endswith(")") or "(" in identifier
    if noun == "flag":
        # A command-line flag, or a module's flag constant ("gc.DEBUG_SAVEALL").
        return identifier.startswith("-") or MACRO.fullmatch(identifier.rsplit(".", 1)[-1]) is not None
    if noun == "option":
        return identifier.startswith("-")
    if noun == "item":
        return "[" in identifier
    if noun == "macro":
        return MACRO.fullmatch(identifier) is not None
    return not identifier.startswith("-")


def names_the_asked(token: str, q: DocQuestion) -> bool:
    """Whether `token` is the name of what the question asks for ("journal_mode" of "which journal
    mode"): each of its words is the asked noun or a word of the question."""
    if q.noun is None:
        return False
    parts = [stem(part) for part in re.findall(r"[a-z]+", token.casefold())]
    asked = {*q.words, stem(q.noun), q.noun}
    return len(parts) > 1 and q.noun in token.casefold() and all(part in asked for part in parts)


_SETTING_NAME: Final = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def another_setting(token: str, q: DocQuestion) -> bool:
    """Whether `token` names a setting ("smtpd_hard_error_limit") where the question asks for the value
    of another one it names ("What smtpd_soft_error_limit value ...?"): a name is no value."""
    asked = [i for i in q.identifiers if _SETTING_NAME.fullmatch(i)]
    bare = token.rstrip(".,;:")
    return (
        q.noun == "value" and bool(asked) and _SETTING_NAME.fullmatch(bare) is not None and bare not in asked
    )


# Nouns a question asks a value of, and the kinds of name a sentence calls a thing it names.
_VALUE_NOUNS: Final = frozenset({"mode", "level", "strategy", "format", "type", "value", "action"})
_NAME_KINDS: Final = re.compile(
    r"\)?\s+(?:pragma|function|method|interface|command|subcommand|statement|option|directive|parameter"
    r"|setting|variable|module|macro|program)s?\b"
)


def called_a_name(text: str, end: int, q: DocQuestion) -> bool:
    """Whether the sentence calls the token ending at `end` a pragma, function, option ... where the
    question asks for a mode, a level or a format: "force a checkpoint using the wal_checkpoint
    pragma" names no checkpoint mode."""
    return q.noun in _VALUE_NOUNS and _NAME_KINDS.match(text, end) is not None


# A name followed by a value of its own: "ExpiresActive On", "LogLevel 3", "cache_size = 2000".
_ITS_VALUE: Final = re.compile(r"(?: =)? (?:[Oo]n|[Oo]ff|[Yy]es|[Nn]o|-?\d+)\b")


def set_to_a_value(text: str, end: int, q: DocQuestion) -> bool:
    """Whether the token ending at `end` is a setting given its own value ("ExpiresActive On" in an
    example) where the question asks for a value, a mode or a level: the name set is no value."""
    return q.noun in _VALUE_NOUNS and _ITS_VALUE.match(text, end) is not None


def typed_name(
    q: DocQuestion, said: DocQuestion, text: str, own: set[str], *context: str, subject: str = ""
) -> str | None:
    """The one code-shaped name `text` calls by the noun asked ("the macro SQLITE_MAX_LENGTH", "the
    SQLITE_BUSY error", "a table named sqlite_stat1"), if exactly one, in a sentence holding half of
    the question's words and at least three, with its `context` (the name's own letters and the noun's
    kind not counted: "the dbm.gnu module" holds no "dbm" that "Which dbm module ..." asks for). The
    page's `subject` ("git tag" of git-tag(1)) counts toward them only where the sentence and its
    context hold two words of their own: it says where the sentence is, not what it says."""
    if q.noun is None or not q.noun.isalpha():
        return None
    found = {
        token
        for at, token in called(q, text)
        if (is_identifier(token) or MACRO.fullmatch(token) is not None)
        and shape_ok(token, q.noun)
        and names(token)[0] not in own
        and not given_word(token, q)
        and not names_the_asked(token, q)
        and not denied_before(text, at)
    }
    if len(found) != 1:
        return None
    (token,) = found
    rest = text.replace(token, " ")
    held = overlap(said, rest, *context) * len(said.words)
    if subject and held >= 2:
        held = overlap(said, rest, *context, subject) * len(said.words)
    return token if held >= max(3, TYPED_FIT * len(said.words)) else None


def called(q: DocQuestion, text: str) -> list[tuple[int, str]]:
    """Every name `text` calls by the noun asked, where it starts: "the macro X", "an X error", "a
    table named X"."""
    if q.noun is None or not q.noun.isalpha():
        return []
    before = re.finditer(rf"\b{q.noun}s? (?:named |called )?[\"\u201c]?({CODE_TOKEN.pattern})", text)
    after = re.finditer(rf"({CODE_TOKEN.pattern})[\"\u201d]? {q.noun}s?\b", text)
    return [(m.start(1), m.group(1).rstrip(".,;:")) for m in (*before, *after)]


# What denies or sets aside a name before it in its clause: "not through the saslauthd(8) daemon",
# "unlike an SQLITE_MISUSE error", "is no longer done with the macro X", "even if the X parameter".
_DENIED: Final = re.compile(
    r"(?i)\b(?:not|never|no longer|unlike|instead of|rather than|even if|except|other than)\b|n't\b"
)


def denied_before(text: str, at: int) -> bool:
    """Whether the clause holding offset `at` denies or sets aside what it names there."""
    return _DENIED.search(text, clause_start(text, at), at) is not None


# What replaces a thing is not the thing: "This parameter was replaced by flusher_delay ... and is
# ignored" says flusher_delay is not what is ignored; "use strpos instead" is not the deprecated one.
_REPLACED_BY: Final = re.compile(
    r"\b(?:replaced|superseded|succeeded|obsoleted) by (?:the )?$"
    r"|\bin favou?r of (?:the )?$|\brenamed (?:to|as) $"
)
_USE_INSTEAD: Final = re.compile(r"\buse (?:the )?$")
_INSTEAD_AFTER: Final = re.compile(r"\S* (?:\w+ ){0,2}?instead\b")
_ASKS_REPLACEMENT: Final = re.compile(
    r"\b(?:replac|supersed|succe|instead|favou?r|renam|new name|alternative)"
)


def a_replacement(text: str, at: int, end: int, q: DocQuestion) -> bool:
    """Whether the name at `at` (ending at `end`) is what replaces the thing the sentence is about,
    when the question does not ask for a replacement."""
    if _ASKS_REPLACEMENT.search(q.text.casefold()):
        return False
    before = text[max(0, at - 40) : at]
    if _REPLACED_BY.search(before):
        return True
    return _USE_INSTEAD.search(before) is not None and _INSTEAD_AFTER.match(text, end) is not None


def given_word(token: str, q: DocQuestion) -> bool:
    """Whether the question names `token` as a plain word, given and not asked ("Which server keeps
    the statistics that smtpd uses?" is not answered by smtpd(8))."""
    return _MAN_SECTION.sub("", token).casefold() in _plain_words(q.text)


@functools.lru_cache(maxsize=64)
def _plain_words(question: str) -> frozenset[str]:
    """The question's words as written, case-folded: read once per question, not once per token."""
    return frozenset(re.findall(r"[a-z][\w-]*", question.casefold()))


_ASKING_AUXILIARIES: Final = frozenset(
    {"is", "are", "was", "were", "does", "do", "did", "can", "should", "must", "will", "would", "may", "be"}
)


def object_words(q: DocQuestion) -> list[str]:
    """The first two content words after the verb of "which <noun> <verb> ...", as stems: what the
    noun's name does something to ("sets the maximum size": maximum, size). A sentence that calls a
    name by the noun says it of these, or says something else ("binds to the IP address" is not
    "limits the number of recipients")."""
    text = q.text.casefold()
    at = re.search(rf"\b{re.escape(q.noun or '')}s?\b", text) if q.noun else None
    if at is None:
        return []
    after = re.findall(r"[a-z][\w-]*", text[at.end() :])
    while after and after[0] in _ASKING_AUXILIARIES:
        after = after[1:]
    # The verb, unless an auxiliary stood for it before an article ("is an alternative to ...").
    if after and after[0] not in STOPWORDS:
        after = after[1:]
    return [stem(word) for word in after if word not in STOPWORDS][:2]


def assignment_side(text: str, start: int, end: int, noun: str | None) -> bool:
    """Whether the token at `start:end` is the wrong side of an assignment for `noun`: the value of
    one ("-DMY_VAR=SomeValue") is no name, and the setting assigned ("virtual_alias_maps =
    hash:/etc/postfix/virtual") is no command, program or function."""
    if text[start - 1 : start] == "=":
        return True
    return noun in NOT_SETTINGS and re.match(r"\s*=(?!=)", text[end:]) is not None
