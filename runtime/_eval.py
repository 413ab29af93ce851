"""Evaluation on real data: every question of a SQuAD 2.0 or HotpotQA file runs through the real runtime.

The corpus is built from the dataset's own paragraphs. Citation validity is recomputed
from each run's log, independently of the fold and the gate: every accepted citation must
name a page the run opened (a `Page` observation in its log), and every locator's quote
must equal `body[start:end]` of that page, whose sha256 (hashed here again) must match.

The sweep needs one pass: the policy runs at `min_confidence=0`, and its first finish
states its confidence in the thought ("confidence 0.612 ..."); since nothing before the
finish depends on the threshold, a run at threshold t answers exactly when that
confidence is >= t. Policies without that knob get a single point.
"""

from __future__ import annotations

import hashlib
import re
import string
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

import anyio
import orjson
from citeloop.events import ActionParsed, Answered, Event, Finish, Page, ToolObserved, UsageError, open_store
from citeloop.policies import ExtractivePolicy, Policy
from citeloop.tools import Corpus

from ._outcome import Outcome
from ._runtime import Runtime

DatasetKind = Literal["squad2", "hotpotqa"]
DEFAULT_THRESHOLDS: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(20))
_CONFIDENCE = re.compile(r"confidence (\d+(?:\.\d+)?)")


class DatasetError(UsageError):
    """Raised when an evaluation file is missing or not in the SQuAD 2.0 / HotpotQA format."""


@dataclass(frozen=True, slots=True)
class EvalItem:
    """One question, its gold answers, and whether the dataset says it can be answered."""

    id: str
    question: str
    answers: tuple[str, ...]
    answerable: bool


@dataclass(frozen=True, slots=True)
class Dataset:
    """The questions of one file and the pages (url, title, body) their corpus is built from."""

    name: str
    pages: tuple[tuple[str, str, str], ...]
    items: tuple[EvalItem, ...]


@dataclass(frozen=True, slots=True)
class RunRecord:
    """What one question's run produced, checked against its log."""

    item: EvalItem
    outcome: Outcome
    seconds: float
    citations_valid: bool
    confidence: float | None  # from the first finish's thought, for the sweep


