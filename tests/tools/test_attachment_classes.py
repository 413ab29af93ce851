"""An attachment is refused (`wrong_class`) before a source whose class does not fit it is built.

A document may be admitted as a `declaration` or `generated`, a table as a `measurement` or
`generated` (citeloop.events.ADMITTED_CLASSES): `--attach-generated` is always fine, a CSV
declared as a declaration never is. A source admitted already is checked again by
`admit_all`, since a `model_copy` does not validate.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import EvidenceClass
from citeloop.tools import Attachment, AttachmentError, admit, admit_all

SPEC = "The Northstar pack is declared at 72 Wh.\n"
TABLE = "Prototype,Runtime (h)\nA,9\nB,7.5\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "spec.md").write_text(SPEC, encoding="utf-8")
    (tmp_path / "runtime.csv").write_text(TABLE, encoding="utf-8")
    return {"text": tmp_path / "spec.md", "csv": tmp_path / "runtime.csv"}


def wrong_class(attachment: Attachment) -> AttachmentError:
    with pytest.raises(AttachmentError) as caught:
        admit(attachment)
    assert caught.value.code == "wrong_class", str(caught.value)
    assert str(caught.value).startswith(f"cannot attach {attachment.path}: ")
    return caught.value


def test_by_default_a_document_declares_and_a_table_measures(files: dict[str, Path]) -> None:
    assert admit(Attachment(files["text"])).evidence_class == "declaration"
    assert admit(Attachment(files["csv"])).evidence_class == "measurement"


@pytest.mark.parametrize("kind", ["text", "csv"])
def test_generated_is_fine_for_any_attachment(files: dict[str, Path], kind: str) -> None:
    assert admit(Attachment(files[kind], generated=True)).evidence_class == "generated"
    assert admit(Attachment(files[kind], evidence_class="generated")).evidence_class == "generated"


@pytest.mark.parametrize(("kind", "evidence_class"), [("text", "declaration"), ("csv", "measurement")])
def test_a_fitting_declared_class_is_kept(
    files: dict[str, Path], kind: str, evidence_class: EvidenceClass
) -> None:
    assert admit(Attachment(files[kind], evidence_class=evidence_class)).evidence_class == evidence_class


def test_a_csv_declared_as_a_declaration_is_refused(files: dict[str, Path]) -> None:
    error = wrong_class(Attachment(files["csv"], evidence_class="declaration"))
    assert "a csv source cannot be admitted as 'declaration'" in str(error)
    assert "'measurement' or 'generated'" in str(error)


@pytest.mark.parametrize(
    ("kind", "evidence_class"),
    [
        ("text", "measurement"),
        ("text", "retrieved"),
        ("text", "calculation"),
        ("csv", "retrieved"),
        ("csv", "calculation"),
    ],
)
def test_every_other_misfit_is_refused(
    files: dict[str, Path], kind: str, evidence_class: EvidenceClass
) -> None:
    wrong_class(Attachment(files[kind], evidence_class=evidence_class))


def test_a_generated_flag_and_another_declared_class_contradict(files: dict[str, Path]) -> None:
    error = wrong_class(Attachment(files["csv"], generated=True, evidence_class="measurement"))
    assert "flagged generated" in str(error)


def test_admit_all_refuses_a_path_declared_with_the_wrong_class(files: dict[str, Path]) -> None:
    with pytest.raises(AttachmentError) as caught:
        admit_all([files["text"], Attachment(files["csv"], evidence_class="declaration")])
    assert caught.value.code == "wrong_class"


def test_admit_all_checks_a_source_admitted_already(files: dict[str, Path]) -> None:
    table = admit(Attachment(files["csv"]))
    forged = table.model_copy(update={"evidence_class": "declaration"})  # a copy is not validated
    with pytest.raises(AttachmentError) as caught:
        admit_all([files["text"], forged])
    assert caught.value.code == "wrong_class"
    assert caught.value.origin == str(files["csv"])
    assert admit_all([files["text"], table])[1] is table
