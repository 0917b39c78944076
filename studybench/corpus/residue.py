"""The residue rule: what of a test item may not remain in a training corpus.

One rule, two users. The audit reports every residue as a hit (and fails the pipeline); the
redaction removes every residue after its own coverage pass, so that whatever the audit would
flag is gone by construction. The rule lives here, below both, because two copies drift: the
redaction used to require 60% coverage of a field while the audit flags a single 13-gram, so a
copy with a few OCR-dropped words (below the coverage, above the audit's floor) survived the
redaction and then failed the audit, with nothing that could repair it. The redaction's
coverage pass reads the same copies (:meth:`ResidueScanner.copies`), with its own threshold.

A copy of a field is an alignment (:class:`~studybench.corpus.ngrams.SeedIndex`): seeded by
``seed_tokens`` consecutive tokens of the field and grown across OCR edits (gaps of up to
``max_gap`` tokens). Counting matched tokens instead of 13-grams is what makes the rule
robust to OCR noise: two misread words 15 words apart leave a 40-word copy with only 14
tokens under 13-grams, but 38 aligned tokens. A residue is

* a copy of any test field with at least ``n`` matched tokens (``n`` in ``ngram_sizes``, the
  protocol's 13); solutions need ``solution_min_tokens`` matched tokens instead, since a
  worked solution legitimately shares a sentence with the book's own exposition, while a
  copied solution passage is a copy;
* a gold answer of at least ``min_answer_tokens`` tokens, found in the compact form (spacing
  and LaTeX wrappers ignored) anywhere in the text.

A copy that states other numbers than the test item (a variant of the exercise) is not
residue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybench.corpus.ngrams import SeedIndex, TestField, compact, numbers_in, same_numbers
from studybench.corpus.tokens import Tokens, tokenize


@dataclass(frozen=True)
class ResidueRule:
    """The audit's thresholds (``corpus.audit_*`` in params.yaml)."""

    ngram_sizes: tuple[int, ...] = (13,)
    min_answer_tokens: int = 4
    solution_min_tokens: int = 26
    max_gap: int = 2
    seed_tokens: int = 8  # shorter seeds find more noisy copies, and more shared phrases


@dataclass(frozen=True, slots=True)
class Residue:
    """One region of a text that the rule flags: a character span and why."""

    field: TestField
    start: int
    end: int
    kind: str  # "13-gram" (13+ matched tokens), "8-gram", "answer"
    tokens: int = 0
    matched: int = 0


@dataclass(frozen=True, slots=True)
class FieldCopy:
    """One aligned copy of a field that states the item's numbers (character span)."""

    field: TestField
    start: int
    end: int
    first: int  # book token of the first matched one
    last: int  # and of the last
    matched: int  # tokens in between aligned to the field's tokens
    length: int  # tokens of the field

    @property
    def tokens(self) -> int:
        return self.last - self.first + 1


def is_answer_field(name: str) -> bool:
    return name.startswith("answer[") or ".answer[" in name


class ResidueScanner:
    """Finds every residue of a set of test fields in a text (index built once)."""

    def __init__(self, fields: Sequence[TestField], rule: ResidueRule) -> None:
        self.rule = rule
        self.fields = list(fields)
        self.sizes = sorted(set(rule.ngram_sizes), reverse=True)
        self.index = SeedIndex(self.fields, min(rule.seed_tokens, *self.sizes), min(self.sizes))
        self.answers = [
            (f, compact(f.text)[0])
            for f in self.fields
            if is_answer_field(f.name) and len(tokenize(f.text)) >= rule.min_answer_tokens
        ]
        self._numbers = {id(f): numbers_in(f.text) for f in self.fields}

    def copies(self, text: str, book: Tokens | None = None) -> list[FieldCopy]:
        """Every aligned copy of a field in ``text`` (tokenised as ``book``), variants out."""
        book = book or tokenize(text)
        found: list[FieldCopy] = []
        for copy in self.index.copies(book, self.rule.max_gap):
            test_field = self.index.fields[copy.field_id]
            start, end = book.starts[copy.first], book.ends[copy.last]
            if not same_numbers(self._numbers[id(test_field)], text[start:end]):
                continue  # a variant of the exercise with other numbers
            length = len(self.index.words[copy.field_id])
            found.append(
                FieldCopy(test_field, start, end, copy.first, copy.last, copy.matched, length)
            )
        return found

    def needed(self, test_field: TestField, n: int) -> int:
        """Matched tokens that make a copy of ``test_field`` residue at size ``n``."""
        if test_field.name.endswith("solution"):
            return max(n, self.rule.solution_min_tokens)
        return n

    def scan(self, text: str) -> list[Residue]:
        """Every residue in ``text``, in the order found (copies, then answers)."""
        found: list[Residue] = []
        for copy in self.copies(text):
            for n in self.sizes:
                if copy.matched >= self.needed(copy.field, n):
                    kind = f"{n}-gram"
                    found.append(
                        Residue(copy.field, copy.start, copy.end, kind, copy.tokens, copy.matched)
                    )
                    break
        if self.answers:
            packed, offsets = compact(text)
            for test_field, needle in self.answers:
                if not needle:
                    continue
                at = packed.find(needle)
                while at != -1:
                    end = offsets[at + len(needle) - 1] + 1
                    found.append(Residue(test_field, offsets[at], end, "answer"))
                    at = packed.find(needle, at + len(needle))
        return found
