"""The guidance file in the release schema (format doc, section 10) and the stage report.

The file is the split's parents (a bare list, like ``level3_guidance_full.json``) with every
sub-problem carrying ``knowledge_points``, ``guidance`` and ``guidance_check``; subs without
usable guidance keep an empty ``guidance`` (the loader skips them) and a ``guidance_check``
that says why. It validates as a split file, and :func:`studybench.data.load_guidance`
(what the runner's ``--guidance`` option uses) reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from studybench.data.records import ParentProblem
from studybench.guidance.records import Match, SlotDecomposition, SlotGuidance


def guidance_file(
    parents: Sequence[ParentProblem],
    decompositions: Mapping[str, SlotDecomposition],
    guidance: Mapping[str, SlotGuidance],
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for parent in parents:
        record: dict[str, Any] = parent.model_dump(mode="json", by_alias=True)
        subs = record.get("sub_problems", [])
        for sub, sub_record in zip(parent.sub_problems, subs, strict=True):
            key = str(parent.slot_key(sub.problem_id))
            decomposition = decompositions.get(key)
            if decomposition is not None:
                sub_record["knowledge_points"] = [
                    point.model_dump(mode="json") for point in decomposition.knowledge_points
                ]
            result = guidance.get(key)
            sub_record["guidance"] = result.guidance if result else ""
            sub_record["guidance_check"] = (
                result.guidance_check
                if result
                else {"pass": False, "attempts": 0, "history": [], "path": "not_run"}
            )
        out.append(record)
    return out


def report(
    parents: Sequence[ParentProblem],
    decompositions: Mapping[str, SlotDecomposition],
    results: Sequence[SlotGuidance],
    matches: Sequence[Match],
) -> dict[str, Any]:
    """Counts a person reads first: failures per stage, coverage, the gate's paths."""
    return {
        "parents": len(parents),
        "slots": len(results),
        "decompose_failures": sum(d.failure is not None for d in decompositions.values()),
        "knowledge_points": sum(len(d.knowledge_points) for d in decompositions.values()),
        "verified_candidates": len(matches),
        "verify_failures": sum(m.failure is not None for m in matches),
        "quotes_not_found": sum(
            1 for m in matches if m.teacher_score is not None and not m.quote_found
        ),
        "covered_candidates": sum(m.covered for m in matches),
        "paths": dict(sorted(Counter(r.path for r in results).items())),
        "guided_slots": sum(bool(r.guidance) for r in results),
    }
