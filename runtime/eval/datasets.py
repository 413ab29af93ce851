"""Evaluation datasets: a SQuAD 2.0 or HotpotQA file read into questions and the pages of its corpus.

HotpotQA questions are split in two halves by a fixed rule (`hotpotqa_split`): the
extractive policy's second hop was tuned on `dev` only and `held-out` is measured, not
tuned on (README, "Evaluating on HotpotQA").
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

import orjson
from citeloop.events import UsageError

__all__ = (
    "HOTPOTQA_SPLITS",
    "Dataset",
    "DatasetError",
    "DatasetKind",
    "EvalItem",
    "hotpotqa_split",
    "load_dataset",
    "select_split",
)

DatasetKind = Literal["squad2", "hotpotqa"]
HotpotSplit = Literal["dev", "held-out"]
HOTPOTQA_SPLITS: tuple[HotpotSplit, ...] = ("dev", "held-out")
# Salted: the shared sample was itself drawn by ranking sha256(question_id), so the bare
# hash's leading bits are skewed in it (203 of its 250 ids start with 0-7).
_SPLIT_SALT = b"citeloop-hotpotqa-split:"


class DatasetError(UsageError):
    """Raised when an evaluation file is missing or not in the SQuAD 2.0 / HotpotQA format."""


@dataclass(frozen=True, slots=True)
class EvalItem:
    """One question, its gold answers, and whether the dataset says it can be answered."""

    id: str
    question: str
    answers: tuple[str, ...]
    answerable: bool
    # The URLs of the paragraphs the dataset marks as supporting (HotpotQA's gold paragraphs).
    gold_urls: tuple[str, ...] = ()


def hotpotqa_split(item_id: str) -> HotpotSplit:
    """`dev` when the first byte of sha256("citeloop-hotpotqa-split:" + id) is below 128, else `held-out`.

    A rule on the id alone, so an item keeps its half whatever file or slice it is read from
    (on the shared 250-question sample: 127 dev, 123 held-out).
    """
    digest = hashlib.sha256(_SPLIT_SALT + item_id.encode("utf-8")).digest()
    return "dev" if digest[0] < 128 else "held-out"


def select_split(items: Sequence[EvalItem], split: str) -> tuple[EvalItem, ...]:
    """The items of one HotpotQA half (`dev` or `held-out`), in file order."""
    if split not in HOTPOTQA_SPLITS:
        raise DatasetError(f"unknown split {split!r}: use dev or held-out")
    return tuple(item for item in items if hotpotqa_split(item.id) == split)


@dataclass(frozen=True, slots=True)
class Dataset:
    """The questions of one file and the pages (url, title, body) their corpus is built from."""

    name: str
    pages: tuple[tuple[str, str, str], ...]
    items: tuple[EvalItem, ...]


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
            gold = [str(c["title"]) for c in record["contexts"] if c.get("is_supporting")]
            qid = str(record.get("question_id", number))
        else:  # Hugging Face layout
            question = str(record["question"])
            answers = (str(record["answer"]),)
            context = record["context"]
            paragraphs = [
                (str(t), " ".join(str(s) for s in sents))
                for t, sents in zip(context["title"], context["sentences"], strict=True)
            ]
            gold = [str(t) for t in record.get("supporting_facts", {}).get("title", [])]
            qid = str(record.get("id", record.get("_id", number)))
        for title, text in paragraphs:
            url = f"hotpotqa://{quote(title, safe='')}"
            pages.setdefault(url, (url, title, text))  # Wikipedia paragraphs recur across questions
        gold_urls = tuple(dict.fromkeys(f"hotpotqa://{quote(title, safe='')}" for title in gold))
        items.append(EvalItem(qid, question, tuple(dict.fromkeys(answers)), True, gold_urls))
    return Dataset(name, tuple(pages.values()), tuple(items))
