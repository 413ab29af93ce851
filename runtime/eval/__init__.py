"""citeloop.runtime.eval: SQuAD 2.0 / HotpotQA evaluation through the real `Runtime`.

`datasets` reads the files, `metrics` scores runs (citation validity from each run's own
log, SQuAD's EM and F1), `report` prints and plots the figures; `evaluate` and
`run_evaluation` drive the questions.
"""

from ._run import evaluate as evaluate
from ._run import run_evaluation as run_evaluation
from ._run import stderr_progress as stderr_progress
from .datasets import Dataset as Dataset
from .datasets import DatasetError as DatasetError
from .datasets import DatasetKind as DatasetKind
from .datasets import EvalItem as EvalItem
from .datasets import load_dataset as load_dataset
from .metrics import RunRecord as RunRecord
from .report import EvalReport as EvalReport

__all__ = (
    "Dataset",
    "DatasetError",
    "DatasetKind",
    "EvalItem",
    "EvalReport",
    "RunRecord",
    "evaluate",
    "load_dataset",
    "run_evaluation",
    "stderr_progress",
)
