"""What MLflow records about the instrument that judged a run, and the links between a run
and its re-scored versions.

A re-score is a **new run** beside the original, never an overwrite: the original keeps its
metrics, verdicts and tags and gains ``studybench.superseded_by``; the new run carries the
same generations, the new verdicts and metrics, the instrument tags
(``studybench.verifier_version``, ``studybench.judge_version``, ``studybench.judge_model``),
``studybench.rescore_of`` (the run re-scored) and ``studybench.generation_run`` (the run
that generated). A new run rather than versioned artefacts because every MLflow view works
on runs: the compare view puts both versions side by side, a search
(``tags.studybench.verifier_version = '1.4.0'``) lists one instrument's results, the
charts plot one run's metrics, and nothing of the original has to be rewritten. The new run
starts one millisecond after the original, so time-ordered views and searches ("the
previous night") see it where the original is.

The learning curve of a training run (``lineage/<training run>``) holds one instrument's
points only: when an evaluation of another instrument arrives, the old lineage run is
retired (re-keyed, renamed, tagged superseded: its series stays findable) and a new one is
started with every point already judged by the new instrument.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict

VERIFIER_TAG = "studybench.verifier_version"
JUDGE_TAG = "studybench.judge_version"
JUDGE_MODEL_TAG = "studybench.judge_model"
GENERATION_KEY = "studybench.generation_key"
GENERATION_RUN = "studybench.generation_run"
RESCORE_OF = "studybench.rescore_of"
SUPERSEDED_BY = "studybench.superseded_by"
EVAL_KEY = "studybench.eval_key"  # as tracking.mlflow_log (which imports this module)
LINEAGE_KEY = "studybench.lineage"
PAGE = 200


class Instrument(BaseModel):
    """The rule verifier's version, the LLM judge's version and the judge model ("" = the
    rule stage only) that produced a set of verdicts."""

    model_config = ConfigDict(frozen=True)

    verifier_version: str
    judge_version: str
    judge_model: str = ""

    def tags(self) -> dict[str, str]:
        return {
            VERIFIER_TAG: self.verifier_version,
            JUDGE_TAG: self.judge_version,
            JUDGE_MODEL_TAG: self.judge_model,
        }

    def describe(self) -> str:
        judge = f"judge {self.judge_version}"
        judge += f" ({self.judge_model[:80]})" if self.judge_model else " (rule stage only)"
        return f"verifier {self.verifier_version}, {judge}"

    @classmethod
    def of_run(cls, run: Any) -> Instrument:
        """The instrument of a logged run; runs logged before the instrument tags existed
        are read from ``verifier_version``, ``judge_version`` and the judge params."""
        tags, params = run.data.tags, run.data.params
        if VERIFIER_TAG in tags:
            return cls(
                verifier_version=tags[VERIFIER_TAG],
                judge_version=tags.get(JUDGE_TAG, ""),
                judge_model=tags.get(JUDGE_MODEL_TAG, ""),
            )
        enabled = params.get("judge.enabled", "False") == "True"
        return cls(
            verifier_version=tags.get("verifier_version", ""),
            judge_version=tags.get("judge_version", ""),
            judge_model=params.get("judge.model", "") if enabled else "",
        )

    @classmethod
    def of_tags(cls, tags: dict[str, str]) -> Instrument | None:
        if VERIFIER_TAG not in tags:
            return None
        return cls(
            verifier_version=tags[VERIFIER_TAG],
            judge_version=tags.get(JUDGE_TAG, ""),
            judge_model=tags.get(JUDGE_MODEL_TAG, ""),
        )


def _runs(client: Any, experiment: str, filter_string: str, order: str = "") -> Iterator[Any]:
    token = None
    while True:
        page = client.search_runs(
            [experiment],
            filter_string=filter_string,
            order_by=[order] if order else [],
            max_results=PAGE,
            page_token=token,
        )
        yield from page
        token = page.token
        if not token:
            return


def generation_run_of(run: Any) -> str:
    """The run that generated ``run``'s generations (itself unless it is a re-score)."""
    return str(run.data.tags.get(GENERATION_RUN) or run.info.run_id)


