"""Report validation (SPEC §12, docs/reports.md): each code on a draft that must fail and a near miss."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import pytest
from citeloop.events import DraftFinding
from citeloop.runtime._report_validate import CODES, validate_draft

DOCS = "https://acme.example/docs"
NOTES = "att-notes"
DOCS_TEXT = (
    "The Acme SDK opens a session with acme.connect(). It was released on 1 September 2021 "
    "and costs 4,000 USD per year.\nSessions do not persist across restarts. The retry_limit "
    "option defaults to 3. Ada Lovelace reviewed the design."
)
NOTES_TEXT = 'Quotes may hold "double quotes" and astral 𝄞 characters, said Grace Hopper.'


def _page(text: str) -> tuple[str, str]:
    return text, hashlib.sha256(text.encode()).hexdigest()


CITABLE = {DOCS: _page(DOCS_TEXT), NOTES: _page(NOTES_TEXT)}


def codes(
    draft: str, citable: dict[str, tuple[str, str]] = CITABLE, *, support: Sequence[str] = ()
) -> list[str]:
    findings, _ = validate_draft(draft, citable, question="Does a session persist?", support=support)
    return [finding.code for finding in findings]


def findings_of(draft: str, code: str) -> list[DraftFinding]:
    return [finding for finding in validate_draft(draft, CITABLE)[0] if finding.code == code]


GOOD = f"""# Acme SDK

The Acme SDK opens a session with `acme.connect()`.[^1] It was released on September 1, 2021
and costs 4000 USD per year.[^2]

- Sessions do not persist.[^3]

## Gaps

The price of the enterprise plan was not found.

