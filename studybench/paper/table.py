"""The main table and the Guidance Gap table, from evaluation records.

Rows are (base model, method), grouped in one block per base model whose first row is the
base model itself (shown as missing when it was never evaluated); columns are (split, k,
metric). A cell is **one** evaluation run, never an average of runs:

* the row's runs that logged the column's ``_mean`` metric are its candidates; of a training
  run only the checkpoints of the highest step count (the final model of the row);
* candidates that disagree on protocol, verifier or judge version, k or data version make a
  *mixed* cell: no value, a footnote lists the runs and what differs;
* otherwise the latest candidate is the cell (earlier ones are listed as superseded);
* a run with fewer per-seed child runs than its ``seeds`` param asked for is *incomplete*:
  its value is shown, marked, with the seeds missing in a footnote;
* a row without a candidate is *missing*, with the reason.

Ordering (so a re-run is byte-identical): blocks by base model name; in a block the base
model first, then methods alphabetically, Naive Guidance last; splits Application,
Transfer, then the others alphabetically; k ascending; Par before Sub. Footnotes are
numbered in reading order (block, row, column); identical footnote texts share a number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Literal

from pydantic import BaseModel, Field

from studybench.metrics.guidance_gap import guidance_gap
from studybench.paper.records import (
    BASE_METHOD,
    GUIDED_METHOD,
    MetricVerdict,
    PairComparison,
    PaperRun,
)

MEAN_KEY = re.compile(r"^(?P<split>[A-Za-z0-9_.-]+)/(?P<metric>par|sub)_at_(?P<k>\d+)_mean$")
SPLIT_ORDER = ("application", "transfer")
State = Literal["ok", "incomplete", "mixed", "missing"]


class Column(BaseModel):
    split: str
    k: int
    metric: Literal["par", "sub"]

    @property
    def key(self) -> str:
        return f"{self.split}/{self.metric}_at_{self.k}"

    @property
    def label(self) -> str:
        return f"{self.metric.capitalize()}@{self.k}"

    def sort_key(self) -> tuple[int, str, int, int]:
        rank = SPLIT_ORDER.index(self.split) if self.split in SPLIT_ORDER else len(SPLIT_ORDER)
        return (rank, self.split, self.k, 0 if self.metric == "par" else 1)


class Cell(BaseModel):
    state: State
    mean: float | None = None
    std: float | None = None
    runs: list[str] = Field(default_factory=list)  # the run the value is; all runs if mixed
    superseded: list[str] = Field(default_factory=list)
    seeds: list[int] = Field(default_factory=list)
    note: str = ""  # why mixed / incomplete / missing
    verdict: MetricVerdict | None = None
    not_compared: str = ""
    footnotes: list[int] = Field(default_factory=list)
    marker: str = ""  # comparison marker: ↑ improved, ↓ regressed, = unchanged


class Row(BaseModel):
    base_model: str
    method: str
    cells: dict[str, Cell]  # column key -> cell

    @property
    def is_base(self) -> bool:
        return self.method == BASE_METHOD


class Block(BaseModel):
    base_model: str
    rows: list[Row]


class GapCell(BaseModel):
    closed: float | None = None  # None: undefined (guidance gains nothing) or missing
    state: Literal["ok", "undefined", "missing"] = "missing"
    source: str = ""  # "table" (computed from the block's rows) or "logged"
    runs: list[str] = Field(default_factory=list)
    note: str = ""


class GapRow(BaseModel):
    base_model: str
    method: str
    cells: dict[str, GapCell]  # "<split>/<level>_at_<k>" (level par or sub) -> cell


class PaperTable(BaseModel):
    experiment: str
    columns: list[Column]
    blocks: list[Block]
    gap_columns: list[Column]
    gap_rows: list[GapRow]
    footnotes: list[str]
    gap_footnotes: list[str]

    def used_runs(self) -> list[str]:
        """Every run a cell (or a gap) of the report reads, sorted."""
        runs = {
            r for b in self.blocks for row in b.rows for c in row.cells.values() for r in c.runs
        }
        runs |= {r for g in self.gap_rows for c in g.cells.values() for r in c.runs}
        return sorted(runs)


def display_name(model: str) -> str:
    """A local path shows as its folder name; hub names (``org/model``) stay as they are."""
    return PurePosixPath(model).name if model.startswith(("/", "./", "~")) else model


def columns_of(runs: Iterable[PaperRun]) -> list[Column]:
    found = set()
    for run in runs:
        for key in run.metrics:
            match = MEAN_KEY.match(key)
            if match:
                found.add((match["split"], int(match["k"]), match["metric"]))
    cols = [Column.model_validate({"split": s, "k": k, "metric": m}) for s, k, m in found]
    return sorted(cols, key=Column.sort_key)


def _method_order(method: str) -> tuple[int, str, str]:
    rank = 0 if method == BASE_METHOD else (2 if method == GUIDED_METHOD else 1)
    return (rank, method.casefold(), method)


def _latest(runs: Sequence[PaperRun]) -> PaperRun:
    return max(runs, key=lambda r: (r.start_time, r.run_id))


def _differences(runs: Sequence[PaperRun]) -> str:
    protocols = [r.protocol() for r in runs]
    keys = sorted({k for p in protocols for k in p})
    parts = []
    for key in keys:
        values = sorted({p.get(key, "") for p in protocols})
        if len(values) > 1:
            parts.append(f"{key} ({' vs '.join(v or 'unset' for v in values)})")
    return ", ".join(parts)


def build_cell(candidates: Sequence[PaperRun], column: Column) -> Cell:
    """The cell of one row and column (see the module docstring for the rules)."""
    mean_key = f"{column.key}_mean"
    have = [r for r in candidates if mean_key in r.metrics]
    if not have:
        return Cell(
            state="missing", note=f"no run of this row logged {column.split} {column.label}"
        )
    steps = [r.step for r in have if r.training_run and r.step is not None]
    if steps:
        have = [r for r in have if r.step == max(steps)]
    differing = _differences(have)
    ordered = sorted(have, key=lambda r: (r.start_time, r.run_id))
    if differing:
        return Cell(
            state="mixed",
            runs=[r.run_id for r in ordered],
            note=f"{len(ordered)} runs differ in {differing}: not averaged",
        )
    chosen = _latest(have)
    present = sorted(chosen.seeds.get(column.split, []))
    expected = chosen.expected_seeds()
    missing_seeds = [s for s in expected if s not in present]
    cell = Cell(
        state="incomplete" if missing_seeds else "ok",
        mean=chosen.metrics[mean_key],
        std=chosen.metrics.get(f"{column.key}_std"),
        runs=[chosen.run_id],
        superseded=[r.run_id for r in ordered if r.run_id != chosen.run_id],
        seeds=present,
    )
    if missing_seeds:
        cell.note = (
            f"{len(present)} of {len(expected)} seeds "
            f"(missing seed {', '.join(map(str, missing_seeds))})"
        )
    return cell


def build_blocks(runs: Sequence[PaperRun], columns: Sequence[Column]) -> list[Block]:
    groups: dict[tuple[str, str], list[PaperRun]] = {}
    for run in runs:
        groups.setdefault((run.base_model, run.method), []).append(run)
    bases = sorted({b for b, _ in groups}, key=lambda b: (display_name(b).casefold(), b))
    blocks = []
    for base in bases:
        methods = sorted({m for b, m in groups if b == base} | {BASE_METHOD}, key=_method_order)
        rows = [
            Row(
                base_model=base,
                method=method,
                cells={c.key: build_cell(groups.get((base, method), []), c) for c in columns},
            )
            for method in methods
        ]
        for cell in rows[0].cells.values():
            if cell.state == "missing" and not groups.get((base, BASE_METHOD)):
                cell.note = "no evaluation of the base model itself in the selection"
        blocks.append(Block(base_model=base, rows=rows))
    return blocks


def comparison_pairs(blocks: Sequence[Block]) -> list[tuple[str, str]]:
    """(base run, method run) pairs to compare: every valued cell of a method row against
    the valued cell of its block's base row in the same column."""
    pairs = set()
    for block in blocks:
        base = block.rows[0]
        for row in block.rows[1:]:
            for key, cell in row.cells.items():
                ref = base.cells[key]
                if cell.mean is not None and ref.mean is not None:
                    pairs.add((ref.runs[0], cell.runs[0]))
    return sorted(pairs)


