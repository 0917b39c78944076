"""``studybench evalearn ...``: bring the published EvaLearn release in and check it.

Evaluation itself goes through the registry (``studybench eval --benchmark evalearn``);
these commands cover the data around it. Both published versions of
``EvaLearn_Problem.json`` are accepted (the newest with ``rubric_zh``/``rubric_en``, the
June-2025 one with a single ``rubric`` and empty answers).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from studybench.cli.common import JsonOpt, ParamsOpt, group, note, say

evalearn_app = group("EvaLearn: import and check the published release.")

FullOpt = Annotated[
    bool | None,
    typer.Option(
        "--full-release/--subset",
        help="Hold the files to the release's counts (648 problems, 182 sequences of 7, ids "
        "1..N, every problem used 1-2 times). Default: when the problem file is named "
        "EvaLearn_Problem.json.",
        show_default=False,
    ),
]


@evalearn_app.command("import")
def import_command(
    problems: Annotated[Path, typer.Argument(help="EvaLearn_Problem.json (either version).")],
    sequences: Annotated[Path, typer.Argument(help="EvaLearn_Sequence.json.")],
    out: Annotated[
        Path, typer.Option("--out", help="Folder for problems.json, sequences.json, release.json.")
    ] = Path("data/evalearn"),
    full_release: FullOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a downloaded release and write it in one normal form (nothing is written
    when any record is invalid: every error is listed with file, record and field)."""
    from studybench.benchmarks.evalearn.release import import_release

    report = import_release(problems, sequences, out, expect_full=full_release)
    for warning in report.warnings:
        note(warning)
    if as_json:
        say(json.dumps(report.model_dump()))
        return
    kind = "full release" if report.full_release else "not checked against the release counts"
    say(
        f"EvaLearn {report.version} version ({kind}): {report.problems} problems, "
        f"{report.sequences} sequences -> {out} ({'written' if report.written else 'unchanged'})"
    )
    for name, count in report.sequences_per_type.items():
        say(f"  {name}: {report.problems_per_type.get(name, 0)} problems, {count} sequences")
    say(
        f"Run it: set evalearn.problems: {report.problem_file} and evalearn.sequences: "
        f"{report.sequence_file} in params.yaml."
    )


@evalearn_app.command("check")
def check_command(
    problems: Annotated[
        Path | None, typer.Argument(help="Problem file (default: evalearn.problems).")
    ] = None,
    sequences: Annotated[
        Path | None, typer.Argument(help="Sequence file (default: evalearn.sequences).")
    ] = None,
    full_release: FullOpt = None,
    params: ParamsOpt = None,
) -> None:
    """Validate the files the settings point at (or the given ones), as ``eval`` would."""
    from studybench.benchmarks.evalearn.release import load_checked
    from studybench.config import load_settings

    settings = load_settings(params).evalearn
    full = full_release if full_release is not None else settings.full_release
    release = load_checked(
        problems or settings.problems, sequences or settings.sequences, expect_full=full
    )
    for issue in release.issues:
        note(issue.format())
    say(
        f"EvaLearn {release.version} version: {len(release.problems)} problems, "
        f"{len(release.sequences)} sequences valid"
    )
