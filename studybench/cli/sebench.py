"""``studybench sebench ...``: the obfuscated package, task files (and the release's, by
``import``) and training sets by hand.

Evaluation itself goes through the registry (``studybench eval --benchmark sebench`` and the
DAGs with ``benchmarks.run: [sebench]``); these commands cover what operators do around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from studybench.cli.common import JsonOpt, ParamsOpt, group, note, say
from studybench.config import load_settings
from studybench.errors import DataError

sebench_app = group(
    "SE-Bench: the obfuscated package, task files (and the release's), Open/Closed training data."
)


@sebench_app.command("package")
def package_command(
    out_dir: Annotated[Path, typer.Argument(help="Folder to generate the package into.")],
    params: ParamsOpt = None,
) -> None:
    """Generate (or reuse) the obfuscated package, its mapping and its API docs."""
    from studybench.benchmarks.sebench.benchmark import package_spec
    from studybench.benchmarks.sebench.package import generate_package

    package = generate_package(package_spec(load_settings(params)), out_dir)
    say(
        f"{package.name}: {len(package.mapping)} functions in {package.root} "
        f"(key {package.key}; mapping.json, api_docs.json beside it)"
    )


@sebench_app.command("validate")
def validate_command(
    tasks: Annotated[Path, typer.Argument(help="Task file in the SE-Bench release format.")],
    params: ParamsOpt = None,
) -> None:
    """Validate a task file against the package's function list (exit 2 with the first
    problem: file, record, field)."""
    from studybench.benchmarks.sebench.benchmark import package_spec
    from studybench.benchmarks.sebench.tasks import by_split, load_tasks

    loaded = load_tasks(tasks, package_spec(load_settings(params)).functions)
    counts = ", ".join(f"{split} {len(items)}" for split, items in sorted(by_split(loaded).items()))
    say(f"{tasks}: {len(loaded)} tasks valid ({counts})")


@sebench_app.command("training-data")
def training_data_command(
    out: Annotated[Path, typer.Option("--out", help="JSONL file to write.")],
    setting: Annotated[str, typer.Option(help="open (docs kept in the prompt) or closed.")],
    run: Annotated[
        Path | None,
        typer.Option(help="A judged SE-Bench plan folder (plan.json): its open-book responses."),
    ] = None,
    reference: Annotated[
        bool, typer.Option(help="Use the tasks' reference solutions instead of a run.")
    ] = False,
    tasks: Annotated[
        Path | None, typer.Option(help="Task file for --reference (default: sebench.tasks).")
    ] = None,
    all_responses: Annotated[
        bool, typer.Option("--all", help="Keep responses judged wrong too.")
    ] = False,
    allow_overlap: Annotated[
        bool,
        typer.Option(help="Allow training tasks that are also evaluation tasks (sebench.tasks)."),
    ] = False,
    eval_tasks: Annotated[
        Path | None,
        typer.Option(help="The evaluation task file to keep out (default: sebench.tasks)."),
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """Write the Open or Closed training set (TRL conversational JSONL + manifest)."""
    from studybench.benchmarks.base import BenchmarkPlan
    from studybench.benchmarks.sebench.benchmark import SEBench, package_spec
    from studybench.benchmarks.sebench.package import generate_package
    from studybench.benchmarks.sebench.tasks import load_tasks
    from studybench.benchmarks.sebench.training_data import (
        reference_responses,
        run_responses,
        training_examples,
        write_dataset,
    )

    if setting not in ("open", "closed"):
        raise typer.BadParameter("--setting must be open or closed")
    if (run is None) == (not reference):
        raise typer.BadParameter("give exactly one of --run and --reference")
    settings = load_settings(params)
    if run is not None:
        plan = BenchmarkPlan.model_validate_json((run / "plan.json").read_text(encoding="utf-8"))
        package = SEBench().package(plan, settings)
        only = settings.sebench.training_only_correct and not all_responses
        items, responses = run_responses(plan, settings, only_correct=only)
        source = f"run:{plan.model}"
    else:
        spec = package_spec(settings)
        package = generate_package(spec, settings.paths.work_dir / "sebench" / "packages")
        items = load_tasks(tasks or settings.sebench.tasks, spec.functions)
        responses = reference_responses(items, package)
        source = "reference"
    if not allow_overlap:
        held_out = eval_tasks or settings.sebench.tasks
        evaluation = {t.id for t in load_tasks(held_out)}
        shared = sorted(evaluation & {t.id for t in items})
        if shared:
            raise DataError(
                f"training tasks are evaluation tasks of {held_out}: "
                f"{', '.join(shared[:5])}{' ...' if len(shared) > 5 else ''} (train/test overlap; "
                "--allow-overlap to write it anyway)"
            )
    examples = training_examples(items, package, responses, setting, source)  # type: ignore[arg-type]
    path = write_dataset(examples, out, package)
    say(f"{path}: {len(examples)} examples ({setting})")


@sebench_app.command("import")
def import_command(
    files: Annotated[
        list[Path],
        typer.Argument(help="Released task files: train.jsonl, single_test.jsonl, ..."),
    ],
    out: Annotated[Path, typer.Option("--out", help="Task file (JSON) to write.")],
    params: ParamsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Convert the released SE-Bench task files (one JSON object per line) into a task file
    of this project; records marked ``is_valid: false`` are skipped, as in the reference."""
    import json

    from studybench.benchmarks.sebench.benchmark import package_spec
    from studybench.benchmarks.sebench.release import import_files
    from studybench.benchmarks.sebench.tasks import by_split, load_tasks
    from studybench.fileio import write_atomic

    tasks, skipped = import_files(files)
    if not tasks:
        raise DataError(f"{', '.join(map(str, files))}: no valid task")
    text = json.dumps([t.model_dump(mode="json", exclude_defaults=True) for t in tasks], indent=1)
    write_atomic(out, text + "\n")
    load_tasks(out, package_spec(load_settings(params)).functions)  # what was written loads
    counts = {split: len(items) for split, items in sorted(by_split(tasks).items())}
    if as_json:
        say(
            json.dumps({"out": str(out), "tasks": len(tasks), "splits": counts, "skipped": skipped})
        )
        return
    note(f"skipped {skipped} record(s) marked is_valid: false" if skipped else "no invalid record")
    summary = ", ".join(f"{split} {n}" for split, n in counts.items())
    say(f"{out}: {len(tasks)} tasks ({summary})")
