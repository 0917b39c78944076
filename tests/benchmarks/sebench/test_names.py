"""The reference's name generation: the published mapping, reproduced exactly."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.sebench.functions import DEFAULT_FUNCTIONS, LINALG, MAIN
from studybench.benchmarks.sebench.names import obfuscated_names, reference_names

CASES: dict[str, Any] = json.loads(Path(__file__).with_name("names_cases.json").read_text())


def test_published_lists_have_the_published_sizes() -> None:
    assert (len(MAIN), len(LINALG), len(DEFAULT_FUNCTIONS)) == (247, 31, 278)
    assert sorted(set(MAIN) & set(LINALG)) == sorted(CASES["in_both_lists"])


@pytest.mark.parametrize(("path", "name"), sorted(CASES["published_pairs"].items()))
def test_published_pairs(path: str, name: str) -> None:
    assert reference_names()[path] == name


def test_the_whole_mapping_is_the_published_one() -> None:
    names = reference_names()
    digest = hashlib.sha256(json.dumps(names, sort_keys=True).encode()).hexdigest()
    assert digest == CASES["mapping_sha256"]
    lengths = Counter(len(n) for n in names.values())
    assert {str(k): v for k, v in sorted(lengths.items())} == CASES["name_lengths"]
    assert len(set(names.values())) == 278


def test_another_seed_gives_other_names_and_the_same_seed_the_same() -> None:
    assert reference_names(7) == reference_names(7) != reference_names()


def test_narrowing_the_list_keeps_the_names() -> None:
    every = reference_names()
    few = obfuscated_names(["mean", "linalg.inv", "array"])
    assert few == {p: every[p] for p in ("mean", "linalg.inv", "array")}
    with pytest.raises(KeyError, match="not_a_function"):
        obfuscated_names(["not_a_function"])
