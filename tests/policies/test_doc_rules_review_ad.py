"""Reviews of 2026-12-05 (the sixteenth session): a question asked after a scene is read as its last
question clause; an exception is named with its module; a setting given its own value is no value."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_clause import asked_clause
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import corpus_outcome, doc_answers, one_page


def test_the_last_question_clause_is_read_with_the_scene_kept() -> None:
    asked = doc_question(
        "I use PRAGMA table_info on a table with generated columns; which pragma also lists them?", True
    )
    assert asked is not None and asked.noun == "unhandled"
    clause = asked_clause(asked)
    assert clause is not None
    assert (clause.kind, clause.noun) == ("which", "pragma")
    assert "table_info" in clause.identifiers  # the scene's code still says what it is about
    assert "generat" in clause.words
    # The clause may hold commas of its own; "when" after a comma sets a condition and asks nothing.
    listed = doc_question("I call PRAGMA table_info; which pragma lists hidden, generated columns?", True)
    assert listed is not None and (clause := asked_clause(listed)) is not None and "hidden" in clause.words
    condition = doc_question("I call PRAGMA table_info on t1, when does it list generated columns?", True)
    assert condition is not None and asked_clause(condition) is None
    # A question already of a kind is not read again, and one with no question clause is not read.
    whole = doc_question("Which pragma lists generated columns?", True)
    assert whole is not None and asked_clause(whole) is None
    plain = doc_question("need to attach 200 databases, can I raise SQLITE_MAX_ATTACHED that high", True)
    assert plain is not None and asked_clause(plain) is None


def test_a_scene_saying_something_is_absent_keeps_the_whole_question() -> None:
    # "uses no X" asks what holds without X, a default; the last clause alone does not ask it.
    absent = doc_question(
        "My table uses no PRAGMA table_info call; which pragma lists generated columns?", True
    )
    present = doc_question(
        "My table uses a PRAGMA table_info call; which pragma lists generated columns?", True
    )
    assert absent is not None and absent.noun == "unhandled"
    assert present is not None and present.noun == "unhandled"
    assert asked_clause(absent) is None
    assert asked_clause(present) is not None


# Questions over the manuals each rule of this session answers, with the page sentence it answers from.
ANSWERED_OVER_THE_MANUALS = [
    # A question after a scene, read as its last clause. postfix VIRTUAL_README: "The virtual_minimum_uid
    # specifies a lower bound on the mailbox or maildir owner's UID."
    (
        "postfix_doc",
        "For virtual mailbox delivery, which parameter sets a lower bound on the mailbox or maildir "
        "owner's UID?",
        "virtual_minimum_uid",
    ),
    # An exception named with its module. library/base64.html: "A binascii.Error exception is raised if
    # s is incorrectly padded."
    (
        "python_doc",
        "Our service crashes in base64.b64decode on tokens whose '=' padding was stripped - which exception "
        "is raised for incorrect padding?",
        "binascii.Error",
    ),
    # A case the question negates by a prefix. git-gc.html: gc.reflogExpire "removes reflog entries older
    # than this time; defaults to 90 days"; gc.reflogExpireUnreachable "... and are not reachable from the
    # current tip; defaults to 30 days".
    (
        "git_doc",
        "How old must unreachable reflog entries be before git gc expires them, by default?",
        "30 days",
    ),
    ("git_doc", "How old must reflog entries be before git gc expires them, by default?", "90 days"),
    # A release named by its product. POSTSCREEN_README: "The postscreen(8) daemon, introduced with Postfix
    # 2.8, ..."; lang_createindex: "Only versions of SQLite 3.3.0 (2006-01-11) and later are able to
    # understand the descending index format."
    ("postfix_doc", "In which Postfix release was the postscreen daemon introduced?", "2.8"),
    (
        "sqlite_doc",
        "What is the oldest SQLite release that understands the descending index schema format?",
        "3.3.0",
    ),
    # A directive described by its Description row and first sentence. mod_deflate.html: "Description:
    # Fragment size to be compressed at one time by zlib ... Default: DeflateBufferSize 8096 ..."
    (
        "apache_doc",
        "What is the default size, in bytes, of the fragments mod_deflate hands to zlib to compress at "
        "one time?",
        "8096",
    ),
    # The setting a sentence points back to. SMTPD_ACCESS_README: "Current Postfix versions postpone the
    # evaluation of client, helo and sender restriction lists until the RCPT TO or ETRN command. This
    # behavior is controlled by the smtpd_delay_reject parameter."
    (
        "postfix_doc",
        "Which parameter controls whether Postfix postpones client, HELO and sender restrictions until "
        "the RCPT TO command?",
        "smtpd_delay_reject",
    ),
    # The gate's focus: the manual's product (on every opened page) need not be in the sentence.
    # lang_conflict.html: "The default conflict resolution algorithm is ABORT."
    ("sqlite_doc3", "What conflict resolution algorithm does SQLite apply by default?", "ABORT"),
    # An amount asked in the user's words (`_doc_amounts`). json1.html: "any JSON input that has more than
    # 2000 levels of nesting is considered invalid."
    (
        "sqlite_doc",
        "How deeply may JSON be nested before SQLite's JSON functions call it invalid?",
        "2000 levels",
    ),
    # A default stated in its own sentence under the term described. git-notes.html, notes.rewriteMode:
    # "When copying notes during a rewrite ..., determines what to do if the target commit already has a
    # note. Must be one of overwrite, concatenate, cat_sort_uniq, or ignore. Defaults to concatenate."
    (
        "git_doc",
        "If a rewrite copies notes onto a target commit that already has a note, what happens by default?",
        "concatenate",
    ),
    # A version question's gloss in brackets need not be in the sentence. lang_upsert.html: "UPSERT syntax
    # was added to SQLite with version 3.24.0 (2018-06-04)."
    (
        "sqlite_doc",
        "In which SQLite version was the UPSERT (INSERT ... ON CONFLICT DO UPDATE) syntax added?",
        "3.24.0",
    ),
    # A value a list marks as the default for the case asked (`_marked_defaults`). POSTSCREEN_README,
    # under "When tests fail after the 220 SMTP server greeting": "drop (default for non-SMTP commands)".
    (
        "postfix_doc",
        "When a client fails postscreen's non-SMTP command test, what does postscreen do by default?",
        "drop",
    ),
    # A directive described by the first sentence after its table (`_doc_headed`). mod_dir.html,
    # FallbackResource: "Use this to set a handler for any URL that doesn't map to anything in your
    # filesystem, and would otherwise return HTTP 404 (Not Found)."
    (
        "apache_doc",
        "Which directive of mod_dir sets a handler for any URL that maps to nothing in the filesystem and "
        "would otherwise get a 404?",
        "FallbackResource",
    ),
    # A default amount read as an amount question's is, from a sentence stating a default, beside the
    # default extractors' low-scoring reads (review I). git-gc.html, gc.reflogExpireUnreachable: "git
    # reflog expire removes reflog entries older than this time and are not reachable from the current
    # tip; defaults to 30 days."
    (
        "git_doc",
        "By default, how long does git keep reflog entries that are no longer reachable from the branch tip "
        "(e.g. commits replaced by an amend) before expiring them?",
        "30 days",
    ),
    # A "New in version" note saying the option asked holds its page's subject too (review AE).
    # library/http.server.html: "New in version 3.11: --protocol argument was introduced."
    (
        "python_doc",
        "In which Python version was the --protocol option of python -m http.server added?",
        "3.11",
    ),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("corpus", "question", "expected"), ANSWERED_OVER_THE_MANUALS)
async def test_a_rule_of_this_session_answers_over_the_manual(
    corpus: str, question: str, expected: str
) -> None:
    outcome = await corpus_outcome(corpus, question)
    assert (outcome.status, outcome.answer) == ("answered", expected)


@pytest.mark.anyio
async def test_a_setting_given_its_value_is_no_value() -> None:
    # mod_expires.html's example: "ExpiresActive On # ... ExpiresByType text/html M604800": the value
    # asked is M604800, never the directive switched on before it.
    outcome = await corpus_outcome(
        "apache_doc",
        "In the mod_expires ExpiresByType example, what value makes HTML documents expire a week after "
        "they were changed?",
    )
    assert outcome.answer != "ExpiresActive"
    assert outcome.status != "answered" or "M604800" in outcome.answer


@pytest.mark.anyio
async def test_code_is_no_place() -> None:
    # library/logging.html: "If no handler is attached to this logger (or any of its ancestors, taking into
    # account the relevant Logger.propagate attributes), the message will be sent to the handler set on
    # lastResort." Logger.propagate is an attribute in the condition, not where the message goes.
    outcome = await corpus_outcome(
        "python_doc",
        "Where does a logging message go if no handler is attached to the logger or any of its ancestors?",
    )
    assert "Logger.propagate" not in outcome.answer


@pytest.mark.anyio
async def test_a_release_dating_something_else_is_not_when_a_thing_arrived() -> None:
    # library/fractions.html: "From Python 3.2 onwards, you can also construct a Fraction instance
    # directly from a float." - no word of the module's arrival.
    outcome = await corpus_outcome("python_doc", "In which Python version was the fractions module added?")
    assert outcome.status != "answered", outcome.answer


TEAPOT_TERMS = """
<dl>
<dt>brew_client_pot_count_limit (default: 50)</dt>
<dd><p>The maximum number of teapots that a brewing client may hold simultaneously.</p></dd>
<dt>brew_client_pot_rate_limit (default: no limit)</dt>
<dd><p>The maximum number of teapots that a brewing client may fill in the time interval specified with
brew_rate_time_unit (default: 60s).</p></dd>
<dt>brew_queue_lifetime (default: 5 days)</dt>
<dd><p>How long a brew may wait in the queue.</p>
<p>A teapot held simultaneously by two clients is cracked.</p></dd>
</dl>
"""


def test_a_described_parameter_gives_its_bracketed_default(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "teapot", "Teapot parameters", TEAPOT_TERMS)
    assert doc_answers(
        pages, "How many teapots may a single brewing client hold simultaneously by default?"
    ) == ["50"]
    # A description stating another setting's default too ("(default: 60s)") is not read: which the
    # question describes is not clear.
    assert "no limit" not in doc_answers(
        pages, "Over what time interval are a brewing client's teapots counted by default?"
    )
    # Only the sentence right under the term describes it: a later paragraph says something else.
    assert "5 days" not in doc_answers(
        pages, "How long may two clients hold a teapot simultaneously before it is cracked, by default?"
    )
    # A question naming the code is the stated-default path's, not this one's.
    assert "50" in doc_answers(pages, "What is the default value of brew_client_pot_count_limit?")


def _directive(name: str, description: str, default: str, module: str, first: str) -> str:
    rows = [
        ("Description:", description),
        ("Default:", f"<code>{name} {default}</code>"),
        ("Module:", module),
    ]
    table = "".join(f"<tr><th>{label}</th><td>{cell}</td></tr>" for label, cell in rows)
    heading = f'<h2><span id="{name}">{name}</span> Directive</h2>'
    return f'{heading}<table class="directive">{table}</table><p>{first}</p>'


TEAPOT_DIRECTIVES = _directive(
    "BrewBufferSize",
    "Fragment size to be steeped at one time by the kettle",
    "4096",
    "mod_brew",
    "The BrewBufferSize directive specifies the size in bytes of the leaves the kettle steeps at one time.",
) + _directive(
    "BrewPotLimit", "Largest pot served", "12", "mod_brew", "The BrewPotLimit directive limits the pot size."
)


def test_a_described_directive_gives_its_default_row(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "brew", "mod_brew", TEAPOT_DIRECTIVES)
    asked = "What is the default size, in bytes, of the leaves mod_brew steeps at one time in the kettle?"
    assert doc_answers(pages, asked) == ["4096"]
    # Every code the question names must be in the quote: mod_kettle is no module of this page.
    other = "What is the default size, in bytes, of the leaves mod_kettle steeps at one time in the kettle?"
    assert "4096" not in doc_answers(pages, other)


TEAPOT_CONTROLS = """
<p>Current Teapot versions postpone the steeping of green and black leaves until the water boils.
This behavior is controlled by the brew_delay_steep parameter. Restriction lists are still evaluated.</p>
<dl>
<dt>Rewrite "kettle!pot" to "pot@kettle"</dt>
<dd><p>This feature is controlled by the boolean swap_kettle_path parameter (default: yes).</p></dd>
</dl>
"""


def test_the_setting_a_sentence_points_back_to_controls_what_was_described(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "teapot", "Teapot", TEAPOT_CONTROLS)
    postpones = (
        "Which parameter controls whether Teapot postpones steeping green and black leaves until the water "
        "boils?"
    )
    assert doc_answers(pages, postpones) == ["brew_delay_steep"]
    # The first sentence of a description points back to its term.
    assert doc_answers(pages, 'Which parameter rewrites "kettle!pot" addresses into "pot@kettle" form?') == [
        "swap_kettle_path"
    ]
    # What the sentence before says must be what the question asks the setting for.
    assert "brew_delay_steep" not in doc_answers(
        pages, "Which parameter controls how long the water boils for guests?"
    )
