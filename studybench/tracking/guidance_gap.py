"""The Guidance Gap against reference runs in MLflow (the computation is
:mod:`studybench.metrics.guidance_gap`; a gap saved beside a run folder is reported by the
benchmark itself, :mod:`studybench.benchmarks.studybench.guidance_gap`).

References, in order of precedence, per split: ``guidance.gap.base_run`` /
``guidance.gap.guided_run`` (MLflow run ids), then the latest MLflow runs of
``guidance.gap.base_model`` (its ``studybench.model`` tag) without and with guidance (the
``studybench.guided`` tag every logged StudyBench run carries). Without references nothing is
logged: a gap is only reported against matching results (same split, same k). References that
are not (the unguided base, the same model guided) give no gap, and the run says why in its
``guidance_gap.refused`` tag.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from studybench.config import Settings
from studybench.metrics.guidance_gap import (
    GapRefusedError,
    GapRun,
    check_references,
    guidance_gap,
)
from studybench.tracking.records import GapInput

GUIDED_TAG = "studybench.guided"
log = logging.getLogger(__name__)


def _latest(client: Any, experiment: str, model: str, guided: bool, exclude: str) -> Any:
    runs = client.search_runs(
        [experiment],
        filter_string=(
            f"tags.`studybench.model` = '{model}' and tags.`{GUIDED_TAG}` = '{str(guided).lower()}'"
        ),
        order_by=["attributes.start_time DESC"],
        max_results=5,
    )
    return next((run for run in runs if run.info.run_id != exclude), None)


def _gap_run(role: str, run: Any) -> GapRun:
    """What a logged run's tags say (protocol and problems are checked on run folders: the
    protocol hash of a logged run includes its guidance, so it differs by design)."""
    tags = run.data.tags
    return GapRun(
        role=role,
        where=f"run {run.info.run_id}",
        model=tags.get("studybench.model", ""),
        guided=tags.get(GUIDED_TAG) == "true",
        protocol="",
        data="",
    )


def _means(run: Any, split: str, k: int) -> tuple[float, float] | None:
    metrics = run.data.metrics
    par, sub = f"{split}/par_at_{k}_mean", f"{split}/sub_at_{k}_mean"
    if par in metrics and sub in metrics:
        return float(metrics[par]), float(metrics[sub])
    return None


def guidance_gap_metrics(
    client: Any, experiment: str, settings: Settings, inputs: Sequence[GapInput], run_id: str
) -> tuple[dict[str, float], dict[str, str]]:
    """Gap metrics and reference tags for the splits of ``inputs`` whose references exist."""
    if not inputs:
        return {}, {}
    gs = settings.guidance.gap
    base_run = client.get_run(gs.base_run) if gs.base_run else None
    guided_run = client.get_run(gs.guided_run) if gs.guided_run else None
    if gs.base_model and (base_run is None or guided_run is None):
        base_run = base_run or _latest(client, experiment, gs.base_model, False, run_id)
        guided_run = guided_run or _latest(client, experiment, gs.base_model, True, run_id)
    metrics: dict[str, float] = {}
    tags: dict[str, str] = {}
    if base_run is None or guided_run is None:
        return metrics, tags
    method = GapRun(role="method", where=f"run {run_id}", model="", guided=False,
                    protocol="", data="")  # fmt: skip
    try:
        check_references(method, _gap_run("base", base_run), _gap_run("guided", guided_run))
    except GapRefusedError as exc:  # no number rather than a wrong one; the evaluation stays
        log.warning("%s", exc)
        return metrics, {"guidance_gap.refused": str(exc)[:500]}
    for entry in inputs:
        base = _means(base_run, entry.split, entry.k)
        guided = _means(guided_run, entry.split, entry.k)
        if base is None or guided is None:
            continue
        gap = guidance_gap(
            entry.split,
            entry.k,
            method=(entry.par_mean, entry.sub_mean),
            base=base,
            guided=guided,
            base_ref=base_run.info.run_id,
            guided_ref=guided_run.info.run_id,
        )
        metrics.update(gap.metrics())
        tags[f"guidance_gap.{gap.split}.refs"] = json.dumps(
            {"base": gap.base_ref, "guided": gap.guided_ref}
        )
    return metrics, tags
