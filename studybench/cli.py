"""The ``studybench`` command line. Every DAG task is also a command here.

Commands print human-readable tables by default and JSON with ``--json``; errors go to
stderr and set a non-zero exit code, so the commands compose in shell pipelines and DVC.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.console import Console
from rich.table import Table

from studybench.cli_benchmarks import benchmarks_app as _benchmarks_app
from studybench.config import load_settings
from studybench.data.stats import FileStats, SplitStats, file_stats, split_stats
from studybench.data.validate import FileKind, LoadedFile, Severity, validate_file
from studybench.errors import DataError, StudyBenchError

app = typer.Typer(
    name="studybench",
    help="Continuous benchmarking of self-evolving language models on StudyBench.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
data_app = typer.Typer(help="Inspect and validate StudyBench release files.", no_args_is_help=True)
config_app = typer.Typer(help="Show the effective settings.", no_args_is_help=True)
corpus_app = typer.Typer(
    help="Textbook corpus: OCR cleanup, redaction of test items, leak audit, fragments.",
    no_args_is_help=True,
)
demo_model_app = typer.Typer(help="The tiny offline model for tests and the demo.")
app.add_typer(demo_model_app, name="demo-model")
metrics_app = typer.Typer(help="Scores from plain verdict files.", no_args_is_help=True)
app.add_typer(metrics_app, name="metrics")
app.add_typer(data_app, name="data")
app.add_typer(corpus_app, name="corpus")
app.add_typer(config_app, name="config")
app.add_typer(_benchmarks_app, name="benchmarks")

out = Console()
err = Console(stderr=True)

PathsArg = Annotated[
    list[Path],
    typer.Argument(help="JSON files in the release format.", exists=False, show_default=False),
]
KindOpt = Annotated[
    FileKind | None,
    typer.Option("--kind", help="Force the file kind instead of detecting it."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]


def _validate_all(paths: list[Path], kind: FileKind | None) -> list[LoadedFile]:
    return [validate_file(path, kind) for path in paths]


@data_app.command("validate")
def data_validate(paths: PathsArg, kind: KindOpt = None, as_json: JsonOpt = False) -> None:
    """Check files against the release format. Exit 1 on errors; warnings are printed."""
    results = _validate_all(paths, kind)
    if as_json:
        payload = [
            {
                "path": str(r.path),
                "kind": r.kind.value,
                "ok": r.ok,
                "issues": [i.model_dump(mode="json") for i in r.issues],
            }
            for r in results
        ]
        out.print_json(json.dumps(payload))
    else:
        for result in results:
            for issue in result.issues:
                style = "red" if issue.severity is Severity.ERROR else "yellow"
                err.print(
                    issue.format(), style=style, markup=False, highlight=False, soft_wrap=True
                )
            status = "[green]ok[/]" if result.ok else "[red]FAILED[/]"
            records = len(result.parents) or len(result.instructions)
            out.print(
                f"{status} {result.path} ({result.kind.value}): {records} valid record(s), "
                f"{len(result.errors)} error(s), {len(result.warnings)} warning(s)",
                highlight=False,
                soft_wrap=True,
            )
    if any(not r.ok for r in results):
        raise typer.Exit(1)


@data_app.command("stats")
def data_stats(paths: PathsArg, kind: KindOpt = None, as_json: JsonOpt = False) -> None:
    """Inventory of files: parents, slots, sources, sub-disciplines and answer types."""
    results = _validate_all(paths, kind)
    failed = [r for r in results if not r.ok]
    for result in failed:
        for issue in result.errors:
            err.print(issue.format(), style="red", markup=False, highlight=False, soft_wrap=True)
    per_file = [file_stats(r) for r in results]
    # A guidance file repeats the Transfer parents: count each parent once in the total.
    distinct = {
        (p.source, p.year, p.source_problem_id): p
        for r in results
        if r.kind is FileKind.SPLIT
        for p in r.parents
    }
    split_parents = list(distinct.values())
    total = split_stats(split_parents) if split_parents else None
    if as_json:
        payload = {
            "files": [s.model_dump(mode="json") for s in per_file],
            "total_splits": total.model_dump(mode="json") if total else None,
        }
        out.print_json(json.dumps(payload))
    else:
        for stats in per_file:
            _print_file_stats(stats)
        split_files = sum(1 for s in per_file if s.split is not None)
        if total is not None and split_files > 1:
            _print_split_stats(f"all {split_files} split files (distinct parents)", total)
    if failed:
        err.print(f"{len(failed)} file(s) have errors; their invalid records are not counted")
        raise typer.Exit(1)


def _print_file_stats(stats: FileStats) -> None:
    if stats.split is not None:
        _print_split_stats(f"{stats.path} ({stats.kind.value})", stats.split)
        return
    assert stats.instructions is not None
    s = stats.instructions
    table = Table(title=f"{stats.path} ({stats.kind.value})", title_justify="left")
    table.add_column("measure")
    table.add_column("count", justify="right")
    for label, value in [
        ("records", s.records),
        ("single-turn", s.single_turn),
        ("multi-turn", s.multi_turn),
        ("with gold answer", s.with_answer),
    ]:
        table.add_row(label, str(value))
    _add_breakdown(table, "answer type", s.by_answer_type)
    _add_breakdown(table, "inside TUP/ALT", s.inner_types)
    out.print(table)


def _print_split_stats(title: str, s: SplitStats) -> None:
    table = Table(title=title, title_justify="left")
    table.add_column("measure")
    table.add_column("count", justify="right")
    for label, value in [
        ("parents", s.parents),
        ("slots", s.slots),
        ("multi-sub parents", s.multi_sub_parents),
        ("solo parents", s.solo_parents),
        ("slots with guidance", s.slots_with_guidance),
        ("slots with knowledge points", s.slots_with_knowledge_points),
    ]:
        table.add_row(label, str(value))
    _add_breakdown(table, "subs per parent", {str(k): v for k, v in s.subs_per_parent.items()})
    _add_breakdown(table, "source", s.by_source)
    _add_breakdown(table, "problem type", s.by_problem_type)
    _add_breakdown(table, "answer type", s.by_answer_type)
    _add_breakdown(table, "inside TUP/ALT", s.inner_types)
    out.print(table)


def _add_breakdown(table: Table, heading: str, counts: dict[str, int]) -> None:
    if not counts:
        return
    table.add_section()
    for label, value in counts.items():
        table.add_row(f"{heading}: {label}", str(value))


ParamsOpt = Annotated[
    Path | None,
    typer.Option("--params", help="Settings file (default: $STUDYBENCH_PARAMS or params.yaml)."),
]


@config_app.command("show")
def config_show(params: ParamsOpt = None, as_json: JsonOpt = False) -> None:
    """Print the effective settings (params.yaml plus STUDYBENCH__* overrides)."""
    settings = load_settings(params)
    dumped = settings.model_dump(mode="json")
    if as_json:
        out.print_json(json.dumps({**dumped, "protocol_hash": settings.protocol.protocol_hash()}))
        return
    out.print(yaml.safe_dump(dumped, sort_keys=False), end="", markup=False, highlight=False)
    out.print(f"# protocol hash: {settings.protocol.protocol_hash()}", markup=False)


@data_app.command("import")
def data_import(
    params: ParamsOpt = None,
    root: Annotated[
        Path | None, typer.Option(help="Release checkout (default: release.root).")
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: release.out_dir).")
    ] = None,
) -> None:
    """Validate a StudyBench release and write normalised copies of its data files.

    Nothing is written unless every file validates.
    """
    from studybench.data.release import import_release

    release = load_settings(params).release
    updates = {k: v for k, v in (("root", root), ("out_dir", out_dir)) if v is not None}
    for imported in import_release(release.model_copy(update=updates)):
        _say(
            f"{imported.source} -> {imported.target}: {imported.records} record(s), "
            f"{imported.warnings} warning(s)"
        )


@data_app.command("repro")
def data_repro(
    force: Annotated[bool, typer.Option(help="Re-run every stage.")] = False,
) -> None:
    """Run the DVC data pipeline (dvc.yaml) and print the data versions it produced."""
    from studybench.data.versions import reproduce

    for version in reproduce(Path(), force=force).values():
        _say(f"{version.out}: {version.md5} (stage {version.stage})")


@data_app.command("versions")
def data_versions_command(
    paths: Annotated[list[Path], typer.Argument(help="Data files an evaluation reads.")],
) -> None:
    """The DVC output and content hash behind each data file (JSON)."""
    from studybench.data.versions import data_versions

    versions = data_versions(paths)
    out.print_json(json.dumps({k: v.model_dump() for k, v in versions.items()}))


def _say(text: str) -> None:
    out.print(text, markup=False, highlight=False, soft_wrap=True)


BooksOpt = Annotated[Path, typer.Option("--books", help="Books root: <root>/<source>/<chapter>/.")]
OutRootOpt = Annotated[
    Path | None,
    typer.Option("--out", help="Write into a mirrored tree here instead of beside each file."),
]
EvalOpt = Annotated[
    list[Path], typer.Option("--eval", help="Test split(s) whose items must not leak.")
]


def _write_report(path: Path | None, payload: str, default: Path) -> Path:
    from studybench.fileio import write_atomic

    target = path or default
    write_atomic(target, payload)
    return target


@corpus_app.command("ocr-fix")
def corpus_ocr_fix(
    books: BooksOpt,
    out_root: OutRootOpt = None,
    input_name: Annotated[str, typer.Option(help="Chapter file to read.")] = "full.md",
    output_name: Annotated[str, typer.Option(help="File to write.")] = "ocrfix.md",
) -> None:
    """Deterministic cleanup of converted textbook markdown (writes ocrfix.md)."""
    from studybench.corpus.ocr_fix import fix_books

    stats = fix_books(books, input_name=input_name, output_name=output_name, out_root=out_root)
    _say(
        f"cleaned {stats.files} chapter(s): {stats.prompts_dropped} converter prompt(s) dropped, "
        f"{stats.math_repairs} split number(s) rejoined, {stats.page_lines_dropped} page line(s) "
        "removed"
    )


def _eval_parents(paths: list[Path]) -> list[Any]:
    from studybench.data.loaders import load_parents

    if not paths:
        raise DataError("give at least one test split with --eval")
    return [parent for path in paths for parent in load_parents(path)]


@corpus_app.command("redact")
def corpus_redact(
    eval_paths: EvalOpt,
    books: BooksOpt,
    out_root: OutRootOpt = None,
    report: Annotated[Path | None, typer.Option(help="Report path (JSON).")] = None,
    input_name: Annotated[str, typer.Option(help="Chapter file to read.")] = "ocrfix.md",
    params: ParamsOpt = None,
) -> None:
    """Remove every test item from the corpus (writes ocrfix.redacted.md beside each file)."""
    from studybench.corpus.redact import RedactionSettings, redact_corpus

    corpus = load_settings(params).corpus
    settings = RedactionSettings(
        ngram=corpus.ngram,
        coverage=corpus.coverage,
        max_gap=corpus.max_gap,
        near_window_tokens=corpus.near_window_tokens,
    )
    result = redact_corpus(
        _eval_parents(eval_paths),
        books,
        input_name=input_name,
        out_root=out_root,
        settings=settings,
    )
    default = (out_root or books) / "redaction_report.json"
    path = _write_report(report, result.model_dump_json(indent=1), default)
    missing = sum(1 for item in result.items if not item.redactions)
    _say(
        f"redacted {result.redacted_spans} span(s) in {result.files} file(s) for "
        f"{len(result.items)} test item(s) ({missing} not found in the corpus); report: {path}"
    )


@corpus_app.command("audit")
def corpus_audit(
    eval_paths: EvalOpt,
    books: BooksOpt,
    report: Annotated[Path | None, typer.Option(help="Report path (JSON).")] = None,
    name: Annotated[str, typer.Option(help="Corpus file to scan.")] = "ocrfix.redacted.md",
    params: ParamsOpt = None,
) -> None:
    """Fail (exit 1) if any test item's text is still in the corpus."""
    from studybench.corpus.audit import audit_corpus

    corpus = load_settings(params).corpus
    result = audit_corpus(
        _eval_parents(eval_paths),
        books,
        name=name,
        ngram_sizes=corpus.audit_ngrams,
        min_answer_tokens=corpus.audit_min_answer_tokens,
        solution_min_tokens=corpus.audit_solution_min_tokens,
    )
    if report is not None:
        _write_report(report, result.model_dump_json(indent=1), report)
    for hit in result.hits:
        err.print(
            f"{books / hit.file}:{hit.line}: {hit.kind} of {hit.item} {hit.field}: {hit.excerpt!r}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    _say(
        f"audited {result.files} file(s) against {result.fields} test field(s): "
        f"{len(result.hits)} residue hit(s)"
    )
    if result.hits:
        raise typer.Exit(1)


