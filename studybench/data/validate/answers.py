"""Checks shared by every record kind that carries a gold answer or text fields: the answer
type and type sequence, the gold boxes, control characters, pasted transcripts, unknown keys."""

from __future__ import annotations

import re
from typing import Any

from studybench.data.answer_types import AnswerType, split_type_sequence
from studybench.data.boxes import scan_boxes, split_top_level_commas
from studybench.data.validate.reporting import Reporter, join_field

_ANSWER_TYPE_CODES = {t.value for t in AnswerType}
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TRANSCRIPT = re.compile(r"Prior conversation context\s*:|^\s*Assistant\s*:", re.MULTILINE)


_TEXT_FIELDS = ("problem", "solution", "answer", "title", "guidance")


def _check_answer_type(reporter: Reporter, unit: dict[str, Any], prefix: str) -> str | None:
    """Validate (and case-repair) ``unit["answer_type"]``; return the canonical code."""
    path = join_field(prefix, "answer_type")
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
    reporter: Reporter, unit: dict[str, Any], prefix: str, answer_type: str
) -> tuple[str, ...] | None:
    """Validate ``type_sequence`` for ``answer_type``; return its tokens when usable."""
    path = join_field(prefix, "type_sequence")
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


def check_gold(reporter: Reporter, unit: dict[str, Any], prefix: str) -> None:
    """All rules for one gold answer (a solo parent, a sub-problem or an instruction turn)."""
    answer_path = join_field(prefix, "answer")
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
    reporter.error("type-sequence-length", join_field(prefix, "type_sequence"), message)


def repair_control_chars(reporter: Reporter, unit: dict[str, Any], prefix: str) -> None:
    for name in _TEXT_FIELDS:
        value = unit.get(name)
        if isinstance(value, str) and _CONTROL_CHARS.search(value):
            count = len(_CONTROL_CHARS.findall(value))
            unit[name] = _CONTROL_CHARS.sub("", value)
            path = join_field(prefix, name)
            reporter.warn(
                "control-character", path, f"removed {count} control char(s)", repaired=True
            )


def warn_transcript(reporter: Reporter, unit: dict[str, Any], prefix: str) -> None:
    value = unit.get("problem")
    if isinstance(value, str) and _TRANSCRIPT.search(value):
        message = "problem text contains a pasted chat transcript (may leak earlier answers)"
        reporter.warn("leaked-transcript", join_field(prefix, "problem"), message, repaired=False)


def warn_unknown_keys(
    reporter: Reporter, unit: dict[str, Any], prefix: str, known: set[str]
) -> None:
    for key in unit:
        if key not in known:
            message = "not part of the release format; kept as is"
            reporter.warn("unknown-field", join_field(prefix, key), message, repaired=False)
