"""The rules that keep documentation answers to the kind asked for (issue 11, generalization).

Each rule has a case it must answer and a case it must refuse. The page is written here
about an invented `bin` module, so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._doc_answer import DocCandidate, answer_doc
from citeloop.policies._doc_finish import _differs
from citeloop.policies._doc_questions import doc_question
from citeloop.tools import Corpus

BIN = """<html><head><title>bin — Storage bins</title></head><body>
<h1>bin — Storage bins</h1>
<p>The bin module stores things in bins. Only files using BIN_FORMAT_RAW are supported.</p>
<dl><dt>class bin.Bin(size=0)</dt>
<dd><p>A bin of at most size things.</p></dd>
<dt>exception bin.Vacant</dt>
<dd><p>Exception raised when non-blocking take() (or take_nowait()) is called
on a Bin object which is empty.</p></dd>
<dt>Bin.put(thing, timeout=None)</dt>
<dd><p>If timeout is a positive number, it raises the Overfull exception
if no free slot was available within that time.</p></dd>
<dt>bin.load(fp)</dt>
<dd><p>The reader for the packed format raises BadBinError when the file cannot be read.
FMT_PACKED: packed format read from the file.</p></dd>
<dt>Bin.getkind()</dt>
<dd><p>Returns the storage kind ('PLAIN' is the only supported kind).</p></dd>
<dt>bin.lookup(key)</dt>
<dd><p>If neither matching key nor default entry is available, return None.</p></dd>
<dt>bin.open(filename, flag='c')</dt>
<dd><p>By default, the underlying file is opened for reading and writing.</p></dd>
<dt>@bin.guard(fillvalue='...')</dt>
<dd><p>Decorator that returns fillvalue on a recursive call.</p><p>New in version 3.2.</p></dd>
<dt>Bin.fillvalue</dt>
<dd><p>This string is shown for recursive references.</p><p>New in version 3.11.</p></dd>
<dt>class bin.Shelf(store, keyencoding='utf-8')</dt>
<dd><p>A shelf of bins.</p><p>Changed in version 3.2: Added the keyencoding parameter.</p></dd>
<dt>bin.fetch(key)</dt>
<dd><p>Fetch the thing stored under key.</p><p>When the bin is empty, returns -1.</p>
<p>This function returns the thing, which makes it chainable.</p></dd>
<dt>bin.wipe()</dt>
<dd><p>Remove every thing from the bin.</p></dd>
<dt>bin.red_to_blue(r)</dt>
<dd><p>Convert the colour from red coordinates to blue coordinates.</p></dd>
<dt>bin.blue_to_red(b)</dt>
<dd><p>Convert the colour from blue coordinates to red coordinates.</p></dd>
<dt>bin.lax_bin(things)</dt>
<dd><p>This function works like bin(), except that loose packing is used by default.</p></dd>
<dt>bin.save(thing, protocol=None)</dt>
<dd><p>By default, the protocol is newest.</p></dd>
<dt>bin.crc(data)</dt>
<dd><p>Compute a 16-bit CRC value of data. Lines normally contain 45 (binary) bytes.</p></dd></dl>
</body></html>
"""
URL = "https://docs.example/bin"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    folder: Path = tmp_path_factory.mktemp("bin")
    page = BIN.replace("<head>", f'<head><link rel="canonical" href="{URL}">')
    (folder / "bin.html").write_text(page, encoding="utf-8")
    built = Corpus.from_path(folder, index_path=folder.parent / "bin-index.sqlite")
    yield built
    built.close()


@pytest.fixture
def page(corpus: Corpus) -> Page:
    opened = corpus.open(URL)
    assert opened is not None
    return opened


def answers(page: Page, question: str) -> list[str]:
    asked = doc_question(question, True)
    assert asked is not None, question
    return [c.answer for c in answer_doc(asked, [page])]


def test_a_call_is_not_an_exception_and_an_exception_has_an_exceptions_name(page: Page) -> None:
    found = answers(page, "Which exception is raised when take_nowait() is called on an empty Bin?")
    assert found[:1] == ["bin.Vacant"]  # the term declared "exception"
    assert "take()" not in found  # must fail: a function is not an exception
    found = answers(page, "Which exception does the bin reader raise when the file cannot be read?")
    assert found[:1] == ["BadBinError"]
    assert "FMT_PACKED" not in found  # must fail: a constant is not an exception


def test_an_exception_named_in_words(page: Page) -> None:
    found = answers(
        page, "Which exception does Bin.put raise when no free slot is available within the timeout?"
    )
    assert found[:1] == ["Overfull"]


def test_a_function_is_not_a_kind_and_the_kind_must_be_the_one_asked_for(page: Page) -> None:
    # Must fail: getkind() returns the kind, it is not one; BIN_FORMAT_RAW is a format,
    # and nothing around it speaks of compression.
    found = answers(page, "Which compression type is the only one supported by the bin module?")
    assert "Bin.getkind" not in found and "BIN_FORMAT_RAW" not in found
    assert answers(page, "Which file format is the only one supported by the bin module?")[:1] == [
        "BIN_FORMAT_RAW"
    ]


def test_a_predicate_is_not_a_default_and_a_number_asked_for_is_a_number(page: Page) -> None:
    # Must fail: "default entry is available" states no default value.
    assert "available" not in answers(
        page, "What does bin.lookup return when neither the key nor a default entry is found?"
    )
    # Must fail: "is opened" is not a value, and the question asks for a number.
    assert answers(page, "Which protocol number does bin.open use by default?") == []
    assert answers(page, "What is the default flag of bin.open?")[:1] == ["flag='c'"]
    # Must fail: neither 'protocol=None' nor 'newest' is a number.
    assert answers(page, "Which protocol number does bin.save use by default?") == []
    assert answers(page, "What protocol does bin.save use by default?") != []


def test_a_version_under_the_term_named_in_full_and_a_parameter_added_in_a_change(page: Page) -> None:
    # Must fail: 3.2 is the guard decorator's, which only shares the name fillvalue.
    assert answers(page, "In which Python version was the Bin.fillvalue attribute added?")[:1] == ["3.11"]
    assert answers(page, "In which Python version was the keyencoding parameter added to bin.Shelf?")[:1] == [
        "3.2"
    ]
    # Must fail: adding a parameter in 3.2 is not when the class itself was added.
    assert "3.2" not in answers(page, "In which Python version was bin.Shelf added?")


def test_counts_with_an_aside_or_a_hyphen(page: Page) -> None:
    assert answers(page, "How many bits is the CRC computed by bin.crc?")[:1] == ["16-bit"]
    assert answers(page, "How many bytes do lines normally contain in bin?")[:1] == ["45 (binary) bytes"]
    # Must fail: no count of bits is stated for lines.
    assert answers(page, "How many kilobytes do lines normally contain in bin?") == []


def test_an_identifier_and_the_same_one_with_its_module_are_one_answer() -> None:
    def candidate(answer: str) -> DocCandidate:
        return DocCandidate(URL, answer, "evidence", 2.0, "test")

    assert not _differs(candidate("NetrcParseError"), candidate("netrc.NetrcParseError"))
    assert _differs(candidate("ParseError"), candidate("netrc.NetrcParseError"))  # must fail: another name
    assert _differs(candidate("3.2"), candidate("3.11"))


def test_what_a_function_returns_is_what_a_sentence_under_it_says_it_returns(page: Page) -> None:
    assert answers(page, "What does bin.fetch return when the bin is empty?")[:1] == ["-1"]
    found = answers(page, "What does bin.fetch return?")
    # Asked without a condition: what it returns, not what it returns only when the bin is empty.
    assert found == ["the thing"]
    # Must fail: the description of what it does is not what it returns.
    assert "Fetch the thing stored under key" not in found
    # Must fail: nothing under bin.wipe says what it returns.
    assert answers(page, "What does bin.wipe return?") == []
    # Must fail: no sentence under bin.fetch holds the condition asked about.
    assert answers(page, "What does bin.fetch return when the lid is locked?") == []


def test_word_order_breaks_a_tie_of_the_same_words(page: Page) -> None:
    assert answers(page, "Which bin function converts red coordinates to blue coordinates?")[:1] == [
        "bin.red_to_blue"
    ]
    assert answers(page, "Which bin function converts blue coordinates to red coordinates?")[:1] == [
        "bin.blue_to_red"
    ]


def test_which_function_asks_for_a_function_even_by_default_and_not_the_module_named(page: Page) -> None:
    asked = doc_question("Which bin function uses loose packing by default?", True)
    assert asked is not None and asked.kind == "which" and asked.noun == "function"
    found = answers(page, "Which bin function uses loose packing by default?")
    assert found[:1] == ["bin.lax_bin"]
    assert "bin()" not in found  # must fail: 'bin' names the module the question is about
    # A value asked for by default stays a default question.
    asked = doc_question("Which compression level does bin use by default?", True)
    assert asked is not None and asked.kind == "default"
