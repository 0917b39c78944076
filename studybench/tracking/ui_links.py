"""Links into the MLflow UI: one builder for every place that shows one (the Airflow task's
"MLflow run" link, the CLI's "logged:" line, the paper report's cells, alerts).

MLflow 3's UI opens an experiment in its GenAI view (traces, sessions, judges) unless the
link asks for the *Model training* view, which is where studybench's runs, metrics and
learning curves are; its experiment-kind tag does not change that default, so every link
carries ``workflowType=machine_learning``.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

VIEW = "workflowType=machine_learning"


def run_url(ui_base: str, experiment_id: str, run_id: str) -> str:
    """The run's page, in the Model training view."""
    experiment, run = quote(str(experiment_id), safe=""), quote(run_id, safe="")
    return f"{ui_base.rstrip('/')}/#/experiments/{experiment}/runs/{run}?{VIEW}"


def run_id_of(url: str) -> str:
    """The run id a :func:`run_url` link points at (what a script reading the Airflow
    task's "MLflow run" link or the CLI's "logged:" line needs)."""
    path = url.partition("#")[2].partition("?")[0]
    parts = path.strip("/").split("/")
    if len(parts) != 4 or parts[0] != "experiments" or parts[2] != "runs":
        raise ValueError(f"not an MLflow run link: {url!r}")
    return unquote(parts[3])
