"""`citeloop eval qa`: question files over any corpus, judged through the real runtime.

A scripted policy decides each outcome, and the gold answers in the question file decide
what that outcome is worth, so every verdict is exercised and its count is known exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citeloop.events import UsageError
from citeloop.policies import ExtractivePolicy, ScriptedAnswer, ScriptedPolicy
from citeloop.runtime.eval import DatasetError, QaItem, evaluate_qa, load_qa, run_qa_evaluation
from citeloop.runtime.eval.qa import Gold, verdict
from citeloop.tools import Corpus

PAGES = {
    "zephyr.txt": (
        "The Zephyr reaches 120 km/h on a flat road.\nThe Zephyr weighs 80 kg without its battery.\n"
    ),
    "history.txt": "The Zephyr was built in 1999 by a small workshop.\n",
    "boats.txt": "The Mistral is a sailing boat with two masts.\n",
}

# What the policy says (the answer, and the sentence of a page it cites).
SCRIPT = {
    "How fast is the Zephyr?": ScriptedAnswer("120 km/h", "The Zephyr reaches 120 km/h on a flat road."),
    "How much does the Zephyr weigh?": ScriptedAnswer(
        "80 kg", "The Zephyr weighs 80 kg without its battery."
    ),
    "When was the Zephyr built?": ScriptedAnswer("1999", "The Zephyr was built in 1999 by a small workshop."),
    # "two" passes the support check (a count the quote gives for masts); "a sailing boat"
    # would be refused there (number-unit: no number), never reaching the file's gold.
    "How many masts has the Mistral?": ScriptedAnswer("two", "The Mistral is a sailing boat with two masts."),
}

# What the file says is right; the expected verdict of each run follows from both.
QUESTIONS = [
    # answered, matches the regex -> correct
    ({"question": "How fast is the Zephyr?", "answers": [{"re": r"\b120 ?km/h"}]}, "correct"),
    # answered, the file's gold is another weight -> wrong
    ({"question": "How much does the Zephyr weigh?", "answers": ["95 kg"]}, "wrong"),
    # answered, the answer misses the gold but the evidence holds it -> still wrong
    ({"question": "How many masts has the Mistral?", "answers": ["two masts"]}, "wrong"),
    # no script: the policy abstains although the file has an answer -> refused
    ({"question": "Who designed the Zephyr?", "answers": ["Ada Ortiz"]}, "refused"),
    # no script, nothing to find -> unanswerable_refused
    ({"question": "What colour is the Zephyr?", "answers": []}, "unanswerable_refused"),
    # answered an unanswerable question -> wrong
    ({"question": "When was the Zephyr built?", "answers": []}, "wrong"),
]


def write_corpus(folder: Path) -> Path:
    folder.mkdir()
    for name, body in PAGES.items():
        (folder / name).write_text(body, encoding="utf-8")
    return folder


def write_questions(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _private_index_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.anyio
async def test_each_verdict_is_counted_exactly(tmp_path: Path) -> None:
    corpus_dir = write_corpus(tmp_path / "corpus")
    questions = load_qa(write_questions(tmp_path / "qa.jsonl", [q for q, _ in QUESTIONS]))
    corpus = Corpus.from_path(corpus_dir)
    try:
        report = await evaluate_qa(questions, corpus, policy=ScriptedPolicy(SCRIPT))
    finally:
        corpus.close()
    data = report.to_json()
    assert [run["verdict"] for run in data["runs"]] == [expected for _, expected in QUESTIONS]
    assert data["counts"] == {"correct": 1, "wrong": 3, "refused": 1, "unanswerable_refused": 1}
    assert report.counts() == data["counts"]
    assert data["rates"] == {
        "correct": 0.1667,
        "wrong": 0.5,
        "refused": 0.1667,
        "unanswerable_refused": 0.1667,
    }
    assert data["answerable"]["count"] == 4 and data["unanswerable"]["count"] == 2
    assert data["answerable"]["correct_rate"] == 0.25
    assert data["answerable"]["wrong_rate"] == 0.5  # the unanswerable one answered is not in it
    assert data["unanswerable"] == {"count": 2, "refused_rate": 0.5, "answered": 1}
    # evidence is judged apart: the masts sentence holds "two masts", the km/h one "120 km/h"
    assert data["answerable"]["evidence_holds_answer"] == 0.5
    assert [run["evidence_holds_answer"] for run in data["runs"]] == [True, False, True, False, False, False]
    assert data["citation_validity"] == 1.0
    assert data["answered_rate"] == pytest.approx(4 / 6, abs=1e-4)
    table = report.table()
    assert "wrong" in table and "unanswerable_refused" in table and "citation validity      1.000" in table


def test_the_sync_entry_point_with_a_split_and_a_limit(tmp_path: Path) -> None:
    corpus_dir = write_corpus(tmp_path / "corpus")
    lines = [{**q, "split": "dev" if n % 2 == 0 else "test"} for n, (q, _) in enumerate(QUESTIONS)]
    path = write_questions(tmp_path / "qa.jsonl", lines)
    report = run_qa_evaluation(path, corpus_dir, split="dev", policy=ScriptedPolicy(SCRIPT), limit=2)
    data = report.to_json()
    assert data["split"] == "dev" and data["questions"] == 2
    # dev holds questions 0, 2, 4: the first two are correct, then wrong (the masts)
    assert data["counts"] == {"correct": 1, "wrong": 1, "refused": 0, "unanswerable_refused": 0}


@pytest.mark.anyio
async def test_sweep_counts_add_up_at_every_threshold(tmp_path: Path) -> None:
    corpus_dir = write_corpus(tmp_path / "corpus")
    questions = load_qa(write_questions(tmp_path / "qa.jsonl", [q for q, _ in QUESTIONS]))
    corpus = Corpus.from_path(corpus_dir)
    try:
        with pytest.raises(UsageError, match="--sweep"):
            await evaluate_qa(questions, corpus, policy=ScriptedPolicy(SCRIPT), sweep=True)
        report = await evaluate_qa(questions, corpus, sweep=True, thresholds=(0.0, 0.5, 0.99))
        plain = await evaluate_qa(questions, corpus, policy=ExtractivePolicy())
    finally:
        corpus.close()
    answered = [p["answered_rate"] for p in report.sweep]
    assert answered == sorted(answered, reverse=True)
    for point in report.sweep:
        total = point["correct"] + point["wrong"] + point["refused"] + point["unanswerable_refused"]
        assert total == len(QUESTIONS)
    assert report.counts() == plain.counts()  # the figures at the policy's own threshold


def test_gold_matching() -> None:
    text = Gold("Default  VALUE is 9")
    assert text.matches("the default value\nis 9.")
    assert not text.matches("the default value is")
    number = Gold(r"\b8080\b", regex=True)
    assert number.matches("port 8080 by default") and not number.matches("port 18080")
    assert Gold(r"level 9 is", regex=True).matches("level 9\n   is the slowest")
    assert not Gold("Level", regex=True).matches("level")  # a regex is case-sensitive as written
    assert Gold("(?i)level", regex=True).matches("LEVEL")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"question": "q"}', "answers"),
        ('{"question": "", "answers": []}', "question"),
        ('{"question": "q", "answers": "x"}', "answers"),
        ('{"question": "q", "answers": [""]}', "non-empty"),
        ('{"question": "q", "answers": [{"re": "("}]}', "regular expression"),
        ('{"question": "q", "answers": [{"regex": "x"}]}', "re"),
        ('{"question": "q", "answers": [], "split": 1}', "split"),
        ("[1]", "object"),
        ("{", "not JSON"),
    ],
)
def test_bad_lines_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "qa.jsonl"
    path.write_text('{"question": "fine", "answers": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=message) as caught:
        load_qa(path)
    assert "qa.jsonl:2" in str(caught.value)


def test_file_level_mistakes(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="cannot read"):
        load_qa(tmp_path / "missing.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="no question"):
        load_qa(empty)
    twice = write_questions(
        tmp_path / "twice.jsonl",
        [{"id": "a", "question": "x", "answers": []}, {"id": "a", "question": "y", "answers": []}],
    )
    with pytest.raises(DatasetError, match="twice"):
        load_qa(twice)
    with pytest.raises(DatasetError, match="split 'dev'"):
        load_qa(write_questions(tmp_path / "nosplit.jsonl", [{"question": "x", "answers": []}]), split="dev")


def test_verdict_table() -> None:
    answerable = load_item(["42"])
    unanswerable = load_item([])
    assert verdict(answerable, "answered", "it is 42") == "correct"
    assert verdict(answerable, "answered", "it is 41") == "wrong"
    assert verdict(answerable, "abstained", "cannot: 42") == "refused"  # a refusal is never correct
    assert verdict(unanswerable, "abstained", "cannot: no") == "unanswerable_refused"
    assert verdict(unanswerable, "answered", "42") == "wrong"


def load_item(answers: list[str]) -> QaItem:
    return QaItem("1", "q", tuple(Gold(a) for a in answers))
