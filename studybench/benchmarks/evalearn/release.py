"""The published EvaLearn release: its count invariants and ``studybench evalearn import``.

:mod:`.records` checks what every EvaLearn-format file must satisfy (fields, types, a
sequence's problems exist, have its type and do not repeat). The published release promises
more, and a truncated download or a hand-edited copy breaks exactly those promises, so a
file that claims to be the full release is also checked for them (``full-release`` errors):

* 648 problems with ids exactly 1..648, 182 sequences with ids exactly 1..182;
* every sequence has 7 problems; every problem is in at least one sequence and in at most 2.

Per-type counts (360 logical reasoning problems, 102 logical reasoning sequences, ...) are
reported as ``release-type-count`` warnings: they describe the published file but are not
needed to run it.

Which files claim to be the full release: ``expect_full=True`` (``--full-release``,
``evalearn.full_release: true``) always, ``False`` never, ``None`` (the default) when the
problem file has the release's own name, ``EvaLearn_Problem.json``. The committed samples
are small originals and are never held to the counts.

:func:`import_release` validates both files (either published version), and writes them in
one normal form (the newest version's fields, in its key order) with a ``release.json``
manifest (source digests, version, counts), atomically and byte-identically on a re-run.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.benchmarks.evalearn.records import (
    EvaLearnProblem,
    EvaLearnRelease,
    ReleaseVersion,
    raise_for_errors,
    validate_release,
)
from studybench.data.loaders import DataValidationError
from studybench.data.validate import Issue, Severity
from studybench.fileio import write_atomic

RELEASE_PROBLEM_FILE = "EvaLearn_Problem.json"
PROBLEMS = 648
SEQUENCES = 182
SEQUENCE_LENGTH = 7
MAX_USES = 2
PROBLEMS_PER_TYPE = {
    "Logical Reasoning": 360,
    "Summarization": 60,
    "Extraction": 60,
    "Sequential Reasoning": 60,
    "Mathematical Reasoning": 60,
    "Classification": 48,
}
SEQUENCES_PER_TYPE = {
    "Logical Reasoning": 102,
    "Extraction": 17,
    "Mathematical Reasoning": 17,
    "Sequential Reasoning": 17,
    "Summarization": 16,
    "Classification": 13,
}
_SHOWN = 10  # ids listed in one finding


def claims_full(problems: Path, expect_full: bool | None) -> bool:
    return expect_full if expect_full is not None else problems.name == RELEASE_PROBLEM_FILE


def _issue(
    path: Path,
    code: str,
    message: str,
    *,
    record: int | None = None,
    ident: str | None = None,
    field: str | None = None,
    id_field: str = "id",
    severity: Severity = Severity.ERROR,
) -> Issue:
    return Issue(
        severity=severity,
        code=code,
        file=str(path),
        record=record,
        source_problem_id=ident,
        field=field,
        message=message,
        id_field=id_field,
    )


def _listed(ids: list[str]) -> str:
    more = f", ... ({len(ids)} in all)" if len(ids) > _SHOWN else ""
    return ", ".join(ids[:_SHOWN]) + more


def _contiguity(
    path: Path, ids: dict[str, int], expected: int, id_field: str, what: str
) -> list[Issue]:
    """Ids exactly 1..expected: every other id named with its record, every gap listed."""
    found: list[Issue] = []
    numbers: set[int] = set()
    for ident, record in ids.items():
        number = int(ident) if ident.isdigit() else None
        if number is None or not 1 <= number <= expected:
            found.append(
                _issue(
                    path,
                    "full-release",
                    f"{id_field} {ident} is not an integer in 1..{expected}",
                    record=record,
                    ident=ident,
                    field=id_field,
                    id_field=id_field,
                )
            )
        else:
            numbers.add(number)
    gaps = [str(n) for n in range(1, expected + 1) if n not in numbers]
    if gaps:
        found.append(
            _issue(
                path,
                "full-release",
                f"{what} ids must run 1..{expected} without gaps; missing {_listed(gaps)}",
                field=id_field,
                id_field=id_field,
            )
        )
    return found


def full_release_issues(release: EvaLearnRelease, problems: Path, sequences: Path) -> list[Issue]:
    """Findings of the published release's invariants (see the module docstring)."""
    found: list[Issue] = []
    if len(release.problems) != PROBLEMS:
        found.append(
            _issue(
                problems,
                "full-release",
                f"the release has {PROBLEMS} valid problems, this file {len(release.problems)}",
                field="id",
            )
        )
    if len(release.sequences) != SEQUENCES:
        found.append(
            _issue(
                sequences,
                "full-release",
                f"the release has {SEQUENCES} valid sequences, this file {len(release.sequences)}",
                field="sequence_id",
                id_field="sequence_id",
            )
        )
    found += _contiguity(problems, release.problem_records, PROBLEMS, "id", "problem")
    found += _contiguity(sequences, release.sequence_records, SEQUENCES, "sequence_id", "sequence")
    uses: Counter[str] = Counter()
    for sequence in release.sequences:
        uses.update(sequence.question_ids)
        if len(sequence.question_ids) != SEQUENCE_LENGTH:
            found.append(
                _issue(
                    sequences,
                    "full-release",
                    f"a sequence of the release has {SEQUENCE_LENGTH} problems, this one "
                    f"{len(sequence.question_ids)}",
                    record=release.sequence_records.get(sequence.sequence_id),
                    ident=sequence.sequence_id,
                    field="question_ids",
                    id_field="sequence_id",
                )
            )
    for ident, count in uses.items():
        if count > MAX_USES:
            found.append(
                _issue(
                    sequences,
                    "full-release",
                    f"problem {ident} is in {count} sequences; the release uses a problem "
                    f"at most {MAX_USES} times",
                    field="question_ids",
                    id_field="sequence_id",
                )
            )
    unused = sorted((q for q in release.problems if q not in uses), key=_order)
    if unused:
        found.append(
            _issue(
                problems,
                "full-release",
                f"the release uses every problem; {len(unused)} are in no sequence: "
                f"{_listed(unused)}",
                record=release.problem_records.get(unused[0]),
                ident=unused[0],
                field="id",
            )
        )
    found += _type_counts(release, problems, sequences)
    return found


