"""`focus-entity` on a multi-quote finish: its quotes read as a chain (docs/gate.md, "Multi-quote")."""

from __future__ import annotations

from citeloop.runtime import DEFAULT_SUPPORT, assess_support

QUESTION = "When was the woman who directed Harbor Lights born?"
BRIDGE = "Harbor Lights is a 1950 drama film directed by Marta Lindqvist."
ANSWER = "Marta Lindqvist (4 May 1912 \u2013 9 June 1990) was a Swedish film director."


def _focus(evidence: str, answer: str = "4 May 1912") -> str:
    (verdict,) = [
        v for v in assess_support(QUESTION, answer, evidence, DEFAULT_SUPPORT) if v.method == "focus-entity"
    ]
    return verdict.verdict


def test_the_answer_quote_names_the_bridge_the_focus_quote_names() -> None:
    assert _focus(f"{BRIDGE}\n{ANSWER}") == "supported"


def test_the_answer_quote_alone_is_not_about_the_focus() -> None:
    assert _focus(ANSWER) == "unsupported"


def test_no_shared_name_no_chain() -> None:
    # The second quote is about someone the first quote never names.
    other = "Greta Holm (4 May 1912 \u2013 9 June 1990) was a Swedish film director."
    assert _focus(f"{BRIDGE}\n{other}") == "unsupported"


def test_the_focus_only_in_passing_is_no_chain() -> None:
    aside = "Like Harbor Lights, the film was directed by Marta Lindqvist."
    assert _focus(f"{aside}\n{ANSWER}") == "unsupported"
