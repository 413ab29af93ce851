"""An admitted source's evidence class must fit its representation (docs/evidence.md, "Evidence classes").

Text and PDF hold a document's statements: `declaration`, or `generated` when a model made
them. Workbooks and CSV hold a table's values: `measurement`, or `generated`. `retrieved` is
for pages opened from a corpus or the web and `calculation` is what the calculate tool makes:
neither is ever an admitted source. A source read back from a stored log is taken as written
(`check` names a misfit there), so the decoder never refuses a log for it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from citeloop.events import (
    ADMITTED_CLASSES,
    EVIDENCE_CLASSES,
    AdmittedSource,
    SourceAdmitted,
    admitted_class_problem,
    decode_event,
    encode_event,
)
from pydantic import ValidationError

REPRESENTATIONS: dict[str, dict[str, Any]] = {
    "text": {"kind": "text", "text": "The pack is declared at 72 Wh.", "sha256": "0" * 64},
    "pdf": {"kind": "pdf", "pages": ["The pack is declared at 72 Wh."]},
    "workbook": {"kind": "workbook", "sheets": [{"name": "Runtime", "rows": [["Prototype", "Runtime (h)"]]}]},
    "csv": {"kind": "csv", "rows": [["Prototype", "Runtime (h)"], ["A", "9"]]},
}
ALLOWED = {
    ("text", "declaration"),
    ("text", "generated"),
    ("pdf", "declaration"),
    ("pdf", "generated"),
    ("workbook", "measurement"),
    ("workbook", "generated"),
    ("csv", "measurement"),
    ("csv", "generated"),
}
PAIRS = [(kind, cls) for kind in REPRESENTATIONS for cls in EVIDENCE_CLASSES]


def source(kind: str, evidence_class: str) -> dict[str, Any]:
    return {
        "id": f"attached:file.{kind}",
        "origin": f"file.{kind}",
        "media_type": "application/octet-stream",
        "size": 10,
        "sha256": "a" * 64,
        "extractor": "x",
        "extractor_version": "1",
        "evidence_class": evidence_class,
        "representation": REPRESENTATIONS[kind],
    }


def test_the_rule_table_is_the_documented_one() -> None:
    assert {(kind, cls) for kind, classes in ADMITTED_CLASSES.items() for cls in classes} == ALLOWED


@pytest.mark.parametrize(("kind", "evidence_class"), sorted(ALLOWED))
def test_a_fitting_class_is_admitted(kind: str, evidence_class: str) -> None:
    admitted = AdmittedSource.model_validate(source(kind, evidence_class))
    assert admitted.evidence_class == evidence_class
    assert admitted_class_problem(evidence_class, kind) is None


@pytest.mark.parametrize(("kind", "evidence_class"), sorted(set(PAIRS) - ALLOWED))
def test_a_class_that_does_not_fit_is_refused_with_a_clear_message(kind: str, evidence_class: str) -> None:
    with pytest.raises(ValidationError) as caught:
        AdmittedSource.model_validate(source(kind, evidence_class))
    message = str(caught.value)
    assert f"attached:file.{kind}: a {kind} source cannot be admitted as {evidence_class!r}" in message
    assert " or ".join(repr(cls) for cls in ADMITTED_CLASSES[kind]) in message
    problem = admitted_class_problem(evidence_class, kind)
    assert problem is not None and problem in message


def test_the_message_says_why_for_each_kind_of_misfit() -> None:
    assert "for pages opened from a corpus or the web" in str(admitted_class_problem("retrieved", "text"))
    assert "made by the calculate tool" in str(admitted_class_problem("calculation", "csv"))
    assert "not declarations" in str(admitted_class_problem("declaration", "csv"))
    assert "not measurements" in str(admitted_class_problem("measurement", "pdf"))


def test_a_constructor_call_is_refused_too() -> None:
    fields = source("csv", "declaration")
    with pytest.raises(ValidationError, match="cannot be admitted as 'declaration'"):
        AdmittedSource(**fields)


def test_a_stored_event_with_a_misfit_still_decodes_for_check_to_judge() -> None:
    good = SourceAdmitted(
        run_id="r",
        seq=1,
        at=datetime(2026, 12, 1, tzinfo=UTC),
        source=AdmittedSource(**source("csv", "measurement")),
    )
    data = json.loads(encode_event(good))
    data["source"]["evidence_class"] = "declaration"
    forged = json.dumps(data, separators=(",", ":")).encode()
    decoded = decode_event(forged)
    assert isinstance(decoded, SourceAdmitted) and decoded.source.evidence_class == "declaration"
    assert encode_event(decoded) == forged
