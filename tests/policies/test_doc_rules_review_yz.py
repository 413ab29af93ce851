"""Reviews Y and Z (2026-12-05, fresh; Y with near misses, Z typed as in a support ticket) and review R's
last wrong answer: a release note of another change, another mode named in capitals, and a pragma
given for a mode. (Y's two other "wrong" answers were fair: "Off" and "true" for "Is ... by default?",
golds widened.)"""

from __future__ import annotations

import pytest
from citeloop.policies._doc_near_miss import another_named_kind
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._doc_shapes import called_a_name
from helpers.doc_pages import corpus_outcome


@pytest.mark.anyio
async def test_a_changed_in_note_telling_another_change_gives_no_version() -> None:
    # random.html: "Changed in version 3.2: randrange() is more sophisticated about producing equally
    # distributed values." says nothing of TypeError or floats; the page gives no version for that.
    raising = await corpus_outcome(
        "python_doc",
        "In which Python version does random.randrange(10.0) start raising TypeError instead of "
        "converting the float?",
    )
    assert raising.status != "answered", raising.answer
    # A note saying a word of the change ("Default value of repeat changed from 3 to 5") still answers,
    # and so does one naming the code the question names ("pickle.DEFAULT_PROTOCOL is now used ...").
    repeat = await corpus_outcome(
        "python_doc",
        "In which Python version did the default repeat count used by timeit.repeat() go up from 3?",
    )
    assert repeat.answer == "3.7"
    protocol = await corpus_outcome(
        "python_doc",
        "Starting with which Python version does shelve pickle values with pickle.DEFAULT_PROTOCOL "
        "by default?",
    )
    assert protocol.answer == "3.10"


@pytest.mark.anyio
async def test_another_mode_named_in_capitals_dates_no_mode_asked() -> None:
    # isolation.html: 'Since version 3.7.0 (2010-07-21), SQLite also supports "WAL mode".' - no
    # version for shared-cache mode.
    shared = await corpus_outcome("sqlite_doc3", "Since which SQLite version is shared-cache mode supported?")
    assert shared.status != "answered", shared.answer
    wal = await corpus_outcome("sqlite_doc3", "Since which SQLite version is WAL mode supported?")
    assert wal.answer == "3.7.0"


def test_another_named_kind() -> None:
    quote = 'Since version 3.7.0 (2010-07-21), SQLite also supports "WAL mode".'
    assert another_named_kind("Since which version is shared-cache mode supported?", quote)
    assert not another_named_kind("Since which version is WAL mode supported?", quote)
    # A word that is no name (lower case) names no other thing of the kind: "the default mode".
    assert not another_named_kind(
        "Since which version is exclusive mode the default?", "the default mode 3.1"
    )
    # The question's word said anywhere in the quote: the quote may be about it.
    assert not another_named_kind("Since when is shared mode kept?", "Shared mode and WAL mode since 3.1")


@pytest.mark.anyio
async def test_a_name_the_sentence_calls_a_pragma_is_no_mode() -> None:
    # wal.html: "... force a checkpoint using the wal_checkpoint pragma or by calling the
    # sqlite3_wal_checkpoint() C interface." names no checkpoint mode (the page's answer is PASSIVE).
    mode = await corpus_outcome("sqlite_doc", "which checkpoint mode does the automatic WAL checkpoint use?")
    assert "wal_checkpoint" not in mode.answer


def test_called_a_name() -> None:
    asked = doc_question("Which checkpoint mode does the automatic checkpoint use?", True)
    text = "force a checkpoint using the wal_checkpoint pragma"
    end = text.index("wal_checkpoint") + len("wal_checkpoint")
    assert called_a_name(text, end, asked)
    # Asked for a pragma, the pragma it names may answer.
    pragma = doc_question("Which pragma forces a checkpoint?", True)
    assert not called_a_name(text, end, pragma)
    # A mode the sentence gives as a value: nothing calls it a pragma.
    value = "checkpoints run in PASSIVE mode"
    assert not called_a_name(value, value.index("PASSIVE") + len("PASSIVE"), asked)
