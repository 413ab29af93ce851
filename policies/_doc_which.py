"""'Which' documentation questions: the identifier, of the shape asked for, that a matching sentence names.

A function is called `f()`, an option starts with `-` (or, as a term under a heading about options, is
named like code: `GLOB_DOTS`), an item is indexed, an exception is named `...Error` or `module.error`
(or declared one, or "the Full exception") and answers only a question asking for an exception or a
class, and only a function, a method, a decorator or a class is a call. The word qualifying the noun
("which compression type") must be where the answer is, and the word naming the module or the kind is
not the answer, nor does it count toward how much of the question a sentence holds. A sentence under the
term the question names (in full, or a method under its class) counts that term as part of what it says,
and outranks one under a neighbouring term. Without such an identifier in the sentence, the term the
sentence describes answers (the quote then runs from the term; a term labelling part of the page,
"Example", names nothing). A synopsis and an example (">>> ...", "$ ...", an SQL statement) answer
nothing: they name what they call. Word order breaks a tie of the same words. An RFC is answered with
its number, no name by a term that is a phrase. "Which function closes ...": the verb asked (of
a function, method, decorator or command) must be in the sentence or its term. A sentence that calls one
name by the noun asked ("defined by the preprocessor macro SQLITE_MAX_LENGTH") answers with half of the
question's words, at least three (`_doc_shapes`: the shapes, the names a sentence calls by a noun).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_identifiers import is_identifier
from ._doc_match import (
    DocCandidate,
    adjacent,
    clause_start,
    in_order,
    mentions,
    names,
    on_every_page,
    overlap,
    overlap_words,
    page_subject,
    sentences_of,
    stems,
    term_name,
    under_named,
)
from ._doc_naming import (
    NAMED_BEFORE,
    NEGATED_AFTER,
    a_flag,
    clause_end,
    opens_clause,
    says_more,
    subordinate,
    term_names,
    term_words,
)
from ._doc_questions import FRAME, DocQuestion
from ._doc_shapes import (
    CODE_TOKEN,
    MAN_PAGE,
    NOT_SETTINGS,
    PROGRAM_EXAMPLE,
    PROGRAM_NOUNS,
    SETTING_TERM,
    SYNOPSIS_OPTIONS,
    TYPED,
    a_replacement,
    another_setting,
    assignment_side,
    called,
    called_a_name,
    denied_before,
    given_word,
    names_the_asked,
    object_words,
    set_to_a_value,
    shape_ok,
    typed_name,
)
from ._outline import clean
from ._questions import STOPWORDS
from ._sentences import stem
from ._which_checks import (
    SETTING_NOUNS,
    SETTING_VERBS,
    acronym_number,
    asked_action,
    case_unsaid,
    case_words,
    denies,
    describes_its_term,
    in_condition,
    names_no_class,
    option_term,
    phrase_term,
    release_unsaid,
    reported,
    returns_row,
    says,
)

# Word order and adjacency break a tie of the same words ("RGB to HSV" / "HSV to RGB"), never a word.
ORDER: Final = 0.05
# A sentence under the term the question names outranks one under another term holding more of its words.
UNDER: Final = 0.5


def _call_after(text: str, end: int) -> str:
    """ "()" when a call's bracket follows the token ("char_length ( text )"), else ""."""
    return "()" if re.match(r" ?\(", text[end:]) else ""


