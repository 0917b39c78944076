"""EvaLearn (NeurIPS 2025): does the model get better along a sequence of same-type problems?

Sequences of 7 problems of one task type (summarisation, classification, extraction,
logical, mathematical and sequential reasoning) are solved in order under four paradigms
(parts): ``zero_shot``, ``few_shot``, ``demonstration`` and ``feedback``
(:mod:`.prompts`). Answers are graded 0/1 against each problem's rubric (:mod:`.judge`),
and the sequential metrics (:mod:`studybench.metrics.sequential`) say how accuracy moves
with the position in the sequence.

MLflow keys, per paradigm ``P`` (means over seeds, ``_std`` their standard deviation):

* ``evalearn/P/acc_mean``, ``slope_mean``, ``longest_streak_mean``,
  ``post_warmup_acc_mean`` (+ ``_std``): higher is better, so regression checks compare them;
* ``evalearn/P/first_correct`` and ``evalearn/P/learning_offset`` (+ ``_sd``): positions,
  lower is better, kept out of the regression check's ``_mean`` keys;
* ``evalearn/P/position/<i>/acc``: the per-position accuracy curve;
* ``evalearn/P/type/<type>/acc`` (and ``slope``, ``first_correct``, ``learning_offset``).

The learning offset needs the zero-shot part of the same plan (it is measured from the
first problem the zero-shot run failed).
"""

from __future__ import annotations

import asyncio
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from studybench.benchmarks.base import (
    Benchmark,
    BenchmarkPlan,
    ProgressCallback,
    protocol_sampling,
    stable_hash,
)
from studybench.benchmarks.evalearn.judge import JUDGE_VERSION, RubricJudge
from studybench.benchmarks.evalearn.prompts import PARADIGMS, Paradigm, prompt_texts
from studybench.benchmarks.evalearn.records import EvaLearnRelease, load_release
from studybench.benchmarks.evalearn.runner import SequenceRunner, judge_seed, load_verdicts
from studybench.benchmarks.registry import register
from studybench.config import Settings
from studybench.engines.base import Engine, SamplingParams
from studybench.errors import ConfigError
from studybench.metrics.sequential import mean_learning_offset, sequential_metrics

Outcomes = dict[str, list[list[int]]]  # task type -> outcome vectors, in sequence order


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "type"


def sampling_of(settings: Settings) -> SamplingParams:
    return protocol_sampling(settings, settings.evalearn.max_new_tokens)


def open_judge(settings: Settings) -> tuple[RubricJudge, Any]:
    """The rubric judge of the settings (the ``judge`` section's endpoint; rule-only when the
    LLM judge is disabled) and its cache (close it after use)."""
    from studybench.judge.llm import JudgeCache, judge_engine

    js = settings.judge
    engine = None
    cache = None
    if js.llm_enabled:
        cache = JudgeCache(settings.paths.cache_dir / "evalearn_judge_cache.sqlite")
        engine = judge_engine(js)
    judge = RubricJudge(
        engine,
        js.model,
        language=settings.evalearn.rubric_language,
        cache=cache,
        max_tokens=settings.evalearn.judge_max_tokens,
    )
    return judge, cache


async def _close(judge: RubricJudge, cache: Any) -> None:
    if judge.engine is not None:
        await judge.engine.aclose()
    if cache is not None:
        cache.close()


def outcomes_of(release: EvaLearnRelease, part_dir: Path, seed: int) -> Outcomes:
    """0/1 outcome vectors per task type from a judged seed, in the release's order."""
    verdicts = {(v.sequence_id, v.position): v.correct for v in load_verdicts(part_dir, seed)}
    out: Outcomes = {}
    for sequence in release.sequences:
        vector = [
            int(verdicts.get((sequence.sequence_id, i), False))
            for i in range(1, len(sequence.question_ids) + 1)
        ]
        out.setdefault(sequence.type, []).append(vector)
    return out


