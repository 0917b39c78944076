"""``studybench judge-calibrate``: how far the configured LLM judge can be trusted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from studybench.cli.common import JsonOpt, ParamsOpt, err, out, say
from studybench.config import Settings, load_settings

if TYPE_CHECKING:
    from studybench.judge.calibrate import CalibrationReport

# The shipped labelled sample (a source checkout: the repository's data/sample/).
DEFAULT_LABELS = Path(__file__).resolve().parents[2] / "data" / "sample" / "judge_calibration.jsonl"


def run_calibration(
    settings: Settings,
    *,
    labelled: Path | None = None,
    rule_items: Path | None = None,
    only_if_changed: bool = False,
    log: bool = True,
    on_progress: Callable[[int, int], None] | None = None,
) -> CalibrationReport | None:
    """Calibrate the settings' judge and log the report; with ``only_if_changed``, only when
    the LLM judge is enabled and its model, prompt or parser changed since the last
    calibration (None otherwise). The nightly DAG calls this."""
    from studybench.judge.calibrate import calibrate, judge_changed
    from studybench.tracking.calibration import is_calibrated, log_calibration

    if only_if_changed and not settings.judge.llm_enabled:
        return None  # no LLM judge in use: nothing to trust or distrust
    if only_if_changed and not judge_changed(settings, lambda f: is_calibrated(settings, f)):
        return None
    if labelled is None and rule_items is None:
        labelled = DEFAULT_LABELS
    report = calibrate(settings, labelled=labelled, rule_items=rule_items, on_progress=on_progress)
    if log:
        log_calibration(settings, report)
    return report


def _cell(value: float | None, interval: tuple[float, float] | None) -> str:
    if value is None:
        return "-"
    if interval is None:
        return f"{value:.3f}"
    return f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]"


def calibrate_command(
    labels: Annotated[
        Path | None,
        typer.Option(help="Labelled pairs (pred, gold, answer_type, type_sequence, label)."),
    ] = None,
    rule_items: Annotated[
        Path | None,
        typer.Option(help="Pairs to build rule-sure labels from (accepts, perturbed rejects)."),
    ] = None,
    log: Annotated[bool, typer.Option(help="Log the report to MLflow.")] = True,
    only_if_changed: Annotated[
        bool, typer.Option(help="Do nothing when this judge was already calibrated.")
    ] = False,
    json_output: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """Measure the LLM judge against labels: agreement, Cohen's kappa, false-accept and
    false-reject rates with 95% intervals, per answer type; logged under the judge model
    and judge_version."""
    settings = load_settings(params)
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("judging", total=None)
        report = run_calibration(
            settings,
            labelled=labels,
            rule_items=rule_items,
            only_if_changed=only_if_changed,
            log=log,
            on_progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    if report is None:
        say(f"judge {settings.judge.model} already calibrated: nothing to do")
        return
    if json_output:
        out.print_json(report.model_dump_json())
        return
    table = Table(title=f"judge {report.judge_model} (judge_version {report.judge_version})")
    for column in ("type", "n", "agreement", "kappa", "false accept", "false reject", "no verdict"):
        table.add_column(column)
    for name, rates in [("all", report.overall), *report.by_type.items()]:
        table.add_row(
            name,
            str(rates.n),
            _cell(rates.agreement, rates.agreement_ci),
            _cell(rates.kappa, rates.kappa_ci),
            _cell(rates.false_accept, rates.false_accept_ci),
            _cell(rates.false_reject, rates.false_reject_ci),
            str(rates.unparseable),
        )
    out.print(table)
