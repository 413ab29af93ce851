"""The short span a sentence answers with: as the text writes it, and the name a sentence
types as the noun a "which N" question asks for."""

from __future__ import annotations

from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import _typed_subject, short_answer

PARK = "Oak Hollow National Park is a national park located in Varenna (Lake Islands, Norland)."
ACTOR = (
    "Tom Quill Adler, PhD (May 4, 1942 - June 9, 2008) was an American character actor best known for "
    'playing General Hale in "Far Station", and earlier for playing Major Ross Dunning.'
)


def test_a_place_read_across_punctuation_answers_with_what_the_text_writes() -> None:
    # The capitalized run "Varenna Lake Islands Norland" is no span of the sentence; its first word is.
    answer = short_answer(analyze("Where is Oak Hollow National Park located?"), PARK)
    assert answer == "Varenna"
    assert answer in PARK


def test_a_name_read_across_a_comma_is_no_answer_but_a_place_keeps_its_larger_place() -> None:
    # "Ada Brook, Leeds" is a name and a place; "Smith, Jones and Brown" a list: neither one name.
    who = analyze("Who won the prize in 1990?")
    assert short_answer(who, "The prize went to Ada Brook, Leeds, in 1990.") is None
    assert (
        short_answer(
            analyze("Who wrote the Kell paper?"), "The Kell paper was written by Smith, Jones and Brown."
        )
        is None
    )
    # "Paris, Texas" is not Paris.
    text = "The Kell Museum is an art museum in Paris, Texas."
    assert short_answer(analyze("Where is the Kell Museum?"), text) == "Paris, Texas"


def test_which_noun_is_answered_by_the_name_the_sentence_types_as_that_noun() -> None:
    question = analyze('Which American character actor starred in "Far Station"?')
    assert short_answer(question, ACTOR) == "Tom Quill Adler"


def test_a_sentence_typing_its_subject_as_another_noun_does_not_type_it_as_asked() -> None:
    # Adler is typed as an actor: asked for a director, the sentence types no one.
    assert _typed_subject('Which American film director worked on "Far Station"?', ACTOR) is None
    assert (
        _typed_subject('Which American character actor starred in "Far Station"?', ACTOR) == "Tom Quill Adler"
    )


def test_a_subject_the_question_names_is_not_its_answer() -> None:
    question = analyze("Which actor played alongside Tom Quill Adler?")
    assert short_answer(question, ACTOR) != "Tom Quill Adler"


def test_when_is_answered_by_the_date_as_written_not_the_year_the_question_states() -> None:
    question = analyze("When did the 1973 harbour strike begin?")
    assert (
        short_answer(question, "The 1973 harbour strike began in October 1973 at the docks.")
        == "October 1973"
    )
    # Only the year the question states: nothing new to answer with.
    assert short_answer(question, "The 1973 harbour strike was long and bitter.") is None


def test_when_takes_a_whole_date_a_day_and_month_or_a_century() -> None:
    born = analyze("When was Ada Brook born?")
    assert short_answer(born, "Ada Brook was born on 3 June 1865 in Leeds.") == "3 June 1865"
    assert short_answer(born, "Ada Brook was born on June 3, 1865, in Leeds.") == "June 3, 1865"
    reached = analyze("When did the expedition reach Fort Vane?")
    assert short_answer(reached, "On December 12, the expedition reached Fort Vane.") == "December 12"
    century = analyze("In what century did the abbey choir first sing?")
    assert short_answer(century, "The abbey choir first sang in the mid-12th century.") == "mid-12th century"
    assert short_answer(century, "The choir first sang in the twelfth century.") == "twelfth century"


def test_who_is_answered_by_the_name_a_sentence_opens_with_when_it_names_no_one_else() -> None:
    question = analyze("Who wrote that empire is the last stage of trade?")
    assert (
        short_answer(question, "Brandt wrote at length and declared that empire was the last stage of trade.")
        == "Brandt"
    )
    # A function word is no name, nor is a name the question states.
    assert short_answer(question, "However, empire was called the last stage of trade.") is None
    stated = analyze("Who did Brandt say empire was the last stage of?")
    assert short_answer(stated, "Brandt wrote at length about empire and trade.") is None


def test_one_capitalized_word_opening_a_sentence_is_a_name_only_before_a_past_tense_verb() -> None:
    question = analyze("Who directed the film Night Harbour?")
    assert short_answer(question, "American actors starred in the film Night Harbour.") is None
    assert short_answer(question, "Reed directed the film Night Harbour in 1990.") == "Reed"


def test_who_takes_the_name_after_by_the_asked_verb() -> None:
    question = analyze("Who wrote the poem The Seafarer?")
    sentence = "The Seafarer is an Old English poem written by the monk Aldred Lode in 990."
    assert short_answer(question, sentence) == "Aldred Lode"
    # A name in a descriptive phrase still names its maker: "a Gustave Eiffel design".
    tower = "The Kell Tower is a Gustave Eiffel design commissioned by Costa."
    assert short_answer(analyze("Who designed the Kell Tower?"), tower) == "Gustave Eiffel"


def test_a_death_date_is_no_birth_date_and_a_birth_date_no_death_date() -> None:
    # SQuAD 2.0: "In what year was Reguier de la Plancha born?" answered with his "(d. 1560)".
    text = "The account is traced to the chronicler Ezra Pike (d. 1560), who wrote in Lyon."
    assert short_answer(analyze("In what year was Ezra Pike born?"), text) is None
    assert short_answer(analyze("In what year did Ezra Pike die?"), text) == "1560"
    born = "The account is traced to the chronicler Ezra Pike (b. 1502), who wrote in Lyon."
    assert short_answer(analyze("In what year did Ezra Pike die?"), born) is None
    assert short_answer(analyze("In what year was Ezra Pike born?"), born) == "1502"


def test_a_request_method_answers_with_the_path_it_requests() -> None:
    # Patroni review: "Which endpoint shows the history ...?" answered "GET".
    text = "The GET /ledger endpoint provides a view on the history of cluster switchovers."
    assert (
        short_answer(analyze("Which endpoint shows the history of cluster switchovers?"), text)
        == "GET /ledger"
    )


def test_a_one_letter_placeholder_is_no_name() -> None:
    # Patroni review: "group: X # 0 for coordinator" answered "Which group id is used for the
    # coordinator?" with X.
    text = "citus: group: X # 0 for coordinator and 1, 2, 3 for workers"
    assert short_answer(analyze("Which Citus group id is used for the coordinator?"), text) is None


def test_a_name_the_sentence_opens_with_keeps_its_first_word() -> None:
    # pgBackRest review: "Crunchy Data provides ... commercial support" answered "Data".
    text = "Harbor Data provides packaged versions and commercial support for the tool."
    asked = analyze("Which company provides commercial support for the tool?")
    assert short_answer(asked, text) == "Harbor Data"
    # An opening word that begins no name stays out: "However" is no part of "Ada Ortiz".
    assert (
        short_answer(analyze("Who provides support?"), "However Ada Ortiz provides support.") == "Ada Ortiz"
    )


def test_a_one_letter_name_is_still_a_name() -> None:
    # "C" is a language, not a placeholder like "X".
    text = "The library is written in C and runs on most platforms."
    assert short_answer(analyze("Which language is the library written in?"), text) == "C"
