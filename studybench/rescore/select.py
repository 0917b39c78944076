"""Which logged evaluations need a re-score, in which order, in which batches.

A run needs one when no version of its generations was judged by the installed instrument.
Runs of one training run form one batch (its learning curve switches instrument in one
pass, and two workers never retire the same lineage run at once); a run without a training
run is a batch of its own. ``rescore.order``: ``lineage`` puts training runs first (largest
first), then the other runs oldest first; ``oldest`` orders every batch by its oldest run.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from studybench.config import Settings
from studybench.errors import ConfigError


class Selection(BaseModel):
    """What to consider: run ids, a training run, a start-time range; none: everything."""

    run_ids: tuple[str, ...] = ()
    experiment: str = ""
    training_run: str = ""
    since: str = ""  # ISO date or time (UTC when no zone is given)
    until: str = ""


class Batch(BaseModel):
    """Runs re-scored one after the other (one lineage, or one run)."""

    label: str
    run_ids: list[str]


def _ms(text: str, what: str) -> int | None:
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"--{what} {text!r}: not an ISO date or time (2026-11-30)") from None
    if moment.tzinfo is None:
        from datetime import UTC

        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def stale_runs(settings: Settings, selection: Selection) -> list[Any]:
    """The generation runs of the selection that no version judged by the installed
    instrument covers, oldest first."""
    from studybench.rescore.core import installed
    from studybench.tracking.mlflow_log import client_for
    from studybench.tracking.rescore import generation_runs, stale

    client = client_for(settings)
    name = selection.experiment or settings.tracking.experiment
    experiment = client.get_experiment_by_name(name)
    if experiment is None:
        if selection.run_ids:
            experiment_id = ""
        else:
            raise ConfigError(f"MLflow experiment {name!r} does not exist")
    else:
        experiment_id = str(experiment.experiment_id)
    runs = generation_runs(
        client,
        experiment_id,
        run_ids=selection.run_ids,
        training_run=selection.training_run,
        since_ms=_ms(selection.since, "since"),
        until_ms=_ms(selection.until, "until"),
    )
    instrument = installed(settings)
    return [r for r in runs if stale(client, r, instrument)]


def batches(runs: Sequence[Any], order: str) -> list[Batch]:
    """Runs grouped by training run (checkpoints in step order), then ordered."""
    groups: dict[str, list[Any]] = {}
    for run in runs:
        lineage = run.data.tags.get("training_run", "")
        label = f"lineage {lineage}" if lineage else f"run {run.info.run_id}"
        groups.setdefault(label, []).append(run)

    def step(run: Any) -> tuple[int, int]:
        value = run.data.tags.get("checkpoint.step", "")
        return (int(value) if value.isdigit() else -1, int(run.info.start_time))

    out = [
        Batch(label=label, run_ids=[str(r.info.run_id) for r in sorted(members, key=step)])
        for label, members in groups.items()
    ]
    oldest = {label: min(int(r.info.start_time) for r in m) for label, m in groups.items()}
    if order == "lineage":
        out.sort(
            key=lambda b: (not b.label.startswith("lineage"), -len(b.run_ids), oldest[b.label])
        )
    else:
        out.sort(key=lambda b: oldest[b.label])
    return out


def plan_batches(settings: Settings, selection: Selection) -> list[Batch]:
    return batches(stale_runs(settings, selection), settings.rescore.order)


def rescore_instead(settings: Settings, generation: str, metrics: Sequence[str]) -> str:
    """For planning: "" unless a finished run holds these generations (every metric); then
    why nothing is generated: judged by another instrument, the reason to re-score it
    instead; judged by this one (a run logged before the key held the instrument), done."""
    from studybench.rescore.core import installed
    from studybench.tracking.mlflow_log import client_for
    from studybench.tracking.rescore import (
        EVAL_KEY,
        GENERATION_KEY,
        Instrument,
        generation_run_of,
        is_evaluation,
    )

    client = client_for(settings)
    experiment = client.get_experiment_by_name(settings.tracking.experiment)
    if experiment is None:
        return ""
    found = []
    for tag in (GENERATION_KEY, EVAL_KEY):  # EVAL_KEY: runs logged before the instrument
        found += client.search_runs(
            [experiment.experiment_id],
            filter_string=f"tags.`{tag}` = '{generation}'",
            max_results=5,
        )
    done = [r for r in found if is_evaluation(r) and all(m in r.data.metrics for m in metrics)]
    if not done:
        return ""
    run = done[0]
    if Instrument.of_run(run) == installed(settings):  # logged before the key held it
        return (
            f"already evaluated: MLflow run {run.info.run_id} has every metric for these "
            f"generations, judged by the installed {installed(settings).describe()}"
        )
    return (
        f"generated already: MLflow run {generation_run_of(run)} holds these generations, "
        f"judged by {Instrument.of_run(run).describe()}, not the installed "
        f"{installed(settings).describe()}; re-scored without generating by "
        f"`studybench rescore --run {generation_run_of(run)}` or the studybench_rescore DAG"
    )
