"""Instruction layers (chat ``messages`` with or without per-turn answers)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studybench.data.records import InstructionRecord
from studybench.data.validate.answers import check_gold, warn_unknown_keys
from studybench.data.validate.outcome import FileKind, Issue, LoadedFile, Severity
from studybench.data.validate.reporting import Reporter, not_an_object, pydantic_issues

_INSTRUCTION_KEYS = set(InstructionRecord.model_fields)


def validate_instructions(path: Path, records: list[Any], *, with_answers: bool) -> LoadedFile:
    name = str(path)
    kind = FileKind.INSTRUCTIONS if with_answers else FileKind.INSTRUCTIONS_NO_ANSWER
    issues: list[Issue] = []
    built: list[InstructionRecord] = []
    for index, raw in enumerate(records):
        if not isinstance(raw, dict):
            issues.append(not_an_object(name, index, raw))
            continue
        record = copy.deepcopy(raw)
        metadata = record.get("metadata")
        spid = metadata.get("source_problem_id") if isinstance(metadata, dict) else None
        reporter = Reporter(name, index, str(spid) if spid else None)
        _check_instruction(reporter, record, with_answers=with_answers)
        try:
            instruction = InstructionRecord.model_validate(record)
        except ValidationError as exc:
            pydantic_issues(reporter, exc)
        else:
            if not reporter.has_errors:
                built.append(instruction)
        issues.extend(reporter.issues)
    return LoadedFile(path, kind, tuple(issues), instructions=tuple(built))


def _check_turn_order(reporter: Reporter, roles: list[Any]) -> None:
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


def _check_instruction(reporter: Reporter, record: dict[str, Any], *, with_answers: bool) -> None:
    warn_unknown_keys(reporter, record, "", _INSTRUCTION_KEYS)
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
        sub_reporter = Reporter(reporter.file, reporter.record, reporter.source_problem_id)
        check_gold(sub_reporter, unit, "")
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