MARKERS = {"improved": "↑", "regressed": "↓", "unchanged": "="}


def attach_comparisons(
    blocks: Sequence[Block], comparisons: Mapping[tuple[str, str], PairComparison]
) -> None:
    for block in blocks:
        base = block.rows[0]
        for row in block.rows[1:]:
            for key, cell in row.cells.items():
                ref = base.cells[key]
                if cell.mean is None:
                    continue
                if ref.mean is None:
                    cell.not_compared = "no valued base-model cell to compare with"
                    continue
                found = comparisons.get((ref.runs[0], cell.runs[0]))
                if found is None:
                    cell.not_compared = "comparison not run"
                elif found.refused:
                    cell.not_compared = found.refused
                elif f"{key}_mean" in found.verdicts:
                    cell.verdict = found.verdicts[f"{key}_mean"]
                    cell.marker = MARKERS.get(cell.verdict.decision, "?")
                else:
                    cell.not_compared = "the comparison did not test this metric"


def points(value: float) -> str:
    return f"{100 * value:+.1f}"


def comparison_text(row: Row, column: Column, split_label: str) -> str:
    cell = row.cells[column.key]
    what = f"{row.method} vs the base model, {split_label} {column.label}"
    if cell.verdict is None:
        return f"{what}: not compared ({cell.not_compared})"
    v = cell.verdict
    interval = (
        f", 95% CI {points(v.ci_low)} to {points(v.ci_high)}"
        if v.ci_low is not None and v.ci_high is not None
        else ", no CI"
    )
    if v.method != "paired":
        return f"{what}: {points(v.diff)} points{interval}; {v.decision} ({v.method}: no pairing)"
    return f"{what}: {points(v.diff)} points{_estimate(v)}{interval}; {v.decision} ({_test(v)})"


