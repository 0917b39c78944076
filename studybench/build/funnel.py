"""The build report: the funnel from pool to final split, per sub-discipline and per source.

For each pool and each group (``problem_type`` and ``source``): parents in the pool, parents
the filter model failed (0 of k), parents kept by the step after it (subsampled into the
Application Set, 1-of-k parents included; admitted into the Transfer Set), and parents in the
final split file. Printed as rich tables, drawn as a PNG (matplotlib, headless), and logged to
MLflow by :mod:`studybench.tracking.build_log` with the filter model's identity.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from studybench.build.pools import parent_id
from studybench.build.stages import out, pool_path, read_filter
from studybench.config import Settings
from studybench.data.loaders import load_parents
from studybench.data.records import ParentProblem
from studybench.errors import DataError

STAGES = ("pool", "failed", "kept", "final")
GroupBy = Literal["problem_type", "source"]


class FunnelRow(BaseModel):
    pool: str  # "textbook" (Application) or "competition" (Transfer)
    by: GroupBy
    group: str
    pool_count: int
    failed: int
    kept: int  # subsampled (textbook) or admitted (competition)
    final: int


class Funnel(BaseModel):
    filter_model: str
    filter_engine: str
    k: int
    seeds: list[int]
    protocol_hash: str
    admission_model: str
    totals: dict[str, dict[str, int]]
    one_of_k: list[str]
    rows: list[FunnelRow]


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: cannot read ({exc}); run the build steps first") from None


def _group(parent: ParentProblem, by: GroupBy) -> str:
    return parent.problem_type if by == "problem_type" else parent.source


def build_funnel(settings: Settings) -> Funnel:
    selection = _read(out(settings, "application_selection.json"))
    admission = _read(out(settings, "admission", "result.json"))
    textbook_filter = read_filter(settings, "textbook")
    competition_filter = read_filter(settings, "competition")
    stages: dict[str, dict[str, set[str]]] = {
        "textbook": {
            "failed": {o.parent for o in textbook_filter.outcomes if o.failed},
            "kept": set(selection["selected"]),
            "final": {parent_id(p) for p in load_parents(out(settings, "application.json"))},
        },
        "competition": {
            "failed": {o.parent for o in competition_filter.outcomes if o.failed},
            "kept": set(admission["admitted"]),
            "final": {parent_id(p) for p in load_parents(out(settings, "transfer.json"))},
        },
    }
    rows: list[FunnelRow] = []
    totals: dict[str, dict[str, int]] = {}
    for pool, sets in stages.items():
        parents = load_parents(pool_path(settings, pool))  # type: ignore[arg-type]
        totals[pool] = {
            "pool": len(parents),
            **{stage: len(ids) for stage, ids in sets.items()},
        }
        by: GroupBy
        for by in ("problem_type", "source"):
            counts: dict[str, Counter[str]] = {}
            for parent in parents:
                group = counts.setdefault(_group(parent, by), Counter())
                group["pool"] += 1
                for stage, ids in sets.items():
                    group[stage] += parent_id(parent) in ids
            rows += [
                FunnelRow(
                    pool=pool,
                    by=by,
                    group=name,
                    pool_count=c["pool"],
                    failed=c["failed"],
                    kept=c["kept"],
                    final=c["final"],
                )
                for name, c in sorted(counts.items())
            ]
    return Funnel(
        filter_model=textbook_filter.model,
        filter_engine=textbook_filter.engine,
        k=textbook_filter.k,
        seeds=textbook_filter.seeds,
        protocol_hash=textbook_filter.protocol_hash,
        admission_model=str(admission.get("model", "")),
        totals=totals,
        one_of_k=list(selection.get("one_of_k", [])),
        rows=rows,
    )


def funnel_tables(funnel: Funnel) -> list[Any]:
    """Rich tables: totals, then per pool and grouping."""
    from rich.table import Table

    kept_name = {"textbook": "subsampled", "competition": "admitted"}
    tables = []
    total = Table(title=f"Build funnel (filter model {funnel.filter_model}, k={funnel.k})")
    for column in ("pool", "parents", "failed", "subsampled / admitted", "final"):
        total.add_column(column, justify="left" if column == "pool" else "right")
    for pool, t in funnel.totals.items():
        total.add_row(pool, str(t["pool"]), str(t["failed"]), str(t["kept"]), str(t["final"]))
    tables.append(total)
    for pool in funnel.totals:
        for by in ("problem_type", "source"):
            table = Table(title=f"{pool} pool by {by}")
            for column in (by, "pool", "failed", kept_name[pool], "final"):
                table.add_column(column, justify="left" if column == by else "right")
            for row in funnel.rows:
                if row.pool == pool and row.by == by:
                    table.add_row(
                        row.group, str(row.pool_count), str(row.failed), str(row.kept),
                        str(row.final),
                    )  # fmt: skip
            tables.append(table)
    return tables


def funnel_png(funnel: Funnel, path: Path) -> Path:
    """Grouped bars per sub-discipline, one panel per pool (headless matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pools = list(funnel.totals)
    figure, axes = plt.subplots(1, len(pools), figsize=(6 * len(pools), 4), squeeze=False)
    for axis, pool in zip(axes[0], pools, strict=True):
        rows = [r for r in funnel.rows if r.pool == pool and r.by == "problem_type"]
        width = 0.2
        for offset, stage in enumerate(("pool_count", "failed", "kept", "final")):
            xs = [i + (offset - 1.5) * width for i in range(len(rows))]
            axis.bar(
                xs, [getattr(r, stage) for r in rows], width, label=stage.replace("_count", "")
            )
        axis.set_xticks(range(len(rows)), [r.group for r in rows], rotation=30, ha="right")
        axis.set_title(f"{pool} pool ({funnel.totals[pool]['final']} final)")
        axis.set_ylabel("parents")
        axis.legend(fontsize=8)
    figure.suptitle(f"filter model {funnel.filter_model}, k={funnel.k}")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