# Words before a "which" noun that do not narrow it ("which one function", "what other module").
_NOT_QUALIFIERS: Final = frozenset({"one", "other", "the", "a", "an", "kind", "sort", "new", "two", "three"})
# "the environment variable force-gzip", "variable PYTHONPATH", "the PYTHONFAULTHANDLER environment
# variable": a name, not a word ("variable that").
_VARIABLE_NAMED: Final = re.compile(
    r"\bvariables? ((?:[\w.]+[-_][\w.-]*|[A-Z][A-Z0-9]+)\b)"
    r"|\bthe ([A-Z][A-Z0-9_]{2,}) (?:environment )?variable\b"
)
# "PRAGMA foreign_keys", "PRAGMA schema.cache_size", "the defer_foreign_keys pragma": the pragma a
# sentence gives is the name after the statement's keyword, "PRAGMA foreign_keys" ("Pragma" opening a
# sentence), or a name with an underscore before the word; never a word of the prose ("This pragma returns").
_PRAGMA_NAMED: Final = re.compile(r"\b(?:PRAGMA|Pragma) (?:\w+\.)?([a-z]\w*)|\b([a-z]+_\w+) pragma\b")
# A setting given its value: "journal_mode=PERSIST", "synchronous=OFF".
_SETTING: Final = re.compile(r"\b([a-z][\w.]*)=([A-Za-z0-9][\w.-]*)")
# A manual page's section listing how a command is called.
_USAGE: Final = re.compile(r"(?i)synopsis|usage")
# 'a "malformed database schema" error': an error named by its message, quoted before the word.
_QUOTED_ERROR: Final = re.compile(r"[\"\u201c]([^\"\u201c\u201d]{3,60})[\"\u201d] error\b")
# "raises the Full exception", "a binascii.Error exception": a capitalised name (and its module).
_NAMED_EXCEPTION: Final = re.compile(r"(?<![\w.])((?:[a-z_]\w*\.)*[A-Z]\w*) exception\b")


