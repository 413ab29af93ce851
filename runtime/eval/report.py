"""The evaluation report: its `--json` object, a short table, and the sweep's trade-off plot."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citeloop.events import UsageError

from .metrics import RunRecord, summarize

__all__ = ("EvalReport", "format_table", "plot_sweep")


@dataclass(frozen=True, slots=True)
class EvalReport:
    """The figures of one evaluation (`to_json` gives the `--json` object)."""

    dataset: str
    policy: str
    records: tuple[RunRecord, ...]
    sweep: tuple[dict[str, float], ...] = field(default=())
    # With a sweep: the lowest threshold refusing the target share of unanswerable questions.
    operating: dict[str, float] | None = None

    def to_json(self) -> dict[str, Any]:
        report = summarize(self.records)
        report = {"dataset": self.dataset, "policy": self.policy, **report}
        if self.sweep:
            report["sweep"] = list(self.sweep)
        if self.operating is not None:
            report["operating_point"] = self.operating
        return report

    def table(self) -> str:
        """The short human-readable table (see `format_table`)."""
        return format_table(self)

    def plot(self, path: str | Path) -> None:
        """Write the sweep's trade-off curve as a PNG (see `plot_sweep`)."""
        plot_sweep(self, path)


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
        "  outcomes                "
        + "   ".join(f"{name} {count}" for name, count in data["counts"].items()),
        f"  steps / question        {data['steps_per_question']:.2f}",
        f"  seconds / question      {data['seconds_per_question']:.4f}",
    ]
    if "gold_paragraphs" in data:
        gold = data["gold_paragraphs"]
        lines.append(
            f"  gold paragraphs ({gold['count']:>3})   both cited {gold['both_cited']:.3f}"
            f"   one cited {gold['one_cited']:.3f}"
        )
    if report.operating is not None:
        point = report.operating
        lines.append(
            f"  at abstention >= {point['min_abstention']:.2f}   threshold {point['threshold']:.4f}"
            f"   evidence holds gold {point['evidence_contains_gold']:.3f}"
            f"   abstention {point['abstention_rate']:.3f}"
        )
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
