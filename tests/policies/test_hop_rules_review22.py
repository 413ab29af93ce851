"""Review chains 22 (2026-12-05, fresh: people and their roles) and chains 17's quoted title: the rules
their wrong answers were read into, on sentences written for the test (the answers themselves:
`test_hop_rules.READ_WRONG_ANSWERS`)."""

from __future__ import annotations

from citeloop.events import Page
from citeloop.policies._bridge_answer import asks_no_name, unfit_span
from citeloop.policies._nested import quoted_unsaid
from citeloop.policies._questions import analyze
from citeloop.policies._shared import shared_question
from citeloop.policies._short_answer import short_answer, which_noun


def _page(title: str) -> Page:
    return Page(url=f"https://wiki.example/{title}", title=title, body="", sha256="0" * 64)


def test_a_title_the_question_quotes_is_written_where_the_answer_is() -> None:
    asked = 'On which album was Ada Pell\'s song "Love You Too" first released?'
    other = '"Within You" is a song by Ada Pell released on her 1967 album "Harbour".'
    assert quoted_unsaid(asked, _page("Within You"), other)
    assert not quoted_unsaid(asked, _page("Love You Too"), "It was released on her 1966 album Harbour.")
    assert not quoted_unsaid(asked, _page("Harbour"), '"Love You Too" opens the album Harbour.')
    # A phrase a preamble quotes, not a title: the answer need not repeat it.
    phrase = 'Oakton is called the "town of fish and rice". Which district is it in?'
    assert not quoted_unsaid(phrase, _page("Harbour District"), "Harbour District lies on the coast.")


def test_a_comparative_after_a_preamble_chooses_one_of_the_two() -> None:
    asked = "Ada Pell and Tia Rook have both appeared on the cover of Harbour Monthly. Which model is older?"
    assert shared_question(asked) is None
    assert shared_question("What profession do Ada Pell and Tia Rook have in common?") is not None


def test_the_subject_a_question_describes_is_no_answer() -> None:
    assert asks_no_name("The actor who played General Oak on Harbour played which character in Coldwater?")
    assert asks_no_name("The company that owns the Oak chain is listed on which stock exchange?")
    assert not asks_no_name("Which actor who played General Oak on Harbour was born in Oslo?")
    assert not asks_no_name("The Oak Chronicles is a companion book to which series?")


def test_the_name_written_right_after_the_noun_asked() -> None:
    asked = "Which choreographer worked with Ada Pell on the ballet Boxes?"
    assert which_noun(asked) == "choreographer"
    text = "It was made with Ada Pell and choreographer Ivo Rook of the Harbour Dance Company."
    assert short_answer(analyze(asked), text) == "Ivo Rook"
    # Punctuation between the noun and a name: no name written after it.
    war = "The Second Oak War (Pashto: name) was fought while the land was ruled by Sher Ali Khan."
    assert short_answer(analyze("Which emir ruled the land during the war?"), war) != "Pashto"


def test_a_life_date_answers_only_a_birth_or_a_death() -> None:
    # Review chains 23: the life dates in brackets date the person, not what the question dates.
    sentence = (
        "Tom Rook (15 February 1910 in Muncie, Indiana \u2013 16 March 1974) was a professor at Oak College."
    )
    founded = analyze("Tom Rook was a professor at a college established in what year?")
    assert short_answer(founded, sentence) is None
    born = analyze("In what year was Tom Rook born?")
    assert short_answer(born, sentence) == "1910"
    # A date outside the brackets of a life still answers.
    moved = analyze("In what year did Tom Rook move to Oak College?")
    assert short_answer(moved, "Tom Rook (1910 \u2013 1974) moved to Oak College in 1946.") == "1946"


def test_who_did_it_is_answered_only_by_a_sentence_saying_the_deed() -> None:
    # Review chains 23: the film's page says who starred and what agency she ran, not who directed it.
    asked = analyze("Who directed the 2004 television film in which Ada Pell plays investigator Tia Rook?")
    starring = "Oak Street is a 2004 television film starring Ada Pell as Tia Rook of Harbour Investigations."
    assert unfit_span(asked, "Harbour Investigations", starring)
    directed = "Oak Street is a 2004 television film directed by Nils Kite."
    assert not unfit_span(asked, "Nils Kite", directed)
    assert not unfit_span(asked, "Nils Kite", "Oak Street is a 2004 television film by director Nils Kite.")


def test_a_counted_subject_is_dated_only_by_a_sentence_saying_its_kind() -> None:
    # Review chains 23: "When was the second single from Poison's fifth studio album released?" is not
    # answered by the album's release date.
    single = analyze("When was the second single from Harbour's fifth studio album released?")
    album = '"Oak Street" is Harbour\'s fifth studio album, released on March 14, 2000.'
    assert short_answer(single, album) is None
    said = '"Low Tide" was released as the second single from "Oak Street" in February 2000.'
    assert short_answer(single, said) == "February 2000"
    assert short_answer(analyze("When was Harbour's fifth studio album released?"), album) == "March 14, 2000"