def which_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    if q.noun is not None and q.noun.isalpha() and q.noun == "rfc":
        yield from acronym_number(q, pages, "RFC")
        return
    own = {names(i)[0] for i in q.identifiers}
    # "Which function in shutil ...": the answer must come from shutil's page or name it.
    scope = re.search(rf"\b{q.noun}s? (?:in|of|from) (?:the )?([a-z_][\w.]*)", q.text.casefold())
    within = scope.group(1) if scope is not None and scope.group(1) not in FRAME else None
    # "Which compression type ...": the word that says which kind of type must be where the answer is.
    kind = re.match(rf"^(?:which|what) ([a-z]\w*) {q.noun}s?\b", q.text.casefold())
    # A one-letter qualifier names a language ("which C interface"), which the sentence need not repeat.
    word = kind.group(1) if kind is not None and kind.group(1) not in _NOT_QUALIFIERS else None
    word = word if word is None or len(word) > 1 else None
    qualifier = [stem(word), stem(word + "s"), word] if word is not None else []  # "file" / "files"
    # The word that names the module or the kind ("which getopt function") is not the answer.
    own |= {w for w in (word, within) if w is not None}
    # That word is required apart, and every sentence of the module's page holds it: it does not count
    # toward how well a sentence says what the question asks ("which locale function ... locales").
    said = replace(q, words=tuple(w for w in q.words if w not in {*qualifier, *stems(within or "")}))
    # "Which function closes a window?": the action asked must be said where the answer is.
    action = asked_action(q)
    documented = term_words(pages) if q.noun in NAMED_BEFORE else set()
    flag_terms = term_names(pages) if q.noun == "flag" else set()
    # A sentence that only calls a name by the noun asked answers when no sentence answers outright.
    typed_only: list[DocCandidate] = []
    answered = False
    obj = object_words(q)
    case = case_words(q)  # "... raise when it is given ill-formed XML?": what the sentence must say of it
    # Terms the question spells out in words ("the cost limit ... COMPACT" for compact_cost_limit).
    spelled = [
        name
        for name in term_names(pages)
        if re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", name)  # a setting's name, not "--jobs=njobs"
        and all(stem(part) in q.words for part in name.split("_"))
    ]
    for page, line, sentence in sentences_of(pages):
        if within is not None and not mentions(" ".join((*line.headings[:1], sentence.text)), within):
            continue
        # A method's class is a term further up ("Which TopologicalSorter method ...").
        if qualifier and not overlap_words(
            qualifier, sentence.text, *line.terms, *line.headings, page_subject(page)
        ):
            continue
        text = sentence.text
        if ">>>" in text or text.startswith("$ ") or PROGRAM_EXAMPLE.match(text) is not None:
            continue  # an example calls what it needs; it does not say what does what
        if SYNOPSIS_OPTIONS.search(text) is not None:
            continue  # "[RETURN_VALUE <result-var>] [QUIET]": a synopsis names options, says nothing of them
        if line.headings and _USAGE.fullmatch(line.headings[-1]):
            continue  # a synopsis lists every option; it does not say what one does
        # Under the term the question names, that term is part of what the sentence is about.
        asked_term = [line.terms[-1]] if under_named(line.terms, q.identifiers) else []
        # Under it, what the page documents counts as said too ("git stash" on git-stash(1)).
        subject = [page_subject(page)] if asked_term else []
        context = (*line.headings[-1:], *asked_term, *subject)
        fit = overlap(q, text, *context)
        # "defined by the preprocessor macro SQLITE_MAX_LENGTH": a sentence calling a name what the
        # question asks for describes that name as a whole, so it may hold fewer of the question's words.
        partial = fit < 0.6 or overlap(said, text, *context) < 0.6
        typed = (
            typed_name(q, said, text, own, *context, subject=page_subject(page))
            if partial and (not obj or overlap_words(obj, text))
            else None
        )
        if partial and typed is None:
            continue
        if denies(q, text) or case_unsaid(case, text, *line.terms[-1:]):
            continue  # "foreign key constraints are not enforced" does not say what enforces them
        if spelled and not any(n in " ".join((text, *line.terms)).casefold() for n in spelled):
            continue  # "the cost limit used in automatic COMPACT" names compact_cost_limit, not this term
        if (
            q.noun in ("parameter", "setting")
            and sum(not overlap_words([w], text, *line.terms) for w in said.words if w not in SETTING_VERBS)
            > 1
        ):
            continue  # a parameter's description says what it sets: "replay consumers" are not "messages"
        if any(
            not overlap_words([w], text, *line.terms, *line.headings)
            for w in said.words
            if any(c.isdigit() for c in w)
        ):
            continue  # "the compression level used with lz4": a name with a digit is said, or not at all
        if release_unsaid(q.text, text, *line.terms, *line.headings):
            continue  # "... since libcurl 7.84.0", asked of what libcurl 7.9.8 returns
        if line.cells and not all(overlap_words([w], text, *line.headings) for w in said.words):
            continue  # a table row says all it says: "Disk space used by the widget" is not a table's
        if action is not None and not (
            says(action[0], text, *line.terms[-1:]) or returns_row(action[0], line)
        ):
            continue  # "Open url in a new window" does not say which function closes one
        if action is not None and action[1] and not overlap_words(action[1], text, *line.terms[-1:]):
            continue  # "Sets the time ..." does not say which method sets the user agent
        if typed is not None:
            typed_only.append(
                DocCandidate(page.url, typed, text, 1.0 + fit / 2 + TYPED, "a name the sentence types")
            )
            continue
        # The names this sentence calls a program, daemon or server, read once for all its tokens.
        called_so = {token for _, token in called(q, text)} if q.noun in PROGRAM_NOUNS else set()
        shaped = [
            (m.start(), m.group(0).rstrip(".,;:"))
            for m in CODE_TOKEN.finditer(text)
            if is_identifier(m.group(0).rstrip(".,;:"))
            and shape_ok(m.group(0).rstrip(".,;:") + _call_after(text, m.end()), q.noun)
            and names(m.group(0))[0] not in own
            and not assignment_side(text, m.start(), m.end(), q.noun)
            and not given_word(m.group(0).rstrip(".,;:"), q)
            and not (names_the_asked(m.group(0), q) or another_setting(m.group(0), q))
            and not called_a_name(text, m.end(), q)  # "the wal_checkpoint pragma" is no checkpoint mode
            and not set_to_a_value(text, m.end(), q)  # nor does "ExpiresActive On" name a value
            and not denied_before(text, m.start())
            and not a_replacement(text, m.start(), m.end(), q)
            # A program, daemon or server: its manual page, or a name the sentence calls so ("the
            # Perl program log_server_status"), not any code it names ("mailbox_command names ...").
            and (
                q.noun not in PROGRAM_NOUNS
                or MAN_PAGE.fullmatch(m.group(0).rstrip(".,;:")) is not None
                or m.group(0).rstrip(".,;:") in called_so
            )
            # The product every opened page names ("SQLite"), a capitalised word, is not what it names.
            and not (m.group(0).isalpha() and not m.group(0).islower() and on_every_page(m.group(0), pages))
            and (q.noun != "error" or reported(text, m))
            and (q.noun != "flag" or a_flag(m.group(0).rstrip(".,;:"), text, m.end(), flag_terms))
        ]
        if q.noun in NAMED_BEFORE:
            # "(The git worktree repair command, however, can ...)": a plain word the manual documents
            # as a term, right before the noun asked for, names it as code would - as the clause's
            # subject, not in a condition ("After the prune command runs, ...") nor denied ("the theirs
            # strategy is never chosen").
            shaped += [
                (m.start(1), m.group(1))
                for m in re.finditer(rf"\b[Tt]he (?:[\w-]+ ){{0,3}}?([\w-]+) {q.noun}\b", text)
                if m.group(1).casefold() in documented
                and m.group(1).casefold() not in own
                and opens_clause(text, m.start())
                and not NEGATED_AFTER.match(text, m.end())
                and says_more(said, text[m.end() : clause_end(text, m.end(), ";.")], q.noun)
            ]
        # "Which journal mode ...": "journal_mode=PERSIST" names the setting asked about; its value answers.
        shaped += [
            (m.start(2), m.group(2).rstrip("."))
            for m in _SETTING.finditer(text)
            if _setting_asked(m.group(1), q)
        ]
        shaped.sort()
        if q.noun == "exception":
            shaped += [
                (m.start(1), m.group(1)) for m in _NAMED_EXCEPTION.finditer(text) if m.group(1) not in own
            ]
            shaped.sort()
        if q.noun == "error":
            # 'will result in a "malformed database schema" error': the message is the error's name.
            shaped += [(m.start(1), m.group(1)) for m in _QUOTED_ERROR.finditer(text)]
            shaped.sort()
        # "an environment variable force-gzip, set via SetEnv": the name right after "variable" is the
        # variable the sentence gives, whatever else it names.
        # The first variable the sentence names outside a condition, if any ("If the TEAQUIET environment
        # variable is unset, the TEABELL variable ..." gives TEABELL; "If the environment variable
        # BROWSER exists, it is ..." names only BROWSER).
        named_here = [
            m
            for m in (_VARIABLE_NAMED.finditer(text) if q.noun == "variable" else ())
            # "the X environment variable": only where its clause says some of what is asked
            # ("Setting the TEAHORN environment variable overrides TEAWHISTLE, which sounds ..." does not).
            if m.lastindex == 1
            or says_more(
                said, text[clause_start(text, m.start()) : clause_end(text, m.end(), ",;.")], "variable"
            )
        ]
        outside = [m for m in named_here if not subordinate(text, m.start())]
        given = (outside or named_here)[0] if named_here else None
        if given is not None and (named_variable := given.group(given.lastindex or 1)).casefold() not in own:
            shaped = [(given.start(given.lastindex or 1), named_variable)]
        if q.noun == "pragma":
            # Only a name the sentence calls a pragma answers "which pragma" ("a ROWID of 1" is no pragma).
            shaped = [
                (m.start(m.lastindex or 1), name)
                for m in _PRAGMA_NAMED.finditer(text)
                if (name := m.group(m.lastindex or 1)).casefold() not in own
                and name not in STOPWORDS
                and ("_" in name or not name.endswith("s"))  # "PRAGMA functions" titles a section
            ]
        if shaped and q.noun in SETTING_NOUNS and describes_its_term(line, sentence.start, text):
            shaped = []  # "Controls whether ... longer than deadlock_check_interval": log_lock_waits's own
        if q.noun in SETTING_NOUNS:
            # "... when sync_commit is replica": a setting named in a condition is not what the sentence sets
            shaped = [(at, token) for at, token in shaped if not in_condition(text, at)]
        # "(see DB->set_bt_prefix() for more information)": a pointer elsewhere, not what the sentence says
        shaped = [(at, token) for at, token in shaped if not _SEE.search(text, 0, at)]
        if q.noun == "class":
            shaped = [(at, token) for at, token in shaped if not names_no_class(token)]
        if shaped:
            # Each identifier with the stretch of the sentence up to the next one: the best-matching stretch.
            # (A name after "by" is the agent of its own clause: "exported by murdump(1), and loaded
            # back by murload(1)" says murload loads; its stretch is that clause, up to the name.)
            stretches = [
                (
                    overlap(q, text[clause_start(text, at) : at + len(token)])
                    if text[:at].endswith(" by ")
                    else overlap(q, text[at : shaped[i + 1][0] if i + 1 < len(shaped) else len(text)]),
                    -i,
                    token,
                )
                for i, (at, token) in enumerate(shaped)
            ]
            stretch, _, token = max(stretches)
            named = (
                0.1 if any(stem(part) in q.words for part in re.findall(r"[a-z]+", token.casefold())) else 0.0
            )
            # Under the term the question names ("which exception does f raise"): about f, not a neighbour.
            under = UNDER if asked_term else 0.0
            score = 1.0 + (fit + stretch) / 2 + named + under + _tie_break(q, text)
            answered = True
            yield DocCandidate(page.url, token, text, score, "identifier in the matching sentence")
            continue
        if line.terms and sentence.start == 0 and line.depth > 0:
            term = line.terms[-1]
            name = term_name(term)
            declared = clean(term).startswith(("class ", "exception "))
            setting = SETTING_TERM.search(clean(term)) is not None
            if (setting or _ASSIGNED.search(clean(term))) and q.noun in NOT_SETTINGS:
                # "max_senders (integer)", "RECEIVER = ival" (a command's option): a parameter, not
                # "which program" or "which command"
                continue
            call = name + "()" if "(" in term and not declared and not setting else name
            # A term declared "exception X" is one, whatever its name.
            shaped_ok = not phrase_term(term, name) and (
                shape_ok(call, q.noun)
                or (q.noun == "exception" and clean(term).startswith("exception "))
                or option_term(q, name, line)
            )
            if shaped_ok and name.casefold() not in own and name.casefold() not in _SECTION_LABELS:
                prefix = page.body[: line.start].rstrip()
                term_line = prefix[prefix.rfind("\n") + 1 :].strip()
                if clean(term_line) == clean(term):
                    evidence = f"{term_line} {text}"
                    score = 1.0 + overlap(q, evidence) + _tie_break(q, text)
                    answered = True
                    yield DocCandidate(page.url, name, evidence, score, "the term the sentence describes")
    if not answered:
        yield from typed_only


