"""Test fields and their copies in a text: what redaction, audit and the residue rule share.

A test item is split into fields (title, stem, question, solution, each gold box); a book
file is matched against all of them at once through an inverted index of short n-grams
(seeds), so the cost is linear in corpus size, and each seed is grown into an alignment of
the field that steps over OCR damage (:class:`SeedIndex`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

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


@dataclass(frozen=True, slots=True)
class Copy:
    """One aligned copy of a test field in a text: book tokens ``first..last`` (inclusive)
    and how many of them were matched to the field's tokens, in order."""

    field_id: int
    first: int
    last: int
    matched: int


class SeedIndex:
    """Inverted index of every field's ``seed``-grams with their offsets, and the alignment.

    A copy is found from a seed (``seed`` consecutive tokens of a field, anywhere in the text)
    and grown token by token in both directions, skipping up to ``max_gap`` tokens of the text
    and of the field at each step: a dropped, misread or split word (OCR) costs one step, not
    the copy. Seeds shorter than the protocol's n-gram let a copy whose OCR edits leave no 13
    clean consecutive words still be found; the thresholds on the matched count (in
    :mod:`studybench.corpus.residue` and the redaction) keep short shared phrases apart from
    copies. A step past the seeds needs a second match within one more move (or the end of
    the field), so a common word next to a copy does not extend it by chance.
    """

    def __init__(self, fields: Sequence[TestField], seed: int, min_tokens: int) -> None:
        self.seed = seed
        self.fields = list(fields)
        self.words: dict[int, tuple[str, ...]] = {}
        self.grams: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
        for field_id, test_field in enumerate(self.fields):
            words = tokenize(test_field.text).words
            if len(words) < max(seed, min_tokens):
                continue
            self.words[field_id] = words
            for offset in range(len(words) - seed + 1):
                self.grams[words[offset : offset + seed]].append((field_id, offset))

    def copies(self, book: Tokens, max_gap: int) -> list[Copy]:
        """Every aligned copy of every indexed field in ``book``, in book order per field."""
        seed = self.seed
        words = book.words
        seeded: dict[int, set[tuple[int, int]]] = defaultdict(set)
        for i in range(len(words) - seed + 1):
            for field_id, offset in self.grams.get(words[i : i + seed], ()):
                seeded[field_id].update((i + k, offset + k) for k in range(seed))
        found: list[Copy] = []
        for field_id, pairs in seeded.items():
            chains = _chains(pairs, words, self.words[field_id], max_gap)
            found += _merged(field_id, chains, seed)
        return found


@cache
def _steps(max_gap: int) -> list[tuple[int, int]]:
    """Moves in (text, field) tokens, nearest first: (1, 1) is the next word of both.

    A move skips up to ``max_gap`` field tokens and up to twice as many text tokens, since
    each damaged word can come out of OCR as two (a word split at a line break).
    """
    moves = [(db, df) for db in range(1, 2 * max_gap + 2) for df in range(1, max_gap + 2)]
    return sorted(moves, key=lambda move: (move[0] + move[1], abs(move[0] - move[1])))


def _matches(
    pair: tuple[int, int], direction: int, book: tuple[str, ...], field: tuple[str, ...], gap: int
) -> list[tuple[int, int]]:
    """Pairs of equal tokens one move after ``pair`` going ``direction``, nearest first."""
    found = []
    for db, df in _steps(gap):
        b, f = pair[0] + direction * db, pair[1] + direction * df
        if 0 <= b < len(book) and 0 <= f < len(field) and book[b] == field[f]:
            found.append((b, f))
    return found


def _step(
    pair: tuple[int, int],
    direction: int,
    book: tuple[str, ...],
    field: tuple[str, ...],
    max_gap: int,
    seeded: set[tuple[int, int]],
) -> tuple[int, int] | None:
    """The next aligned pair after ``pair`` going ``direction`` (+1 or -1), or None.

    A pair is taken when it is seeded, is itself followed by a match within one move (one
    equal word is chance, two in step are not), or is within ``max_gap`` tokens of the
    field's end in that direction (where the words that would confirm it may all be damaged).
    """
    for b, f in _matches(pair, direction, book, field, max_gap):
        left = len(field) - 1 - f if direction > 0 else f
        if (b, f) in seeded or left <= max_gap or _matches((b, f), direction, book, field, max_gap):
            return b, f
    return None


def _chains(
    seeded: set[tuple[int, int]], book: tuple[str, ...], field: tuple[str, ...], max_gap: int
) -> list[list[tuple[int, int]]]:
    """The aligned (text, field) pairs of each alignment grown from the seeded pairs."""
    used: set[tuple[int, int]] = set()
    chains: list[list[tuple[int, int]]] = []
    for start in sorted(seeded):
        if start in used:
            continue
        chain = [start]
        for direction in (-1, 1):
            pair: tuple[int, int] | None = start
            while pair is not None:
                pair = _step(pair, direction, book, field, max_gap, seeded)
                if pair is not None:
                    chain.append(pair)
        used.update(chain)
        chains.append(sorted(chain))
    return chains


def _merged(field_id: int, chains: list[list[tuple[int, int]]], seed: int) -> list[Copy]:
    """Alignments of one field that overlap, or follow each other in the field's order with
    fewer than ``seed`` tokens between them (a cluster of OCR edits too dense to step over;
    two seeded stretches of one field in order are one copy), as one copy."""
    spans: list[tuple[int, int, int, set[int]]] = []  # first, last, last field token, tokens
    for chain in sorted(chains):
        first, last = chain[0][0], chain[-1][0]
        positions = {b for b, _ in chain}
        if spans:
            prev_first, prev_last, prev_field, prev_positions = spans[-1]
            in_order = 0 < chain[0][1] - prev_field <= seed and first - prev_last <= 2 * seed
            if first <= prev_last or in_order:
                end_field = max(prev_field, chain[-1][1])
                spans[-1] = (
                    prev_first,
                    max(prev_last, last),
                    end_field,
                    prev_positions | positions,
                )
                continue
        spans.append((first, last, chain[-1][1], positions))
    return [Copy(field_id, first, last, len(positions)) for first, last, _, positions in spans]


# a number glued to letters (``q26.2``, ``2.5O``, ``P4.7``) is OCR damage or a label, not a
# stated value: it neither makes a copy a variant nor a variant a copy
_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def numbers_in(text: str) -> set[str]:
    """The numbers a text states, read from its tokens, so OCR-split decimals (``2. 50``,
    ``8  .00``) are joined exactly as the tokenizer joins them for matching."""
    return set(_NUMBER_IN_TEXT.findall(" ".join(tokenize(text).words)))


def same_numbers(field_numbers: set[str], region_text: str) -> bool:
    """Does a matched region state the test item's numbers, or a variant's?

    Textbooks restate a problem with other numbers ("a similar block of 4.10 kg ...", or
    the same object distance with another lens); that variant is a different exercise and
    stays. A region is a copy when more of its numbers are the item's than are not (one
    number damaged by OCR does not make a copy a variant; one changed of two does make an
    exercise one). A region without numbers cannot tell and counts as a copy.
    """
    region = numbers_in(region_text)
    if not region:
        return True
    same = len(region & field_numbers)
    return same > len(region) - same
