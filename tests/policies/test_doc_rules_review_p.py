"""Review P (2026-12-05, questions typed as a busy engineer types them): its two wrong answers - a
setting's value for "which config ...?", and a state of another verb for "does git overwrite it?"."""

from __future__ import annotations

from citeloop.policies._default_asked import asks_default
from citeloop.policies._default_owner import state_unsaid
from helpers.doc_pages import corpus_answers


def test_asking_which_setting_does_something_asks_no_default_value() -> None:
    assert not asks_default("which config makes `git stash show` include untracked files by default?", False)
    assert not asks_default("what parameter turns the percent hack on by default?", False)
    # A setting's value asked is a default: the noun is what the value is of.
    assert asks_default("what is the default value of the tar.umask setting?", False)
    assert asks_default("which checkpoint mode does the wal use by default?", False)


def test_which_config_is_answered_by_no_default_value() -> None:
    # Git's manual: "If this is set to true, the git stash show command will show the untracked files of
    # a stash entry. Defaults to false." - the value of the config asked for, not its name.
    assert "false" not in corpus_answers(
        "git_doc", "which config makes `git stash show` include untracked files by default?"
    )
    assert "false" in corpus_answers(
        "git_doc", "Does git stash show show the untracked files of a stash entry by default?"
    )


def test_a_state_answers_does_it_only_from_a_quote_saying_what_it_does() -> None:
    quote = "If this variable is false, git will not copy notes to the rewritten commit. Defaults to true."
    asked = "rebase copies notes onto a commit that already has a note - does git overwrite it by default?"
    assert state_unsaid(asked, "true", quote)
    assert not state_unsaid("does git copy notes by default?", "true", quote)
    # A value that is no state is judged by the other rules.
    assert not state_unsaid(asked, "concatenate", quote)


def test_a_state_of_another_verb_is_no_answer() -> None:
    # "... if this variable is false, git will not copy notes ... Defaults to true.": copying, no overwrite
    asked = "rebase copies notes onto a commit that already has a note - does git overwrite it by default?"
    assert "true" not in corpus_answers("git_doc", asked)
    assert "true" in corpus_answers(
        "git_doc", "When rewriting commits with rebase, does git copy notes by default?"
    )