@corpus_app.command("fragments")
def corpus_fragments(
    books: BooksOpt,
    out_path: Annotated[Path, typer.Option("--out", help="JSONL file to write.")],
    input_name: Annotated[str, typer.Option(help="Chapter file to read.")] = "ocrfix.redacted.md",
    params: ParamsOpt = None,
) -> None:
    """Split the redacted corpus into exposition / worked-example / exercise fragments."""
    from collections import Counter

    from studybench.corpus.fragments import build_fragments

    max_words = load_settings(params).corpus.fragment_max_words
    fragments = build_fragments(books, out_path, input_name=input_name, max_words=max_words)
    kinds = Counter(f.fragment_type for f in fragments)
    _say(
        f"{len(fragments)} fragment(s) -> {out_path}: "
        + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    )


@demo_model_app.command("build")
def demo_model_build(
    out_dir: Annotated[Path, typer.Argument(help="Folder to write the model to.")],
    seed: Annotated[int, typer.Option(help="Weight initialisation seed.")] = 0,
    sample: Annotated[Path, typer.Option(help="Sample data to train the tokenizer on.")] = Path(
        "data/sample"
    ),
) -> None:
    """Build a tiny Qwen3-architecture chat model offline (about 10 s)."""
    from studybench.engines.demo_model import build_demo_model

    build_demo_model(out_dir, sample, seed=seed)
    _say(f"tiny model written to {out_dir}")


