"""The build steps wired to the settings and their files (what the CLI and DVC call).

Layout under ``build.out_dir`` (each step owns its outputs, as DVC requires):

| step | writes |
|---|---|
| pools | ``pools/textbook.json``, ``pools/competition.json`` (validated), ``pools/summary.json`` |
| filter | ``filter/<pool>.json``: per parent, attempts and solved attempts; the model's identity |
| application | ``application.json`` (the Application Set), ``application_selection.json`` |
| transfer | ``transfer.json`` (the Transfer Set), ``admission/`` (the admission run's report) |
| training | ``training/``: ``corpus/`` (redacted, audited), the three instruction layers, reports |
| report | ``report/funnel.json``, ``report/funnel.png`` |

The generations and verdicts of the filter and admission runs live under ``paths.runs_dir``
(``build-filter/<pool>-<model hash>``, ``build-admit-<model hash>``), outside the DVC outputs, so a
killed step resumes from them and a forced rerun costs no model call.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studybench.build.admission import (
    AdmissionResult,
    admission_endpoint,
    run_transfer_admission,
)
from studybench.build.capability import FilterResult, run_filter
from studybench.build.pools import PoolKind, check_disjoint, load_pool, parent_id
from studybench.build.subsample import Selection, SubsampleRule, select_application
from studybench.build.training import TrainingReport, derive_training
from studybench.config import GuidanceAdmitSettings, Settings
from studybench.data.loaders import load_parents
from studybench.data.records import ParentProblem
from studybench.errors import DataError
from studybench.fileio import write_atomic

POOLS: tuple[PoolKind, ...] = ("textbook", "competition")


def _write_json(path: Path, payload: Any) -> Path:
    write_atomic(path, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
    return path


def _write_split(path: Path, parents: list[ParentProblem]) -> Path:
    return _write_json(path, {"data": [p.model_dump(mode="json", by_alias=True) for p in parents]})


def _endpoint_hash(endpoint: GuidanceAdmitSettings) -> str:
    """Run folders per model: another filter model never shares one."""
    text = f"{endpoint.engine}|{endpoint.base_url}|{endpoint.model}"
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def out(settings: Settings, *parts: str) -> Path:
    return settings.build.out_dir.joinpath(*parts)


def pool_path(settings: Settings, kind: PoolKind) -> Path:
    return out(settings, "pools", f"{kind}.json")


def step_pools(settings: Settings) -> dict[str, Any]:
    """Validate both pools (every error names file, record, field) and write clean copies."""
    build = settings.build
    textbook = load_pool(build.textbook_pool, "textbook")
    competition = load_pool(build.competition_pool, "competition")
    check_disjoint(textbook, competition, [build.textbook_pool, build.competition_pool])
    _write_split(pool_path(settings, "textbook"), list(textbook))
    _write_split(pool_path(settings, "competition"), list(competition))
    summary = {
        kind: {"parents": len(parents), "slots": sum(len(p.slots()) for p in parents)}
        for kind, parents in (("textbook", textbook), ("competition", competition))
    }
    _write_json(out(settings, "pools", "summary.json"), summary)
    return summary


def step_filter(
    settings: Settings, kind: PoolKind, on_progress: Callable[[str, Any], None] | None = None
) -> FilterResult:
    run_dir = (
        settings.paths.runs_dir / "build-filter" / f"{kind}-{_endpoint_hash(settings.build.filter)}"
    )
    result = run_filter(settings, pool_path(settings, kind), kind, run_dir, on_progress=on_progress)
    _write_json(out(settings, "filter", f"{kind}.json"), result.model_dump(mode="json"))
    return result


def read_filter(settings: Settings, kind: PoolKind) -> FilterResult:
    path = out(settings, "filter", f"{kind}.json")
    try:
        return FilterResult.model_validate_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"{path}: cannot read the filter result ({exc.strerror}): run "
                        f"`studybench build filter --pool {kind}` first") from None  # fmt: skip
    except ValueError as exc:
        raise DataError(f"{path}: not a filter result: {exc}") from None


def _check_same_pool(result: FilterResult, parents: tuple[ParentProblem, ...], kind: str) -> None:
    missing = {parent_id(p) for p in parents} - set(result.by_id())
    if missing:
        raise DataError(
            f"filter/{kind}.json lacks {len(missing)} pool parent(s) (e.g. {sorted(missing)[0]}): "
            "the pool changed since the filter ran; run the filter step again"
        )


def subsample_rule(settings: Settings) -> SubsampleRule:
    build = settings.build
    return SubsampleRule(
        per_type_cap=build.per_type_cap,
        target_mix=build.target_mix,
        target_size=build.target_size,
        seed=build.seed,
        min_per_type=build.min_per_type,
    )


def step_application(settings: Settings) -> Selection:
    parents = load_parents(pool_path(settings, "textbook"))
    result = read_filter(settings, "textbook")
    _check_same_pool(result, parents, "textbook")
    by_id = result.by_id()
    selection = select_application([by_id[parent_id(p)] for p in parents], subsample_rule(settings))
    chosen = set(selection.selected)
    _write_split(out(settings, "application.json"), [p for p in parents if parent_id(p) in chosen])
    _write_json(out(settings, "application_selection.json"), selection.model_dump(mode="json"))
    return selection


def step_transfer(
    settings: Settings, on_progress: Callable[[Any], None] | None = None
) -> AdmissionResult:
    parents = load_parents(pool_path(settings, "competition"))
    result = read_filter(settings, "competition")
    _check_same_pool(result, parents, "competition")
    by_id = result.by_id()
    failed = [p for p in parents if by_id[parent_id(p)].failed]
    work = out(settings, "admission")
    work.mkdir(parents=True, exist_ok=True)
    admission = run_transfer_admission(
        settings,
        failed,
        settings.build.guidance,
        work,
        settings.paths.runs_dir / f"build-admit-{_endpoint_hash(admission_endpoint(settings))}",
        on_progress=on_progress,
    )
    admitted = set(admission.admitted)
    _write_split(out(settings, "transfer.json"), [p for p in parents if parent_id(p) in admitted])
    _write_json(work / "result.json", admission.model_dump(mode="json"))
    return admission


def step_training(settings: Settings) -> TrainingReport:
    parents = load_parents(pool_path(settings, "textbook"))
    application = load_parents(out(settings, "application.json"))
    chosen = {parent_id(p) for p in application}
    training = [p for p in parents if parent_id(p) not in chosen]
    folder = out(settings, "training")
    report = derive_training(settings, application, training, folder)
    _write_json(folder / "training_report.json", report.model_dump(mode="json"))
    return report
