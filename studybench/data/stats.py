"""Inventory of release files: how many parents, slots and answer types a set of files has."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, Field

from studybench.data.answer_types import AnswerType, split_type_sequence
from studybench.data.records import InstructionRecord, ParentProblem
from studybench.data.validate import FileKind, LoadedFile


class SplitStats(BaseModel):
    """Counts over parent records (test splits and guidance files)."""

    parents: int = 0
    slots: int = 0
    multi_sub_parents: int = 0
    solo_parents: int = 0
    subs_per_parent: dict[int, int] = Field(default_factory=dict)
    by_source: dict[str, int] = Field(default_factory=dict)
    by_problem_type: dict[str, int] = Field(default_factory=dict)
    by_answer_type: dict[str, int] = Field(default_factory=dict)
    inner_types: dict[str, int] = Field(
        default_factory=dict, description="types inside TUP/ALT sequences"
    )
    slots_with_guidance: int = 0
    slots_with_knowledge_points: int = 0


class InstructionStats(BaseModel):
    """Counts over an instruction layer."""

    records: int = 0
    single_turn: int = 0
    multi_turn: int = 0
    with_answer: int = 0
    by_answer_type: dict[str, int] = Field(default_factory=dict)
    inner_types: dict[str, int] = Field(default_factory=dict)


class FileStats(BaseModel):
    path: str
    kind: FileKind
    errors: int
    warnings: int
    split: SplitStats | None = None
    instructions: InstructionStats | None = None


def _sorted(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def split_stats(parents: Iterable[ParentProblem]) -> SplitStats:
    by_source: Counter[str] = Counter()
    by_problem_type: Counter[str] = Counter()
    by_answer_type: Counter[str] = Counter()
    inner: Counter[str] = Counter()
    subs_per_parent: Counter[int] = Counter()
    stats = SplitStats()
    for parent in parents:
        stats.parents += 1
        by_source[parent.source] += 1
        by_problem_type[parent.problem_type or "(none)"] += 1
        slots = parent.slots()
        stats.slots += len(slots)
        subs_per_parent[len(parent.sub_problems)] += 1
        if parent.is_solo:
            stats.solo_parents += 1
        else:
            stats.multi_sub_parents += 1
        for slot in slots:
            by_answer_type[slot.answer_type.value] += 1
            inner.update(t.value for t in slot.type_sequence)
            stats.slots_with_guidance += bool(slot.guidance.strip())
            stats.slots_with_knowledge_points += bool(slot.knowledge_points)
    stats.by_source = _sorted(by_source)
    stats.by_problem_type = _sorted(by_problem_type)
    stats.by_answer_type = _sorted(by_answer_type)
    stats.inner_types = _sorted(inner)
    stats.subs_per_parent = dict(sorted(subs_per_parent.items()))
    return stats


def instruction_stats(records: Iterable[InstructionRecord]) -> InstructionStats:
    by_answer_type: Counter[str] = Counter()
    inner: Counter[str] = Counter()
    stats = InstructionStats()
    for record in records:
        stats.records += 1
        if record.user_turns > 1:
            stats.multi_turn += 1
        else:
            stats.single_turn += 1
        answers = record.answers()
        stats.with_answer += bool(answers)
        for _, answer_type, sequence in answers:
            by_answer_type[answer_type] += 1
            if answer_type in (AnswerType.TUP, AnswerType.ALT):
                inner.update(split_type_sequence(sequence))
    stats.by_answer_type = _sorted(by_answer_type)
    stats.inner_types = _sorted(inner)
    return stats


def file_stats(loaded: LoadedFile) -> FileStats:
    """Stats over the records that validated (records with errors are not counted)."""
    result = FileStats(
        path=str(loaded.path),
        kind=loaded.kind,
        errors=len(loaded.errors),
        warnings=len(loaded.warnings),
    )
    if loaded.kind is FileKind.SPLIT:
        result.split = split_stats(loaded.parents)
    else:
        result.instructions = instruction_stats(loaded.instructions)
    return result


def distinct_split_stats(loaded: Iterable[LoadedFile]) -> SplitStats | None:
    """Stats over the split files together, each parent counted once: a guidance file
    repeats the Transfer parents, so it must not count them twice. None without splits."""
    distinct = {
        (p.source, p.year, p.source_problem_id): p
        for result in loaded
        if result.kind is FileKind.SPLIT
        for p in result.parents
    }
    return split_stats(distinct.values()) if distinct else None
