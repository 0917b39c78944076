"""The textbook corpus on disk: ``<books_root>/<source>/<chapter...>/<name>.md``.

A stage reads one file name (``full.md``, ``ocrfix.md``, ...) in every chapter folder and
writes another, either beside it (the release layout) or into a mirrored tree under an output
root (what DVC stages do, since two stages may not own the same folder).
"""

from __future__ import annotations

from pathlib import Path

from studybench.errors import DataError
from studybench.fileio import write_atomic

__all__ = ["chapter_files", "output_path", "source_of", "write_atomic"]


def chapter_files(books_root: Path, name: str) -> list[Path]:
    """Every ``name`` file below ``books_root``, in a stable order."""
    if not books_root.is_dir():
        raise DataError(f"{books_root}: books root is not a folder")
    return sorted(books_root.rglob(name))


def source_of(books_root: Path, path: Path) -> str:
    """The source code of a chapter file: the first folder below the books root."""
    relative = path.relative_to(books_root)
    if len(relative.parts) < 2:
        raise DataError(f"{path}: expected <books_root>/<source>/.../{path.name}")
    return relative.parts[0]


def output_path(books_root: Path, path: Path, out_root: Path | None, out_name: str) -> Path:
    """Where the stage's result for ``path`` goes: beside it, or mirrored under ``out_root``."""
    folder = path.parent if out_root is None else out_root / path.parent.relative_to(books_root)
    return folder / out_name
