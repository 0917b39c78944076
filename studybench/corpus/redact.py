"""Removing the Application-Set test items from the training textbooks.

Differences from the reference redaction (format doc, sections 9 and 12), each deliberate:

* **Every** qualifying occurrence of a test field is redacted: a problem restated in a worked
  example, in the end-of-chapter list and in a solutions appendix loses all three copies (the
  reference kept only the single longest match per field).
* Coverage counts the tokens of a copy aligned to the field (the residue rule's alignment:
  seeded by 8 consecutive tokens, grown across OCR edits of up to ``max_gap`` tokens), not
  the tokens under matched 13-grams: two misread words 15 words apart leave only 14 of 40
  tokens under 13-grams, far below the 60% threshold, but 38 aligned. Skipped tokens do not
  count (the reference counted the gap tokens of its 13-gram runs).
* Short fields (fewer tokens than the n-gram size, typically boxed answers) are redacted where
  they occur near a redacted copy of the same problem, or on an answer-key line that starts
  with the problem's number (the reference never redacted them).
* The book is tokenised once and each seed looked up in an inverted index of all test
  seeds, so the cost is linear in corpus size (the reference re-tokenised every book file
  for every field). The coverage pass and the audit's rule read the same copies.

* **The audit's rule is the floor** (:mod:`studybench.corpus.residue`): after the coverage
  pass, every region the audit would flag (a copy of 13 aligned tokens, a long gold answer,
  a copied solution passage), in any book, is removed too, and the redacted text is scanned
  again until the rule finds nothing. A copy of another book's item, or one below the 60%
  coverage, therefore cannot survive to fail the audit; the report lists such removals with method
  ``audit_rule`` and the kind of residue.

Matched character spans are replaced by ``[REDACTED]``; a report says, per test item, what
was removed where (method, kind, characters), and which fields were not found at all.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from studybench.corpus.books import chapter_files, output_path, source_of, write_atomic
from studybench.corpus.ngrams import TestField, compact, test_fields
from studybench.corpus.residue import ResidueRule, ResidueScanner
from studybench.corpus.tokens import line_of, tokenize
from studybench.data.records import ParentProblem

if TYPE_CHECKING:
    from studybench.config import CorpusSettings

__all__ = [
    "REDACTED",
    "ItemReport",
    "Redaction",
    "RedactionReport",
    "RedactionSettings",
    "apply_spans",
    "redact_corpus",
    "redact_text",
]

REDACTED = "[REDACTED]"


@dataclass(frozen=True)
class RedactionSettings:
    """The coverage pass's thresholds, plus the audit's (the floor every output must meet)."""

    ngram: int = 13
    coverage: float = 0.6
    max_gap: int = 2
    near_window_tokens: int = 400
    min_short_chars: int = 3
    audit_ngrams: tuple[int, ...] = (13,)
    audit_min_answer_tokens: int = 4
    audit_solution_min_tokens: int = 26
    max_floor_passes: int = 8

    @classmethod
    def from_corpus(cls, corpus: CorpusSettings) -> RedactionSettings:
        """The ``corpus`` section of params.yaml, audit thresholds included."""
        return cls(
            ngram=corpus.ngram,
            coverage=corpus.coverage,
            max_gap=corpus.max_gap,
            near_window_tokens=corpus.near_window_tokens,
            audit_ngrams=tuple(corpus.audit_ngrams),
            audit_min_answer_tokens=corpus.audit_min_answer_tokens,
            audit_solution_min_tokens=corpus.audit_solution_min_tokens,
        )

    def residue_rule(self) -> ResidueRule:
        return ResidueRule(
            ngram_sizes=self.audit_ngrams,
            min_answer_tokens=self.audit_min_answer_tokens,
            solution_min_tokens=self.audit_solution_min_tokens,
            max_gap=self.max_gap,
        )


class Redaction(BaseModel):
    field: str
    file: str
    line_start: int
    line_end: int
    method: str  # "ngram", "near", "answer_key", "audit_rule"
    kind: str = ""  # for audit_rule: the residue the audit would have flagged ("13-gram", ...)
    chars: int = 0  # characters removed
    tokens: int = 0
    matched: int = 0


class ItemReport(BaseModel):
    item: str
    source: str
    redactions: list[Redaction] = Field(default_factory=list)
    fields_not_found: list[str] = Field(default_factory=list)


class RedactionReport(BaseModel):
    settings: dict[str, float | int | list[int]]
    files: int
    redacted_spans: int
    by_method: dict[str, int] = Field(default_factory=dict)
    items: list[ItemReport]


@dataclass
class _FileResult:
    text: str
    file_name: str
    spans: list[tuple[int, int]] = field(default_factory=list)
    redactions: list[tuple[TestField, Redaction]] = field(default_factory=list)

    def add(
        self,
        test_field: TestField,
        span: tuple[int, int],
        method: str,
        kind: str = "",
        **counts: int,
    ) -> None:
        if method != "ngram" and span in self.spans:
            return  # a short field already covered by a longer match or another key line
        if method == "audit_rule" and any(s <= span[0] and span[1] <= e for s, e in self.spans):
            return  # already inside a span the coverage pass removed
        self.spans.append(span)
        redaction = Redaction(
            field=test_field.name,
            file=self.file_name,
            line_start=line_of(self.text, span[0]),
            line_end=line_of(self.text, span[1]),
            method=method,
            kind=kind,
            chars=span[1] - span[0],
            **counts,
        )
        self.redactions.append((test_field, redaction))


def _short_matches(text: str, needle: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Character spans of ``needle`` (compact form) inside ``text[lo:hi]``."""
    window, offsets = compact(text[lo:hi])
    spans = []
    start = window.find(needle)
    while start != -1 and needle:
        end = start + len(needle) - 1
        spans.append((lo + offsets[start], lo + offsets[end] + 1))
        start = window.find(needle, start + len(needle))
    return spans


