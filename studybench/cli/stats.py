"""``studybench metrics compare``: the paired comparison of two evaluations of the same items.

A and B are verdict tables (JSON lines, optionally gzip: ``parent, slot, seed, attempt,
correct``, the rows ``studybench metrics passk`` reads, or item rows with ``benchmark`` and
``split``), folders holding such tables (``items/*.jsonl.gz``), or judged run folders.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from studybench.cli.common import JsonOpt, ParamsOpt, out, say
from studybench.errors import DataError


def _read_table(path: Path) -> list[Any]:
    """Rows of one JSONL(.gz) table: item rows when a line names its split, else verdict rows;
    a bad line is a DataError naming the file, line and field."""
    from pydantic import ValidationError

    from studybench.fileio import loads_json
    from studybench.metrics.items import ItemRow
    from studybench.metrics.passk import VerdictRow

    opener = gzip.open if path.suffix == ".gz" else open
    rows: list[Any] = []
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                record = loads_json(line, source=f"{path}: line {number}")
                model = ItemRow if isinstance(record, dict) and "split" in record else VerdictRow
                try:
                    rows.append(model.model_validate(record))
                except ValidationError as exc:
                    first = exc.errors()[0]
                    where = ".".join(str(p) for p in first["loc"]) or "line"
                    raise DataError(f"{path}: line {number}: {where}: {first['msg']}") from None
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read the table ({exc})") from None
    return rows


def load_evaluation(path: Path) -> tuple[list[Any], dict[str, list[str]] | None, Any]:
    """(rows, slots per parent or None, EvaluationInfo) of a table, a folder of tables or a
    judged run folder."""
    from studybench.metrics.paired import EvaluationInfo

    if path.is_file():
        return _read_table(path), None, EvaluationInfo(name=str(path))
    if not path.is_dir():
        raise DataError(f"{path}: no such verdict table or run folder")
    if (path / "generations.json").is_file():
        from studybench.benchmarks.studybench.items import item_rows, join, slots_of
        from studybench.judge.pipeline import manifest

        info = manifest(path)
        joined = join(path)
        split = str(info.get("split") or "all")
        return (
            item_rows(joined, split),
            slots_of(joined),
            EvaluationInfo(name=str(path), protocol=str(info.get("protocol_hash", ""))),
        )
    tables = sorted([*path.glob("*.jsonl"), *path.glob("*.jsonl.gz")])
    tables += sorted([*path.glob("items/*.jsonl"), *path.glob("items/*.jsonl.gz")])
    if not tables:
        raise DataError(f"{path}: neither a judged run folder nor a folder of item tables")
    return [r for t in tables for r in _read_table(t)], None, EvaluationInfo(name=str(path))


def metrics_compare(
    baseline: Annotated[Path, typer.Option(help="Verdict table or run folder (before).")],
    candidate: Annotated[Path, typer.Option(help="Verdict table or run folder (after).")],
    k: Annotated[int | None, typer.Option(help="Attempts per seed that count (first k).")] = None,
    min_effect: Annotated[
        float | None,
        typer.Option(help="Smallest change that matters, fraction (default tracking's)."),
    ] = None,
    confidence: Annotated[float, typer.Option(help="Interval level.")] = 0.95,
    alpha: Annotated[float, typer.Option(help="Family-wise error rate (Holm).")] = 0.05,
    resamples: Annotated[int, typer.Option(help="Bootstrap and permutation draws.")] = 9999,
    seed: Annotated[int, typer.Option(help="Seed of the resampling.")] = 0,
    fail_on_regression: Annotated[
        bool, typer.Option(help="Exit 1 when a metric regressed.")
    ] = False,
    as_json: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """Paired comparison clustered by parent: difference, CI, p-value, Holm, decision."""
    from studybench.metrics.clustered import METRICS
    from studybench.metrics.comparison import CompareSettings, compare_items

    if min_effect is None:
        from studybench.config import load_settings

        min_effect = load_settings(params).tracking.regression_threshold
    settings = CompareSettings(
        confidence=confidence,
        alpha=alpha,
        min_effect=min_effect,
        n_resamples=resamples,
        seed=seed,
    )
    base_rows, base_slots, base_info = load_evaluation(baseline)
    cand_rows, cand_slots, cand_info = load_evaluation(candidate)
    slots = base_slots or cand_slots
    result = compare_items(
        base_rows,
        cand_rows,
        settings,
        k=k,
        slots_of=slots,
        baseline_info=base_info,
        candidate_info=cand_info,
        metrics=METRICS,
    )
    if as_json:
        payload: dict[str, Any] = dict(result.by_metric())
        payload["k"] = result.metrics[0].k if result.metrics else k
        payload["notes"] = result.notes
        out.print_json(json.dumps(payload))
    else:
        table = Table(
            title=f"{baseline} -> {candidate} (paired over parents, "
            f"{100 * confidence:.0f}% CI, Holm over {len(result.metrics)})",
            title_justify="left",
        )
        for column in ("metric", "before", "after", "diff", "CI", "p", "Holm p", "decision"):
            table.add_column(column, justify="right")
        for m in result.metrics:
            table.add_row(
                m.key,
                f"{100 * m.baseline:.1f}",
                f"{100 * m.candidate:.1f}",
                f"{100 * m.diff:+.1f}",
                f"{100 * m.ci_low:+.1f} to {100 * m.ci_high:+.1f}",
                f"{m.p_value:.3g}",
                f"{m.p_adjusted:.3g}",
                m.decision,
            )
        out.print(table)
        for line in result.notes:
            say(line)
    if fail_on_regression and result.regression:
        raise typer.Exit(1)
