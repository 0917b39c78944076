"""EvaLearn's release format: a problem file and a sequence file, validated completely.

Problem file: a JSON list (or ``{"data": [...]}``) of records with ``id``, ``type``,
``source``, ``level``, ``prompt`` (the turns to ask: a list of strings, alternating user and
assistant and ending with a user turn, or a list of ``{"role", "content"}`` messages),
``canonical_answer`` and a rubric. Both published versions of ``EvaLearn_Problem.json`` load:

* the newest: ``rubric_en`` and ``rubric_zh`` (the one the reference grades with), and a
  ``canonical_answer`` in every record;
* the June-2025 one: a single English ``rubric`` (it becomes ``rubric_en``; asked for
  ``zh``, :meth:`EvaLearnProblem.rubric` falls back to it) and ``canonical_answer`` empty in
  every record (allowed: a file-level ``empty-canonical-answer`` warning says how many).

:attr:`EvaLearnRelease.version` says which one a file is. The release's own count
invariants (648 problems, 182 sequences of 7, ...) are checked by :mod:`.release`.

Sequence file: records with ``sequence_id``, ``type`` and ``question_ids`` (the problems in
the order they are asked; every id must exist in the problem file and have the sequence's
type).

As with StudyBench files, every finding names the file, the record, its id and the field,
with a stable code; all records are checked, not just up to the first error, and nothing is
written. Error codes: ``invalid-json``, ``bad-shape``, ``not-an-object``, ``missing-field``,
``invalid-field``, ``no-user-turn``, ``turn-order``, ``missing-rubric``, ``duplicate-id``,
``unknown-question``, ``type-mismatch``, ``duplicate-in-sequence``. Warnings:
``unknown-field`` (kept), ``reused-question`` (one problem in several sequences: allowed),
``empty-canonical-answer``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from studybench.benchmarks.evalearn.fields import (
    Findings,
    ident_of,
    prompt_field,
    read_records,
    text_field,
)
from studybench.data.loaders import DataValidationError
from studybench.data.validate import Issue, Severity
from studybench.engines.base import Message

RubricLanguage = Literal["en", "zh"]
ReleaseVersion = Literal["newest", "2025-06", "mixed"]


class EvaLearnProblem(BaseModel):
    """One problem. ``id`` is kept as text (the release uses integers)."""

    model_config = ConfigDict(frozen=True)

    id: str
    type: str
    source: str = ""
    level: str = ""
    prompt: tuple[Message, ...]
    canonical_answer: str = ""  # empty in every record of the June-2025 release
    rubric_en: str = ""
    rubric_zh: str = ""

    def rubric(self, language: RubricLanguage) -> str:
        """The rubric in ``language``, else the other one (the June-2025 single ``rubric`` is
        ``rubric_en``)."""
        first, second = (
            (self.rubric_en, self.rubric_zh)
            if language == "en"
            else (self.rubric_zh, self.rubric_en)
        )
        return first or second

    def question_text(self) -> str:
        """The user-visible text of the problem (its user turns), for the judge."""
        return "\n\n".join(m.content for m in self.prompt if m.role == "user")


class EvaLearnSequence(BaseModel):
    model_config = ConfigDict(frozen=True)

    sequence_id: str
    type: str
    question_ids: tuple[str, ...]


@dataclass(frozen=True)
class EvaLearnRelease:
    problems: dict[str, EvaLearnProblem]
    sequences: tuple[EvaLearnSequence, ...]
    issues: tuple[Issue, ...]
    version: ReleaseVersion = "newest"
    # record index in its file, per problem id / sequence id (to name records in findings)
    problem_records: dict[str, int] = field(default_factory=dict)
    sequence_records: dict[str, int] = field(default_factory=dict)

    def problems_of(self, sequence: EvaLearnSequence) -> list[EvaLearnProblem]:
        return [self.problems[q] for q in sequence.question_ids]

    def types(self) -> list[str]:
        return sorted({s.type for s in self.sequences})


_PROBLEM_KEYS = {
    "id", "type", "source", "level", "prompt", "canonical_answer", "rubric_en", "rubric_zh",
    "rubric",
}  # fmt: skip
_SEQUENCE_KEYS = {"sequence_id", "type", "question_ids"}


@dataclass(frozen=True)
class ProblemFile:
    """The valid problems of a file, every finding, the release version and record indexes."""

    problems: dict[str, EvaLearnProblem]
    issues: list[Issue]
    version: ReleaseVersion
    records: dict[str, int]


def _version(single: int, paired: int) -> ReleaseVersion:
    """Which release a file is: records with ``rubric_en``/``rubric_zh`` only (newest),
    with a single ``rubric`` only (June 2025), or both kinds."""
    if single and paired:
        return "mixed"
    return "2025-06" if single else "newest"


def read_problems(path: Path) -> ProblemFile:
    found = Findings(path, "id")
    problems: dict[str, EvaLearnProblem] = {}
    records: dict[str, int] = {}
    single = paired = empty_answers = 0
    for index, record in enumerate(read_records(path, found)):
        if not isinstance(record, dict):
            found.add("not-an-object", "a record must be a JSON object", record=index)
            continue
        ident = ident_of(record.get("id"))
        if ident is None:
            found.add(
                "missing-field", "id is missing or not text/integer", record=index, field="id"
            )
        for key in sorted(set(record) - _PROBLEM_KEYS):
            found.add(
                "unknown-field",
                f"{key!r} is not part of the format; kept",
                record=index,
                ident=ident,
                field=key,
                severity=Severity.WARNING,
            )
        kind = text_field(record, "type", found, index, ident)
        answer: str | None = _answer(record.get("canonical_answer"), found, index, ident)
        if answer == "":
            empty_answers += 1
        prompt = prompt_field(record.get("prompt"), found, index, ident)
        rubrics = {}
        for key in ("rubric_en", "rubric_zh", "rubric"):
            value = record.get(key)
            if value is not None and not isinstance(value, str):
                found.add(
                    "invalid-field", f"{key} must be text", record=index, ident=ident, field=key
                )
            elif isinstance(value, str) and value.strip():
                rubrics[key] = value
        single += "rubric" in record
        paired += "rubric_en" in record or "rubric_zh" in record
        if not rubrics:
            found.add(
                "missing-rubric",
                "no rubric: give rubric_en and/or rubric_zh (or the June-2025 single rubric)",
                record=index,
                ident=ident,
                field="rubric_zh" if "rubric" not in record else "rubric",
            )
        for key in ("source", "level"):
            value = record.get(key, "")
            if not isinstance(value, str | int) or isinstance(value, bool):
                found.add(
                    "invalid-field", f"{key} must be text", record=index, ident=ident, field=key
                )
        if ident is not None and ident in problems:
            found.add(
                "duplicate-id", f"id {ident} appears twice", record=index, ident=ident, field="id"
            )
            continue
        if ident is None or kind is None or answer is None or prompt is None or not rubrics:
            continue
        records[ident] = index
        problems[ident] = EvaLearnProblem(
            id=ident,
            type=kind.strip(),
            source=str(record.get("source", "")),
            level=str(record.get("level", "")),
            prompt=prompt,
            canonical_answer=answer,
            rubric_en=rubrics.get("rubric_en", rubrics.get("rubric", "")),
            rubric_zh=rubrics.get("rubric_zh", ""),
        )
    if empty_answers:
        found.add(
            "empty-canonical-answer",
            f"canonical_answer is empty in {empty_answers} record(s) (as in the June-2025 "
            "release): few-shot examples show an empty standard answer",
            field="canonical_answer",
            severity=Severity.WARNING,
        )
    return ProblemFile(problems, found.issues, _version(single, paired), records)


def _answer(value: Any, found: Findings, index: int, ident: str | None) -> str | None:
    """``canonical_answer`` as text: absent or empty is allowed (June 2025), a number is
    written as text, anything else is an ``invalid-field``."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        found.add(
            "invalid-field",
            f"canonical_answer must be text, got {type(value).__name__}",
            record=index,
            ident=ident,
            field="canonical_answer",
        )
        return None
    return value if value.strip() else ""


