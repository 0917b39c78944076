"""A judgeable run folder rebuilt from what MLflow stored: the generation records of a split
(``<split>/generations.jsonl.gz``, every turn as the generation store held it) joined with
the gold of the split's data file, in the reference layout the judge reads
(``generations.json``), plus the generation store itself and ``run.json``.

The gold is read from the installed data file only when its version is the one the run was
evaluated on (its ``data.<file>`` tag): the verdicts of other gold would be another
evaluation, not a re-score. The turn chosen for each (slot, seed, attempt, turn) is the one
the run's own export chose: of the newest protocol's records, the newest successful one,
else the newest error (an error turn is an empty completion, judged wrong as it was).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studybench.errors import DataError
from studybench.fileio import write_atomic
from studybench.rollout.store import GenerationStore, Position, TurnRecord

REBUILT = ".rebuilt"  # marker: the folder is complete (a killed rebuild starts again)


class RescoreRefusedError(DataError):
    """A run cannot be re-scored from what is stored; the message says why."""


def read_jsonl_gz(path: Path) -> list[dict[str, Any]]:
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise DataError(f"{path}: line {number}: invalid JSON: {exc.msg}") from None
    return rows


def turn_records(path: Path) -> list[TurnRecord]:
    """The generation records of a logged split, with the file and line of a bad one."""
    out = []
    for number, row in enumerate(read_jsonl_gz(path), 1):
        try:
            out.append(TurnRecord.model_validate(row))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise DataError(f"{path}: record {number}: field {field!r}: {first['msg']}") from None
    return out


def chosen_turns(records: Sequence[TurnRecord]) -> dict[Position, TurnRecord]:
    """(slot, seed, attempt, turn) -> the turn the run used: the newest run key's newest
    ``ok`` record there, else its newest error."""
    if not records:
        return {}
    run_key = max(records, key=lambda r: r.created).run_key
    ok: dict[Position, TurnRecord] = {}
    errors: dict[Position, TurnRecord] = {}
    for record in sorted(records, key=lambda r: r.created):
        if record.run_key == run_key:
            (ok if record.status == "ok" else errors)[record.position] = record
    return {**errors, **ok}


def reference_dump(
    parents: Iterable[Any], turns: dict[Position, TurnRecord], seeds: Sequence[int], k: int
) -> list[dict[str, Any]]:
    """Parents with ``attempts[{attempt_id, seed, completions[...]}]`` (the layout of
    :meth:`studybench.rollout.runner.Rollout.export_reference`)."""
    out = []
    for parent in parents:
        record: dict[str, Any] = parent.model_dump(mode="json", by_alias=True)
        attempts = []
        for s_index, seed in enumerate(seeds):
            for attempt in range(k):
                completions = []
                for turn, slot in enumerate(parent.slots()):
                    key = slot.key
                    found = turns.get((key, seed, attempt, turn))
                    completions.append(
                        {
                            "problem_id": key.problem_id,
                            "problem": slot.question,
                            "solution": slot.solution,
                            "answer": slot.answer,
                            "answer_type": slot.answer_type.value,
                            "type_sequence": ",".join(t.value for t in slot.type_sequence),
                            "completion": found.completion if found else "",
                            "raw_response": {
                                "backend": "studybench",
                                "finish_reason": found.finish_reason if found else None,
                            },
                        }
                    )
                attempts.append(
                    {"attempt_id": s_index * k + attempt, "seed": seed, "completions": completions}
                )
        record["attempts"] = attempts
        out.append(record)
    return out


def rebuild_split(
    folder: Path,
    generations: Path,
    data_file: Path,
    manifest: dict[str, Any],
    seeds: Sequence[int],
    k: int,
) -> Path:
    """Write the judgeable folder of one split (idempotent: a complete folder is kept, so
    the verdicts a killed re-score stored are reused)."""
    from studybench.data.loaders import load_parents

    if (folder / REBUILT).is_file():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    records = turn_records(generations)
    if not records:
        raise RescoreRefusedError(f"{generations}: no generation records to re-score")
    store_path = folder / "generations.sqlite"
    store_path.unlink(missing_ok=True)  # a killed rebuild: start the store again
    store = GenerationStore(store_path)
    try:
        for record in records:
            store.append(record)
    finally:
        store.close()
    dump = reference_dump(load_parents(data_file), chosen_turns(records), seeds, k)
    write_atomic(folder / "generations.json", json.dumps(dump, ensure_ascii=False) + "\n")
    write_atomic(folder / "run.json", json.dumps(manifest, indent=1) + "\n")
    (folder / REBUILT).write_text("ok\n")
    return folder
