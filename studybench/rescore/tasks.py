"""The bodies of the ``studybench_rescore`` DAG's tasks, as plain functions of small JSON
values (the DAG file only wires them): plan the batches, re-score one batch, summarise."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from studybench.config import Settings
from studybench.errors import ConfigError
from studybench.rescore.batch import rescore_batch
from studybench.rescore.core import installed
from studybench.rescore.select import Batch, Selection, plan_batches

log = logging.getLogger(__name__)


def selection_from(params: Mapping[str, Any]) -> Selection:
    """The selection a DAG run's params name (``run_ids``, ``experiment``,
    ``training_run``, ``since``, ``until``); a wrong value is a :class:`ConfigError`."""
    from pydantic import ValidationError

    given = {k: v for k, v in params.items() if k in Selection.model_fields and v}
    if isinstance(given.get("run_ids"), str):
        given["run_ids"] = [r for r in given["run_ids"].replace(",", " ").split() if r]
    try:
        return Selection.model_validate(given)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"DAG run params: field {field!r}: {first['msg']}") from None


def plan(settings: Settings, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The batches to re-score (each a lineage or one run), in ``rescore.order``."""
    batches = plan_batches(settings, selection_from(params))
    log.info(
        "installed %s: %d batch(es), %d run(s) to re-score",
        installed(settings).describe(),
        len(batches),
        sum(len(b.run_ids) for b in batches),
    )
    return [b.model_dump() for b in batches]


def rescore(batch: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    """Re-score one batch; runs already at the installed instrument are no-ops (a retry
    continues where the failed try stopped)."""
    chosen = Batch.model_validate(dict(batch))

    def done(outcome: Any) -> None:
        log.info(
            "%s: run %s -> %s (%s), %d flip(s), %d LLM call(s)",
            chosen.label,
            outcome.original,
            outcome.run_id,
            outcome.status,
            outcome.flips.flips,
            outcome.llm_calls,
        )

    result = rescore_batch(settings, chosen.label, chosen.run_ids, on_done=done)
    for run_id, why in result.refused.items():
        log.warning("%s: run %s not re-scored: %s", chosen.label, run_id, why)
    return result.summary()


def summarise(results: Sequence[Mapping[str, Any]]) -> str:
    """One line per batch, and the totals."""
    lines = [
        f"{r['label']}: {len(r['rescored'])} re-scored, {len(r['current'])} current, "
        f"{len(r['refused'])} refused, {r['flips']} flip(s)"
        for r in results
    ]
    total = sum(len(r["rescored"]) for r in results)
    refused = sum(len(r["refused"]) for r in results)
    lines.append(f"{total} run(s) re-scored, {refused} refused")
    text = "\n".join(lines)
    log.info(text)
    return text
