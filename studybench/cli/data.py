"""``studybench data ...``: validate, inventory, import and version the release files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from studybench.cli.common import JsonOpt, ParamsOpt, err, out, say
from studybench.config import load_settings
from studybench.data.stats import FileStats, SplitStats, distinct_split_stats, file_stats
from studybench.data.validate import FileKind, LoadedFile, Severity, validate_file

data_app = typer.Typer(help="Inspect and validate StudyBench release files.", no_args_is_help=True)

PathsArg = Annotated[
    list[Path],
    typer.Argument(help="JSON files in the release format.", exists=False, show_default=False),
]
KindOpt = Annotated[
    FileKind | None,
    typer.Option("--kind", help="Force the file kind instead of detecting it."),
]


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
    total = distinct_split_stats(results)
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
        say(
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
        say(f"{version.out}: {version.md5} (stage {version.stage})")


@data_app.command("versions")
def data_versions_command(
    paths: Annotated[list[Path], typer.Argument(help="Data files an evaluation reads.")],
) -> None:
    """The DVC output and content hash behind each data file (JSON)."""
    from studybench.data.versions import data_versions

    versions = data_versions(paths)
    out.print_json(json.dumps({k: v.model_dump() for k, v in versions.items()}))
