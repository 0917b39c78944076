"""Run URLs without credentials, method artefacts in the plan and the protocol hash, the
guidance coverage rule (a guidance file of another split never makes a run "guided"), and
the per-item rows of a StudyBench result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.config import MethodArtefactSpec
from studybench.errors import ConfigError
from studybench.pipeline import evaluate as ev
from studybench.pipeline.orchestration import artefacts_from_conf, public_url
from tests.conftest import ROOT
from tests.pipeline.conftest import eval_settings

HERE = Path(__file__).parent


def _cases(name: str) -> list[dict[str, Any]]:
    return json.loads((HERE / name).read_text())


@pytest.mark.parametrize("case", _cases("public_url_cases.json"), ids=lambda c: c["case"])
def test_public_url_drops_credentials_and_keeps_the_port(case: dict[str, str]) -> None:
    assert public_url(case["url"]) == case["public"]
    assert "s3cret" not in public_url(case["url"])


def _partial_guidance(tmp_path: Path, count: int) -> Path:
    """A guidance file with guidance for the first ``count`` transfer sub-problems only."""
    records = json.loads((ROOT / "data/sample/guidance.json").read_text())
    seen = 0
    for parent in records:
        for sub in parent.get("sub_problems") or [parent]:
            if seen >= count:
                sub.pop("guidance", None)
            elif sub.get("guidance"):
                seen += 1
    path = tmp_path / "partial_guidance.json"
    path.write_text(json.dumps(records))
    return path


@pytest.mark.parametrize("case", _cases("guidance_coverage_cases.json"), ids=lambda c: c["case"])
def test_guidance_coverage_rule(case: dict[str, str], tmp_path: Path) -> None:
    settings = eval_settings(tmp_path, tracking={"enabled": False})
    guidance = (
        _partial_guidance(tmp_path, 10)
        if case["guidance"] == "partial"
        else ROOT / case["guidance"]
    )
    spec = MethodArtefactSpec(guidance=str(guidance))

    def plan() -> ev.Target:
        return ev.plan_target(
            "m", "m", "openai", settings, splits=[case["split"]], benchmarks=["studybench"],
            artefacts=spec, check_done=False,
        )  # fmt: skip

    if case["outcome"] == "refused":
        with pytest.raises(ConfigError, match="guidance for another split"):
            plan()
        return
    study = plan().plans["studybench"]
    assert study.notes[f"guidance.coverage.{case['split']}"] == case["coverage"]


def test_artefacts_change_the_protocol_and_the_key(tmp_path: Path) -> None:
    settings = eval_settings(tmp_path, tracking={"enabled": False})
    gepa = tmp_path / "gepa.jsonl"
    gepa.write_text(
        "\n".join(
            json.dumps({"iteration": i, "rollouts": 10 * i, "system_prompt": f"prompt {i}"})
            for i in range(3)
        )
    )

    def plan(spec: MethodArtefactSpec | None) -> ev.Target:
        return ev.plan_target(
            "m", "m", "openai", settings, splits=["transfer"], benchmarks=["studybench"],
            artefacts=spec, check_done=False,
        )  # fmt: skip

    plain, last, first = (
        plan(None),
        plan(MethodArtefactSpec(gepa=str(gepa))),
        plan(MethodArtefactSpec(gepa=str(gepa), gepa_iteration=0)),
    )
    hashes = {t.plans["studybench"].protocol_hash for t in (plain, last, first)}
    assert len(hashes) == 3 and len({plain.eval_key, last.eval_key, first.eval_key}) == 3
    # generating checks the planned protocol with the same artefacts: no false alarm
    from studybench.pipeline.run import check_plans

    check_plans(first, settings)
    assert ev.Target.load(first.run_root).artefacts.gepa_iteration == 0
    with pytest.raises(ConfigError, match="gepa_iteration"):
        artefacts_from_conf({"checkpoint": "/x", "gepa": str(gepa), "gepa_iteration": "late"})
    assert artefacts_from_conf({"checkpoint": "/x"}) is None
    with pytest.raises(ConfigError, match="mutually exclusive"):
        plan(MethodArtefactSpec(gepa=str(gepa), ace=str(gepa)))


def test_config_protocol_hash_is_the_one_that_keys_results(tmp_path: Path) -> None:
    from studybench.benchmarks.studybench.protocol import protocol_hash

    settings = eval_settings(tmp_path, tracking={"enabled": False})
    target = ev.plan_target(
        "m", "m", "openai", settings, splits=["transfer"], benchmarks=["studybench"],
        check_done=False,
    )  # fmt: skip
    assert target.plans["studybench"].protocol_hash == protocol_hash(settings)


def test_config_show_prints_the_hash_that_keys_results(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from studybench.benchmarks.studybench.protocol import protocol_hash
    from studybench.cli import app
    from studybench.config import load_settings

    shown = CliRunner().invoke(
        app, ["config", "show", "--json", "--params", str(ROOT / "params.yaml")]
    )
    assert shown.exit_code == 0, shown.output
    settings = load_settings(ROOT / "params.yaml")
    assert json.loads(shown.stdout)["protocol_hash"] == protocol_hash(settings)
