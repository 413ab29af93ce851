"""The column header a table cell sits under, read back from the cited page's text.

The corpus writes a table row as one line of tab-separated cells, the header row first
(docs/corpus.md, "Structure"). A quote that is one whole row says what its cells are only
through that header: "ssl_min_protocol_version	enum	TLSv1.2	..." gives TLSv1.2 as the
default because the column it sits in is headed "Default". Read only when a support method
needs it, on a quote that is a row.
"""

from __future__ import annotations

from collections.abc import Sequence


def column_header(evidence: str, answer: str, pages: Sequence[tuple[str, str]]) -> str | None:
    """The header of the column holding `answer` in the row `evidence` quotes, or None when the quote
    is not one whole row of a table with a header row, or the answer is no cell of it."""
    if "\t" not in evidence or "\n" in evidence:
        return None
    cells = [cell.strip() for cell in evidence.split("\t")]
    if answer.strip() not in cells:
        return None
    column = cells.index(answer.strip())
    for _title, body in pages:
        at = body.find(evidence)
        if at < 0 or (at > 0 and body[at - 1] != "\n"):
            continue
        header: list[str] | None = None
        end = at - 1
        while end > 0:
            begin = body.rfind("\n", 0, end) + 1
            above = body[begin:end].split("\t")
            if len(above) != len(cells):
                break  # the table starts below this line
            header = [cell.strip() for cell in above]
            end = begin - 1
        return header[column] if header is not None else None
    return None
