"""``studybench report paper`` from start to end: read the experiment's runs, compare every
method row with its block's base model, build the tables and figures, write the report
folder, and log it back to MLflow as the ``report/<name>`` run.

The report folder (default ``<work_dir>/reports/<experiment>/<name>/``)::

    paper.md  paper.tex  paper.html  report.json
    figures/learning_curves.{png,svg}  figures/compute_plateau.{png,svg}

``report.json`` is the whole table with, per cell, the run it came from, its seeds, the
runs it superseded and the comparison. Everything is a function of the store: a refresh on
the same store writes the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.fileio import write_atomic
from studybench.metrics.comparison import CompareSettings
from studybench.paper import figures, render
from studybench.paper.table import (
    PaperTable,
    build_blocks,
    build_table,
    columns_of,
    comparison_pairs,
)

FIGURES = ("learning_curves", "compute_plateau")


class PaperReport(BaseModel):
    experiment: str
    folder: str
    files: list[str]
    report_run: str = ""
    used_runs: list[str] = Field(default_factory=list)
    markdown: str = ""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "experiment"


def build_paper_report(
    settings: Settings,
    *,
    experiment: str | None = None,
    training_runs: Sequence[str] = (),
    tags: Mapping[str, str] | None = None,
    out_dir: Path | None = None,
    name: str = "paper",
    log: bool = True,
    ui_base: str = "http://127.0.0.1:5000",
) -> PaperReport:
    """Build, write and (``log``) log back the paper report of ``experiment`` (default
    ``tracking.experiment``), restricted to ``training_runs`` / runs with ``tags``;
    ``ui_base``: the MLflow UI the HTML page links to (callers pass
    :func:`studybench.pipeline.orchestration.mlflow_ui_base`)."""
    from studybench.tracking import paper as tracked
    from studybench.tracking.mlflow_log import client_for

    if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
        raise StudyBenchError(f"report name {name!r}: use letters, digits, '.', '_' or '-'")
    experiment = experiment or settings.tracking.experiment
    client = client_for(settings)
    experiment_id = tracked.experiment_of(client, experiment)
    runs = tracked.read_runs(client, experiment_id, training_runs=training_runs, tags=tags)
    if not runs:
        raise StudyBenchError(
            f"experiment {experiment!r}: no finished evaluation run matches the selection"
        )
    columns = columns_of(runs)
    pairs = comparison_pairs(build_blocks(runs, columns))
    compare_settings = CompareSettings(min_effect=settings.tracking.regression_threshold)
    table = build_table(experiment, runs, tracked.compare(client, pairs, compare_settings))
    metrics = sorted({c.key for c in columns})
    curves = tracked.curves(settings, experiment, runs, metrics)
    folder = out_dir or settings.paths.work_dir / "reports" / _slug(experiment) / name
    report_run = tracked.report_run(client, experiment_id, name) if log else ""
    files = write_report(
        folder, table, curves, ui=ui_base, experiment_id=experiment_id,
        report_run=report_run,
    )  # fmt: skip
    used = table.used_runs()
    if log:
        tracked.log_report(
            client, report_run, folder, used,
            {"report.experiment": experiment, "report.name": name},
        )  # fmt: skip
    return PaperReport(
        experiment=experiment,
        folder=str(folder),
        files=[str(f) for f in files],
        report_run=report_run,
        used_runs=used,
        markdown=render.markdown(table),
    )


def write_report(
    folder: Path,
    table: PaperTable,
    curves: Sequence[object],
    *,
    ui: str,
    experiment_id: str,
    report_run: str = "",
) -> list[Path]:
    """Write every file of the report folder; returns their paths (sorted)."""
    from studybench.paper.records import Curve

    drawn = [c for c in curves if isinstance(c, Curve)]
    (folder / "figures").mkdir(parents=True, exist_ok=True)
    pngs: dict[str, bytes] = {}
    written: list[Path] = []
    for figure_name, draw in zip(
        FIGURES, (figures.learning_curves, figures.compute_plateau), strict=True
    ):
        png, svg = draw(drawn)
        pngs[figure_name.replace("_", " ")] = png
        for suffix, data in (("png", png), ("svg", svg)):
            path = folder / "figures" / f"{figure_name}.{suffix}"
            _write_bytes(path, data)
            written.append(path)
    texts = {
        "paper.md": render.markdown(table),
        "paper.tex": render.latex(table),
        "paper.html": render.page(
            table, ui_base=ui, experiment_id=experiment_id, figures=pngs, report_run=report_run
        ),
        "report.json": _json(table, drawn),
    }
    for file_name, text in texts.items():
        write_atomic(folder / file_name, text)
        written.append(folder / file_name)
    return sorted(written)


def _write_bytes(path: Path, data: bytes) -> None:
    """Write through a temporary file and a rename (a killed refresh leaves no half figure)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _json(table: PaperTable, curves: Sequence[object]) -> str:
    import json

    payload = {
        "table": table.model_dump(mode="json"),
        "curves": [c.model_dump(mode="json") for c in curves],  # type: ignore[attr-defined]
    }
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
