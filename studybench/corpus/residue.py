"""The residue rule: what of a test item may not remain in a training corpus.

One rule, two users. The audit reports every residue as a hit (and fails the pipeline); the
redaction removes every residue after its own coverage pass, so that whatever the audit would
flag is gone by construction. The rule lives here, below both, because two copies drift: the
redaction used to require 60% coverage of a field while the audit flags a single 13-gram, so a
copy with a few OCR-dropped words (below the coverage, above the audit's floor) survived the
redaction and then failed the audit, with nothing that could repair it.

A residue is

* a run of matched n-grams (one of ``ngram_sizes``, bridging gaps of ``max_gap`` tokens) of
  any test field, at least one n-gram long; solutions need ``solution_min_tokens`` matched
  tokens instead, since a worked solution legitimately shares a sentence with the book's own
  exposition, while a copied solution passage is a copy;
* a gold answer of at least ``min_answer_tokens`` tokens, found in the compact form (spacing
  and LaTeX wrappers ignored) anywhere in the text.

A matched region that states other numbers than the test item (a variant of the exercise) is
not residue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybench.corpus.ngrams import NgramIndex, TestField, compact, numbers_in, runs, same_numbers
from studybench.corpus.tokens import tokenize


@dataclass(frozen=True)
class ResidueRule:
    """The audit's thresholds (``corpus.audit_*`` in params.yaml)."""

    ngram_sizes: tuple[int, ...] = (13,)
    min_answer_tokens: int = 4
    solution_min_tokens: int = 26
    max_gap: int = 2


@dataclass(frozen=True, slots=True)
class Residue:
    """One region of a text that the rule flags: a character span and why."""

    field: TestField
    start: int
    end: int
    kind: str  # "13-gram", "8-gram", "answer"
    tokens: int = 0
    matched: int = 0


def is_answer_field(name: str) -> bool:
    return name.startswith("answer[") or ".answer[" in name


class ResidueScanner:
    """Finds every residue of a set of test fields in a text (indexes built once)."""

    def __init__(self, fields: Sequence[TestField], rule: ResidueRule) -> None:
        self.rule = rule
        self.fields = list(fields)
        self.sizes = sorted(set(rule.ngram_sizes), reverse=True)
        self.indexes = [NgramIndex(self.fields, n) for n in self.sizes]
        self.answers = [
            (f, compact(f.text)[0])
            for f in self.fields
            if is_answer_field(f.name) and len(tokenize(f.text)) >= rule.min_answer_tokens
        ]
        self._numbers = {id(f): numbers_in(f.text) for f in self.fields}

    def scan(self, text: str) -> list[Residue]:
        """Every residue in ``text``, in the order found (n-gram runs, then answers)."""
        book = tokenize(text)
        found: list[Residue] = []
        for index in self.indexes:
            for field_id, positions in index.covered(book).items():
                test_field = index.fields[field_id]
                needed = index.n
                if test_field.name.endswith("solution"):
                    needed = max(index.n, self.rule.solution_min_tokens)
                for first, last, matched in runs(positions, self.rule.max_gap):
                    if matched < needed:
                        continue
                    start, end = book.starts[first], book.ends[last]
                    if not same_numbers(self._numbers[id(test_field)], text[start:end]):
                        continue  # a variant of the exercise with other numbers
                    found.append(
                        Residue(
                            test_field,
                            start,
                            end,
                            f"{index.n}-gram",
                            tokens=last - first + 1,
                            matched=matched,
                        )
                    )
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
