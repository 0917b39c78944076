"""The registered EvaLearn benchmark: plan, generate, judge, metrics, per-item rows and
artefacts, over the paradigms (parts) of :mod:`.prompts`.

MLflow keys, per paradigm ``P`` (means over seeds, ``_std`` their standard deviation):

* ``evalearn/P/acc_mean``, ``slope_mean``, ``longest_streak_mean``,
  ``post_warmup_acc_mean`` (+ ``_std``): higher is better, so regression checks compare them;
* ``evalearn/P/first_correct`` and ``evalearn/P/learned_offset`` (O_learned; + ``_sd``):
  positions, lower is better, kept out of the regression check's ``_mean`` keys;
* ``evalearn/P/position/<i>/acc``: the per-position accuracy curve;
* ``evalearn/P/type/<type>/acc`` (and ``slope``, ``first_correct``, ``longest_streak``,
  ``post_warmup_acc``, ``learned_offset``: 0 where the type has no eligible sequence).

O_learned needs the zero-shot part of the same plan: Z is the set of problems the zero-shot
run of the same seed solved anywhere. A position without a verdict counts as wrong.
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
from studybench.benchmarks.evalearn.release import load_checked
from studybench.benchmarks.evalearn.runner import (
    SequenceRunner,
    judge_seed,
    load_verdicts,
    stored_answers,
)
from studybench.benchmarks.registry import register
from studybench.config import Settings
from studybench.engines.base import Engine, SamplingParams
from studybench.errors import ConfigError
from studybench.metrics.items import ItemRow
from studybench.metrics.sequential import SequenceOutcome, sequential_metrics, solved_ids
from studybench.tracking.records import SeedValues
from studybench.verify.extract import strip_think


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "type"


def sampling_of(settings: Settings) -> SamplingParams:
    return protocol_sampling(settings, settings.evalearn.max_new_tokens)


def open_judge(settings: Settings) -> tuple[RubricJudge, Any]:
    """The rubric judge of the settings (the ``judge`` section's endpoint; rule-only when the
    LLM judge is disabled) and its cache (close it after use)."""
    from studybench.judge.cache import ReplyCache
    from studybench.judge.llm import judge_engine

    js = settings.judge
    engine = None
    cache = None
    if js.llm_enabled:
        cache = ReplyCache(settings.paths.cache_dir / "evalearn_judge_cache.sqlite")
        engine = judge_engine(js)
    s = settings.evalearn
    judge = RubricJudge(
        engine,
        js.model,
        language=s.rubric_language,
        cache=cache,
        max_tokens=s.judge_max_tokens,
        temperature=s.judge_temperature,
        rule_stage=s.rule_stage,
    )
    return judge, cache


async def _close(judge: RubricJudge, cache: Any) -> None:
    if judge.engine is not None:
        await judge.engine.aclose()
    if cache is not None:
        cache.close()


def outcomes_of(release: EvaLearnRelease, part_dir: Path, seed: int) -> list[SequenceOutcome]:
    """Every sequence's outcomes from a judged seed, in the release's order; a position
    without a verdict is ``None`` (the metrics count it as 0, as the reference)."""
    verdicts = {(v.sequence_id, v.position): v.correct for v in load_verdicts(part_dir, seed)}
    out = []
    for sequence in release.sequences:
        vector = tuple(
            None if (found := verdicts.get((sequence.sequence_id, i))) is None else int(found)
            for i in range(1, len(sequence.question_ids) + 1)
        )
        out.append(SequenceOutcome(sequence.type, vector, sequence.question_ids))
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
        s = settings.evalearn
        # bad files (and a "full release" that is not) fail here, before an engine starts
        load_checked(s.problems, s.sequences, expect_full=s.full_release)
        payload = {
            "prompts": prompt_texts(),
            "judge": [
                JUDGE_VERSION,
                settings.judge.model,
                settings.judge.llm_enabled,
                s.judge_temperature,
                s.judge_max_tokens,
                s.rule_stage,
            ],
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
            language=settings.evalearn.rubric_language,
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
        problems = max(len(s.question_ids) for s in release.sequences)
        out: dict[str, list[dict[str, Any]]] = {}
        for part in plan.parts:
            rows = []
            for seed in plan.seeds:
                solved = None
                if "zero_shot" in plan.parts:
                    solved = solved_ids(outcomes_of(release, plan.part_dir("zero_shot"), seed))
                m = sequential_metrics(
                    outcomes_of(release, plan.part_dir(part), seed),
                    warmup=warmup,
                    problems=problems,
                    zero_shot_solved=solved,
                )
                rows.append({"seed": seed, **m.model_dump()})
            out[part] = rows
        return out

    def metrics(self, plan: BenchmarkPlan, settings: Settings) -> dict[str, float]:
        out: dict[str, float] = {}
        for part, rows in self.seed_metrics(plan, settings).items():
            prefix = f"{self.name}/{part}"
            for key in ("acc", "slope", "longest_streak", "post_warmup_acc"):
                values = [r[key] for r in rows]
                out[f"{prefix}/{key}_mean"], out[f"{prefix}/{key}_std"] = _mean_std(values)
            for key in ("first_correct", "learned_offset"):
                values = [r[key] for r in rows if r.get(key) is not None]
                if values:
                    out[f"{prefix}/{key}"], out[f"{prefix}/{key}_sd"] = _mean_std(values)
            length = max(len(r["curve"]) for r in rows)
            for i in range(length):
                column = [r["curve"][i] for r in rows if len(r["curve"]) > i]
                out[f"{prefix}/position/{i + 1}/acc"] = statistics.fmean(column)
            types = sorted({t for r in rows for t in r["per_type"]})
            keys = (
                "acc", "slope", "first_correct", "longest_streak", "post_warmup_acc",
                "learned_offset",
            )  # fmt: skip
            for name in types:
                of_type = [r["per_type"][name] for r in rows if name in r["per_type"]]
                for key in keys:
                    values = [t[key] for t in of_type if key in t]
                    if key == "learned_offset" and values:  # seeds with data; 0 if none has
                        values = [t[key] for t in of_type if t["learned_sequences"]] or [0.0]
                    if values:
                        out[f"{prefix}/type/{_slug(name)}/{key}"] = statistics.fmean(values)
        return out

    def items(self, plan: BenchmarkPlan, settings: Settings) -> list[ItemRow]:
        """One row per judged (part, sequence, position, seed): the sequence is the parent,
        the 1-based position the slot, the task type the answer type. A position without a
        verdict has no row (the metrics count it as wrong)."""
        run_key = f"{plan.model}@{plan.protocol_hash}"
        rows: list[ItemRow] = []
        for part in plan.parts:
            turns = stored_answers(plan.part_dir(part), run_key)
            for seed in plan.seeds:
                for v in load_verdicts(plan.part_dir(part), seed):
                    turn = turns.get((v.sequence_id, v.question_id, seed, v.position - 1))
                    truncated = turn is not None and (
                        turn.finish_reason == "length" or strip_think(turn.completion)[1]
                    )
                    rows.append(
                        ItemRow(
                            benchmark=self.name,
                            split=part,
                            parent=v.sequence_id,
                            slot=str(v.position),
                            seed=seed,
                            attempt=0,
                            correct=v.correct,
                            stage=v.stage,
                            answer_type=v.type,
                            truncated=truncated,
                        )
                    )
        return rows

    def per_seed(
        self, plan: BenchmarkPlan, settings: Settings, metrics: dict[str, float]
    ) -> list[SeedValues]:
        """The headline values of every (part, seed), before the mean over seeds."""
        out = []
        for part, rows in self.seed_metrics(plan, settings).items():
            for row in rows:
                keys = ("acc", "slope", "first_correct", "longest_streak", "post_warmup_acc")
                values = {f"{part}/{k}": float(row[k]) for k in keys}
                if row["learned_offset"] is not None:
                    values[f"{part}/learned_offset"] = float(row["learned_offset"])
                out.append(SeedValues(part=part, seed=row["seed"], metrics=values))
        return out

    def expected_metrics(self, plan: BenchmarkPlan) -> list[str]:
        return [f"{self.name}/{part}/acc_{stat}" for part in plan.parts for stat in ("mean", "std")]

    def headline(self, plan: BenchmarkPlan, metrics: dict[str, float]) -> list[str]:
        """The score pairs, plus the two position metrics (first correct, learning offset)."""
        positions = ("/first_correct", "/learned_offset")
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
