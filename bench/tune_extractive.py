"""Fit and check ExtractivePolicy's two linear models on the shared SQuAD 2.0 sample, with a held-out split.

    python bench/tune_extractive.py [--squad FILE] [--l2 L2] [--print-weights] [--semantic]

It replays the policy's first hop offline (search the question's words, open the first
`max_opens` hits) - exactly what the policy sees on a SQuAD corpus - and computes every
sentence's signals once. The articles are split in two halves (by the parity of their
index in the file): the models are fitted on one half and the figures are reported on
the other, then the other way round, and finally on the whole sample (the weights that
ship). Figures: gold in the chosen sentence never abstaining; at the threshold that
refuses 80% of the *training* half's unanswerable questions, the held-out half's refusal
and gold rates; and the best mean of the two rates. Prints one JSON line.

`--semantic` measures what a static sentence embedding would add (issue 11, item 6): two
more signals per sentence, the cosine between the question's and the sentence's
`wordllama` embeddings (its 256-dimension `l2_supercat` model ships inside the wheel) and
that cosine's distance below the best sentence's. Both models are refitted with them and
the same held-out figures printed, so the two runs compare directly. citeloop does not
depend on wordllama; `pip install wordllama` to run this.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from citeloop.policies._extractive_score import FEATURE_NAMES, confidence_vector, score_sentences
from citeloop.policies._questions import analyze
from citeloop.runtime.eval import load_dataset
from citeloop.runtime.eval.metrics import normalize_answer
from citeloop.tools import Corpus

SQUAD = "/work/shared/data/squad2_dev/squad2_dev_shared.json"


@dataclass
class Sample:
    article: int
    answerable: bool
    vectors: np.ndarray  # sentences x features
    gold: np.ndarray  # sentence holds a gold answer


Similarity = Callable[[str, Sequence[str]], np.ndarray]


def wordllama_similarity() -> Similarity:
    """Cosine of the question and each sentence under wordllama's bundled model, loaded offline."""
    import os

    import wordllama

    # The wheel keeps its files under tokenizers/ and weights/, which is the layout the
    # loader expects of a cache folder; pointing it there keeps it from downloading.
    model = wordllama.WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True)

    def similarity(question: str, sentences: Sequence[str]) -> np.ndarray:
        q = model.embed([question], norm=True)
        e = model.embed(list(sentences), norm=True)
        return np.asarray((e @ q.T)[:, 0], dtype=float)

    return similarity


def collect(path: str, max_opens: int = 3, semantic: Similarity | None = None) -> list[Sample]:
    dataset = load_dataset("squad2", path)
    article_of = {url: url.rsplit("/", 1)[0] for url, _, _ in dataset.pages}
    articles = {a: i for i, a in enumerate(dict.fromkeys(article_of.values()))}
    page_article: dict[str, int] = {}
    corpus = Corpus.from_pages(dataset.pages, name="tune")
    # Each question's own article: the page whose paragraph it was written against.
    owner: dict[str, int] = {}
    for url, _, _ in dataset.pages:
        page_article[url] = articles[article_of[url]]
    import orjson

    raw = orjson.loads(Path(path).read_bytes())
    for number, article in enumerate(raw["data"]):
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                owner[str(qa["id"])] = number
    samples: list[Sample] = []
    try:
        for item in dataset.items:
            question = analyze(item.question)
            hits = corpus.search(question.query, 5)[:max_opens]
            pages = [page for page in (corpus.open(h.url) for h in hits) if page is not None]
            scored = score_sentences(question, pages)
            if not scored:
                continue
            golds = [normalize_answer(g) for g in item.answers if normalize_answer(g)]
            vectors = np.array([s.vector for s in scored])
            if semantic is not None:
                sim = semantic(item.question, [s.sentence.text for s in scored])
                vectors = np.concatenate([vectors, np.stack([sim, sim - sim.max()], axis=1)], axis=1)
            gold = np.array(
                [
                    item.answerable and any(g in normalize_answer(s.sentence.text) for g in golds)
                    for s in scored
                ]
            )
            samples.append(Sample(owner[item.id], item.answerable, vectors, gold))
    finally:
        corpus.close()
    return samples


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method, L2 on every weight but the bias."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -60, 60)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def stage_two(samples: Sequence[Sample], rank_w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per question: the confidence input of the chosen sentence, its label, answerability."""
    from citeloop.policies._extractive_score import Scored
    from citeloop.policies._sentences import Sentence

    rows, labels, answerable = [], [], []
    blank = Sentence(0, 0, "")
    for s in samples:
        scores = s.vectors @ rank_w
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        best = Scored(0, 0, blank, tuple(s.vectors[order[0]]), float(scores[order[0]]))
        runner = (
            Scored(0, 0, blank, tuple(s.vectors[order[1]]), float(scores[order[1]]))
            if len(order) > 1
            else None
        )
        rows.append(confidence_vector(best, runner))
        labels.append(bool(s.gold[order[0]]))
        answerable.append(s.answerable)
    return np.array(rows), np.array(labels, dtype=float), np.array(answerable)