def _type_counts(release: EvaLearnRelease, problems: Path, sequences: Path) -> list[Issue]:
    out: list[Issue] = []
    checks = (
        (problems, "id", Counter(p.type for p in release.problems.values()), PROBLEMS_PER_TYPE),
        (sequences, "sequence_id", Counter(s.type for s in release.sequences), SEQUENCES_PER_TYPE),
    )
    for path, id_field, counts, published in checks:
        for name in sorted(set(counts) | set(published)):
            if counts.get(name, 0) != published.get(name, 0):
                out.append(
                    _issue(
                        path,
                        "release-type-count",
                        f"type {name!r}: {counts.get(name, 0)} here, "
                        f"{published.get(name, 0)} in the release",
                        field="type",
                        id_field=id_field,
                        severity=Severity.WARNING,
                    )
                )
    return out


def _order(ident: str) -> tuple[int, int | str]:
    return (0, int(ident)) if ident.isdigit() else (1, ident)


def check_release(
    problems: Path | str, sequences: Path | str, *, expect_full: bool | None = None
) -> EvaLearnRelease:
    """Both files validated, plus the full release's invariants when the files claim to be
    it (:func:`claims_full`); the release with every finding, nothing raised."""
    problems, sequences = Path(problems), Path(sequences)
    release = validate_release(problems, sequences)
    if claims_full(problems, expect_full):
        extra = full_release_issues(release, problems, sequences)
        release = EvaLearnRelease(
            problems=release.problems,
            sequences=release.sequences,
            issues=(*release.issues, *extra),
            version=release.version,
            problem_records=release.problem_records,
            sequence_records=release.sequence_records,
        )
    return release


def load_checked(
    problems: Path | str, sequences: Path | str, *, expect_full: bool | None = None
) -> EvaLearnRelease:
    """:func:`check_release`, raising :class:`DataValidationError` on any error."""
    release = check_release(problems, sequences, expect_full=expect_full)
    raise_for_errors(release, Path(problems), Path(sequences))
    return release


