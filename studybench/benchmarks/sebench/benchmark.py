"""SE-Bench as a registered benchmark: plan, generate, judge, metrics.

Parts are ``<condition>-<split>`` (``closed_book-single``, ``open_book-multi``, ...). Each
part folder holds ``generations.sqlite`` (the rollout store: every completion committed as
it arrives and reused only for an identical request, so generation resumes) and one
``verdicts-seed<N>.json`` per seed (a verdict is reused while its completion and the judge
version are unchanged). The obfuscated package is generated into ``<root>/package`` by
whichever step needs it first; its key is part of the protocol hash, so a plan can never be
judged against other names than it was generated with.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.base import Benchmark, BenchmarkPlan, ProgressCallback, stable_hash
from studybench.benchmarks.registry import register
from studybench.benchmarks.sebench.functions import DEFAULT_FUNCTIONS
from studybench.benchmarks.sebench.judging import (
    FAILURE_REASONS,
    JUDGE_VERSION,
    Judge,
    Verdict,
    completion_hash,
)
from studybench.benchmarks.sebench.package import ObfuscatedPackage, PackageSpec, generate_package
from studybench.benchmarks.sebench.prompts import CONDITIONS, Condition, messages, prompt_texts
from studybench.benchmarks.sebench.settings import SandboxLimits
from studybench.benchmarks.sebench.tasks import SETask, by_split, load_tasks
from studybench.config import Settings
from studybench.data.records import SlotKey
from studybench.engines.base import Engine, EngineError, SamplingParams
from studybench.errors import ConfigError, DataError, StudyBenchError
from studybench.fileio import write_atomic
from studybench.metrics.items import ItemRow

NAME = "sebench"
PLAN_FILE = "plan.json"


def package_spec(settings: Settings) -> PackageSpec:
    s = settings.sebench
    return PackageSpec(
        name=s.package_name,
        linalg_module=s.linalg_module,
        seed=s.name_seed,
        functions=s.functions or DEFAULT_FUNCTIONS,
        doc_max_chars=s.doc_max_chars,
    )


def sandbox_limits(settings: Settings) -> SandboxLimits:
    """The sandbox's limits from the settings' flat ``sebench.*`` keys (one field list)."""
    s = settings.sebench
    return SandboxLimits(**{name: getattr(s, name) for name in SandboxLimits.model_fields})


def api_docs_hash(settings: Settings) -> str:
    """The released documentation's content hash ('' when the generated docs are used)."""
    path = settings.sebench.api_docs
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path else ""


def with_settings_docs(package: ObfuscatedPackage, settings: Settings) -> ObfuscatedPackage:
    """``package`` with the release's rewritten docs when ``sebench.api_docs`` names them."""
    from studybench.benchmarks.sebench.release import released_docs

    path = settings.sebench.api_docs
    if path is None:
        return package
    return package.model_copy(update={"released_docs": released_docs(path, package.mapping)})


def sampling(settings: Settings, seed: int | None = None) -> SamplingParams:
    s = settings.sebench
    return SamplingParams(
        temperature=s.temperature,
        top_p=s.top_p,
        max_tokens=s.max_new_tokens,
        seed=seed,
        thinking=s.thinking,
    )


def split_part(part: str) -> tuple[Condition, str]:
    condition, _, split = part.partition("-")
    if condition not in CONDITIONS or not split:
        raise ConfigError(
            f"sebench: unknown part {part!r}; parts are <condition>-<split> with condition "
            f"in {', '.join(CONDITIONS)}"
        )
    return condition, split


def protocol_hash(settings: Settings, k: int, seeds: Sequence[int]) -> str:
    s = settings.sebench
    return stable_hash(
        {
            "package": package_spec(settings).key(),
            "prompts": prompt_texts(),
            "sampling": sampling(settings).model_dump(exclude={"seed"}),
            "k": k,
            "seeds": list(seeds),
            "limits": sandbox_limits(settings).model_dump(),
            "tolerance": [s.rel_tolerance, s.abs_tolerance],
            "call_rule": s.call_rule,
            "api_docs": api_docs_hash(settings),
            "judge": JUDGE_VERSION,
        }
    )


def request_seed(seed: int, attempt: int, part: str, task_id: str) -> int:
    return int(stable_hash([seed, attempt, part, task_id], length=8), 16) & 0x7FFFFFFF