def _setting_asked(name: str, q: DocQuestion) -> bool:
    """Whether `name=value` sets what the question asks the value of: "journal_mode" of "which journal
    mode", or "candidates" of "Which --candidates value ..." (the option written before the noun)."""
    return names_the_asked(name, q) or any(
        identifier.lstrip("-") == name and re.search(rf"{re.escape(identifier)} {q.noun}s?\b", q.text)
        for identifier in q.identifiers
    )


# Words that label a part of a page, not a thing it documents ("Example" over an example's caption).
_SECTION_LABELS: Final = frozenset(
    {"example", "examples", "note", "notes", "description", "see also", "warning"}
)
# A term that assigns its option a value: "ID = ival", "FORWARD = boolean".
_ASSIGNED: Final = re.compile(r"^[A-Za-z_][\w-]*\s+=\s+\S")
# A bracketed cross-reference right before a name: "(see DB->set_bt_prefix() for more information)".
_SEE: Final = re.compile(r"\([Ss]ee (?:also )?(?:the )?(?:\w+(?:->|\.|::))?$")


def _tie_break(q: DocQuestion, text: str) -> float:
    """Word order and adjacency: up to 2 x ORDER, and less than one of the question's words is worth
    (at least 1 / (2 n) of a score for n words) however many words the question has."""
    return (in_order(q, text) + adjacent(q, text)) * min(ORDER, 1 / (5 * max(len(q.words), 1)))
