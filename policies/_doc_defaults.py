"""Defaults a documentation page states, for "What is the default X of f?" (`_doc_answer`'s `default`).

A default is read, in this order of trust, from the signature of the function the question
names (`name=value`, `_signature_defaults`; a placeholder such as None, 0 or '' yields to a default
the page states, and None is trusted only where the description says nothing of the value being
left out), a
table row of parameters (`_doc_rows`), or a sentence about the parameter: "(default: X)",
"defaults to X", "the default is X", "X (the default)", "X (default, can be omitted)", "by
default, ... is X", "Includes just X by default", "set to X by default", "instead of the default
X", "If port is omitted, X is used" (the omission the whole condition, the parameter the one
asked), or the number a standard value stands for ("the standard Telnet port (23)").
A stated default that is a predicate ("is available") or a function word is none; a negation
before the value in its clause ("does not include '#' by default") gives none; nor does the
asked parameter itself ("X defaults to default_cup_cost" asked of default_cup_cost), nor a
default of older versions ("with versions before 2.5, the default is ..."); for a question
asking for a state, "X is off by default" (`_doc_states`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._default_forms import (
    DEFAULT_FORMS,
    DEFAULT_LABEL,
    DEFAULT_NAMED,
    DEFAULT_OF_NOUN,
    INSTEAD_OF_DEFAULT,
    SET_BY_DEFAULT,
    in_token,
    standard_number,
)
from ._default_owner import (
    asked_noun,
    before_names_another,
    clause_calls_another,
    described_after,
    keyword_rest,
    kind_words,
    names_asked_default,
    names_other_default,
    names_unasked_default,
    omitted_default,
    owner_asked,
    state_for_thing,
    state_unsaid,
    without_condition_names,
)
from ._default_scope import (
    LIST_REST,
    PAST_ASKED,
    QUALIFIED_AFTER,
    asked_case,
    asks_term,
    case_value,
    counts_another,
    last_named_another,
    named_last,
    names_another,
    older,
    unasked_owner,
    untimed,
    word_before,
)
from ._described_defaults import described_defaults, described_directive_defaults
from ._doc_match import (
    PLAIN,
    UNIT,
    VALUE,
    DocCandidate,
    about,
    clause_start,
    mentions,
    names,
    on_every_page,
    overlap,
    overlap_words,
    own_quote,
    page_subject,
    param_matches,
    sentences_of,
    stems,
    term_name,
    under_named,
)
from ._doc_questions import DocQuestion
from ._doc_returns import CONDITION, trim
from ._doc_rows import default_columns, default_rows, labelled_cells
from ._doc_sections import default_sections
from ._doc_states import ASKS_STATE, STATE_WORDS, stated_state
from ._doc_which import UNDER
from ._named_defaults import NAMED_FORMS, named_value_ok
from ._outline import Line
from ._paired_defaults import respective_value, subject_default
from ._questions import STOPWORDS
from ._section_owner import heading_name, heading_owns, under_asked_name, under_other_setting
from ._sentences import stem
from ._signature_defaults import signature_entries

_GLOSS: Final = re.compile(r" \([a-z][^()]{1,30}\)")
# A negation between a clause's start and the value it gives: "does not include '#' by default",
# "By default, no message is written to sys.stderr".
_NEGATION: Final = re.compile(r"\b(?:not|never|no|nothing|none|neither)\b|n't\b", re.IGNORECASE)


def _of_another_noun(text: str, start: int, end: int, noun: str) -> bool:
    """Whether the value at `start:end` qualifies a noun other than the one asked ("the 64-bit
    variant" asked which toolset) in a sentence that never names the asked noun itself."""
    if noun in stems(text) or not text[:start].endswith(("the ", "a ", "an ")):
        return False
    after = re.match(r" ([a-z]{3,})\b", text[end:])
    return after is not None and after.group(1) not in STOPWORDS and stem(after.group(1)) != noun


def _product(text: str, pages: Sequence[Page]) -> frozenset[str]:
    """The capitalised words of `text` that every opened page names: the product ("CMake")."""
    return frozenset(w for w in set(re.findall(r"\b[A-Z][A-Za-z]+\b", text)) if on_every_page(w, pages))


def _negated_before(text: str, at: int) -> bool:
    """Whether the clause holding offset `at` negates before it (clauses end at , ; . and brackets)."""
    return _NEGATION.search(text, clause_start(text, at), at) is not None


def default_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """Every default the opened pages state for what `q` asks, signature defaults first."""
    if PAST_ASKED.search(q.text):
        return  # "What was the default in version 9?": today's default does not answer it
    q = without_condition_names(q)
    # A condition other than the asked value's absence ("when the user is 'anonymous'"): the
    # signature's default is the unconditional one, so it does not answer.
    condition = CONDITION.search(q.text)
    unconditional = condition is None or _OMITTED.search(condition.group(0)) is not None
    signature = signature_entries(q, pages) if unconditional else []
    # A row states no case: "the default max_inflight on a replica node" is not the row's 64.
    qualifier = asked_case(q)
    columns = [c for c in default_columns(q, pages) if all(w in stems(c.evidence) for w in qualifier)]
    labelled = labelled_cells(q, pages, "Default")
    stated = [
        *default_rows(q, pages),
        *columns,
        *labelled,
        *default_sections(q, pages),
        *_stated_default(q, pages),
        *described_defaults(q, pages),
        *described_directive_defaults(q, pages),
    ]
    for page, param, value, text, described in signature:
        if re.search(rf"(?<![\w.]){re.escape(param)}\s*=", q.text):
            continue  # "fileinput.input(inplace=True) left no backup ...": a value the question gives
        # "None" often means "see the text", and a placeholder (0, '') may stand for a default the
        # text states ("port=0": "The default port number is 21"): one the page states outranks it,
        # and so does a description saying what happens when the value is left out ("If omitted,
        # file.mode is used"). Where the page says neither, the signature's None is the default.
        placeholder = (value == "None" and described) or (
            value in _PLACEHOLDERS and any(c.url == page.url for c in stated)
        )
        score = 1.4 if placeholder else 3.0
        yield DocCandidate(page.url, f"{param}={value}", text, score, "signature default")
    yield from stated


def _stated_default(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    # The words that name the parameter: not the code named, not a page's own subject ("logging").
    named = {stem(part) for i in q.identifiers for part in PLAIN.findall(i.casefold())}
    subjects = set().union(*(stems(page_subject(page)) for page in pages)) if pages else set()
    wanted = [w for w in q.words if w not in named | kind_words(q) and w not in subjects]
    asks_state = ASKS_STATE.search(q.text) is not None
    qualifier = asked_case(q)
    # (A question naming code pins what the default is of: "Which characters does shlex.commenters
    # include by default?" is answered by "Includes just '#' by default.", no "characters" in it.)
    noun, kinds = (None, []) if q.identifiers else (asked_noun(q.text) or (None, []))
    if asks_state:  # "on or off" are the answers asked for, not words naming what is asked about
        wanted = [w for w in wanted if w not in STATE_WORDS]
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if not about(line, text, q):
            continue
        if "default" not in text.casefold():
            # "If port is omitted, the standard POP3 port (110) is used.": the default by another name.
            given = omitted_default(text, q)
            if given is not None:
                context = (page_subject(page), *line.terms[-1:], *line.headings)
                score = 1.0 + overlap(q, text, *context) + _under_asked(line, q)
                yield DocCandidate(page.url, given, text, score, "used if omitted")
            continue
        # The term by its name: a signature above lists every parameter, the asked one too.
        named_term = [term_name(term) for term in line.terms[-1:]]
        # The paragraph's sentences before it ("rounds specifies ... . For X, the default is 5000."),
        # only when the default the sentence states has no subject of its own ("the default is 5000",
        # "the default, 0, ..."): "If doraise is false (the default)" is doraise's, whatever came before.
        paragraph = page.body[line.start : line.start + sentence.start] if _SUBJECTLESS.search(text) else ""
        outer = [term_name(term) for term in line.terms[:-1]]  # "restapi:" over "verify_client: ..."
        # "Default: 1232" under "### udp-max-payload": the heading names what the line is about.
        headed = heading_owns(line, q, wanted, page.body, text, page.title)
        if not headed:
            if wanted and not overlap_words(wanted, text, paragraph, *outer, *named_term, *line.cells[:1]):
                continue  # a default of something else the question does not ask about
            if _SUBJECTLESS.search(text) and under_other_setting(line, q):
                continue  # "The default value is 0." under "#### RcvBufSize": RcvBufSize's, not the one asked
        if paragraph and before_names_another(paragraph, q, wanted):
            continue  # "The cache_size property sets ... . The default is 100 KB.": cache_size's
        if noun and not all(
            overlap_words([w], text, paragraph, *line.terms, *line.headings, *line.cells[:1])
            for w in (noun, *kinds)
        ):
            continue  # "Which Consul datacenter is used by default?": not the scheme's default
        if (
            not q.identifiers
            and named_term
            and _SUBJECTLESS.search(text)
            and not asks_term(line.terms[-1], q)
        ):
            continue  # "The default is double-quote." under QUOTE: QUOTE's, not the ESCAPE asked about
        if qualifier and not all(
            overlap_words([w], text, paragraph, *line.terms, *line.headings) for w in qualifier
        ):
            continue  # "the default max_sessions on a standby server": a case the sentence does not state
        # What the page is about counts as said: "git archive" of git-archive(1).
        context = (paragraph, page_subject(page), *line.terms[-1:], *line.headings, *line.cells[:1])
        # "mean defaults to 0.0 and stddev defaults to 1.0": each default is its subject's.
        own = subject_default(text, q)
        if own is not None:
            if own:
                score = 1.0 + overlap(q, text, *context) + _under_asked(line, q)
                yield DocCandidate(page.url, own, text, score, "stated default")
            continue
        # "A and B, whose values are by default 50 and 3, respectively": A's is the first.
        respective = [v for i in q.identifiers if (v := respective_value(text, i)) is not None]
        if respective:
            score = 1.0 + overlap(q, text, *context) + _under_asked(line, q)
            yield DocCandidate(page.url, respective[0], text, score, "stated default")
            continue
        state, stated = stated_state(q, text, wanted) if asks_state else ("", False)
        if stated:
            if state:  # "Is X on or off by default?": "X is off by default" (docs: policies/_doc_states.py)
                yield DocCandidate(page.url, state, text, 1.0 + overlap(q, text, *context), "stated default")
            continue
        standard = standard_number(text, wanted)
        # Every place each form matches, in the forms' order: "costs vacuum_cost_page_hit (default 1), ...
        # costs vacuum_cost_page_miss (default 4)" gives the miss cost at its second "(default".
        tried = [(None, standard), *((form, m) for form in DEFAULT_FORMS for m in form.finditer(text))]
        for form, match in tried:
            if match is None:
                continue
            value_group = 2 if form is None else 1
            if in_token(text, match):
                continue  # "set to RPM-DEFAULT to allow ...": a value's name, not a default stated
            if form in NAMED_FORMS and not named_value_ok(trim(match.group(1)), q):
                continue  # "Logging is enabled by default", "uses a random port": no name of a default
            if _negated_before(text, match.start(value_group)):
                continue  # "does not include '#' by default", "no message is written to sys.stderr"
            if noun and _of_another_noun(text, match.start(value_group), match.end(value_group), noun):
                continue  # "uses the 64-bit variant", asked which toolset: the variant's, not the toolset
            score = 1.0 + overlap(q, text, *context) + _under_asked(line, q)
            if line.cells and param_matches(line.cells[0], q):
                score += 1.0  # a table of parameters: the row is the one asked about
            elif line.cells and " " not in line.cells[0]:
                break  # the row of another parameter: its default is not the one asked for
            value = trim(match.group(value_group))
            # (not after "X (the default), on, and off": the list of the values it may take)
            listed = LIST_REST.match(text, match.end()) if match.end(value_group) == match.end() else None
            if listed is not None:
                value += listed.group(1).rstrip(".")  # 'is "$user", public.': a list, not its first item
            elif match.end(value_group) == match.end():
                value += keyword_rest(value, text, match.end())  # "The default is READ COMMITTED."
                # "The default sorting is n (by name)": a one- or two-letter code keeps the gloss after it.
                gloss = _GLOSS.match(text, match.end()) if len(value) <= 2 and value.isalpha() else None
                value += gloss.group(0) if gloss is not None else ""
            case = case_value(text, match.end(), q)
            if case == "":
                continue  # "\N in text format, and an empty string in csv format", asked of csv or of none
            if case is not None:
                value = case  # "3 for queues and 1 for topics", asked of topics: "1"
            if form is not None and names_another(match.group(0)[: match.start(1) - match.start()], q):
                continue  # "The default for archive_mode is off; ...": another parameter's default
            if match.group(0).casefold().startswith("default") and names_another(
                word_before(text, match.start()), q
            ):
                continue  # "vacuum_multixact_freeze_min_age defaults to 4 million, B to 120 million": A's
            # "The smtpd_recipient_limit parameter (default: 1000) controls how many recipients ...":
            # the code named before the bracket is the setting the question describes, not another.
            owner_described = match.group(0).startswith("(") and described_after(
                text, match.start(), q, wanted
            )
            if (
                match.group(0).startswith("(")
                and names_another(word_before(text, match.start()), q)
                and not owner_described
            ):
                continue  # "sort_arena_size multiplied by hash_arena_multiplier (default 2.0)": the latter's
            if match.group(0).startswith("(") and not owner_asked(text, match.start(), q, wanted):
                continue  # "The quoted option (default true) ...", asked the default field separator
            if any(names(i)[0] == value.casefold() for i in q.identifiers):
                continue  # "X defaults to default_cup_cost" is X's default, not default_cup_cost's
            if counts_another(q.text, text, match.end(value_group)) or untimed(
                q.text, text, match.start(value_group), match.end(value_group)
            ):
                continue  # "the default limit is 100 SMTP client processes": no count of connections
            if older(text, match.start()) or QUALIFIED_AFTER.match(text, match.end()):
                continue  # "with versions before 2.5, the default is ...": no longer the default
            if re.match(r"\s+[a-z]+ly\b", text[match.end() :]):
                continue  # "the backing source file is read lazily": a verb, not a value
            if text[match.end() :].startswith((" than", " longer", " times")) or _COMPARED.match(
                match.group(value_group) + text[match.end() :]
            ):
                # "The default is now longer than before", "no longer 1024", "the default is more
                # aggressive than X": not a value; "10 times the number of CPUs": a factor of something
                # else, not the value
                continue
            if re.search(r"\bdefault (?:[\w.]+ ){0,3}?(?:when|if|unless)\b", match.group(0)):
                continue  # "set to yes by default when X is encrypt": the condition's value
            if form is not None and form.pattern.startswith(VALUE) and re.fullmatch(UNIT, value):
                continue  # "specify the seconds (default, see ...)": a unit, not a value
            if not owner_described and (
                unasked_owner(text, match.start(), q)
                or clause_calls_another(text, match.start(value_group), q)
            ):
                continue  # "costs vacuum_cost_page_miss (default 4)": that parameter's, not asked
            if last_named_another(text, match.start(), q, _product(text[: match.start()], pages)):
                continue  # "X ..., while Y, which defaults to 75 seconds": Y's default
            label = form is not None and form.pattern == DEFAULT_LABEL and not headed
            if label and not line.terms and heading_name(line) is not None:
                continue  # "Default: ${localstatedir}/run/knot" under "### rundir": rundir's
            if label and not q.identifiers:
                # A label names nothing: the section it stands in must be the one asked about ("default:
                # 1830" under Protocol Timeout, asked the repository host protocol type).
                section = " ".join((paragraph, text, *line.terms[-1:], *line.headings[-1:]))
                if 2 * overlap(replace(q, words=tuple(wanted)), section) < 1:
                    continue
            if form is not None and form.pattern == DEFAULT_NAMED:
                if names_other_default(text, match, q) or names_unasked_default(text, match, q):
                    continue  # "The default directory mode is 0750 and default file mode is 0640"
                score += _NAMED_ASKED if names_asked_default(text, match, q) else 0.0
            if form is not None and form.pattern == DEFAULT_OF_NOUN:
                described = stems(text[match.start() : match.start(1)]) - stems("default of for a an the is")
                if not described <= stems(q.text):
                    continue
            if form is not None and form.pattern == INSTEAD_OF_DEFAULT and _CASE_ASKED.search(q.text):
                continue  # "use 10 seconds instead of the default 300 seconds", asked the value under stress
            owned = form is not None and form.pattern in (SET_BY_DEFAULT, INSTEAD_OF_DEFAULT)
            if owned and not named_last(text, match.start(), q):
                continue
            # "The default is on." states a state; "the default is on the server" does not.
            state_on = value.casefold() == "on" and re.match(r"\s*(?:[.,;)]|$)", text[match.end() :])
            if not state_on and (_PREDICATE.fullmatch(value) or value.casefold() in (*STOPWORDS, "not")):
                # "the default entry is available", "the default is to write": no value; a later form
                # may still read one ("By default, the traceback is written to sys.stderr").
                continue
            if state_for_thing(q.text, value) or state_unsaid(q.text, value, paragraph + text):
                continue  # "What does git stash show display by default?": a thing, not "true"
            # Quoted with the paragraph it leans on ("... used by git gc --aggressive. This defaults to 250"),
            # so what the default is of is in the quote.
            leans = paragraph and (not q.identifiers or not all(mentions(text, i) for i in q.identifiers))
            quote = paragraph + text if leans else own_quote(page, line, sentence)
            yield DocCandidate(page.url, value, quote, score, "stated default")
            break


# A default stated with no subject of its own: "(The) default is X", "the default, X, ...", or with
# one that points back ("it defaults to X", "this defaults to X", "the optional argument defaults to -1").
_SUBJECTLESS: Final = re.compile(
    r"(?:^|\bthe )default(?: value)?(?: is\b|,|:)"
    r"|^(?:this )?defaults?(?: to)?\b|\b(?:it|the (?:optional )?(?:argument|parameter)) defaults?\b",
    re.IGNORECASE,
)


def _under_asked(line: Line, q: DocQuestion) -> float:
    """A bonus for a sentence under the term (or heading) the question names in full: "poplib.POP3"'s
    description outranks "poplib.POP3_SSL"'s, whose sentence mentions POP3 too."""
    return UNDER if under_named(line.terms, q.identifiers) or under_asked_name(line, q) else 0.0


# "if port is not given", "if none is given", "when no priority argument is given": the value left out.
_OMITTED: Final = re.compile(
    r"\b(?:not (?:given|specified|provided|passed)|omitted)\b"
    r"|\b(?:none|no (?:[\w-]+ ){0,2}?(?:argument|parameter|value)s?) (?:is |are )?"
    r"(?:given|specified|provided|passed)\b",
    re.IGNORECASE,
)
# "The default transaction behavior is DEFERRED.", asked "What transaction behavior ...?": the words
# say which default it is, as a term above would.
_NAMED_ASKED: Final = 0.5
# A case the question asks the value in ("... is used when the server is under stress"), not an omission.
_CASE_ASKED: Final = re.compile(
    r"(?i)\b(?:when|while) (?!(?:\w+ ){0,3}(?:omitted|not|no)\b)[^,?]*\b(?:is|are)\b"
    r"|(?<!not )\b(?:under|during) (?:conditions of |a |an )?(?!the default)[a-z]+"  # ("... under stress?")
)
_PLACEHOLDERS: Final = frozenset({"None", "0", "''", '""'})
_COMPARED: Final = re.compile(r"(?i)(?:more|less) [a-z]+ than\b")
# A stated default that is a predicate ("is available", "is written to"), not a value.
_PREDICATE: Final = re.compile(
    r"[a-z]+(?:ed|able|ible|ing)|written|given|taken|chosen|hidden|shown|known|seen|made|sent|kept|held|found"
)
