"""The paper-style report of a judged run: Par@k and Sub@k as mean ± std over seeds, with
breakdowns and the judge's share, as a table, JSON or markdown."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pydantic import BaseModel

from studybench.benchmarks.studybench.gap_file import saved_gap
from studybench.benchmarks.studybench.items import Judged, item_rows, join, slots_of
from studybench.judge.pipeline import manifest
from studybench.metrics.blocks import blocks_as_seeds
from studybench.metrics.comparison import CompareSettings
from studybench.metrics.guidance_gap import GuidanceGap
from studybench.metrics.passk import PassAtK, VerdictRow, score
from studybench.metrics.summary import SplitStatistics, split_statistics


class Report(BaseModel):
    run: str
    model: str
    split: str
    scores: PassAtK
    verdicts: int
    missing: int
    judge_share: float
    rule_correct: int
    judge_rescued: int
    judge_rejected: int
    flagged: int
    rule_only: int
    guidance_gap: GuidanceGap | None = None  # RUN/guidance_gap.json, when computed
    statistics: list[SplitStatistics] = []  # clustered CIs, power, truncation (metrics.summary)


def build_report(
    run_dir: Path,
    joined: list[Judged] | None = None,
    *,
    k: int | None = None,
    min_effect: float = 0.02,
) -> Report:
    """The report of a judged run folder (``joined``: its items × verdicts join, when the
    caller has it already). ``k``: a reference dump without seed fields is scored as
    consecutive blocks of ``k`` attempts, each an independent run (metrics.blocks)."""
    joined = join(run_dir) if joined is None else joined
    groups: dict[str, dict[str, str]] = {"source": {}, "problem_type": {}, "slot:answer_type": {}}
    rows: list[VerdictRow] = []
    for j in joined:
        item = j.item
        groups["source"][item.parent] = item.source
        groups["problem_type"][item.parent] = item.problem_type or "(none)"
        groups["slot:answer_type"][f"{item.parent}|{item.slot}"] = item.answer_type
        if j.verdict is not None:  # a missing verdict is counted as wrong by leaving it out
            rows.append(
                VerdictRow(
                    parent=item.parent,
                    slot=item.slot,
                    seed=item.seed,
                    attempt=item.attempt,
                    correct=j.correct,
                )
            )
    missing = sum(1 for j in joined if j.verdict is None)
    info = manifest(run_dir)
    config = info.get("config", {})
    items = item_rows(joined, str(info.get("split") or "all"))
    if k is not None:
        source = str(run_dir / "generations.json")
        rows, items = blocks_as_seeds(rows, k, source=source), blocks_as_seeds(items, k)
    k = k if k is not None else config.get("k")
    scores = score(rows, slots_of(joined), k=k, groups=groups)
    statistics = split_statistics(
        items, CompareSettings(min_effect=min_effect), k=k, slots_of=slots_of(joined)
    )
    verdicts = [j.verdict for j in joined if j.verdict is not None]
    stages = Counter((v.stage, v.rule_correct, v.final_correct, v.flagged) for v in verdicts)
    correct = sum(n for (stage, _, final, _), n in stages.items() if final)
    by_judge = sum(n for (stage, _, final, _), n in stages.items() if final and stage == "judge")
    return Report(
        run=str(run_dir),
        model=str(info.get("model", "")),
        split=str(info.get("split", "")),
        scores=scores,
        verdicts=len(verdicts),
        missing=missing,
        judge_share=by_judge / correct if correct else 0.0,
        rule_correct=sum(n for (stage, rule, _, _), n in stages.items() if rule),
        judge_rescued=by_judge,
        judge_rejected=sum(
            n
            for (stage, rule, final, flagged), n in stages.items()
            if stage == "judge" and not final and not flagged
        ),
        flagged=sum(n for (_, _, _, flagged), n in stages.items() if flagged),
        rule_only=sum(n for (stage, _, _, _), n in stages.items() if stage == "rule_only"),
        guidance_gap=saved_gap(run_dir),
        statistics=statistics,
    )


def _pm(mean: float, std: float) -> str:
    return f"{100 * mean:.1f} ± {100 * std:.1f}"


def markdown(report: Report) -> str:
    s = report.scores
    lines = [
        f"# {report.model or 'model'} on {report.split or report.run}",
        "",
        f"| split | Par@{s.k} | Sub@{s.k} | seeds | parents | slots |",
        "|---|---|---|---|---|---|",
        f"| {report.split or '-'} | {_pm(s.par_mean, s.par_std)} | {_pm(s.sub_mean, s.sub_std)} "
        f"| {len(s.seeds)} | {s.parents} | {s.slots} |",
        "",
        f"Judge: {report.verdicts} verdicts, {report.rule_correct} correct by rule, "
        f"{report.judge_rescued} rescued and {report.judge_rejected} rejected by the LLM judge, "
        f"{report.flagged} flagged, {report.rule_only} rule-only; judge share "
        f"{100 * report.judge_share:.1f}%; {report.missing} completion(s) without a verdict.",
    ]
    if s.par_unbiased is not None:
        lines.append(
            f"Unbiased pass@{s.k} over pooled attempts: Par {100 * s.par_unbiased:.1f} "
            f"(SE {100 * (s.par_unbiased_se or 0):.1f}), Sub {100 * (s.sub_unbiased or 0):.1f} "
            f"(SE {100 * (s.sub_unbiased_se or 0):.1f})."
        )
    for statistics in report.statistics:
        lines += ["", *statistics.lines()]
    if report.guidance_gap is not None:
        lines += ["", *report.guidance_gap.lines()]
    for name, table in s.breakdowns.items():
        lines += ["", f"## By {name.removeprefix('slot:').replace('_', ' ')}", ""]
        metric = "sub" if name.startswith("slot:") else "par"
        lines += [f"| {name.removeprefix('slot:')} | {metric} | n |", "|---|---|---|"]
        for label, values in table.items():
            lines.append(f"| {label} | {100 * values[metric]:.1f} | {int(values['n'])} |")
    return "\n".join(lines) + "\n"
