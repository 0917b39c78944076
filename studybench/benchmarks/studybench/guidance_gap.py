"""The Guidance Gap of StudyBench run folders: the fraction of the gap between a base model
and the base model with guidance that a method closes (the computation is
:mod:`studybench.metrics.guidance_gap`; finding reference runs in MLflow is
:mod:`studybench.tracking.guidance_gap`).

``studybench guidance gap METHOD --base BASE --guided GUIDED`` computes it from three judged
run folders of one split and saves it beside the method's run (``RUN/guidance_gap.json``);
logging that run then reports it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from studybench.benchmarks.studybench.gap_file import GAP_FILE, save_gap, saved_gap
from studybench.benchmarks.studybench.report import build_report
from studybench.errors import DataError
from studybench.judge.pipeline import load_items, manifest
from studybench.metrics.guidance_gap import GapRun, GuidanceGap, check_references, guidance_gap

__all__ = ["GAP_FILE", "gap_from_run_dirs", "is_guided", "save_gap", "saved_gap"]


def gap_from_run_dirs(method: Path, base: Path, guided: Path) -> GuidanceGap:
    """The gap of three judged run folders of one split (same k); refused
    (:class:`~studybench.metrics.guidance_gap.GapRefusedError`) unless ``base`` is the model
    without guidance and ``guided`` the same model with it, all three under one protocol
    and on the same problems."""
    check_references(gap_run("method", method), gap_run("base", base), gap_run("guided", guided))
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


def _fingerprint(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def gap_run(role: str, run_dir: Path) -> GapRun:
    """What a run folder says about itself (its ``run.json``) and the problems it asked."""
    info = manifest(run_dir)
    if not info:
        raise DataError(f"{run_dir / 'run.json'}: missing or unreadable: not a run folder")
    config = dict(info.get("config", {}))
    for per_run in ("model", "concurrency"):  # who ran it, how many requests at once
        config.pop(per_run, None)
    if isinstance(config.get("sampling"), dict):  # the seed is per request (seeds: protocol)
        config["sampling"] = {k: v for k, v in config["sampling"].items() if k != "seed"}
    asked = sorted({(i.parent, i.slot, i.question, i.answer) for i in load_items(run_dir)})
    return GapRun(
        role=role,
        where=str(run_dir),
        model=str(info.get("model", "")),
        guided=is_guided(info),
        protocol=_fingerprint(config),
        data=_fingerprint(asked),
    )


def _split_name(split: str) -> str:
    from studybench.benchmarks.studybench.splits import split_label

    return split_label(split)


def is_guided(manifest: dict[str, Any]) -> bool:
    """Whether the run folder's generations had guidance injected (its ``run.json``)."""
    return bool(manifest.get("artefacts", {}).get("guidance"))
