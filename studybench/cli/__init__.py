"""The ``studybench`` command line. Every DAG task is also a command here.

Commands print human-readable tables by default and JSON with ``--json``; errors go to
stderr and set a non-zero exit code, so the commands compose in shell pipelines and DVC.

One module per command group (``data``, ``config``, ``corpus``, ``metrics``, ...), the
shared options and consoles in :mod:`studybench.cli.common`. A command function parses its
options, calls the package and prints; the work lives below the CLI. A new group is a
module here and one ``add_typer`` line below.
"""

from __future__ import annotations

import os

import typer

from studybench.cli.benchmarks import benchmarks_app
from studybench.cli.build import build_app
from studybench.cli.calibrate import calibrate_command
from studybench.cli.checkpoints import checkpoints_app
from studybench.cli.common import note
from studybench.cli.config import config_app
from studybench.cli.corpus import corpus_app
from studybench.cli.data import data_app
from studybench.cli.demo_model import demo_model_app
from studybench.cli.evalearn import evalearn_app
from studybench.cli.evaluate import eval_command, generate_command, judge_command
from studybench.cli.guidance import guidance_app
from studybench.cli.metrics import metrics_app
from studybench.cli.ops import airflow_command, demo_command, trigger
from studybench.cli.paper import report_app
from studybench.cli.rescore import rescore_command
from studybench.cli.sebench import sebench_app
from studybench.cli.stats import metrics_compare
from studybench.cli.task import task_app
from studybench.cli.tracking import compare_command, track_command
from studybench.cli.train import train_app
from studybench.cli.verify import verify_command
from studybench.errors import StudyBenchError

__all__ = ["app", "main"]

app = typer.Typer(
    name="studybench",
    help="Continuous benchmarking of self-evolving language models on StudyBench.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

app.add_typer(demo_model_app, name="demo-model")
app.add_typer(metrics_app, name="metrics")
metrics_app.command("compare")(metrics_compare)
app.add_typer(data_app, name="data")
app.add_typer(corpus_app, name="corpus")
app.add_typer(config_app, name="config")
app.add_typer(benchmarks_app, name="benchmarks")
app.command("generate")(generate_command)
app.command("judge")(judge_command)
app.command("judge-calibrate")(calibrate_command)
app.add_typer(report_app, name="report")  # report RUN (default) and report paper
app.command("eval")(eval_command)
app.command("track")(track_command)
app.command("rescore")(rescore_command)
app.command("compare")(compare_command)
app.command("verify")(verify_command)
app.add_typer(checkpoints_app, name="checkpoints")
app.add_typer(task_app, name="task")
app.command("trigger")(trigger)
app.command("airflow")(airflow_command)
app.command("demo")(demo_command)
app.add_typer(guidance_app, name="guidance")
app.add_typer(train_app, name="train")
app.add_typer(build_app, name="build")
app.add_typer(evalearn_app, name="evalearn")
app.add_typer(sebench_app, name="sebench")


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
    try:
        app(standalone_mode=True)
    except StudyBenchError as exc:
        note(f"error: {exc}")
        raise SystemExit(2) from None
    except MISSING_COMPONENT as exc:
        where = f": {exc.filename}" if exc.filename else ""
        note(f"error: {exc.strerror or type(exc).__name__}{where}")
        raise SystemExit(2) from None
