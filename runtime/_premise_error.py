"""`PremiseError` and its `PremiseCode`: why a premise does not resolve or a value cannot be read.

Its own module so that runtime/_premises.py, runtime/_sheets.py and runtime/_measurements.py
share it without importing one another in a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

# `bad_input`: the premise has the wrong shape, types or keys. `bad_locator`: it is well
# formed but selects nothing in this run (a source not admitted, a page past the end, a cell
# outside the sheet, a quote that is not there, offsets that split a surrogate pair). The
# rest are about reading a selected value as a measurement (runtime/_measurements.py;
# `not_a_measurement`: a column headed as a target, goal or spec holds no measurement).
PremiseCode: TypeAlias = Literal[
    "bad_input",
    "bad_locator",
    "not_a_measurement",
    "missing_value",
    "not_a_number",
    "non_finite",
    "mixed_units",
]


@dataclass(frozen=True, slots=True)
class PremiseError:
    """Why a premise does not resolve or a value cannot be read: `detail` names exactly what is wrong."""

    code: PremiseCode
    detail: str