class ImportReport(BaseModel):
    version: ReleaseVersion
    full_release: bool
    problems: int
    sequences: int
    problems_per_type: dict[str, int]
    sequences_per_type: dict[str, int]
    problem_file: str
    sequence_file: str
    manifest: str
    warnings: list[str]
    written: bool  # False: the files were already there, byte for byte


def _json_id(ident: str) -> int | str:
    return int(ident) if ident.isdigit() else ident


def problem_record(problem: EvaLearnProblem) -> dict[str, Any]:
    """The newest release's record of a problem (its keys, in its order)."""
    roles = [m.role for m in problem.prompt]
    plain = all(r == ("user" if i % 2 == 0 else "assistant") for i, r in enumerate(roles))
    prompt: list[Any] = (
        [m.content for m in problem.prompt] if plain else [m.model_dump() for m in problem.prompt]
    )
    level: int | str = int(problem.level) if problem.level.isdigit() else problem.level
    return {
        "id": _json_id(problem.id),
        "type": problem.type,
        "source": problem.source,
        "level": level,
        "prompt": prompt,
        "canonical_answer": problem.canonical_answer,
        "rubric_en": problem.rubric_en,
        "rubric_zh": problem.rubric_zh,
    }


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_if_changed(path: Path, text: str) -> bool:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    write_atomic(path, text)
    return True


def import_release(
    problems: Path | str,
    sequences: Path | str,
    out_dir: Path | str,
    *,
    expect_full: bool | None = None,
) -> ImportReport:
    """Validate a downloaded release (either version) and write it to ``out_dir`` as
    ``problems.json``, ``sequences.json`` and ``release.json``. Every error of both files
    is reported (:class:`DataValidationError`, per file) and nothing is written then."""
    problems, sequences, out = Path(problems), Path(sequences), Path(out_dir)
    full = claims_full(problems, expect_full)
    release = check_release(problems, sequences, expect_full=full)
    errors = [i for i in release.issues if i.severity is Severity.ERROR]
    if errors:  # both files' errors at once: the user fixes them in one go
        first = problems if any(i.file == str(problems) for i in errors) else sequences
        raise DataValidationError(first, errors)
    raise_for_errors(release, problems, sequences)  # no sequences at all
    problem_rows = [
        problem_record(p) for p in sorted(release.problems.values(), key=lambda p: _order(p.id))
    ]
    sequence_rows = [
        {
            "sequence_id": _json_id(s.sequence_id),
            "type": s.type,
            "question_ids": [_json_id(q) for q in s.question_ids],
        }
        for s in release.sequences
    ]
    manifest = {
        "format": "evalearn-import-1",
        "version": release.version,
        "full_release": full,
        "sources": {
            "problems": {"name": problems.name, "sha256": _digest(problems)},
            "sequences": {"name": sequences.name, "sha256": _digest(sequences)},
        },
        "problems": len(problem_rows),
        "sequences": len(sequence_rows),
    }
    out.mkdir(parents=True, exist_ok=True)
    files = {
        out / "problems.json": problem_rows,
        out / "sequences.json": sequence_rows,
        out / "release.json": manifest,
    }
    written = False
    for path, payload in files.items():
        text = json.dumps(payload, ensure_ascii=False, indent=1) + "\n"
        written = _write_if_changed(path, text) or written
    return ImportReport(
        version=release.version,
        full_release=full,
        problems=len(problem_rows),
        sequences=len(sequence_rows),
        problems_per_type=dict(sorted(Counter(p["type"] for p in problem_rows).items())),
        sequences_per_type=dict(sorted(Counter(s["type"] for s in sequence_rows).items())),
        problem_file=str(out / "problems.json"),
        sequence_file=str(out / "sequences.json"),
        manifest=str(out / "release.json"),
        warnings=[i.format() for i in release.issues if i.severity is Severity.WARNING],
        written=written,
    )


__all__ = [
    "DataValidationError",
    "ImportReport",
    "check_release",
    "claims_full",
    "full_release_issues",
    "import_release",
    "load_checked",
]
