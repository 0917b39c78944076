"""The second file of the xdist timing probe (see ``timing_probe.py``): its grouped test must
run on the worker of the other file's grouped tests, its ungrouped one anywhere."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("probe")
def test_probe_grouped_elsewhere() -> None:
    assert True  # where it ran is the point (tests/test_tiers.py reads the timing file)


def test_probe_ungrouped_elsewhere() -> None:
    assert True