def slot_key(part: str, task_id: str) -> SlotKey:
    return SlotKey(NAME, part, task_id, "")


def verdict_path(plan: BenchmarkPlan, part: str, seed: int) -> Path:
    return plan.part_dir(part) / f"verdicts-seed{seed}.json"


def load_verdicts(path: Path) -> list[Verdict]:
    return [Verdict.model_validate(v) for v in json.loads(path.read_text(encoding="utf-8"))]


@register
class SEBench(Benchmark):
    """SE-Bench: does training put a new library's knowledge into the weights?"""

    name = NAME
    title = "SE-Bench (knowledge internalisation: NumPy behind an obfuscated package)"

    def default_parts(self, settings: Settings) -> tuple[str, ...]:
        s = settings.sebench
        return tuple(f"{c}-{split}" for c in s.conditions for split in s.splits)

    def plan(
        self, parts: Sequence[str], model: str, settings: Settings, root: Path
    ) -> BenchmarkPlan:
        spec = package_spec(settings)
        path = Path(settings.sebench.tasks)
        splits = by_split(load_tasks(path, spec.functions))
        for part in parts:
            _, split = split_part(part)
            if split not in splits:
                raise DataError(
                    f"{path}: no task of split {split!r} (part {part}); the file has "
                    f"{', '.join(sorted(splits))}"
                )
        s = settings.sebench
        return BenchmarkPlan(
            benchmark=NAME,
            parts=tuple(parts),
            files={"tasks": str(path.resolve())},
            seeds=s.seeds,
            k=s.k,
            protocol_hash=protocol_hash(settings, s.k, s.seeds),
            root=str(root),
            model=model,
        )

    # -- shared by the steps -------------------------------------------------------------

    def current_protocol_hash(self, plan: BenchmarkPlan, settings: Settings) -> str:
        """What :meth:`plan` would hash now: k and seeds come from the settings, so a plan
        made under other seeds is refused (as re-planning it would be)."""
        return protocol_hash(settings, settings.sebench.k, settings.sebench.seeds)

    def package(self, plan: BenchmarkPlan, settings: Settings) -> ObfuscatedPackage:
        return with_settings_docs(
            generate_package(package_spec(settings), Path(plan.root) / "package"), settings
        )

    def tasks(self, plan: BenchmarkPlan, part: str, settings: Settings) -> list[SETask]:
        _, split = split_part(part)
        tasks = load_tasks(Path(plan.files["tasks"]), package_spec(settings).functions)
        return by_split(tasks).get(split, [])

    # -- generation ----------------------------------------------------------------------

    async def generate(
        self,
        plan: BenchmarkPlan,
        engine: Engine,
        settings: Settings,
        on_progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        self.check_protocol(plan, settings)
        package = self.package(plan, settings)
        write_atomic(Path(plan.root) / PLAN_FILE, plan.model_dump_json(indent=2))
        limit = asyncio.Semaphore(settings.engine.concurrency)
        summaries: dict[str, Any] = {}
        for part in plan.parts:
            summaries[part] = await _PartGeneration(
                self, plan, part, package, settings, limit, on_progress
            ).run(engine)
        return summaries

    # -- judging -------------------------------------------------------------------------

    def judge(
        self, plan: BenchmarkPlan, part: str, seed: int, settings: Settings
    ) -> dict[str, Any]:
        from studybench.rollout.store import GenerationStore

        self.check_protocol(plan, settings)
        package = self.package(plan, settings)
        tasks = self.tasks(plan, part, settings)
        run_key = f"{plan.model}@{plan.protocol_hash}"
        store_path = plan.part_dir(part) / "generations.sqlite"
        if not store_path.is_file():
            raise StudyBenchError(f"{plan.part_dir(part)}: nothing generated yet for {part}")
        store = GenerationStore(store_path)
        try:
            latest: dict[tuple[str, int], tuple[str, str]] = {}
            for record in store.records(run_key):
                if record.seed != seed or record.key.year != part:
                    continue
                slot = (record.key.source_problem_id, record.attempt)
                if record.status == "ok" or slot not in latest or latest[slot][1]:
                    latest[slot] = (record.completion, record.error or "")
        finally:
            store.close()
        path = verdict_path(plan, part, seed)
        previous = (
            {(v.task_id, v.attempt): v for v in load_verdicts(path)} if path.is_file() else {}
        )
        judge = Judge(
            package,
            sandbox_limits(settings),
            settings.sebench.rel_tolerance,
            settings.sebench.abs_tolerance,
            settings.sebench.workers,
            settings.sebench.call_rule,
        )
        verdicts: dict[tuple[str, int], Verdict] = {}
        todo: list[tuple[str, SETask, int, str]] = []
        for task in tasks:
            for attempt in range(plan.k):
                completion, error = latest.get((task.id, attempt), ("", "not generated"))
                old = previous.get((task.id, attempt))
                if (
                    old is not None
                    and old.judge_version == JUDGE_VERSION
                    and old.completion_hash == completion_hash(completion)
                    and not error
                ):
                    verdicts[(task.id, attempt)] = old
                else:
                    todo.append((completion, task, attempt, error))
        for verdict in judge.judge_many(todo):
            verdicts[(verdict.task_id, verdict.attempt)] = verdict
        ordered = [verdicts[(t.id, a)] for t in tasks for a in range(plan.k)]
        write_atomic(path, json.dumps([v.model_dump() for v in ordered], indent=1))
        return {
            "part": part,
            "seed": seed,
            "judged": len(todo),
            "reused": len(ordered) - len(todo),
            "correct": sum(v.correct for v in ordered),
            "total": len(ordered),
        }

    # -- results -------------------------------------------------------------------------

    def check(self, plan: BenchmarkPlan) -> str:
        missing = [
            f"{part} seed {seed}"
            for part, seed in plan.units()
            if not verdict_path(plan, part, seed).is_file()
        ]
        return f"sebench: not judged: {', '.join(missing)}" if missing else ""

    def metrics(self, plan: BenchmarkPlan, settings: Settings) -> dict[str, float]:
        return plan_metrics(plan)

    def items(self, plan: BenchmarkPlan, settings: Settings) -> list[ItemRow]:
        """One row per (part, task, seed, attempt): the task is the parent (one slot), so the
        paired comparison of two evaluations is clustered by task like StudyBench's by parent.
        ``stage`` says who decided: ``none`` when the answer had no code, else the sandbox."""
        rows: list[ItemRow] = []
        for part, seed in plan.units():
            path = verdict_path(plan, part, seed)
            if not path.is_file():
                continue
            for verdict in load_verdicts(path):
                rows.append(
                    ItemRow(
                        benchmark=NAME,
                        split=part,
                        parent=verdict.task_id,
                        slot="0",
                        seed=seed,
                        attempt=verdict.attempt,
                        correct=verdict.correct,
                        stage="none" if verdict.reason == "no_code" else "sandbox",
                        answer_type="code",
                    )
                )
        return rows

    def expected_metrics(self, plan: BenchmarkPlan) -> list[str]:
        keys: list[str] = []
        for part in plan.parts:
            condition, split = split_part(part)
            prefix = f"{NAME}/{condition}/{split}"
            keys += [f"{prefix}/accuracy", f"{prefix}/accuracy_std"]
            keys += [f"{prefix}/fail_{reason}" for reason in FAILURE_REASONS]
        for condition in dict.fromkeys(split_part(p)[0] for p in plan.parts):
            keys.append(f"{NAME}/{condition}/all/accuracy")
        return keys

    def write_artefacts(self, plan: BenchmarkPlan, out_dir: Path, settings: Settings) -> None:
        out = out_dir / NAME
        out.mkdir(parents=True, exist_ok=True)
        rows: list[dict[str, Any]] = []
        for part, seed in plan.units():
            path = verdict_path(plan, part, seed)
            if path.is_file():
                for verdict in load_verdicts(path):
                    rows.append({"part": part, "seed": seed, **verdict.model_dump()})
        (out / "verdicts.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
        (out / "metrics.json").write_text(
            json.dumps(plan_metrics(plan), indent=1, sort_keys=True), encoding="utf-8"
        )
        docs = Path(self.package(plan, settings).root) / "api_docs.json"
        (out / "api_docs.json").write_text(docs.read_text(encoding="utf-8"), encoding="utf-8")


class _PartGeneration:
    """Generation of one part: every (task, seed, attempt) request at once, bounded by the
    engine's concurrency; stored as it arrives, reused when the identical request is stored."""

    def __init__(
        self,
        bench: SEBench,
        plan: BenchmarkPlan,
        part: str,
        package: ObfuscatedPackage,
        settings: Settings,
        limit: asyncio.Semaphore,
        on_progress: ProgressCallback | None,
    ) -> None:
        from studybench.rollout.runner import Progress
        from studybench.rollout.store import GenerationStore

        self.plan, self.part, self.package, self.settings = plan, part, package, settings
        self.condition = split_part(part)[0]
        self.tasks = bench.tasks(plan, part, settings)
        self.limit = limit
        self.on_progress = on_progress
        self.run_key = f"{plan.model}@{plan.protocol_hash}"
        self.store = GenerationStore(plan.part_dir(part) / "generations.sqlite")
        self.done = self.store.latest(self.run_key)
        self.progress = Progress()

    async def one(self, engine: Engine, task: SETask, seed: int, attempt: int) -> None:
        from studybench.rollout.store import TurnRecord, context_hash

        asked = messages(task, self.package, self.condition)
        params = sampling(self.settings, request_seed(seed, attempt, self.part, task.id))
        digest = context_hash(asked, params)
        key = slot_key(self.part, task.id)
        if (key, seed, attempt, 0, digest) in self.done:
            self.progress.turns_reused += 1
            self.report()
            return
        fields: dict[str, Any] = {
            "run_key": self.run_key, "key": key, "seed": seed, "attempt": attempt, "turn": 0,
            "context_hash": digest, "request_seed": params.seed,
            "messages": [m.model_dump() for m in asked],
        }  # fmt: skip
        async with self.limit:
            try:
                completion = (await engine.complete(asked, params))[0]
            except EngineError as exc:
                self.progress.errors += 1
                record = TurnRecord(**fields, status="error", completion="", error=str(exc)[:2000])
            else:
                self.progress.completion_tokens += completion.completion_tokens
                record = TurnRecord(
                    **fields,
                    status="ok",
                    completion=completion.text,
                    finish_reason=completion.finish_reason,
                    prompt_tokens=completion.prompt_tokens,
                    completion_tokens=completion.completion_tokens,
                )
        self.store.append(record)
        self.progress.turns_generated += 1
        self.report()

    def report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.part, self.progress)

    async def run(self, engine: Engine) -> dict[str, Any]:
        started = time.monotonic()
        units = [
            (task, seed, attempt)
            for task in self.tasks
            for seed in self.plan.seeds
            for attempt in range(self.plan.k)
        ]
        self.progress.turns_total = self.progress.chains_total = len(units)
        self.report()
        try:
            await asyncio.gather(*(self.one(engine, *unit) for unit in units))
        finally:
            self.store.close()
        return {
            "turns_total": self.progress.turns_total,
            "turns_generated": self.progress.turns_generated,
            "turns_reused": self.progress.turns_reused,
            "errors": self.progress.errors,
            "completion_tokens": self.progress.completion_tokens,
            "wall_s": round(time.monotonic() - started, 3),
        }


def plan_metrics(plan: BenchmarkPlan) -> dict[str, float]:
    """Accuracy (mean and sample std over seeds) and failure-type fractions per part, and the
    accuracy of each condition over all its parts, from the stored verdicts."""
    out: dict[str, float] = {}
    pooled: dict[str, list[float]] = {}
    for part in plan.parts:
        condition, split = split_part(part)
        prefix = f"{NAME}/{condition}/{split}"
        per_seed: list[float] = []
        reasons: dict[str, list[float]] = {r: [] for r in FAILURE_REASONS}
        for seed in plan.seeds:
            path = verdict_path(plan, part, seed)
            if not path.is_file():
                continue
            verdicts = load_verdicts(path)
            total = max(len(verdicts), 1)
            per_seed.append(sum(v.correct for v in verdicts) / total)
            for failure in FAILURE_REASONS:
                reasons[failure].append(sum(v.reason == failure for v in verdicts) / total)
            pooled.setdefault(condition, []).extend(float(v.correct) for v in verdicts)
        if not per_seed:
            continue
        out[f"{prefix}/accuracy"] = statistics.fmean(per_seed)
        out[f"{prefix}/accuracy_std"] = statistics.stdev(per_seed) if len(per_seed) > 1 else 0.0
        for reason, values in reasons.items():
            out[f"{prefix}/fail_{reason}"] = statistics.fmean(values)
    for name, values in pooled.items():
        out[f"{NAME}/{name}/all/accuracy"] = sum(values) / max(len(values), 1)
    return out
