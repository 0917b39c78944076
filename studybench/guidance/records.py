"""The records the guidance stages exchange, one JSON line each, keyed by slot.

Every stage reads the previous stage's lines and writes its own, so a stage can be re-run
alone (DVC caches each output) and every record says how it was made: a teacher reply that
could not be used is kept as a :class:`Failure`, never dropped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studybench.errors import DataError
from studybench.fileio import write_atomic

KnowledgeType = Literal["concept", "law_or_equation", "technique", "assumption"]
Coverage = Literal[0, 1, 2, 3]


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Failure(_Line):
    """A teacher call whose replies were never usable: what was asked, what came back."""

    stage: str
    attempts: int
    error: str
    replies: list[str] = Field(default_factory=list)


class KnowledgePointDraft(_Line):
    """One knowledge point as the teacher writes it (validated teacher output)."""

    model_config = ConfigDict(extra="ignore")

    type: KnowledgeType
    name: str = Field(min_length=2, max_length=200)
    description: str = Field("", max_length=2000)
    source: Literal["solution", "problem", "both"] = "solution"
    keywords: list[str] = Field(default_factory=list, max_length=12)


class DecomposeReply(_Line):
    """The decompose stage's reply schema."""

    model_config = ConfigDict(extra="ignore")

    knowledge_points: list[KnowledgePointDraft] = Field(min_length=1, max_length=8)


class SlotDecomposition(_Line):
    """Stage 1 output for one slot."""

    key: str  # str(SlotKey)
    problem_type: str
    knowledge_points: list[KnowledgePointDraft] = Field(default_factory=list)
    failure: Failure | None = None


class CanonicalPoint(_Line):
    """Stage 2 output: one canonical knowledge point and where it is used."""

    kp_id: str
    type: KnowledgeType
    name: str
    description: str
    keywords: list[str]
    aliases: list[str]
    slots: list[str]
    problem_types: list[str]


class Candidate(_Line):
    """Stage 3 output: one retrieved fragment for one canonical knowledge point."""

    kp_id: str
    fragment_id: str
    book: str
    rank: int
    score: float
    bm25_rank: int | None
    dense_rank: int | None
    preferred_book: bool


class VerifyReply(_Line):
    """The verify stage's reply schema (coverage rubric 0-3 plus a verbatim quote)."""

    model_config = ConfigDict(extra="ignore")

    score: Coverage
    quote: str = Field("", max_length=1000)
    reason: str = Field("", max_length=2000)


class Match(_Line):
    """Stage 4 output: a candidate after verification."""

    kp_id: str
    fragment_id: str
    teacher_score: int | None
    score: int  # after the quote check: a quote not in the fragment demotes to 0
    quote: str
    quote_found: bool
    covered: bool  # score 2 (applied / example) or 3 (direct exposition)
    reason: str = ""
    failure: Failure | None = None


class GuideReply(_Line):
    """The guide stage's reply schema."""

    model_config = ConfigDict(extra="ignore")

    guidance: str = Field(min_length=1, max_length=6000)
    kp_used: list[str] = Field(default_factory=list)


class ReviewReply(_Line):
    """The leakage review's reply schema."""

    model_config = ConfigDict(extra="ignore")

    leak: bool
    reason: str = ""


GuidancePath = Literal["passed", "regenerated", "sanitized", "failed", "no_coverage"]


class SlotGuidance(_Line):
    """Stage 5 output for one slot: the text and the ``guidance_check`` of the release."""

    key: str
    guidance: str
    path: GuidancePath
    guidance_check: dict[str, object]
    failure: Failure | None = None


L = TypeVar("L", bound=BaseModel)


def write_lines(path: Path, records: Iterable[BaseModel]) -> None:
    """JSON lines, written atomically (a killed stage never leaves half a file)."""
    text = "".join(r.model_dump_json() + "\n" for r in records)
    write_atomic(path, text)


def read_lines(path: Path, model: type[L]) -> list[L]:
    """Read JSON lines into ``model``; a bad line names the file, line and field."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: not found (run the previous guidance stage first)") from None
    out: list[L] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(model.model_validate(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}: line {number}: invalid JSON: {exc.msg}") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(record)"
            raise DataError(f"{path}: line {number}: field {field}: {first['msg']}") from None
    return out


def by_key(records: Sequence[L], attr: str = "key") -> dict[str, L]:
    return {str(getattr(r, attr)): r for r in records}
