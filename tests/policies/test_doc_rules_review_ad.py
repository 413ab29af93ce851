"""Reviews of 2026-12-05 (the sixteenth session): a question asked after a scene is read as its last
question clause; an exception is named with its module; a setting given its own value is no value."""

from __future__ import annotations

import pytest
from citeloop.policies._doc_clause import asked_clause
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import corpus_outcome


def test_the_last_question_clause_is_read_with_the_scene_kept() -> None:
    asked = doc_question(
        "Generated columns are missing from PRAGMA table_info output; which pragma lists them?", True
    )
    assert asked is not None and asked.noun == "unhandled"
    clause = asked_clause(asked)
    assert clause is not None
    assert (clause.kind, clause.noun) == ("which", "pragma")
    assert "table_info" in clause.identifiers  # the scene's code still says what it is about
    assert "generat" in clause.words
    # A question already of a kind is not read again, and one with no question clause is not read.
    whole = doc_question("Which pragma lists generated columns?", True)
    assert whole is not None and asked_clause(whole) is None
    plain = doc_question("need to attach 200 databases, can I raise SQLITE_MAX_ATTACHED that high", True)
    assert plain is not None and asked_clause(plain) is None


@pytest.mark.anyio
async def test_a_question_after_a_scene_is_answered() -> None:
    # postfix VIRTUAL_README: "The virtual_minimum_uid specifies a lower bound on the mailbox or maildir
    # owner's UID."
    outcome = await corpus_outcome(
        "postfix_doc",
        "For virtual mailbox delivery, which parameter sets a lower bound on the mailbox or maildir "
        "owner's UID?",
    )
    assert outcome.status == "answered", outcome.answer
    assert outcome.answer == "virtual_minimum_uid"


@pytest.mark.anyio
async def test_an_exception_is_named_with_its_module() -> None:
    # library/base64.html: "A binascii.Error exception is raised if s is incorrectly padded."
    outcome = await corpus_outcome(
        "python_doc",
        "Our service crashes in base64.b64decode on tokens whose '=' padding was stripped - which "
        "exception is raised for incorrect padding?",
    )
    assert outcome.status == "answered", outcome.answer
    assert outcome.answer == "binascii.Error"


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
async def test_a_case_the_question_negates_by_a_prefix_is_the_one_asked() -> None:
    # git-gc.html: gc.reflogExpire "removes reflog entries older than this time; defaults to 90 days";
    # gc.reflogExpireUnreachable "... older than this time and are not reachable from the current tip;
    # defaults to 30 days". "Unreachable" asks the second case, as "not reachable" would.
    unreachable = await corpus_outcome(
        "git_doc", "How old must unreachable reflog entries be before git gc expires them, by default?"
    )
    assert unreachable.answer == "30 days"
    every = await corpus_outcome(
        "git_doc", "How old must reflog entries be before git gc expires them, by default?"
    )
    assert every.answer == "90 days"


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
