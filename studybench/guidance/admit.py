"""Stage 6: is a problem reachable with its guidance? Ask the filter model and see.

The filter model answers every parent that has guidance, ``k`` attempts per seed, evaluated
by the composition (:mod:`studybench.pipeline.compose`: planned with the guidance as method
artefact, generated and judged as any evaluation is). A slot is admitted when some attempt
answers it correctly; a parent when some attempt answers all of its slots (the Par@k sense).
The run folder lives under ``paths.runs_dir`` (outside the DVC outputs), so a re-run resumes
from the stored turns and verdicts instead of generating again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studybench.config import GuidanceAdmitSettings, Settings
from studybench.data.loaders import load_guidance, load_parents
from studybench.errors import DataError
from studybench.fileio import write_atomic

ADMISSION = "admission.json"
SPLIT = "transfer-guided"
"""The split label of the guided parents (the stem of the split file written for them)."""


def filter_model(settings: Settings) -> str:
    admit = settings.guidance.admit
    if admit.model:
        return admit.model
    if admit.engine != "hf":
        raise DataError("guidance.admit.model is empty: name the filter model for this engine")
    from studybench.guidance.teacher import demo_teacher_path

    return str(demo_teacher_path(settings))


def admission_settings(
    settings: Settings, endpoint: GuidanceAdmitSettings | None = None
) -> Settings:
    """The settings an admission (or the build's capability filter) is evaluated under: the
    endpoint's k, seeds and completion cap as the protocol, its concurrency, retries and
    timeout for the engine it is served by (not the evaluation engine's section), and the LLM
    judge stage only when the endpoint asks for it. ``endpoint`` defaults to
    ``guidance.admit``."""
    admit = endpoint or settings.guidance.admit
    protocol = settings.protocol.model_copy(
        update={
            "k": admit.k,
            "seeds": admit.seeds,
            "max_new_tokens": admit.max_new_tokens or settings.protocol.max_new_tokens,
        }
    )
    engine = settings.engine.model_copy(
        update={
            "concurrency": admit.concurrency,
            "max_retries": admit.max_retries,
            "request_timeout_s": admit.request_timeout_s,
        }
    )
    judge = settings.judge.model_copy(
        update={"llm_enabled": settings.judge.llm_enabled and admit.llm_judge}
    )
    return settings.model_copy(update={"protocol": protocol, "engine": engine, "judge": judge})


def run_admit(
    settings: Settings,
    guidance_path: Path,
    out_path: Path,
    *,
    run_dir: Path | None = None,
    on_progress: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """Evaluate the filter model with the guidance; write and return the admission report.

    The guided parents are written to ``<run folder>/transfer-guided.json`` and evaluated as
    a target of the composition (planned with the guidance as its method artefact, generated
    through the one engine context, judged by the evaluation's judge), so admission sees
    exactly what an evaluation with that guidance sees."""
    from studybench.benchmarks.studybench.items import join
    from studybench.config import MethodArtefactSpec
    from studybench.pipeline.compose import judge_all, plan_target
    from studybench.pipeline.run import generate

    admit = settings.guidance.admit
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
    folder = (run_dir or settings.paths.runs_dir / "guidance-admit").resolve()
    split = folder / f"{SPLIT}.json"
    payload = {"data": [p.model_dump(mode="json", by_alias=True) for p in guided]}
    write_atomic(split, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
    evaluation = admission_settings(settings)
    target = plan_target(
        "guidance-admit",
        model,
        admit.engine,
        evaluation,
        splits=[str(split)],
        base_url=admit.base_url,
        api_key_env=admit.api_key_env,
        check_done=False,
        benchmarks=["studybench"],
        artefacts=MethodArtefactSpec(guidance=str(guidance_path)),
        run_root=folder,
    )
    report_progress = None if on_progress is None else (lambda _part, p: on_progress(p))
    generated = generate(
        target,
        evaluation,
        on_progress=report_progress,
        max_failed_share=evaluation.engine.max_failed_turn_share,
    )
    judge_all(target, evaluation)
    summary = generated[SPLIT]
    split_dir = target.plans["studybench"].part_dir(SPLIT)

    correct: dict[tuple[str, str], bool] = defaultdict(bool)
    attempts: dict[tuple[str, int, int], dict[str, bool]] = defaultdict(dict)
    for judged in join(split_dir):  # the one items x verdicts join; no verdict is wrong
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
        run_dir=str(split_dir),
        turns=summary["turns"],
        generation_errors=summary["errors"],
        admitted_parents=admitted_parents,
        admitted_slots=sorted(f"{p}/{s}" for (p, s), ok in correct.items() if ok),
        parents_evaluated=len(guided),
        slots_evaluated=sum(len(s) for s in slots_of.values()),
    )
    write_atomic(out_path, json.dumps(report, indent=1) + "\n")
    return report
