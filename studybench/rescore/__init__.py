"""Re-scoring stored generations when the verifier or the judge changes, with no inference.

:mod:`.select` finds the evaluations whose verdicts another instrument made and batches
them; :mod:`.rebuild` turns a run's stored generation records and its gold into a folder
the judge reads; :mod:`.core` judges it again and logs the new version of the results;
:mod:`.flips` reports what the new instrument decides differently. ``studybench rescore``
and the ``studybench_rescore`` DAG both call :func:`rescore_batch`.
"""

from __future__ import annotations

from studybench.rescore.batch import BatchOutcome, rescore_batch
from studybench.rescore.core import RescoreOutcome, installed, rescore_run
from studybench.rescore.flips import FlipReport
from studybench.rescore.rebuild import RescoreRefusedError
from studybench.rescore.select import Batch, Selection, plan_batches

__all__ = [
    "Batch",
    "BatchOutcome",
    "FlipReport",
    "RescoreOutcome",
    "RescoreRefusedError",
    "Selection",
    "installed",
    "plan_batches",
    "rescore_batch",
    "rescore_run",
]
