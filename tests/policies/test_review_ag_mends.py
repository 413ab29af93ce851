"""Wrong answers of review AG, measured before it was read (issue 11), each mended by a rule with a case
that must fail without it. The pages are invented (a `Kettle` product), so no case tunes on a manual.

- "In which SQLite release were the built-in SQL math functions such as sin() and log10() first
  added?" was answered 3.32.0 from "Or, since SQLite 3.32.0, the application can use PRAGMA
  analysis_limit=N ...": "sin" was found inside "since", so the release stood beside the name asked.
- "How many bytes long is the header of each frame in the WAL file?" was answered "zero bytes" from
  "... the WAL file is truncated to zero bytes ...": the thing measured, the header, is not in it.
"""

from __future__ import annotations

from pathlib import Path

from helpers.doc_pages import doc_answers, one_page

KETTLE = """
<h2>Descaling</h2>
<p>Or, since Kettle 3.32.0, the owner can use the DESCALE button for a short rinse of the tank.</p>
<p>The functions boil() and steep() were added in Kettle 2.1.0.</p>
<h2>Logs</h2>
<p>In this mode the water log is truncated to zero bytes after each brew.</p>
<p>Each log record begins with a stamp of 24 bytes.</p>
"""


def test_a_name_is_found_as_a_whole_word_beside_a_release(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "kettle", "Kettle manual", KETTLE)
    # Must fail when names are found inside words: "sin" of "since Kettle 3.32.0".
    assert doc_answers(pages, "In which Kettle release were sin() and log10() first added?") == []
    assert doc_answers(pages, "In which Kettle release was steep() added?")[:1] == ["2.1.0"]


def test_a_measure_holds_the_thing_measured(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "kettle", "Kettle manual", KETTLE)
    # Must fail without the thing measured: "truncated to zero bytes" is the water log's size after a
    # brew, not the length of a header.
    assert doc_answers(pages, "How many bytes long is the header of each water log record?") == []
    assert doc_answers(pages, "How many bytes long is the stamp of each log record?")[:1] == ["24 bytes"]


TEAPOT_MODULE = """
<p>New in version 3.5.</p>
<p>Source code: Lib/tea/pot.py</p>
<h2>Functions</h2>
<p>New in version 3.7: Added the lid and handle arguments.</p>
"""


def test_a_note_saying_nothing_asked_holds_no_page_subject(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "teapot", "tea.pot — Brew tea", TEAPOT_MODULE)
    # Must fail if every note held the page's subject: "Added the lid and handle arguments" would then
    # hold all of a question asking when the module itself came.
    assert doc_answers(pages, "In which Python version was the tea.pot module added?")[:1] == ["3.5"]
