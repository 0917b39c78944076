"""Test fields and their n-grams: the vocabulary redaction, audit and the residue rule share.

A test item is split into fields (title, stem, question, solution, each gold box); a book
file is matched against all of them at once through an inverted index of n-grams, so the
cost is linear in corpus size.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studybench.corpus.tokens import Tokens, tokenize
from studybench.data.boxes import scan_boxes
from studybench.data.records import ParentProblem


@dataclass(frozen=True, slots=True)
class TestField:
    """One text of one test item that must not appear in the corpus."""

    item: str  # "<source>/<source_problem_id>"
    source: str
    name: str  # "problem", "sub_problems[b].solution", "answer[0]", ...
    text: str
    number: str  # problem number as printed in books, "1.7" for "P1.7"
    short: bool = False  # compared as a compact string, not by n-grams


_NUMBER = re.compile(r"(\d+(?:\.\d+)*)")
_COMPACT_DROP = re.compile(
    r"\\boxed|\\mathrm|\\text|\\left|\\right|\\[,;:! ]|\\quad|\\qquad|[\s${}~]"
)


def problem_number(source_problem_id: str) -> str:
    match = _NUMBER.search(source_problem_id)
    return match.group(1) if match else source_problem_id


def test_fields(parents: Iterable[ParentProblem], ngram: int) -> list[TestField]:
    """Every text of every test item: title, stem, question, solution, each gold box."""
    fields: list[TestField] = []
    for parent in parents:
        item = f"{parent.source}/{parent.source_problem_id}"
        number = problem_number(parent.source_problem_id)

        def add(
            name: str,
            text: str,
            item: str = item,
            source: str = parent.source,
            number: str = number,
        ) -> None:
            if text.strip():
                short = len(tokenize(text)) < ngram
                fields.append(TestField(item, source, name, text, number, short))

        add("title", parent.title)
        add("problem", parent.problem)
        add("solution", parent.solution)
        for i, box in enumerate(scan_boxes(parent.answer).contents):
            add(f"answer[{i}]", box)
        for sub in parent.sub_problems:
            prefix = f"sub_problems[{sub.problem_id}]"
            add(f"{prefix}.problem", sub.problem)
            add(f"{prefix}.solution", sub.solution)
            for i, box in enumerate(scan_boxes(sub.answer).contents):
                add(f"{prefix}.answer[{i}]", box)
    return fields


def compact(text: str) -> tuple[str, list[int]]:
    """Text without spacing and LaTeX wrappers, lower-cased, with original char offsets."""
    kept: list[str] = []
    offsets: list[int] = []
    pos = 0
    for match in _COMPACT_DROP.finditer(text):
        for i in range(pos, match.start()):
            kept.append(text[i].lower())
            offsets.append(i)
        pos = match.end()
    for i in range(pos, len(text)):
        kept.append(text[i].lower())
        offsets.append(i)
    return "".join(kept), offsets


class NgramIndex:
    """Inverted index: n-gram of normalised tokens -> ids of the fields containing it."""

    def __init__(self, fields: Sequence[TestField], n: int) -> None:
        self.n = n
        self.fields = list(fields)
        self.lengths: dict[int, int] = {}
        self.grams: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for field_id, test_field in enumerate(self.fields):
            words = tokenize(test_field.text).words
            if len(words) < n:
                continue
            self.lengths[field_id] = len(words)
            for gram in {words[i : i + n] for i in range(len(words) - n + 1)}:
                self.grams[gram].append(field_id)

    def covered(self, book: Tokens) -> dict[int, list[int]]:
        """Per field id, the sorted positions of book tokens covered by one of its n-grams."""
        n = self.n
        words = book.words
        grams = self.grams
        marks: dict[int, set[int]] = defaultdict(set)
        for i in range(len(words) - n + 1):
            ids = grams.get(words[i : i + n])
            if ids:
                span = range(i, i + n)
                for field_id in ids:
                    marks[field_id].update(span)
        return {field_id: sorted(positions) for field_id, positions in marks.items()}


_NUMBER_IN_TEXT = re.compile(r"\d+(?:\s?\.\s?\d+)?")


def numbers_in(text: str) -> set[str]:
    """The numbers of a text, OCR-split decimals joined (``2. 50`` -> ``2.50``)."""
    return {re.sub(r"\s", "", n) for n in _NUMBER_IN_TEXT.findall(text)}


def same_numbers(field_numbers: set[str], region_text: str) -> bool:
    """Does a matched region state the test item's numbers, or a variant's?

    Textbooks restate a problem with other numbers ("a similar block of 4.10 kg ...");
    that variant is a different exercise and stays. A region without numbers cannot tell
    and counts as a copy.
    """
    region = numbers_in(region_text)
    if not field_numbers or not region:
        return True
    return len(field_numbers & region) * 2 >= min(len(field_numbers), len(region))


def runs(positions: list[int], max_gap: int) -> list[tuple[int, int, int]]:
    """(first, last, matched) runs of positions bridging gaps of at most ``max_gap``."""
    runs: list[tuple[int, int, int]] = []
    start = prev = positions[0]
    matched = 1
    for pos in positions[1:]:
        if pos - prev - 1 <= max_gap:
            matched += 1
        else:
            runs.append((start, prev, matched))
            start, matched = pos, 1
        prev = pos
    runs.append((start, prev, matched))
    return runs
