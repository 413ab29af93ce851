"""The support methods (docs/gate.md, "Support"): cases each must pass, and cases each must fail."""

from __future__ import annotations

import pytest
from citeloop.events import MemoryStore, Support, UsageError
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import DEFAULT_SUPPORT, SUPPORT_METHODS, Runtime, SupportCase, assess_support
from citeloop.runtime._focus import question_focus
from citeloop.runtime._quantities import find_dates, fold_text, quantities
from citeloop.runtime._support import answer_in_quote, focus_entity, is_supported, number_unit
from helpers.fakes import page_tools

RECALL = "In August 2022 Helicor recalled 4,000 H2 scooters because of a faulty charger."
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
CEO = "Acme Robotics named Kenji Ito as its chief executive on 1 September 2021."
H2_RANGE = "The Helicor H2 is a scooter. It has a range of 70 kilometres."
RANGE = "It has a range of 70 kilometres."
WEBER = "Jürgen Weber founded Weber Tools in 1990."
SUCH_AS = "Ada Ortiz founded firms such as Helicor and Acme."
MAINTENANCE = "maintenance_work_mem (integer) The default is 64MB."
NODE = "Each node needs 2GB of memory."
SET_TO = "work_mem is set to 4MB here."
WORK_MEM = (
    "work_mem (integer) Sets the base maximum amount of memory to be used by a query operation. "
    "The default value is four megabytes (4MB)."
)


def case(question: str, answer: str, evidence: str) -> SupportCase:
    return SupportCase(question, answer, evidence)


# -- answer-in-quote -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "evidence"),
    [
        ("Ada Ortiz", FOUNDING),
        ("ada ortiz.", FOUNDING),  # case and the punctuation around the answer do not count
        ("Acme Robotics was founded by Ada Ortiz.", FOUNDING),
        ("The current CEO is Kenji Ito.", "Current CEO is Kenji Ito."),  # every content word is there
        ("4000", RECALL),
        ("4 000", RECALL),
        ("4\u00a0000", RECALL),
        ("4,000 scooters", RECALL),
        ("2 GB", NODE),
        ("2GB", "Each node needs 2 gigabytes of memory."),
        ("2021-09-01", CEO),
        ("September 1, 2021", CEO),
        ("September 2021", CEO),
        ("M\u00fcller", "Founded by Karl Mu\u0308ller."),  # composed and decomposed are one text
    ],
)
def test_answer_in_quote_passes(answer: str, evidence: str) -> None:
    judged = answer_in_quote(case("q?", answer, evidence))
    assert judged is not None and judged[0] == "supported", judged


@pytest.mark.parametrize(
    ("answer", "evidence", "missing"),
    [
        ("Jürgen", FOUNDING, "jürgen"),
        ("Kenji Ito is not the CEO.", "Current CEO is Kenji Ito.", "not"),  # a negation is content
        ("5,000", RECALL, "5,000"),
        ("2 MB", NODE, "2 mb"),
        ("September 2, 2021", CEO, "september 2, 2021"),
        ("Ada", "Adam Smith founded it.", "ada"),  # whole words only
        ("the it", FOUNDING, "no content word"),
    ],
)
def test_answer_in_quote_fails(answer: str, evidence: str, missing: str) -> None:
    judged = answer_in_quote(case("q?", answer, evidence))
    assert judged is not None and judged[0] == "unsupported"
    assert missing in judged[1]


def test_answer_in_quote_does_not_judge_a_bare_yes_or_no() -> None:
    assert answer_in_quote(case("Is Kenji the CEO?", "Yes.", "Current CEO is Kenji Ito.")) is None


# -- focus-entity ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "foci"),
    [
        ("Who founded Müller & Söhne?", ["Müller & Söhne"]),
        ("How many scooters did Helicor recall?", ["Helicor"]),
        ("Who is the CEO of Acme Robotics?", ["CEO", "Acme Robotics"]),
        ("What is the default value of work_mem?", ["work_mem"]),
        ("What does VACUUM FULL do?", ["VACUUM FULL"]),
        ("What does os.path.join() do?", ["os.path.join()"]),
        ('What does "--amend" do?', ["--amend"]),
        ("What does getElementById return?", ["getElementById"]),
        ("Who was Luís de Camões?", ["Luís de Camões"]),
        ("What is Ada's favorite food?", ["Ada"]),
        ("What is the boiling point of water?", ["water"]),  # no name: the phrase after "of"
        ("What does the company design?", ["company"]),  # no name: between "does" and the verb
        ("Where is it?", []),
    ],
)
def test_the_focus_of_a_question(question: str, foci: list[str]) -> None:
    assert [focus.text for focus in question_focus(question)] == foci


