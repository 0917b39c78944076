"""The ``studybench`` command line. Every DAG task is also a command here.

Commands print human-readable tables by default and JSON with ``--json``; errors go to
stderr and set a non-zero exit code, so the commands compose in shell pipelines and DVC.

One module per command group (``data``, ``config``, ``corpus``, ``metrics``, ...), the
shared options and consoles in :mod:`studybench.cli.common`. A command function parses its
options, calls the package and prints; the work lives below the CLI. A new group is a
module here and one line in :data:`COMMANDS` below.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any

from studybench.cli.common import note
from studybench.errors import StudyBenchError

if TYPE_CHECKING:
    import typer

__all__ = ["COMMANDS", "app", "build_app", "main"]

# The command tree in the order ``studybench --help`` lists it: (name, module under
# studybench.cli, attribute). An attribute holding a ``typer.Typer`` is a group, any other a
# command function. Every command's module is imported only when the tree is built, so a
# command run alone (``studybench verify`` in a reward loop, many times a minute) loads its
# own module and not the twenty others (0.3 s of imports per process on two cores).
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("demo-model", "demo_model", "demo_model_app"),
    ("metrics", "metrics", "metrics_app"),  # metrics compare: studybench.cli.stats
    ("data", "data", "data_app"),
    ("corpus", "corpus", "corpus_app"),
    ("config", "config", "config_app"),
    ("benchmarks", "benchmarks", "benchmarks_app"),
    ("generate", "evaluate", "generate_command"),
    ("judge", "evaluate", "judge_command"),
    ("judge-calibrate", "calibrate", "calibrate_command"),
    ("report", "paper", "report_app"),  # report RUN (default) and report paper
    ("eval", "evaluate", "eval_command"),
    ("track", "tracking", "track_command"),
    ("rescore", "rescore", "rescore_command"),
    ("compare", "tracking", "compare_command"),
    ("verify", "verify", "verify_command"),
    ("checkpoints", "checkpoints", "checkpoints_app"),
    ("task", "task", "task_app"),
    ("trigger", "ops", "trigger"),
    ("airflow", "ops", "airflow_command"),
    ("demo", "ops", "demo_command"),
    ("guidance", "guidance", "guidance_app"),
    ("train", "train", "train_app"),
    ("build", "build", "build_app"),
    ("evalearn", "evalearn", "evalearn_app"),
    ("sebench", "sebench", "sebench_app"),
)


def build_app(only: str | None = None) -> typer.Typer:
    """The ``studybench`` app with every command of :data:`COMMANDS`, or with ``only`` that
    one (what :func:`main` runs when the command line names it: the same command, options,
    help and errors, without importing the rest)."""
    import typer

    root = typer.Typer(
        name="studybench",
        help="Continuous benchmarking of self-evolving language models on StudyBench.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
    )
    for name, module, attribute in COMMANDS:
        if only is not None and name != only:
            continue
        member = getattr(importlib.import_module(f"studybench.cli.{module}"), attribute)
        if isinstance(member, typer.Typer):
            root.add_typer(member, name=name)
        else:
            root.command(name)(member)
    if only is not None:
        # a root with one command and no callback is collapsed into that command by typer
        # (``studybench verify X`` would read "verify" as its first argument); a callback
        # keeps the group, and this one adds no option
        root.callback()(_group)
    return root


def _group() -> None:
    """Keeps a one-command app a group (see :func:`build_app`)."""


def __getattr__(name: str) -> Any:
    """``studybench.cli.app``: the whole tree, built on first use (tests, the docs' CLI
    reference, ``studybench --help``)."""
    if name == "app":
        whole = build_app()
        globals()["app"] = whole
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# A missing or unusable file, folder or program named by the user or the settings: an
# expected failure (a component not installed, a path mistyped), not a bug in studybench.
MISSING_COMPONENT = (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError)


def main() -> None:
    """Entry point that turns every expected failure (the typed StudyBench errors and a
    missing file, folder or program) into one clear line and exit code 2, never a
    traceback; anything else is a bug and keeps its traceback."""
    # MLflow draws one tqdm bar per artefact download; a report or a re-score reads dozens
    # of item tables and the bars drown the command's own output (its own rich progress
    # stays). A user who wants them back sets the variable to true.
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    first = sys.argv[1] if len(sys.argv) > 1 else None
    named = first in {name for name, _, _ in COMMANDS}
    try:
        (build_app(only=first) if named else __getattr__("app"))(standalone_mode=True)
    except StudyBenchError as exc:
        note(f"error: {exc}")
        raise SystemExit(2) from None
    except MISSING_COMPONENT as exc:
        where = f": {exc.filename}" if exc.filename else ""
        note(f"error: {exc.strerror or type(exc).__name__}{where}")
        raise SystemExit(2) from None
