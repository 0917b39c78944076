"""The StudyBench data model: records, answer types, validation and loaders (pure, no I/O
beyond reading the files asked for)."""

from studybench.data.answer_types import ATOMIC_TYPES, COMPOSITE_TYPES, AnswerType
from studybench.data.loaders import (
    DataValidationError,
    load_guidance,
    load_instruction_layer,
    load_parents,
    load_split,
)
from studybench.data.records import (
    ChatMessage,
    InstructionRecord,
    KnowledgePoint,
    ParentProblem,
    Slot,
    SlotKey,
    SubProblem,
)
from studybench.data.validate import FileKind, Issue, LoadedFile, Severity, validate_file

__all__ = [
    "ATOMIC_TYPES",
    "COMPOSITE_TYPES",
    "AnswerType",
    "ChatMessage",
    "DataValidationError",
    "FileKind",
    "InstructionRecord",
    "Issue",
    "KnowledgePoint",
    "LoadedFile",
    "ParentProblem",
    "Severity",
    "Slot",
    "SlotKey",
    "SubProblem",
    "load_guidance",
    "load_instruction_layer",
    "load_parents",
    "load_split",
    "validate_file",
]