def _estimate(v: MetricVerdict) -> str:
    """Why the difference need not be the difference of the two cells: the test's estimate
    pools every attempt of every seed per parent (the cells are means of per-seed scores)."""
    if v.unit == "pooled":
        return " (pooled over every attempt of every seed)"
    return " (per-seed scores averaged per parent)" if v.unit else ""


def _test(v: MetricVerdict) -> str:
    """The test that decided, in words: the sign-flip permutation over parents, the rule
    that adjusts the family, and the question the interval answers."""
    rule = {"westfall-young": "Westfall-Young", "holm": "Holm"}.get(v.multiplicity, v.multiplicity)
    family = f" over {v.family} metrics" if v.family > 1 else ""
    adjusted = f", {rule}-adjusted{family}" if rule else ""
    target = f"; CI: {v.target.replace('_', ' ')}" if v.target else ""
    return f"sign-flip permutation over parents{adjusted}{target}"


def split_label(split: str) -> str:
    return split.replace("_", " ").capitalize()


def number_footnotes(blocks: Sequence[Block], columns: Sequence[Column]) -> list[str]:
    texts: list[str] = []

    def note(cell: Cell, text: str) -> None:
        if text not in texts:
            texts.append(text)
        cell.footnotes.append(texts.index(text) + 1)

    for block in blocks:
        for row in block.rows:
            for column in columns:
                cell = row.cells[column.key]
                where = (
                    f"{display_name(row.base_model)} / {row.method}, "
                    f"{split_label(column.split)} {column.label}"
                )
                if cell.state == "missing":
                    note(cell, f"missing: {cell.note}")
                elif cell.state in ("mixed", "incomplete"):
                    note(cell, f"{where}: {cell.note}")
                if not row.is_base and cell.mean is not None:
                    note(cell, comparison_text(row, column, split_label(column.split)))
    return texts


def _gap_columns(columns: Sequence[Column]) -> list[Column]:
    return list(columns)


