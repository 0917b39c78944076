"""The evaluation commands: ``generate``, ``judge``, ``report`` and ``eval``.

``eval`` is one call of the composition (:func:`studybench.pipeline.compose.evaluate_model`:
plan, generate, judge, log, check) on any registered benchmark; this module only parses the
options and prints progress, the report and what tracking did. ``generate``, ``judge`` and
``report`` are StudyBench's single steps on one split folder. Each step resumes where it
stopped (the run folder holds the store and the verdicts), so a killed command is simply run
again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from studybench.cli.common import (
    AceOpt,
    EvoskillOpt,
    GepaIterationOpt,
    GepaOpt,
    GepaRolloutsOpt,
    GuidanceOpt,
    JsonOpt,
    ParamsOpt,
    artefact_spec,
    err,
    out,
    parse_seeds,
    say,
)
from studybench.cli.outcome import judged_line, print_evaluation, print_tracking, progress_bars
from studybench.config import Settings, load_settings

ModelOpt = Annotated[str, typer.Option(help="Checkpoint folder or served model name.")]
RunOutOpt = Annotated[Path, typer.Option("--out", help="Run folder (resumable).")]
EngineOpt = Annotated[str, typer.Option(help="vllm | openai | hf | anthropic | agent")]


def check_engine(engine: str) -> None:
    """An engine kind of the one vocabulary (``config.EngineKind``), else a usage error."""
    from typing import get_args

    from studybench.config import EngineKind

    kinds = get_args(EngineKind)
    if engine not in kinds:
        raise typer.BadParameter(f"engine must be one of {', '.join(kinds)}, got {engine!r}")


SplitOpt = Annotated[str, typer.Option(help="application | transfer | memorisation | a split file")]
SeedsOpt = Annotated[str | None, typer.Option(help="Sampling seeds, e.g. 0,1,2.")]
KOpt = Annotated[int | None, typer.Option(help="Attempts per parent and seed.")]
MaxNewOpt = Annotated[int | None, typer.Option(help="Cap on one completion (default: protocol).")]


def generate_command(
    model: ModelOpt,
    out_dir: RunOutOpt,
    engine: EngineOpt = "vllm",
    split: SplitOpt = "transfer",
    seeds: SeedsOpt = None,
    k: KOpt = None,
    start: Annotated[int, typer.Option(help="First parent index.")] = 0,
    end: Annotated[int | None, typer.Option(help="Parent index to stop before.")] = None,
    max_new_tokens: MaxNewOpt = None,
    concurrency: Annotated[int, typer.Option(help="Requests in flight at most.")] = 256,
    guidance: GuidanceOpt = None,
    ace: AceOpt = None,
    gepa: GepaOpt = None,
    gepa_iteration: GepaIterationOpt = None,
    gepa_rollouts: GepaRolloutsOpt = None,
    evoskill: EvoskillOpt = None,
    export: Annotated[
        bool, typer.Option(help="Also write generations.json in the reference layout.")
    ] = True,
    max_cost: Annotated[
        float | None,
        typer.Option(help="Agent backend: stop scheduling new runs once this many USD spent."),
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """Generate completions for a split under the StudyBench protocol (resumable)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from studybench.pipeline.compose import generate_split

    check_engine(engine)
    settings = load_settings(params)
    if max_cost is not None:  # the agent ledger's budget (agent.max_cost_usd), for this run
        agent = settings.agent.model_copy(update={"max_cost_usd": max_cost})
        settings = settings.model_copy(update={"agent": agent})
    spec = artefact_spec(guidance, ace, gepa, gepa_iteration, gepa_rollouts, evoskill)
    with Progress(
        TextColumn("[bold]generate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[detail]}"),
        console=err,
        transient=False,
    ) as bar:
        task = bar.add_task("turns", total=None, detail="")

        def show(p: Any) -> None:
            bar.update(
                task,
                total=p.turns_total,
                completed=p.turns_generated + p.turns_reused,
                detail=(
                    f"chains {p.chains_done}/{p.chains_total}  reused {p.turns_reused}  "
                    f"{p.tokens_per_s:,.0f} tok/s  errors {p.errors}"
                ),
            )

        summary = generate_split(
            model,
            engine,  # type: ignore[arg-type]
            settings,
            out_dir,
            split,
            k=k,
            seeds=parse_seeds(seeds, settings.protocol.seeds),
            start=start,
            end=end,
            max_new_tokens=max_new_tokens,
            concurrency=concurrency,
            artefacts=spec,
            export=export,
            on_progress=show,
        )
    say(
        f"{summary.chains} chain(s), {summary.turns} turn(s): {summary.generated} generated, "
        f"{summary.reused} reused, {summary.errors} error(s), {summary.completion_tokens:,} "
        f"tokens in {summary.wall_s:.1f} s; store {out_dir / 'generations.sqlite'}"
    )
    if summary.errors:
        say("failed turns are retried (with the turns after them) when you run this again")
    # too many failed turns (a wrong key, a dead endpoint) is an error, not a finished run
    from studybench.rollout.runner import check_failed_turns

    check_failed_turns(summary, settings.engine.max_failed_turn_share, what=split)


