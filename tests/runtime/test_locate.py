"""Locators (docs/gate.md): exact offsets into the original body, in code points and UTF-16 units."""

from __future__ import annotations

import hashlib

from citeloop.events import Locator
from citeloop.runtime import answer_digest, locate_evidence

WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"


def page(body: str) -> tuple[str, str]:
    return body, hashlib.sha256(body.encode("utf-8")).hexdigest()


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def only(locators: tuple[Locator, ...]) -> Locator:
    assert len(locators) == 1, locators
    return locators[0]


def check_exact(locator: Locator, body: str) -> None:
    assert body[locator.start : locator.end] == locator.quote
    assert locator.start_utf16 == utf16(body[: locator.start])
    assert locator.end_utf16 == utf16(body[: locator.end])
    assert locator.sha256 == hashlib.sha256(body.encode("utf-8")).hexdigest()


def test_the_spec_page() -> None:
    body = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
    loc = only(locate_evidence("founded by Ada Ortiz", [WIKI], {WIKI: page(body)}))
    assert (loc.url, loc.start, loc.end, loc.quote) == (WIKI, 18, 38, "founded by Ada Ortiz")
    assert (loc.start_utf16, loc.end_utf16) == (18, 38)
    check_exact(loc, body)


def test_the_quote_is_the_original_slice_with_its_own_white_space() -> None:
    body = "Intro.\n\nAcme\u00a0Robotics was\tfounded\r\n  by Ada Ortiz."
    loc = only(locate_evidence("  Acme Robotics   was founded by  ", [WIKI], {WIKI: page(body)}))
    assert loc.quote == "Acme\u00a0Robotics was\tfounded\r\n  by"
    check_exact(loc, body)


def test_first_occurrence_in_the_first_cited_page_that_contains_it() -> None:
    news = "Ortiz left in 2021. Ortiz left in 2021."
    wiki = "Nothing here about leaving."
    pages = {WIKI: page(wiki), NEWS: page(news)}
    loc = only(locate_evidence("Ortiz left in 2021.", [WIKI, NEWS], pages))
    assert (loc.url, loc.start) == (NEWS, 0)
    both = {WIKI: page(news), NEWS: page(news)}
    assert only(locate_evidence("Ortiz left", [NEWS, WIKI], both)).url == NEWS


def test_an_earlier_occurrence_split_by_a_newline_wins_over_a_later_exact_one() -> None:
    body = "Ada\nOrtiz founded it. Later: Ada Ortiz again."
    loc = only(locate_evidence("Ada Ortiz", [WIKI], {WIKI: page(body)}))
    assert (loc.start, loc.quote) == (0, "Ada\nOrtiz")


def test_astral_characters_count_twice_in_utf16() -> None:
    body = "\U0001f916 Robots \U0001d49c\U0001d49e: Acme was founded by Ada \U0001f600 Ortiz."
    loc = only(locate_evidence("founded by Ada \U0001f600 Ortiz", [WIKI], {WIKI: page(body)}))
    check_exact(loc, body)
    assert loc.start_utf16 == loc.start + 3  # three astral characters before the quote
    assert loc.end_utf16 - loc.start_utf16 == (loc.end - loc.start) + 1


def test_combining_marks_are_kept_as_code_points() -> None:
    body = "Jose\u0301 Ortiz cofounded Acme with Ade\u0300le."
    loc = only(locate_evidence("Jose\u0301 Ortiz", [WIKI], {WIKI: page(body)}))
    assert (loc.start, loc.end) == (0, 11)
    check_exact(loc, body)
    # No Unicode normalization: the precomposed form is a different string.
    assert locate_evidence("Jos\u00e9 Ortiz", [WIKI], {WIKI: page(body)}) == ()


def test_nothing_found_or_nothing_cited() -> None:
    pages = {WIKI: page("Acme Robotics.")}
    assert locate_evidence("Kenji Ito", [WIKI], pages) == ()
    assert locate_evidence("", [WIKI], pages) == ()
    assert locate_evidence(" \n", [WIKI], pages) == ()
    assert locate_evidence("Acme", [NEWS], pages) == ()  # a citation with no page is skipped


def test_answer_digest() -> None:
    assert answer_digest("Ada Ortiz") == hashlib.sha256(b"Ada Ortiz").hexdigest()
    assert answer_digest("Ada Ortiz") != answer_digest("Ada Ortiz.")
    assert answer_digest("caf\u00e9") == hashlib.sha256("caf\u00e9".encode()).hexdigest()