def validate_problems(path: Path) -> tuple[dict[str, EvaLearnProblem], list[Issue]]:
    read = read_problems(path)
    return read.problems, read.issues


def validate_sequences(
    path: Path, problems: dict[str, EvaLearnProblem], problem_file: Path
) -> tuple[list[EvaLearnSequence], list[Issue]]:
    sequences, issues, _ = _read_sequences(path, problems, problem_file)
    return sequences, issues


def _read_sequences(
    path: Path, problems: dict[str, EvaLearnProblem], problem_file: Path
) -> tuple[list[EvaLearnSequence], list[Issue], dict[str, int]]:
    found = Findings(path, "sequence_id")
    sequences: list[EvaLearnSequence] = []
    indexes: dict[str, int] = {}
    seen: set[str] = set()
    uses: Counter[str] = Counter()
    for index, record in enumerate(read_records(path, found)):
        if not isinstance(record, dict):
            found.add("not-an-object", "a record must be a JSON object", record=index)
            continue
        ident = ident_of(record.get("sequence_id"))
        if ident is None:
            found.add("missing-field", "sequence_id is missing", record=index, field="sequence_id")
        for key in sorted(set(record) - _SEQUENCE_KEYS):
            found.add(
                "unknown-field",
                f"{key!r} is not part of the format; kept",
                record=index,
                ident=ident,
                field=key,
                severity=Severity.WARNING,
            )
        kind = text_field(record, "type", found, index, ident)
        raw = record.get("question_ids")
        ids = [ident_of(q) for q in raw] if isinstance(raw, list) else None
        if not ids or any(q is None for q in ids):
            found.add(
                "missing-field" if not raw else "invalid-field",
                "question_ids must be a non-empty list of problem ids",
                record=index,
                ident=ident,
                field="question_ids",
            )
            continue
        questions = [q for q in ids if q is not None]
        ok = kind is not None and ident is not None
        if len(set(questions)) != len(questions):
            dupes = sorted(q for q, n in Counter(questions).items() if n > 1)
            found.add(
                "duplicate-in-sequence",
                f"question_ids repeat {', '.join(dupes)}",
                record=index,
                ident=ident,
                field="question_ids",
            )
            ok = False
        for position, question in enumerate(questions):
            problem = problems.get(question)
            if problem is None:
                found.add(
                    "unknown-question",
                    f"question {question} is not a valid problem of {problem_file}",
                    record=index,
                    ident=ident,
                    field=f"question_ids[{position}]",
                )
                ok = False
            elif kind is not None and problem.type != kind.strip():
                found.add(
                    "type-mismatch",
                    f"question {question} has type {problem.type!r}, the sequence {kind!r}",
                    record=index,
                    ident=ident,
                    field=f"question_ids[{position}]",
                )
                ok = False
        if ident is not None and ident in seen:
            found.add(
                "duplicate-id",
                f"sequence_id {ident} appears twice",
                record=index,
                ident=ident,
                field="sequence_id",
            )
            ok = False
        if not ok or ident is None or kind is None:
            continue
        seen.add(ident)
        uses.update(questions)
        indexes[ident] = index
        sequences.append(
            EvaLearnSequence(sequence_id=ident, type=kind.strip(), question_ids=tuple(questions))
        )
    reused = sorted((q for q, n in uses.items() if n > 1), key=_id_order)
    if reused:  # one summary: the release reuses most problems (about twice each)
        found.add(
            "reused-question",
            f"{len(reused)} question(s) are in more than one sequence (at most "
            f"{max(uses.values())} times), e.g. {', '.join(reused[:5])}",
            field="question_ids",
            severity=Severity.WARNING,
        )
    return sequences, found.issues, indexes


