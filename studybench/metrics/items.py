"""The per-item result table: one row per (benchmark, split, parent, slot, seed, attempt).

This is the one place where judged results meet the statistics. Every benchmark hands its
results to tracking and to the comparison code as these rows, so confidence intervals,
paired comparisons and power are written once, over one shape, whatever the benchmark.

* StudyBench: ``parent`` is the parent problem id, ``slot`` the sub-problem id, ``attempt``
  the attempt index (0..k-1) of that seed.
* Benchmarks without sub-problems use one slot per parent (``slot == "0"``); a sequential
  benchmark (EvaLearn) uses the sequence as ``parent`` and the position as ``slot``; SE-Bench
  uses the task as ``parent``.

The row extends :class:`~studybench.metrics.passk.VerdictRow` (the format
``studybench metrics passk`` reads), so every item table is also a valid verdict table.
A missing verdict is never a row: callers count it as wrong through ``slots_of``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import Field, ValidationError

from studybench.errors import DataError
from studybench.metrics.passk import VerdictRow

ITEM_TABLE_VERSION = 1


class ItemRow(VerdictRow):
    """One judged (slot, seed, attempt) of one benchmark split."""

    benchmark: str = Field("studybench", min_length=1)
    split: str = Field(min_length=1, description="the benchmark's part (StudyBench: a split)")
    stage: str = Field("", description="what decided: rule, llm, none (no answer), error")
    answer_type: str = Field("", description="the slot's answer type (StudyBench: NV, EX, ...)")
    truncated: bool = Field(False, description="the turn hit the token limit or never closed")


def write_items(path: Path, rows: Iterable[ItemRow]) -> int:
    """Write rows as JSON lines (gzip when ``path`` ends in ``.gz``); returns the count."""
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if path.suffix == ".gz" else open
    count = 0
    with opener(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(row.model_dump_json() + "\n")
            count += 1
    return count


def read_items(path: Path) -> Iterator[ItemRow]:
    """Read rows written by :func:`write_items`; a bad line is a ``DataError`` naming the
    file, the line and the field."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield ItemRow.model_validate(json.loads(line))
            except json.JSONDecodeError as error:
                raise DataError(f"{path}: line {number}: not JSON ({error.msg})") from error
            except ValidationError as error:
                first = error.errors()[0]
                field = ".".join(str(p) for p in first["loc"]) or "(row)"
                raise DataError(
                    f"{path}: line {number}: field {field!r}: {first['msg']}"
                ) from error
