"""Writes the Northstar workbooks (synthetic test data for issue 12; run from this folder).

Every file is written with fixed document properties, so running this again gives the
same cells (the zip container's timestamps may differ; the tests read cells, not bytes).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from openpyxl import Workbook

HEADER = ["Prototype", "Runtime (h)", "Observed at"]
FIXED = datetime(2026, 3, 10, 12, 0, 0)


def write(name: str, sheets: dict[str, list[list[object]]]) -> None:
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.properties.created = FIXED
    book.properties.modified = FIXED
    book.properties.creator = "citeloop tests"
    book.save(Path(__file__).with_name(name))


def main() -> None:
    # The happy path: prototype A ran 9 h, B 7.5 h, observed two days apart.
    write(
        "runtime.xlsx",
        {"Runtime": [HEADER, ["Prototype A", 9, "2026-03-02"], ["Prototype B", 7.5, "2026-03-04"]]},
    )
    # A missing cell: B's runtime was never filled in.
    write(
        "runtime-missing.xlsx",
        {"Runtime": [HEADER, ["Prototype A", 9, "2026-03-02"], ["Prototype B", None, "2026-03-04"]]},
    )
    # A stale measurement: B was measured fourteen months before A.
    write(
        "runtime-stale.xlsx",
        {"Runtime": [HEADER, ["Prototype A", 9, "2026-03-02"], ["Prototype B", 7.5, "2025-01-10"]]},
    )
    # Mixed units: B's bench run is logged in minutes on a sheet of its own.
    write(
        "runtime-mixed-units.xlsx",
        {
            "Runtime": [HEADER, ["Prototype A", 9, "2026-03-02"]],
            "Bench": [["Prototype", "Runtime (min)", "Observed at"], ["Prototype B", 450, "2026-03-04"]],
        },
    )
    # A second workbook that contradicts the first about prototype A.
    write("runtime-retest.xlsx", {"Runtime": [HEADER, ["Prototype A", 8, "2026-03-05"]]})


if __name__ == "__main__":
    main()
