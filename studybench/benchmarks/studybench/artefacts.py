"""The files a logged StudyBench split carries to MLflow: generations, verdicts, the report
(markdown and JSON), Par@k by sub-discipline as a plot, and the per-problem table."""

from __future__ import annotations

import gzip
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.studybench.items import Judged, slots_of
from studybench.benchmarks.studybench.report import Report, markdown
from studybench.metrics.passk import VerdictRow, score


def write_jsonl_gz(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def plot_disciplines(report: Report, joined: list[Judged], split: str, path: Path) -> None:
    """Par@k per sub-discipline, mean ± std over seeds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    discipline = {j.item.parent: j.item.problem_type or "(none)" for j in joined}
    slots = slots_of(joined)
    per_label: dict[str, list[float]] = defaultdict(list)
    for seed in report.scores.seeds:
        rows = [
            VerdictRow(
                parent=j.item.parent,
                slot=j.item.slot,
                seed=seed,
                attempt=j.item.attempt,
                correct=j.correct,
            )
            for j in joined
            if j.item.seed == seed
        ]
        seed_score = score(rows, slots, groups={"d": discipline})
        for label, values in seed_score.breakdowns["d"].items():
            per_label[label].append(values["par"])
    labels = sorted(per_label)
    means = [statistics.fmean(per_label[label]) for label in labels]
    stds = [
        statistics.stdev(per_label[label]) if len(per_label[label]) > 1 else 0.0 for label in labels
    ]
    k = report.scores.k
    figure, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(labels)), 3.2))
    axes.bar(labels, means, yerr=stds, capsize=4, color="#4C72B0")
    axes.set_ylabel(f"Par@{k}")
    axes.set_ylim(0, 1)
    axes.set_title(f"{split}: Par@{k} by sub-discipline (± seed std)")
    axes.tick_params(axis="x", labelrotation=30)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def problem_table(joined: list[Judged], seeds: Sequence[int]) -> dict[str, list[Any]]:
    """One row per (parent, slot): answer type, sub-discipline, correct attempts per seed,
    the stage that decided most of its verdicts."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for j in joined:
        item = j.item
        row = rows.setdefault(
            (item.parent, item.slot),
            {
                "slot_key": f"{item.parent}/{item.slot}",
                "answer_type": item.answer_type,
                "problem_type": item.problem_type,
                "stages": Counter(),
                **{f"seed_{s}_correct": 0 for s in seeds},
            },
        )
        if j.verdict is not None:
            row[f"seed_{item.seed}_correct"] += int(j.correct)
            row["stages"][j.verdict.stage] += 1
    columns: dict[str, list[Any]] = defaultdict(list)
    for row in rows.values():
        stages = row.pop("stages")
        row["judge_stage"] = stages.most_common(1)[0][0] if stages else "none"
        for key, value in row.items():
            columns[key].append(value)
    return dict(columns)


def write_split_artefacts(
    folder: Path,
    report: Report,
    joined: list[Judged],
    generations: Sequence[dict[str, Any]],
    split: str,
) -> None:
    """Every file of one split into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    write_jsonl_gz(folder / "generations.jsonl.gz", generations)
    write_jsonl_gz(
        folder / "verdicts.jsonl.gz",
        [j.verdict.model_dump(mode="json") for j in joined if j.verdict is not None],
    )
    (folder / "report.md").write_text(markdown(report))
    (folder / "report.json").write_text(report.model_dump_json(indent=1))
    plot_disciplines(report, joined, split, folder / "par_by_discipline.png")
