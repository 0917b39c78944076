"""Test splits (parents with sub-problems): parent and slot checks, duplicate slots and the
spellings of ``problem_type`` across a file."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studybench.data.records import ParentProblem, SlotKey, SubProblem
from studybench.data.validate.answers import (
    check_gold,
    repair_control_chars,
    warn_transcript,
    warn_unknown_keys,
)
from studybench.data.validate.outcome import FileKind, Issue, LoadedFile
from studybench.data.validate.reporting import Reporter, not_an_object, pydantic_issues

_PARENT_KEYS = set(ParentProblem.model_fields) | {"problems", "_source_index"}
_SUB_KEYS = set(SubProblem.model_fields)


def validate_split(path: Path, records: list[Any]) -> LoadedFile:
    name = str(path)
    issues: list[Issue] = []
    repaired: list[tuple[int, Reporter, dict[str, Any]]] = []
    for index, raw in enumerate(records):
        if not isinstance(raw, dict):
            issues.append(not_an_object(name, index, raw))
            continue
        record = copy.deepcopy(raw)
        spid = record.get("source_problem_id")
        reporter = Reporter(name, index, str(spid) if spid not in (None, "") else None)
        _check_parent(reporter, record)
        repaired.append((index, reporter, record))

    _check_problem_type_variants(repaired)
    _check_duplicate_slots(repaired)

    parents: list[ParentProblem] = []
    for _, reporter, record in repaired:
        try:
            parent = ParentProblem.model_validate(record)
        except ValidationError as exc:
            pydantic_issues(reporter, exc)
        else:
            if not reporter.has_errors:
                parents.append(parent)
        issues.extend(reporter.issues)
    issues.sort(key=lambda i: -1 if i.record is None else i.record)
    return LoadedFile(path, FileKind.SPLIT, tuple(issues), parents=tuple(parents))


def _check_parent(reporter: Reporter, record: dict[str, Any]) -> None:
    warn_unknown_keys(reporter, record, "", _PARENT_KEYS)
    for required in ("source", "source_problem_id"):
        value = record.get(required)
        if value is None or (isinstance(value, str) and not value.strip()):
            reporter.error("missing-field", required, f"{required} is required")
    repair_control_chars(reporter, record, "")
    warn_transcript(reporter, record, "")

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
        check_gold(reporter, record, "")
        return
    for position, sub in enumerate(subs):
        prefix = f"{subs_key}[{position}]"
        if not isinstance(sub, dict):
            message = f"expected an object, got {type(sub).__name__}"
            reporter.error("invalid-field", prefix, message)
            continue
        warn_unknown_keys(reporter, sub, prefix, _SUB_KEYS)
        problem_id = sub.get("problem_id")
        if problem_id is None or (isinstance(problem_id, str) and not problem_id.strip()):
            reporter.error("missing-field", f"{prefix}.problem_id", "problem_id is required")
        question = sub.get("problem")
        if isinstance(question, str) and not question.strip():
            message = "sub-problem text is empty; only the stem will be asked"
            reporter.warn("empty-question", f"{prefix}.problem", message, repaired=False)
        repair_control_chars(reporter, sub, prefix)
        warn_transcript(reporter, sub, prefix)
        check_gold(reporter, sub, prefix)


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


def _check_duplicate_slots(repaired: list[tuple[int, Reporter, dict[str, Any]]]) -> None:
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


def _check_problem_type_variants(repaired: list[tuple[int, Reporter, dict[str, Any]]]) -> None:
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
