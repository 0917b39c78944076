"""Splitting the redacted corpus into retrievable fragments (input of the guidance pipeline).

A fragment is one section of a chapter under its heading: exposition, a worked example, or an
exercise list; long sections are split at paragraph boundaries. Ids are stable
(``<source>/<chapter>/<nnn>``) as long as the chapter text does not change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from studybench.corpus.books import chapter_files, source_of, write_atomic
from studybench.corpus.redact import REDACTED

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$", re.MULTILINE)
_EXAMPLE = re.compile(r"\b(?:example|worked example|sample problem)\b", re.IGNORECASE)
_EXERCISES = re.compile(r"\b(?:problems|exercises|questions)\b", re.IGNORECASE)
FragmentType = Literal["exposition", "worked_example", "exercises"]


class Fragment(BaseModel):
    fragment_id: str
    book: str
    chapter: str
    fragment_type: FragmentType
    heading: str
    text: str
    words: int


def _kind(heading: str) -> FragmentType:
    if _EXAMPLE.search(heading):
        return "worked_example"
    if _EXERCISES.search(heading):
        return "exercises"
    return "exposition"


def _pieces(body: str, max_words: int) -> list[str]:
    """Paragraph-aligned pieces of at most about ``max_words`` words."""
    pieces: list[str] = []
    current: list[str] = []
    count = 0
    for paragraph in re.split(r"\n\s*\n", body):
        words = len(paragraph.split())
        if current and count + words > max_words:
            pieces.append("\n\n".join(current))
            current, count = [], 0
        current.append(paragraph.strip())
        count += words
    if current:
        pieces.append("\n\n".join(current))
    return [p for p in pieces if p.strip()]


def chapter_fragments(text: str, book: str, chapter: str, max_words: int = 400) -> list[Fragment]:
    headings = list(_HEADING.finditer(text))
    sections: list[tuple[str, str]] = []
    if not headings or headings[0].start() > 0:
        end = headings[0].start() if headings else len(text)
        sections.append(("", text[:end]))
    for i, match in enumerate(headings):
        end = headings[i + 1].start() if i + 1 < len(headings) else len(text)
        sections.append((match.group(2).strip(), text[match.end() : end]))
    fragments: list[Fragment] = []
    for heading, body in sections:
        for piece in _pieces(body, max_words):
            if not piece.replace(REDACTED, "").strip():
                continue
            fragments.append(
                Fragment(
                    fragment_id=f"{book}/{chapter}/{len(fragments):03d}",
                    book=book,
                    chapter=chapter,
                    fragment_type=_kind(heading),
                    heading=heading,
                    text=piece,
                    words=len(piece.split()),
                )
            )
    return fragments


def build_fragments(
    books_root: Path,
    out_path: Path,
    *,
    input_name: str = "ocrfix.redacted.md",
    max_words: int = 400,
) -> list[Fragment]:
    """Fragments of every chapter under ``books_root``, written as JSON lines."""
    fragments: list[Fragment] = []
    for path in chapter_files(books_root, input_name):
        book = source_of(books_root, path)
        chapter = "/".join(path.parent.relative_to(books_root).parts[1:]) or path.stem
        text = path.read_text(encoding="utf-8")
        fragments += chapter_fragments(text, book, chapter, max_words)
    lines = (json.dumps(f.model_dump(), ensure_ascii=False) for f in fragments)
    write_atomic(out_path, "".join(line + "\n" for line in lines))
    return fragments
