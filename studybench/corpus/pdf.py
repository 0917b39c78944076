"""PDF conversion: textbooks as PDFs -> the chapter Markdown the OCR cleanup reads.

Input ``<pdf_root>/<source>/<chapter>.pdf``; output ``<out_root>/<source>/<chapter>/full.md``
(the release layout :mod:`studybench.corpus.ocr_fix` expects). Two converters:

* ``pymupdf4llm`` (the embedded default): CPU only, offline, for PDFs with a text layer
  (born-digital books). Chosen after trying it on generated PDFs: it keeps the reading order
  and inline formulas written as text, and runs in about a second per chapter on a laptop CPU.
  Scanned pages without a text layer come out empty; use MinerU for those.
* ``mineru``: the converter the paper used (layout and formula models, OCR), run as the
  ``mineru`` command on a GPU worker (``build.mineru_command``). Its models are downloaded on
  first use; they cannot be downloaded here, so it is offered through configuration only.

Running headers and footers are removed page by page, whatever the converter, by the rule of
:func:`strip_running_headers` (a short line repeated at the same page edge position with the same
text apart from a page number); every removal is reported per file (what, where, how many lines)
so a user can see what went. The OCR cleanup then drops leftover bare page numbers.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from studybench.corpus.running_headers import HeaderRemoval, strip_running_headers
from studybench.errors import ConfigError, DataError
from studybench.fileio import write_atomic

Converter = Literal["pymupdf4llm", "mineru"]
log = logging.getLogger(__name__)
MINERU_MISSING = (
    "the MinerU converter is selected (build.pdf_converter: mineru) but its command {command!r} "
    "is not installed here. MinerU needs its layout/formula/OCR models, which it downloads on "
    "first use and which cannot be downloaded on this machine: run this step on a GPU worker "
    "with `pip install mineru` and its models available, or choose the embedded CPU converter "
    "(build.pdf_converter: pymupdf4llm) for PDFs with a text layer."
)


__all__ = ["FileConversion", "PdfConversion", "convert_pdfs", "strip_running_headers"]


class FileConversion(BaseModel):
    """One converted file and the running header/footer lines removed from it."""

    file: str  # the written full.md, relative to the output root
    pages: int
    headers: HeaderRemoval


class PdfConversion(BaseModel):
    converter: str
    files: list[str]
    pages: int
    header_lines_removed: int
    per_file: list[FileConversion] = []


def _pages_pymupdf4llm(path: Path) -> list[str]:
    try:
        import pymupdf4llm  # type: ignore[import-untyped]
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise ConfigError(f"pymupdf4llm is not installed: {exc}") from None
    try:
        chunks = pymupdf4llm.to_markdown(str(path), page_chunks=True, show_progress=False)
    except Exception as exc:  # the library raises its own types for damaged files
        raise DataError(f"{path}: cannot convert this PDF: {exc}") from None
    return [str(chunk.get("text", "")) for chunk in chunks]


def _pages_mineru(path: Path, command: Sequence[str]) -> list[str]:
    if not command or shutil.which(command[0]) is None:
        raise ConfigError(MINERU_MISSING.format(command=" ".join(command)))
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            [*command, "-p", str(path), "-o", tmp],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise DataError(f"{path}: MinerU failed ({result.returncode}): {result.stderr[-800:]}")
        found = sorted(Path(tmp).rglob("*.md"))
        if not found:
            raise DataError(f"{path}: MinerU wrote no Markdown")
        return [found[0].read_text(encoding="utf-8")]  # MinerU strips headers itself


def convert_pdfs(
    pdf_root: Path,
    out_root: Path,
    *,
    converter: Converter = "pymupdf4llm",
    header_min_share: float = 0.5,
    mineru_command: Sequence[str] = ("mineru",),
    output_name: str = "full.md",
) -> PdfConversion:
    """Convert every ``<source>/<chapter>.pdf`` below ``pdf_root``."""
    if not pdf_root.is_dir():
        raise DataError(f"{pdf_root}: PDF root is not a folder")
    files = sorted(pdf_root.rglob("*.pdf"))
    if not files:
        raise DataError(f"{pdf_root}: no PDF file below this folder")
    pages_total = 0
    removed_total = 0
    written = []
    per_file: list[FileConversion] = []
    for path in files:
        relative = path.relative_to(pdf_root)
        if len(relative.parts) < 2:
            raise DataError(f"{path}: expected <pdf_root>/<source>/<chapter>.pdf")
        if converter == "mineru":
            pages = _pages_mineru(path, mineru_command)
        else:
            pages = _pages_pymupdf4llm(path)
        pages, removal = strip_running_headers(pages, header_min_share)
        pages_total += len(pages)
        removed_total += removal.lines_removed
        target = out_root / relative.with_suffix("") / output_name
        text = "\n\n".join(page.strip() for page in pages if page.strip()) + "\n"
        write_atomic(target, text)
        name = str(target.relative_to(out_root))
        written.append(name)
        per_file.append(FileConversion(file=name, pages=len(pages), headers=removal))
        log.info("%s: %s", relative, removal.describe())
    return PdfConversion(
        converter=converter,
        files=written,
        pages=pages_total,
        header_lines_removed=removed_total,
        per_file=per_file,
    )
