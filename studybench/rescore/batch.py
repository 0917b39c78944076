"""One batch of re-scores (a lineage, or one run), run by the CLI and by each mapped task of
the ``studybench_rescore`` DAG: every run in order; a run that cannot be re-scored (its
data version changed, its generations were never stored) is reported and the others go on,
any other error stops the batch (the DAG retries it, and finished runs are no-ops then)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from studybench.config import Settings
from studybench.rescore.core import Progress, RescoreOutcome, rescore_run
from studybench.rescore.rebuild import RescoreRefusedError


class BatchOutcome(BaseModel):
    label: str
    outcomes: list[RescoreOutcome] = Field(default_factory=list)
    refused: dict[str, str] = Field(default_factory=dict)  # run id -> why not

    def summary(self) -> dict[str, Any]:
        """A small JSON summary (a DAG task's XCom)."""
        return {
            "label": self.label,
            "rescored": {o.original: o.run_id for o in self.outcomes if o.status == "rescored"},
            "current": {o.original: o.run_id for o in self.outcomes if o.status == "current"},
            "refused": dict(self.refused),
            "flips": sum(o.flips.flips for o in self.outcomes),
            "llm_calls": sum(o.llm_calls for o in self.outcomes),
        }


def rescore_batch(
    settings: Settings,
    label: str,
    run_ids: Sequence[str],
    *,
    verifier: Any = None,
    on_run: Callable[[str], None] | None = None,
    on_progress: Progress | None = None,
    on_done: Callable[[RescoreOutcome], None] | None = None,
) -> BatchOutcome:
    out = BatchOutcome(label=label)
    for run_id in run_ids:
        if on_run is not None:
            on_run(run_id)
        try:
            outcome = rescore_run(settings, run_id, verifier=verifier, on_progress=on_progress)
        except RescoreRefusedError as exc:
            out.refused[run_id] = str(exc)
            continue
        out.outcomes.append(outcome)
        if on_done is not None:
            on_done(outcome)
    return out
