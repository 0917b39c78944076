"""Redaction against an independent oracle: planted multi-part items, bounded OCR noise.

The expectation never comes from the code under test: the planted texts are listed here (not
through ``corpus.ngrams.test_fields``, which the redaction and its audit share), and what
survives is measured with this file's own word matcher. Every part of a multi-part item is
planted separately (stem, each sub-problem statement, each solution, each gold box after its
solution as a worked example prints it, and an answer-key line), with at most one OCR edit
per fifteen words, and every part must be gone afterwards:

* a long part keeps no 13 consecutive words of its original text (the protocol's n-gram) and
  at most a short stretch (< 8 words) cut off by each OCR edit at the part's edges;
* a clean copy of a long part keeps none of its words at all;
* a gold box's value appears nowhere in the redacted book.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from studybench.corpus.redact import REDACTED, redact_corpus
from studybench.data.records import ParentProblem

SYLLABLES = ["ba", "ke", "di", "mo", "nu", "ra", "si", "to", "vu", "we", "xa", "yo", "ze", "pi"]
FILLER = ["the", "of", "and", "a", "to", "in", "is", "that", "it", "for", "on", "as", "with"]
NGRAM = 13
KEY_HEADING = "## Answers to selected problems"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(3, 4)))


def _text(rng: random.Random, n: int, vocabulary: set[str]) -> str:
    """``n`` invented words never used by another part (so each part is traced alone)."""
    words: list[str] = []
    while len(words) < n:
        w = _word(rng)
        if w not in vocabulary:
            vocabulary.add(w)
            words.append(w)
    words[n // 2] = f"{rng.randint(2, 9)}.{rng.randint(10, 99)}"  # numbers must match too
    return " ".join(words)


def _filler(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(FILLER) for _ in range(n))


def _norm(word: str) -> str:
    return re.sub(r"^\W+|\W+$", "", word.lower())


@dataclass
class Planted:
    parent: ParentProblem
    long_parts: dict[str, str]  # name -> original text
    boxes: dict[str, str]  # name -> gold value
    clean: set[str]  # long parts planted without noise
    edits: dict[str, int]  # long part -> OCR edits applied


def _item(rng: random.Random, subs: int) -> tuple[ParentProblem, dict[str, str], dict[str, str]]:
    vocabulary: set[str] = set()
    long_parts = {"stem": _text(rng, rng.randint(30, 45), vocabulary)}
    boxes: dict[str, str] = {}
    records = []
    for letter in "abc"[:subs]:
        long_parts[f"{letter}.problem"] = _text(rng, rng.randint(26, 40), vocabulary)
        long_parts[f"{letter}.solution"] = _text(rng, rng.randint(30, 50), vocabulary)
        boxes[letter] = f"{rng.randint(100, 999)}.{rng.randint(1, 9)}{rng.randint(1, 9)}"
        records.append(
            {
                "problem_id": letter,
                "problem": long_parts[f"{letter}.problem"],
                "solution": long_parts[f"{letter}.solution"],
                "answer": f"\\boxed{{{boxes[letter]}}}",
                "answer_type": "NV",
            }
        )
    parent = ParentProblem.model_validate(
        {
            "source": "OracleBook",
            "source_problem_id": "P4.6",
            "problem_type": "Mechanics",
            "problem": long_parts["stem"],
            "sub_problems": records,
        }
    )
    return parent, long_parts, boxes


def _noisy(text: str, edits: int, rng: random.Random) -> str:
    """At most one OCR edit per fifteen words (never on a number), and re-wrapped lines."""
    words = text.split()
    edits = min(edits, len(words) // 15)
    for _ in range(edits):
        at = rng.choice([i for i, w in enumerate(words) if not w[0].isdigit()])
        kind = rng.choice(["drop", "misread", "split"])
        if kind == "drop":
            words.pop(at)
        elif kind == "misread":
            words[at] = words[at].replace(words[at][1], "1", 1) + "l"
        else:
            words[at : at + 1] = [words[at][:2] + "-", words[at][2:]]
    out = []
    for i, w in enumerate(words):
        out.append(w + ("\n" if i % rng.randint(7, 12) == 0 else " "))
    return "".join(out).strip()


def _plant(root: Path, rng: random.Random, subs: int, edits: list[int]) -> Planted:
    parent, long_parts, boxes = _item(rng, subs)
    clean = set()
    applied: dict[str, int] = {}
    parts = ["# Chapter 4", _filler(rng, 80)]
    for number, (name, text) in enumerate(long_parts.items()):
        n_edits = edits[number % len(edits)]
        applied[name] = min(n_edits, len(text.split()) // 15)
        if applied[name] == 0:
            clean.add(name)
        parts.append(_noisy(text, n_edits, rng))
        if name.endswith(".solution"):  # a worked example prints the result after it
            parts.append(f"so the result is ${boxes[name[0]]}$ as required.")
        parts.append(_filler(rng, rng.randint(150, 220)))
    key = "; ".join(f"({letter}) ${value}$" for letter, value in boxes.items())
    parts += [KEY_HEADING, f"4.6 {key}", _filler(rng, 40)]
    chapter = root / "OracleBook" / "ch04"
    chapter.mkdir(parents=True, exist_ok=True)
    (chapter / "ocrfix.md").write_text("\n\n".join(parts), encoding="utf-8")
    return Planted(parent, long_parts, boxes, clean, applied)


def _longest_common_run(original: list[str], output: list[str]) -> int:
    """Length of the longest run of consecutive original words that appears in the output."""
    at: dict[str, list[int]] = {}
    for j, word in enumerate(output):
        at.setdefault(word, []).append(j)
    best = 0
    ending: dict[int, int] = {}  # output position -> run length ending there
    for word in original:
        ending = {j: ending.get(j - 1, 0) + 1 for j in at.get(word, [])}
        best = max([best, *ending.values()])
    return best


def _redacted(root: Path, seed: int, subs: int, edits: list[int]) -> tuple[Planted, str]:
    planted = _plant(root, random.Random(seed), subs, edits)
    redact_corpus([planted.parent], root)
    out_text = (root / "OracleBook" / "ch04" / "ocrfix.redacted.md").read_text(encoding="utf-8")
    assert REDACTED in out_text
    return planted, out_text


def _check_long_part(planted: Planted, name: str, out_text: str) -> None:
    out_words = [w for w in map(_norm, out_text.split()) if w]
    original = [_norm(w) for w in planted.long_parts[name].split()]
    # a word that is also the tail of a planted word can be a piece of another part's split
    # word (``ra- zewe``): it proves nothing about this part
    pieces = {w[2:] for text in planted.long_parts.values() for w in map(_norm, text.split())}
    own = set(original) - set(FILLER) - pieces
    surviving = sum(1 for w in out_words if w in own)
    run = _longest_common_run(original, out_words)
    assert run < NGRAM, (name, "longest surviving run", run)
    # the words between two OCR edits are removed with the copy; an edit can only cut off
    # a short stretch between it and the part's edge (the redaction seeds copies with 8
    # consecutive words, and steps over edits from there): under 8 words per edit
    bound = planted.edits[name] * 7
    assert surviving <= bound, (name, "surviving words", surviving, bound)
    if name in planted.clean:
        assert surviving == 0, (name, "surviving words of a clean copy", surviving)


PLANTS = {
    "seed": st.integers(0, 2**32 - 1),
    "subs": st.integers(2, 3),
    "edits": st.lists(st.integers(0, 3), min_size=1, max_size=7),
}


def _check_stems_statements_and_key(root: Path, seed: int, subs: int, edits: list[int]) -> None:
    planted, out_text = _redacted(root, seed, subs, edits)
    for name in planted.long_parts:
        if not name.endswith(".solution"):
            _check_long_part(planted, name, out_text)
    key = out_text.split(KEY_HEADING, 1)[1]
    for name, value in planted.boxes.items():  # the answer key line names problem 4.6
        assert value not in key, (f"box {name} on the answer-key line", value)


# The search is deterministic under the suite's default hypothesis profile (conftest:
# derandomize, no database), so the suite passes or fails the same way on every machine;
# `HYPOTHESIS_PROFILE=explore` searches afresh. The examples are leaks earlier rules had:
# two OCR edits ~15 words apart in a solution (14 of 40 tokens under 13-grams, below 60%
# coverage and the solution floor of 26; the gold value printed after it stayed too), and
# a stem whose two edits left no 13 clean consecutive words, or stretches of 12 beside them.
@example(seed=0, subs=2, edits=[2])
@example(seed=0, subs=3, edits=[2])
@example(seed=6097822, subs=3, edits=[2])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**PLANTS)
def test_every_planted_stem_statement_and_box_is_gone(
    tmp_path_factory: pytest.TempPathFactory, seed: int, subs: int, edits: list[int]
) -> None:
    _check_stems_statements_and_key(tmp_path_factory.mktemp("books"), seed, subs, edits)


@example(seed=0, subs=2, edits=[2])
@example(seed=0, subs=3, edits=[2])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**PLANTS)
def test_every_planted_solution_is_gone(
    tmp_path_factory: pytest.TempPathFactory, seed: int, subs: int, edits: list[int]
) -> None:
    planted, out_text = _redacted(tmp_path_factory.mktemp("books"), seed, subs, edits)
    for name in planted.long_parts:
        if name.endswith(".solution"):
            _check_long_part(planted, name, out_text)
    for name, value in planted.boxes.items():  # printed after its (unredacted) solution
        assert value not in out_text, (f"box {name}", value)
