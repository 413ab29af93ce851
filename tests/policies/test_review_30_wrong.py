"""Wrong answers review 30 (the Vim 9.0 manual, its help files as `<pre>` pages) gave, measured before
they were read: with a `<pre>` block's lines kept as lines (tests/tools/test_html.py), a statement of
a program ("if not compare_hash(hashed, crypt.crypt(plaintext, hashed)):", "hashed =
crypt.crypt(plaintext)") or a numbered SQL line ("2 $$SELECT * FROM ...") is an example, which says
nothing of what its names do; and "Which command-line argument ...?" asks for a flag ("-Z"), which a
key sequence named in a sentence ("gQ") is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

CRYPT = (
    "<h2>crypt</h2><p>The crypt module provides hashing methods.</p><p>Examples:</p>"
    "<pre>hashed = crypt.crypt(plaintext)\n"
    "if not compare_hash(hashed, crypt.crypt(plaintext, hashed)):\n"
    '    raise ValueError("hashed version does not validate")\n</pre>'
)
TSP = (
    "<h2>pgr_TSP</h2><p>Using the TSP heuristic on the graph.</p><h3>Using pgr_dijkstraCostMatrix to"
    " generate the matrix information</h3><pre>1SELECT * FROM pgr_TSP(\n2 $$SELECT * FROM"
    " pgr_withPointsCostMatrix(\n3 'SELECT id, source, target FROM edges')$$);</pre>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question"),
    [
        ("crypt", CRYPT, "Which crypt hashing method is the weakest?"),
        ("pgr_TSP", TSP, "Which function does the pgr_TSP example use to generate the matrix information?"),
    ],
)
async def test_a_line_of_a_program_answers_nothing(
    tmp_path: Path, title: str, page: str, question: str
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, None)


STARTING = (
    "<h2>Starting Vim</h2><p>The Ex mode is entered with gQ, and it starts Vim in restricted mode when the"
    " shell is gone.</p>"
)


@pytest.mark.anyio
async def test_a_command_line_argument_is_a_flag(tmp_path: Path) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "starting", STARTING),
        "Which command-line argument starts Vim in restricted mode?",
    )
    assert_answer(outcome, None)