[^1]: <{DOCS}> "The Acme SDK opens a session with acme.connect()."
[^2]: {DOCS} "It was released on 1 September 2021 and costs 4,000 USD per year."
[^3]: {DOCS} "Sessions do not persist across restarts."
"""


def test_a_good_draft_passes_with_its_footnotes_located_in_order() -> None:
    findings, footnotes = validate_draft(GOOD, CITABLE)
    assert findings == ()
    assert [footnote.n for footnote in footnotes] == [1, 2, 3]
    for footnote in footnotes:
        text, sha256 = CITABLE[footnote.url]
        assert text[footnote.start : footnote.end] == footnote.quote
        assert footnote.sha256 == sha256


def test_footnotes_are_in_order_of_their_number_not_of_their_lines() -> None:
    draft = f'A.[^2] B.[^1]\n\n[^2]: {DOCS} "Sessions do not persist"\n[^1]: {DOCS} "The Acme SDK"\n'
    findings, footnotes = validate_draft(draft, CITABLE)
    assert findings == ()
    assert [(footnote.n, footnote.quote) for footnote in footnotes] == [
        (1, "The Acme SDK"),
        (2, "Sessions do not persist"),
    ]


def test_no_sources() -> None:
    assert codes(GOOD, {})[0] == "no_sources"
    assert "no_sources" not in codes(GOOD)


def test_no_citations() -> None:
    assert codes("The sky is blue.\n") == ["no_citations"]
    assert codes(f'The sky is blue.[^1]\n\n[^1]: {DOCS} "The Acme SDK"\n') == []


def test_a_marker_in_code_is_no_citation() -> None:
    assert "no_citations" in codes(f'See `x[^1]`.\n\n```\ny[^1]\n```\n[^1]: {DOCS} "The Acme SDK"\n')


@pytest.mark.parametrize(
    "draft",
    [
        f'Sessions do not persist.[^2]\n\n[^1]: {DOCS} "Sessions do not persist"\n',  # no [^2]
        'Sessions do not persist.[^1]\n\n[^1]: https://other.example "Sessions do not persist"\n',
        f'Sessions do not persist.[^a]\n\n[^a]: {DOCS} "Sessions do not persist"\n',  # not a number
        f"Sessions do not persist.[^1]\n\n[^1]: {DOCS} Sessions do not persist\n",  # no quotes
        f'Sessions.[^1]\n\n[^1]: {DOCS} "Sessions"\n[^1]: {DOCS} "persist"\n',  # defined twice
    ],
)
def test_dangling_citation(draft: str) -> None:
    assert "dangling_citation" in codes(draft)


@pytest.mark.parametrize(
    "definition",
    [f'[^1]: {DOCS} "Sessions do not persist"', f'[^1]: <{DOCS}> "Sessions do not persist"  '],
)
def test_dangling_citation_near_miss(definition: str) -> None:
    assert codes(f"Sessions do not persist.[^1]\n\n{definition}\n") == []


def test_quote_not_in_source() -> None:
    draft = f'Sessions do not persist.[^1]\n\n[^1]: {DOCS} "Sessions do not persist across reboots"\n'
    assert codes(draft) == ["quote_not_in_source"]
    [finding] = findings_of(draft, "quote_not_in_source")
    assert finding.footnote == 1


def test_a_quote_from_another_source_is_not_in_the_cited_one() -> None:
    assert codes(f'Grace said so.[^1]\n\n[^1]: {DOCS} "said Grace Hopper"\n') == ["quote_not_in_source"]
    assert codes(f'Grace said so.[^1]\n\n[^1]: {NOTES} "said Grace Hopper"\n') == []


def test_quote_not_in_source_is_case_and_character_exact() -> None:
    draft = f'Sessions do not persist.[^1]\n\n[^1]: {DOCS} "sessions do not persist"\n'
    assert codes(draft) == ["quote_not_in_source"]


def test_a_quote_across_a_line_break_locates_the_exact_span() -> None:
    # The only leniency: white-space runs match any white-space run; the footnote records
    # the source's own span, line break included (docs/reports.md).
    draft = f'Sessions do not persist.[^1]\n\n[^1]: {DOCS} "per year. Sessions do not persist"\n'
    findings, [footnote] = validate_draft(draft, CITABLE)
    assert findings == ()
    assert footnote.quote == "per year.\nSessions do not persist"
    assert DOCS_TEXT[footnote.start : footnote.end] == footnote.quote


def test_a_quote_holding_double_quotes_ends_at_the_last_one() -> None:
    quote = 'Quotes may hold "double quotes" and astral 𝄞 characters, said Grace Hopper.'
    draft = f'Grace Hopper said it.[^1]\n\n[^1]: {NOTES} "{quote}"\n'
    findings, [footnote] = validate_draft(draft, CITABLE)
    assert findings == ()
    assert footnote.end_utf16 - footnote.start_utf16 == len(footnote.quote) + 1  # 𝄞 is two units


def test_unreferenced_footnote() -> None:
    definitions = f'[^1]: {DOCS} "Sessions do not persist"\n[^2]: {DOCS} "The Acme SDK"\n'
    draft = f"Sessions do not persist.[^1]\n\n{definitions}"
    assert codes(draft) == ["unreferenced_footnote"]
    assert findings_of(draft, "unreferenced_footnote")[0].footnote == 2
    cited = draft.replace("persist.[^1]", "persist.[^1] Acme ships an SDK.[^2]")
    assert codes(cited) == []


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("It costs 4,000 USD per year.", "4,000"),
        ("It was released on 1 September 2021.", "1 september 2021"),
        ("The design was reviewed by Ada Lovelace.", "Lovelace"),
        ("Set `retry_limit` to retry.", "retry_limit"),
        ("Set retry_limit to retry.", "retry_limit"),
        ("Call acme.connect to begin.", "acme.connect"),
        ("Call connect() to begin.", "connect()"),
        ("The sessionManager holds them.", "sessionManager"),
    ],
)
def test_uncited_fact(sentence: str, fact: str) -> None:
    draft = f'{sentence} Sessions do not persist.[^1]\n\n[^1]: {DOCS} "Sessions do not persist"\n'
    [finding] = findings_of(draft, "uncited_fact")
    assert fact in finding.detail


@pytest.mark.parametrize(
    "sentence",
    [
        "The design is simple.",  # a capitalized word only where a sentence opens
        "It is, e.g. in practice, simple.",  # "e.g" is no dotted name
        "## Overview",  # a heading names its topic
        "## Acme SDK",
        "## 2.1 Overview",  # a section number is not a fact
        "| Option | Meaning |\n| --- | --- |",  # a table's header cells open clauses
        "```\nacme.connect_fast(4000)\n```",  # fenced code is not prose
    ],
)
def test_uncited_fact_near_miss(sentence: str) -> None:
    draft = f'{sentence}\n\nSessions do not persist.[^1]\n\n[^1]: {DOCS} "Sessions do not persist"\n'
    assert codes(draft) == []


def test_a_heading_that_states_a_number_is_a_fact() -> None:
    draft = f'## Released in 2021\n\nSessions do not persist.[^1]\n\n[^1]: {DOCS} "Sessions do not persist"\n'
    assert codes(draft) == ["uncited_fact"]


def test_a_disclosure_section_says_what_was_not_found_without_citing() -> None:
    gaps = "## Gaps\n\nThe price of Acme Pro was not found.\n"
    body = f'Sessions do not persist.[^1]\n\n{gaps}\n[^1]: {DOCS} "Sessions do not persist"\n'
    assert codes(body) == []
    # Outside such a section, or stating a fact without disclosing anything, it must cite.
    assert codes(body.replace("## Gaps", "## Pricing")) == ["uncited_fact"]
    assert codes(body.replace("was not found", "is 5,000 USD")) == ["uncited_fact"]


def test_the_post_mortem_case_is_refused() -> None:
    # An API name in no source: cited, it is unsupported; uncited, it is an uncited fact.
    quote = f'[^1]: {DOCS} "The Acme SDK opens a session with acme.connect()."'
    cited = f"Use `acme.connect_fast()` to open a session.[^1]\n\n{quote}\n"
    assert codes(cited) == ["unsupported_claim"]
    assert "acme.connect_fast" in findings_of(cited, "unsupported_claim")[0].detail
    uncited = f"Use `acme.connect_fast()` to open a session. The SDK opens sessions.[^1]\n\n{quote}\n"
    assert codes(uncited) == ["uncited_fact"]
    # The near miss: the name the source gives passes.
    assert codes(cited.replace("connect_fast", "connect")) == []


@pytest.mark.parametrize(
    ("sentence", "missing"),
    [
        ("It costs 5,000 USD per year.[^1]", "5,000"),
        ("It costs 400 USD per year.[^1]", "400"),  # not a part of 4,000
        ("It was released on 2 September 2021.[^1]", "2 september 2021"),
        ("It was released by Grace Hopper.[^1]", "Hopper"),
        ("Set `retry_max` to 3.[^1]", "retry_max"),
        ("It does not cost 4,000 USD per year.[^1]", "not"),
    ],
)
def test_unsupported_claim(sentence: str, missing: str) -> None:
    draft = (
        f'{sentence}\n\n[^1]: {DOCS} "It was released on 1 September 2021 and costs 4,000 USD per year."\n'
    )
    [finding] = findings_of(draft, "unsupported_claim")
    assert missing in finding.detail
    assert finding.footnote == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "It costs 4000 USD per year.[^1]",  # the same number without the thousands comma
        "It costs 4000.0 USD per year.[^1]",  # the same value
        "It shipped on September 1, 2021.[^1]",  # the same date, spelled otherwise
        "It shipped in 2021 for 4,000 USD.[^1]",
        "Sessions, it says, do not persist.[^1][^2]",  # the negation is in the second quote
        "Sessions don't persist.[^2]",  # n't is not
    ],
)
def test_unsupported_claim_near_miss(sentence: str) -> None:
    draft = (
        f"{sentence}\n\n"
        f'[^1]: {DOCS} "It was released on 1 September 2021 and costs 4,000 USD per year."\n'
        f'[^2]: {DOCS} "Sessions do not persist across restarts."\n'
    )
    assert [code for code in codes(draft) if code != "unreferenced_footnote"] == []


def test_unsupported_claim_by_a_named_support_method() -> None:
    draft = f'Sessions are kept.[^1]\n\n[^1]: {DOCS} "Sessions do not persist across restarts."\n'
    assert codes(draft) == []  # no fact, no negation: the plain checks pass it
    assert codes(draft, support=["answer-in-quote"]) == ["unsupported_claim"]
    near = draft.replace("Sessions are kept.", "Sessions persist across restarts.")
    assert codes(near, support=["answer-in-quote"]) == []
    # A sentence with no letter or digit states nothing to judge.
    assert codes(draft.replace("Sessions are kept.", "\u2014"), support=["answer-in-quote"]) == []


def test_findings_come_in_code_order_and_name_every_case() -> None:
    draft = (
        "Acme was founded in 1999 by Grace Hopper.\n\n"
        "It costs 9 USD.[^1] It is sold in Paris.[^3] It is free.[^4]\n\n"
        f'[^1]: {DOCS} "costs 4,000 USD"\n[^2]: {DOCS} "The Acme SDK"\n'
        f'[^4]: {DOCS} "It is free"\n'
    )
    found = codes(draft)
    assert found == sorted(found, key=CODES.index)
    assert set(found) == {
        "dangling_citation",
        "quote_not_in_source",
        "unreferenced_footnote",
        "uncited_fact",
        "unsupported_claim",
    }
    assert [f.footnote for f in findings_of(draft, "dangling_citation")] == [3]


def test_a_marker_after_the_period_and_a_space_cites_the_sentence_before() -> None:
    draft = f'It costs 4,000 USD per year. [^1] That is all.\n\n[^1]: {DOCS} "costs 4,000 USD per year"\n'
    assert codes(draft) == []
    assert codes(draft.replace(". [^1]", ".")) == ["no_citations", "unreferenced_footnote", "uncited_fact"]


def test_a_sentence_ends_before_an_upper_case_word_not_after_an_abbreviation() -> None:
    definition = f'[^1]: {DOCS} "costs 4,000 USD per year"'
    # Cited, "e.g." does not end the sentence that states 4,000; the next sentence must cite.
    assert codes(f"It costs, e.g. per seat, 4,000 USD per year.[^1]\n\n{definition}\n") == []
    split = f"It is sold by Acme. It costs 4,000 USD per year.[^1]\n\n{definition}\n"
    [finding] = findings_of(split, "uncited_fact")
    assert "Acme" in finding.detail


def test_a_month_in_a_date_is_the_date_not_a_name() -> None:
    iso = f'[^1]: {DOCS} "released 2021-09-01"'
    docs = {DOCS: _page("It was released 2021-09-01.")}
    assert codes(f"It shipped on September 1, 2021.[^1]\n\n{iso}\n", docs) == []
    assert codes(f"It shipped on September 2, 2021.[^1]\n\n{iso}\n", docs) == ["unsupported_claim"]
    # Without a date, a capitalized month word is a name like any other.
    assert codes(f"It shipped in late September.[^1]\n\n{iso}\n", docs) == ["unsupported_claim"]


def test_a_number_is_in_a_quote_by_value_but_not_as_a_part_of_a_date() -> None:
    docs = {DOCS: _page("Released 2021-09-01, it costs 4\u00a0000 USD.")}
    definition = f'[^1]: {DOCS} "Released 2021-09-01, it costs 4\u00a0000 USD."'
    assert codes(f"It costs 4,000 USD.[^1]\n\n{definition}\n", docs) == []
    [finding] = validate_draft(f"It costs 9 USD.[^1]\n\n{definition}\n", docs)[0]
    assert finding.code == "unsupported_claim"
    assert "9" in finding.detail


def test_a_table_s_cells_are_prose() -> None:
    cited = f'Sessions do not persist.[^1]\n\n[^1]: {DOCS} "Sessions do not persist"\n'
    assert codes(f"| Option | Meaning |\n| --- | --- |\n| retries | 3 |\n\n{cited}") == ["uncited_fact"]
    assert codes(f"| Option | Meaning |\n| --- | --- |\n| retries | many |\n\n{cited}") == []


def test_each_finding_names_its_marker_or_sentence() -> None:
    draft = (
        "Acme was founded in 1999.\n\n"
        "It costs 9 USD.[^1] It is free.[^4] It is sold.[^3]\n\n"
        f'[^1]: {DOCS} "costs 4,000 USD"\n[^2]: {DOCS} "The Acme SDK"\n[^4]: {DOCS} "It is gratis"\n'
    )
    details = {finding.code: finding.detail for finding in validate_draft(draft, CITABLE)[0]}
    assert "[^3]" in details["dangling_citation"]
    assert "[^4]" in details["quote_not_in_source"] and "It is gratis" in details["quote_not_in_source"]
    assert "[^2]" in details["unreferenced_footnote"]
    assert "Acme was founded in 1999" in details["uncited_fact"]
    assert "It costs 9 USD" in details["unsupported_claim"]