@pytest.mark.parametrize(
    ("question", "answer", "evidence"),
    [
        ("Who founded Acme Robotics?", "Ada Ortiz", FOUNDING),
        ("Who is the current CEO?", "Kenji Ito", "Ortiz left in 2021. Current CEO is Kenji Ito."),
        ("Who is the current CEO?", "Kenji Ito", "Kenji Ito is the chief executive officer."),  # spelled out
        ("What is the default value of work_mem?", "4MB", WORK_MEM),  # named in the sentence before "The"
        (
            "What is the range of the Helicor H2?",
            "70 kilometres",
            H2_RANGE,
        ),
        ("Who founded Müller & Söhne?", "Karl Müller", "Müller & Söhne was founded by Karl Müller in 1921."),
        ("What does the company design?", "delivery robots", "The company designs delivery robots."),
    ],
)
def test_focus_entity_passes(question: str, answer: str, evidence: str) -> None:
    judged = focus_entity(case(question, answer, evidence))
    assert judged is not None and judged[0] == "supported", judged


@pytest.mark.parametrize(
    ("question", "answer", "evidence", "why"),
    [
        # The focus is not named at all: a sentence about someone else's company.
        (
            "Who founded Müller & Söhne?",
            "Jürgen",
            WEBER,
            "does not name",
        ),
        # Named, but only in brackets: an aside.
        (
            "Who founded Müller & Söhne?",
            "Jürgen Weber",
            "Jürgen Weber founded Weber Tools in 1990 (it later bought Müller & Söhne).",
            "in passing",
        ),
        # Named after "such as" / "unlike": not what the sentence is about.
        (
            "Who founded Helicor?",
            "Ada Ortiz",
            SUCH_AS,
            "in passing",
        ),
        # Named in another sentence that the answer's sentence does not continue.
        (
            "Who founded Müller & Söhne?",
            "Jürgen",
            "Müller & Söhne is a bakery in Bremen. Jürgen Klein bought it in 2001.",
            "does not name",
        ),
        # Another parameter's default: a whole-word match, so maintenance_work_mem is not work_mem.
        (
            "What is the default value of work_mem?",
            "64MB",
            MAINTENANCE,
            "does not name",
        ),
        ("Who is the current CEO?", "Kenji Ito", "Kenji Ito is the chief executive.", "does not name"),
    ],
)
def test_focus_entity_fails(question: str, answer: str, evidence: str, why: str) -> None:
    judged = focus_entity(case(question, answer, evidence))
    assert judged is not None and judged[0] == "unsupported"
    assert why in judged[1]


def test_focus_entity_does_not_judge_a_question_that_names_nothing() -> None:
    assert focus_entity(case("Where is it?", "Lisbon", FOUNDING)) is None


# -- number-unit -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "answer", "evidence"),
    [
        ("How many scooters did Helicor recall?", "4,000", RECALL),
        ("How many scooters did Helicor recall?", "4000 scooters", RECALL),
        ("How many people does Acme employ?", "about 480", "It employs about 480 people."),
        ("How many employees does Acme have?", "480", "It employs about 480 people."),  # the noun may differ
        ("What is the default value of work_mem?", "4MB", WORK_MEM),
        ("What is the default value of work_mem?", "4 megabytes", WORK_MEM),
        ("What is the default for enable_seqscan?", "on", "enable_seqscan (boolean) The default is on."),
        ("How much memory does a node need?", "2 GB", NODE),
        ("What is the range of the Helicor H2?", "70 km", RANGE),
        ("How many robots did it sell?", "twelve", "It sold 12 robots."),
    ],
)
def test_number_unit_passes(question: str, answer: str, evidence: str) -> None:
    judged = number_unit(case(question, answer, evidence))
    assert judged is not None and judged[0] == "supported", judged


