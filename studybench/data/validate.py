"""Validation of StudyBench release files, with every problem located and coded.

A file is read once, checked completely (all records, not just up to the first error) and
turned into typed records. Each finding is an :class:`Issue` naming the file, the record
index, the record's ``source_problem_id`` and the field, with a stable machine-readable
``code``. Errors make the file unusable; warnings flag the release's known quirks (format
doc, section 12), each either repaired in a documented way or kept unchanged:

==========================  ========  ====================================================
code                        severity  meaning / action
==========================  ========  ====================================================
invalid-json                error     the file is not JSON (line and column given), nests
                                      deeper than 100 levels or holds a huge integer
bad-shape                   error     top level is neither a list nor ``{"data": [...]}``
not-an-object               error     a record is not a JSON object
missing-field               error     a required field is absent or empty
invalid-field               error     a field has the wrong type
unknown-answer-type         error     ``answer_type`` or a ``type_sequence`` entry is not
                                      one of the nine codes
missing-type-sequence       error     TUP/ALT without ``type_sequence``
non-atomic-type-sequence    error     a composite type inside ``type_sequence``
type-sequence-length        error     ``type_sequence`` length != number of gold boxes
empty-answer                error     the gold answer is empty, or has an empty box
unbalanced-box              error     a ``\\boxed{`` in the gold is never closed
duplicate-slot-key          error     two slots share (source, year, source_problem_id,
                                      problem_id)
answer-list-length          error     an instruction record's per-turn answer lists do not
                                      line up with each other or with its user turns
no-user-turn                error     an instruction record has no user message
turn-order                  error     chat roles do not alternate (system first, then user,
                                      assistant, user, ...)
answer-type-case            warning   ``nv`` / `` NV `` spelled loosely; repaired to ``NV``
comma-list-box              warning   one gold box holds a comma list whose length equals
                                      ``type_sequence``; repaired into one box per element
alt-contains-tup            warning   ALT sequence lists TUP (can never pass the rule
                                      stage); kept, the LLM judge decides
ignored-type-sequence       warning   ``type_sequence`` on an atomic type; repaired (cleared)
unboxed-gold                warning   gold answer has no ``\\boxed{}``; kept
control-character           warning   control characters in a text field; repaired (removed)
problem-type-variant        warning   two spellings of one ``problem_type`` in a file;
                                      repaired to the most frequent spelling
leaked-transcript           warning   problem text contains a pasted chat transcript; kept
empty-question              warning   a sub-problem's own text is empty (the stem is asked)
unknown-field               warning   a key this version does not know; kept
==========================  ========  ====================================================

Nothing is written by validation: repairs apply to the in-memory records only.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from studybench.data.answer_types import AnswerType, split_type_sequence
from studybench.data.boxes import scan_boxes, split_top_level_commas
from studybench.data.records import InstructionRecord, ParentProblem, Slot, SlotKey, SubProblem
from studybench.fileio import JSONReadError, read_json


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class FileKind(StrEnum):
    """What a file holds, which decides the rules it is checked against."""

    SPLIT = "split"  # test split or guidance file: parent records
    INSTRUCTIONS = "instructions"  # instruction layer with gold answers
    INSTRUCTIONS_NO_ANSWER = "instructions-no-answer"  # instruction layer without answers


class Issue(BaseModel):
    """One finding, located precisely enough to fix the input by hand."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str
    file: str
    record: int | None = None
    source_problem_id: str | None = None
    field: str | None = None
    message: str
    repaired: bool = False
    id_field: str = "source_problem_id"  # what the record's id is called in its format

    def format(self) -> str:
        where = [self.file]
        if self.record is not None:
            label = f"record {self.record}"
            if self.source_problem_id:
                label += f" ({self.id_field}={self.source_problem_id})"
            where.append(label)
        if self.field:
            where.append(f"field {self.field}")
        suffix = " [repaired]" if self.repaired else ""
        return f"{': '.join(where)}: {self.severity.value} {self.code}: {self.message}{suffix}"


