"""EvaLearn's release format: a problem file and a sequence file, validated completely.

Problem file: a JSON list (or ``{"data": [...]}``) of records with ``id``, ``type``,
``source``, ``level``, ``prompt`` (the turns to ask: a list of strings, alternating user and
assistant and ending with a user turn, or a list of ``{"role", "content"}`` messages),
``canonical_answer`` and a rubric: ``rubric_en`` / ``rubric_zh``, or an older single
``rubric`` that serves both languages.

Sequence file: records with ``sequence_id``, ``type`` and ``question_ids`` (the problems in
the order they are asked; every id must exist in the problem file and have the sequence's
type).

As with StudyBench files, every finding names the file, the record, its id and the field,
with a stable code; all records are checked, not just up to the first error, and nothing is
written. Error codes: ``invalid-json``, ``bad-shape``, ``not-an-object``, ``missing-field``,
``invalid-field``, ``no-user-turn``, ``turn-order``, ``missing-rubric``, ``duplicate-id``,
``unknown-question``, ``type-mismatch``, ``duplicate-in-sequence``. Warnings:
``unknown-field`` (kept), ``reused-question`` (one problem in several sequences: allowed).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from studybench.data.loaders import DataValidationError
from studybench.data.validate import Issue, Severity
from studybench.engines.base import Message

RubricLanguage = Literal["en", "zh"]


class EvaLearnProblem(BaseModel):
    """One problem. ``id`` is kept as text (the release uses integers)."""

    model_config = ConfigDict(frozen=True)

    id: str
    type: str
    source: str = ""
    level: str = ""
    prompt: tuple[Message, ...]
    canonical_answer: str
    rubric_en: str = ""
    rubric_zh: str = ""

    def rubric(self, language: RubricLanguage) -> str:
        """The rubric in ``language``, else the other one (an older single ``rubric`` fills
        both)."""
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

    def problems_of(self, sequence: EvaLearnSequence) -> list[EvaLearnProblem]:
        return [self.problems[q] for q in sequence.question_ids]

    def types(self) -> list[str]:
        return sorted({s.type for s in self.sequences})


_PROBLEM_KEYS = {
    "id", "type", "source", "level", "prompt", "canonical_answer", "rubric_en", "rubric_zh",
    "rubric",
}  # fmt: skip
_SEQUENCE_KEYS = {"sequence_id", "type", "question_ids"}


class _Findings:
    def __init__(self, path: Path, id_field: str) -> None:
        self.path = str(path)
        self.id_field = id_field
        self.issues: list[Issue] = []

    def add(
        self,
        code: str,
        message: str,
        *,
        record: int | None = None,
        ident: str | None = None,
        field: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        self.issues.append(
            Issue(
                severity=severity,
                code=code,
                file=self.path,
                record=record,
                source_problem_id=ident,
                field=field,
                message=message,
                id_field=self.id_field,
            )
        )


def _records(path: Path, found: _Findings) -> list[Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        found.add("invalid-json", "file not found")
        return []
    except json.JSONDecodeError as exc:
        found.add("invalid-json", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        return []
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        found.add("bad-shape", 'expected a list of records or {"data": [...]}')
        return []
    return data


def _ident(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    text = str(value).strip()
    return text or None


def _text(
    record: dict[str, Any], key: str, found: _Findings, index: int, ident: str | None
) -> str | None:
    value = record.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        found.add(
            "missing-field", f"{key} is missing or empty", record=index, ident=ident, field=key
        )
        return None
    if not isinstance(value, str):
        found.add(
            "invalid-field",
            f"{key} must be text, got {type(value).__name__}",
            record=index,
            ident=ident,
            field=key,
        )
        return None
    return value


def _prompt(
    value: Any, found: _Findings, index: int, ident: str | None
) -> tuple[Message, ...] | None:
    def bad(code: str, message: str) -> None:
        found.add(code, message, record=index, ident=ident, field="prompt")

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        bad("missing-field" if not value else "invalid-field", "prompt must be a non-empty list")
        return None
    messages: list[Message] = []
    for position, turn in enumerate(value):
        if isinstance(turn, str):
            role = "user" if position % 2 == 0 else "assistant"
            messages.append(Message(role=role, content=turn))
        elif (
            isinstance(turn, dict)
            and turn.get("role") in ("system", "user", "assistant")
            and isinstance(turn.get("content"), str)
        ):
            messages.append(Message(role=turn["role"], content=turn["content"]))
        else:
            bad(
                "invalid-field",
                f"turn {position} must be text or {{role: system|user|assistant, content}}",
            )
            return None
    roles = [m.role for m in messages if m.role != "system"]
    if "user" not in roles:
        bad("no-user-turn", "prompt has no user turn")
        return None
    expected = ["user" if i % 2 == 0 else "assistant" for i in range(len(roles))]
    if roles != expected or roles[-1] != "user" or any(m.role == "system" for m in messages[1:]):
        bad(
            "turn-order",
            "turns must alternate user, assistant, ... and end with a user turn "
            "(a system turn only first)",
        )
        return None
    if any(not m.content.strip() for m in messages if m.role == "user"):
        bad("missing-field", "a user turn is empty")
        return None
    return tuple(messages)


def validate_problems(path: Path) -> tuple[dict[str, EvaLearnProblem], list[Issue]]:
    found = _Findings(path, "id")
    problems: dict[str, EvaLearnProblem] = {}
    for index, record in enumerate(_records(path, found)):
        if not isinstance(record, dict):
            found.add("not-an-object", "a record must be a JSON object", record=index)
            continue
        ident = _ident(record.get("id"))
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
        kind = _text(record, "type", found, index, ident)
        answer = record.get("canonical_answer")
        if isinstance(answer, int | float) and not isinstance(answer, bool):
            answer = str(answer)
            record = {**record, "canonical_answer": answer}
        answer = _text(record, "canonical_answer", found, index, ident)
        prompt = _prompt(record.get("prompt"), found, index, ident)
        rubrics = {}
        for key in ("rubric_en", "rubric_zh", "rubric"):
            value = record.get(key)
            if value is not None and not isinstance(value, str):
                found.add(
                    "invalid-field", f"{key} must be text", record=index, ident=ident, field=key
                )
            elif isinstance(value, str) and value.strip():
                rubrics[key] = value
        if not rubrics:
            found.add(
                "missing-rubric",
                "no rubric: give rubric_en and/or rubric_zh (or an older single rubric)",
                record=index,
                ident=ident,
                field="rubric_en",
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
        single = rubrics.get("rubric", "")
        problems[ident] = EvaLearnProblem(
            id=ident,
            type=kind.strip(),
            source=str(record.get("source", "")),
            level=str(record.get("level", "")),
            prompt=prompt,
            canonical_answer=answer,
            rubric_en=rubrics.get("rubric_en", single),
            rubric_zh=rubrics.get("rubric_zh", single),
        )
    return problems, found.issues


def validate_sequences(
    path: Path, problems: dict[str, EvaLearnProblem], problem_file: Path
) -> tuple[list[EvaLearnSequence], list[Issue]]:
    found = _Findings(path, "sequence_id")
    sequences: list[EvaLearnSequence] = []
    seen: set[str] = set()
    uses: Counter[str] = Counter()
    for index, record in enumerate(_records(path, found)):
        if not isinstance(record, dict):
            found.add("not-an-object", "a record must be a JSON object", record=index)
            continue
        ident = _ident(record.get("sequence_id"))
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
        kind = _text(record, "type", found, index, ident)
        raw = record.get("question_ids")
        ids = [_ident(q) for q in raw] if isinstance(raw, list) else None
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
        sequences.append(
            EvaLearnSequence(sequence_id=ident, type=kind.strip(), question_ids=tuple(questions))
        )
    for question, count in sorted(uses.items()):
        if count > 1:
            found.add(
                "reused-question",
                f"question {question} is in {count} sequences",
                severity=Severity.WARNING,
            )
    return sequences, found.issues


def validate_release(problems: Path, sequences: Path) -> EvaLearnRelease:
    """Both files checked completely; the release holds only valid records."""
    found_problems, problem_issues = validate_problems(problems)
    found_sequences, sequence_issues = validate_sequences(sequences, found_problems, problems)
    return EvaLearnRelease(
        problems=found_problems,
        sequences=tuple(found_sequences),
        issues=(*problem_issues, *sequence_issues),
    )


def load_release(problems: Path | str, sequences: Path | str) -> EvaLearnRelease:
    """The validated release; :class:`DataValidationError` listing every error of the first
    file that has any (the problem file first: sequence errors may follow from it)."""
    release = validate_release(Path(problems), Path(sequences))
    for path in (Path(problems), Path(sequences)):
        errors = [i for i in release.issues if i.file == str(path) and i.severity is Severity.ERROR]
        if errors:
            raise DataValidationError(path, errors)
    if not release.sequences:
        raise DataValidationError(
            Path(sequences),
            [
                Issue(
                    severity=Severity.ERROR,
                    code="bad-shape",
                    file=str(sequences),
                    message="no sequences",
                )
            ],
        )
    return release
