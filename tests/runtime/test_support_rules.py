"""The support rules added with issue 11, items 2-4: cases that must pass and cases that must fail."""

from __future__ import annotations

import pytest
from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.runtime._focus import question_focus


def verdicts(question: str, answer: str, quote: str) -> dict[str, str]:
    return {v.method: v.verdict for v in assess_support(question, answer, quote, DEFAULT_SUPPORT)}


def test_an_answer_that_only_spells_out_the_question_s_acronym_is_refused() -> None:
    quote = "Libya immediately announced it would embargo oil shipments to the United States."
    assert (
        verdicts("Who announced it would embargo oil shipments to the US?", "United States", quote)[
            "focus-entity"
        ]
        == "unsupported"
    )
    assert (
        verdicts("Who announced it would embargo oil shipments to the US?", "Libya", quote)["focus-entity"]
        == "supported"
    )


def test_spelling_out_an_acronym_answers_what_it_stands_for() -> None:
    quote = "GSI (Generalized Search Index) indexes are not a single kind of index."
    assert (
        verdicts("What does GSI stand for?", "Generalized Search Index", quote)["focus-entity"] == "supported"
    )
    # Must fail: asked something else of GSI, its spelled-out name is still no answer.
    assert verdicts("Who designed GSI?", "Generalized Search Index", quote)["focus-entity"] == "unsupported"


def test_a_quote_whose_first_line_is_the_answers_term_is_about_it_throughout() -> None:
    question = "Which lock mode does CREATE INDEX acquire?"
    # A term and its description: the command asked about is named two sentences after the mode.
    quote = (
        "SHARE (ShareLock)\n    Conflicts with the ROW EXCLUSIVE lock mode.\n    Acquired by CREATE INDEX."
    )
    assert verdicts(question, "SHARE", quote)["focus-entity"] == "supported"
    # Must fail: a first line that is a sentence, or one that holds the answer inside it.
    for quote in (
        "SHARE was the mode.\nAcquired by CREATE INDEX.",
        "The mode is SHARE\nAcquired by CREATE INDEX.",
    ):
        assert verdicts(question, "SHARE", quote)["focus-entity"] == "unsupported", quote


@pytest.mark.parametrize(
    ("question", "answer", "quote", "verdict"),
    [
        # A bracket that holds the answer is not an aside.
        (
            "How much memory does OpenSSL 1.1.0 allow scrypt to use by default?",
            "32 MiB",
            "maxmem limits memory (OpenSSL 1.1.0 defaults to 32 MiB).",
            "supported",
        ),
        # Must fail: a bracketed mention with the answer outside the brackets is an aside.
        (
            "Who founded Acme Robotics?",
            "Ada Ortiz",
            "Ada Ortiz (who never worked at Acme Robotics) founded Borealis.",
            "unsupported",
        ),
        # A bracketed acronym restating its expansion is the subject, not an aside.
        (
            "What did NSFNET promote?",
            "advanced research and education networking",
            "The National Science Foundation Network (NSFNET) was a program to promote advanced research"
            " and education networking in the United States.",
            "supported",
        ),
        # The singular of a plural name is the same name.
        (
            "What were the civil wars caused by the Huguenots called?",
            "Huguenot rebellions",
            "A series of three small civil wars known as the Huguenot rebellions broke out.",
            "supported",
        ),
        # Must fail: a name's first word is not the name ("Müller" is not "Müller & Söhne").
        (
            "Who founded Müller & Söhne?",
            "Jürgen",
            "Jürgen Müller, his grandson, ran the bakery from 1961 to 1990.",
            "unsupported",
        ),
    ],
)
def test_focus_entity_asides_and_names(question: str, answer: str, quote: str, verdict: str) -> None:
    assert verdicts(question, answer, quote)["focus-entity"] == verdict


def test_what_is_and_is_not_a_focus() -> None:
    assert [f.text for f in question_focus("In which Python version was the secrets module added?")] == [
        "secrets"
    ]
    assert [f.text for f in question_focus("Setting speed limits was conferred by what act?")] == []
    assert [
        f.text for f in question_focus("Which fnmatch function performs a case-sensitive comparison?")
    ] == ["fnmatch"]
    assert [f.text for f in question_focus('What does it mean when currencies are left to "float?"')] == [
        "float"
    ]


def test_number_unit_counts_only_what_is_asked_as_a_count() -> None:
    quote = "Robert Guiscard, an other Norman adventurer, was elevated to the dignity of count of Apulia."
    assert "number-unit" not in verdicts(
        "What was the name of the count of Apulia?", "Robert Guiscard", quote
    )
    quote = "The 73 Scottish Parliament constituencies shared the same boundaries in 2005."
    assert verdicts("What is the number of Constituency MSPs?", "73", quote)["number-unit"] == "supported"
    # Must fail: the year beside the count is not the count.
    assert verdicts("What is the number of Constituency MSPs?", "2005", quote)["number-unit"] != "supported"