def is_evaluation(run: Any) -> bool:
    """A finished top-level evaluation run (not a seed's child, a lineage, a build)."""
    tags = run.data.tags
    return (
        EVAL_KEY in tags
        and "mlflow.parentRunId" not in tags
        and run.info.status == "FINISHED"
        and run.info.lifecycle_stage == "active"
    )


def versions(client: Any, generation_run: str) -> list[Any]:
    """Every evaluation of the generations of ``generation_run``: the run itself and its
    re-scores, oldest first."""
    root = client.get_run(generation_run)
    found = [root] if is_evaluation(root) else []
    found += [
        r
        for r in _runs(
            client, root.info.experiment_id, f"tags.`{GENERATION_RUN}` = '{generation_run}'"
        )
        if is_evaluation(r) and r.info.run_id != generation_run
    ]
    return sorted(found, key=lambda r: (r.info.start_time, r.info.end_time or 0))


def judged_by(client: Any, run_id: str, instrument: Instrument) -> str | None:
    """The evaluation of ``run_id``'s generations judged by ``instrument`` (``run_id`` itself
    when it was), or None: the version a like-with-like comparison uses."""
    run = client.get_run(run_id)
    if Instrument.of_run(run) == instrument:
        return run_id
    matching = [
        r for r in versions(client, generation_run_of(run)) if Instrument.of_run(r) == instrument
    ]
    return str(matching[-1].info.run_id) if matching else None


def generation_runs(
    client: Any,
    experiment: str,
    *,
    run_ids: Iterable[str] = (),
    training_run: str = "",
    since_ms: int | None = None,
    until_ms: int | None = None,
) -> list[Any]:
    """The generation runs (originals, never re-scores) that the selection names: given
    run ids (a re-score stands for its original), a training run's checkpoints, runs started
    in [since, until), or with no selector every evaluation of the experiment; oldest first."""
    ids = list(run_ids)
    if ids:
        roots = {generation_run_of(client.get_run(i)) for i in ids}
        runs = [client.get_run(r) for r in roots]
    else:
        clauses = []
        if training_run:
            clauses.append(f"tags.`training_run` = '{training_run}'")
        if since_ms is not None:
            clauses.append(f"attributes.start_time >= {since_ms}")
        if until_ms is not None:
            clauses.append(f"attributes.start_time < {until_ms}")
        runs = list(_runs(client, experiment, " and ".join(clauses)))
    return sorted(
        (r for r in runs if is_evaluation(r) and GENERATION_RUN not in r.data.tags),
        key=lambda r: r.info.start_time,
    )


def stale(client: Any, run: Any, instrument: Instrument) -> bool:
    """Whether no evaluation of ``run``'s generations was judged by ``instrument``."""
    return judged_by(client, str(run.info.run_id), instrument) is None


def open_version(client: Any, original: Any, eval_key: str, name: str, tags: dict[str, str]) -> str:
    """The run of the re-score keyed ``eval_key`` (reopened when a killed re-score left it),
    else a new one starting one millisecond after ``original``."""
    found = list(_runs(client, original.info.experiment_id, f"tags.`{EVAL_KEY}` = '{eval_key}'"))
    if found:
        return str(found[0].info.run_id)
    run = client.create_run(
        original.info.experiment_id,
        start_time=int(original.info.start_time) + 1,
        tags={**tags, EVAL_KEY: eval_key},
        run_name=name,
    )
    return str(run.info.run_id)


def mark_superseded(client: Any, generation_run: str, newest: str) -> list[str]:
    """Tag every other version of the generations superseded by ``newest``; returns them."""
    marked = []
    for run in versions(client, generation_run):
        if run.info.run_id != newest and run.data.tags.get(SUPERSEDED_BY) != newest:
            client.set_tag(run.info.run_id, SUPERSEDED_BY, newest)
            marked.append(str(run.info.run_id))
    return marked