def _id_order(ident: str) -> tuple[int, int | str]:
    """Numeric ids in numeric order, then the others (1, 2, 10, a, b)."""
    return (0, int(ident)) if ident.isdigit() else (1, ident)


def validate_release(problems: Path, sequences: Path) -> EvaLearnRelease:
    """Both files checked completely; the release holds only valid records."""
    read = read_problems(problems)
    found_sequences, sequence_issues, indexes = _read_sequences(sequences, read.problems, problems)
    return EvaLearnRelease(
        problems=read.problems,
        sequences=tuple(found_sequences),
        issues=(*read.issues, *sequence_issues),
        version=read.version,
        problem_records=read.records,
        sequence_records=indexes,
    )


def raise_for_errors(release: EvaLearnRelease, problems: Path, sequences: Path) -> None:
    """:class:`DataValidationError` listing every error of the first file that has any (the
    problem file first: sequence errors may follow from it)."""
    for path in (problems, sequences):
        errors = [i for i in release.issues if i.file == str(path) and i.severity is Severity.ERROR]
        if errors:
            raise DataValidationError(path, errors)
    if not release.sequences:
        raise DataValidationError(
            sequences,
            [
                Issue(
                    severity=Severity.ERROR,
                    code="bad-shape",
                    file=str(sequences),
                    message="no sequences",
                )
            ],
        )


def load_release(problems: Path | str, sequences: Path | str) -> EvaLearnRelease:
    """The validated release (either published version); :class:`DataValidationError` as
    :func:`raise_for_errors` says. The full release's count invariants are
    :func:`studybench.benchmarks.evalearn.release.load_checked`'s."""
    release = validate_release(Path(problems), Path(sequences))
    raise_for_errors(release, Path(problems), Path(sequences))
    return release
