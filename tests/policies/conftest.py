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
