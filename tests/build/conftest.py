"""Fixtures of the build tests: settings writing under tmp, and a scripted filter model.

The scripted model (a loopback OpenAI-compatible endpoint) answers by plan: for each parent
``always`` (the gold, every attempt), ``once`` (the gold only in attempt 0 of the first seed,
recognised by the request's sampling seed, which the runner derives from seed, attempt, slot
and turn) or ``never``. That makes every branch of the build reachable with exact counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from studybench.build.pools import parent_id
from studybench.config import Settings, load_settings
from studybench.data.records import ParentProblem
from studybench.rollout.runner import request_seed
from tests.conftest import ROOT, SAMPLE
from tests.engines.fake_openai import fake_openai

Mode = Literal["always", "once", "never"]
WRONG = "I think so.\nFinal Answer: \\boxed{123456789}"


def build_settings(tmp_path: Path, **build: Any) -> Settings:
    """The project's params with the build reading the sample and writing under tmp; the
    LLM judge off unless a test turns it on (``judge=...``)."""
    base = load_settings(ROOT / "params.yaml", environ={})
    judge = base.judge.model_copy(update={"llm_enabled": False, **build.pop("judge", {})})
    filter_ = base.build.filter.model_copy(update=build.pop("filter", {}))
    admit = base.build.admit.model_copy(update=build.pop("admit", {}))
    work = tmp_path / "work"
    return base.model_copy(
        update={
            "build": base.build.model_copy(
                update={
                    "textbook_pool": SAMPLE / "application_problems.json",
                    "competition_pool": SAMPLE / "transfer_problems.json",
                    "guidance": SAMPLE / "guidance.json",
                    "books": SAMPLE / "books",
                    "instructions_without_answer": SAMPLE / "unverifiable_instr.json",
                    "out_dir": tmp_path / "out",
                    "filter": filter_,
                    "admit": admit,
                    **build,
                }
            ),
            "judge": judge,
            "paths": base.paths.model_copy(
                update={"work_dir": work, "runs_dir": work / "runs", "cache_dir": work / "cache"}
            ),
            "tracking": base.tracking.model_copy(update={"uri": ""}),
        }
    )


def planned_script(
    parents: Iterable[ParentProblem], plan: Mapping[str, Mode], k: int, seeds: tuple[int, ...]
) -> Any:
    """A fake_openai script answering each request by its parent's plan."""
    by_seed: dict[int, tuple[str, str, int, int]] = {}
    gold: dict[tuple[str, str], str] = {}
    for parent in parents:
        for turn, slot in enumerate(parent.slots()):
            gold[(parent_id(parent), slot.key.problem_id)] = slot.answer
            for seed in seeds:
                for attempt in range(k):
                    number = request_seed(seed, attempt, slot.key, turn)
                    by_seed[number] = (parent_id(parent), slot.key.problem_id, seed, attempt)

    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        found = by_seed.get(int(body.get("seed", -1)))
        if found is None:
            return 200, WRONG, 0.0
        parent, slot, seed, attempt = found
        mode = plan.get(parent, "never")
        right = mode == "always" or (mode == "once" and seed == seeds[0] and attempt == 0)
        return 200, (f"Worked.\nFinal Answer: {gold[(parent, slot)]}" if right else WRONG), 0.0

    return script


@contextmanager
def scripted_model(
    parents: Iterable[ParentProblem], plan: Mapping[str, Mode], k: int, seeds: tuple[int, ...]
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with fake_openai(planned_script(list(parents), plan, k, seeds)) as served:
        yield served