def _mean_std(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, statistics.stdev(values) if len(values) > 1 else 0.0


@register
class EvaLearn(Benchmark):
    """EvaLearn: sequential learning from demonstrations and feedback."""

    name = "evalearn"
    title = "EvaLearn (sequential problem solving: learning along a sequence)"

    def default_parts(self, settings: Settings) -> tuple[str, ...]:
        return tuple(settings.evalearn.paradigms)

    def release(self, plan_or_settings: BenchmarkPlan | Settings) -> EvaLearnRelease:
        if isinstance(plan_or_settings, BenchmarkPlan):
            files = plan_or_settings.files
            return load_release(files["problems"], files["sequences"])
        s = plan_or_settings.evalearn
        return load_release(s.problems, s.sequences)

    def plan(
        self, parts: Sequence[str], model: str, settings: Settings, root: Path
    ) -> BenchmarkPlan:
        unknown = [p for p in parts if p not in PARADIGMS]
        if unknown:
            raise ConfigError(
                f"evalearn: unknown paradigm(s) {', '.join(unknown)}; known: {', '.join(PARADIGMS)}"
            )
        self.release(settings)  # bad files fail here, before an engine starts
        s = settings.evalearn
        payload = {
            "prompts": prompt_texts(),
            "judge": [JUDGE_VERSION, settings.judge.model, settings.judge.llm_enabled],
            "sampling": sampling_of(settings).model_dump(exclude={"seed"}),
            "seeds": list(settings.protocol.seeds),
            "few_shot": [s.few_shot_examples, s.few_shot_seed],
            "language": s.rubric_language,
        }
        return BenchmarkPlan(
            benchmark=self.name,
            parts=tuple(parts),
            files={"problems": str(s.problems.resolve()), "sequences": str(s.sequences.resolve())},
            seeds=tuple(settings.protocol.seeds),
            protocol_hash=stable_hash(payload),
            root=str(root),
            model=model,
        )

    def _runner(
        self, plan: BenchmarkPlan, release: EvaLearnRelease, part: str, settings: Settings
    ) -> SequenceRunner:
        return SequenceRunner(
            release,
            cast(Paradigm, part),
            plan.part_dir(part),
            run_key=f"{plan.model}@{plan.protocol_hash}",
            sampling=sampling_of(settings),
            seeds=plan.seeds,
            few_shot=settings.evalearn.few_shot_examples,
            few_shot_seed=settings.evalearn.few_shot_seed,
            concurrency=settings.engine.concurrency,
        )

    async def generate(
        self,
        plan: BenchmarkPlan,
        engine: Engine,
        settings: Settings,
        on_progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        release = self.release(plan)
        judge, cache = open_judge(settings)

        def reporter(part: str) -> Any:
            if on_progress is None:
                return None
            callback = on_progress
            return lambda progress: callback(part, progress)

        try:
            summaries = await asyncio.gather(
                *(
                    self._runner(plan, release, part, settings).run(engine, judge, reporter(part))
                    for part in plan.parts
                )
            )
        finally:
            await _close(judge, cache)
        return {s.paradigm: s.model_dump() for s in summaries}

    def judge(
        self, plan: BenchmarkPlan, part: str, seed: int, settings: Settings
    ) -> dict[str, Any]:
        release = self.release(plan)

        async def go() -> dict[str, Any]:
            judge, cache = open_judge(settings)
            try:
                return await judge_seed(
                    release, plan.part_dir(part), f"{plan.model}@{plan.protocol_hash}", seed, judge
                )
            finally:
                await _close(judge, cache)

        return asyncio.run(go())

    def check(self, plan: BenchmarkPlan) -> str:
        missing = [
            f"{part} seed {seed}"
            for part, seed in plan.units()
            if not (plan.part_dir(part) / f"verdicts-seed{seed}.jsonl").exists()
        ]
        return f"not judged: {', '.join(missing)}" if missing else ""

    def seed_metrics(
        self, plan: BenchmarkPlan, settings: Settings
    ) -> dict[str, list[dict[str, Any]]]:
        """Per part, one dict of sequence metrics per seed (the values before averaging)."""
        release = self.release(plan)
        warmup = settings.evalearn.warmup
        out: dict[str, list[dict[str, Any]]] = {}
        for part in plan.parts:
            rows = []
            for seed in plan.seeds:
                outcomes = outcomes_of(release, plan.part_dir(part), seed)
                m = sequential_metrics(outcomes, warmup=warmup)
                row: dict[str, Any] = {
                    "seed": seed,
                    "acc": m.acc,
                    "slope": m.slope,
                    "first_correct": m.first_correct,
                    "longest_streak": m.longest_streak,
                    "post_warmup_acc": m.post_warmup_acc,
                    "curve": m.curve,
                    "per_type": m.per_type,
                }
                if "zero_shot" in plan.parts:
                    reference = outcomes_of(release, plan.part_dir("zero_shot"), seed)
                    offset, per_type = mean_learning_offset(reference, outcomes)
                    row["learning_offset"] = offset
                    for name, value in per_type.items():
                        row["per_type"].setdefault(name, {})["learning_offset"] = value
                rows.append(row)
            out[part] = rows
        return out

    def metrics(self, plan: BenchmarkPlan, settings: Settings) -> dict[str, float]:
        out: dict[str, float] = {}
        for part, rows in self.seed_metrics(plan, settings).items():
            prefix = f"{self.name}/{part}"
            for key in ("acc", "slope", "longest_streak", "post_warmup_acc"):
                values = [r[key] for r in rows if r[key] is not None]
                if values:
                    out[f"{prefix}/{key}_mean"], out[f"{prefix}/{key}_std"] = _mean_std(values)
            for key in ("first_correct", "learning_offset"):
                values = [r[key] for r in rows if r.get(key) is not None]
                if values:
                    out[f"{prefix}/{key}"], out[f"{prefix}/{key}_sd"] = _mean_std(values)
            length = max(len(r["curve"]) for r in rows)
            for i in range(length):
                column = [r["curve"][i] for r in rows if len(r["curve"]) > i]
                out[f"{prefix}/position/{i + 1}/acc"] = statistics.fmean(column)
            types = sorted({t for r in rows for t in r["per_type"]})
            for name in types:
                for key in ("acc", "slope", "first_correct", "learning_offset"):
                    values = [
                        r["per_type"][name][key] for r in rows if key in r["per_type"].get(name, {})
                    ]
                    if values:
                        out[f"{prefix}/type/{_slug(name)}/{key}"] = statistics.fmean(values)
        return out

    def expected_metrics(self, plan: BenchmarkPlan) -> list[str]:
        return [f"{self.name}/{part}/acc_{stat}" for part in plan.parts for stat in ("mean", "std")]

    def headline(self, plan: BenchmarkPlan, metrics: dict[str, float]) -> list[str]:
        """The score pairs, plus the two position metrics (first correct, learning offset)."""
        positions = ("/first_correct", "/learning_offset")
        return [
            k
            for k in metrics
            if k.count("/") == 2 and (k.endswith(("_mean", "_std")) or k.endswith(positions))
        ]

    def write_artefacts(self, plan: BenchmarkPlan, out_dir: Path, settings: Settings) -> None:
        """``report.json`` (per-seed metrics), every part's verdicts, and
        ``position_curve.png`` (accuracy by position, one line per paradigm)."""
        import json
        import shutil

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        per_seed = self.seed_metrics(plan, settings)
        (out_dir / "report.json").write_text(json.dumps(per_seed, indent=1))
        for part in plan.parts:
            for seed in plan.seeds:
                source = plan.part_dir(part) / f"verdicts-seed{seed}.jsonl"
                (out_dir / part).mkdir(exist_ok=True)
                shutil.copyfile(source, out_dir / part / source.name)
        figure, axes = plt.subplots(figsize=(5.5, 3.4))
        for part, rows in per_seed.items():
            length = max(len(r["curve"]) for r in rows)
            curve = [
                statistics.fmean(r["curve"][i] for r in rows if len(r["curve"]) > i)
                for i in range(length)
            ]
            axes.plot(range(1, length + 1), curve, marker="o", label=part)
        axes.set_xlabel("position in sequence")
        axes.set_ylabel("accuracy")
        axes.set_ylim(-0.02, 1.02)
        axes.set_title(f"EvaLearn: accuracy by position ({len(plan.seeds)} seed(s))")
        axes.legend(fontsize=7)
        figure.tight_layout()
        figure.savefig(out_dir / "position_curve.png", dpi=100)
        plt.close(figure)
