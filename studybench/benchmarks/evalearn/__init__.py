"""EvaLearn (NeurIPS 2025): does the model get better along a sequence of same-type problems?

Sequences of 7 problems of one task type (summarisation, classification, extraction,
logical, mathematical and sequential reasoning) are solved in order under four paradigms
(parts): ``zero_shot``, ``few_shot``, ``demonstration`` and ``feedback``
(:mod:`.prompts`). Answers are graded 0/1 against each problem's rubric (:mod:`.judge`),
and the sequential metrics (:mod:`studybench.metrics.sequential`) say how accuracy moves
with the position in the sequence.

Modules: :mod:`.records` and :mod:`.fields` (the release format), :mod:`.release` (the
published release's invariants, imported), :mod:`.prompts`, :mod:`.runner` (sequences in
order, stored as they arrive), :mod:`.judge` (the rubric judge), :mod:`.benchmark` (the
registered class, its metrics and MLflow keys) and :mod:`.settings` (the ``evalearn:``
section of params.yaml).

This ``__init__`` is lazy (:mod:`studybench.lazy`): the settings tree imports
:mod:`.settings`, which must not run the benchmark code (it imports the settings tree).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybench.lazy import lazy_exports

__all__ = [
    "EvaLearn",
    "EvaLearnParadigm",
    "EvaLearnSettings",
    "open_judge",
    "outcomes_of",
    "sampling_of",
]

if TYPE_CHECKING:
    from studybench.benchmarks.evalearn.benchmark import (
        EvaLearn,
        open_judge,
        outcomes_of,
        sampling_of,
    )
    from studybench.benchmarks.evalearn.settings import EvaLearnParadigm, EvaLearnSettings
else:
    __getattr__, __dir__ = lazy_exports(__name__, __file__)
