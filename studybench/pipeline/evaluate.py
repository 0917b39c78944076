"""One evaluation of one model, in steps that Airflow tasks and CLI commands both run.

``plan`` → ``generate`` (the engine starts once and serves every split and seed) →
``judge`` per (split, seed) → ``log`` to MLflow → ``check`` against the previous evaluation
and the baseline. Each step reads and writes the target's run folder
(``<runs_dir>/<name>-<key>/``: ``target.json``, one folder per split, ``result.json``), so
every step is idempotent and a retried or re-run step resumes from what is stored.

A target holds every benchmark of ``benchmarks.run`` (:mod:`studybench.benchmarks`):
StudyBench's splits as the run folder's split folders (the layout the platform always had),
each other benchmark in a folder of its own name. One engine serves all of them, judging
units are (benchmark, part, seed), and all their metrics go to one MLflow run.

The evaluation key is fixed when planning: checkpoint identity (or model name), protocol
hash, data versions, splits and, for scheduled re-evaluations, a run tag such as the night's
date. The same key means the same MLflow run and the same run folder; a key already logged
with every metric is skipped.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.registry import get_benchmark

# StudyBench's own pieces live with the benchmark; these names stay importable from here.
from studybench.benchmarks.studybench import (
    NAMED_SPLITS,
    rollout_config,
    split_file,
    split_label,
)
from studybench.benchmarks.studybench import default_artefacts as _default_artefacts
from studybench.checkpoints.inspect import CheckpointInfo, _fs, inspect_checkpoint
from studybench.config import NightlyModel, Settings
from studybench.errors import ConfigError, DataError, StudyBenchError
from studybench.fileio import write_atomic
from studybench.processes import recorded_process_state, stop_group
from studybench.tracking.mlflow_log import Checkpoint

log = logging.getLogger(__name__)

EngineKind = Literal["vllm", "openai", "hf"]
TARGET_FILE = "target.json"
ENGINE_FILE = "engine.json"
RESULT_FILE = "result.json"
GENERATED_FILE = "generated.json"
JUDGED_DIR = "judged"
CHECK_FILE = "check.json"
STUDYBENCH = "studybench"
__all__ = ["NAMED_SPLITS", "rollout_config", "split_file", "split_label"]


class CheckpointMeta(Checkpoint):
    """What tracking records about the evaluated weights, plus their content identity."""

    identity: str | None = None


class Target(BaseModel):
    """One model to evaluate under one protocol (``target.json``): StudyBench on some splits
    (the fields ``splits`` … ``protocol_hash``, as before the registry) and any other
    registered benchmarks (``plans``), all served by one engine."""

    name: str
    model: str
    engine: EngineKind
    base_url: str = ""
    api_key_env: str = ""
    checkpoint: CheckpointMeta = Field(default_factory=CheckpointMeta)
    splits: tuple[str, ...]
    split_files: dict[str, str]
    k: int
    seeds: tuple[int, ...]
    protocol_hash: str
    eval_key: str
    run_tag: str = ""
    run_root: str
    skip_reason: str = ""
    benchmarks: tuple[str, ...] = (STUDYBENCH,)
    plans: dict[str, BenchmarkPlan] = Field(
        default_factory=dict, description="the benchmarks other than StudyBench, by name"
    )

    def run_dir(self, split: str) -> Path:
        return Path(self.run_root) / split

    def studybench_plan(self) -> BenchmarkPlan | None:
        """StudyBench's part of the target as a benchmark plan (its folders are the split
        folders of the run root), or None when StudyBench is not evaluated."""
        if STUDYBENCH not in self.benchmarks or not self.splits:
            return None
        return BenchmarkPlan(
            benchmark=STUDYBENCH,
            parts=self.splits,
            files=self.split_files,
            seeds=self.seeds,
            k=self.k,
            protocol_hash=self.protocol_hash,
            root=self.run_root,
            model=self.model,
        )

    def all_plans(self) -> dict[str, BenchmarkPlan]:
        """Every benchmark's plan, in the order of ``benchmarks``."""
        study = self.studybench_plan()
        found = {**({STUDYBENCH: study} if study else {}), **self.plans}
        return {name: found[name] for name in self.benchmarks if name in found}

    def units(self) -> list[dict[str, Any]]:
        """(split, seed) pairs for mapped judge tasks (``benchmark`` names the benchmark;
        for StudyBench ``split`` is the split, for others the benchmark's part)."""
        units = [
            {"run_root": self.run_root, "split": split, "seed": seed}
            for split in (self.splits if STUDYBENCH in self.benchmarks else ())
            for seed in self.seeds
        ]
        for name, plan in self.plans.items():
            units.extend(
                {"run_root": self.run_root, "benchmark": name, "split": part, "seed": seed}
                for part, seed in plan.units()
            )
        return units

    def expected_metrics(self) -> list[str]:
        """The headline keys a complete logging of this target has."""
        keys = [
            f"{split}/{metric}_at_{self.k}_{stat}"
            for split in (self.splits if STUDYBENCH in self.benchmarks else ())
            for metric in ("par", "sub")
            for stat in ("mean", "std")
        ]
        for name, plan in self.plans.items():
            keys.extend(get_benchmark(name).expected_metrics(plan))
        return keys

    def save(self) -> Path:
        path = Path(self.run_root) / TARGET_FILE
        write_atomic(path, self.model_dump_json(indent=1) + "\n")
        return path

    @classmethod
    def load(cls, run_root: Path | str) -> Target:
        path = Path(run_root) / TARGET_FILE
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DataError(f"{path}: no evaluation planned here (run the plan step)") from None
        except ValueError as exc:
            raise DataError(f"{path}: not a valid target: {exc}") from None


