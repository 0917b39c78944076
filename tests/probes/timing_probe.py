"""Planted tests for the suite timing under pytest-xdist. Not collected by a normal session
(the file name does not match ``test_*.py``); ``tests/test_tiers.py`` runs it by path with
``-n 2 --dist loadfile --suite-timing=...`` (with ``timing_probe_other.py``) and asserts
that the controller's timing file holds every test's phases and the fixture set-ups that
happened in the workers, and that one group's tests, from both files, ran on one worker."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

SLEEP_S = 0.3


@pytest.fixture(scope="session")
def slept() -> Iterator[float]:
    """A session fixture whose set-up costs a known time, in whichever worker needs it."""
    time.sleep(SLEEP_S)
    yield SLEEP_S


@pytest.mark.xdist_group("probe")
def test_probe_grouped(slept: float) -> None:
    assert slept == SLEEP_S


@pytest.mark.xdist_group("probe")
@pytest.mark.parametrize("who", ["user@host", "plain"])
def test_probe_grouped_case(slept: float, who: str) -> None:
    assert slept == SLEEP_S and who


def test_probe_ungrouped(slept: float) -> None:
    assert slept == SLEEP_S
