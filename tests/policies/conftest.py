"""Fixtures shared by the policy tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.tools import Corpus


@pytest.fixture(scope="module")
def demo() -> Iterator[Corpus]:
    """The demo corpus that ships in the package, built once per module."""
    corpus = Corpus.demo()
    yield corpus
    corpus.close()


@pytest.fixture
def pages_corpus(request: pytest.FixtureRequest) -> Iterator[Corpus]:
    """A corpus of the invented pages a test passes as its parameter ((url, title, body) each)."""
    corpus = Corpus.from_pages(request.param, name="prose-rules")
    yield corpus
    corpus.close()
