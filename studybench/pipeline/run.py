"""Engine up → generate → engine down, and judging one (benchmark, part, seed) unit.

One engine serves every benchmark, part and seed of a target; its server writes its process
id to ``engine.json`` so a teardown step can stop it if the generating process dies."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studybench.benchmarks.registry import get_benchmark
from studybench.config import Settings
from studybench.errors import ConfigError, StudyBenchError
from studybench.fileio import write_atomic
from studybench.pipeline.target import (
    ENGINE_FILE,
    GENERATED_FILE,
    STUDYBENCH,
    TARGET_FILE,
    USAGE_FILE,
    Target,
)
from studybench.processes import recorded_process_state, stop_group

log = logging.getLogger(__name__)


def check_plans(target: Target, settings: Settings) -> None:
    """Refuse to add results under a protocol other than the planned one (each benchmark's
    :meth:`~studybench.benchmarks.base.Benchmark.check_protocol`, named by the target file)."""
    where = Path(target.run_root) / TARGET_FILE
    for name, plan in target.plans.items():
        get_benchmark(name).check_protocol(plan, settings, where=where)


def generate(
    target: Target,
    settings: Settings,
    *,
    on_progress: Callable[[str, Any], None] | None = None,
    max_failed_share: float = 0.0,
) -> dict[str, Any]:
    """Start the engine once, generate every benchmark, part and seed of the target
    concurrently against it, stop the engine. Resumes from stored turns; returns a summary
    per StudyBench split and per other benchmark (``{"evalearn": {part: summary}}``).

    Turns that failed after the engine's retries fail the step when they are more than
    ``max_failed_share`` of the turns asked (default none: a DAG task is retried and asks
    them again); a command run by hand tolerates the engine settings' share and reports them.
    """
    from studybench.engines.factory import run_on_engine

    check_plans(target, settings)
    plans = target.plans
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

    async def run_all(engine: Any) -> list[dict[str, Any]]:
        try:
            return list(
                await asyncio.gather(
                    *(
                        get_benchmark(name).generate(plan, engine, settings, reporter(name))
                        for name, plan in plans.items()
                    )
                )
            )
        finally:  # agents account for tokens, cost and wall time: keep it for tracking
            usage = getattr(engine, "usage_summary", None)
            if callable(usage):
                write_atomic(root / USAGE_FILE, json.dumps(usage(), indent=1) + "\n")

    try:
        summaries = dict(
            zip(
                plans,
                run_on_engine(
                    target.engine,
                    target.model,
                    settings,
                    root,
                    run_all,
                    base_url=target.base_url or None,
                    api_key_env=target.api_key_env or None,
                    pid_file=engine_file,
                ),
                strict=True,
            )
        )
    finally:
        engine_file.unlink(missing_ok=True)
    out: dict[str, Any] = dict(summaries.pop(STUDYBENCH, {}))
    out.update(summaries)
    parts = [v for k, v in out.items() if k not in summaries and isinstance(v, dict)]
    for summary in summaries.values():
        parts.extend(v for v in summary.values() if isinstance(v, dict))
    errors = sum(int(part.get("errors", 0)) for part in parts)
    asked = sum(int(part.get("generated", 0)) for part in parts)
    if errors and errors > max_failed_share * asked:
        raise StudyBenchError(
            f"{target.name}: {errors} of {asked} turn(s) failed after the engine's retries; "
            "they are stored as errors and regenerated (with the turns after them) on retry"
        )
    write_atomic(root / GENERATED_FILE, json.dumps(out, indent=1) + "\n")
    return out


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


def judge(
    target: Target, split: str, seed: int | None, settings: Settings, *, benchmark: str = ""
) -> Any:
    """Judge one (part, seed) of one benchmark of the target (all seeds when ``seed`` is
    None; default benchmark StudyBench, whose summary is a ``JudgeSummary``)."""
    name = benchmark or STUDYBENCH
    plan = target.plans.get(name)
    if plan is None:
        raise ConfigError(f"{target.run_root}: benchmark {name!r} was not planned")
    if name == STUDYBENCH:
        from studybench.benchmarks.studybench.judging import judge_dir

        return judge_dir(
            Path(plan.part_dir(split)),
            settings,
            rule_only=False,
            seeds=None if seed is None else [seed],
        )
    bench = get_benchmark(name)
    seeds = plan.seeds if seed is None else (seed,)
    summaries = [bench.judge(plan, split, s, settings) for s in seeds]
    return summaries[0] if len(summaries) == 1 else {"seeds": summaries}