def _split_path(split: str, params: Path | None) -> Path:
    from studybench.pipeline.evaluate import NAMED_SPLITS, split_file

    if split in NAMED_SPLITS:
        return split_file(split, load_settings(params))
    return Path(split)


def _parse_seeds(text: str | None, default: tuple[int, ...]) -> tuple[int, ...]:
    if text is None:
        return default
    try:
        seeds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise typer.BadParameter(
            f"seeds must be integers separated by commas, got {text!r}"
        ) from None
    if not seeds:
        raise typer.BadParameter("give at least one seed")
    return seeds


ModelOpt = Annotated[str, typer.Option(help="Checkpoint folder or served model name.")]
RunOutOpt = Annotated[Path, typer.Option("--out", help="Run folder (resumable).")]
EngineOpt = Annotated[str, typer.Option(help="vllm | openai | hf")]
SplitOpt = Annotated[str, typer.Option(help="application | transfer | memorisation | a split file")]
SeedsOpt = Annotated[str | None, typer.Option(help="Sampling seeds, e.g. 0,1,2.")]
KOpt = Annotated[int | None, typer.Option(help="Attempts per parent and seed.")]
MaxNewOpt = Annotated[int | None, typer.Option(help="Cap on one completion (default: protocol).")]
GuidanceOpt = Annotated[Path | None, typer.Option(help="Guidance JSON to inject.")]


