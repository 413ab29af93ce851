"""The version a section gives for "this feature" (postfix_doc's dev half, pf029 and pf034).

"Address verification is a feature that allows the SMTP server to block a sender or recipient
address ... This feature is available in Postfix version 2.1 and later." answers "Since which
Postfix version is sender and recipient address verification available?": what became available
is what the section told before it. Before this rule both questions below were refused; the
others must stay refused (another section's feature, code the section never names).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, doc_answers, one_page_corpus, open_pages

PAGE = """
<h2>What Quillmail address verification can do for you</h2>
<p>Address verification is a feature that allows the Quillmail SMTP server to block a sender
or recipient address until the address has been verified to be deliverable.</p>
<p>This feature is available in Quillmail version 2.1 and later.</p>
<h2>Generic mapping for outgoing SMTP mail</h2>
<p>Some hosts have no valid Internet domain name.</p>
<p>With the <code>smtp_generic_maps</code> parameter you can specify lookup tables that replace
local mail addresses by valid Internet addresses when mail leaves the machine via SMTP. The
mapping replaces envelope and header addresses.</p>
<p>This feature is available in Quillmail version 2.2 and later.</p>
<h2>Relocated users</h2>
<p>The relocated table tells senders where a user has moved to.</p>
<p>This feature is available in Quillmail version 2.4 and later.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Since which Quillmail version is sender and recipient address verification available?", "2.1"),
        (
            "Since which Quillmail version can smtp_generic_maps rewrite local addresses in outgoing mail?",
            "2.2",
        ),
    ],
)
@pytest.mark.anyio
async def test_this_feature_is_what_its_section_told(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Quillmail address handling", PAGE), question)
    assert (outcome.status, outcome.answer) == ("answered", expected)
    assert outcome.evidence_text.endswith(
        f"This feature is available in Quillmail version {expected} and later."
    )


@pytest.mark.parametrize(
    "question",
    [
        # the relocated section's feature is not greylisting (nor is any other section's)
        "Since which Quillmail version can the server greylist clients that retry too quickly?",
        # the section of version 2.2 never names smtp_sasl_maps
        "Since which Quillmail version can smtp_sasl_maps replace local mail addresses?",
    ],
)
def test_another_sections_feature_gives_no_version(tmp_path: Path, question: str) -> None:
    pages = open_pages(one_page_corpus(tmp_path / "pages", "Quillmail address handling", PAGE), "page")
    assert doc_answers(pages, question) == []
