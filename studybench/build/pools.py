"""The two input pools: extracted textbook problems and competition problems.

Pools are records in the release format (the per-book extractors are out of scope); they
load through the release validator, so every error names the file, the record and the field.
On top of the format, a pool must say what it is: textbook pool records are
``textbook_problem`` / ``textbook_example``, competition records ``competition`` (an empty
``source_kind`` takes the pool's kind), and no parent may appear twice across the pools,
since a parent in both would be filtered twice and could land in both splits.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from studybench.data.loaders import load_parents
from studybench.data.records import ParentProblem
from studybench.errors import DataError

PoolKind = Literal["textbook", "competition"]
SOURCE_KINDS: dict[PoolKind, frozenset[str]] = {
    "textbook": frozenset({"textbook_problem", "textbook_example"}),
    "competition": frozenset({"competition"}),
}
DEFAULT_KIND: dict[PoolKind, str] = {"textbook": "textbook_problem", "competition": "competition"}


def parent_id(parent: ParentProblem) -> str:
    """``source/year/source_problem_id``, the id the admission report uses too."""
    return f"{parent.source}/{parent.year or '-'}/{parent.source_problem_id}"


def load_pool(path: Path, kind: PoolKind) -> tuple[ParentProblem, ...]:
    """Validated parents of one pool; :class:`DataError` names file, record and field."""
    parents = load_parents(path)
    if not parents:
        raise DataError(f"{path}: the {kind} pool holds no parent record")
    allowed = SOURCE_KINDS[kind]
    out = []
    seen: dict[str, int] = {}
    for number, parent in enumerate(parents):
        where = f"{path}: record {number} (source_problem_id={parent.source_problem_id})"
        if not parent.source_kind:
            parent = parent.model_copy(update={"source_kind": DEFAULT_KIND[kind]})
        if parent.source_kind not in allowed:
            raise DataError(
                f"{where}: field source_kind: {parent.source_kind!r} does not belong in the "
                f"{kind} pool (expected one of {sorted(allowed)})"
            )
        if not parent.problem_type.strip():
            raise DataError(
                f"{where}: field problem_type: empty; the subsampling groups by sub-discipline"
            )
        key = parent_id(parent)
        if key in seen:
            raise DataError(f"{where}: parent {key} repeats record {seen[key]}")
        seen[key] = number
        out.append(parent)
    return tuple(out)


def check_disjoint(
    textbook: Sequence[ParentProblem], competition: Sequence[ParentProblem], paths: Sequence[Path]
) -> None:
    both = {parent_id(p) for p in textbook} & {parent_id(p) for p in competition}
    if both:
        shown = ", ".join(sorted(both)[:5])
        raise DataError(f"{paths[0]} and {paths[1]}: parents in both pools: {shown}")
