"""Training sets for SE-Bench's two settings, for the training recipes to consume.

SE-Bench trains on responses produced *with* the documentation in context (open book).
**Open** keeps the documentation in the training prompt; **Closed** removes it, so the only
way to reproduce the response is to have the package's knowledge in the weights, which the
closed-book evaluation then measures.

Responses come from a judged open-book run of this benchmark (by default only those judged
correct: rejection sampling), or from the tasks' reference solutions rewritten onto the
package (an offline teacher). Each line of the JSONL file is TRL's conversational format,
``{"messages": [user, assistant], "task_id", "setting", "source"}``; a manifest beside
it records the package key, setting, source and counts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.sebench.benchmark import (
    SEBench,
    load_verdicts,
    split_part,
    verdict_path,
)
from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.prompts import Condition, messages
from studybench.benchmarks.sebench.solutions import to_package
from studybench.benchmarks.sebench.tasks import SETask
from studybench.config import Settings
from studybench.errors import DataError
from studybench.fileio import write_atomic

Setting = Literal["open", "closed"]


class TrainingExample(BaseModel):
    messages: list[dict[str, str]]
    task_id: str
    setting: Setting
    source: str


def training_examples(
    tasks: Sequence[SETask],
    package: ObfuscatedPackage,
    responses: Mapping[str, Sequence[str]],
    setting: Setting,
    source: str,
) -> list[TrainingExample]:
    """One example per (task, response): the prompt of the setting, then the response."""
    condition: Condition = "open_book" if setting == "open" else "closed_book"
    out: list[TrainingExample] = []
    for task in tasks:
        for response in responses.get(task.id, ()):
            prompt = [m.model_dump() for m in messages(task, package, condition)]
            out.append(
                TrainingExample(
                    messages=[*prompt, {"role": "assistant", "content": response}],
                    task_id=task.id,
                    setting=setting,
                    source=source,
                )
            )
    return out


def reference_responses(
    tasks: Sequence[SETask], package: ObfuscatedPackage
) -> dict[str, list[str]]:
    """The tasks' reference solutions on ``package``, as a model would answer."""
    out: dict[str, list[str]] = {}
    for task in tasks:
        if task.solution:
            out[task.id] = [f"```python\n{to_package(task.solution, package)}\n```"]
    return out


def run_responses(
    plan: BenchmarkPlan, settings: Settings, only_correct: bool
) -> tuple[list[SETask], dict[str, list[str]]]:
    """Tasks and responses of the judged open-book parts of ``plan``."""
    from studybench.rollout.store import GenerationStore

    bench = SEBench()
    bench.check_protocol(plan, settings)
    tasks: list[SETask] = []
    responses: dict[str, list[str]] = {}
    run_key = f"{plan.model}@{plan.protocol_hash}"
    for part in plan.parts:
        if split_part(part)[0] != "open_book":
            continue
        tasks += bench.tasks(plan, part, settings)
        keep: set[tuple[str, int, int]] | None = None
        if only_correct:
            keep = set()
            for seed in plan.seeds:
                path = verdict_path(plan, part, seed)
                if not path.is_file():
                    raise DataError(f"{path}: part {part} seed {seed} is not judged yet")
                keep |= {(v.task_id, seed, v.attempt) for v in load_verdicts(path) if v.correct}
        store = GenerationStore(plan.part_dir(part) / "generations.sqlite")
        try:
            for record in store.latest(run_key).values():
                slot = (record.key.source_problem_id, record.seed, record.attempt)
                if keep is None or slot in keep:
                    responses.setdefault(slot[0], []).append(record.completion)
        finally:
            store.close()
    if not tasks:
        raise DataError(f"{plan.root}: the plan has no open_book part to take responses from")
    return tasks, responses


def write_dataset(
    examples: Sequence[TrainingExample], path: Path, package: ObfuscatedPackage
) -> Path:
    """The JSONL file and its ``.manifest.json``; returns the JSONL path."""
    lines = [e.model_dump_json() for e in examples]
    write_atomic(path, "".join(line + "\n" for line in lines))
    manifest = {
        "examples": len(examples),
        "tasks": len({e.task_id for e in examples}),
        "settings": sorted({e.setting for e in examples}),
        "sources": sorted({e.source for e in examples}),
        "package": package.name,
        "package_key": package.key,
    }
    write_atomic(path.with_suffix(".manifest.json"), json.dumps(manifest, indent=2))
    return path
