"""focus-entity over a manual: the product every opened page documents need not be in the quote."""

from __future__ import annotations

from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.runtime._focus import question_focus
from citeloop.runtime._product_focus import about_the_product, product_foci

QUOTE = "The default conflict resolution algorithm is ABORT."
QUESTION = "What is SQLite's default conflict resolution algorithm?"
MANUAL = [
    "# The ON CONFLICT Clause\nThe ON CONFLICT clause is a non-standard extension specific to SQLite. "
    + QUOTE,
    "# STRICT Tables\nSQLite strives to be flexible regarding the datatype of the content.",
    "# Clustered Indexes\nBy default, every row in SQLite has a special column, the rowid.",
]


def focus_verdict(question: str, answer: str, opened: list[str]) -> str:
    verdicts = assess_support(question, answer, QUOTE, DEFAULT_SUPPORT, opened=opened)
    return next(v.verdict for v in verdicts if v.method == "focus-entity")


def test_a_quote_about_a_feature_need_not_name_the_manuals_product() -> None:
    assert focus_verdict(QUESTION, "ABORT", MANUAL) == "supported"
    # Must fail: without the opened pages the quote does not name SQLite.
    assert focus_verdict(QUESTION, "ABORT", []) == "unsupported"


def test_the_product_is_one_word_on_every_page_of_three_or_more() -> None:
    foci = question_focus(QUESTION)
    assert [f.text for f in product_foci(foci, MANUAL)] == ["SQLite"]
    # Must fail: two pages opened are too few to tell a manual's product from a topic.
    assert product_foci(foci, MANUAL[:2]) == ()
    # Must fail: a page that never says SQLite (a word inside another is no mention: "SQLiteDB").
    assert product_foci(foci, [*MANUAL[:2], "# Other\nSQLiteDB is not the product."]) == ()
    # Must fail: a name of two words is what a question is about, even when on every page.
    news = [f"Acme Robotics page {n}." for n in range(3)]
    assert product_foci(question_focus("Who founded Acme Robotics?"), news) == ()


def test_the_quote_must_hold_most_of_the_questions_other_words() -> None:
    foci = question_focus(QUESTION)
    assert about_the_product(QUESTION, QUOTE.casefold(), foci, MANUAL) is not None
    # Must fail: another default, sharing only "default" with the question.
    other = "the default page size is 4096 bytes."
    assert about_the_product(QUESTION, other, foci, MANUAL) is None
    # Must fail: two of four words ("default", "algorithm") are not most of the question.
    half = "the default algorithm is abort."
    assert about_the_product(QUESTION, half, foci, MANUAL) is None
    # Must fail: four words held, but of seven: the case asked ("tables without rowid") is not the quote's.
    narrower = "What is SQLite's default conflict resolution algorithm for tables without a rowid?"
    assert about_the_product(narrower, QUOTE.casefold(), foci, MANUAL) is None


def test_code_the_question_names_must_still_be_in_the_quote() -> None:
    # Must fail: "ON_CONFLICT_MODE" is code the question names; the product rule never stands in for it.
    question = "What is SQLite's default ON_CONFLICT_MODE conflict resolution algorithm?"
    assert focus_verdict(question, "ABORT", MANUAL) == "unsupported"
