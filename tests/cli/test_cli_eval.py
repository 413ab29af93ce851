"""`citeloop eval` through the installed command, on the small dataset slices shipped in tests/data."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers.cli import run_citeloop

DATA = Path(__file__).parents[1] / "data"


def citeloop(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_citeloop(*args, cwd=cwd)


@pytest.mark.slow
def test_eval_squad2_json_report(tmp_path: Path) -> None:
    result = citeloop("eval", "squad2", str(DATA / "squad2_slice.json"), "--json", "--sweep", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["questions"] == 17
    assert report["citation_validity"] == 1.0
    assert report["has_answer"]["count"] + report["no_answer"]["count"] == 17
    for key in ("evidence_contains_gold", "em", "f1"):
        assert 0.0 <= report["has_answer"][key] <= 1.0
    assert 0.0 <= report["no_answer"]["abstention_rate"] <= 1.0
    thresholds = [point["threshold"] for point in report["sweep"]]
    assert thresholds == sorted(thresholds) and len(thresholds) > 3
    assert report["sweep"][0]["answered_rate"] >= report["sweep"][-1]["answered_rate"]


@pytest.mark.slow
def test_eval_hotpotqa_table_with_limit(tmp_path: Path) -> None:
    result = citeloop("eval", "hotpotqa", str(DATA / "hotpotqa_slice.jsonl"), "--limit", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "2 questions" in result.stdout
    assert "citation validity       1.000" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("squad2", "missing.json"), "cannot read"),
        (("squad2", str(DATA / "squad2_slice.json"), "--plot", "x.png"), "--plot needs --sweep"),
        (("hotpotqa", str(DATA / "squad2_slice.json")), "hotpotqa"),
        (("qa", str(DATA / "python_doc_qa.jsonl")), "needs --corpus"),
        (("squad2", str(DATA / "squad2_slice.json"), "--corpus", "x"), "for eval qa"),
        (("qa", str(DATA / "squad2_slice.json"), "--corpus", str(DATA / "python_doc" / "html")), "not JSON"),
        (("qa", str(DATA / "python_doc_qa.jsonl"), "--corpus", "missing-dir"), "corpus not found"),
        (("qa", str(DATA / "python_doc_qa.jsonl"), "--corpus", "x", "--split", "nope"), "split 'nope'"),
    ],
)
def test_eval_mistakes_are_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = citeloop("eval", *args, cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
