"""Evaluation through the real runtime on small shipped slices of SQuAD 2.0 and HotpotQA (tests/data)."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Answered, Locator, ToolObserved, UsageError, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.runtime import Outcome, Runtime
from citeloop.runtime.eval import DatasetError, evaluate, load_dataset, run_evaluation
from citeloop.runtime.eval._run import operating_point
from citeloop.runtime.eval.datasets import EvalItem, select_split
from citeloop.runtime.eval.metrics import RunRecord, citations_valid, f1_score, normalize_answer, summarize
from citeloop.runtime.eval.report import format_table, plot_sweep
from citeloop.tools import Corpus

DATA = Path(__file__).parents[1] / "data"
SQUAD = DATA / "squad2_slice.json"
HOTPOT = DATA / "hotpotqa_slice.jsonl"


def test_loaders() -> None:
    squad = load_dataset("squad2", SQUAD)
    assert len(squad.pages) == 2 and len(squad.items) == 17
    assert sum(not i.answerable for i in squad.items) == 9
    assert all(i.answers for i in squad.items if i.answerable)
    assert all(p[0].startswith("squad://Normans/") for p in squad.pages)
    hotpot = load_dataset("hotpotqa", HOTPOT)
    assert len(hotpot.items) == 4 and all(i.answerable and i.answers for i in hotpot.items)
    assert len({p[0] for p in hotpot.pages}) == len(hotpot.pages) >= 10


def test_hotpotqa_halves_and_gold_paragraphs() -> None:
    items = load_dataset("hotpotqa", HOTPOT).items
    dev, held_out = select_split(items, "dev"), select_split(items, "held-out")
    # The rule reads the id alone: the first two records of the sample are dev, the next two held out.
    assert [i.id for i in dev] == [i.id for i in items[:2]] and [i.id for i in held_out] == [
        i.id for i in items[2:]
    ]
    assert all(len(i.gold_urls) == 2 and all(u.startswith("hotpotqa://") for u in i.gold_urls) for i in items)
    with pytest.raises(DatasetError):
        select_split(items, "test")


def test_bad_files_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(DatasetError):
        load_dataset("squad2", tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"data": [{"paragraphs": 3}]}', encoding="utf-8")
    with pytest.raises(UsageError):
        load_dataset("squad2", bad)


def test_squad_scoring() -> None:
    assert normalize_answer("The  Normans!") == "normans"
    assert f1_score("in Normandy France", "Normandy") == pytest.approx(0.5)
    assert f1_score("", "") == 1.0 and f1_score("x", "y") == 0.0


def test_a_yes_or_no_gold_is_never_held_by_the_evidence() -> None:
    # "no" is in "known" as a string and "No" can be a word of a quote: a verdict is settled by
    # evidence, never said by it, so it counts in EM and F1 only.
    quotes = ("Ann Ray is a poet known for No Return.", "Bo Li is a painter.")

    def record(gold: str, answer: str) -> RunRecord:
        item = EvalItem(
            id=gold,
            question="Were Ann Ray and Bo Li of the same nationality?",
            answers=(gold,),
            answerable=True,
        )
        outcome = Outcome(
            run_id="r",
            question=item.question,
            status="answered",
            answer=answer,
            citations=(),
            evidence=quotes,
            locators=(),
            reason=None,
            steps=3,
        )
        return RunRecord(item, outcome, 0.0, True, None)

    report = summarize([record("no", "no"), record("Bo Li", "Bo Li")])["has_answer"]
    assert report["evidence_contains_gold"] == report["evidence_contains_gold_words"] == 0.5
    assert report["em"] == 1.0


@pytest.mark.slow
@pytest.mark.anyio
async def test_squad_slice_report() -> None:
    report = (await evaluate(load_dataset("squad2", SQUAD))).to_json()
    assert report["questions"] == 17
    assert report["citation_validity"] == 1.0
    assert report["has_answer"]["count"] == 8 and report["no_answer"]["count"] == 9
    assert report["answered_rate"] > 0  # it answers some questions of its own paragraphs
    assert report["no_answer"]["abstention_rate"] >= 0.5
    assert 0 < report["has_answer"]["evidence_contains_gold"] <= 1
    assert 0 <= report["has_answer"]["em"] <= report["has_answer"]["f1"] <= 1
    assert 3 <= report["steps_per_question"] <= 6


@pytest.mark.slow
@pytest.mark.anyio
async def test_sweep_matches_real_runs_at_each_threshold() -> None:
    dataset = load_dataset("squad2", SQUAD)
    swept = await evaluate(dataset, sweep=True, thresholds=(0.0, 0.3))
    rates = [p["answered_rate"] for p in swept.sweep]
    # Threshold 0 answers every question whose candidate the gate accepts (the support
    # methods refuse some); a higher one answers fewer. Each point is checked against real runs.
    assert rates == sorted(rates, reverse=True) and rates[0] > rates[-1]
    for point in swept.sweep:
        real = (await evaluate(dataset, policy=ExtractivePolicy(min_confidence=point["threshold"]))).to_json()
        assert real["answered_rate"] == point["answered_rate"]
        assert real["has_answer"]["evidence_contains_gold"] == point["evidence_contains_gold"]
        assert real["no_answer"]["abstention_rate"] == point["abstention_rate"]
    default = (await evaluate(dataset)).to_json()
    # The sweep's pass proposes every candidate, so a refused one costs its repair step:
    # the outcomes must agree, the step counts need not.
    per_run = ("sweep", "operating_point", "seconds_per_question", "steps_per_question")
    assert {k: v for k, v in swept.to_json().items() if k not in per_run} == {
        k: v for k, v in default.items() if k not in per_run
    }


@pytest.mark.slow
@pytest.mark.anyio
async def test_the_operating_point_is_the_lowest_threshold_reaching_the_refusal_asked() -> None:
    dataset = load_dataset("squad2", SQUAD)
    swept = await evaluate(dataset, policy=ExtractivePolicy(min_confidence=0.0))
    point = operating_point(swept.records, 0.8)
    assert point is not None and point["abstention_rate"] >= 0.8 and point["threshold"] > 0
    real = (await evaluate(dataset, policy=ExtractivePolicy(min_confidence=point["threshold"]))).to_json()
    assert real["no_answer"]["abstention_rate"] == point["abstention_rate"]
    assert real["has_answer"]["evidence_contains_gold"] == point["evidence_contains_gold"]
    # Must fail as the lowest: at the next confidence down, fewer than 80% of the unanswerable
    # questions are refused (between two confidences every threshold answers the same questions).
    below = max(
        r.confidence for r in swept.records if r.confidence is not None and r.confidence < point["threshold"]
    )
    lower = (await evaluate(dataset, policy=ExtractivePolicy(min_confidence=below))).to_json()
    assert lower["no_answer"]["abstention_rate"] < 0.8
    assert operating_point(swept.records, 1.01) is None  # a share no threshold reaches


@pytest.mark.slow
def test_hotpot_slice_through_the_sync_entry_point() -> None:
    seen: list[tuple[int, int]] = []
    report = run_evaluation("hotpotqa", HOTPOT, progress=lambda done, total: seen.append((done, total)))
    figures = report.to_json()
    assert figures["questions"] == 4 and figures["no_answer"]["count"] == 0
    assert figures["citation_validity"] == 1.0
    assert seen[-1] == (4, 4)
    assert "citation validity" in format_table(report)
    counts = figures["counts"]
    assert counts["answered"] == counts["correct"] + counts["partial"] + counts["wrong"]
    assert counts["answered"] + counts["refused"] == 4
    assert figures["gold_paragraphs"]["count"] == 4
    assert 0 <= figures["gold_paragraphs"]["both_cited"] <= figures["gold_paragraphs"]["one_cited"] <= 1
    assert "both cited" in format_table(report)


@pytest.mark.anyio
async def test_citation_check_catches_a_tampered_locator() -> None:
    corpus = Corpus.demo()
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
        events = await rt.transcript(outcome.run_id)
    assert outcome.status == "answered" and citations_valid(outcome, events)
    (locator,) = outcome.locators
    shifted = Locator.model_validate({**locator.model_dump(), "start": locator.start + 1})
    assert not citations_valid(_with(outcome, locators=(shifted,)), events)
    other = Locator.model_validate({**locator.model_dump(), "sha256": "0" * 64})
    assert not citations_valid(_with(outcome, locators=(other,)), events)
    never_opened = [e for e in events if not isinstance(e, ToolObserved)]
    assert not citations_valid(outcome, never_opened)
    assert any(isinstance(e, Answered) for e in never_opened)


def _with(outcome: object, **changes: object) -> object:
    from dataclasses import replace

    return replace(outcome, **changes)  # type: ignore[type-var]


@pytest.mark.slow
def test_plot_needs_a_sweep(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is optional")
    report = run_evaluation("squad2", SQUAD, sweep=True)
    target = tmp_path / "curve.png"
    plot_sweep(report, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(UsageError):
        plot_sweep(run_evaluation("squad2", SQUAD), target)
