"""Seedless reference dumps: blocks of k attempts are scored as independent runs."""

from __future__ import annotations

import pytest

from studybench.errors import DataError
from studybench.metrics.blocks import blocks_as_seeds
from studybench.metrics.passk import VerdictRow, score


def _dump(solved_attempts: set[int], attempts: int = 6) -> list[VerdictRow]:
    return [
        VerdictRow(parent="p", slot="0", seed=0, attempt=a, correct=a in solved_attempts)
        for a in range(attempts)
    ]


def test_three_blocks_of_two_are_three_runs() -> None:
    rows = _dump({1})  # only the first block solves the parent
    assert score(rows).par_mean == 1.0  # read as one run of k=6
    regrouped = score(blocks_as_seeds(rows, 2))
    assert regrouped.k == 2
    assert regrouped.seeds == [0, 1, 2]
    assert [s.par for s in regrouped.per_seed] == [1.0, 0.0, 0.0]
    assert round(regrouped.par_mean, 2) == 0.33
    assert round(regrouped.par_std, 2) == 0.58


def test_blocks_refuse_rows_with_seeds() -> None:
    rows = [*_dump({0}, 2), VerdictRow(parent="p", slot="0", seed=1, attempt=0, correct=True)]
    with pytest.raises(DataError, match="already carry seeds"):
        blocks_as_seeds(rows, 2, source="run/generations.json")


def test_blocks_refuse_an_incomplete_block() -> None:
    with pytest.raises(DataError, match="'p' has 5 attempts"):
        blocks_as_seeds(_dump(set(), 5), 2)
