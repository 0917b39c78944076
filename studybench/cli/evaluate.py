"""The StudyBench evaluation commands: ``generate``, ``judge``, ``report`` and ``eval``.

Each step resumes where it stopped (the run folder holds the store and the verdicts), so a
killed command is simply run again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from studybench.cli.common import JsonOpt, ParamsOpt, err, note, out, parse_seeds, say
from studybench.config import load_settings

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
GuidanceOpt = Annotated[Path | None, typer.Option(help="Guidance JSON to inject.")]


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
    ace: Annotated[Path | None, typer.Option(help="ACE playbook.")] = None,
    gepa: Annotated[Path | None, typer.Option(help="GEPA prompt history (JSONL) or text.")] = None,
    gepa_iteration: Annotated[int | None, typer.Option(help="GEPA row: iteration <= N.")] = None,
    gepa_rollouts: Annotated[int | None, typer.Option(help="GEPA row: rollouts <= N.")] = None,
    evoskill: Annotated[Path | None, typer.Option(help="EvoSkill skills file.")] = None,
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

    from studybench.config import MethodArtefactSpec
    from studybench.pipeline.compose import generate_split

    check_engine(engine)
    settings = load_settings(params)
    if max_cost is not None:  # the agent ledger's budget (agent.max_cost_usd), for this run
        agent = settings.agent.model_copy(update={"max_cost_usd": max_cost})
        settings = settings.model_copy(update={"agent": agent})
    spec = MethodArtefactSpec(
        guidance=str(guidance or ""),
        ace=str(ace or ""),
        gepa=str(gepa or ""),
        gepa_iteration=gepa_iteration,
        gepa_rollouts=gepa_rollouts,
        evoskill=str(evoskill or ""),
    )
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
    say(
        f"{summary.items} completion(s): {summary.reused} verdict(s) reused, "
        f"{summary.rule_judged} verified by rule, {summary.llm_calls} LLM judge call(s) "
        f"({summary.llm_cached} cached), {summary.flagged} flagged for the next run; "
        f"{summary.wall_s:.1f} s"
    )


def judge_command(
    run_dir: Annotated[Path, typer.Argument(help="Run folder with generations.json.")],
    rule_only: Annotated[bool, typer.Option(help="Rule verifier only, no LLM judge.")] = False,
    rejudge_errors: Annotated[
        bool, typer.Option(help="Only re-judge flagged verdicts (unparseable / judge errors).")
    ] = False,
    params: ParamsOpt = None,
) -> None:
    """Two-stage judging of a run (idempotent): rule verifier, then the LLM judge."""
    _judge(run_dir, load_settings(params), rule_only=rule_only, rejudge_errors=rejudge_errors)


def report_command(
    run_dir: Annotated[Path, typer.Argument(help="Judged run folder.")],
    as_json: JsonOpt = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="Markdown output.")] = False,
    k: Annotated[
        int | None,
        typer.Option(help="Dump without seed fields: score blocks of k attempts as runs."),
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """Par@k and Sub@k (mean ± std over seeds and a CI over parents), breakdowns, what the
    split can detect, truncated turns and the judge's share."""
    from studybench.benchmarks.studybench.report import build_report, markdown

    threshold = load_settings(params).tracking.regression_threshold
    report = build_report(run_dir, k=k, min_effect=threshold)
    if as_json:
        out.print_json(report.model_dump_json())
    elif as_markdown:
        sys.stdout.write(markdown(report))
    else:
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


def eval_command(
    model: ModelOpt,
    out_dir: RunOutOpt,
    engine: EngineOpt = "vllm",
    split: SplitOpt = "transfer",
    seeds: SeedsOpt = None,
    k: KOpt = None,
    max_new_tokens: MaxNewOpt = None,
    guidance: GuidanceOpt = None,
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
    """generate + judge + report in one command; every step resumes where it stopped.

    ``--benchmark`` evaluates another registered benchmark (``--split``, ``--k`` and
    ``--guidance`` are StudyBench's; the others read their section of params.yaml)."""
    if benchmark != "studybench":
        from studybench.benchmarks.registry import get_benchmark
        from studybench.cli.benchmarks import evaluate

        check_engine(engine)
        get_benchmark(benchmark)  # an unknown name fails before anything starts
        settings = load_settings(params)
        if seeds is not None:
            protocol = settings.protocol.model_copy(
                update={"seeds": parse_seeds(seeds, settings.protocol.seeds)}
            )
            settings = settings.model_copy(update={"protocol": protocol})
        if rule_only:
            settings = settings.model_copy(
                update={"judge": settings.judge.model_copy(update={"llm_enabled": False})}
            )
        chosen = [p.strip() for p in (parts or "").split(",") if p.strip()]
        evaluate(benchmark, model, out_dir, engine, settings, chosen)
        return
    generate_command(
        model=model,
        out_dir=out_dir,
        engine=engine,
        split=split,
        seeds=seeds,
        k=k,
        max_new_tokens=max_new_tokens,
        guidance=guidance,
        params=params,
    )
    settings = load_settings(params)
    _judge(out_dir, settings, rule_only=rule_only, rejudge_errors=False)
    report_command(out_dir, params=params)
    if settings.tracking.enabled:
        from studybench.cli.tracking import track_runs
        from studybench.tracking.mlflow_log import Checkpoint, TrackingError

        checkpoint = Checkpoint(path=model if Path(model).is_dir() else None)
        try:
            track_runs([out_dir], settings, checkpoint)
        except TrackingError as exc:
            note(f"warning: {exc}")
