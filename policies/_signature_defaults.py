"""Defaults read from the signature of the function a question names: `pour(cup, source='<tap>')`.

`signature_entries` finds, under the term that documents the asked function (its dotted name
ending alike, or one of several signatures listed over one description), each parameter the
question asks about with its default, and whether the description says what happens when the
parameter is left out ("If omitted, file.mode is used") - where it does, a placeholder default
("None") yields to what the text says (`_doc_defaults`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import names, param_matches, signature_params, term_name
from ._doc_questions import DocQuestion
from ._outline import Line, clean, outline
from ._sentences import split_sentences

# A page, the parameter, its default, the signature's text, and whether the text says when it is left out.
SignatureEntry = tuple[Page, str, str, str, bool]


def signature_entries(q: DocQuestion, pages: Sequence[Page]) -> list[SignatureEntry]:
    """Each asked parameter's default in the signatures of the function `q` names."""
    found: list[SignatureEntry] = []
    for page in pages:
        lines = outline(page.body)
        for index, line in enumerate(lines):
            if "(" not in line.text or not (line.is_term or _overload(line, lines[index + 1 :])):
                continue
            name = term_name(line.text)
            if not any(_names_term(i, name) for i in q.identifiers):
                continue
            for param, value in signature_params(line.text):
                if param_matches(param, q):
                    described = _says_when_left_out(page, lines, index, param)
                    found.append((page, param, value, line.text, described))
    return found


def _names_term(identifier: str, term: str) -> bool:
    """Whether a term documents `identifier`: their dotted names end alike ("Telnet.open" for
    `telnetlib.Telnet.open`, "json.dumps" for `dumps`), not another class's member ("Pot.open")."""
    wanted = names(identifier)[0].split(".")
    parts = term.casefold().split(".")
    if len(wanted) == 1 or len(parts) == 1:  # a bare name on either side: its last part says it
        return wanted[-1] == parts[-1]
    common = min(len(parts), len(wanted))
    return wanted[-common:] == parts[-common:]


_LEFT_OUT: Final = re.compile(
    r"\b(?:omitted|not (?:given|specified|provided|passed|set)|is None|are None|None is (?:given|passed))\b"
    # ("hide is a list of names to hide, and defaults to [os.curdir, os.pardir]": the None is a sentinel)
    r"|\bdefaults? to\b|\bdefault (?:value )?is\b"
)


def _says_when_left_out(page: Page, lines: Sequence[Line], index: int, param: str) -> bool:
    """Whether the description under the signature at `lines[index]` says what happens when
    `param` is left out or None ("If omitted, file.mode is used ...", "If salt is None, ...", "hide
    ... defaults to [os.curdir, os.pardir]")."""
    term = clean(lines[index].text)
    for line in lines[index + 1 :]:
        if term not in line.terms:
            break
        for sentence in split_sentences(page.body[line.start : line.end]):
            if _LEFT_OUT.search(sentence.text) and (
                re.search(rf"(?<![\w.]){re.escape(param)}(?!\w)", sentence.text)
                or re.match(r"If (?:omitted|not (?:given|specified|provided))\b", sentence.text)
            ):
                return True
    return False


def _overload(line: Line, below: Sequence[Line]) -> bool:
    """Whether `line` is one of several signatures listed over one description ("Fraction(numerator=0,
    denominator=1)", then "Fraction(string)"): the signatures after it, down to a term, name the same."""
    name = term_name(line.text)
    for after in below:
        if after.depth != line.depth or "(" not in after.text or term_name(after.text) != name:
            return False
        if after.is_term:
            return True
    return False