def fit_all(samples: Sequence[Sample], l2: float) -> tuple[np.ndarray, np.ndarray]:
    pos = [s for s in samples if s.answerable]
    x = np.concatenate([s.vectors for s in pos])
    y = np.concatenate([s.gold for s in pos]).astype(float)
    rank_w = fit(x, y, l2)
    cx, cy, _ = stage_two(samples, rank_w)
    return rank_w, fit(cx, cy, l2)


def figures(
    samples: Sequence[Sample], rank_w: np.ndarray, conf_w: np.ndarray, threshold: float | None = None
) -> dict[str, float]:
    cx, cy, answerable = stage_two(samples, rank_w)
    conf = 1.0 / (1.0 + np.exp(-np.clip(cx @ conf_w, -60, 60)))
    neg, pos = conf[~answerable], conf[answerable]
    gold = cy[answerable]
    if threshold is None:
        threshold = float(np.quantile(neg, 0.80))  # refuses 80% of these unanswerables
    best = max((((neg < t).mean() + (gold * (pos >= t)).sum() / len(pos)) / 2, t) for t in np.unique(conf))
    return {
        "threshold": round(threshold, 4),
        "gold_never_abstaining": round(float(gold.mean()), 4),
        "refused_unanswerable": round(float((neg < threshold).mean()), 4),
        "gold_in_evidence": round(float((gold * (pos >= threshold)).sum() / len(pos)), 4),
        "best_mean": round(float(best[0]), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--squad", default=SQUAD)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--print-weights", action="store_true")
    parser.add_argument("--semantic", action="store_true", help="add wordllama similarity signals")
    args = parser.parse_args()
    started = time.perf_counter()
    samples = collect(args.squad, semantic=wordllama_similarity() if args.semantic else None)
    halves = [[s for s in samples if s.article % 2 == k] for k in (0, 1)]
    held_out = {}
    for k in (0, 1):
        rank_w, conf_w = fit_all(halves[k], args.l2)
        train = figures(halves[k], rank_w, conf_w)
        held_out[f"fit_{'even' if k == 0 else 'odd'}"] = {
            "train": train,
            "held_out": figures(halves[1 - k], rank_w, conf_w, train["threshold"]),
        }
    rank_w, conf_w = fit_all(samples, args.l2)
    whole = figures(samples, rank_w, conf_w)
    if args.print_weights:
        extra = ["similarity", "similarity_gap"] if args.semantic else []
        names = [*FEATURE_NAMES, *extra, "rank_score", "margin"]
        print("RANK", ", ".join(f"{w:.3f}" for w in rank_w), file=sys.stderr)
        print("CONF", ", ".join(f"{w:.3f}" for w in conf_w), file=sys.stderr)
        for name, a, b in zip(names, [*rank_w, 0, 0], conf_w, strict=False):
            print(f"  {name:22s} {a:7.3f} {b:7.3f}", file=sys.stderr)
    print(
        json.dumps(
            {
                "bench": "tune_extractive",
                "questions": len(samples),
                "l2": args.l2,
                "semantic": "wordllama l2_supercat_256" if args.semantic else None,
                "split": held_out,
                "whole": whole,
                "seconds": round(time.perf_counter() - started, 1),
                "python": platform.python_version(),
                "numpy": np.__version__,
            }
        )
    )


if __name__ == "__main__":
    main()
