"""THE items × verdicts join of a StudyBench run folder: every generated (parent, slot, seed,
attempt) with its verdict (or none) and whether its turn was cut off. The report, the
per-problem table, the discipline plot, the per-item rows for the statistics and the guidance
admission all read this one join instead of matching verdicts to items themselves."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from studybench.judge.pipeline import JudgeItem, SlotVerdict, iter_verdicts, load_items
from studybench.metrics.items import ItemRow
from studybench.verify.extract import strip_think


@dataclass(frozen=True)
class Judged:
    """One generated item and its verdict (``None``: not judged, counted as wrong)."""

    item: JudgeItem
    verdict: SlotVerdict | None
    truncated: bool

    @property
    def correct(self) -> bool:
        return bool(self.verdict is not None and self.verdict.final_correct)

    @property
    def stage(self) -> str:
        if self.verdict is None:
            return "none"
        return self.verdict.stage


def _finish_reasons(run_dir: Path) -> dict[tuple[str, str, int, int], str]:
    """``finish_reason`` of every completion of ``generations.json`` (absent in dumps of the
    reference harness: then only an unterminated think marks a cut-off turn)."""
    path = run_dir / "generations.json"
    try:
        parents = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    reasons: dict[tuple[str, str, int, int], str] = {}
    for parent in parents if isinstance(parents, list) else []:
        pid = f"{parent.get('source', '')}/{parent.get('year', '') or '-'}/"
        pid += str(parent.get("source_problem_id", ""))
        per_seed: dict[int, int] = {}
        for attempt in parent.get("attempts", []):
            seed = int(attempt.get("seed", 0))
            number = per_seed.get(seed, 0) if "seed" in attempt else int(attempt["attempt_id"])
            per_seed[seed] = per_seed.get(seed, 0) + 1
            for slot in attempt.get("completions", []):
                raw = slot.get("raw_response") or {}
                reason = raw.get("finish_reason") if isinstance(raw, dict) else None
                if reason:
                    key = (pid, str(slot.get("problem_id", "")), seed, number)
                    reasons[key] = str(reason)
    return reasons


def join(run_dir: Path) -> list[Judged]:
    """Every item of ``run_dir`` with its verdict, in the order of ``generations.json``."""
    items = load_items(run_dir)
    verdicts = {(v.parent, v.slot, v.seed, v.attempt): v for v in iter_verdicts(run_dir)}
    reasons = _finish_reasons(run_dir)
    out = []
    for item in items:
        key = (item.parent, item.slot, item.seed, item.attempt)
        cut = reasons.get(key) == "length" or strip_think(item.completion)[1]
        out.append(Judged(item=item, verdict=verdicts.get(key), truncated=cut))
    return out


def item_rows(joined: list[Judged], split: str) -> list[ItemRow]:
    """The per-item table of one split (a missing verdict is no row: counted wrong)."""
    return [
        ItemRow(
            benchmark="studybench",
            split=split,
            parent=j.item.parent,
            slot=j.item.slot,
            seed=j.item.seed,
            attempt=j.item.attempt,
            correct=j.correct,
            stage=j.stage,
            answer_type=j.item.answer_type,
            truncated=j.truncated,
        )
        for j in joined
        if j.verdict is not None
    ]


def slots_of(joined: list[Judged]) -> dict[str, list[str]]:
    """Each parent's slots in order (a parent's missing verdicts count as wrong)."""
    out: dict[str, list[str]] = {}
    for j in joined:
        slots = out.setdefault(j.item.parent, [])
        if j.item.slot not in slots:
            slots.append(j.item.slot)
    return out
