"""A table row quoted as a default: `number-unit` reads the column header the answer cell sits under."""

from __future__ import annotations

from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.runtime._table_header import column_header

BODY = (
    "# SSL\n"
    "Name\tType\tDefault\tDescription\n"
    "ssl\tboolean\toff\tEnables SSL connections.\n"
    "ssl_min_protocol_version\tenum\tTLSv1.2\tMinimum SSL/TLS protocol version to use.\n"
    "## Limits\n"
    "Name\tMinimum\tMaximum\n"
    "max_sessions\t1\t262143\n"
)
PAGES = [("Settings", BODY)]
ROW = "ssl_min_protocol_version\tenum\tTLSv1.2\tMinimum SSL/TLS protocol version to use."


def verdicts(question: str, answer: str, evidence: str) -> list[str]:
    return [v.verdict for v in assess_support(question, answer, evidence, DEFAULT_SUPPORT, pages=PAGES)]


def test_the_header_of_the_answer_column() -> None:
    assert column_header(ROW, "TLSv1.2", PAGES) == "Default"
    assert column_header(ROW, "enum", PAGES) == "Type"
    assert column_header("max_sessions\t1\t262143", "262143", PAGES) == "Maximum"


def test_no_header_for_what_is_not_one_whole_row() -> None:
    assert column_header("Minimum SSL/TLS protocol version to use.", "TLSv1.2", PAGES) is None
    assert column_header(ROW, "TLSv1", PAGES) is None  # not a whole cell
    assert column_header("tcp_keepalive\tinteger\t0", "0", PAGES) is None  # not in the page
    # a row's tail is not a row
    assert column_header("enum\tTLSv1.2\tMinimum SSL/TLS protocol version to use.", "TLSv1.2", PAGES) is None


def test_a_default_column_supports_a_default() -> None:
    question = "What is the default ssl_min_protocol_version?"
    # must fail: before the header was read, the row "does not say it is the default"
    assert "unsupported" not in verdicts(question, "TLSv1.2", ROW)


def test_another_column_does_not_say_it_is_the_default() -> None:
    assert "unsupported" in verdicts("What is the default max_sessions?", "262143", "max_sessions\t1\t262143")
    assert "unsupported" in verdicts("What is the default ssl_min_protocol_version?", "enum", ROW)
