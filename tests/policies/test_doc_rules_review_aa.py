"""Review AA (2026-12-05, fresh: numbers, units and scopes, with near misses): its two answered near
misses - a default stated for another release of the product the question names, and a constant's
name for the number asked."""

from __future__ import annotations

import pytest
from citeloop.policies._doc_near_miss import another_release, name_for_number
from helpers.doc_pages import corpus_outcome


@pytest.mark.anyio
async def test_a_default_of_another_release_is_no_answer() -> None:
    # hashlib.html: "maxmem limits memory (OpenSSL 1.1.0 defaults to 32 MiB)" - nothing for OpenSSL 3.0.
    other = await corpus_outcome(
        "python_doc",
        "What is hashlib.scrypt's default maxmem limit when Python is linked against OpenSSL 3.0?",
    )
    assert other.status != "answered", other.answer
    same = await corpus_outcome(
        "python_doc", "What is hashlib.scrypt's default maxmem limit with OpenSSL 1.1.0?"
    )
    assert same.answer == "32 MiB"


def test_another_release() -> None:
    quote = "maxmem limits memory (OpenSSL 1.1.0 defaults to 32 MiB)."
    assert another_release("What is the maxmem default with OpenSSL 3.0?", quote)
    assert not another_release("What is the maxmem default with OpenSSL 1.1.0?", quote)
    assert not another_release("What is the maxmem default?", quote)  # no release asked
    assert not another_release("What is the default with LibreSSL 3.0?", quote)  # another product's


@pytest.mark.anyio
async def test_a_constant_s_name_is_no_number_asked() -> None:
    # zlib.html's signature: memLevel=DEF_MEM_LEVEL, whose value the page never gives.
    numeric = await corpus_outcome(
        "python_doc", "What numeric memLevel does zlib.compressobj() use by default?"
    )
    assert numeric.status != "answered", numeric.answer
    named = await corpus_outcome("python_doc", "What is the default memLevel used by zlib.compressobj()?")
    assert "DEF_MEM_LEVEL" in named.answer


def test_name_for_number() -> None:
    assert name_for_number("What numeric memLevel is used?", "DEF_MEM_LEVEL")
    assert name_for_number("Which number does it return?", "None")
    assert not name_for_number("What numeric memLevel is used?", "8")
    # "numeric" describing what the question is about, not what it asks for.
    assert not name_for_number(
        "What does the auto modifier do with a numeric time value?", "reads it as a day"
    )