@app.command("generate")
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
    params: ParamsOpt = None,
) -> None:
    """Generate completions for a split under the StudyBench protocol (resumable)."""
    import asyncio

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from studybench.data.loaders import load_parents
    from studybench.engines.factory import open_engine
    from studybench.pipeline.evaluate import rollout_config
    from studybench.rollout.artefacts import load_artefacts
    from studybench.rollout.runner import Rollout

    if engine not in ("vllm", "openai", "hf"):
        raise typer.BadParameter(f"engine must be vllm, openai or hf, got {engine!r}")
    settings = load_settings(params)
    protocol = settings.protocol
    parents = list(load_parents(_split_path(split, params)))[start:end]
    artefacts = load_artefacts(
        protocol.system_prompt,
        ace=ace,
        gepa=gepa,
        gepa_iteration=gepa_iteration,
        gepa_rollouts=gepa_rollouts,
        evoskill=evoskill,
        guidance=guidance,
    )
    config = rollout_config(
        model,
        settings,
        k=k,
        seeds=_parse_seeds(seeds, protocol.seeds),
        max_new_tokens=max_new_tokens,
        concurrency=concurrency,
    )
    rollout = Rollout(parents, config, artefacts, out_dir, split=split)
    total_turns = sum(len(p.slots()) for p in parents) * config.k * len(config.seeds)
    try:
        with (
            open_engine(engine, model, settings, out_dir) as backend,  # type: ignore[arg-type]
            Progress(
                TextColumn("[bold]generate"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[detail]}"),
                console=err,
                transient=False,
            ) as bar,
        ):
            task = bar.add_task("turns", total=total_turns, detail="")

            def show(p: Any) -> None:
                bar.update(
                    task,
                    completed=p.turns_generated + p.turns_reused,
                    detail=(
                        f"chains {p.chains_done}/{p.chains_total}  reused {p.turns_reused}  "
                        f"{p.tokens_per_s:,.0f} tok/s  errors {p.errors}"
                    ),
                )

            async def go() -> Any:
                try:
                    return await rollout.run(backend, show)
                finally:
                    await backend.aclose()

            summary = asyncio.run(go())
        if export:
            rollout.export_reference(out_dir / "generations.json")
    finally:
        rollout.close()
    _say(
        f"{summary.chains} chain(s), {summary.turns} turn(s): {summary.generated} generated, "
        f"{summary.reused} reused, {summary.errors} error(s), {summary.completion_tokens:,} "
        f"tokens in {summary.wall_s:.1f} s; store {out_dir / 'generations.sqlite'}"
    )
    if summary.errors:
        _say("failed turns are retried (with the turns after them) when you run this again")


