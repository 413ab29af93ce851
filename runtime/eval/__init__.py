"""citeloop.runtime.eval: SQuAD 2.0 / HotpotQA and question-file evaluation through the real `Runtime`.

`datasets` reads the files, `metrics` scores runs (citation validity from each run's own
log, SQuAD's EM and F1), `report` prints and plots the figures; `evaluate` and
`run_evaluation` drive the questions. `qa` reads question files over any corpus (gold
texts or regular expressions, the four verdicts), `qa_report` gives their figures;
`evaluate_qa` and `run_qa_evaluation` drive them.
"""

from ._qa_run import evaluate_qa as evaluate_qa
from ._qa_run import run_qa_evaluation as run_qa_evaluation
from ._run import evaluate as evaluate
from ._run import run_evaluation as run_evaluation
from ._run import stderr_progress as stderr_progress
from .datasets import Dataset as Dataset
from .datasets import DatasetError as DatasetError
from .datasets import DatasetKind as DatasetKind
from .datasets import EvalItem as EvalItem
from .datasets import load_dataset as load_dataset
from .metrics import RunRecord as RunRecord
from .qa import QaItem as QaItem
from .qa import QaSet as QaSet
from .qa import load_qa as load_qa
from .qa_report import QaReport as QaReport
from .report import EvalReport as EvalReport

__all__ = (
    "Dataset",
    "DatasetError",
    "DatasetKind",
    "EvalItem",
    "EvalReport",
    "QaItem",
    "QaReport",
    "QaSet",
    "RunRecord",
    "evaluate",
    "evaluate_qa",
    "load_dataset",
    "load_qa",
    "run_evaluation",
    "run_qa_evaluation",
    "stderr_progress",
)
