"""Collecting the issues of one record, each located by file, record index, id and field."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from studybench.data.validate.outcome import Issue, Severity


@dataclass
class Reporter:
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


def file_error(name: str, code: str, message: str) -> Issue:
    return Issue(severity=Severity.ERROR, code=code, file=name, message=message)


def not_an_object(name: str, index: int, raw: Any) -> Issue:
    message = f"record must be a JSON object, got {type(raw).__name__}"
    return Issue(
        severity=Severity.ERROR, code="not-an-object", file=name, record=index, message=message
    )


def join_field(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def pydantic_issues(reporter: Reporter, exc: ValidationError, prefix: str = "") -> None:
    """Map pydantic's errors onto issues, skipping fields the rule checks already reported."""
    for error in exc.errors():
        path = prefix
        for part in error["loc"]:
            path = f"{path}[{part}]" if isinstance(part, int) else join_field(path, str(part))
        if any(path == f or path.startswith((f + ".", f + "[")) for f in reporter.failed_fields):
            continue
        if error["type"] == "missing":
            reporter.error("missing-field", path, "required field is missing")
        else:
            reporter.error("invalid-field", path, error["msg"])
