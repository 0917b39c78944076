"""Stage 6: is a problem reachable with its guidance? Ask the filter model and see.

The filter model answers every parent that has guidance, ``k`` attempts per seed, through the
normal rollout runner (the guidance injected exactly as at evaluation time) and the normal
two-stage judge. A slot is admitted when some attempt answers it correctly; a parent when
some attempt answers all of its slots (the Par@k sense). The run folder lives under
``paths.runs_dir`` (outside the DVC outputs), so a re-run resumes from the stored turns and
verdicts instead of generating again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.data.loaders import load_guidance, load_parents
from studybench.engines.base import SamplingParams
from studybench.errors import DataError
from studybench.fileio import write_atomic

ADMISSION = "admission.json"


def filter_model(settings: Settings) -> str:
    admit = settings.guidance.admit
    if admit.model:
        return admit.model
    if admit.engine != "hf":
        raise DataError("guidance.admit.model is empty: name the filter model for this engine")
    from studybench.guidance.teacher import demo_teacher_path

    return str(demo_teacher_path(settings))


def _judge(run_dir: Path, settings: Settings) -> None:
    """The evaluation's own two-stage judge (the LLM stage only when admission asks for it)."""
    from studybench.benchmarks.studybench.judging import judge_dir

    judge_dir(run_dir, settings, rule_only=not settings.guidance.admit.llm_judge)


def run_admit(
    settings: Settings,
    guidance_path: Path,
    out_path: Path,
    *,
    run_dir: Path | None = None,
    on_progress: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Evaluate the filter model with the guidance; write and return the admission report."""
    from studybench.benchmarks.studybench.items import join
    from studybench.engines.factory import run_on_engine
    from studybench.rollout.artefacts import MethodArtefacts
    from studybench.rollout.runner import Rollout, RolloutConfig

    admit = settings.guidance.admit
    protocol = settings.protocol
    parents = load_parents(guidance_path)
    try:
        index = {str(k): v for k, v in load_guidance(guidance_path).items()}
    except DataError:
        index = {}
    guided = [p for p in parents if any(str(s.key) in index for s in p.slots())]
    report: dict[str, Any] = {
        "guidance": str(guidance_path),
        "k": admit.k,
        "seeds": list(admit.seeds),
        "parents_with_guidance": len(guided),
        "slots_with_guidance": len(index),
        "admitted_parents": [],
        "admitted_slots": [],
    }
    if not guided:
        report.update(model="", note="no sub-problem has guidance: nothing to evaluate")
        write_atomic(out_path, json.dumps(report, indent=1) + "\n")
        return report
    model = filter_model(settings)
    folder = run_dir or settings.paths.runs_dir / "guidance-admit"
    config = RolloutConfig(
        model=model,
        k=admit.k,
        seeds=admit.seeds,
        sampling=SamplingParams.of(protocol, max_tokens=admit.max_new_tokens),
        language=protocol.language,
        concurrency=admit.concurrency,
    )
    artefacts = MethodArtefacts(
        system_prompt=protocol.system_prompt, guidance=index, guidance_source=str(guidance_path)
    )
    rollout = Rollout(guided, config, artefacts, folder, split="transfer-guided")
    try:
        summary = run_on_engine(
            admit.engine,
            model,
            settings,
            folder,
            lambda engine: rollout.run(engine, on_progress),
            base_url=admit.base_url or None,
            api_key_env=admit.api_key_env,
        )
        rollout.export_reference(folder / "generations.json")
    finally:
        rollout.close()
    _judge(folder, settings)

    correct: dict[tuple[str, str], bool] = defaultdict(bool)
    attempts: dict[tuple[str, int, int], dict[str, bool]] = defaultdict(dict)
    for judged in join(folder):  # the one items x verdicts join; no verdict is wrong
        item = judged.item
        correct[(item.parent, item.slot)] |= judged.correct
        attempts[(item.parent, item.seed, item.attempt)][item.slot] = judged.correct
    slots_of = {
        f"{p.source}/{p.year or '-'}/{p.source_problem_id}": [s.key.problem_id for s in p.slots()]
        for p in guided
    }
    admitted_parents = sorted(
        parent
        for parent, slots in slots_of.items()
        if any(
            all(outcome.get(s, False) for s in slots)
            for (p, _, _), outcome in attempts.items()
            if p == parent
        )
    )
    report.update(
        model=model,
        engine=admit.engine,
        run_dir=str(folder),
        turns=summary.turns,
        generation_errors=summary.errors,
        admitted_parents=admitted_parents,
        admitted_slots=sorted(f"{p}/{s}" for (p, s), ok in correct.items() if ok),
        parents_evaluated=len(guided),
        slots_evaluated=sum(len(s) for s in slots_of.values()),
    )
    write_atomic(out_path, json.dumps(report, indent=1) + "\n")
    return report
