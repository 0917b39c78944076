"""The Guidance Gap in reports and MLflow: finding the two reference results and logging the
fraction of the gap a method closes (the computation is :mod:`studybench.metrics.guidance_gap`).

References, in order of precedence, per split:

1. ``RUN/guidance_gap.json`` beside the method's run, written by ``studybench guidance gap
   METHOD --base BASE --guided GUIDED`` from three judged run folders;
2. ``guidance.gap.base_run`` / ``guidance.gap.guided_run``: MLflow run ids;
3. the latest MLflow runs of ``guidance.gap.base_model`` (its ``studybench.model`` tag)
   without and with guidance (the ``studybench.guided`` tag every logged run now carries).

Without references nothing is logged: a gap is only reported against matching results (same
split, same k).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.errors import DataError
from studybench.metrics.guidance_gap import GuidanceGap, guidance_gap

GAP_FILE = "guidance_gap.json"
GUIDED_TAG = "studybench.guided"


def gap_from_run_dirs(method: Path, base: Path, guided: Path) -> GuidanceGap:
    """The gap of three judged run folders of one split (same k)."""
    from studybench.pipeline.report import build_report

    reports = {name: build_report(path) for name, path in
               (("method", method), ("base", base), ("guided", guided))}  # fmt: skip
    splits = {r.split for r in reports.values()}
    ks = {r.scores.k for r in reports.values()}
    if len(splits) > 1 or len(ks) > 1:
        raise DataError(
            "guidance gap needs runs of one split and one k: "
            + ", ".join(f"{n} {r.split or '?'} k={r.scores.k}" for n, r in reports.items())
        )
    means = {n: (r.scores.par_mean, r.scores.sub_mean) for n, r in reports.items()}
    return guidance_gap(
        _split_name(reports["method"].split or method.name),
        reports["method"].scores.k,
        method=means["method"],
        base=means["base"],
        guided=means["guided"],
        base_ref=str(base),
        guided_ref=str(guided),
    )


def _split_name(split: str) -> str:
    return Path(split).stem if "/" in split or split.endswith(".json") else split


def save_gap(run_dir: Path, gap: GuidanceGap) -> Path:
    from studybench.fileio import write_atomic

    path = run_dir / GAP_FILE
    write_atomic(path, gap.model_dump_json(indent=1) + "\n")
    return path


def saved_gap(run_dir: Path) -> GuidanceGap | None:
    path = run_dir / GAP_FILE
    if not path.exists():
        return None
    try:
        return GuidanceGap.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise DataError(f"{path}: not a guidance gap record: {exc}") from None


def is_guided(manifest: dict[str, Any]) -> bool:
    return bool(manifest.get("artefacts", {}).get("guidance"))


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


def _means(run: Any, split: str, k: int) -> tuple[float, float] | None:
    metrics = run.data.metrics
    par, sub = f"{split}/par_at_{k}_mean", f"{split}/sub_at_{k}_mean"
    if par in metrics and sub in metrics:
        return float(metrics[par]), float(metrics[sub])
    return None


def guidance_gap_metrics(
    client: Any,
    experiment: str,
    settings: Settings,
    results: Sequence[Any],
    manifest: dict[str, Any],
    run_id: str,
) -> tuple[dict[str, float], dict[str, str]]:
    """Metrics and tags the evaluation run gets: the gap per split where references exist,
    and ``studybench.guided`` so later evaluations can find this run as a reference."""
    tags = {GUIDED_TAG: str(is_guided(manifest)).lower()} if manifest else {}
    gs = settings.guidance.gap
    base_run = client.get_run(gs.base_run) if gs.base_run else None
    guided_run = client.get_run(gs.guided_run) if gs.guided_run else None
    if gs.base_model and (base_run is None or guided_run is None):
        base_run = base_run or _latest(client, experiment, gs.base_model, False, run_id)
        guided_run = guided_run or _latest(client, experiment, gs.base_model, True, run_id)
    metrics: dict[str, float] = {}
    for result in results:
        scores = result.report.scores
        gap = saved_gap(Path(result.run_dir))
        if gap is None and base_run is not None and guided_run is not None:
            base = _means(base_run, result.split, scores.k)
            guided = _means(guided_run, result.split, scores.k)
            if base is not None and guided is not None:
                gap = guidance_gap(
                    result.split,
                    scores.k,
                    method=(scores.par_mean, scores.sub_mean),
                    base=base,
                    guided=guided,
                    base_ref=base_run.info.run_id,
                    guided_ref=guided_run.info.run_id,
                )
        if gap is not None:
            metrics.update(gap.metrics())
            tags[f"guidance_gap.{gap.split}.refs"] = json.dumps(
                {"base": gap.base_ref, "guided": gap.guided_ref}
            )
    return metrics, tags
