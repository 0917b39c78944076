"""The Guidance Gap of StudyBench run folders: the fraction of the gap between a base model
and the base model with guidance that a method closes (the computation is
:mod:`studybench.metrics.guidance_gap`; finding reference runs in MLflow is
:mod:`studybench.tracking.guidance_gap`).

``studybench guidance gap METHOD --base BASE --guided GUIDED`` computes it from three judged
run folders of one split and saves it beside the method's run (``RUN/guidance_gap.json``);
logging that run then reports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studybench.benchmarks.studybench.gap_file import GAP_FILE, save_gap, saved_gap
from studybench.benchmarks.studybench.report import build_report
from studybench.errors import DataError
from studybench.metrics.guidance_gap import GuidanceGap, guidance_gap

__all__ = ["GAP_FILE", "gap_from_run_dirs", "is_guided", "save_gap", "saved_gap"]


def gap_from_run_dirs(method: Path, base: Path, guided: Path) -> GuidanceGap:
    """The gap of three judged run folders of one split (same k)."""
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
    from studybench.benchmarks.studybench.splits import split_label

    return split_label(split)


def is_guided(manifest: dict[str, Any]) -> bool:
    """Whether the run folder's generations had guidance injected (its ``run.json``)."""
    return bool(manifest.get("artefacts", {}).get("guidance"))
