"""The verdict-flip report of a re-score: which stored verdicts the new instrument decides the
other way, in which direction, by answer type and by class (the rule stage's reason before
and after), with a few bounded examples. Together the reports of a version bump are the
verifier's changelog measured on real outputs.

Pure: verdict records in, a report out. Model output is hostile, so an example carries at
most :data:`EXAMPLE_CHARS` characters of it (scrubbed of secrets).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from studybench.secrets import scrub_secrets

EXAMPLE_CHARS = 300
TO_CORRECT = "incorrect->correct"
TO_INCORRECT = "correct->incorrect"


class Flip(BaseModel):
    """One verdict the re-score decided the other way."""

    split: str
    parent: str
    slot: str
    seed: int
    attempt: int
    answer_type: str
    direction: str
    old_reason: str
    new_reason: str
    old_stage: str
    new_stage: str

    @property
    def flip_class(self) -> str:
        return f"{self.old_reason or '-'} -> {self.new_reason or '-'}"


class FlipExample(BaseModel):
    direction: str
    answer_type: str
    slot: str
    flip_class: str
    gold: str
    extracted: str
    completion_tail: str


class FlipReport(BaseModel):
    """Counts of flips by direction, answer type and class over ``compared`` verdicts."""

    compared: int = 0
    unchanged: int = 0
    missing_before: int = 0  # verdicts the original run did not have (counted wrong there)
    by_direction: dict[str, int] = Field(default_factory=dict)
    by_answer_type: dict[str, dict[str, int]] = Field(default_factory=dict)
    by_class: dict[str, dict[str, int]] = Field(default_factory=dict)
    examples: list[FlipExample] = Field(default_factory=list)

    @property
    def flips(self) -> int:
        return sum(self.by_direction.values())

    def metrics(self) -> dict[str, float]:
        return {
            "rescore/flips": float(self.flips),
            "rescore/flips_to_correct": float(self.by_direction.get(TO_CORRECT, 0)),
            "rescore/flips_to_incorrect": float(self.by_direction.get(TO_INCORRECT, 0)),
            "rescore/compared": float(self.compared),
        }

    def tables(self) -> dict[str, dict[str, list[object]]]:
        """MLflow tables: the counts (one row per direction x answer type x class) and the
        examples."""
        counts: dict[str, list[object]] = {
            "direction": [],
            "answer_type": [],
            "class": [],
            "count": [],
        }
        for direction, types in sorted(self.by_answer_type.items()):
            for answer_type, n in sorted(types.items()):
                counts["direction"].append(direction)
                counts["answer_type"].append(answer_type)
                counts["class"].append("(all)")
                counts["count"].append(n)
        for direction, classes in sorted(self.by_class.items()):
            for flip_class, n in sorted(classes.items()):
                counts["direction"].append(direction)
                counts["answer_type"].append("(all)")
                counts["class"].append(flip_class)
                counts["count"].append(n)
        fields = list(FlipExample.model_fields)
        examples: dict[str, list[object]] = {f: [] for f in fields}
        for example in self.examples:
            for f in fields:
                examples[f].append(getattr(example, f))
        return {"tables/rescore_flips.json": counts, "tables/rescore_flip_examples.json": examples}


def _bounded(text: str, limit: int = EXAMPLE_CHARS) -> str:
    text = scrub_secrets(text)
    return text if len(text) <= limit else "…" + text[-limit:]


def flip_report(
    split: str,
    old: Mapping[tuple[str, str, int, int], Mapping[str, Any]],
    new: Iterable[Any],
    items: Mapping[tuple[str, str, int, int], Any],
    *,
    examples: int = 3,
    into: FlipReport | None = None,
) -> FlipReport:
    """Compare the original verdicts ``old`` (verdict records as logged, by (parent, slot,
    seed, attempt)) with the new ones (``SlotVerdict``s) of one split; ``items`` are the
    judge items (gold, completion, answer type) by the same key. Adds to ``into``."""
    report = into or FlipReport()
    shown: Counter[tuple[str, str]] = Counter((e.direction, e.answer_type) for e in report.examples)
    for verdict in sorted(new, key=lambda v: (v.parent, v.slot, v.seed, v.attempt)):
        key = (verdict.parent, verdict.slot, verdict.seed, verdict.attempt)
        before = old.get(key)
        report.compared += 1
        was = bool(before.get("final_correct")) if before is not None else False
        if before is None:
            report.missing_before += 1
        if was == verdict.final_correct:
            report.unchanged += 1
            continue
        item = items.get(key)
        answer_type = getattr(item, "answer_type", "") or "(none)"
        flip = Flip(
            split=split,
            parent=verdict.parent,
            slot=verdict.slot,
            seed=verdict.seed,
            attempt=verdict.attempt,
            answer_type=answer_type,
            direction=TO_CORRECT if verdict.final_correct else TO_INCORRECT,
            old_reason=str(before.get("rule_reason", "")) if before else "(no verdict)",
            new_reason=verdict.rule_reason,
            old_stage=str(before.get("stage", "")) if before else "none",
            new_stage=verdict.stage,
        )
        report.by_direction[flip.direction] = report.by_direction.get(flip.direction, 0) + 1
        types = report.by_answer_type.setdefault(flip.direction, {})
        types[answer_type] = types.get(answer_type, 0) + 1
        classes = report.by_class.setdefault(flip.direction, {})
        classes[flip.flip_class] = classes.get(flip.flip_class, 0) + 1
        if shown[(flip.direction, answer_type)] < examples:
            shown[(flip.direction, answer_type)] += 1
            report.examples.append(
                FlipExample(
                    direction=flip.direction,
                    answer_type=answer_type,
                    slot=f"{split}:{verdict.parent}/{verdict.slot} seed {verdict.seed} "
                    f"attempt {verdict.attempt}",
                    flip_class=flip.flip_class,
                    gold=_bounded(str(getattr(item, "answer", ""))),
                    extracted=_bounded(", ".join(verdict.extracted)),
                    completion_tail=_bounded(str(getattr(item, "completion", ""))),
                )
            )
    return report
