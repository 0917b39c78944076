"""StudyBench's judged split folders as one :class:`BenchmarkResult`: the metric keys
(``<split>/par_at_<k>_mean`` ..., ``judge/*``, ``generation/*``, the Guidance Gap), the
per-seed values, the per-item table, the protocol as run params and tags, the artefacts.

Metric keys are the ones the platform always logged, so learning curves and the compare view
line up with runs logged before StudyBench became a registered benchmark."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.benchmarks.studybench.artefacts import problem_table, write_split_artefacts
from studybench.benchmarks.studybench.guidance_gap import is_guided
from studybench.benchmarks.studybench.items import Judged, item_rows, join
from studybench.benchmarks.studybench.report import Report, build_report
from studybench.judge.pipeline import manifest
from studybench.judge.prompt import JUDGE_VERSION
from studybench.metrics.passk import headline
from studybench.rollout.store import GenerationStore
from studybench.tracking.guidance_gap import GUIDED_TAG
from studybench.tracking.records import BenchmarkResult, GapInput, SeedValues

NAME = "studybench"


class SplitResult(BaseModel):
    """One judged split folder, read once."""

    run_dir: str
    split: str
    report: Report
    error_turns: int
    tokens_per_s: float
    generations: list[dict[str, Any]]


def _label(split: str, run_dir: Path) -> str:
    from studybench.benchmarks.studybench.splits import split_label

    return split_label(split or run_dir.name)


def read_split(run_dir: Path) -> tuple[SplitResult, list[Judged]]:
    """The report, the generation statistics and the items × verdicts join of a folder."""
    joined = join(run_dir)
    report = build_report(run_dir, joined)
    store = GenerationStore(run_dir / "generations.sqlite")
    try:
        records = list(store.records())
    finally:
        store.close()
    latest: dict[Any, Any] = {}
    for record in records:
        latest[(record.key, record.seed, record.attempt, record.turn)] = record
    errors = sum(1 for r in latest.values() if r.status == "error")
    tokens = sum(r.completion_tokens for r in records)
    span = (max(r.created for r in records) - min(r.created for r in records)) if records else 0
    result = SplitResult(
        run_dir=str(run_dir),
        split=_label(report.split, run_dir),
        report=report,
        error_turns=errors,
        tokens_per_s=tokens / span if span > 0 else 0.0,
        generations=[r.model_dump(mode="json") for r in records],
    )
    return result, joined


def _run_params(info: dict[str, Any], settings: Any) -> dict[str, str]:
    config = info.get("config", {})
    sampling = config.get("sampling", {})
    params = {
        "k": config.get("k"),
        "seeds": ",".join(map(str, config.get("seeds", []))),
        "temperature": sampling.get("temperature"),
        "top_p": sampling.get("top_p"),
        "top_k": sampling.get("top_k"),
        "max_tokens": sampling.get("max_tokens"),
        "thinking": sampling.get("thinking"),
        "engine.kind": info.get("engine"),
        "engine.tensor_parallel_size": settings.engine.tensor_parallel_size,
        "engine.data_parallel_size": settings.engine.data_parallel_size,
        "judge.model": settings.judge.model,
        "judge.enabled": settings.judge.llm_enabled,
        "method.artefact": info.get("artefacts", {}).get("kind", "default"),
    }
    return {k: str(v) for k, v in params.items() if v is not None}


def studybench_result(
    run_dirs: Sequence[Path],
    settings: Any,
    out_dir: Path,
    *,
    notes: dict[str, str] | None = None,
) -> BenchmarkResult:
    """The result of StudyBench's judged split folders; artefact files go into ``out_dir``
    (one sub-folder per split); ``notes`` (artefact files, guidance coverage) become run
    params."""
    if not run_dirs:
        raise ValueError("studybench_result needs at least one judged split folder")
    info = manifest(Path(run_dirs[0]))
    metrics: dict[str, float] = {}
    keys: list[str] = []
    per_seed: list[SeedValues] = []
    rows = []
    tables: dict[str, dict[str, list[object]]] = {}
    gaps: list[GapInput] = []
    tags = {
        "protocol_hash": str(info.get("protocol_hash", "")),
        "judge_version": JUDGE_VERSION,
        "studybench.model": str(info.get("model", "")),
        GUIDED_TAG: str(is_guided(info)).lower(),
    }
    splits = []
    for run_dir in run_dirs:
        split, joined = read_split(Path(run_dir))
        splits.append(split)
        scores = split.report.scores
        values = headline(split.split, scores)
        metrics.update(values)
        keys.extend(values)
        for seed in scores.per_seed:
            per_seed.append(
                SeedValues(
                    part=split.split,
                    seed=seed.seed,
                    metrics={
                        f"{split.split}/par_at_{scores.k}": seed.par,
                        f"{split.split}/sub_at_{scores.k}": seed.sub,
                    },
                )
            )
        rows.extend(item_rows(joined, split.split))
        tables[f"tables/{split.split}_problems.json"] = problem_table(joined, scores.seeds)
        write_split_artefacts(
            out_dir / split.split, split.report, joined, split.generations, split.split
        )
        gap = split.report.guidance_gap
        if gap is not None:  # saved beside the run: it wins over references in MLflow
            metrics.update(gap.metrics())
            tags[f"guidance_gap.{gap.split}.refs"] = json.dumps(
                {"base": gap.base_ref, "guided": gap.guided_ref}
            )
        else:
            gaps.append(
                GapInput(
                    split=split.split,
                    k=scores.k,
                    par_mean=scores.par_mean,
                    sub_mean=scores.sub_mean,
                )
            )
    correct = sum(s.report.rule_correct + s.report.judge_rescued for s in splits)
    rescued = sum(s.report.judge_rescued for s in splits)
    metrics["judge/llm_share"] = rescued / correct if correct else 0.0
    metrics["judge/disagreements"] = float(rescued)
    metrics["judge/flagged"] = float(sum(s.report.flagged for s in splits))
    metrics["generation/error_turns"] = float(sum(s.error_turns for s in splits))
    metrics["generation/tokens_per_s"] = statistics.fmean(s.tokens_per_s for s in splits)
    return BenchmarkResult(
        name=NAME,
        metrics=metrics,
        headline=keys,
        artefact_dir=str(out_dir),
        artefact_path="",
        run_params={**_run_params(info, settings), **(notes or {})},
        run_tags=tags,
        model=str(info.get("model", "")),
        per_seed=per_seed,
        items=rows,
        tables=tables,
        gap_inputs=gaps,
    )