def build_gap_rows(
    blocks: Sequence[Block], runs_by_id: Mapping[str, PaperRun], columns: Sequence[Column]
) -> list[GapRow]:
    """Per method row (not the base model, not Naive Guidance) and split: the share of the
    Naive Guidance gain closed (:func:`studybench.metrics.guidance_gap.guidance_gap`) from
    the block's own base and guided rows; else the gap the method's run logged against its
    references; else missing with the reason."""
    pairs = sorted(
        {(c.split, c.k) for c in columns},
        key=lambda p: Column(split=p[0], k=p[1], metric="par").sort_key(),
    )
    out = []
    for block in blocks:
        base = block.rows[0]
        guided = next((r for r in block.rows if r.method == GUIDED_METHOD), None)
        for row in block.rows:
            if row.method in (BASE_METHOD, GUIDED_METHOD):
                continue
            cells: dict[str, GapCell] = {}
            for split, k in pairs:
                keys = (f"{split}/par_at_{k}", f"{split}/sub_at_{k}")
                method = [row.cells.get(key) for key in keys]
                if any(c is None or c.mean is None for c in method):
                    for key in keys:
                        cells[key] = GapCell(note="the method's cell has no value")
                    continue
                refs = [base.cells.get(key) for key in keys]
                guide = [guided.cells.get(key) if guided else None for key in keys]
                if all(c is not None and c.mean is not None for c in refs + guide):
                    gap = guidance_gap(
                        split,
                        k,
                        method=(method[0].mean, method[1].mean),  # type: ignore[union-attr,arg-type]
                        base=(refs[0].mean, refs[1].mean),  # type: ignore[union-attr,arg-type]
                        guided=(guide[0].mean, guide[1].mean),  # type: ignore[union-attr,arg-type]
                    )
                    for key, level, m, b, g in zip(
                        keys, (gap.parent, gap.slot), method, refs, guide, strict=True
                    ):
                        used = sorted({*m.runs, *b.runs, *g.runs})  # type: ignore[union-attr]
                        partial = [c for c in (m, b, g) if c is not None and c.state != "ok"]
                        note = "guidance gains nothing" if level.closed is None else ""
                        if partial:
                            note = "from cells with incomplete seeds" + (
                                f"; {note}" if note else ""
                            )
                        cells[key] = GapCell(
                            closed=level.closed,
                            state="ok" if level.closed is not None else "undefined",
                            source="table",
                            runs=used,
                            note=note,
                        )
                    continue
                run = runs_by_id[method[0].runs[0]]  # type: ignore[union-attr]
                for key, name in zip(keys, ("par", "sub"), strict=True):
                    logged = run.metrics.get(f"{split}/guidance_gap_{name}_at_{k}")
                    if logged is not None:
                        cells[key] = GapCell(
                            closed=logged,
                            state="ok",
                            source="logged",
                            runs=[run.run_id],
                            note=f"logged on run {run.run_id} against its own references",
                        )
                    else:
                        cells[key] = GapCell(
                            note=(
                                "no valued base-model and Naive Guidance cells in this block, "
                                "and the method's run logged no gap"
                            )
                        )
            out.append(GapRow(base_model=row.base_model, method=row.method, cells=cells))
    return out


def gap_footnotes(rows: Sequence[GapRow]) -> tuple[list[str], dict[tuple[int, str], int]]:
    texts: list[str] = []
    marks: dict[tuple[int, str], int] = {}
    for i, row in enumerate(rows):
        for key, cell in row.cells.items():
            if cell.note:
                text = cell.note if cell.state != "ok" else f"{row.method}: {cell.note}"
                if text not in texts:
                    texts.append(text)
                marks[(i, key)] = texts.index(text) + 1
    return texts, marks


def build_table(
    experiment: str,
    runs: Sequence[PaperRun],
    comparisons: Mapping[tuple[str, str], PairComparison] | None = None,
) -> PaperTable:
    """The whole table; ``comparisons`` come from :func:`comparison_pairs` of the same
    ``runs`` (empty: every cell says it was not compared)."""
    columns = columns_of(runs)
    blocks = build_blocks(runs, columns)
    attach_comparisons(blocks, comparisons or {})
    footnotes = number_footnotes(blocks, columns)
    gap_rows = build_gap_rows(blocks, {r.run_id: r for r in runs}, columns)
    texts, _ = gap_footnotes(gap_rows)
    return PaperTable(
        experiment=experiment,
        columns=columns,
        blocks=blocks,
        gap_columns=_gap_columns(columns),
        gap_rows=gap_rows,
        footnotes=footnotes,
        gap_footnotes=texts,
    )
