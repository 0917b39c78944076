"""Planning: fix everything an evaluation needs (the benchmarks' plans, the method
artefacts, the evaluation key, the run folder), write ``target.json`` and say whether this
exact evaluation was already logged. The CLI, the checkpoint DAG, the nightly DAG and the
guidance admission all plan here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.registry import get_benchmark
from studybench.checkpoints.inspect import CheckpointInfo, _fs, inspect_checkpoint
from studybench.config import MethodArtefactSpec, NightlyModel, Settings
from studybench.errors import DataError
from studybench.pipeline.keys import generation_key, installed_instrument, judged_key, subject
from studybench.pipeline.target import STUDYBENCH, CheckpointMeta, EngineKind, Target


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:80] or "model"


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


def plan_benchmarks(
    names: Sequence[str],
    model: str,
    settings: Settings,
    root: Path,
    *,
    splits: Sequence[str] = (),
    parts: Sequence[str] = (),
    artefacts: MethodArtefactSpec | None = None,
    own_folder: bool = False,
) -> dict[str, BenchmarkPlan]:
    """Every benchmark's plan under ``root`` (StudyBench's folders are ``root``'s split
    folders; the others get ``root/<name>``, or ``root`` itself with ``own_folder``), with
    the method artefacts applied. ``splits`` are StudyBench's, ``parts`` those of the other
    benchmarks (default: their own)."""
    spec = artefacts or MethodArtefactSpec()
    plans: dict[str, BenchmarkPlan] = {}
    for name in dict.fromkeys(names):
        bench = get_benchmark(name)  # unknown names fail here
        chosen = tuple(splits if name == STUDYBENCH else parts) or bench.default_parts(settings)
        folder = root if name == STUDYBENCH or own_folder else root / name
        plans[name] = bench.with_artefacts(
            bench.plan(chosen, model, settings, folder), spec, settings
        )
    return plans


def _move(
    plans: dict[str, BenchmarkPlan], root: Path, own_folder: bool
) -> dict[str, BenchmarkPlan]:
    return {
        n: p.model_copy(update={"root": str(root if n == STUDYBENCH or own_folder else root / n)})
        for n, p in plans.items()
    }


def check_engine_artefacts(engine: str, spec: MethodArtefactSpec | None) -> None:
    """Refuse method artefacts an engine cannot apply: an agent is conditioned by its project
    folder, so the chat-model system-prompt methods (ACE, GEPA, EvoSkill) are refused there
    with a message saying so; guidance applies everywhere."""
    if engine == "agent" and spec is not None:
        from studybench.engines.agent import refuse_conditioning

        refuse_conditioning([m for m in ("ace", "gepa", "evoskill") if getattr(spec, m)])


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
    parts: Sequence[str] = (),
    artefacts: MethodArtefactSpec | None = None,
    run_root: Path | None = None,
) -> Target:
    """Fix everything an evaluation needs, write ``target.json`` and say whether this exact
    evaluation was already logged (``skip_reason``).

    ``benchmarks`` (default ``benchmarks.run``) names the registered benchmarks to run;
    ``run_root`` (default ``<runs_dir>/<name>-<key>``) is a hand-chosen run folder."""
    from studybench.tracking.provenance import data_version_tags

    names = tuple(benchmarks or settings.benchmarks.run)
    spec = artefacts or MethodArtefactSpec()
    check_engine_artefacts(engine, spec)
    provisional = run_root or settings.paths.runs_dir / "_planning"
    own = run_root is not None and len(names) == 1  # ``eval --out``: the folder is the plan's
    plans = plan_benchmarks(
        names, model, settings, provisional, splits=splits, parts=parts, artefacts=spec,
        own_folder=own,
    )  # fmt: skip
    data_files = [Path(f) for plan in plans.values() for f in plan.files.values()]
    data = data_version_tags(dict.fromkeys(data_files))
    identity = checkpoint.identity if checkpoint else None
    # the folder is the generations' (a new verifier re-judges them, never regenerates)
    generated = generation_key(
        subject(model, identity, base_url),
        plans,
        data,
        run_tag,
        folder=str(run_root.resolve()) if run_root else "",
    )
    key = judged_key(generated, installed_instrument(settings))
    root = (run_root or settings.paths.runs_dir / f"{_slug(name)}-{generated[:10]}").resolve()
    target = Target(
        name=name,
        model=model,
        engine=engine,
        base_url=base_url,
        api_key_env=api_key_env,
        checkpoint=checkpoint or CheckpointMeta(),
        eval_key=key,
        generation_key=generated,
        run_tag=run_tag,
        run_root=str(root),
        benchmarks=names,
        plans=_move(plans, root, own),
        artefacts=spec,
    )
    if check_done and settings.tracking.enabled:
        from studybench.tracking.mlflow_log import evaluated_run

        done = evaluated_run(settings, key, target.expected_metrics())
        if done is not None:
            protocols = ", ".join(f"{n} {p.protocol_hash}" for n, p in plans.items())
            target.skip_reason = (
                f"already evaluated: MLflow run {done} has every metric for this checkpoint, "
                f"protocol ({protocols}) and data version"
            )
        else:
            from studybench.rescore.select import rescore_instead

            target.skip_reason = rescore_instead(settings, generated, target.expected_metrics())
    target.save()
    return target


def engine_kind(settings: Settings) -> EngineKind:
    """The engine for a checkpoint folder: in-process transformers when the settings say so
    (CPU tests), else a vLLM server started for it (an OpenAI endpoint serves a model that is
    already running, not a folder)."""
    return "hf" if settings.engine.kind == "hf" else "vllm"


def _ready(location: str, settings: Settings, what: str) -> tuple[CheckpointInfo, Path]:
    info = inspect_checkpoint(
        location, allow_pickle=settings.checkpoints.allow_pickle, assume_settled=True
    )
    if not info.ready:
        raise DataError(f"{what}{info.describe()}")
    return info, localise(info, settings)


def plan_checkpoint(
    location: str,
    settings: Settings,
    *,
    splits: Sequence[str] | None = None,
    engine: EngineKind | None = None,
    check_done: bool = True,
    artefacts: MethodArtefactSpec | None = None,
) -> Target:
    """Plan the evaluation of one checkpoint folder (path or fsspec URL), optionally with
    method artefacts (the checkpoint DAG's conf, ``studybench checkpoints eval``)."""
    info, local = _ready(location, settings, "checkpoint ")
    meta = _checkpoint_meta(info, local)
    label = f"{meta.training_run}-{local.name}" if meta.training_run else local.name
    if artefacts is not None and artefacts.given():
        kind = next(f for f in ("gepa", "ace", "evoskill", "guidance") if getattr(artefacts, f))
        label += f"-{kind}"
    return plan_target(
        label,
        str(local),
        engine or engine_kind(settings),
        settings,
        splits=splits or settings.checkpoints.splits,
        checkpoint=meta,
        check_done=check_done,
        artefacts=artefacts,
    )


def plan_nightly_model(
    spec: NightlyModel, settings: Settings, *, run_tag: str, check_done: bool = True
) -> Target:
    """Plan one model of the nightly list (``run_tag`` makes each night its own run), with
    the method artefacts the entry names."""
    splits = settings.nightly.splits
    if spec.base_url:
        return plan_target(
            spec.name,
            spec.model,
            spec.engine,
            settings,
            splits=splits,
            base_url=spec.base_url,
            api_key_env=spec.api_key_env,
            run_tag=run_tag,
            check_done=check_done,
            artefacts=spec.artefacts,
        )
    location = spec.path
    if spec.root:
        from studybench.checkpoints.scan import latest_ready

        found = latest_ready(
            spec.root,
            depth=settings.checkpoints.depth,
            quiet_period_s=settings.checkpoints.quiet_period_s,
            allow_pickle=settings.checkpoints.allow_pickle,
        )
        if found is None:
            raise DataError(f"nightly model {spec.name!r}: no ready checkpoint under {spec.root}")
        location = found.uri
    info, local = _ready(location, settings, f"nightly model {spec.name!r}: ")
    return plan_target(
        spec.name,
        str(local),
        engine_kind(settings),
        settings,
        splits=splits,
        checkpoint=_checkpoint_meta(info, local),
        run_tag=run_tag,
        check_done=check_done,
        artefacts=spec.artefacts,
    )
