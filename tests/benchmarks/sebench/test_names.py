"""Seeded names: deterministic, pronounceable, collision-free, never a reserved word."""

from __future__ import annotations

import random
import re

import numpy

from studybench.benchmarks.sebench.functions import DEFAULT_FUNCTIONS
from studybench.benchmarks.sebench.names import CONSONANTS, VOWELS, obfuscated_names

ALTERNATING = re.compile(
    rf"^(?:[{CONSONANTS}](?:[{VOWELS}][{CONSONANTS}])*[{VOWELS}]?"
    rf"|[{VOWELS}](?:[{CONSONANTS}][{VOWELS}])*[{CONSONANTS}]?)$"
)


def test_same_seed_gives_the_same_names_in_any_order() -> None:
    first = obfuscated_names(DEFAULT_FUNCTIONS, seed=7)
    shuffled = list(DEFAULT_FUNCTIONS)
    random.Random(1).shuffle(shuffled)
    assert obfuscated_names(shuffled, seed=7) == first
    assert obfuscated_names(DEFAULT_FUNCTIONS, seed=8) != first


def test_names_are_pronounceable_and_sized() -> None:
    for name in obfuscated_names(DEFAULT_FUNCTIONS, seed=0).values():
        assert 5 <= len(name) <= 7, name
        assert ALTERNATING.match(name), name


def test_names_are_collision_free_even_for_thousands_of_functions() -> None:
    paths = [f"f{i}" for i in range(5000)]
    names = obfuscated_names(paths, seed=3)
    assert len(set(names.values())) == len(paths)


def test_reserved_words_are_never_names() -> None:
    reserved = set(dir(numpy)) | set(dir(numpy.ndarray))
    paths = [f"f{i}" for i in range(3000)]
    names = set(obfuscated_names(paths, seed=1, reserved=reserved).values())
    assert not names & {n.lower() for n in reserved}
    assert not names & {"while", "print", "range", "match"}
    # names a seed would pick are skipped once they are reserved
    first = obfuscated_names(paths[:50], seed=1)
    again = obfuscated_names(paths[:50], seed=1, reserved=first.values())
    assert not set(again.values()) & set(first.values())


def test_adding_a_function_does_not_rename_the_others() -> None:
    base = obfuscated_names(DEFAULT_FUNCTIONS, seed=0)
    more = obfuscated_names([*DEFAULT_FUNCTIONS, "linalg.qr"], seed=0)
    assert all(more[path] == name for path, name in base.items())
