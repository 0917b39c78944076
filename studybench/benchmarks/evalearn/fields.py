"""Reading EvaLearn files field by field: findings that name the file, record, id and field.

Shared by the problem and the sequence readers of :mod:`.records`; nothing here knows the
release's counts (:mod:`.release` does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studybench.data.validate import Issue, Severity
from studybench.engines.base import Message
from studybench.fileio import JSONReadError, read_json


class Findings:
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


def read_records(path: Path, found: Findings) -> list[Any]:
    """The records of a file (a list, or ``{"data": [...]}``), read with the platform's safe
    JSON reader (deep nesting and huge numbers are findings, not crashes)."""
    if not path.is_file():
        found.add("invalid-json", "file not found")
        return []
    try:
        data = read_json(path)
    except JSONReadError as exc:
        found.add("invalid-json", exc.reason)
        return []
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        found.add("bad-shape", 'expected a list of records or {"data": [...]}')
        return []
    return data


def ident_of(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    text = str(value).strip()
    return text or None


def text_field(
    record: dict[str, Any], key: str, found: Findings, index: int, ident: str | None
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


def prompt_field(
    value: Any, found: Findings, index: int, ident: str | None
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
