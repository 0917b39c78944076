"""One protocol re-check for every registered benchmark (``Benchmark.check_protocol``).

Each benchmark only says how its protocol hash is computed now; the refusal (its message,
the file it names) is one mechanism in the base class, also used by the pipeline before every
step. The case table lists, per benchmark, settings changes that must be refused and ones that
must not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks import get_benchmark
from studybench.benchmarks.registry import names as registered
from studybench.config import Settings, load_settings
from studybench.errors import ConfigError
from tests.conftest import ROOT

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("protocol_check_cases.json")).read_text()
)


def _settings(tmp_path: Path, env: dict[str, str]) -> Settings:
    environ = {"STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"), **env}
    return load_settings(ROOT / "params.yaml", environ=environ)


def test_every_registered_benchmark_has_cases() -> None:
    assert {c["benchmark"] for c in CASES} == set(registered())
    for name in registered():
        rows = [c for c in CASES if c["benchmark"] == name]
        assert {c["refused"] for c in rows} == {True, False}, name


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['benchmark']}-{sorted(c['env'])[0]}")
def test_a_changed_protocol_is_refused_by_the_one_check(
    case: dict[str, Any], tmp_path: Path
) -> None:
    bench = get_benchmark(case["benchmark"])
    settings = _settings(tmp_path, {})
    plan = bench.plan(bench.default_parts(settings), "tiny", settings, tmp_path / "run")
    bench.check_protocol(plan, settings)  # unchanged settings: accepted
    changed = _settings(tmp_path, case["env"])
    where = tmp_path / "target.json"
    if case["refused"]:
        with pytest.raises(ConfigError) as err:
            bench.check_protocol(plan, changed, where=where)
        message = str(err.value)
        assert message.startswith(
            f"{where}: {bench.name} planned under protocol {plan.protocol_hash}"
        )
        assert message.endswith("; plan again"), message
    else:
        bench.check_protocol(plan, changed, where=where)
