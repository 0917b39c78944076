"""Deterministic cleanup of textbook markdown produced by a PDF-to-markdown converter.

Three kinds of damage are repaired, each with a rule that cannot change the meaning of
correct text:

* **Leaked converter prompts**: paragraphs in which the vision-language converter echoed its
  own instructions ("Please output the text of this page in markdown ...") are dropped.
* **Split math**: inside ``$...$`` / ``$$...$$``, whitespace between digits, or between a
  digit and a decimal point followed by a digit, is removed (``$3. 0 \\times 10^{8}$`` ->
  ``$3.0 \\times 10^{8}$``). LaTeX ignores spaces in math mode, so the rendered formula is
  unchanged; only the token stream becomes searchable.
* **Running headers and page numbers**: lines that are only a page number, or an upper-case
  running header with a page number ("PROBLEMS 169", "12 CHAPTER 3"), are removed.

The same input always gives the same output, so the stage is cacheable by DVC.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel

from studybench.corpus.books import chapter_files, output_path, write_atomic

_PROMPT = re.compile(
    r"^(?:please\s+)?(?:convert|transcribe|output|extract|ocr|recogni[sz]e|read)\b.{0,120}"
    r"\b(?:markdown|latex|text|image|page|document)\b"
    r"|^you are (?:an?|the) .{0,60}(?:ocr|document|assistant|parser)"
    r"|^<\|?(?:image|im_start|im_end|ref|det)\|?>",
    re.IGNORECASE,
)
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+?\$", re.DOTALL)
_SPLIT_DIGITS = re.compile(r"(?<=\d)\s+(?=\d)|(?<=\d\.)\s+(?=\d)|(?<=\d)\s+(?=\.\d)")
_PAGE_LINE = re.compile(
    r"^\s*(?:\d{1,4}|[A-Z][A-Z ,&'-]{2,60}\s+\d{1,4}|\d{1,4}\s+[A-Z][A-Z ,&'-]{2,60})\s*$"
)


class OcrFixStats(BaseModel):
    files: int = 0
    prompts_dropped: int = 0
    math_repairs: int = 0
    page_lines_dropped: int = 0


def _fix_math(match: re.Match[str], stats: OcrFixStats) -> str:
    fixed, count = _SPLIT_DIGITS.subn("", match.group())
    stats.math_repairs += count
    return fixed


def fix_text(text: str, stats: OcrFixStats | None = None) -> str:
    """The cleaned version of one chapter's markdown."""
    stats = stats if stats is not None else OcrFixStats()
    paragraphs = re.split(r"(\n\s*\n)", text)
    kept: list[str] = []
    for part in paragraphs:
        if part.strip() and _PROMPT.search(part.strip()) and "$" not in part:
            stats.prompts_dropped += 1
            kept.append("")
            continue
        kept.append(part)
    text = "".join(kept)
    lines = []
    for line in text.split("\n"):
        if _PAGE_LINE.match(line) and not line.lstrip().startswith("#"):
            stats.page_lines_dropped += 1
            continue
        lines.append(line)
    text = "\n".join(lines)
    text = _MATH.sub(lambda m: _fix_math(m, stats), text)
    return re.sub(r"\n{3,}", "\n\n", text)


def fix_books(
    books_root: Path,
    *,
    input_name: str = "full.md",
    output_name: str = "ocrfix.md",
    out_root: Path | None = None,
) -> OcrFixStats:
    """Clean every chapter under ``books_root``, writing beside it or under ``out_root``."""
    stats = OcrFixStats()
    for path in chapter_files(books_root, input_name):
        fixed = fix_text(path.read_text(encoding="utf-8"), stats)
        write_atomic(output_path(books_root, path, out_root, output_name), fixed)
        stats.files += 1
    return stats
