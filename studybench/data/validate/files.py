"""Reading a release file in either shape, guessing its kind, and validating it whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studybench.data.validate.instructions import validate_instructions
from studybench.data.validate.outcome import FileKind, Issue, LoadedFile
from studybench.data.validate.reporting import file_error
from studybench.data.validate.splits import validate_split
from studybench.fileio import JSONReadError, read_json


def read_records(path: Path) -> tuple[list[Any] | None, list[Issue]]:
    """Read a JSON file in either release shape: ``{"data": [...]}`` or a bare list."""
    name = str(path)
    try:
        loaded = read_json(path)
    except JSONReadError as exc:  # unreadable, not UTF-8, malformed, too deep, huge numbers
        return None, [file_error(name, "invalid-json", exc.reason)]
    if isinstance(loaded, list):
        return loaded, []
    if isinstance(loaded, dict) and isinstance(loaded.get("data"), list):
        return loaded["data"], []
    shape = type(loaded).__name__
    keys = f" with keys {sorted(loaded)[:5]}" if isinstance(loaded, dict) else ""
    message = f'top level must be a list or {{"data": [...]}}, got {shape}{keys}'
    return None, [file_error(name, "bad-shape", message)]


def detect_kind(path: Path, records: list[Any]) -> FileKind:
    """Instruction layers have chat ``messages``; the answerless one is named
    ``unverifiable*`` or ``*without_answer*`` (``--kind`` overrides the guess)."""
    first = next((r for r in records if isinstance(r, dict)), {})
    if "messages" in first:
        if path.name.startswith("unverifiable") or "without_answer" in path.name:
            return FileKind.INSTRUCTIONS_NO_ANSWER
        return FileKind.INSTRUCTIONS
    return FileKind.SPLIT


def validate_file(path: Path | str, kind: FileKind | None = None) -> LoadedFile:
    """Check a file completely and build its records; never raises on bad data."""
    path = Path(path)
    records, issues = read_records(path)
    if records is None:
        return LoadedFile(path, kind or FileKind.SPLIT, tuple(issues))
    kind = kind or detect_kind(path, records)
    if kind is FileKind.SPLIT:
        return validate_split(path, records)
    return validate_instructions(path, records, with_answers=kind is FileKind.INSTRUCTIONS)