def split_dirs(run_dir: Path) -> list[Path]:
    """The StudyBench split folders ``run_dir`` names: every split of the target planned
    there (``eval --out DIR`` writes ``DIR/target.json`` and ``DIR/<split>/``), else the
    folder itself (one split, as ``generate --out`` writes it)."""
    from studybench.pipeline.target import STUDYBENCH, TARGET_FILE, Target

    if not (run_dir / TARGET_FILE).is_file():
        return [run_dir]
    plan = Target.load(run_dir).plans.get(STUDYBENCH)
    if plan is None:
        raise typer.BadParameter(
            f"{run_dir}: the target planned there has no StudyBench split (judge other "
            "benchmarks with `studybench task judge`)"
        )
    return [plan.part_dir(part) for part in plan.parts]


def _judge(run_dir: Path, settings: Any, *, rule_only: bool, rejudge_errors: bool) -> None:
    from rich.progress import Progress

    from studybench.benchmarks.studybench.judging import judge_dir

    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("LLM judge", total=None)
        summary = judge_dir(
            run_dir,
            settings,
            rule_only=rule_only,
            rejudge_errors=rejudge_errors,
            on_progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    say(judged_line(run_dir.name, [summary.model_dump()]))


def judge_command(
    run_dir: Annotated[
        Path, typer.Argument(help="Run folder with generations.json, or an eval --out folder.")
    ],
    rule_only: Annotated[bool, typer.Option(help="Rule verifier only, no LLM judge.")] = False,
    rejudge_errors: Annotated[
        bool, typer.Option(help="Only re-judge flagged verdicts (unparseable / judge errors).")
    ] = False,
    params: ParamsOpt = None,
) -> None:
    """Two-stage judging of a run (idempotent): rule verifier, then the LLM judge."""
    settings = load_settings(params)
    for folder in split_dirs(run_dir):
        _judge(folder, settings, rule_only=rule_only, rejudge_errors=rejudge_errors)


def print_report(run_dir: Path, threshold: float, k: int | None = None) -> None:
    """The report of one judged StudyBench split folder, as a table and lines."""
    from studybench.benchmarks.studybench.report import build_report

    report = build_report(run_dir, k=k, min_effect=threshold)
    s = report.scores
    table = Table(title=f"{report.model} on {report.split or run_dir}", title_justify="left")
    for column in ("split", f"Par@{s.k}", f"Sub@{s.k}", "seeds", "parents", "slots"):
        table.add_column(column, justify="right")
    table.add_row(
        report.split or "-",
        f"{100 * s.par_mean:.1f} ± {100 * s.par_std:.1f}",
        f"{100 * s.sub_mean:.1f} ± {100 * s.sub_std:.1f}",
        str(len(s.seeds)),
        str(s.parents),
        str(s.slots),
    )
    out.print(table)
    say(
        f"judge share {100 * report.judge_share:.1f}%: {report.rule_correct} correct by rule, "
        f"{report.judge_rescued} rescued by the LLM judge, {report.flagged} flagged, "
        f"{report.missing} without verdict"
    )
    for line in report.guidance_gap.lines() if report.guidance_gap else []:
        say(line)
    for line in [line for st in report.statistics for line in st.lines()]:
        say(line)
    for name, breakdown in s.breakdowns.items():
        metric = "sub" if name.startswith("slot:") else "par"
        parts = [f"{k} {100 * v[metric]:.0f}% (n={int(v['n'])})" for k, v in breakdown.items()]
        say(f"{metric} by {name.removeprefix('slot:')}: " + ", ".join(parts))


def report_command(
    run_dir: Annotated[Path, typer.Argument(help="Judged run folder, or an eval --out folder.")],
    as_json: JsonOpt = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="Markdown output.")] = False,
    k: Annotated[
        int | None,
        typer.Option(help="Dump without seed fields: score blocks of k attempts as runs."),
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """Par@k and Sub@k (mean ± std over seeds and a CI over parents), breakdowns, what the
    split can detect, truncated turns and the judge's share (one report per split)."""
    from studybench.benchmarks.studybench.report import build_report, markdown

    threshold = load_settings(params).tracking.regression_threshold
    for folder in split_dirs(run_dir):
        if as_json:
            out.print_json(build_report(folder, k=k, min_effect=threshold).model_dump_json())
        elif as_markdown:
            sys.stdout.write(markdown(build_report(folder, k=k, min_effect=threshold)))
        else:
            print_report(folder, threshold, k)


def eval_settings(
    settings: Settings,
    *,
    seeds: str | None,
    k: int | None,
    max_new_tokens: int | None,
    rule_only: bool,
) -> Settings:
    """The settings with the command's protocol options (every benchmark reads the
    protocol's seeds; StudyBench also its k and completion cap) and ``--rule-only``."""
    protocol = settings.protocol.model_copy(
        update={
            "seeds": parse_seeds(seeds, settings.protocol.seeds),
            "k": k or settings.protocol.k,
            "max_new_tokens": max_new_tokens or settings.protocol.max_new_tokens,
        }
    )
    judge = settings.judge.model_copy(
        update={"llm_enabled": settings.judge.llm_enabled and not rule_only}
    )
    return settings.model_copy(update={"protocol": protocol, "judge": judge})


def eval_command(
    model: ModelOpt,
    out_dir: RunOutOpt,
    engine: EngineOpt = "vllm",
    split: SplitOpt = "transfer",
    seeds: SeedsOpt = None,
    k: KOpt = None,
    max_new_tokens: MaxNewOpt = None,
    guidance: GuidanceOpt = None,
    ace: AceOpt = None,
    gepa: GepaOpt = None,
    gepa_iteration: GepaIterationOpt = None,
    gepa_rollouts: GepaRolloutsOpt = None,
    evoskill: EvoskillOpt = None,
    rule_only: Annotated[bool, typer.Option(help="Rule verifier only, no LLM judge.")] = False,
    benchmark: Annotated[
        str, typer.Option(help="A registered benchmark (studybench benchmarks list).")
    ] = "studybench",
    parts: Annotated[
        str | None,
        typer.Option(help="Other benchmarks: parts to run, e.g. zero_shot,feedback (default all)."),
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """Plan, generate, judge, report, log to MLflow (when tracking is on) and check, in one
    command; every step resumes where it stopped. The run folder holds ``target.json`` and
    one folder per split or part (``judge``/``report`` take the folder as is).

    ``--benchmark`` evaluates another registered benchmark (``--split`` and ``--k`` are
    StudyBench's; the others read their section of params.yaml)."""
    from studybench.cli.benchmarks import print_metrics
    from studybench.pipeline.compose import evaluate_model

    check_engine(engine)
    settings = eval_settings(
        load_settings(params), seeds=seeds, k=k, max_new_tokens=max_new_tokens, rule_only=rule_only
    )
    spec = artefact_spec(guidance, ace, gepa, gepa_iteration, gepa_rollouts, evoskill)
    chosen = [p.strip() for p in (parts or "").split(",") if p.strip()]
    with progress_bars() as show:
        target, outcome = evaluate_model(
            model,
            engine,  # type: ignore[arg-type]
            settings,
            out_dir,
            benchmark=benchmark,
            splits=[split],
            parts=chosen,
            artefacts=spec,
            on_progress=show,
        )
    print_evaluation(target, outcome, settings)
    for name, plan in target.plans.items():
        if name == "studybench":
            for part in plan.parts:
                print_report(plan.part_dir(part), settings.tracking.regression_threshold)
        else:
            print_metrics(name, plan, settings)
    print_tracking(outcome, settings)
