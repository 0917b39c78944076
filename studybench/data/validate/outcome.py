"""The outcome of validating a file: issues (severity, code, location) and the loaded records."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from studybench.data.records import InstructionRecord, ParentProblem, Slot


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class FileKind(StrEnum):
    """What a file holds, which decides the rules it is checked against."""

    SPLIT = "split"  # test split or guidance file: parent records
    INSTRUCTIONS = "instructions"  # instruction layer with gold answers
    INSTRUCTIONS_NO_ANSWER = "instructions-no-answer"  # instruction layer without answers


class Issue(BaseModel):
    """One finding, located precisely enough to fix the input by hand."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str
    file: str
    record: int | None = None
    source_problem_id: str | None = None
    field: str | None = None
    message: str
    repaired: bool = False
    id_field: str = "source_problem_id"  # what the record's id is called in its format

    def format(self) -> str:
        where = [self.file]
        if self.record is not None:
            label = f"record {self.record}"
            if self.source_problem_id:
                label += f" ({self.id_field}={self.source_problem_id})"
            where.append(label)
        if self.field:
            where.append(f"field {self.field}")
        suffix = " [repaired]" if self.repaired else ""
        return f"{': '.join(where)}: {self.severity.value} {self.code}: {self.message}{suffix}"


@dataclass(frozen=True)
class LoadedFile:
    """A validated file: its typed records (when usable) and every issue found."""

    path: Path
    kind: FileKind
    issues: tuple[Issue, ...]
    parents: tuple[ParentProblem, ...] = ()
    instructions: tuple[InstructionRecord, ...] = ()

    @property
    def errors(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        return not self.errors

    def slots(self) -> tuple[Slot, ...]:
        return tuple(slot for parent in self.parents for slot in parent.slots())
