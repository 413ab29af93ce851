"""B7: corpus search. Index build docs/s and query p50/p99 over the standard pages (docs/benchmarks.md).

Builds an in-memory `Corpus` (SQLite FTS5, BM25) from N standard pages ("Company K was
founded by Person K in YEAR in CITY." + 1-3 KB of filler), then times `Corpus.search` on
"Who founded Company K?" for seeded random K. Target: p50 <= 5 ms at 100,000 pages.
The floor is a one-word query for the page's number alone, the least SQLite can spend.
Prints one JSON line.

    python bench/search.py                 # 100,000 pages, 1,000 queries
    python bench/search.py --docs 20000 --queries 5000 --on-disk
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _standard import emit, page, question, versions
from citeloop.tools import Corpus


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--limit", type=int, default=5, help="hits per search")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--on-disk", action="store_true", help="build a JSONL corpus on disk (stored index)")
    args = parser.parse_args()

    started = time.perf_counter()
    pages = [page(k) for k in range(args.docs)]
    generate_s = time.perf_counter() - started
    corpus_bytes = sum(len(body.encode()) for _, _, body in pages)

    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        if args.on_disk:
            import orjson

            path = Path(scratch, "pages.jsonl")
            with path.open("wb") as handle:
                for url, title, body in pages:
                    handle.write(orjson.dumps({"url": url, "title": title, "body": body}) + b"\n")
            started = time.perf_counter()
            corpus = Corpus.from_path(path, index_path=Path(scratch, "index.sqlite"))
        else:
            corpus = Corpus.from_pages(pages)
        build_s = time.perf_counter() - started
        del pages

        rng = random.Random(args.seed)
        ks = [rng.randrange(args.docs) for _ in range(args.queries)]
        for k in ks[:20]:  # warm the page cache and the stem cache
            corpus.search(question(k, args.docs), args.limit)
        timings: list[float] = []
        right = 0
        for k in ks:
            t0 = time.perf_counter()
            hits = corpus.search(question(k, args.docs), args.limit)
            timings.append(time.perf_counter() - t0)
            right += bool(hits) and hits[0].url == f"https://corpus.example/company-{k}"
        floor: list[float] = []
        for k in ks:
            t0 = time.perf_counter()
            corpus.search(f"{k}", args.limit)
            floor.append(time.perf_counter() - t0)
        # For information: a query whose every word is in nearly every page. Pruning keeps the
        # rarest word, which still matches them all, so SQLite scores the whole corpus.
        common: list[float] = []
        for _ in range(5):
            t0 = time.perf_counter()
            corpus.search("annual report market growth", args.limit)
            common.append(time.perf_counter() - t0)
        opens: list[float] = []
        for k in ks:
            t0 = time.perf_counter()
            corpus.open(f"https://corpus.example/company-{k}")
            opens.append(time.perf_counter() - t0)
        corpus.close()

    p50 = statistics.median(timings) * 1000
    emit(
        {
            "bench": "B7 corpus search",
            "params": {
                "docs": args.docs,
                "queries": args.queries,
                "limit": args.limit,
                "seed": args.seed,
                "storage": "jsonl file + stored index" if args.on_disk else "memory",
                "corpus_mb": round(corpus_bytes / 1e6, 1),
            },
            "generate_s": round(generate_s, 2),
            "build_s": round(build_s, 2),
            "build_docs_per_s": round(args.docs / build_s),
            "query_p50_ms": round(p50, 3),
            "query_p99_ms": round(_percentile(timings, 0.99) * 1000, 3),
            "floor_one_word_p50_ms": round(statistics.median(floor) * 1000, 3),
            "all_common_words_p50_ms": round(statistics.median(common) * 1000, 1),
            "open_p50_us": round(statistics.median(opens) * 1e6, 1),
            "top1_correct": round(right / len(ks), 4),
            "target_p50_ms": 5.0,
            "meets_target": p50 <= 5.0,
            "versions": {**versions(), "sqlite": sqlite3.sqlite_version},
        }
    )


if __name__ == "__main__":
    main()
