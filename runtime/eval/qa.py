"""Question files over any corpus (`citeloop eval qa`): the format, the gold matching, the four verdicts.

One JSON object a line::

    {"question": "...", "answers": ["text", {"re": "regex"}, ...]}

An empty `answers` list marks a question the corpus does not answer. A plain string
matches when, case-folded and with white space collapsed, it is contained in the
answer; `{"re": PATTERN}` matches when `re.search(PATTERN, text)` finds it in the
answer with white space collapsed (case-sensitive unless the pattern says `(?i)`).
Optional fields: `id`, `split` (for example `dev` or `test`), `page` (where the answer
was verified) and `type` (the kind of question); others are kept out of the way.

A run is `correct` when it answered and its answer matches a gold answer, `wrong` when
it answered and matches none (an answer to an unanswerable question is wrong too),
`refused` when it abstained although the question is answerable, and
`unanswerable_refused` when it abstained on an unanswerable one. Whether the *evidence*
matches is reported apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson

from .datasets import DatasetError, EvalItem

__all__ = ("VERDICTS", "Gold", "QaItem", "QaSet", "Verdict", "load_qa", "verdict")

Verdict = Literal["correct", "wrong", "refused", "unanswerable_refused"]
VERDICTS: tuple[Verdict, ...] = ("correct", "wrong", "refused", "unanswerable_refused")
_SPACE = re.compile(r"\s+")


def _collapse(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class Gold:
    """One accepted answer: a text (normalized containment) or a regular expression (`re.search`)."""

    text: str
    regex: bool = False

    def matches(self, candidate: str) -> bool:
        """Whether `candidate` (an answer or an evidence) holds this gold answer."""
        collapsed = _collapse(candidate)
        if self.regex:
            return re.search(self.text, collapsed) is not None
        return _collapse(self.text).casefold() in collapsed.casefold()


@dataclass(frozen=True, slots=True)
class QaItem:
    """One question of a file, its gold answers (none: unanswerable) and its optional labels."""

    id: str
    question: str
    answers: tuple[Gold, ...]
    split: str | None = None
    page: str | None = None
    type: str | None = None

    @property
    def answerable(self) -> bool:
        return bool(self.answers)

    def matches(self, candidate: str) -> bool:
        """Whether `candidate` holds any of the gold answers."""
        return any(gold.matches(candidate) for gold in self.answers)

    def as_eval_item(self) -> EvalItem:
        """The item as the shared run loop records it (gold answers as their source text)."""
        return EvalItem(self.id, self.question, tuple(g.text for g in self.answers), self.answerable)


@dataclass(frozen=True, slots=True)
class QaSet:
    """The questions of one file (those of one split, when chosen)."""

    name: str
    items: tuple[QaItem, ...]
    split: str | None = None


def load_qa(path: str | Path, *, split: str | None = None) -> QaSet:
    """Read a question file; with `split`, keep only the lines whose `split` field equals it."""
    source = Path(path)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise DatasetError(f"cannot read {source}: {exc.strerror}") from exc
    items: list[QaItem] = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise DatasetError(f"{source}:{number}: not JSON: {exc}") from exc
        items.append(_item(record, f"{source}:{number}", str(number)))
    if not items:
        raise DatasetError(f"{source} holds no question")
    ids = [i.id for i in items]
    if len(set(ids)) != len(ids):
        raise DatasetError(f"{source}: an id is used twice")
    if split is not None:
        items = [i for i in items if i.split == split]
        if not items:
            raise DatasetError(f"{source} has no question in split {split!r}")
    return QaSet(source.name, tuple(items), split)


def verdict(item: QaItem, status: str, answer: str) -> Verdict:
    """The category of one run's outcome against its item's gold answers."""
    if status == "answered":
        return "correct" if item.answerable and item.matches(answer) else "wrong"
    return "refused" if item.answerable else "unanswerable_refused"


def _item(record: Any, where: str, default_id: str) -> QaItem:
    if not isinstance(record, dict):
        raise DatasetError(f"{where}: a line must be a JSON object")
    question, answers = record.get("question"), record.get("answers")
    if not isinstance(question, str) or not question.strip():
        raise DatasetError(f"{where}: `question` must be a non-empty string")
    if not isinstance(answers, list):
        raise DatasetError(f"{where}: `answers` must be a list (empty: unanswerable)")
    labels: dict[str, str | None] = {}
    for key in ("id", "split", "page", "type"):
        value = record.get(key)
        if value is not None and not isinstance(value, str):
            raise DatasetError(f"{where}: `{key}` must be a string")
        labels[key] = value
    return QaItem(
        id=labels["id"] or default_id,
        question=question,
        answers=tuple(_gold(answer, where) for answer in answers),
        split=labels["split"],
        page=labels["page"],
        type=labels["type"],
    )


def _gold(answer: Any, where: str) -> Gold:
    if isinstance(answer, str) and _collapse(answer):
        return Gold(answer)
    if isinstance(answer, dict) and set(answer) == {"re"} and isinstance(answer["re"], str) and answer["re"]:
        try:
            re.compile(answer["re"])
        except re.error as exc:
            raise DatasetError(f"{where}: bad regular expression {answer['re']!r}: {exc}") from exc
        return Gold(answer["re"], regex=True)
    raise DatasetError(f'{where}: an answer is a non-empty string or {{"re": "pattern"}}, got {answer!r}')
