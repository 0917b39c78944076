"""Loading release files into typed records, failing loudly on invalid data.

Callers that want every finding without an exception (``studybench data validate``) use
:func:`studybench.data.validate.validate_file`; everything else loads through these
functions, which raise :class:`DataValidationError` listing every error at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from studybench.data.records import InstructionRecord, ParentProblem, SlotKey
from studybench.data.validate import FileKind, Issue, LoadedFile, validate_file
from studybench.errors import DataError


class DataValidationError(DataError):
    """A file failed validation. ``issues`` holds every error and warning found."""

    def __init__(self, path: Path, issues: Iterable[Issue]) -> None:
        self.path = path
        self.issues = tuple(issues)
        errors = [i for i in self.issues if i.severity == "error"]
        shown = "\n  ".join(issue.format() for issue in errors[:20])
        more = f"\n  ... and {len(errors) - 20} more" if len(errors) > 20 else ""
        super().__init__(f"{path}: {len(errors)} validation error(s):\n  {shown}{more}")


def _load(path: Path | str, kind: FileKind) -> LoadedFile:
    loaded = validate_file(path, kind)
    if not loaded.ok:
        raise DataValidationError(loaded.path, loaded.issues)
    return loaded


def load_split(path: Path | str) -> LoadedFile:
    """Load a test split (Application or Transfer) or a guidance file of parent records."""
    return _load(path, FileKind.SPLIT)


def load_parents(path: Path | str) -> tuple[ParentProblem, ...]:
    """The parent records of a split, repaired and validated."""
    return load_split(path).parents


def load_test_parents(paths: Iterable[Path | str]) -> list[ParentProblem]:
    """The parents of the test splits a corpus must not leak (at least one split)."""
    chosen = list(paths)
    if not chosen:
        raise DataError("give at least one test split with --eval")
    return [parent for path in chosen for parent in load_parents(path)]


def load_instruction_layer(
    path: Path | str, *, with_answers: bool = True
) -> tuple[InstructionRecord, ...]:
    """Load an instruction layer; ``with_answers=False`` for ``unverifiable_instr.json``."""
    kind = FileKind.INSTRUCTIONS if with_answers else FileKind.INSTRUCTIONS_NO_ANSWER
    return _load(path, kind).instructions


def load_guidance(path: Path | str) -> dict[SlotKey, str]:
    """Index a guidance file by slot key: the text injected as "Solving Guidance".

    Subs with empty guidance are skipped; a file that yields no guidance at all is an error,
    since injecting nothing would silently turn a guided run into an unguided one.
    """
    loaded = load_split(path)
    index = {
        parent.slot_key(sub.problem_id): sub.guidance.strip()
        for parent in loaded.parents
        for sub in parent.sub_problems
        if sub.guidance.strip()
    }
    if not index:
        raise DataError(f"{loaded.path}: no sub-problem carries a non-empty 'guidance'")
    return index
