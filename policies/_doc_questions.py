"""Questions about software documentation: which ones the extractive policy answers with a span.

A documentation question names code (an identifier such as `gzip.compress`, `-d`,
`Z_RLE`) or asks about a default, a version, a function or option, or what something
does. `doc_question` sorts it into one of the kinds `_doc_answer` extracts an answer
for, or returns None: the question then goes to the general extractive path. A
documentation question of a kind no extractor handles is refused, not guessed
(`unhandled`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ._bound_words import ASKS_BOUND, bound_of
from ._default_asked import asks_default, left_out_words
from ._doc_identifiers import CAMEL, code_tokens, named_by_kind
from ._questions import STOPWORDS
from ._sentences import stem

DocKind = Literal[
    "default", "version", "which", "does", "meaning", "unit", "value", "stated", "keyword", "code"
]

# What a "which" question may ask for, and the shape of identifier each names.
NOUNS: Final = frozenset(
    {
        "function", "method", "class", "attribute", "option", "argument", "parameter", "constant",
        "exception", "module", "command", "flag", "item", "variable", "field", "property", "setting",
        "keyword", "decorator", "type", "value", "rfc", "format", "header", "mode", "level",
        "pragma", "macro", "interface", "table", "error", "strategy", "action", "directive", "server",
        "daemon", "program", "subcommand",
    }
)  # fmt: skip
# "Which parameter sets the default isolation level?", "Which statement overrides the global default
# properties?": the parameter or statement asked for, not the default.
_SETS_DEFAULT: Final = re.compile(
    r"\b(?:sets?|controls?|determines?|specif(?:y|ies)|configures?|changes?|selects?|overrides?) the "
    r"(?:[\w-]+ ){0,2}default\b"
)
# What a "which" question names by an identifier, whatever else it says ("by default").
_NAMED_THINGS: Final = frozenset(
    {"function", "method", "class", "exception", "module", "decorator", "variable"}
)
_CODE_WORDS: Final = frozenset(
    {"python", "module", "function", "method", "attribute", "argument", "parameter", "option", "constant",
     "exception", "default", "command", "subcommand", "flag", "decorator", "keyword", "api", "rfc"}
)  # fmt: skip
# Words that frame a documentation question without saying what it is about.
FRAME: Final = frozenset(
    {
        "default", "defaults", "value", "values", "use", "uses", "used", "using", "usual", "usually",
        "argument", "parameter", "option", "function", "method", "attribute", "module", "class", "python",
        "version", "added", "new", "introduced", "changed", "since", "do", "does", "return", "returns",
        "given", "set", "when", "not", "documentation", "according", "variable", "configuration", "config",
        "pragma", "setting", "directive", "style",
    }
)  # fmt: skip
# "What values are valid for X?", "What are the valid values of X?", "What values may X take?"
_ALLOWED_ASKED: Final = re.compile(
    r"^(?:what|which) (?:are the )?(?:(?:valid|possible|allowed|permitted|accepted|supported|legal) )?values"
    r" (?:(?:are|is) (?:valid|allowed|possible|accepted|supported|permitted) (?:for|in) .+|(?:of|for) .+"
    r"|(?:can|may|does|do|will|must) .+ (?:take|accept|have|be(?: set to)?|hold)(?: to)?)$"
)
# ("Which httpd release first provides X?": a release is a version; not "What does release do?")
_VERSION: Final = re.compile(
    r"\b(?:which|what)\b(?: (\w+))?(?: \w+)? (?:version|(?<!\bdoes )(?<!\bdo )(?<!\bdid )release)\b"
)
# "Since when ...?" asks for a version too, of the product a "which <product> version" names, if any.
_SINCE: Final = re.compile(r"\bsince (?:which|when)\b()")
# "(After BEGIN,) which lock does ...", "Which column datatype can I use ...": the noun before the verb.
_WHICH_KIND: Final = re.compile(
    r"(?:^|, )which (?:[a-z][\w-]* ){0,2}?([a-z]\w+) "
    r"(?:does|do|did|is|are|was|were|can|should|must|will|would)\b"
)
_STANDS_FOR: Final = re.compile(
    r"^[Ww]hat (?:does|do|did) (?:the )?(?:abbreviation |acronym )?"
    r"([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*) stand for(?: in [\w -]+)?$"  # "... in collation names"
)
_TYPE_RETURNED: Final = re.compile(r"^(?:what|which) (?:data )?(?:return )?type (?:does|do|will) \S+ return$")
# "What type is relowner?", "What data type does the attlen column have?": the cell under "Type".
_TYPE_OF_TERM: Final = re.compile(
    r"^(?:what|which) (?:data )?type (?:is|does) (?:the )?(?:column |field )?(?P<term>[\w.]+)"
    r"(?: (?:column|field|attribute))?(?: (?:of|in) (?:the )?[\w.]+(?: (?:catalog|table|view))?)?(?: have)?$"
)
# "What does factorial(7) return?": a call with literal arguments asks for its result, not its description.
LITERAL_CALL: Final = re.compile(r"[\w.]+\((?=[^)]*[\d'\"])[^)]*\)")
_LOCK_ASKED: Final = re.compile(r"^(?:which|what) (?:kind of |type of )?(?:[a-z]+ )?lock\b")
_WHAT_LOCK: Final = re.compile(r"^what (?:kind of |type of )?(lock) (?:does|do|did|is|are|will|would)\b")
# "What is the minimum SQLite version needed to ...": the first version that has it.
# Words that may stand before "version" without naming a product ("the minimum required version").
_NOT_PRODUCTS: Final = frozenset({"required", "supported", "needed", "compatible", "stable", "released"})
_LEAST_VERSION: Final = re.compile(
    r"\b(?:minimum|earliest|oldest|lowest|first) (?:(\w+) )?(?:version|release)\b"
)
# "What HTTP status code ...", "Which SMTP error code ...", "which response code": a code asked for
# (not "which nginx version is code 308 ...": a version).
_CODE_ASKED: Final = re.compile(
    r"^(?:.*?,\s*)?(?:what|which)(?: (?!version\b|versions\b)[\w-]+){0,3}? codes?\b"
    # ("What HTTP error does mod_reqtimeout send ...?", "What HTTP status does X return?")
    r"|^(?:.*?,\s*)?(?:what|which) (?:HTTP|SMTP) (?:status|error|response|reply)\b",
    re.IGNORECASE,
)
# "What exit status does wait return ...?", "What status does X return if ...?": a status, not a code.
_STATUS_ASKED: Final = re.compile(
    r"^(?:.*?,\s*)?(?:what|which) (?:(?:exit|return) )?status(?:es)? "
    r"(?:does|do|will|is|did|from|of|indicates?|means?)\b",
    re.IGNORECASE,
)
# A question opening "In which (Python) version ..." ("Starting with which ...") asks for a version,
# whatever else it names.
_WHEN: Final = re.compile(
    r"^(?:in|since|from|as of|(?:starting|beginning) (?:with|from|in)) (?:which|what)\b"
)
# After "which" the noun may follow the command it belongs to: "Which git worktree list option ...".
_WHICH: Final = re.compile(
    # "In which table ...?" asks for a table, as "Which table ... in?" does.
    r"^(?:(?:in|on|from|into|under|at|to) (?=which ))?"
    r"(?:which(?: ([\w.-]+))?(?: ([\w.-]+))?(?: ([\w.-]+))?(?: ([\w.-]+))?|what(?: (\w+))?(?: (\w+))?)\b"
)
# The noun of a "which" question comes before its verb ("which ... option does", not "what is the
# value", "which directory holds the module"): the search stops at one of these, or at an article.
_BEFORE_THE_NOUN_ENDS: Final = frozenset(
    {"the", "a", "an", "is", "are", "was", "were", "does", "do", "did", "can", "must", "should", "has"}
)
# "how many bytes ...", "in how many ways ...", "what is the period of ...": the counted noun or
# the attribute asked for.
_MEASURE: Final = re.compile(
    # ("With IGNORE_EOF set, how many ...": a clause setting the scene may come first.)
    r"^(?:[^,?]{3,80}, )?"
    r"(?:(?:(?:in|within|to|for|by|at|after|under|over) (?:about |roughly |approximately |up to )?)?"
    r"how (?:many|much) (\w+)|what (?:is|are|was) the ((?:\w+ )?\w+?) (?:of|for|used by)\b)"
)
_PHRASAL_AS: Final = {
    "turn on": "enable",
    "switch on": "enable",
    "turn off": "disable",
    "switch off": "disable",
}
_PHRASAL: Final = re.compile(r"\b(?:turn|switch) (?:on|off)\b")
# "What happens when/if ...": a consequence asked of a condition.
_HAPPENS: Final = re.compile(r"^what (?:happens|will happen|would happen) (when|if|after|once|in case)\b")
# "What date do ...", "What ROWID is given ...": the noun asked for, right before the verb.
_WHAT_NOUN: Final = re.compile(r"^what ([a-z]\w*) (?:do|does|did|is|are|was|were|will|would|can)\b")
# Nouns that ask for a kind or a description, not for a value the pages state with digits.
_NOT_ASKED_NOUNS: Final = frozenset(
    {"kind", "sort", "type", "happens", "else", "exactly", "way", "one", "ones", "if"} | set(STOPWORDS)
)
_RANGE: Final = re.compile(r"\b(?:what|which) range\b")
# "What does SQLite use to implement file locking on Unix?": a subject, a verb and what the object is for.
_VERB_OBJECT: Final = re.compile(
    r"^what (?:does|do|did) (?:the )?((?:\S+ ){0,3}?\S+) ([a-z]{3,}) (?=(?:to|for|as) \w)"
)
# "What does X return when no file is opened?": the condition goes to the words to match.
_DOES: Final = re.compile(
    r"^what (?:(?:value|values) (?=(?:does|do) .+ return\b))?(?:does|do) (.+?) (do|return|mean)"
    r"(?: (?:when|if|on|for|with|after|before|once|unless|in case)\b.*)?\??$"
)

# How a question asks for a value's meaning (lowered, "?" gone): the setting and the value. An
# opening clause may name the setting instead ("In RequestReadTimeout, what does a value of 0 mean?").
_VALUE_ASKED: Final = r"(?P<value>-?\d+(?:\.\d+)?|zero|off|on|none|true|false|yes|no|never|always)"
_HAPPENS_TO: Final = r"what (?:happens|will happen|would happen)(?: to (?:the |a |an )?[\w-]+(?: [\w-]+)?)?"
_SETTING_TO: Final = r"(?:setting|specifying) (?P<setting>\S+) (?:to|as)"
# "What unit is X taken as?", "In what units is X given?": the unit bare values are read in.
_UNIT_ASKED: Final = re.compile(r"^(?:.*, )?(?:in )?(?:what|which) units?\b")
_QUESTIONS: Final = tuple(
    re.compile(pattern)
    for pattern in (
        # "What happens (to mail) when X is set to 0?", "... if you set X to 0?"
        rf"^{_HAPPENS_TO} (?:when|if) (?:you |i |we |one )?(?:sets? |setting )(?P<setting>\S+) to "
        rf"{_VALUE_ASKED}$",
        rf"^{_HAPPENS_TO} (?:when|if) (?:the )?(?P<setting>\S+)(?: \w+)? (?:is|are) (?:set|configured) to "
        rf"{_VALUE_ASKED}$",
        # "What does setting X to 0 mean|do?", "What is the effect of setting X to 0?"
        rf"^what (?:does|do|will|would) {_SETTING_TO} {_VALUE_ASKED}(?: [\w ]+)? (?:mean|do|cause)$",
        rf"^what is the (?:effect|meaning|result) of {_SETTING_TO} {_VALUE_ASKED}$",
        # "(In X,) what does a (fixed timeout) value of 0 (for a stage) mean?", "... mean for X?"
        r"^(?:in (?P<opening>\S+), )?what (?:does|do) (?:an? |the )?(?:[\w-]+ ){0,3}?value of "
        rf"{_VALUE_ASKED}(?: (?:for|in|of) (?:the )?(?P<setting>\S+))?(?: .*)? (?:mean|do)$",
        # "What does a temp_file_limit of -1 mean?"
        rf"^what (?:does|do) (?:an? |the )?(?P<setting>\S+) (?:value |setting )?of {_VALUE_ASKED} "
        r"(?:mean|do)$",
        rf"^what (?:does|do) (?:an? |the )?value of {_VALUE_ASKED} (?:mean|do) (?:for|in|to) "
        r"(?:the )?(?P<setting>\S+)$",
    )
)


@dataclass(frozen=True, slots=True)
class DocQuestion:
    """A documentation question: its kind, what it names, and its remaining content words."""

    text: str
    kind: DocKind
    identifiers: tuple[str, ...]  # code the question names, as written ("gzip.compress", "peek(n)")
    words: tuple[str, ...]  # stems of its content words, minus the frame and the identifiers
    noun: str | None  # "which": the kind of thing asked for; "version": the product ("python", "zlib")
    subject: str | None  # "does": what the question asks about, as written


def _identifiers(text: str) -> list[str]:
    """The code `text` names, in order: identifiers, and names called by their kind ("the max-errors
    style") that are no frame word ("the default style")."""
    named = [(at, name) for at, name in named_by_kind(text) if name not in FRAME and name not in STOPWORDS]
    return [token for _, token in sorted([*code_tokens(text), *named])]


def structured(body: str) -> bool:
    """Whether a body carries documentation structure: a heading line or an indented description."""
    return body.startswith("#") or "\n#" in body or "\n    " in body


def _which_noun(opening: list[str]) -> str | None:
    """The noun a "which" question asks for among its first words, before its verb: "git clean
    option", not "directory holds the module" (a word in -s before an article or a noun reads as
    the verb; "git notes merge strategy" names a command)."""
    for i, word in enumerate(opening):
        if word in NOUNS:
            return word
        following = opening[i + 1] if i + 1 < len(opening) else None
        verb = i > 0 and word.endswith("s") and not word.endswith("ss") and following is not None
        if word in _BEFORE_THE_NOUN_ENDS or (
            verb and (following in _BEFORE_THE_NOUN_ENDS or following in NOUNS)
        ):
            return None
    return None


def meaning_asked(lowered: str, identifiers: Sequence[str]) -> tuple[str, str] | None:
    """The setting (one of the question's `identifiers`, as written) and the value a question asks
    the meaning of, or None. A setting named in plain words ("the timeout") is not enough: the
    sentences answering are found by the code they sit under."""
    for pattern in _QUESTIONS:
        match = pattern.match(lowered)
        if match is None:
            continue
        found = match.groupdict()
        named = [(found.get(g) or "").strip("\"'`,") for g in ("setting", "opening")]
        setting = next((i for n in named for i in identifiers if i.casefold() == n), None)
        return (setting, found["value"]) if setting is not None else None
    return None


def doc_question(text: str, in_structure: bool = False, *, codes: bool = True) -> DocQuestion | None:
    """The documentation kind of `text`, or None when it is not a documentation question.

    Over structured pages (`in_structure`) a question that names code, or asks for a
    default, a version, a function ..., is one, and so is "what is the X of Y" or "how many
    ..."; a question of none of these kinds that names no code then goes to the general
    path. Over plain prose only a question naming code that cannot be a name (dotted,
    snake_case, a call, a flag) is one.
    """
    cleaned = " ".join(text.strip().rstrip("?").split())
    # Manuals say "enable" where users say "turn on": the words matched are the manual's.
    lowered = _PHRASAL.sub(lambda m: _PHRASAL_AS[m.group(0)], cleaned.casefold())
    identifiers = _identifiers(cleaned)
    # A word in single quotes ("the 'auto' modifier") is the word, without its closing quote; a
    # quoted letter (the 'x' format) is a word too.
    raw = re.findall(r"[a-z0-9][a-z0-9'-]*", lowered)
    plain = [w.rstrip("'") for w in raw]
    quoted = {w.rstrip("'") for w in raw if w.endswith("'")}
    code = bool(identifiers) or bool(_CODE_WORDS & set(plain))
    # "Which lock does ALTER WIDGET acquire?": a command in capitals, asked for the lock it takes (the
    # keyword beside "lock", `_doc_keywords`), not for the longest capitalised run the prose path finds.
    commands = _LOCK_ASKED.search(lowered) is not None and re.search(r"\b[A-Z]{3,}\b", cleaned) is not None
    code = code or commands
    # Over plain prose only code that cannot be a name counts ("McDonald" is CamelCase too).
    if not in_structure and not any(CAMEL.search(i) is None for i in identifiers):
        return None
    named = {i.casefold() for i in identifiers}
    words = tuple(
        dict.fromkeys(
            stem(w)
            for w in plain
            if w not in STOPWORDS and w not in FRAME and w not in named and (len(w) > 1 or w in quoted)
        )
    )
    # "Which compileall command-line option ...": an option; "command-line" only says which kind.
    which = _WHICH.match(lowered.replace("command-line ", ""))
    asked = _which_noun([w for w in (which.groups() if which else ()) if w is not None])
    if _SETS_DEFAULT.search(lowered) and re.match(r"which (?:sql )?statements? ", lowered):
        return None  # "Which statement overrides the global default properties?": a statement, no default
    if asked in ("parameter", "setting", "option", "directive", "variable") and _SETS_DEFAULT.search(lowered):
        # "Which configuration parameter sets the default isolation level?" asks for the parameter.
        rest = tuple(w for w in words if w != stem(asked))
        return DocQuestion(cleaned, "which", tuple(identifiers), rest, asked, None)
    if asked in _NAMED_THINGS:
        # "Which function uses GNU style scanning by default?" asks for a function, not a default.
        rest = tuple(w for w in words if w != stem(asked))
        return DocQuestion(cleaned, "which", tuple(identifiers), rest, asked, None)
    if len(identifiers) == 1 and _ALLOWED_ASKED.match(lowered):
        # "What values may X take?": the list a sentence says X accepts (`_doc_allowed`)
        return DocQuestion(cleaned, "value", tuple(identifiers), words, "allowed values", None)
    if identifiers and _UNIT_ASKED.search(lowered):
        # "If X is specified without units, what unit is it taken as?" (`_doc_meaning`); of two names,
        # the last is the setting ("In RequestReadTimeout, what unit is the MinRate value given in?")
        return DocQuestion(cleaned, "unit", tuple(identifiers), words, "unit", identifiers[-1])
    if identifiers and _TYPE_RETURNED.match(lowered):
        # "What type does queue_bytes return?": the cell under its table's "Return type" column.
        return DocQuestion(cleaned, "value", tuple(identifiers), words, "return type", None)
    stands = _STANDS_FOR.match(cleaned)
    if stands is not None:
        # "What does GSI stand for?": the words it abbreviates (`_acronyms`)
        return DocQuestion(cleaned, "value", (stands.group(1),), words, "expansion", None)
    typed = _TYPE_OF_TERM.match(lowered)
    if typed is not None and not re.search(r"\bdoes\b(?!.* have$)", lowered):
        # The column's name is what its row must hold ("column", "data" and the catalog are frame).
        return DocQuestion(cleaned, "value", tuple(identifiers), (stem(typed.group("term")),), "type", None)
    if re.search(r"\breturns?$", lowered) and len(LITERAL_CALL.findall(cleaned)) == 1:
        return DocQuestion(cleaned, "value", tuple(identifiers), words, "result", None)
    if codes and _STATUS_ASKED.match(cleaned):
        # "What exit status does X return when ...?": the status a sentence gives (`_doc_status`).
        rest = tuple(w for w in words if w not in ("statu", "exit", "return"))
        return DocQuestion(cleaned, "code", tuple(identifiers), rest, "status", None)
    if codes and _CODE_ASKED.match(cleaned):
        # "Which HTTP status code does X return when ...?": a code a sentence gives (`_doc_codes`), else
        # what the question is without asking for a code (`codes=False`: "Which error code ..." may be
        # answered by SQLITE_CONSTRAINT_DATATYPE).
        rest = tuple(w for w in words if w not in ("code", "codes"))
        return DocQuestion(cleaned, "code", tuple(identifiers), rest, "code", None)
    meaning = meaning_asked(lowered, identifiers)
    if meaning is not None:
        # "What happens when X is set to 0?": what the value does, said of the setting (`_doc_meaning`).
        rest = tuple(w for w in words if w not in ("happen", "happens", "mean"))
        return DocQuestion(cleaned, "meaning", tuple(identifiers), rest, meaning[1], meaning[0])
    version = _VERSION.search(lowered) or _SINCE.search(lowered) or _LEAST_VERSION.search(lowered)
    # "In which version did usenetrc become False by default?" asks when, not what the default is.
    when = version is not None and _WHEN.match(lowered) is not None
    measure = _MEASURE.match(lowered)
    if not when and asks_default(lowered, measure is not None and measure.group(1) is not None):
        # "If a generated column doesn't say VIRTUAL or STORED, ...": the words saying so are not what a
        # sentence stating the default must hold.
        words = tuple(w for w in words if w not in left_out_words(lowered))
        return DocQuestion(cleaned, "default", tuple(identifiers), words, None, None)
    if version is not None or re.search(r"\b(?:in|since) which\b.*\b(?:added|introduced|new)\b", lowered):
        product = version.group(1) if version is not None and version.group(1) else "python"
        if product in ("python", "version", "the") or product in _NOT_PRODUCTS:
            product = "python"
        return DocQuestion(cleaned, "version", tuple(identifiers), words, product, None)
    happens = _HAPPENS.match(lowered)
    if happens is not None:
        # "What happens if I use X on Y?": the consequence a sentence states of that condition.
        condition = tuple(w for w in words if w not in ("happen", "happens"))
        return DocQuestion(
            cleaned, "does", tuple(identifiers), condition, "happen", cleaned[happens.end(1) :]
        )
    does = _DOES.match(lowered)
    if does is not None:
        subject = cleaned[does.start(1) : does.end(1)]  # ("What value does X return ...?" too)
        return DocQuestion(cleaned, "does", tuple(identifiers), words, does.group(2), subject)
    object_of = _VERB_OBJECT.match(lowered)
    if object_of is not None and object_of.group(2) not in STOPWORDS:
        # "What does SQLite use to implement file locking?": the object of "uses" (`_doc_prose`).
        subject = cleaned[object_of.start(1) : object_of.end(1)]
        return DocQuestion(cleaned, "does", tuple(identifiers), words, object_of.group(2), subject)
    if asked is not None:
        rest = tuple(w for w in words if w != stem(asked))
        return DocQuestion(cleaned, "which", tuple(identifiers), rest, asked, None)
    if commands and _WHAT_LOCK.search(lowered):
        # "What lock does ALTER WIDGET take?": the keyword beside "lock" (`_doc_keywords`).
        return DocQuestion(
            cleaned, "keyword", tuple(identifiers), tuple(w for w in words if w != "lock"), "lock", None
        )
    asked_noun = _WHAT_NOUN.match(lowered)
    if measure is None and asked_noun is not None and asked_noun.group(1) not in _NOT_ASKED_NOUNS:
        # "What date do the functions assume ...?": only the value a sentence gives as "a date of ...".
        return DocQuestion(cleaned, "stated", tuple(identifiers), words, asked_noun.group(1), None)
    if _RANGE.search(lowered):
        # "Within what range must the value of X lie?": two bounds a sentence gives (`_doc_prose`).
        return DocQuestion(cleaned, "value", tuple(identifiers), words, "range", None)
    if measure is not None:
        noun = measure.group(1) or measure.group(2)
        # "What is the maximum number of tables in a join?": a count of tables, so "64 tables" answers.
        counted = re.match(r"(?:(?:maximum|minimum|max|min|total|default) )?(?:number|count)$", noun)
        after = re.match(r"(?:(?:of|for) )?(?:the )?([a-z]\w*)", lowered[measure.end() :].strip())
        if counted is not None and after is not None:
            noun = after.group(1)
        return DocQuestion(cleaned, "value", tuple(identifiers), words, noun, None)
    if not code:
        return None  # the general path's "which" takes a capitalised name
    keyword = _WHICH_KIND.search(lowered)
    if keyword is not None and keyword.group(1) not in STOPWORDS:
        # "Which lock does SQLite acquire ...?": a kind of thing no code names; a keyword does.
        rest = tuple(w for w in words if w != stem(keyword.group(1)))
        return DocQuestion(cleaned, "keyword", tuple(identifiers), rest, keyword.group(1), None)
    bound = ASKS_BOUND.match(lowered)
    if bound is not None and len(identifiers) == 1:
        # "What is the minimum buffer size accepted by X?": the bound a sentence about X gives (`_doc_bounds`)
        return DocQuestion(cleaned, "value", tuple(identifiers), words, bound_of(bound.group(1)), None)
    return DocQuestion(cleaned, "value", tuple(identifiers), words, "unhandled", None)