def test_a_year_shaped_number_of_things_is_a_count() -> None:
    # Review 27 (varnishlog -L): "to 1000 transactions" read as a year refused the right default.
    quote = "Sets the upper limit of incomplete transactions kept. Defaults to 1000 transactions."
    question = "How many incomplete transactions does varnishlog keep by default?"
    assert verdicts(question, "1000", quote)["number-unit"] == "supported"
    # A year after "to" with no things counted stays a year.
    dated = "The survey ran from 1990 to 2005 in three towns."
    assert verdicts("How many towns did the survey cover?", "2005", dated)["number-unit"] != "supported"


def test_an_acronym_defined_in_brackets_after_its_words_is_what_the_quote_is_about() -> None:
    question = "Which version first offered the write-ahead log (WAL) option?"
    defined = 'Since version 3.7.0, a new "Write-Ahead Log" option (hereafter referred to as "WAL") is here.'
    # Was refused: "WAL" stands in brackets, read as an aside; the words it stands for are the subject.
    assert verdicts(question, "3.7.0", defined)["focus-entity"] == "supported"
    # Only in brackets, its words nowhere before it: still an aside.
    aside = "Beginning with version 3.7.0, a new journal option (unlike WAL) is here."
    assert verdicts(question, "3.7.0", aside)["focus-entity"] == "unsupported"
    # Words with its initials far from the bracket are no definition of it.
    far = (
        "With a list of many other unrelated improvements that were made to the library in that year, "
        "version 3.7.0 also changed its journal (unlike WAL)."
    )
    assert verdicts(question, "3.7.0", far)["focus-entity"] == "unsupported"


def test_an_abbreviation_is_no_focus() -> None:
    # Review C: "e.g." read as dotted code made the gate refuse GIT_COMMITTER_DATE for not naming it.
    question = "Which environment variable sets the date recorded in a tag object, e.g. to backdate a tag?"
    assert [f.text for f in question_focus(question)] == []
    quote = "To set the date used in future tag objects, set the environment variable GIT_COMMITTER_DATE."
    assert verdicts(question, "GIT_COMMITTER_DATE", quote).get("focus-entity") != "unsupported"
    # A dotted name beside it is still code.
    assert [f.text for f in question_focus("What does os.path.join do, i.e. in short?")] == ["os.path.join"]


def test_a_date_glued_to_the_year_before_it_is_in_the_quote() -> None:
    # HotpotQA's extracted text lost the dash between two dates: "(July 24, 1978November 2, 2010)".
    quote = "Philip Irons (July 24, 1978November 2, 2010) was an American professional surfer."
    question = "When did Philip Irons die?"
    assert verdicts(question, "November 2, 2010", quote)["answer-in-quote"] == "supported"
    # Glued to letters it is another word; cut short at its end it is another date.
    assert verdicts(question, "November 2, 201", quote)["answer-in-quote"] != "supported"
    assert verdicts(question, "ember 2, 2010", quote)["answer-in-quote"] != "supported"


def test_a_default_closing_the_paragraph_is_the_default_of_what_it_opens_with() -> None:
    # Review A: "The default value is 6700." closing the paragraph on how many loose objects make
    # "git gc --auto" pack them; a sentence between broke the "The ..." chain back to the focus.
    question = "About how many loose objects make tidy --auto pack them by default?"
    quote = (
        "When there are more than this many loose objects, tidy --auto will pack them. "
        "Some commands run a light tidy from time to time. The default value is 6700."
    )
    assert verdicts(question, "6700", quote)["focus-entity"] == "supported"
    # Must fail: the default sentence saying more than the value is no bare default, and the focus
    # only in a later sentence is not what the paragraph opens with.
    said = quote.replace("The default value is 6700.", "The default value of the pack size is 6700 objects.")
    assert verdicts(question, "6700", said)["focus-entity"] == "unsupported"
    later = (
        "Some commands run a light tidy from time to time. When there are more than this many loose "
        "objects, tidy --auto will pack them. Packing runs daily. The default value is 6700."
    )
    assert verdicts(question, "6700", later)["focus-entity"] == "unsupported"


def test_a_setting_s_name_asked_with_by_default_is_no_default_value() -> None:
    # Review B: "Which configuration variable makes git stash show include untracked files by
    # default?" answered "stash.showIncludeUntracked" was refused: "the quote does not say it is the
    # default". The question asks for the variable's name; "by default" says what it changes.
    question = "Which configuration variable makes tidy show include hidden files by default?"
    quote = "If this is set, tidy.showHidden makes tidy show include hidden files."
    judged = verdicts(question, "tidy.showHidden", quote)
    assert "number-unit" not in judged and set(judged.values()) == {"supported"}
    # Must fail: a value that is no setting's name is still a default the quote does not state.
    assert verdicts(question, "hidden", quote)["number-unit"] == "unsupported"
    assert verdicts("What does tidy show by default?", "hidden files", quote)["number-unit"] == "unsupported"
