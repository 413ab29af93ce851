"""'What exit status does X return when Y?' (review 25, the zsh manual): the status a sentence gives
under the condition asked, as builtins' descriptions state it - one status per sentence, or a list
of them each with its own clause; a negated condition is not its opposite, and a status another
command's sentence gives for the same words is not this one's. On an invented page in texinfo's
HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus


def _builtin(synopsis: str, description: str) -> str:
    return f"<dt><span><tt>{synopsis}</tt></span></dt><dd><p>{description}</p></dd>"


BUILTINS = (
    "<h2>17 Shell Builtin Commands</h2><dl>"
    + _builtin(
        ". file [ arg ... ]",
        "Read commands from file and execute them. If file was not found the return status is 127; if"
        " file was found but contained a syntax error the return status is 126; else the return status"
        " is the exit status of the last command executed.",
    )
    + _builtin(
        "wait [ job ... ]",
        "Wait for the specified jobs. If job represents an unknown job or process ID, a warning is printed"
        " and the exit status is 127.",
    )
    + _builtin(
        "let arg ...",
        "Evaluate each arg as an arithmetic expression. The exit status is 0 if the value of the last"
        " expression is nonzero, 1 if it is zero, and 2 if an error occurred.",
    )
    + _builtin(
        "flock file",
        "Lock the file, waiting up to 5 seconds. If the attempt times out, status 2 is returned.",
    )
    + "</dl><h2>18 The net/tcp Module</h2><p>In that case the remote command prints nothing and returns"
    " status 2, compared with status 1 for a file not found.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Its own clause, negated as the question is; not the module's "status 1 for a file not found".
        ("What return status does the . builtin give when the file to be sourced is not found?", "127"),
        ("What return status does the . builtin give when the file contains a syntax error?", "126"),
        ("What exit status does the wait builtin return when given an unknown job?", "127"),
        # The third of a list, by the clause after it.
        ("What exit status does the let builtin return if an error occurred?", "2"),
        ("What status does flock return if the attempt times out?", "2"),
        # No sentence states the condition: no status.
        ("What exit status does the wait builtin return when the job finishes normally?", None),
    ],
)
async def test_the_status_a_sentence_gives_under_the_condition_asked(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "quill builtins", BUILTINS), question)
    assert_answer(outcome, expected)
