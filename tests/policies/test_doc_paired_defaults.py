"""Defaults paired with their parameters in one sentence: by "respectively" (postfix_doc's dev half,
pf044), and by each one's own "defaults to" (review 8: "mean defaults to 0.0 and stddev defaults to
1.0" answered the stddev's default with 0.0).

"default_delivery_slot_discount and default_delivery_slot_loan, whose values are by default 50
and 3, respectively": each parameter gets the value at its own place. Before this rule the first
sentence below was refused and the second answered B's question with A's value ("default to 5").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._paired_defaults import respective_value, subject_default
from helpers.doc_pages import ask, one_page_corpus

SLOTS = (
    "The slot_discount and slot_loan settings come from default_slot_discount and\n"
    "default_slot_loan, whose values are by default 50 and 3, respectively."
)


def test_each_name_gets_the_value_at_its_place() -> None:
    assert respective_value(SLOTS, "default_slot_discount") == "50"
    assert respective_value(SLOTS, "default_slot_loan") == "3"


def test_only_the_names_nearest_before_the_values_are_paired() -> None:
    assert respective_value(SLOTS, "slot_loan") is None


def test_a_unit_after_the_last_value_belongs_to_every_number() -> None:
    text = "The defaults of lock_wait, idle_wait and stmt_wait are 5, 10 and 30 seconds, respectively."
    assert [respective_value(text, n) for n in ("lock_wait", "idle_wait", "stmt_wait")] == [
        "5 seconds",
        "10 seconds",
        "30 seconds",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # three names, two values: no place is certain
        "The defaults of lock_wait, idle_wait and stmt_wait are 5 and 10, respectively.",
        # the name twice among the names
        "The defaults of lock_wait and lock_wait are 5 and 10, respectively.",
        # no "respectively": a list, not a pairing
        "The defaults of lock_wait and idle_wait are 5 and 10.",
    ],
)
def test_no_pairing_without_equal_lists_and_one_place(text: str) -> None:
    assert respective_value(text, "lock_wait") is None


PAGE = """
<h2>Slot loans</h2>
<p>The concept of slot loans is where the per-transport settings come from (they default to
<code>default_slot_discount</code> and <code>default_slot_loan</code>, whose values are by default
50 and 3, respectively).</p>
<h2>Waits</h2>
<p>The parameters <code>lock_wait_limit</code> and <code>idle_wait_limit</code> default to 5 and 10
seconds, respectively.</p>
<h2>Freezing</h2>
<p><code>freeze_min_age</code> defaults to 4 million, <code>freeze_table_age</code> to 120 million, and
<code>freeze_max_age</code> to 350 million.</p>
<h2>Noise</h2>
<p>The <code>noise_level</code> function draws from a normal distribution; its mean defaults to 0.0
and its stddev defaults to 1.0.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default value of default_slot_discount?", "50"),
        ("What is the default value of default_slot_loan?", "3"),
        ("What is the default value of lock_wait_limit?", "5 seconds"),
        ("What is the default value of idle_wait_limit?", "10 seconds"),
        ("What is the default stddev of noise_level?", "1.0"),
        # one verb for all: each name its own value (the first was given to all, or refused)
        ("What is the default value of freeze_table_age?", "120 million"),
        ("What is the default value of freeze_max_age?", "350 million"),
    ],
)
@pytest.mark.anyio
async def test_the_asked_parameter_gets_its_own_default(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Queue manager", PAGE), question)
    assert (outcome.status, outcome.answer) == ("answered", expected)


def test_each_subject_gets_its_own_defaults_to() -> None:
    text = "random value with the given parameters; mean defaults to 0.0 and stddev defaults to 1.0"
    asked = doc_question("What is the default stddev of random_normal?", True)
    assert asked is not None and subject_default(text, asked) == "1.0"  # must fail: "0.0"
    asked = doc_question("What is the default mean of random_normal?", True)
    assert asked is not None and subject_default(text, asked) == "0.0"
    # neither subject asked: none of their values; one subject: not a pairing
    asked = doc_question("What is the default seed of random_normal?", True)
    assert asked is not None and subject_default(text, asked) == ""
    assert subject_default("The seed defaults to 0.", asked) is None
