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


def _versions(values: set[str]) -> str:
    """One side's instrument version: several in one evaluation are listed (and then differ
    from any single version on the other side)."""
    return ",".join(sorted(v for v in values if v))


def _read_table(path: Path, versions: dict[str, set[str]] | None = None) -> list[Any]:
    """Rows of one JSONL(.gz) table: item rows when a line names its split, else verdict rows;
    a bad line is a DataError naming the file, line and field. ``versions`` collects the
    ``verifier_version``/``judge_version`` fields lines carry.

    pydantic parses each line straight from JSON (its parser bounds nesting): three times
    faster than ``json.loads`` and a model per line, most of ``metrics compare``'s time."""
    from pydantic import ValidationError

    from studybench.metrics.items import ItemRow
    from studybench.metrics.passk import VerdictRow

    opener = gzip.open if path.suffix == ".gz" else open
    rows: list[Any] = []
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    try:
                        rows.append(ItemRow.model_validate_json(line))
                    except ValidationError as exc:
                        missing_split = any(
                            e["type"] == "missing" and e["loc"] == ("split",) for e in exc.errors()
                        )
                        if not missing_split:
                            raise
                        rows.append(VerdictRow.model_validate_json(line))
                except ValidationError as exc:
                    first = exc.errors()[0]
                    if first["type"] == "json_invalid":
                        raise DataError(
                            f"{path}: line {number}: invalid JSON ({first['msg']})"
                        ) from None
                    where = ".".join(str(p) for p in first["loc"]) or "line"
                    raise DataError(f"{path}: line {number}: {where}: {first['msg']}") from None
                if versions is not None and "_version" in line:
                    record = json.loads(line)
                    for field, seen in versions.items():
                        if isinstance(record.get(field), str):
                            seen.add(record[field][:80])
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read the table ({exc})") from None
    return rows


def load_evaluation(path: Path) -> tuple[list[Any], dict[str, list[str]] | None, Any]:
    """(rows, slots per parent or None, EvaluationInfo) of a table, a folder of tables or a
    judged run folder. The info carries the verifier and judge versions the verdicts (or item
    lines) record, so that a comparison of two instruments is refused."""
    from studybench.metrics.paired import EvaluationInfo

    versions: dict[str, set[str]] = {"verifier_version": set(), "judge_version": set()}

    def info(**fields: str) -> Any:
        return EvaluationInfo(
            name=str(path), **fields, **{k: _versions(v) for k, v in versions.items()}
        )

    if path.is_file():
        rows = _read_table(path, versions)
        return rows, None, info()
    if not path.is_dir():
        raise DataError(f"{path}: no such verdict table or run folder")
    if (path / "generations.json").is_file():
        from studybench.benchmarks.studybench.items import item_rows, join, slots_of
        from studybench.judge.pipeline import manifest

        run = manifest(path)
        joined = join(path)
        split = str(run.get("split") or "all")
        for j in joined:
            if j.verdict is not None:
                versions["verifier_version"].add(j.verdict.verifier_version)
                versions["judge_version"].add(j.verdict.judge_version or "")
        return (
            item_rows(joined, split),
            slots_of(joined),
            info(protocol=str(run.get("protocol_hash", ""))),
        )
    tables = sorted([*path.glob("*.jsonl"), *path.glob("*.jsonl.gz")])
    tables += sorted([*path.glob("items/*.jsonl"), *path.glob("items/*.jsonl.gz")])
    if not tables:
        raise DataError(f"{path}: neither a judged run folder nor a folder of item tables")
    rows = [r for t in tables for r in _read_table(t, versions)]
    return rows, None, info()


def metrics_compare(
    baseline: Annotated[Path, typer.Option(help="Verdict table or run folder (before).")],
    candidate: Annotated[Path, typer.Option(help="Verdict table or run folder (after).")],
    k: Annotated[int | None, typer.Option(help="Attempts per seed that count (first k).")] = None,
    min_effect: Annotated[
        float | None,
        typer.Option(help="Smallest change that matters, fraction (default tracking's)."),
    ] = None,
    confidence: Annotated[float, typer.Option(help="Interval level.")] = 0.95,
    alpha: Annotated[float, typer.Option(help="Family-wise error rate.")] = 0.05,
    resamples: Annotated[int, typer.Option(help="Bootstrap and permutation draws.")] = 10000,
    target: Annotated[
        str | None,
        typer.Option(
            help="Question the decision answers: this_benchmark (items fixed) or "
            "problems_like_these (default: tracking.regression_target)."
        ),
    ] = None,
    holm: Annotated[
        bool, typer.Option(help="Holm instead of Westfall-Young over the family.")
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the resampling.")] = 0,
    fail_on_regression: Annotated[
        bool, typer.Option(help="Exit 1 when a metric regressed.")
    ] = False,
    as_json: JsonOpt = False,
    params: ParamsOpt = None,
) -> None:
    """Paired comparison over parents (pooled attempts, exact sign flips, Westfall-Young):
    difference, CIs for both targets, p-values, decision."""
    from studybench.metrics.clustered import METRICS
    from studybench.metrics.comparison import TARGETS, CompareSettings, compare_items

    if min_effect is None or target is None:
        from studybench.config import load_settings

        tracking = load_settings(params).tracking
        min_effect = tracking.regression_threshold if min_effect is None else min_effect
        target = tracking.regression_target if target is None else target
    if target not in TARGETS:
        raise DataError(f"--target: {target!r} is not one of {', '.join(TARGETS)}")
    settings = CompareSettings(
        confidence=confidence,
        alpha=alpha,
        min_effect=min_effect,
        n_resamples=resamples,
        seed=seed,
        target=target,
        multiplicity="holm" if holm else "westfall-young",
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
        payload.update(result.summary())
        out.print_json(json.dumps(payload, allow_nan=True))
    else:
        adjusted = "WY p" if result.multiplicity == "westfall-young" else "Holm p"
        table = Table(
            title=f"{baseline} -> {candidate} (paired over parents, {100 * confidence:.0f}% "
            f"CI: {settings.target.replace('_', ' ')}; {adjusted} over {len(result.metrics)})",
            title_justify="left",
        )
        columns = ("metric", "before", "after", "diff", "CI", "p", adjusted, "MDE", "decision")
        for column in columns:
            table.add_column(column, justify="right")
        for m in result.metrics:
            table.add_row(
                m.key,
                f"{100 * m.baseline:.1f} ± {100 * m.baseline_std:.1f}",
                f"{100 * m.candidate:.1f} ± {100 * m.candidate_std:.1f}",
                f"{100 * m.diff:+.1f}",
                f"{100 * m.ci_low:+.1f} to {100 * m.ci_high:+.1f}",
                f"{m.p_value:.3g}",
                f"{m.p_adjusted:.3g}",
                f"{100 * m.mde:.1f}",
                m.decision,
            )
        out.print(table)
        say(f"method: {result.method}")
        if result.instruments:
            say("instruments: " + ", ".join(f"{k} {v}" for k, v in result.instruments.items()))
        for line in [*result.warnings, *result.notes]:
            say(line)
    if fail_on_regression and result.regression:
        raise typer.Exit(1)
