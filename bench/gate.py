"""B6: the grounding gate's cost grows with what is cited, not with everything opened.

A run has opened `--opened-mb` MB of pages, of which `--cited` pages (`--cited-kb` KB each)
are cited. The evidence sits at the end of the last cited page, so both the gate and the
floor read every cited byte. The floor is one `str.find` of the evidence over each cited
body. Printed: the gate's median time, the floor's, their ratio (target <= 5x) for each
opened size (by default 1, 10 and 50 MB: the ratio must not grow with uncited bytes), and,
for information, two paths off the target: evidence whose white space differs from the
body's (the regex fallback) and evidence found only in an uncited page (a failure, which
reads the uncited pages by design). The accepted path is timed twice: the gate alone
(`validate_finish`) and the gate followed by the support methods (`assess_support` with
the default set, as `decide_finish` runs them): `support_over_gate` is their ratio. For
information, `yes_no_support_info`: the support methods on a "yes" against a plain answer, and on
the worst quote for the `yes-no` search.

    python bench/gate.py [--opened-mb 1,10,50] [--cited 3] [--cited-kb 200] [--repeat 21]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version

from citeloop.runtime import DEFAULT_SUPPORT, assess_support, validate_finish

WORDS = [
    *("the", "of", "and", "to", "in", "a", "is", "was", "for", "on", "that", "by", "with", "as"),
    *("at", "from", "company", "robot", "founded", "city", "year", "research", "engine", "system"),
    *("market", "product", "team", "board", "member", "report", "public", "private", "early", "late"),
]
EVIDENCE = "Company 7 was founded by Person 7 in 1987 in Porto."
ANSWER = "Company 7 was founded by Person 7 in 1987."
QUESTION = "Who founded Company 7?"
# A yes-or-no answer is judged by `yes-no` (and a same-value question by `same-value`) on top.
YES_NO_QUESTION = "Was Company 7 founded by Person 7?"


def filler(rng: random.Random, size: int) -> str:
    """About `size` characters of sentence-like text (a repeated block: generation is not timed)."""
    block = " ".join(rng.choice(WORDS) for _ in range(12_000)) + ". "
    reps, rest = divmod(size, len(block))
    return block * reps + block[:rest]


def build(
    opened_mb: float, cited: int, cited_kb: int, evidence_in_body: str
) -> tuple[dict[str, str], list[str]]:
    rng = random.Random(7)
    base = filler(rng, 128 * 1024)
    cited_urls = [f"https://cited.example/{i}" for i in range(cited)]
    opened: dict[str, str] = {}
    for i, url in enumerate(cited_urls):
        body = f"Page {i}. " + (base * (cited_kb // 128 + 1))[: cited_kb * 1024]
        opened[url] = body + (" " + evidence_in_body if i == cited - 1 else "")
    uncited_bytes = int(opened_mb * 1024 * 1024) - sum(len(b) for b in opened.values())
    page = 100 * 1024
    for j in range(max(0, uncited_bytes) // page):
        opened[f"https://uncited.example/{j}"] = f"Uncited {j}. " + base[:page]  # distinct str objects
    return opened, cited_urls


def median_ns(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times)


def measure(
    opened: dict[str, str], cited: list[str], evidence: str, repeat: int
) -> dict[str, float | str | None]:
    payload = {"answer": ANSWER, "citations": cited, "cannot_answer": False, "evidence": evidence}
    verdict = validate_finish(payload, opened)
    bodies = [opened[url] for url in cited]
    gate = median_ns(lambda: validate_finish(payload, opened), repeat)
    floor = median_ns(lambda: [body.find(evidence) for body in bodies], repeat)

    def judged() -> object:
        code = validate_finish(payload, opened)
        return code if code is not None else assess_support(QUESTION, ANSWER, evidence, DEFAULT_SUPPORT)

    support = [verdict.verdict for verdict in assess_support(QUESTION, ANSWER, evidence, DEFAULT_SUPPORT)]
    with_support = median_ns(judged, repeat)
    return {
        "verdict": verdict,
        "support": support if verdict is None else None,
        "gate_us": round(gate / 1000, 1),
        "gate_support_us": round(with_support / 1000, 1),
        "floor_us": round(floor / 1000, 1),
        "ratio": round(gate / floor, 2),
        "ratio_with_support": round(with_support / floor, 2),
        "support_over_gate": round(with_support / gate, 3),
    }


def yes_no_info(repeat: int) -> dict[str, float]:
    """The support methods on a "yes" against the plain answer's cost, and on the worst quote for the
    `yes-no` search: the question's words repeated over 3,000 words (no clause over 150 is read)."""
    plain = median_ns(lambda: assess_support(QUESTION, ANSWER, EVIDENCE, DEFAULT_SUPPORT), repeat)
    yes = median_ns(lambda: assess_support(YES_NO_QUESTION, "yes", EVIDENCE, DEFAULT_SUPPORT), repeat)
    worst = "company " * 1000 + "founded " * 1000 + "person " * 1000 + "7."
    long = median_ns(
        lambda: assess_support(YES_NO_QUESTION, "yes", worst, DEFAULT_SUPPORT), max(3, repeat // 3)
    )
    return {
        "plain_answer_support_us": round(plain / 1000, 1),
        "yes_support_us": round(yes / 1000, 1),
        "yes_over_plain": round(yes / plain, 2),
        "worst_repeated_quote_support_us": round(long / 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--opened-mb", default="1,10,50", help="comma-separated opened sizes in MB")
    parser.add_argument("--cited", type=int, default=3)
    parser.add_argument("--cited-kb", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    sizes = [float(s) for s in args.opened_mb.split(",")]

    accepted = {}
    for size in sizes:
        opened, cited = build(size, args.cited, args.cited_kb, EVIDENCE)
        accepted[f"{size:g}MB"] = measure(opened, cited, EVIDENCE, args.repeat)
        del opened
    headline = accepted.get("10MB") or next(iter(accepted.values()))

    ten = 10.0 if 10.0 in sizes else sizes[0]
    # The body hard-wraps the sentence: the exact find fails and the regex fallback runs.
    wrapped = EVIDENCE.replace(" founded by ", " founded\n  by ")
    opened, cited = build(ten, args.cited, args.cited_kb, wrapped)
    fallback = measure(opened, cited, EVIDENCE, args.repeat)
    # Failure path: the evidence is only in the last uncited page, so every opened byte is read
    # to tell `evidence_uncited` from `evidence` (by design: off the accepted path).
    uncited_url = [url for url in opened if url.startswith("https://uncited.")][-1]
    opened[cited[-1]] = opened[cited[-1]].replace(wrapped, "")
    opened[uncited_url] += " " + EVIDENCE
    failure = measure(opened, cited, EVIDENCE, max(3, args.repeat // 3))

    ratios = [float(str(v["ratio_with_support"])) for v in accepted.values()]
    result = {
        "bench": "gate",
        "target": "B6: gate <= 5x one str.find pass over the cited bodies, flat in opened bytes",
        "params": {
            "opened_mb": sizes,
            "cited": args.cited,
            "cited_kb": args.cited_kb,
            "repeat": args.repeat,
        },
        "versions": {
            "python": platform.python_version(),
            "citeloop": version("citeloop"),
            "pydantic": version("pydantic"),
        },
        "ratio": headline["ratio"],
        "ratio_with_support": headline["ratio_with_support"],
        "support_over_gate": headline["support_over_gate"],
        "meets_target": all(r <= 5 for r in ratios),
        "ratio_growth_max_over_min_opened": round(ratios[-1] / ratios[0], 2),
        "accepted_by_opened_size": accepted,
        "whitespace_fallback_info": fallback,
        "evidence_uncited_failure_info": failure,
        "yes_no_support_info": yes_no_info(args.repeat),
    }
    print(json.dumps(result))
    for name, row in accepted.items():
        print(
            f"opened {name:>6}: gate {row['gate_us']:>9} us  gate+support {row['gate_support_us']:>9} us"
            f"  floor {row['floor_us']:>9} us  x{row['ratio']} / x{row['ratio_with_support']}",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