# ---------------------------------------------------------------- helpers


def _relative(path: Path) -> Path:
    """``path`` relative to the project folder when inside it (as dvc.lock names files)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:80] or "model"


# ---------------------------------------------------------------- planning


def _checkpoint_meta(info: CheckpointInfo, local: Path) -> CheckpointMeta:
    compute = info.marker.get("compute") if isinstance(info.marker.get("compute"), dict) else {}
    assert isinstance(compute, dict)
    gpu_hours = compute.get("gpu_hours")
    flops = compute.get("total_flos")
    base = info.marker.get("base_model")
    return CheckpointMeta(
        path=str(local),
        identity=info.identity,
        step=info.step,
        training_run=info.training_run,
        base_model=str(base) if base else None,
        gpu_hours=float(gpu_hours) if isinstance(gpu_hours, int | float) else None,
        train_flops=float(flops) if isinstance(flops, int | float) else None,
    )


def localise(info: CheckpointInfo, settings: Settings) -> Path:
    """A local folder with the checkpoint: the folder itself, or a cached copy of a remote
    one (``<cache_dir>/checkpoints/<identity>``, downloaded once)."""
    if "://" not in info.uri or info.uri.startswith("file://"):
        return Path(info.uri.removeprefix("file://")).resolve()
    target = (settings.paths.cache_dir / "checkpoints" / str(info.identity)).resolve()
    done = target / ".complete"
    if not done.exists():
        fs, path = _fs(info.uri)
        partial = target.with_name(target.name + ".partial")
        fs.get(path.rstrip("/") + "/", str(partial) + "/", recursive=True)
        if target.exists():
            import shutil

            shutil.rmtree(target)
        partial.rename(target)
        done.write_text(info.uri + "\n")
    return target


def evaluation_key(
    subject: str,
    protocol_hash: str,
    data: dict[str, str],
    splits: Sequence[str],
    run_tag: str,
    benchmarks: dict[str, str] | None = None,
) -> str:
    """The evaluation's identity. ``benchmarks`` (name -> protocol hash of every benchmark
    but StudyBench) enters only when there are any, so StudyBench-only keys are the ones the
    platform always computed."""
    fields: dict[str, Any] = {
        "subject": subject,
        "protocol": protocol_hash,
        "data": data,
        "splits": sorted(splits),
        "tag": run_tag,
    }
    if benchmarks:
        fields["benchmarks"] = benchmarks
    payload = json.dumps(fields, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def plan_target(
    name: str,
    model: str,
    engine: EngineKind,
    settings: Settings,
    *,
    splits: Sequence[str],
    checkpoint: CheckpointMeta | None = None,
    base_url: str = "",
    api_key_env: str = "",
    run_tag: str = "",
    check_done: bool = True,
    benchmarks: Sequence[str] | None = None,
) -> Target:
    """Fix everything an evaluation needs, write ``target.json`` and say whether this exact
    evaluation was already logged (``skip_reason``).

    ``benchmarks`` (default ``benchmarks.run`` of the settings) names the registered
    benchmarks to run; ``splits`` are StudyBench's, the others plan their own default parts
    (EvaLearn's paradigms, ...)."""
    from studybench.tracking.provenance import data_version_tags

    names = tuple(benchmarks or settings.benchmarks.run)
    others = {n: get_benchmark(n) for n in names if n != STUDYBENCH}  # unknown names fail here
    studied = STUDYBENCH in names
    files = {split_label(s): split_file(s, settings) for s in splits} if studied else {}
    config = rollout_config(model, settings)
    protocol = str(config.protocol_hash(_default_artefacts(settings))) if studied else ""
    subject = (checkpoint.identity if checkpoint and checkpoint.identity else None) or (
        f"{base_url}|{model}" if base_url else model
    )
    provisional = settings.paths.runs_dir / "_planning"
    plans = {
        n: bench.plan(bench.default_parts(settings), model, settings, provisional / n)
        for n, bench in others.items()
    }
    data_files = [*files.values(), *(Path(f) for pl in plans.values() for f in pl.files.values())]
    data = data_version_tags(dict.fromkeys(data_files))
    key = evaluation_key(
        subject,
        protocol,
        data,
        list(files),
        run_tag,
        {n: pl.protocol_hash for n, pl in plans.items()},
    )
    root = (settings.paths.runs_dir / f"{_slug(name)}-{key[:10]}").resolve()
    plans = {n: pl.model_copy(update={"root": str(root / n)}) for n, pl in plans.items()}
    target = Target(
        name=name,
        model=model,
        engine=engine,
        base_url=base_url,
        api_key_env=api_key_env,
        checkpoint=checkpoint or CheckpointMeta(),
        splits=tuple(files),
        split_files={label: str(path.resolve()) for label, path in files.items()},
        k=config.k,
        seeds=tuple(config.seeds),
        protocol_hash=protocol,
        eval_key=key,
        run_tag=run_tag,
        run_root=str(root),
        benchmarks=names,
        plans=plans,
    )
    if check_done and settings.tracking.enabled:
        from studybench.tracking.mlflow_log import evaluated_run

        done = evaluated_run(settings, key, target.expected_metrics())
        if done is not None:
            target.skip_reason = (
                f"already evaluated: MLflow run {done} has every metric for this checkpoint, "
                f"protocol {protocol or ', '.join(plans)} and data version"
            )
    target.save()
    return target


def engine_kind(settings: Settings) -> EngineKind:
    """The engine for a checkpoint folder: in-process transformers when the settings say so
    (CPU tests), else a vLLM server started for it (an OpenAI endpoint serves a model that is
    already running, not a folder)."""
    return "hf" if settings.engine.kind == "transformers" else "vllm"


def plan_checkpoint(
    location: str,
    settings: Settings,
    *,
    splits: Sequence[str] | None = None,
    engine: EngineKind | None = None,
    check_done: bool = True,
) -> Target:
    """Plan the evaluation of one checkpoint folder (path or fsspec URL)."""
    info = inspect_checkpoint(
        location, allow_pickle=settings.checkpoints.allow_pickle, assume_settled=True
    )
    if not info.ready:
        raise DataError(f"checkpoint {info.describe()}")
    local = localise(info, settings)
    meta = _checkpoint_meta(info, local)
    label = f"{meta.training_run}-{local.name}" if meta.training_run else local.name
    return plan_target(
        label,
        str(local),
        engine or engine_kind(settings),
        settings,
        splits=splits or settings.checkpoints.splits,
        checkpoint=meta,
        check_done=check_done,
    )


def plan_nightly_model(
    spec: NightlyModel, settings: Settings, *, run_tag: str, check_done: bool = True
) -> Target:
    """Plan one model of the nightly list (``run_tag`` makes each night its own run)."""
    splits = settings.nightly.splits
    if spec.base_url:
        return plan_target(
            spec.name,
            spec.model,
            "openai",
            settings,
            splits=splits,
            base_url=spec.base_url,
            api_key_env=spec.api_key_env,
            run_tag=run_tag,
            check_done=check_done,
        )
    if spec.root:
        from studybench.checkpoints.scan import latest_ready

        info = latest_ready(
            spec.root,
            depth=settings.checkpoints.depth,
            quiet_period_s=settings.checkpoints.quiet_period_s,
            allow_pickle=settings.checkpoints.allow_pickle,
        )
        if info is None:
            raise DataError(f"nightly model {spec.name!r}: no ready checkpoint under {spec.root}")
        location = info.uri
    else:
        location = spec.path
    info = inspect_checkpoint(
        location, allow_pickle=settings.checkpoints.allow_pickle, assume_settled=True
    )
    if not info.ready:
        raise DataError(f"nightly model {spec.name!r}: {info.describe()}")
    local = localise(info, settings)
    return plan_target(
        spec.name,
        str(local),
        engine_kind(settings),
        settings,
        splits=splits,
        checkpoint=_checkpoint_meta(info, local),
        run_tag=run_tag,
        check_done=check_done,
    )


# ---------------------------------------------------------------- generation


def _check_plans(target: Target, settings: Settings) -> None:
    """Refuse to add results under a protocol other than the planned one."""
    study = target.studybench_plan()
    if study is not None:
        config = rollout_config(target.model, settings, k=target.k, seeds=target.seeds)
        now = config.protocol_hash(_default_artefacts(settings))
        if now != target.protocol_hash:
            raise ConfigError(
                f"{Path(target.run_root) / TARGET_FILE}: planned under protocol "
                f"{target.protocol_hash}, but the settings now give {now}; plan again"
            )
    for name, plan in target.plans.items():
        bench = get_benchmark(name)
        now = bench.plan(plan.parts, plan.model, settings, Path(plan.root)).protocol_hash
        if now != plan.protocol_hash:
            raise ConfigError(
                f"{Path(target.run_root) / TARGET_FILE}: {name} planned under protocol "
                f"{plan.protocol_hash}, but the settings now give {now}; plan again"
            )


def generate(
    target: Target,
    settings: Settings,
    *,
    on_progress: Callable[[str, Any], None] | None = None,
) -> dict[str, Any]:
    """Start the engine once, generate every benchmark, part and seed of the target
    concurrently against it, stop the engine. Resumes from stored turns; returns a summary
    per StudyBench split and per other benchmark (``{"evalearn": {part: summary}}``)."""
    from studybench.engines.factory import open_engine

    _check_plans(target, settings)
    plans = target.all_plans()
    root = Path(target.run_root)
    engine_file = root / ENGINE_FILE
    stop_leftover_engine(target)  # a server of a killed earlier attempt would hold the GPU

    def reporter(name: str) -> Callable[[str, Any], None] | None:
        if on_progress is None:
            return None
        callback = on_progress
        if name == STUDYBENCH:
            return callback
        return lambda part, progress: callback(f"{name}/{part}", progress)

    try:
        with open_engine(
            target.engine,
            target.model,
            settings,
            root,
            base_url=target.base_url or None,
            api_key_env=target.api_key_env or None,
            pid_file=engine_file,
        ) as backend:

            async def run_all() -> list[dict[str, Any]]:
                try:
                    return list(
                        await asyncio.gather(
                            *(
                                get_benchmark(name).generate(
                                    plan, backend, settings, reporter(name)
                                )
                                for name, plan in plans.items()
                            )
                        )
                    )
                finally:
                    await backend.aclose()

            summaries = dict(zip(plans, asyncio.run(run_all()), strict=True))
    finally:
        engine_file.unlink(missing_ok=True)
    out: dict[str, Any] = dict(summaries.pop(STUDYBENCH, {}))
    out.update(summaries)
    errors = sum(int(part.get("errors", 0)) for part in _part_summaries(out, summaries))
    if errors:
        raise StudyBenchError(
            f"{target.name}: {errors} turn(s) failed after the engine's retries; they are "
            "stored as errors and regenerated (with the turns after them) on retry"
        )
    write_atomic(root / GENERATED_FILE, json.dumps(out, indent=1) + "\n")
    return out


def _part_summaries(out: dict[str, Any], others: dict[str, Any]) -> list[dict[str, Any]]:
    """Every per-part summary of a generate result (StudyBench's splits at the top level,
    the other benchmarks' parts one level down)."""
    parts = [v for k, v in out.items() if k not in others and isinstance(v, dict)]
    for summary in others.values():
        parts.extend(v for v in summary.values() if isinstance(v, dict))
    return parts


def stop_leftover_engine(target: Target, grace_s: float = 20.0) -> bool:
    """Stop a vLLM server a dead generate step left behind (teardown). True if one ran."""
    path = Path(target.run_root) / ENGINE_FILE
    try:
        record = json.loads(path.read_text())
        pid = int(record["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    state = recorded_process_state({**record, "pid": pid})
    if state == "other-host":  # never signal a process group of another machine
        log.warning(
            "%s: the leftover vLLM server was started on host %s; stop it there (process group %s)",
            target.name,
            record.get("host"),
            pid,
        )
        return False
    if state == "gone":  # the recorded server is gone; its id may now be someone else's
        path.unlink(missing_ok=True)
        return False
    if not stop_group(pid, grace_s):
        path.unlink(missing_ok=True)
        return False
    path.unlink(missing_ok=True)
    log.warning("stopped a leftover vLLM server (process group %s) of %s", pid, target.name)
    return True


# ---------------------------------------------------------------- judging, logging, checks


def judge(
    target: Target, split: str, seed: int | None, settings: Settings, *, benchmark: str = ""
) -> Any:
    """Judge one (split, seed) of the target (all seeds when ``seed`` is None). For a
    benchmark other than StudyBench, ``split`` is its part and a dict summary is returned."""
    if benchmark and benchmark != STUDYBENCH:
        plan = target.plans.get(benchmark)
        if plan is None:
            raise ConfigError(f"{target.run_root}: benchmark {benchmark!r} was not planned")
        bench = get_benchmark(benchmark)
        seeds = plan.seeds if seed is None else (seed,)
        summaries = [bench.judge(plan, split, s, settings) for s in seeds]
        return summaries[0] if len(summaries) == 1 else {"seeds": summaries}
    from studybench.pipeline.judging import judge_dir

    return judge_dir(
        target.run_dir(split),
        settings,
        rule_only=False,
        seeds=None if seed is None else [seed],
    )


def benchmark_results(target: Target, settings: Settings, out_dir: Path) -> list[Any]:
    """Metrics and artefacts of every benchmark but StudyBench, ready for tracking."""
    from studybench.tracking.mlflow_log import BenchmarkResult

    results = []
    for name, plan in target.plans.items():
        bench = get_benchmark(name)
        reason = bench.check(plan)
        if reason:
            raise StudyBenchError(f"{target.name}: {name}: {reason}")
        folder = out_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        bench.write_artefacts(plan, folder, settings)
        metrics = bench.metrics(plan, settings)
        results.append(
            BenchmarkResult(
                name=name,
                metrics=metrics,
                headline=bench.headline(plan, metrics),
                artefact_dir=str(folder),
                params={"parts": ",".join(plan.parts), "protocol_hash": plan.protocol_hash},
                model=plan.model,
            )
        )
    return results


def log_results(target: Target, settings: Settings) -> str:
    """Log the judged target to MLflow (idempotent); writes ``result.json``."""
    import tempfile

    from studybench.tracking.mlflow_log import client_for, log_evaluation

    checkpoint = target.checkpoint
    if target.run_tag:  # a nightly re-evaluation is not a new point of the learning curve
        checkpoint = checkpoint.model_copy(update={"training_run": None})
    data_files = [_relative(Path(p)) for p in target.split_files.values()]
    for plan in target.plans.values():
        data_files.extend(_relative(Path(p)) for p in plan.files.values())
    with tempfile.TemporaryDirectory(prefix="studybench-artefacts-") as tmp:
        run_id = log_evaluation(
            [target.run_dir(split) for split in target.splits]
            if STUDYBENCH in target.benchmarks
            else [],
            settings,
            checkpoint=checkpoint,
            data_files=data_files,
            eval_key=target.eval_key,
            extra_tags={
                "studybench.target": target.name,
                "studybench.run_tag": target.run_tag,
                "studybench.benchmarks": ",".join(target.benchmarks),
            },
            benchmarks=benchmark_results(target, settings, Path(tmp)),
            model=target.model,
        )
    metrics = client_for(settings).get_run(run_id).data.metrics
    expected = set(target.expected_metrics())
    result = {
        "run_id": run_id,
        "name": target.name,
        "step": target.checkpoint.step,
        "metrics": {k: metrics[k] for k in sorted(metrics) if k in expected},
    }
    write_atomic(Path(target.run_root) / RESULT_FILE, json.dumps(result, indent=1) + "\n")
    return run_id


class Regression(BaseModel):
    target: str
    run_id: str
    against: str
    baseline_run: str
    metric: str
    baseline: float
    candidate: float
    margin: float

    def describe(self) -> str:
        return (
            f"{self.target}: {self.metric} {self.baseline:.3f} -> {self.candidate:.3f} "
            f"({self.candidate - self.baseline:+.3f}, noise margin {self.margin:.3f}) against "
            f"{self.against} (run {self.baseline_run})"
        )


class CheckResult(BaseModel):
    target: str
    run_id: str
    compared: dict[str, str] = Field(default_factory=dict)  # what -> baseline run id
    regressions: list[Regression] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


def check(target: Target, run_id: str, settings: Settings, baseline: str = "") -> CheckResult:
    """Compare the logged run with the previous evaluation of the same lineage (previous
    checkpoint of the training run, or previous night of the model) and with ``baseline``."""
    from studybench.tracking.compare import compare_runs, previous_evaluation, resolve_run
    from studybench.tracking.mlflow_log import client_for

    client = client_for(settings)
    result = CheckResult(target=target.name, run_id=run_id)
    against: dict[str, str] = {}
    previous = previous_evaluation(client, run_id)
    if previous:
        against["previous checkpoint" if target.checkpoint.training_run else "previous run"] = (
            previous
        )
    else:
        result.notes.append("no earlier evaluation of this lineage to compare with")
    if baseline:
        try:
            against["baseline"] = resolve_run(client, baseline, relative_to=run_id)
        except Exception as exc:  # an unknown alias must not hide the other comparison
            result.notes.append(f"baseline {baseline!r} not found: {exc}")
    for what, base in against.items():
        if base == run_id:
            continue
        comparison = compare_runs(
            client, base, run_id, settings.tracking.regression_threshold, log=what != "baseline"
        )
        result.compared[what] = base
        result.regressions.extend(
            Regression(
                target=target.name,
                run_id=run_id,
                against=what,
                baseline_run=base,
                metric=m.metric,
                baseline=m.baseline,
                candidate=m.candidate,
                margin=m.margin,
            )
            for m in comparison.metrics
            if m.regression
        )
    client.set_tag(run_id, "studybench.regressions", str(len(result.regressions)))
    return result


def regression_message(results: Sequence[CheckResult]) -> str:
    lines = [r.describe() for result in results for r in result.regressions]
    if not lines:
        return ""
    return f"{len(lines)} regression(s) beyond seed noise:\n  " + "\n  ".join(lines)
