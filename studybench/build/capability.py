"""The capability filter: the filter model answers every pool parent, k attempts.

The filter model is asked exactly as an evaluation asks a model, through THE evaluation
composition (:mod:`studybench.pipeline.evaluate`: plan, generate, judge) on the pool file as
a split: the protocol's prompts and sampling (k, seeds and token cap from ``build.filter``),
one of the evaluation engines (a managed vLLM server or any OpenAI-compatible endpoint), and
the two-stage judge (rule verifier, then the LLM judge for what the rules rejected). A
parent is *solved* by an attempt when that attempt answers every sub-problem correctly
(the Par@k sense); it *fails* when no attempt does.

The run lives in a folder per pool under ``paths.runs_dir`` (outside the DVC outputs):
every finished turn and verdict is stored as it arrives, so a killed filter run keeps its
finished generations and a rerun asks only for what is missing; the stored run key includes
the model and the protocol, so another filter model never reuses them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.build.pools import parent_id
from studybench.config import GuidanceAdmitSettings, Settings
from studybench.data.loaders import load_parents
from studybench.errors import ConfigError
from studybench.guidance.admit import admission_settings


class ParentOutcome(BaseModel):
    """How one parent fared: attempts made, attempts that solved every sub-problem."""

    parent: str
    source: str
    problem_type: str
    slots: int
    attempts: int
    solved_attempts: int

    @property
    def failed(self) -> bool:
        return self.solved_attempts == 0


class FilterResult(BaseModel):
    """The filter run of one pool, with the filter model's identity."""

    pool: str
    model: str
    engine: str
    k: int
    seeds: list[int]
    protocol_hash: str
    run_dir: str
    generation_errors: int
    judge_flagged: int = 0  # unparseable judge replies and judge errors (counted wrong)
    outcomes: list[ParentOutcome]

    def by_id(self) -> dict[str, ParentOutcome]:
        return {o.parent: o for o in self.outcomes}


def filter_model_name(endpoint: GuidanceAdmitSettings) -> str:
    if not endpoint.model:
        raise ConfigError(
            "build.filter.model is empty: name the filter model (a checkpoint folder for engine "
            "vllm or hf, the served model name for engine openai)"
        )
    return endpoint.model


def run_filter(
    settings: Settings,
    pool_file: Path,
    pool: str,
    run_dir: Path,
    *,
    endpoint: GuidanceAdmitSettings | None = None,
    on_progress: Callable[[str, Any], None] | None = None,
) -> FilterResult:
    """Evaluate the filter model on ``pool_file`` through the evaluation composition (plan,
    generate, judge: resuming, idempotent) and count solved attempts per parent."""
    from studybench.benchmarks.studybench.items import join
    from studybench.benchmarks.studybench.splits import split_label
    from studybench.pipeline.evaluate import STUDYBENCH, generate, judge, plan_target

    endpoint = endpoint or settings.build.filter
    model = filter_model_name(endpoint)
    run_settings = admission_settings(settings, endpoint)
    target = plan_target(
        f"build-{pool}",
        model,
        endpoint.engine,
        run_settings,
        splits=[str(pool_file)],
        base_url=endpoint.base_url,
        api_key_env=endpoint.api_key_env,
        check_done=False,
        benchmarks=[STUDYBENCH],
        run_root=run_dir,
    )
    # generate() fails when a turn still failed after the retries: a failed request would
    # read as a failed parent and put a problem the filter model was never really asked
    # into the benchmark. The finished turns are stored; the rerun asks only for the rest.
    summary = generate(target, run_settings, on_progress=on_progress)
    label = split_label(str(pool_file))
    judged = judge(target, label, None, run_settings)
    folder = Path(target.plans[STUDYBENCH].part_dir(label))
    parents = load_parents(pool_file)

    attempts: dict[tuple[str, int, int], dict[str, bool]] = defaultdict(dict)
    for one in join(folder):  # the one items x verdicts join; no verdict is wrong
        item = one.item
        attempts[(item.parent, item.seed, item.attempt)][item.slot] = one.correct
    outcomes = []
    total = endpoint.k * len(endpoint.seeds)
    for parent in parents:
        key = parent_id(parent)
        slots = [s.key.problem_id for s in parent.slots()]
        solved = sum(
            1
            for seed in endpoint.seeds
            for attempt in range(endpoint.k)
            if all(attempts.get((key, seed, attempt), {}).get(s, False) for s in slots)
        )
        outcomes.append(
            ParentOutcome(
                parent=key,
                source=parent.source,
                problem_type=parent.problem_type,
                slots=len(slots),
                attempts=total,
                solved_attempts=solved,
            )
        )
    return FilterResult(
        pool=pool,
        model=model,
        engine=endpoint.engine,
        k=endpoint.k,
        seeds=list(endpoint.seeds),
        protocol_hash=target.plans[STUDYBENCH].protocol_hash,
        run_dir=str(folder),
        generation_errors=int(summary.get(label, {}).get("errors", 0)),
        judge_flagged=judged.flagged,
        outcomes=outcomes,
    )
