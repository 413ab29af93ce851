"""Multi-quote evidence (issue 12, item 6): a finish may cite a bridge sentence and an answer sentence."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import pytest
from citeloop.events import (
    ActionParsed,
    Answered,
    CallTool,
    Page,
    PolicyReply,
    RunStarted,
    ToolDispatched,
    ToolObserved,
    decode_event,
    encode_event,
)
from citeloop.runtime import fold, validate_finish
from citeloop.runtime._decide_finish import decide_finish
from hypothesis import given
from hypothesis import strategies as st

FILM = "corpus://film"
DIRECTOR = "corpus://director"
FILM_BODY = "The Quiet Harbour is a 1998 film directed by Lena Brandt."
DIRECTOR_BODY = "Lena Brandt (born 1961) is a Danish director born in Aarhus."
OPENED = {FILM: FILM_BODY, DIRECTOR: DIRECTOR_BODY}
AT = datetime(2026, 12, 1, tzinfo=UTC)


def finish(**changes: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "answer": "Aarhus",
        "citations": [FILM, DIRECTOR],
        "cannot_answer": False,
        "evidence": [
            "directed by Lena Brandt",
            "Lena Brandt (born 1961) is a Danish director born in Aarhus",
        ],
    }
    payload.update(changes)
    return payload


def test_two_quotes_each_in_a_cited_page_are_accepted() -> None:
    assert validate_finish(finish(), OPENED) is None


def test_a_quote_in_no_page_rejects_the_whole_finish() -> None:
    assert (
        validate_finish(finish(evidence=["directed by Lena Brandt", "born in Odense"]), OPENED) == "evidence"
    )


def test_a_quote_only_in_an_uncited_page_is_evidence_uncited() -> None:
    payload = finish(citations=[DIRECTOR])
    assert validate_finish(payload, OPENED) == "evidence_uncited"


def test_an_empty_list_is_no_evidence() -> None:
    assert validate_finish(finish(evidence=[]), OPENED) == "evidence"


@pytest.mark.parametrize("evidence", [["directed by", 3], ("directed by Lena Brandt",), [None]])
def test_a_list_of_anything_but_strings_is_a_type_error(evidence: object) -> None:
    assert validate_finish(finish(evidence=evidence), OPENED) == "types"


def test_an_abstention_with_quotes_is_misshapen() -> None:
    payload = finish(cannot_answer=True, answer="cannot: unknown", citations=[], evidence=["x"])
    assert validate_finish(payload, OPENED) == "abstain_shape"
    assert validate_finish({**payload, "evidence": []}, OPENED) is None


def _state_with_both_pages() -> Any:
    start = RunStarted(
        run_id="r",
        seq=0,
        at=AT,
        question="Where was the director of The Quiet Harbour born?",
        max_steps=6,
        tools=(),
        allowlist=(),
        policy="p",
    )
    events: list[Any] = [start]
    for step, (url, body) in enumerate(OPENED.items(), start=1):
        seq = len(events)
        action = CallTool(tool="open", input=url)
        reply = PolicyReply(text="x")
        page = Page(url=url, title=url, body=body, sha256=_sha(body))
        events += [
            ActionParsed(run_id="r", seq=seq, at=AT, step=step, reply=reply, thought="", action=action),
            ToolDispatched(
                run_id="r",
                seq=seq + 1,
                at=AT,
                step=step,
                call_id=f"c{step}",
                tool="open",
                input=url,
                read_only=True,
            ),
            ToolObserved(
                run_id="r",
                seq=seq + 2,
                at=AT,
                step=step,
                call_id=f"c{step}",
                tool="open",
                input=url,
                observation=page,
            ),
        ]
    return fold(events)


def _sha(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


def test_the_answer_records_one_locator_per_quote_and_the_quotes_as_a_tuple() -> None:
    state = _state_with_both_pages()
    [answered] = decide_finish(state, 3, finish(), AT)
    assert isinstance(answered, Answered)
    assert answered.evidence == tuple(finish()["evidence"])
    assert [locator.url for locator in answered.locators] == [FILM, DIRECTOR]
    for locator in answered.locators:
        assert OPENED[locator.url][locator.start : locator.end] == locator.quote
    # The tuple survives the log: decoded, it is the same event.
    assert decode_event(encode_event(answered)) == answered


def test_a_single_quote_is_still_recorded_as_a_string() -> None:
    state = _state_with_both_pages()
    [answered] = decide_finish(
        state, 3, finish(evidence="directed by Lena Brandt", citations=[FILM], answer="Lena Brandt"), AT
    )
    assert isinstance(answered, Answered)
    assert answered.evidence == "directed by Lena Brandt"
    assert b'"evidence":"directed by Lena Brandt"' in encode_event(answered)


@given(
    st.lists(
        st.sampled_from([FILM_BODY, DIRECTOR_BODY]).flatmap(
            lambda body: st.tuples(st.integers(0, len(body) - 1), st.integers(1, len(body))).map(
                lambda span: body[min(span) : max(span) + 1]
            )
        ),
        min_size=1,
        max_size=4,
    )
)
def test_quotes_cut_from_cited_pages_pass_unless_too_short(quotes: list[str]) -> None:
    code = validate_finish(finish(evidence=quotes, answer="Lena Brandt"), OPENED)
    too_short = any(sum(char.isalnum() for char in quote) < 3 for quote in quotes)
    assert code == ("evidence" if too_short else None)