def lineage_run(
    client: Any, experiment: str, training_run: str, instrument: Instrument | None
) -> str:
    """The ``lineage/<training run>`` run that the points of ``instrument`` go on (the
    learning curve never mixes instruments). A lineage run of another instrument is retired
    (re-keyed ``<training run>@superseded-<id>``, renamed, tagged): its series stays in the
    experiment, and the new lineage run starts with every checkpoint of the training run
    already judged by ``instrument``. A lineage run without instrument tags (logged before
    they existed) is adopted when every evaluation of its training run used ``instrument``."""
    name = f"lineage/{training_run}"
    found = list(_runs(client, experiment, f"tags.`{LINEAGE_KEY}` = '{training_run}'"))
    current = found[0] if found else None
    if instrument is None:
        if current is not None:
            client.update_run(current.info.run_id, status="RUNNING")
            return str(current.info.run_id)
        return _new_lineage(client, experiment, training_run, name, {})
    points = _judged_points(client, experiment, training_run, instrument)
    if current is not None:
        held = Instrument.of_tags(current.data.tags)
        adopt = held is None and all(i == instrument for i, _ in points["all"])
        if held == instrument or adopt:
            for key, value in instrument.tags().items():
                client.set_tag(current.info.run_id, key, value)
            client.update_run(current.info.run_id, status="RUNNING")
            return str(current.info.run_id)
        old = current.info.run_id
        client.set_tag(old, LINEAGE_KEY, f"{training_run}@superseded-{old[:8]}")
        described = held.describe() if held else "an earlier instrument"
        client.update_run(old, name=f"{name} ({described}, superseded)")
    new = _new_lineage(client, experiment, training_run, name, instrument.tags())
    if current is not None:
        client.set_tag(current.info.run_id, SUPERSEDED_BY, new)
        _backfill(client, current.info.run_id, new, points["same"])
    return new


def _new_lineage(
    client: Any, experiment: str, training_run: str, name: str, tags: dict[str, str]
) -> str:
    run = client.create_run(
        experiment,
        run_name=name,
        tags={**tags, "training_run": training_run, LINEAGE_KEY: training_run},
    )
    return str(run.info.run_id)


def _judged_points(
    client: Any, experiment: str, training_run: str, instrument: Instrument
) -> dict[str, list[tuple[Instrument, Any]]]:
    runs = [
        r
        for r in _runs(client, experiment, f"tags.`training_run` = '{training_run}'")
        if is_evaluation(r) and r.data.tags.get("checkpoint.step", "").isdigit()
    ]
    judged = [(Instrument.of_run(r), r) for r in runs]
    return {"all": judged, "same": [(i, r) for i, r in judged if i == instrument]}


def _backfill(client: Any, old: str, new: str, points: list[tuple[Instrument, Any]]) -> None:
    """The new lineage run gets the retired one's series for every checkpoint already judged
    by the new instrument (the metrics that evaluation logged), and its compute points."""
    from mlflow.entities import Metric

    keys = set(client.get_run(old).data.metrics)
    compute = {"gpu_hours", "train_flops"}
    metrics: list[Any] = []
    for _, run in sorted(points, key=lambda p: int(p[1].data.tags["checkpoint.step"])):
        step = int(run.data.tags["checkpoint.step"])
        when = int(run.info.end_time or run.info.start_time)
        metrics += [
            Metric(k, float(v), when, step)
            for k, v in run.data.metrics.items()
            if k in keys - compute
        ]
    for key in keys & compute:
        metrics += [
            Metric(key, m.value, m.timestamp, m.step) for m in client.get_metric_history(old, key)
        ]
    for start in range(0, len(metrics), 900):  # log_batch takes at most 1000 metrics
        client.log_batch(new, metrics=metrics[start : start + 900])
