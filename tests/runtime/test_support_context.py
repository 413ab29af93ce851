"""focus-entity reads what a quote sits under; number-unit reads a signature default (issue 11, item 2)."""

from __future__ import annotations

import random

from citeloop.policies._outline import clean, outline
from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.runtime._support_context import enclosing, quote_context
from hypothesis import given, settings
from hypothesis import strategies as st

BODY = (
    "# gzip \u2014 Support for gzip files\u00b6\n"
    "## Module contents\n"
    "class gzip.GzipFile(filename=None, mode=None, compresslevel=9)\u00b6\n"
    "    Constructor for the GzipFile class.\n"
    "    peek(n)\u00b6\n"
    "        Read n uncompressed bytes without advancing the file position.\n"
    "    mtime\u00b6\n"
    "        The mtime of the last read.\n"
    "gzip.compress(data, compresslevel=9, *, mtime=None)\u00b6\n"
    "    Compress the data. The default is 9.\n"
    "## Examples\n"
    "Read n uncompressed bytes without advancing the file position.\n"
)


def verdicts(question: str, answer: str, evidence: str, pages: list[tuple[str, str]]) -> list[str]:
    return [v.verdict for v in assess_support(question, answer, evidence, DEFAULT_SUPPORT, pages=pages)]


def test_the_terms_and_headings_above_a_quote_nearest_first() -> None:
    start = BODY.index("Read n")
    assert enclosing(BODY, start) == [
        "peek(n)\u00b6",
        "class gzip.GzipFile(filename=None, mode=None, compresslevel=9)\u00b6",
        "Module contents",
        "gzip \u2014 Support for gzip files\u00b6",
    ]
    # The same sentence at the top level, under another heading, sits under that heading only.
    assert enclosing(BODY, BODY.rindex("Read n")) == ["Examples", "gzip \u2014 Support for gzip files\u00b6"]
    assert quote_context("The mtime of the last read.", [("gzip", BODY)])[0] == "mtime\u00b6"
    assert quote_context("not in the page", [("gzip", BODY)]) == []


def test_focus_entity_accepts_a_quote_under_its_term() -> None:
    question = "What does peek(n) of a GzipFile do?"
    answer = quote = "Read n uncompressed bytes without advancing the file position."
    assert verdicts(question, answer, quote, [("gzip", BODY)]) == ["supported", "supported"]


def test_focus_entity_still_refuses_a_quote_under_another_term() -> None:
    # Must fail: the sentence is under "Examples", not under GzipFile (the second copy is the one found
    # when the first is not in the cited body).
    question = "What does peek(n) of a GzipFile do?"
    quote = "Read n uncompressed bytes without advancing the file position."
    body = BODY[BODY.index("## Examples") :]
    assert verdicts(question, quote, quote, [("gzip", body)]) == ["supported", "unsupported"]
    # Must fail: no cited page at all, and the quote alone does not name the focus.
    assert verdicts(question, quote, quote, []) == ["supported", "unsupported"]


def test_focus_entity_reads_a_dotted_name_across_a_member_and_its_class() -> None:
    # A method documented under its class: the page writes "peek(n)" under "class gzip.GzipFile",
    # never "GzipFile.peek"; a version note under the method is about "GzipFile.peek".
    read = "        Read n uncompressed bytes without advancing the file position.\n"
    body = BODY.replace(read, read + "        New in version 3.2.\n", 1).replace(
        "    The mtime of the last read.", "    The mtime of the last read.\n        New in version 3.1."
    )
    question = "In which Python version was GzipFile.peek added?"
    assert verdicts(question, "3.2", "New in version 3.2.", [("gzip", body)])[1] == "supported"
    # Must fail: the note under another member of the class is not about peek.
    assert verdicts(question, "3.1", "New in version 3.1.", [("gzip", body)])[1] == "unsupported"
    # Must fail: the member under another class is not GzipFile's.
    other = body.replace("class gzip.GzipFile(", "class gzip.Other(")
    assert verdicts(question, "3.2", "New in version 3.2.", [("gzip", other)])[1] == "unsupported"


def test_focus_entity_reads_a_module_member_by_its_call_on_the_modules_own_page() -> None:
    # On the gzip page "compress()" is gzip.compress, as the page's own prose calls it.
    term = "exception gzip.BadGzipFile\u00b6\n"
    body = BODY + term + "    Raised when the data passed to compress() is not gzip data.\n"
    question = "Which exception does gzip.compress raise when the data is not gzip data?"
    quote = "exception gzip.BadGzipFile\u00b6 Raised when the data passed to compress() is not gzip data."
    assert verdicts(question, "gzip.BadGzipFile", quote, [("gzip \u2014 Support for gzip files", body)])[
        1
    ] == ("supported")
    # Must fail: on another module's page, "compress()" may be that module's own.
    assert (
        verdicts(question, "gzip.BadGzipFile", quote, [("zlib \u2014 Compression", body)])[1] == "unsupported"
    )
    # Must fail: a plain word is not the member ("the data passed to compress is ...").
    plain = quote.replace("compress()", "compress")
    body = body.replace("compress()", "compress")
    assert verdicts(question, "gzip.BadGzipFile", plain, [("gzip \u2014 Support for gzip files", body)])[
        1
    ] == ("unsupported")


def test_number_unit_takes_a_default_from_a_signature_only_when_assigned() -> None:
    question = "What is the default compresslevel of gzip.compress?"
    line = "gzip.compress(data, compresslevel=9, *, mtime=None)\u00b6"
    assert verdicts(question, "compresslevel=9", line, []) == ["supported", "supported", "supported"]
    # Must fail: a bare number from a signature does not say it is the default.
    assert "unsupported" in verdicts(question, "9", line, [])
    # Must fail: a value the signature does not assign.
    assert "unsupported" in verdicts(question, "compresslevel=6", line, [])


