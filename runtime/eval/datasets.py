"""Evaluation datasets: a SQuAD 2.0 or HotpotQA file read into questions and the pages of its corpus."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

import orjson
from citeloop.events import UsageError

__all__ = ("Dataset", "DatasetError", "DatasetKind", "EvalItem", "load_dataset")

DatasetKind = Literal["squad2", "hotpotqa"]


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