@dataclass(frozen=True)
class LoadedFile:
    """A validated file: its typed records (when usable) and every issue found."""

    path: Path
    kind: FileKind
    issues: tuple[Issue, ...]
    parents: tuple[ParentProblem, ...] = ()
    instructions: tuple[InstructionRecord, ...] = ()

    @property
    def errors(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        return not self.errors

    def slots(self) -> tuple[Slot, ...]:
        return tuple(slot for parent in self.parents for slot in parent.slots())


_ANSWER_TYPE_CODES = {t.value for t in AnswerType}
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TRANSCRIPT = re.compile(r"Prior conversation context\s*:|^\s*Assistant\s*:", re.MULTILINE)
_PARENT_KEYS = set(ParentProblem.model_fields) | {"problems", "_source_index"}
_SUB_KEYS = set(SubProblem.model_fields)
_INSTRUCTION_KEYS = set(InstructionRecord.model_fields)
_TEXT_FIELDS = ("problem", "solution", "answer", "title", "guidance")


def read_records(path: Path) -> tuple[list[Any] | None, list[Issue]]:
    """Read a JSON file in either release shape: ``{"data": [...]}`` or a bare list."""
    name = str(path)
    try:
        loaded = read_json(path)
    except JSONReadError as exc:  # unreadable, not UTF-8, malformed, too deep, huge numbers
        return None, [_file_error(name, "invalid-json", exc.reason)]
    if isinstance(loaded, list):
        return loaded, []
    if isinstance(loaded, dict) and isinstance(loaded.get("data"), list):
        return loaded["data"], []
    shape = type(loaded).__name__
    keys = f" with keys {sorted(loaded)[:5]}" if isinstance(loaded, dict) else ""
    message = f'top level must be a list or {{"data": [...]}}, got {shape}{keys}'
    return None, [_file_error(name, "bad-shape", message)]


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
        return _validate_split(path, records)
    return _validate_instructions(path, records, with_answers=kind is FileKind.INSTRUCTIONS)


# --------------------------------------------------------------------------- reporting


@dataclass
class _Reporter:
    """Collects issues for one record, remembering which fields already have an error."""

    file: str
    record: int
    source_problem_id: str | None
    issues: list[Issue] = field(default_factory=list)
    failed_fields: set[str] = field(default_factory=set)

    def error(self, code: str, field_path: str | None, message: str) -> None:
        self._add(Severity.ERROR, code, field_path, message, repaired=False)
        if field_path:
            self.failed_fields.add(field_path)

    def warn(self, code: str, field_path: str | None, message: str, *, repaired: bool) -> None:
        self._add(Severity.WARNING, code, field_path, message, repaired=repaired)

    def _add(
        self, severity: Severity, code: str, field_path: str | None, message: str, repaired: bool
    ) -> None:
        self.issues.append(
            Issue(
                severity=severity,
                code=code,
                file=self.file,
                record=self.record,
                source_problem_id=self.source_problem_id,
                field=field_path,
                message=message,
                repaired=repaired,
            )
        )

    @property
    def has_errors(self) -> bool:
        return any(i.severity is Severity.ERROR for i in self.issues)


def _file_error(name: str, code: str, message: str) -> Issue:
    return Issue(severity=Severity.ERROR, code=code, file=name, message=message)


def _not_an_object(name: str, index: int, raw: Any) -> Issue:
    message = f"record must be a JSON object, got {type(raw).__name__}"
    return Issue(
        severity=Severity.ERROR, code="not-an-object", file=name, record=index, message=message
    )


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _pydantic_issues(reporter: _Reporter, exc: ValidationError, prefix: str = "") -> None:
    """Map pydantic's errors onto issues, skipping fields the rule checks already reported."""
    for error in exc.errors():
        path = prefix
        for part in error["loc"]:
            path = f"{path}[{part}]" if isinstance(part, int) else _join(path, str(part))
        if any(path == f or path.startswith((f + ".", f + "[")) for f in reporter.failed_fields):
            continue
        if error["type"] == "missing":
            reporter.error("missing-field", path, "required field is missing")
        else:
            reporter.error("invalid-field", path, error["msg"])


# --------------------------------------------------------------------------- gold answers


def _check_answer_type(reporter: _Reporter, unit: dict[str, Any], prefix: str) -> str | None:
    """Validate (and case-repair) ``unit["answer_type"]``; return the canonical code."""
    path = _join(prefix, "answer_type")
    raw = unit.get("answer_type")
    if not isinstance(raw, str) or not raw.strip():
        reporter.error("missing-field", path, "answer_type is required for a gold answer")
        return None
    code = raw.strip().upper()
    if code not in _ANSWER_TYPE_CODES:
        valid = ", ".join(sorted(_ANSWER_TYPE_CODES))
        reporter.error("unknown-answer-type", path, f"{raw!r} is not one of {valid}")
        return None
    if code != raw:
        reporter.warn("answer-type-case", path, f"{raw!r} read as {code!r}", repaired=True)
        unit["answer_type"] = code
    return code


def _check_type_sequence(
    reporter: _Reporter, unit: dict[str, Any], prefix: str, answer_type: str
) -> tuple[str, ...] | None:
    """Validate ``type_sequence`` for ``answer_type``; return its tokens when usable."""
    path = _join(prefix, "type_sequence")
    raw = unit.get("type_sequence", "")
    if raw is None:
        raw = ""
    if not isinstance(raw, str | list):
        reporter.error("invalid-field", path, f"expected a string, got {type(raw).__name__}")
        return None
    tokens = split_type_sequence(raw)
    if answer_type not in ("TUP", "ALT"):
        if tokens:
            message = f"{answer_type} answers take no type_sequence; {raw!r} ignored"
            reporter.warn("ignored-type-sequence", path, message, repaired=True)
            unit["type_sequence"] = ""
        return None
    if not tokens:
        reporter.error("missing-type-sequence", path, f"{answer_type} needs a type_sequence")
        return None
    upper = tuple(token.upper() for token in tokens)
    unknown = [t for t in tokens if t.upper() not in _ANSWER_TYPE_CODES]
    if unknown:
        reporter.error("unknown-answer-type", path, f"unknown entries {unknown} in {raw!r}")
        return None
    if upper != tokens:
        fixed = ",".join(upper)
        reporter.warn("answer-type-case", path, f"{raw!r} read as {fixed!r}", repaired=True)
        unit["type_sequence"] = fixed
    composite = [t for t in upper if t in ("TUP", "ALT")]
    if composite:
        if answer_type == "ALT" and set(composite) == {"TUP"}:
            message = (
                "ALT alternative typed TUP: the rule stage cannot compare it, the LLM judge will"
            )
            reporter.warn("alt-contains-tup", path, message, repaired=False)
        else:
            message = f"entries must be atomic (NV, EX, EQ, IN, MC, TF, QL), got {composite}"
            reporter.error("non-atomic-type-sequence", path, message)
            return None
    return upper


def _check_gold(reporter: _Reporter, unit: dict[str, Any], prefix: str) -> None:
    """All rules for one gold answer (a solo parent, a sub-problem or an instruction turn)."""
    answer_path = _join(prefix, "answer")
    answer = unit.get("answer")
    answer_ok = True
    if not isinstance(answer, str):
        if answer is None:
            reporter.error("missing-field", answer_path, "answer is required")
        else:
            kind = type(answer).__name__
            reporter.error("invalid-field", answer_path, f"expected a string, got {kind}")
        answer_ok = False
    elif not answer.strip():
        reporter.error("empty-answer", answer_path, "gold answer is empty")
        answer_ok = False

    answer_type = _check_answer_type(reporter, unit, prefix)
    sequence = _check_type_sequence(reporter, unit, prefix, answer_type) if answer_type else None
    if not answer_ok or not isinstance(answer, str):
        return

    scan = scan_boxes(answer)
    boxes = list(scan.contents)
    if scan.unbalanced:
        reporter.error("unbalanced-box", answer_path, "a \\boxed{ is never closed")
        return
    if not scan.contents:
        reporter.warn("unboxed-gold", answer_path, "no \\boxed{} in gold answer", repaired=False)
        boxes = [answer.strip()]
    elif not all(content.strip() for content in boxes):
        empty = sum(1 for content in boxes if not content.strip())
        message = f"{empty} of the gold's {len(boxes)} box(es) are empty"
        reporter.error("empty-answer", answer_path, message)
        return

    if sequence is None or len(boxes) == len(sequence):
        return
    if len(boxes) == 1:
        parts = split_top_level_commas(boxes[0])
        if len(parts) == len(sequence) and all(parts):
            unit["answer"] = ", ".join(f"\\boxed{{{part}}}" for part in parts)
            message = (
                f"one box holds {len(parts)} comma-separated values for a "
                f"{len(sequence)}-entry type_sequence; split into {len(parts)} boxes"
            )
            reporter.warn("comma-list-box", answer_path, message, repaired=True)
            return
    message = f"type_sequence has {len(sequence)} entries but the gold has {len(boxes)} box(es)"
    reporter.error("type-sequence-length", _join(prefix, "type_sequence"), message)


def _repair_control_chars(reporter: _Reporter, unit: dict[str, Any], prefix: str) -> None:
    for name in _TEXT_FIELDS:
        value = unit.get(name)
        if isinstance(value, str) and _CONTROL_CHARS.search(value):
            count = len(_CONTROL_CHARS.findall(value))
            unit[name] = _CONTROL_CHARS.sub("", value)
            path = _join(prefix, name)
            reporter.warn(
                "control-character", path, f"removed {count} control char(s)", repaired=True
            )


def _warn_transcript(reporter: _Reporter, unit: dict[str, Any], prefix: str) -> None:
    value = unit.get("problem")
    if isinstance(value, str) and _TRANSCRIPT.search(value):
        message = "problem text contains a pasted chat transcript (may leak earlier answers)"
        reporter.warn("leaked-transcript", _join(prefix, "problem"), message, repaired=False)


def _warn_unknown_keys(
    reporter: _Reporter, unit: dict[str, Any], prefix: str, known: set[str]
) -> None:
    for key in unit:
        if key not in known:
            message = "not part of the release format; kept as is"
            reporter.warn("unknown-field", _join(prefix, key), message, repaired=False)


# --------------------------------------------------------------------------- splits


def _validate_split(path: Path, records: list[Any]) -> LoadedFile:
    name = str(path)
    issues: list[Issue] = []
    repaired: list[tuple[int, _Reporter, dict[str, Any]]] = []
    for index, raw in enumerate(records):
        if not isinstance(raw, dict):
            issues.append(_not_an_object(name, index, raw))
            continue
        record = copy.deepcopy(raw)
        spid = record.get("source_problem_id")
        reporter = _Reporter(name, index, str(spid) if spid not in (None, "") else None)
        _check_parent(reporter, record)
        repaired.append((index, reporter, record))

    _check_problem_type_variants(repaired)
    _check_duplicate_slots(repaired)

    parents: list[ParentProblem] = []
    for _, reporter, record in repaired:
        try:
            parent = ParentProblem.model_validate(record)
        except ValidationError as exc:
            _pydantic_issues(reporter, exc)
        else:
            if not reporter.has_errors:
                parents.append(parent)
        issues.extend(reporter.issues)
    issues.sort(key=lambda i: -1 if i.record is None else i.record)
    return LoadedFile(path, FileKind.SPLIT, tuple(issues), parents=tuple(parents))


def _check_parent(reporter: _Reporter, record: dict[str, Any]) -> None:
    _warn_unknown_keys(reporter, record, "", _PARENT_KEYS)
    for required in ("source", "source_problem_id"):
        value = record.get(required)
        if value is None or (isinstance(value, str) and not value.strip()):
            reporter.error("missing-field", required, f"{required} is required")
    _repair_control_chars(reporter, record, "")
    _warn_transcript(reporter, record, "")

    subs_key = "sub_problems" if "sub_problems" in record else "problems"
    subs = record.get(subs_key, [])
    if subs is None:
        subs = []
        record[subs_key] = subs
    if not isinstance(subs, list):
        kind = type(subs).__name__
        reporter.error("invalid-field", subs_key, f"expected a list, got {kind}")
        return
    if not subs:
        if not (isinstance(record.get("problem"), str) and record["problem"].strip()):
            reporter.error("missing-field", "problem", "a solo parent needs its question text")
        _check_gold(reporter, record, "")
        return
    for position, sub in enumerate(subs):
        prefix = f"{subs_key}[{position}]"
        if not isinstance(sub, dict):
            message = f"expected an object, got {type(sub).__name__}"
            reporter.error("invalid-field", prefix, message)
            continue
        _warn_unknown_keys(reporter, sub, prefix, _SUB_KEYS)
        problem_id = sub.get("problem_id")
        if problem_id is None or (isinstance(problem_id, str) and not problem_id.strip()):
            reporter.error("missing-field", f"{prefix}.problem_id", "problem_id is required")
        question = sub.get("problem")
        if isinstance(question, str) and not question.strip():
            message = "sub-problem text is empty; only the stem will be asked"
            reporter.warn("empty-question", f"{prefix}.problem", message, repaired=False)
        _repair_control_chars(reporter, sub, prefix)
        _warn_transcript(reporter, sub, prefix)
        _check_gold(reporter, sub, prefix)


def _slot_keys(record: dict[str, Any]) -> list[tuple[str, SlotKey]]:
    def text(value: Any) -> str:
        return "" if value is None else str(value)

    base = (text(record.get("source")), text(record.get("year")))
    spid = text(record.get("source_problem_id"))
    subs = record.get("sub_problems", record.get("problems")) or []
    if not isinstance(subs, list) or not subs:
        return [("", SlotKey(*base, spid, spid))]
    key_name = "sub_problems" if "sub_problems" in record else "problems"
    return [
        (f"{key_name}[{i}].problem_id", SlotKey(*base, spid, text(sub.get("problem_id"))))
        for i, sub in enumerate(subs)
        if isinstance(sub, dict)
    ]


def _check_duplicate_slots(repaired: list[tuple[int, _Reporter, dict[str, Any]]]) -> None:
    seen: dict[SlotKey, int] = {}
    for index, reporter, record in repaired:
        for field_path, key in _slot_keys(record):
            if key in seen:
                message = f"slot key {key} already used by record {seen[key]}"
                reporter.error("duplicate-slot-key", field_path or "source_problem_id", message)
            else:
                seen[key] = index


def _problem_type_key(label: str) -> str:
    """Spellings that differ only in case, '&' vs 'and', spacing or punctuation."""
    folded = label.casefold().replace("&", " and ")
    return " ".join(re.sub(r"[^\w]+", " ", folded).split())


def _check_problem_type_variants(repaired: list[tuple[int, _Reporter, dict[str, Any]]]) -> None:
    """Rewrite every spelling of one sub-discipline to its most frequent spelling."""
    counts: Counter[str] = Counter()
    for _, _, record in repaired:
        label = record.get("problem_type")
        if isinstance(label, str) and label.strip():
            counts[label] += 1
    by_key: dict[str, list[str]] = {}
    for label in counts:  # insertion order = first appearance, the tie-breaker
        by_key.setdefault(_problem_type_key(label), []).append(label)
    canonical: dict[str, str] = {}
    for spellings in by_key.values():
        if len(spellings) > 1:
            best = max(spellings, key=lambda s: counts[s])
            canonical.update({s: best for s in spellings if s != best})
    for _, reporter, record in repaired:
        label = record.get("problem_type")
        if isinstance(label, str) and label in canonical:
            record["problem_type"] = canonical[label]
            message = f"{label!r} is a variant spelling; read as {canonical[label]!r}"
            reporter.warn("problem-type-variant", "problem_type", message, repaired=True)


# --------------------------------------------------------------------------- instruction layers


def _validate_instructions(path: Path, records: list[Any], *, with_answers: bool) -> LoadedFile:
    name = str(path)
    kind = FileKind.INSTRUCTIONS if with_answers else FileKind.INSTRUCTIONS_NO_ANSWER
    issues: list[Issue] = []
    built: list[InstructionRecord] = []
    for index, raw in enumerate(records):
        if not isinstance(raw, dict):
            issues.append(_not_an_object(name, index, raw))
            continue
        record = copy.deepcopy(raw)
        metadata = record.get("metadata")
        spid = metadata.get("source_problem_id") if isinstance(metadata, dict) else None
        reporter = _Reporter(name, index, str(spid) if spid else None)
        _check_instruction(reporter, record, with_answers=with_answers)
        try:
            instruction = InstructionRecord.model_validate(record)
        except ValidationError as exc:
            _pydantic_issues(reporter, exc)
        else:
            if not reporter.has_errors:
                built.append(instruction)
        issues.extend(reporter.issues)
    return LoadedFile(path, kind, tuple(issues), instructions=tuple(built))


def _check_turn_order(reporter: _Reporter, roles: list[Any]) -> None:
    """An optional leading system message, then user and assistant strictly alternating."""
    if any(role not in ("system", "user", "assistant") for role in roles):
        return  # an unknown role is reported as an invalid field already
    body = roles[1:] if roles and roles[0] == "system" else roles
    for position, role in enumerate(body):
        expected = "user" if position % 2 == 0 else "assistant"
        if role != expected:
            index = position + (len(roles) - len(body))
            message = f"message {index} has role {role!r} where {expected!r} is expected"
            reporter.error("turn-order", f"messages[{index}].role", message)
            return


def _check_instruction(reporter: _Reporter, record: dict[str, Any], *, with_answers: bool) -> None:
    _warn_unknown_keys(reporter, record, "", _INSTRUCTION_KEYS)
    messages = record.get("messages")
    if not isinstance(messages, list) or not messages:
        reporter.error("missing-field", "messages", "a non-empty list of chat messages is required")
        return
    roles = [m.get("role") if isinstance(m, dict) else None for m in messages]
    user_turns = roles.count("user")
    if user_turns == 0:
        reporter.error("no-user-turn", "messages", "no message has role 'user'")
    else:
        _check_turn_order(reporter, roles)

    answer = record.get("answer", "")
    has_answer = bool(answer.strip()) if isinstance(answer, str) else bool(answer)
    if not has_answer:
        if with_answers:
            reporter.error("empty-answer", "answer", "this layer needs a gold answer per record")
        return

    answers = answer if isinstance(answer, list) else [answer]
    per_turn: dict[str, list[Any]] = {"answer": answers}
    for name in ("answer_type", "type_sequence"):
        value = record.get(name, "")
        if isinstance(value, list):
            per_turn[name] = value
        else:
            per_turn[name] = [value] * len(answers)
    lengths = {name: len(values) for name, values in per_turn.items()}
    if len(set(lengths.values())) > 1:
        message = f"per-turn lists differ in length: {lengths}"
        reporter.error("answer-list-length", "answer", message)
        return
    if isinstance(answer, list) and len(answers) != max(user_turns, 1):
        message = f"{len(answers)} answers for {user_turns} user turn(s); give one per user turn"
        reporter.error("answer-list-length", "answer", message)
        return

    is_list = isinstance(answer, list)
    for position in range(len(answers)):
        unit = {name: values[position] for name, values in per_turn.items()}
        prefix_fields = {name: f"{name}[{position}]" if is_list else name for name in per_turn}
        sub_reporter = _Reporter(reporter.file, reporter.record, reporter.source_problem_id)
        _check_gold(sub_reporter, unit, "")
        for issue in sub_reporter.issues:
            base = (issue.field or "").split(".")[0]
            located = prefix_fields.get(base, issue.field)
            reporter.issues.append(issue.model_copy(update={"field": located}))
            if issue.severity is Severity.ERROR and located:
                reporter.failed_fields.add(located)
        for name, values in per_turn.items():
            values[position] = unit[name]
    for name, values in per_turn.items():
        if isinstance(record.get(name), list):
            record[name] = values
        elif name in record or name == "answer":
            record[name] = values[0]