def _structured_body(rng: random.Random) -> str:
    """Headings, definition terms with their indented descriptions, and prose, at random depths."""
    lines: list[str] = []
    depth = 0
    for _ in range(rng.randint(1, 25)):
        kind = rng.choice(["heading", "term", "prose", "code", "comment", "inline"])
        if kind == "heading":
            mark = rng.choice(["", "\u00b6"])
            lines.append("#" * rng.randint(1, 3) + f" Heading {rng.randint(0, 99)}{mark}")
            depth = 0
        elif kind == "term":
            level = rng.randint(0, depth)
            # Several terms over one description ("--dirty[=<mark>]" over "--broken[=<mark>]"), some
            # of them too many or shaped as prose, which then are no terms.
            for _ in range(rng.choice([0, 0, 1, 2, 5])):
                above = rng.choice([f"--opt{rng.randint(0, 9)}[=<n>]", "short words", "A sentence ends."])
                lines.append("    " * level + above)
            lines.append("    " * level + f"term_{rng.randint(0, 99)}()" + rng.choice(["", "\u00b6"]))
            lines.append("    " * (level + 1) + "Description of it. It is 4 MB by default.")
            depth = level + 1
        elif kind == "code":
            # A code block collapsed into one line whose comment opens it with "#": not a heading.
            words = rng.randint(25, 35)
            lines.append("    " * rng.randint(0, depth) + "# Example: " + " ".join(["step"] * words))
        elif kind == "comment":
            # A short configuration example opened by a comment: past a deeper heading, not a heading;
            # before one, or numbered, or with a pilcrow, a heading.
            title = rng.choice(["Kettle's value is 'on' Kettle set X: on", "Kettle = 1", "2. Setup", "Plain"])
            lines.append("# " + title + rng.choice(["", "\u00b6"]))
            depth = 0
        elif kind == "inline":
            # "loop_wait: the number of seconds ... Default value: 10": the line's own setting.
            key = rng.choice(["loop_wait", "KEY_NAME", "level", "note", "Level"])
            lines.append("    " * rng.randint(0, depth) + f"{key}: the {key} of it. Default value: 3")
        else:
            lines.append("    " * rng.randint(0, depth) + "Some prose sentence here.")
    return "\n".join(lines)


@settings(max_examples=500, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_the_support_context_reads_the_structure_as_the_policy_does(seed: int) -> None:
    # Two readers of one text format (docs/corpus.md, "Structure"): the policy's outline
    # (policies/_outline.py) and the support methods' walk back (runtime/_support_context.py)
    # must name the same terms and headings above every line, or they drift apart.
    body = _structured_body(random.Random(seed))
    for line in outline(body):
        if line.text.startswith("#") and len(line.text.split()) <= 24:
            continue  # a heading's own context is not compared
        walked = {clean(text) for text in enclosing(body, line.start)}
        assert walked == set(line.terms) | set(line.headings), (body, line)


def test_terms_listed_over_one_description_all_own_it() -> None:
    body = (
        "## OPTIONS\n<commit-ish>\n    Commit-ish object names.\n--dirty[=<mark>]\n--broken[=<mark>]\n"
        '    Describe the state. "-dirty" is appended to it.\n'
    )
    assert enclosing(body, body.index('"-dirty"')) == ["--broken[=<mark>]", "--dirty[=<mark>]", "OPTIONS"]
    question = "What does describe --dirty append to its output?"
    quote = 'Describe the state. "-dirty" is appended to it.'
    assert verdicts(question, "-dirty", quote, [("describe", body)]) == ["supported", "supported"]
    # Must fail: a sentence above the term is the paragraph before it, not a term.
    prose = "## OPTIONS\nThe options are these.\n--broken[=<mark>]\n    Describe the state.\n"
    assert enclosing(prose, prose.index("Describe")) == ["--broken[=<mark>]", "OPTIONS"]
    # Must fail: a short line right below a line at its own depth is not known to be a term.
    run_on = "## OPTIONS\nThe options are these.\nshort words\n--broken[=<mark>]\n    Describe the state.\n"
    assert enclosing(run_on, run_on.index("Describe")) == ["--broken[=<mark>]", "OPTIONS"]


def test_a_long_word_above_a_term_is_read_at_once() -> None:
    # Must fail (by never returning): a term-shaped pattern that may split inside a word backtracks
    # through every split of a long word ending in a full stop before it refuses the line.
    word = "averyveryverylongtokenwithoutanyspacesinsideitatall." * 4
    body = f"## OPTIONS\n{word}\n--broken\n    Describe the state.\n"
    assert enclosing(body, body.index("Describe")) == ["--broken", "OPTIONS"]
    description = outline(body)[-1]
    assert description.terms == ("--broken",)


def test_focus_entity_reads_a_line_opening_with_its_setting() -> None:
    line = "trace_level: sets the level where traces will be visible. Default value is ERROR."
    body = "## Log\n" + line + "\nformat: sets the log format. Default value is ERROR.\n"
    assert verdicts("What is the default trace_level?", "ERROR", line, [("Settings", body)]) == [
        "supported",
        "supported",
        "supported",
    ]
    other = "format: sets the log format. Default value is ERROR."
    assert "unsupported" in verdicts("What is the default trace_level?", "ERROR", other, [("Settings", body)])