@dataclass(frozen=True, slots=True)
class EvalReport:
    """The figures of one evaluation (`to_json` gives the `--json` object)."""

    dataset: str
    policy: str
    records: tuple[RunRecord, ...]
    sweep: tuple[dict[str, float], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        report = summarize(self.records)
        report = {"dataset": self.dataset, "policy": self.policy, **report}
        if self.sweep:
            report["sweep"] = list(self.sweep)
        return report

    def table(self) -> str:
        """The short human-readable table (see `format_table`)."""
        return format_table(self)

    def plot(self, path: str | Path) -> None:
        """Write the sweep's trade-off curve as a PNG (see `plot_sweep`)."""
        plot_sweep(self, path)


# -- loading ----------------------------------------------------------------------------


def load_dataset(kind: DatasetKind, path: str | Path) -> Dataset:
    """Read a SQuAD 2.0 JSON file, or a HotpotQA file (IRCoT JSONL or the Hugging Face JSON layout)."""
    source = Path(path)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise DatasetError(f"cannot read {source}: {exc.strerror}") from exc
    try:
        if kind == "squad2":
            return _squad2(source.name, orjson.loads(raw))
        if kind == "hotpotqa":
            if source.suffix == ".jsonl":
                records = [orjson.loads(line) for line in raw.splitlines() if line.strip()]
            else:
                records = orjson.loads(raw)
            return _hotpotqa(source.name, records)
    except (orjson.JSONDecodeError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise DatasetError(f"{source} is not a {kind} file: {type(exc).__name__}: {exc}") from exc
    raise DatasetError(f"unknown dataset kind {kind!r}: use squad2 or hotpotqa")


def _squad2(name: str, data: dict[str, Any]) -> Dataset:
    pages: list[tuple[str, str, str]] = []
    items: list[EvalItem] = []
    for article in data["data"]:
        title = str(article["title"])
        for index, paragraph in enumerate(article["paragraphs"]):
            url = f"squad://{quote(title, safe='')}/{index}"
            pages.append((url, title.replace("_", " "), str(paragraph["context"])))
            for qa in paragraph["qas"]:
                answers = tuple(dict.fromkeys(str(a["text"]) for a in qa.get("answers", [])))
                impossible = bool(qa.get("is_impossible", not answers))
                items.append(EvalItem(str(qa["id"]), str(qa["question"]), answers, not impossible))
    return Dataset(name, tuple(pages), tuple(items))


def _hotpotqa(name: str, records: list[dict[str, Any]]) -> Dataset:
    pages: dict[str, tuple[str, str, str]] = {}
    items: list[EvalItem] = []
    for number, record in enumerate(records):
        if "question_text" in record:  # IRCoT JSONL
            question = str(record["question_text"])
            answers = tuple(str(s) for obj in record["answers_objects"] for s in obj["spans"])
            paragraphs = [(str(c["title"]), str(c["paragraph_text"])) for c in record["contexts"]]
            qid = str(record.get("question_id", number))
        else:  # Hugging Face layout
            question = str(record["question"])
            answers = (str(record["answer"]),)
            context = record["context"]
            paragraphs = [
                (str(t), " ".join(str(s) for s in sents))
                for t, sents in zip(context["title"], context["sentences"], strict=True)
            ]
            qid = str(record.get("id", record.get("_id", number)))
        for title, text in paragraphs:
            url = f"hotpotqa://{quote(title, safe='')}"
            pages.setdefault(url, (url, title, text))  # Wikipedia paragraphs recur across questions
        items.append(EvalItem(qid, question, tuple(dict.fromkeys(answers)), True))
    return Dataset(name, tuple(pages.values()), tuple(items))


# -- running ----------------------------------------------------------------------------


async def evaluate(
    dataset: Dataset,
    *,
    policy: Policy | None = None,
    limit: int | None = None,
    max_steps: int = 6,
    progress: Callable[[int, int], None] | None = None,
    sweep: bool = False,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
) -> EvalReport:
    """Run each question (the first `limit`) through a `Runtime` over the dataset's corpus.

    With `sweep`, the policy must be an `ExtractivePolicy`: it runs at threshold 0 and the
    report holds the trade-off curve; its main figures are those at the policy's own threshold.
    """
    chosen: Policy = policy if policy is not None else ExtractivePolicy()
    items = dataset.items[:limit] if limit is not None else dataset.items
    run_policy = chosen
    if sweep:
        if not isinstance(chosen, ExtractivePolicy):
            raise UsageError("--sweep needs a policy with a confidence threshold (extractive)")
        run_policy = ExtractivePolicy(min_confidence=0.0, max_opens=chosen.max_opens)
    corpus = Corpus.from_pages(dataset.pages, name=dataset.name)
    records: list[RunRecord] = []
    try:
        async with Runtime(
            store=open_store("memory://"), tools=corpus.tools(), policy=run_policy, max_steps=max_steps
        ) as rt:
            for done, item in enumerate(items, start=1):
                started = time.perf_counter()
                outcome = await rt.run(item.question)
                seconds = time.perf_counter() - started
                events = await rt.transcript(outcome.run_id)
                records.append(
                    RunRecord(
                        item, outcome, seconds, citations_valid(outcome, events), _first_confidence(events)
                    )
                )
                if progress is not None:
                    progress(done, len(items))
    finally:
        corpus.close()
    name = str(getattr(chosen, "name", type(chosen).__name__))
    if not sweep:
        return EvalReport(dataset.name, name, tuple(records))
    assert isinstance(chosen, ExtractivePolicy)
    curve = tuple(_point(records, t) for t in sorted({*thresholds, chosen.min_confidence}))
    at_default = tuple(_at_threshold(r, chosen.min_confidence) for r in records)
    return EvalReport(dataset.name, name, at_default, curve)


def run_evaluation(
    kind: DatasetKind,
    path: str | Path,
    *,
    policy: Policy | None = None,
    limit: int | None = None,
    sweep: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> EvalReport:
    """Load a file and evaluate it: the synchronous entry point for the command line."""
    dataset = load_dataset(kind, path)

    async def main() -> EvalReport:
        return await evaluate(dataset, policy=policy, limit=limit, sweep=sweep, progress=progress)

    return anyio.run(main)


def stderr_progress(done: int, total: int) -> None:
    """A one-line progress bar on stderr, redrawn in place."""
    width = 30
    filled = width * done // max(1, total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


# -- checking ---------------------------------------------------------------------------


def citations_valid(outcome: Outcome, events: Sequence[Event]) -> bool:
    """Whether an answer's citations and locators hold against the pages its own log shows opened."""
    if outcome.status != "answered":
        return True
    opened: dict[str, str] = {}
    for event in events:
        if isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            opened[event.observation.url] = event.observation.body
    answered = [e for e in events if isinstance(e, Answered)]
    if len(answered) != 1 or not outcome.citations or not outcome.locators:
        return False
    if any(url not in opened for url in outcome.citations):
        return False
    for locator in outcome.locators:
        body = opened.get(locator.url)
        if body is None or locator.url not in outcome.citations:
            return False
        if body[locator.start : locator.end] != locator.quote:
            return False
        if hashlib.sha256(body.encode("utf-8")).hexdigest() != locator.sha256:
            return False
    return True


def _first_confidence(events: Sequence[Event]) -> float | None:
    for event in events:
        if isinstance(event, ActionParsed) and isinstance(event.action, Finish):
            match = _CONFIDENCE.search(event.thought)
            return float(match.group(1)) if match else None
    return None


def _at_threshold(record: RunRecord, threshold: float) -> RunRecord:
    """The record as a run at `threshold` would have ended (see the module docstring)."""
    if record.outcome.status == "answered" and (record.confidence or 0.0) < threshold:
        refused = replace(
            record.outcome,
            status="abstained",
            answer="cannot: below the confidence threshold",
            citations=(),
            evidence="",
            locators=(),
            reason="missing_fact",
        )
        return replace(record, outcome=refused)
    return record


def _point(records: Sequence[RunRecord], threshold: float) -> dict[str, float]:
    summary = summarize([_at_threshold(r, threshold) for r in records])
    return {
        "threshold": threshold,
        "answered_rate": summary["answered_rate"],
        "evidence_contains_gold": summary["has_answer"]["evidence_contains_gold"],
        "abstention_rate": summary["no_answer"]["abstention_rate"],
    }


# -- scoring ----------------------------------------------------------------------------


def normalize_answer(text: str) -> str:
    """SQuAD's normalization: lower case, no punctuation, no articles, single spaces."""
    text = "".join(c for c in text.lower() if c not in string.punctuation)
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def f1_score(prediction: str, gold: str) -> float:
    """Token-level F1 between normalized answers (SQuAD's definition)."""
    pred, ref = normalize_answer(prediction).split(), normalize_answer(gold).split()
    common = sum((Counter(pred) & Counter(ref)).values())
    if not pred or not ref or not common:
        return float(pred == ref)
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def summarize(records: Sequence[RunRecord]) -> dict[str, Any]:
    """The report's figures over a set of run records."""
    total = len(records)
    answered = [r for r in records if r.outcome.status == "answered"]
    positive = [r for r in records if r.item.answerable]
    negative = [r for r in records if not r.item.answerable]
    contains = em = f1 = 0.0
    for record in positive:
        if record.outcome.status != "answered":
            continue
        evidence = normalize_answer(record.outcome.evidence)
        contains += any(normalize_answer(g) in evidence for g in record.item.answers if normalize_answer(g))
        em += max(
            (
                float(normalize_answer(record.outcome.answer) == normalize_answer(g))
                for g in record.item.answers
            ),
            default=0.0,
        )
        f1 += max((f1_score(record.outcome.answer, g) for g in record.item.answers), default=0.0)
    reasons = Counter(r.outcome.reason for r in records if r.outcome.reason)
    return {
        "questions": total,
        "answered_rate": _ratio(len(answered), total),
        "citation_validity": _ratio(sum(r.citations_valid for r in answered), len(answered), empty=1.0),
        "has_answer": {
            "count": len(positive),
            "answered_rate": _ratio(sum(r.outcome.status == "answered" for r in positive), len(positive)),
            "evidence_contains_gold": _ratio(contains, len(positive)),
            "em": _ratio(em, len(positive)),
            "f1": _ratio(f1, len(positive)),
        },
        "no_answer": {
            "count": len(negative),
            "abstention_rate": _ratio(sum(r.outcome.status == "abstained" for r in negative), len(negative)),
        },
        "abstain_reasons": dict(sorted(reasons.items())),
        "steps_per_question": _ratio(sum(r.outcome.steps for r in records), total),
        "seconds_per_question": round(sum(r.seconds for r in records) / total, 5) if total else 0.0,
    }


def _ratio(part: float, whole: int, *, empty: float = 0.0) -> float:
    return round(part / whole, 4) if whole else empty


def format_table(report: EvalReport) -> str:
    """A short human-readable table of the figures (and the sweep, if any)."""
    data = report.to_json()
    has, no = data["has_answer"], data["no_answer"]
    lines = [
        f"{report.dataset} with {report.policy}: {data['questions']} questions",
        f"  answered rate           {data['answered_rate']:.3f}",
        f"  citation validity       {data['citation_validity']:.3f}",
        f"  answerable ({has['count']:>5})      evidence holds gold {has['evidence_contains_gold']:.3f}"
        f"   EM {has['em']:.3f}   F1 {has['f1']:.3f}",
        f"  unanswerable ({no['count']:>5})    abstention rate {no['abstention_rate']:.3f}",
        f"  steps / question        {data['steps_per_question']:.2f}",
        f"  seconds / question      {data['seconds_per_question']:.4f}",
    ]
    if report.sweep:
        lines.append("  threshold  answered  evidence-holds-gold  abstention(unanswerable)")
        for point in report.sweep:
            lines.append(
                f"  {point['threshold']:9.2f}  {point['answered_rate']:8.3f}  "
                f"{point['evidence_contains_gold']:19.3f}  {point['abstention_rate']:24.3f}"
            )
    return "\n".join(lines)


def plot_sweep(report: EvalReport, path: str | Path) -> None:
    """Write the trade-off curve as a PNG (needs the `plot` extra: matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise UsageError("--plot needs matplotlib: pip install 'citeloop[plot]'") from exc
    if not report.sweep:
        raise UsageError("--plot needs --sweep")
    xs = [p["abstention_rate"] for p in report.sweep]
    ys = [p["evidence_contains_gold"] for p in report.sweep]
    figure, axes = plt.subplots(figsize=(6, 4.5))
    axes.plot(xs, ys, marker="o")
    for point in report.sweep:
        axes.annotate(
            f"{point['threshold']:.2f}", (point["abstention_rate"], point["evidence_contains_gold"])
        )
    axes.set_xlabel("unanswerable questions refused")
    axes.set_ylabel("answerable questions with gold in the evidence")
    axes.set_title(f"{report.dataset}: {report.policy}, confidence threshold sweep")
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    figure.savefig(str(path), dpi=120)
    plt.close(figure)