@pytest.mark.parametrize(
    ("question", "answer", "evidence", "verdict", "why"),
    [
        # The case: a year where a count is asked, beside the count the quote gives.
        ("How many scooters did Helicor recall?", "2022", RECALL, "contradicted", "2022 is a date"),
        ("How many scooters did Helicor recall?", "5,000", RECALL, "contradicted", "4000 scooter"),
        ("How many scooters did Helicor recall?", "Helicor", RECALL, "unsupported", "no number"),
        ("How many people work there?", "2017", "It opened in 2017.", "unsupported", "date"),
        (
            "How much memory does a node need?",
            "2 MB",
            NODE,
            "unsupported",
            "2 mb",
        ),
        (
            "What is the range of the Helicor H2?",
            "70",
            RANGE,
            "unsupported",
            "drops the unit",
        ),
        (
            "What is the default value of work_mem?",
            "4MB",
            SET_TO,
            "unsupported",
            "default",
        ),
        (
            "What is the range of the Helicor H2?",
            "The Helicor H2 is an electric scooter sold since 2021.",
            "The Helicor H2 is an electric scooter sold since 2021.",
            "unsupported",
            "no number",  # 2021 is a date: the answer gives no range
        ),
    ],
)
def test_number_unit_fails(question: str, answer: str, evidence: str, verdict: str, why: str) -> None:
    judged = number_unit(case(question, answer, evidence))
    assert judged is not None and judged[0] == verdict, judged
    assert why in judged[1]


def test_number_unit_does_not_judge_other_questions() -> None:
    assert number_unit(case("Who founded Acme Robotics?", "Ada Ortiz", FOUNDING)) is None


# -- reading numbers and dates ---------------------------------------------------------


def test_numbers_in_one_form() -> None:
    text = fold_text("4,000 and 4 000 and 4\u202f000 and four thousand and 1.50 and twenty-five")
    assert [q.value for q in quantities(text)] == ["4000", "4000", "4000", "4000", "1.5", "25"]
    # Not numbers: inside words, ordinals keep their number but no unit, and "1990s" is 1990.
    assert [(q.value, q.unit) for q in quantities(fold_text("H2 B2014 3rd 1990s 10%"))] == [
        ("3", None),
        ("1990", None),
        ("10", "%"),
    ]


def test_a_number_in_quotes_is_a_number() -> None:
    # "Default: '10 minutes'." - an opening quote before it; "1'000" keeps its separator.
    assert [(q.value, q.unit) for q in quantities(fold_text("default: '10 minutes'. 1'000 rows"))] == [
        ("10", "min"),
        ("1000", None),
    ]


def test_a_unit_written_once_after_a_list_belongs_to_each_number() -> None:
    text = fold_text("5, 10 and 30 seconds; 2 or 4 GB; 2 cats and 3 dogs; in 1990 and 2000 km")
    assert [(q.value, q.unit) for q in quantities(text)] == [
        ("5", "s"),
        ("10", "s"),
        ("30", "s"),
        ("2", "gb"),
        ("4", "gb"),
        ("2", None),  # a noun after each number: no shared unit
        ("3", None),
        ("1990", None),  # a year is no amount of the list's unit
        ("2000", "km"),
    ]
    listed = case(
        "What is the default lock wait?",
        "5 seconds",
        "lock_wait and idle_wait default to 5 and 10 seconds, respectively.",
    )
    assert answer_in_quote(listed)[0] == "supported"


def test_dates_in_every_form_are_one_date() -> None:
    for text in ("1 September 2021", "September 1, 2021", "2021-09-01", "1st of Sept. 2021"):
        (date,) = find_dates(fold_text(text))
        assert (date.year, date.month, date.day) == (2021, 9, 1), text


# -- the registry and the runtime's option ---------------------------------------------


def test_assess_support_runs_the_named_methods_in_order_and_leaves_out_those_with_nothing_to_judge() -> None:
    verdicts = assess_support("Who founded Acme Robotics?", "Ada Ortiz", FOUNDING, DEFAULT_SUPPORT)
    assert [v.method for v in verdicts] == ["answer-in-quote", "focus-entity"]  # number-unit: not a count
    assert is_supported(verdicts)
    wrong = assess_support("How many scooters did Helicor recall?", "2022", RECALL, DEFAULT_SUPPORT)
    assert [v.verdict for v in wrong] == ["supported", "supported", "contradicted"]
    assert not is_supported(wrong)
    assert assess_support("q?", "a", "e", ()) == ()


