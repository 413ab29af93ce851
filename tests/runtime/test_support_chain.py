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


# The link must be the subject the answer sentence opens with, and stand in the same
# sentence as the question's focus in the earlier quote, neither in passing (review finding:
# any shared name of two words was taken as the link).


def test_a_shared_name_in_passing_in_the_answer_sentence_is_no_link() -> None:
    # The answer sentence is about Greta Holm; it names the bridge only on the way.
    aside = (
        "Greta Holm (4 May 1912 \u2013 9 June 1990) was a Swedish film director who admired Marta Lindqvist."
    )
    assert _focus(f"{BRIDGE}\n{aside}") == "unsupported"


def test_a_shared_name_in_another_sentence_than_the_focus_is_no_link() -> None:
    # The earlier quote is about Harbor Lights in one sentence and names the bridge in another.
    earlier = (
        "Harbor Lights is a 1950 drama film directed by Erik Berg. Marta Lindqvist attended its premiere."
    )
    assert _focus(f"{earlier}\n{ANSWER}") == "unsupported"


def test_a_shared_name_in_passing_beside_the_focus_is_no_link() -> None:
    earlier = "Harbor Lights is a 1950 drama film in the manner of directors such as Marta Lindqvist."
    assert _focus(f"{earlier}\n{ANSWER}") == "unsupported"


def test_an_answer_sentence_that_opens_with_another_subject_is_no_link() -> None:
    later = "In 1930 Marta Lindqvist met Greta Holm, who was born on 4 May 1912."
    assert _focus(f"{BRIDGE}\n{later}") == "unsupported"


def test_a_continued_sentence_about_another_subject_is_no_link() -> None:
    later = "Greta Holm was a director and a friend of Marta Lindqvist in Oslo. She was born on 4 May 1912."
    assert _focus(f"{BRIDGE}\n{later}") == "unsupported"


def test_the_subject_may_carry_a_middle_name_and_an_honour() -> None:
    later = "Marta Elin Lindqvist, OBE (4 May 1912 \u2013 9 June 1990) was a Swedish film director."
    assert _focus(f"{BRIDGE}\n{later}") == "supported"


def test_the_answer_may_stand_in_a_sentence_that_continues_the_subject_s() -> None:
    later = "Marta Lindqvist was a Swedish film director. She was born on 4 May 1912 in Uppsala."
    assert _focus(f"{BRIDGE}\n{later}") == "supported"


def test_a_subject_sharing_only_the_first_words_of_the_link_is_no_link() -> None:
    # "Marta Lindqvist Foundation" opens the sentence: not the director herself.
    later = "The Marta Lindqvist Foundation was set up on 4 May 1912 in Stockholm."
    assert _focus(f"{BRIDGE}\n{later}") == "unsupported"


# The focus as its own page writes it, middle names and all, starts a chain too (HotpotQA dev:
# "Ralph Hefferline ... at a university located in what city?" quoted "Ralph Franklin Hefferline").
HEFFER_QUESTION = "Ralph Hefferline was a professor at a university located in what city?"
HEFFER_BRIDGE = (
    "Ralph Franklin Hefferline (1910 \u2013 1974) was a psychology professor at Columbia University."
)
HEFFER_ANSWER = "Columbia University is a private research university in New York City."


def _heffer_focus(titles: tuple[str, str]) -> str:
    pages = [(titles[0], HEFFER_BRIDGE), (titles[1], HEFFER_ANSWER)]
    (verdict,) = [
        v
        for v in assess_support(
            HEFFER_QUESTION,
            "New York City",
            f"{HEFFER_BRIDGE}\n{HEFFER_ANSWER}",
            DEFAULT_SUPPORT,
            pages=pages,
        )
        if v.method == "focus-entity"
    ]
    return verdict.verdict


def test_a_chain_may_start_from_the_focus_written_with_middle_names_on_its_own_page() -> None:
    assert _heffer_focus(("Ralph Hefferline", "Columbia University")) == "supported"


def test_middle_names_start_no_chain_on_a_page_of_another_name() -> None:
    # Only the page titled "Ralph Hefferline" vouches that "Ralph Franklin Hefferline" is he.
    assert _heffer_focus(("Franklin Hefferline", "Columbia University")) == "unsupported"


# A quote on the link's own page is about the link unless its sentence names another subject
# (HotpotQA review chains: "As one of the league's charter franchises, ... this particular
# franchise spent its first year ... in Milwaukee", "He spent the remainder of his life in exile,
# in Paris", "KKR & Co. L.P. (formerly known as Kohlberg Kravis Roberts & Co.) is ... headquartered
# in New York City"); a sentence pointing back on the focus's own page is about the focus
# ("Its anchor tenants include ... Lush." on the mall's page).
TEAM_QUESTION = "In which city did the team Ada Brook pitched for spend its first season?"
TEAM_BRIDGE = "Ada Brook is a retired pitcher who spent four seasons with the Harbor Gulls (1973-1976)."
TEAM_PAGE = (
    "The Harbor Gulls are a baseball team based in Porto. As one of the league's first clubs, this "
    "particular club spent its first season in Braga before moving to Porto."
)


def _team_focus(later: str, titles: tuple[str, str] = ("Ada Brook", "Harbor Gulls"), page: str = "") -> str:
    pages = [(titles[0], TEAM_BRIDGE), (titles[1], page or TEAM_PAGE)]
    (verdict,) = [
        v
        for v in assess_support(
            TEAM_QUESTION, "Braga", f"{TEAM_BRIDGE}\n{later}", DEFAULT_SUPPORT, pages=pages
        )
        if v.method == "focus-entity"
    ]
    return verdict.verdict


