"""The Transfer Set: failed competition parents, admitted when reachable with guidance.

Every competition parent the filter model failed goes through the guidance pipeline's own
admission step (:func:`studybench.guidance.admit.run_admit`): the admission model answers it
``k`` times with its textbook-grounded guidance injected as at evaluation time, through the
same runner and two-stage judge, and the parent is admitted when some attempt solves every
sub-problem (solved at least once in k). A failed parent without guidance cannot be
certified reachable and is dropped with that reason; so is one that no guided attempt solves.
Solved competition parents were discarded by the filter already.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.build.pools import parent_id
from studybench.config import GuidanceAdmitSettings, Settings
from studybench.data.loaders import load_parents
from studybench.data.records import ParentProblem
from studybench.fileio import write_atomic


class AdmissionResult(BaseModel):
    model: str
    engine: str
    k: int
    seeds: list[int]
    admitted: list[str]
    dropped_no_guidance: list[str]
    dropped_unsolved: list[str]
    report: dict[str, Any]


def admission_endpoint(settings: Settings) -> GuidanceAdmitSettings:
    """``build.admit``, or the filter model when it names no model."""
    admit = settings.build.admit
    return admit if admit.model else settings.build.filter


def run_transfer_admission(
    settings: Settings,
    failed: Sequence[ParentProblem],
    guidance_path: Path,
    work_dir: Path,
    run_dir: Path,
    *,
    on_progress: Callable[[Any], None] | None = None,
) -> AdmissionResult:
    """Admit or drop each failed competition parent; ``work_dir`` gets the guidance subset
    and the admission report."""
    from studybench.guidance.admit import run_admit

    endpoint = admission_endpoint(settings)
    wanted = {parent_id(p) for p in failed}
    guided = [
        p
        for p in load_parents(guidance_path)
        if parent_id(p) in wanted and any(s.guidance.strip() for s in p.sub_problems)
    ]
    with_guidance = {parent_id(p) for p in guided}
    no_guidance = [parent_id(p) for p in failed if parent_id(p) not in with_guidance]
    report: dict[str, Any] = {"parents_with_guidance": 0, "admitted_parents": []}
    if guided:
        subset = work_dir / "admission_guidance.json"
        payload = {"data": [p.model_dump(mode="json", by_alias=True) for p in guided]}
        write_atomic(subset, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
        admit_settings = settings.model_copy(
            update={"guidance": settings.guidance.model_copy(update={"admit": endpoint})}
        )
        report = run_admit(
            admit_settings,
            subset,
            work_dir / "admission.json",
            run_dir=run_dir,
            on_progress=on_progress,
        )
    admitted = set(report.get("admitted_parents", []))
    order = [parent_id(p) for p in failed]
    return AdmissionResult(
        model=str(report.get("model", endpoint.model)),
        engine=endpoint.engine,
        k=endpoint.k,
        seeds=list(endpoint.seeds),
        admitted=[p for p in order if p in admitted],
        dropped_no_guidance=no_guidance,
        dropped_unsolved=[p for p in order if p in with_guidance and p not in admitted],
        report=report,
    )
