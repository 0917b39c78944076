"""One split-name normalisation: the run folder, the report's metric keys and the Guidance
Gap name a split the same way (the case table beside this file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybench.benchmarks.studybench import guidance_gap, results
from studybench.benchmarks.studybench.splits import split_label

CASES = json.loads(Path(__file__).with_name("split_name_cases.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["given"])
def test_every_site_names_a_split_the_same_way(case: dict[str, str]) -> None:
    assert split_label(case["given"]) == case["label"]
    assert results._label(case["given"], Path("unused")) == case["label"]
    assert guidance_gap._split_name(case["given"]) == case["label"]


def test_a_report_without_a_split_is_named_by_its_folder() -> None:
    assert results._label("", Path("runs/transfer")) == "transfer"
