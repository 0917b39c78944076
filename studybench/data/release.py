"""Importing a StudyBench release: validated, normalised copies of its data files.

Everything is validated before anything is written, so a release with errors leaves the
previous import untouched. Outputs use stable names and one shape (parents as
``{"data": [...]}``, instruction layers as a list), with the documented quirk repairs
applied, so downstream stages and their DVC hashes only change when the data does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import ReleaseSettings
from studybench.data.loaders import DataValidationError
from studybench.data.validate import FileKind, LoadedFile, validate_file
from studybench.fileio import write_atomic

#: imported file name -> (release setting naming the source file, kind)
RELEASE_FILES: dict[str, tuple[str, FileKind]] = {
    "application.json": ("application_split", FileKind.SPLIT),
    "transfer.json": ("transfer_split", FileKind.SPLIT),
    "guidance.json": ("guidance", FileKind.SPLIT),
    "instructions_with_answer.json": ("instructions_with_answer", FileKind.INSTRUCTIONS),
    "instructions_with_answer_multi.json": (
        "instructions_with_answer_multi",
        FileKind.INSTRUCTIONS,
    ),
    "instructions_without_answer.json": (
        "instructions_without_answer",
        FileKind.INSTRUCTIONS_NO_ANSWER,
    ),
}


class ImportedFile(BaseModel):
    source: str
    target: str
    records: int
    warnings: int


def _payload(loaded: LoadedFile) -> Any:
    if loaded.kind is FileKind.SPLIT:
        return {"data": [p.model_dump(mode="json", by_alias=True) for p in loaded.parents]}
    return [r.model_dump(mode="json", by_alias=True) for r in loaded.instructions]


def import_release(settings: ReleaseSettings) -> list[ImportedFile]:
    """Validate every release file, then write all normalised copies to ``out_dir``."""
    loaded: dict[str, LoadedFile] = {}
    for target, (setting, kind) in RELEASE_FILES.items():
        source = settings.root / str(getattr(settings, setting))
        result = validate_file(source, kind)
        if not result.ok:
            raise DataValidationError(result.path, result.issues)
        loaded[target] = result
    written = []
    for target, result in loaded.items():
        path = settings.out_dir / target
        text = json.dumps(_payload(result), ensure_ascii=False, indent=1) + "\n"
        write_atomic(path, text)
        records = len(result.parents) or len(result.instructions)
        written.append(
            ImportedFile(
                source=str(result.path),
                target=str(path),
                records=records,
                warnings=len(result.warnings),
            )
        )
    return written


def books_root(settings: ReleaseSettings) -> Path:
    return settings.root / settings.books