def _answer_key_lines(text: str, number: str) -> list[tuple[int, int]]:
    pattern = re.compile(
        rf"^[ \t>*_-]*(?:problem\s+|p)?{re.escape(number)}(?![\d.]\d)[*_.:)\s]",
        re.IGNORECASE | re.MULTILINE,
    )
    spans = []
    for match in pattern.finditer(text):
        end = text.find("\n\n", match.start())
        spans.append((match.start(), len(text) if end == -1 else end))
    return spans


def redact_text(
    text: str,
    file_name: str,
    scanner: ResidueScanner,
    source: str,
    short_fields: Sequence[TestField],
    settings: RedactionSettings,
    *,
    floor: bool = True,
) -> tuple[str, list[tuple[TestField, Redaction]]]:
    """Redact one file of book ``source``; return the new text and what was removed.

    The coverage pass removes the copies of this book's own test items (and their short
    fields nearby); with ``floor``, whatever the audit's rule flags for any test item,
    whatever its book, goes too.
    """
    book = tokenize(text)
    result = _FileResult(text, file_name)
    redacted_items: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for copy in scanner.copies(text, book):
        test_field = copy.field
        if test_field.source != source:
            continue
        if copy.matched < max(settings.ngram, math.ceil(settings.coverage * copy.length)):
            continue
        redacted_items[test_field.item].append((copy.first, copy.last))
        span = (copy.start, copy.end)
        result.add(test_field, span, "ngram", tokens=copy.tokens, matched=copy.matched)

    window = settings.near_window_tokens
    for test_field in short_fields:
        needle, _ = compact(test_field.text)
        if len(needle) < settings.min_short_chars:
            continue
        places: list[tuple[str, int, int]] = []
        for first, last in redacted_items.get(test_field.item, []):
            lo = book.starts[max(first - window // 4, 0)]
            hi = book.ends[min(last + window, len(book) - 1)]
            places.append(("near", lo, hi))
        places += [("answer_key", lo, hi) for lo, hi in _answer_key_lines(text, test_field.number)]
        for method, lo, hi in places:
            for span in _short_matches(text, needle, lo, hi):
                result.add(test_field, span, method)
    if not floor:
        return apply_spans(text, result.spans), result.redactions
    _add_residue(result, scanner, text)
    new_text = apply_spans(text, result.spans)
    redactions = list(result.redactions)
    for _ in range(settings.max_floor_passes):
        # The audit reads the redacted text: scan it again until the rule finds nothing
        # (removing one region can leave a smaller one that now passes the number check).
        again = _FileResult(new_text, file_name)
        _add_residue(again, scanner, new_text)
        if not again.spans:
            break
        redactions += again.redactions
        new_text = apply_spans(new_text, again.spans)
    return new_text, redactions


def _add_residue(result: _FileResult, floor: ResidueScanner, text: str) -> None:
    for residue in floor.scan(text):
        result.add(
            residue.field,
            (residue.start, residue.end),
            "audit_rule",
            residue.kind,
            tokens=residue.tokens,
            matched=residue.matched,
        )


def apply_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Replace the (merged) character spans by ``[REDACTED]``."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out = []
    pos = 0
    for start, end in merged:
        out.append(text[pos:start])
        out.append(REDACTED)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact_corpus(
    parents: Sequence[ParentProblem],
    books_root: Path,
    *,
    input_name: str = "ocrfix.md",
    output_name: str = "ocrfix.redacted.md",
    out_root: Path | None = None,
    settings: RedactionSettings | None = None,
) -> RedactionReport:
    """Redact every chapter file under ``books_root`` against the test items ``parents``.

    An item's ``source`` must equal its book's folder name. Every chapter file gets an output
    (unchanged when nothing matched), so the redacted corpus is complete.
    """
    settings = settings or RedactionSettings()
    fields = test_fields(parents, settings.ngram)
    short: dict[str, list[TestField]] = defaultdict(list)
    for test_field in fields:
        if test_field.short:
            short[test_field.source].append(test_field)
    scanner = ResidueScanner(
        test_fields(parents, min(settings.audit_ngrams)), settings.residue_rule()
    )
    found: dict[tuple[str, str], list[Redaction]] = defaultdict(list)
    methods: Counter[str] = Counter()
    files = chapter_files(books_root, input_name)
    for path in files:
        source = source_of(books_root, path)
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(books_root))
        new_text, redactions = redact_text(text, name, scanner, source, short[source], settings)
        for test_field, redaction in redactions:
            found[(test_field.item, test_field.name)].append(redaction)
            methods[redaction.method] += 1
        write_atomic(output_path(books_root, path, out_root, output_name), new_text)

    items: dict[str, ItemReport] = {}
    for test_field in fields:
        report = items.setdefault(
            test_field.item, ItemReport(item=test_field.item, source=test_field.source)
        )
        hits = found.get((test_field.item, test_field.name), [])
        report.redactions.extend(hits)
        if not hits:
            report.fields_not_found.append(test_field.name)
    return RedactionReport(
        settings={
            "ngram": settings.ngram,
            "coverage": settings.coverage,
            "max_gap": settings.max_gap,
            "near_window_tokens": settings.near_window_tokens,
            "audit_ngrams": list(settings.audit_ngrams),
            "audit_min_answer_tokens": settings.audit_min_answer_tokens,
            "audit_solution_min_tokens": settings.audit_solution_min_tokens,
        },
        files=len(files),
        redacted_spans=sum(methods.values()),
        by_method=dict(sorted(methods.items())),
        items=list(items.values()),
    )