def _judge(run_dir: Path, settings: Any, *, rule_only: bool, rejudge_errors: bool) -> None:
    from rich.progress import Progress

    from studybench.pipeline.judging import judge_dir

    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("LLM judge", total=None)
        summary = judge_dir(
            run_dir,
            settings,
            rule_only=rule_only,
            rejudge_errors=rejudge_errors,
            on_progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    _say(
        f"{summary.items} completion(s): {summary.reused} verdict(s) reused, "
        f"{summary.rule_judged} verified by rule, {summary.llm_calls} LLM judge call(s) "
        f"({summary.llm_cached} cached), {summary.flagged} flagged for the next run; "
        f"{summary.wall_s:.1f} s"
    )


@app.command("judge")
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


@app.command("report")
def report_command(
    run_dir: Annotated[Path, typer.Argument(help="Judged run folder.")],
    as_json: JsonOpt = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="Markdown output.")] = False,
) -> None:
    """Par@k and Sub@k (mean ± std over seeds), breakdowns and the judge's share."""
    from studybench.pipeline.report import build_report, markdown

    report = build_report(run_dir)
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
        _say(
            f"judge share {100 * report.judge_share:.1f}%: {report.rule_correct} correct by rule, "
            f"{report.judge_rescued} rescued by the LLM judge, {report.flagged} flagged, "
            f"{report.missing} without verdict"
        )
        for line in report.guidance_gap.lines() if report.guidance_gap else []:
            _say(line)
        for name, breakdown in s.breakdowns.items():
            metric = "sub" if name.startswith("slot:") else "par"
            parts = [f"{k} {100 * v[metric]:.0f}% (n={int(v['n'])})" for k, v in breakdown.items()]
            _say(f"{metric} by {name.removeprefix('slot:')}: " + ", ".join(parts))