def test_an_unknown_method_name_is_never_a_pass() -> None:
    (verdict,) = assess_support("q?", "Ada", FOUNDING, ["lexical-overlap"])
    assert verdict == Support(method="lexical-overlap", verdict="unsupported", detail=verdict.detail)


def test_the_default_set_is_every_deterministic_method() -> None:
    assert (
        DEFAULT_SUPPORT
        == ("answer-in-quote", "focus-entity", "number-unit", "same-value", "yes-no")
        == tuple(SUPPORT_METHODS)
    )


def test_the_runtime_refuses_an_unknown_method_name() -> None:
    tools, _ = page_tools()
    with pytest.raises(UsageError, match="unknown support method 'judge'"):
        Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo(), support=["judge"])
    with pytest.raises(UsageError, match="list of method names"):
        Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo(), support="number-unit")


def test_a_name_under_initials_is_the_focus_but_one_under_any_words_is_not() -> None:
    # "Eugene B. Habecker" is "Eugene Habecker"; "Ralph met Hefferline" is not "Ralph Hefferline":
    # the text is compared case-folded, so only initials may stand between the two names.
    initials = assess_support(
        "Where was Eugene Habecker born?",
        "Boston",
        "Eugene B. Habecker was born in Boston.",
        ["focus-entity"],
    )
    assert [v.verdict for v in initials] == ["supported"]
    words = assess_support(
        "Where was Ralph Hefferline born?",
        "Boston",
        "Ralph Emerson met Hefferline in Boston.",
        ["focus-entity"],
    )
    assert [v.verdict for v in words] == ["unsupported"]


def test_a_later_sentence_opening_with_a_pronoun_does_not_carry_the_focus() -> None:
    # "Its main rival was Acme Robotics." is about Beta Corp's rival: Bob Jones founded Beta Corp,
    # not Acme Robotics, so naming Acme there is not support.
    verdicts = assess_support(
        "Who founded Acme Robotics?",
        "Bob Jones",
        "Bob Jones founded Beta Corp in 1990. Its main rival was Acme Robotics.",
        ["focus-entity"],
    )
    assert [v.verdict for v in verdicts] == ["unsupported"]


def test_an_abbreviation_in_brackets_does_not_cut_the_sentence_from_its_subject() -> None:
    # "(b. 3 May 1961)" was read as a sentence end, leaving the answer in a sentence naming no one.
    verdicts = assess_support(
        "Orla Vane was the co-founder of what journal?",
        "The Ledger Review",
        'Orla Vane, (b. 3 May 1961) Irish editor, the co-founder of "The Ledger Review".',
        ["focus-entity"],
    )
    assert [v.verdict for v in verdicts] == ["supported"]


def test_an_ellipsis_in_a_title_does_not_cut_the_sentence() -> None:
    verdicts = assess_support(
        "Salt and Bone... is an album by which singer?",
        "Carys Penn",
        "Salt and Bone\u2026 is the fourth album by Welsh folk singer Carys Penn.",
        ["focus-entity"],
    )
    assert [v.verdict for v in verdicts] == ["supported"]


def test_a_name_quoted_with_full_middle_names_on_its_own_page_is_the_name_asked() -> None:
    # HotpotQA: "Alfred Gell" asked, "Alfred Antony Francis Gell (1945 - 1997) was ..." quoted from
    # the page titled "Alfred Gell".
    quote = "Tomas Anwen Rhys Vell (1945 - 1997) was a Welsh chemist."
    question = "What nationality was Tomas Vell?"
    own = assess_support(question, "Welsh", quote, ["focus-entity"], SUPPORT_METHODS, [("Tomas Vell", quote)])
    assert [v.verdict for v in own] == ["supported"]
    # On another page it may be another person ("John Quincy Adams" is not John Adams).
    other_page = [("Tomas Rhys Vell", quote)]
    other = assess_support(question, "Welsh", quote, ["focus-entity"], SUPPORT_METHODS, other_page)
    assert [v.verdict for v in other] == ["unsupported"]
    # Words between that are not capitalized names are another sentence's subject and verb.
    met = "Tomas met the Vell brothers, a Welsh family."
    words = assess_support(question, "Welsh", met, ["focus-entity"], SUPPORT_METHODS, [("Tomas Vell", met)])
    assert [v.verdict for v in words] == ["unsupported"]
