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
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from studybench.corpus.books import chapter_files
from studybench.corpus.redact import (
    NgramIndex,
    TestField,
    compact,
    numbers_in,
    runs,
    same_numbers,
    test_fields,
)
from studybench.corpus.tokens import line_of, tokenize
from studybench.data.records import ParentProblem


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
    """Scan every ``name`` file under ``books_root`` for residue of ``parents``."""
    sizes = sorted(set(ngram_sizes), reverse=True)
    fields: list[TestField] = test_fields(parents, min(sizes))
    indexes = [NgramIndex(fields, n) for n in sizes]
    answers = [
        (f, compact(f.text)[0])
        for f in fields
        if ".answer[" in f.name or f.name.startswith("answer[")
    ]
    answers = [(f, c) for f, c in answers if len(tokenize(f.text)) >= min_answer_tokens]
    files = chapter_files(books_root, name)
    report = AuditReport(files=len(files), ngram_sizes=sizes, fields=len(fields))
    for path in files:
        text = path.read_text(encoding="utf-8")
        relative = str(path.relative_to(books_root))
        book = tokenize(text)
        seen: set[tuple[str, str, int]] = set()
        for index in indexes:
            for field_id, positions in index.covered(book).items():
                test_field = index.fields[field_id]
                is_solution = test_field.name.endswith("solution")
                needed = max(index.n, solution_min_tokens) if is_solution else index.n
                field_numbers = numbers_in(test_field.text)
                for first, last, matched in runs(positions, 2):
                    if matched < needed:
                        continue
                    region = text[book.starts[first] : book.ends[last]]
                    if not same_numbers(field_numbers, region):
                        continue  # a variant of the exercise with other numbers
                    start = book.starts[first]
                    line = line_of(text, start)
                    key = (test_field.item, test_field.name, line)
                    if key in seen:
                        continue
                    seen.add(key)
                    report.hits.append(
                        AuditHit(
                            file=relative,
                            line=line,
                            item=test_field.item,
                            field=test_field.name,
                            kind=f"{index.n}-gram",
                            excerpt=_excerpt(text, start, book.ends[last]),
                        )
                    )
        packed, offsets = compact(text)
        for test_field, needle in answers:
            at = packed.find(needle)
            if at == -1:
                continue
            start = offsets[at]
            report.hits.append(
                AuditHit(
                    file=relative,
                    line=line_of(text, start),
                    item=test_field.item,
                    field=test_field.name,
                    kind="answer",
                    excerpt=_excerpt(text, start, offsets[at + len(needle) - 1] + 1),
                )
            )
    return report