@app.command("eval")
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
        from studybench.cli_benchmarks import evaluate

        if engine not in ("vllm", "openai", "hf"):
            raise typer.BadParameter(f"engine must be vllm, openai or hf, got {engine!r}")
        get_benchmark(benchmark)  # an unknown name fails before anything starts
        settings = load_settings(params)
        if seeds is not None:
            protocol = settings.protocol.model_copy(
                update={"seeds": _parse_seeds(seeds, settings.protocol.seeds)}
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
    report_command(out_dir)
    if settings.tracking.enabled:
        from studybench.tracking.mlflow_log import Checkpoint, TrackingError

        checkpoint = Checkpoint(path=model if Path(model).is_dir() else None)
        try:
            _track([out_dir], settings, checkpoint)
        except TrackingError as exc:
            err.print(f"warning: {exc}", markup=False, highlight=False, soft_wrap=True)


def _track(run_dirs: list[Path], settings: Any, checkpoint: Any) -> str:
    from studybench.tracking.mlflow_log import log_evaluation, tracking_uri

    data_files = [settings.data.application_split, settings.data.transfer_split]
    run_id = log_evaluation(run_dirs, settings, checkpoint=checkpoint, data_files=data_files)
    _say(f"logged to MLflow ({tracking_uri(settings)}): run {run_id}")
    if settings.tracking.registered_model and checkpoint.path:
        from studybench.tracking.compare import register_checkpoint
        from studybench.tracking.mlflow_log import client_for

        client = client_for(settings)
        metrics = sorted(client.get_run(run_id).data.metrics)
        headline = next((m for m in metrics if "/par_at_" in m and m.endswith("_mean")), "")
        version, moved = register_checkpoint(
            client,
            run_id,
            settings.tracking.registered_model,
            str(Path(checkpoint.path).resolve()),
            headline=headline,
            threshold=settings.tracking.regression_threshold,
        )
        _say(f"registered version {version}" + (" and moved alias 'best' to it" if moved else ""))
    return run_id


@app.command("track")
def track_command(
    run_dirs: Annotated[list[Path], typer.Argument(help="Judged run folder(s), one per split.")],
    checkpoint: Annotated[Path | None, typer.Option(help="Checkpoint folder evaluated.")] = None,
    step: Annotated[int | None, typer.Option(help="Global training step.")] = None,
    training_run: Annotated[str | None, typer.Option(help="Training run id (lineage).")] = None,
    base_model: Annotated[str | None, typer.Option(help="Base model name.")] = None,
    gpu_hours: Annotated[float | None, typer.Option(help="Training compute so far.")] = None,
    params: ParamsOpt = None,
) -> None:
    """Log judged runs to MLflow (again): idempotent, updates the same MLflow run."""
    from studybench.tracking.mlflow_log import Checkpoint

    info = Checkpoint(
        path=str(checkpoint) if checkpoint else None,
        step=step,
        training_run=training_run,
        base_model=base_model,
        gpu_hours=gpu_hours,
    )
    _track(run_dirs, load_settings(params), info)


@app.command("compare")
def compare_command(
    baseline: Annotated[str, typer.Argument(help="Run id, models:/NAME@ALIAS, or 'previous'.")],
    candidate: Annotated[str, typer.Argument(help="MLflow run id of the candidate.")],
    threshold: Annotated[float | None, typer.Option(help="Absolute drop tolerated.")] = None,
    as_json: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """Regression check: exit 1 when a headline metric drops beyond noise."""
    from studybench.tracking.compare import compare_runs, resolve_run
    from studybench.tracking.mlflow_log import client_for

    settings = load_settings(params)
    client = client_for(settings)
    base = resolve_run(client, baseline, relative_to=candidate)
    limit = threshold if threshold is not None else settings.tracking.regression_threshold
    result = compare_runs(client, base, candidate, limit)
    if as_json:
        out.print_json(result.model_dump_json())
    else:
        for m in result.metrics:
            flag = "REGRESSION" if m.regression else ("improved" if m.improvement else "same")
            _say(
                f"{m.metric}: {m.baseline:.4f} -> {m.candidate:.4f} ({m.diff:+.4f}, "
                f"noise margin {m.margin:.4f}) {flag}"
            )
    if result.regression:
        raise typer.Exit(1)


@metrics_app.command("passk")
def metrics_passk(
    verdicts: Annotated[Path, typer.Argument(help="JSONL: parent, slot, seed, attempt, correct.")],
) -> None:
    """Par@k and Sub@k per seed and mean ± std (ddof=1) from a plain verdict file (JSON)."""
    from pydantic import ValidationError

    from studybench.metrics.passk import VerdictRow, score

    rows = []
    for number, line in enumerate(verdicts.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(VerdictRow.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise DataError(f"{verdicts}: line {number}: {where}: {first['msg']}") from None
    result = score(rows)
    payload = {
        "k": result.k,
        "seeds": result.seeds,
        "per_seed": {str(s.seed): {"par": s.par, "sub": s.sub} for s in result.per_seed},
        "par_mean": result.par_mean,
        "par_std": result.par_std,
        "par_pstd": result.par_pstd,
        "sub_mean": result.sub_mean,
        "sub_std": result.sub_std,
        "sub_pstd": result.sub_pstd,
        "par_unbiased": result.par_unbiased,
        "sub_unbiased": result.sub_unbiased,
        "parents": result.parents,
        "slots": result.slots,
    }
    out.print_json(json.dumps(payload))


@metrics_app.command("sequential")
def metrics_sequential(
    outcomes: Annotated[Path, typer.Argument(help='JSON: {"<task type>": [[0,1,...], ...]}.')],
    warmup: Annotated[int, typer.Option(help="Positions excluded from post-warm-up accuracy.")] = 0,
) -> None:
    """Learning-curve metrics of sequential outcomes (EvaLearn-style), as JSON."""
    from studybench.metrics.sequential import sequential_metrics

    try:
        data = json.loads(outcomes.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{outcomes}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict):
        raise DataError(f"{outcomes}: expected an object of task type -> list of sequences")
    try:
        result = sequential_metrics(data, warmup=warmup)
    except ValueError as exc:
        raise DataError(f"{outcomes}: {exc}") from None
    out.print_json(result.model_dump_json())


def _read_cases(path: Path) -> list[dict[str, Any]]:
    """Read and check a JSONL case file completely before any work starts."""
    from pydantic import ValidationError

    from studybench.verify import VerifyItem

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read: {exc}") from None
    cases: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}: line {number}: invalid JSON: {exc.msg}") from None
        if not isinstance(record, dict):
            raise DataError(f"{path}: line {number}: expected a JSON object")
        try:
            VerifyItem.model_validate(record)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise DataError(f"{path}: line {number}: field {field}: {first['msg']}") from None
        cases.append(record)
    return cases


@app.command("verify")
def verify_command(
    pred: Annotated[str | None, typer.Argument(help="Model output (with a \\boxed{}).")] = None,
    gold: Annotated[str | None, typer.Argument(help="Gold answer (with \\boxed{}).")] = None,
    answer_type: Annotated[
        str, typer.Option("--type", "-t", help="Answer type of PRED/GOLD: NV EX EQ IN ...")
    ] = "",
    type_sequence: Annotated[
        str, typer.Option("--type-sequence", help="Inner types of TUP/ALT, e.g. EX,NV.")
    ] = "",
    cases: Annotated[
        Path | None,
        typer.Option("--cases", help="JSONL with pred, gold, answer_type, type_sequence."),
    ] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (0: all CPUs).")] = 0,
    tolerance: Annotated[
        float | None, typer.Option(help="Relative tolerance (default: judge.tolerance).")
    ] = None,
    timeout: Annotated[
        float | None, typer.Option(help="Seconds per comparison (default: judge.rule_timeout_s).")
    ] = None,
    details: Annotated[
        bool, typer.Option(help="Add extracted, normalized_gold and verifier_version.")
    ] = False,
    params: ParamsOpt = None,
) -> None:
    """Rule-based verification of answers: one pair, or a JSONL file of cases.

    With --cases, writes one JSON line per case to stdout (the input fields plus correct,
    reason, elapsed_ms) and a summary line to stderr.
    """
    from studybench.verify import Verdict, Verifier

    settings = load_settings(params)
    tol = tolerance if tolerance is not None else settings.judge.tolerance
    limit = timeout if timeout is not None else settings.judge.rule_timeout_s
    strip = settings.protocol.strip_think_before_judging

    def payload(case: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        fields = {"correct": verdict.correct, "reason": verdict.reason}
        fields["elapsed_ms"] = round(verdict.elapsed_ms, 3)
        if details:
            fields["extracted"] = list(verdict.extracted)
            fields["normalized_gold"] = list(verdict.normalized_gold)
            fields["verifier_version"] = verdict.verifier_version
        return {**case, **fields}

    if cases is None:
        if pred is None or gold is None or not answer_type:
            err.print("give PRED GOLD --type TYPE, or --cases FILE.jsonl", markup=False)
            raise typer.Exit(2)
        case = {"pred": pred, "gold": gold, "answer_type": answer_type}
        case["type_sequence"] = type_sequence
        with Verifier(workers=1, tolerance=tol, timeout_s=limit, strip_think=strip) as verifier:
            verdict = verifier.verify(pred, gold, answer_type, type_sequence)
        out.print_json(json.dumps(payload(case, verdict)))
        raise typer.Exit(0 if verdict.correct else 1)

    records = _read_cases(cases)
    start = time.perf_counter()
    with Verifier(
        workers=workers or None, tolerance=tol, timeout_s=limit, strip_think=strip
    ) as verifier:
        verdicts = verifier.verify_many(records)
    wall = time.perf_counter() - start
    for case, verdict in zip(records, verdicts, strict=True):
        sys.stdout.write(json.dumps(payload(case, verdict), ensure_ascii=False) + "\n")
    sys.stdout.flush()
    correct = sum(v.correct for v in verdicts)
    timeouts = sum(v.reason == "timeout" for v in verdicts)
    latencies = sorted(v.elapsed_ms for v in verdicts) or [0.0]
    summary = (
        f"verified {len(verdicts)} case(s) in {wall:.2f} s: {correct} correct, "
        f"{len(verdicts) - correct} incorrect, {timeouts} timeout(s); "
        f"p50 {statistics.median(latencies):.2f} ms, max {latencies[-1]:.1f} ms"
    )
    expected = [
        (c["expect"], v.correct) for c, v in zip(records, verdicts, strict=True) if "expect" in c
    ]
    if expected:
        agree = sum(e == got for e, got in expected)
        summary += f"; matches 'expect' on {agree}/{len(expected)}"
    err.print(summary, markup=False, highlight=False, soft_wrap=True)


from studybench.cli_ops import register as _register_ops  # noqa: E402

_register_ops(app)

from studybench.guidance.cli import register as _register_guidance  # noqa: E402

_register_guidance(app)

from studybench.cli_train import register as _register_train  # noqa: E402

_register_train(app)

from studybench.benchmarks.sebench.cli import register as _register_sebench  # noqa: E402

_register_sebench(app)


def main() -> None:
    """Entry point that turns StudyBench errors into one clear line and exit code 2."""
    try:
        app(standalone_mode=True)
    except StudyBenchError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
