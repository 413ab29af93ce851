"""Review W (2026-12-05, FAQ-style questions): its one wrong answer - a signature's None for a parameter
whose description states another default."""

from __future__ import annotations

import pytest
from helpers.doc_pages import corpus_outcome


@pytest.mark.anyio
async def test_a_signature_none_is_a_sentinel_when_the_description_states_the_default() -> None:
    # filecmp: "class filecmp.dircmp(a, b, ignore=None, hide=None)" and "hide is a list of names to
    # hide, and defaults to [os.curdir, os.pardir]." - the None stands for that list.
    hide = await corpus_outcome("python_doc", "What does the hide parameter of filecmp.dircmp default to?")
    assert "None" not in hide.answer
    # A signature default the description does not replace is still the answer.
    shallow = await corpus_outcome("python_doc", "What is the default of shallow in filecmp.cmp?")
    assert shallow.status == "answered" and "True" in shallow.answer