ON_ITS_PAGE = (
    "As one of the league's first clubs, this particular club spent its first season in Braga before "
    "moving to Porto."
)


def test_a_sentence_naming_no_other_subject_on_the_link_s_page_is_about_the_link() -> None:
    assert _team_focus(ON_ITS_PAGE) == "supported"


def test_the_same_sentence_on_another_page_links_nothing() -> None:
    # Only the page titled with the link vouches that the sentence is about it.
    assert _team_focus(ON_ITS_PAGE, ("Ada Brook", "Braga")) == "unsupported"


def test_a_pronoun_on_the_link_s_page_is_the_link() -> None:
    page = f"{TEAM_PAGE} It spent its first season in Braga."
    assert _team_focus("It spent its first season in Braga.", page=page) == "supported"


def test_another_subject_on_the_link_s_page_is_no_link() -> None:
    page = f"{TEAM_PAGE} Lia Rocha spent her first season in Braga."
    assert _team_focus("Lia Rocha spent her first season in Braga.", page=page) == "unsupported"


def test_the_link_may_be_another_name_the_subject_s_bracket_gives() -> None:
    later = "HG Club Ltd. (formerly known as Harbor Gulls) spent its first season in Braga."
    assert _team_focus(later, page=f"{TEAM_PAGE} {later}") == "supported"
    # A bracket saying something else about it is no other name.
    other = "HG Club Ltd. (a rival of Harbor Gulls) spent its first season in Braga."
    assert _team_focus(other, page=f"{TEAM_PAGE} {other}") == "unsupported"


def test_a_sentence_pointing_back_on_the_focus_s_page_names_the_focus() -> None:
    question = "Who founded the shop that is one of the tenants of Harbor Mall?"
    earlier = "Its tenants include Crew Goods, North Face and Lush Cosmetics."
    later = "Lush Cosmetics is a retailer founded by Mark Ferro."
    pages = [("Harbor Mall", f"Harbor Mall is a mall. {earlier}"), ("Lush Cosmetics", later)]

    def verdict(titles: tuple[str, str]) -> str:
        opened = [(titles[0], pages[0][1]), (titles[1], pages[1][1])]
        found = assess_support(question, "Mark Ferro", f"{earlier}\n{later}", DEFAULT_SUPPORT, pages=opened)
        return next(v.verdict for v in found if v.method == "focus-entity")

    assert verdict(("Harbor Mall", "Lush Cosmetics")) == "supported"
    # On a page of another name, "Its" may be anything's.
    assert verdict(("Crew Goods", "Lush Cosmetics")) == "unsupported"


def test_a_participle_opening_on_the_link_s_page_names_no_other_subject() -> None:
    # Review chains 3: "Born in an affluent household in Kensington, London, she attended ..." on
    # Virginia Woolf's page was read as about someone called "Born".
    later = "Born in a fishing family in Braga, it spent its first season there."
    assert _team_focus(later, page=f"{TEAM_PAGE} {later}") == "supported"
    # A name opening the sentence is still another subject.
    other = "Lia Rocha, born in Braga, spent her first season there."
    assert _team_focus(other, page=f"{TEAM_PAGE} {other}") == "unsupported"


def test_the_noun_the_focus_s_page_calls_it_points_back_to_the_focus() -> None:
    # Review chains 3: "The film was directed by S. Sylvan Simon." on the page of "Grand Central
    # Murder", which opens "Grand Central Murder is a comedy/mystery film released in 1942.".
    question = "In what year did the director of the film Night Ferry die?"
    earlier = "The film was directed by Mark Ferro."
    later = "Mark Ferro (March 9, 1910 \u2013 May 17, 1951) was an American film director."

    def verdict(opening: str) -> str:
        pages = [("Night Ferry", f"{opening} It stars Ana Holm. {earlier}"), ("Mark Ferro", later)]
        found = assess_support(question, "1951", f"{earlier}\n{later}", DEFAULT_SUPPORT, pages=pages)
        return next(v.verdict for v in found if v.method == "focus-entity")

    assert verdict("Night Ferry is a 1942 comedy/mystery film by Rio Studios.") == "supported"
    # A page calling its subject something else: "The film" may be another one it mentions.
    assert verdict("Night Ferry is a 1939 novel by Ana Holm.") == "unsupported"


def test_a_bracket_naming_who_voiced_the_focus_links_it() -> None:
    # Review chains 3: "the dark sorceress Raven (voiced by Tara Strong)" then Tara Strong's page.
    question = "In what year was the actress who voiced Wren in the series Night Ferry born?"
    earlier = (
        "The series follows the leader Cole (voiced by Ana Holm) and the witch Wren (voiced by Mia Lund)."
    )
    later = "Mia Lund (born February 12, 1973) is a Canadian actress."

    def verdict(quote: str) -> str:
        pages = [("Night Ferry", f"Night Ferry is an animated series. {quote}"), ("Mia Lund", later)]
        found = assess_support(question, "1973", f"{quote}\n{later}", DEFAULT_SUPPORT, pages=pages)
        return next(v.verdict for v in found if v.method == "focus-entity")

    assert verdict(earlier) == "supported"
    # Another bracket after the focus is still an aside: it says nothing of who played Wren.
    assert verdict("The series follows the sorceress Wren (a rival of Mia Lund).") == "unsupported"
