"""Proof that the redacted corpus holds no verbatim residue of the test items.

The audit is independent of the redaction's coverage threshold: any single n-gram of a test
problem statement (13-grams, and shorter ones when configured) or any gold answer of at least
a few tokens that is still in a corpus file is a hit, reported with file and line. A pipeline
stage fails on hits, so a training corpus with leaked test problems never gets published.

Solutions are held to a run length instead (``solution_min_tokens``, default two n-grams'
worth): a worked solution legitimately repeats a sentence of the textbook's own exposition
("... which is the principle of the cyclotron"), and such a shared sentence is not the test
item; a copied solution passage is. A matched region that states other numbers than the
test item (a variant of the exercise) is not residue, as it is not redacted either.

The rule itself lives in :mod:`studybench.corpus.residue`, shared with the redaction (which
removes whatever it flags). An audit that read no file proves nothing and is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from studybench.corpus.books import chapter_files
from studybench.corpus.ngrams import test_fields
from studybench.corpus.residue import ResidueRule, ResidueScanner
from studybench.corpus.tokens import line_of
from studybench.data.records import ParentProblem
from studybench.errors import DataError


class AuditHit(BaseModel):
    file: str
    line: int
    item: str
    field: str
    kind: str  # "13-gram", "8-gram", "answer"
    excerpt: str


class AuditReport(BaseModel):
    files: int
    ngram_sizes: list[int]
    fields: int
    hits: list[AuditHit] = Field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.hits


def _excerpt(text: str, start: int, end: int) -> str:
    return " ".join(text[start:end].split())[:160]


def audit_corpus(
    parents: Sequence[ParentProblem],
    books_root: Path,
    *,
    name: str = "ocrfix.redacted.md",
    ngram_sizes: Sequence[int] = (13,),
    min_answer_tokens: int = 4,
    solution_min_tokens: int = 26,
) -> AuditReport:
    """Scan every ``name`` file under ``books_root`` for residue of ``parents``.

    Raises :class:`DataError` when no ``name`` file exists below ``books_root``: a wrong
    folder or file name would otherwise pass as a clean corpus.
    """
    rule = ResidueRule(
        ngram_sizes=tuple(ngram_sizes),
        min_answer_tokens=min_answer_tokens,
        solution_min_tokens=solution_min_tokens,
    )
    fields = test_fields(parents, min(rule.ngram_sizes))
    scanner = ResidueScanner(fields, rule)
    files = chapter_files(books_root, name)
    if not files:
        raise DataError(
            f"{books_root}: no corpus file named {name!r} below this folder; "
            "an audit that read nothing proves nothing (check the folder and --name)"
        )
    report = AuditReport(files=len(files), ngram_sizes=scanner.sizes, fields=len(fields))
    for path in files:
        text = path.read_text(encoding="utf-8")
        relative = str(path.relative_to(books_root))
        seen: set[tuple[str, str, int, bool]] = set()
        for residue in scanner.scan(text):
            line = line_of(text, residue.start)
            key = (residue.field.item, residue.field.name, line, residue.kind == "answer")
            if key in seen:
                continue
            seen.add(key)
            report.hits.append(
                AuditHit(
                    file=relative,
                    line=line,
                    item=residue.field.item,
                    field=residue.field.name,
                    kind=residue.kind,
                    excerpt=_excerpt(text, residue.start, residue.end),
                )
            )
    return report
