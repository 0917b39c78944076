"""Judge calibration: statistics on known tables, rule-sure labels, a scripted judge and the
tiny model served by vLLM, logged to a real MLflow store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.cli.calibrate import run_calibration
from studybench.config import Settings, load_settings
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.errors import DataError
from studybench.judge.calibrate import (
    LabelledPair,
    calibrate,
    judge_changed,
    judge_fingerprint,
    load_labelled,
    perturb,
    rates,
    rule_labels,
)
from studybench.judge.llm import LLMJudge
from studybench.tracking.calibration import is_calibrated, log_calibration
from studybench.verify import Verifier
from tests.conftest import ROOT
from tests.engines.fake_openai import fake_openai

SAMPLE = ROOT / "data" / "sample" / "judge_calibration.jsonl"


def settings_for(tmp_path: Path, model: str = "scripted-judge") -> Settings:
    base = load_settings(ROOT / "params.yaml", environ={})
    return base.model_copy(
        update={
            "tracking": base.tracking.model_copy(
                update={"uri": f"sqlite:///{tmp_path / 'mlflow.db'}", "experiment": "calib"}
            ),
            "paths": base.paths.model_copy(update={"work_dir": tmp_path / "work"}),
            "judge": base.judge.model_copy(update={"model": model}),
        }
    )


def test_rates_on_a_known_table() -> None:
    labels = [True] * 8 + [False] * 12
    said = ["true"] * 6 + ["false"] * 2 + ["true"] * 3 + ["false"] * 8 + ["unparseable"]
    result = rates(labels, said)
    assert result.n == 20 and result.positives == 8
    assert result.agreement == pytest.approx(15 / 20)  # unparseable counts as FALSE
    assert result.false_reject == pytest.approx(2 / 8)
    assert result.false_accept == pytest.approx(3 / 12)
    assert result.unparseable == 1
    # kappa = (po - pe) / (1 - pe) with pe from the marginals
    pe = (8 / 20) * (9 / 20) + (12 / 20) * (11 / 20)
    assert result.kappa == pytest.approx((0.75 - pe) / (1 - pe))
    assert result.kappa_ci is not None and result.kappa_ci[0] < result.kappa < result.kappa_ci[1]
    assert result.false_accept_ci is not None
    assert result.false_accept_ci[0] < 0.25 < result.false_accept_ci[1]


def test_rates_without_negatives_have_no_false_accept_rate() -> None:
    result = rates([True, True], ["true", "false"])
    assert result.false_accept is None and result.kappa is None
    assert result.false_reject == 0.5


def test_sample_file_loads_and_bad_records_are_named(tmp_path: Path) -> None:
    pairs = load_labelled(SAMPLE)
    assert len(pairs) >= 30 and {p.label for p in pairs} == {True, False}
    assert {p.answer_type for p in pairs} >= {"NV", "EX", "EQ", "IN", "MC", "TF", "QL", "TUP"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"pred": "x", "gold": "y", "answer_type": "NV"}) + "\n")
    with pytest.raises(DataError, match=r"bad.jsonl: record 1: field label"):
        load_labelled(bad)


def test_perturbations_are_wrong_answers() -> None:
    assert perturb(r"3.2\,\mathrm{m/s}", "NV")[0] == r"32\,\mathrm{m/s}"
    assert "-3.2" in perturb("3.2", "NV")[1]
    assert perturb("B", "MC") == ["C"]
    assert perturb("True", "TF") == ["False"]
    assert perturb("v = 2x", "EQ")[-1] == "v = 2x + 1"


def test_rule_labels_keep_only_what_the_rules_are_sure_of() -> None:
    items = [p.model_copy(update={"source": "file"}) for p in load_labelled(SAMPLE)]
    with Verifier(workers=1) as verifier:
        sure = rule_labels(items, verifier)
        accepted = [p for p in sure if p.source == "rule_accept"]
        rejected = [p for p in sure if p.source == "rule_reject"]
        assert accepted and rejected
        assert all(p.label for p in accepted) and not any(p.label for p in rejected)
        # every label agrees with the rules by construction
        checks = verifier.verify_many(
            [p.model_dump(include={"pred", "gold", "answer_type", "type_sequence", "question"})
             for p in sure]
        )  # fmt: skip
    assert [v.correct for v in checks] == [p.label for p in sure]
    # a wrong labelled answer the rules accept would be a rule bug: none in the sample
    wrong = {(p.pred, p.gold) for p in items if not p.label}
    assert not any((p.pred, p.gold) in wrong for p in accepted)


def _always_true(body: dict[str, Any]) -> tuple[int, str, float]:
    prompt = body["messages"][0]["content"]
    if "Reference final answer" not in prompt:
        return 400, "not a judge prompt", 0.0
    return 200, "VERDICT: TRUE\nJUSTIFICATION: looks right.", 0.0


def changed(settings: Settings) -> bool:
    return judge_changed(settings, lambda fingerprint: is_calibrated(settings, fingerprint))


def test_scripted_judge_end_to_end_logs_to_mlflow(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    assert changed(settings)
    with fake_openai(_always_true) as (url, received):
        judge = LLMJudge(OpenAICompatEngine(url, "scripted-judge"), "scripted-judge")
        report = calibrate(settings, labelled=SAMPLE, rule_items=SAMPLE, judge=judge)
    log_calibration(settings, report)
    pairs = report.overall.n
    assert pairs == len(received) and report.sources["file"] == len(load_labelled(SAMPLE))
    assert report.sources["rule_accept"] > 0 and report.sources["rule_reject"] > 0
    assert report.overall.false_accept == 1.0 and report.overall.false_reject == 0.0
    assert report.overall.kappa is None  # a judge that always says TRUE carries no information
    assert report.judge_fingerprint == judge_fingerprint("scripted-judge")
    assert not changed(settings)
    assert changed(settings_for(tmp_path, model="another-judge"))

    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=settings.tracking.uri)
    experiment = client.get_experiment_by_name("calib-judge-calibration")
    (run,) = client.search_runs([experiment.experiment_id])
    assert run.data.metrics["all/false_accept"] == 1.0
    assert run.data.params["judge_version"] == report.judge_version
    assert run.data.tags["studybench.judge_model"] == "scripted-judge"
    # the same judge again updates the same run
    with fake_openai(_always_true) as (url, _):
        judge = LLMJudge(OpenAICompatEngine(url, "scripted-judge"), "scripted-judge")
        log_calibration(settings, calibrate(settings, labelled=SAMPLE, judge=judge))
    assert len(client.search_runs([experiment.experiment_id])) == 1


def test_run_calibration_only_when_the_judge_changed(tmp_path: Path) -> None:
    """What the nightly DAG calls: the settings' judge endpoint, skipped once calibrated."""
    with fake_openai(_always_true) as (url, received):
        settings = settings_for(tmp_path)
        settings = settings.model_copy(
            update={"judge": settings.judge.model_copy(update={"base_url": url})}
        )
        first = run_calibration(settings, only_if_changed=True)
        assert first is not None and first.sources == {"file": len(load_labelled(SAMPLE))}
        calls = len(received)
        assert run_calibration(settings, only_if_changed=True) is None
        assert len(received) == calls


def test_unparseable_replies_count_as_false_and_on_their_own(tmp_path: Path) -> None:
    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        boxed = "(no \\boxed{} answer was found)" not in body["messages"][0]["content"]
        return 200, ("I think it is fine." if boxed else "VERDICT: FALSE"), 0.0

    with fake_openai(script) as (url, _):
        judge = LLMJudge(OpenAICompatEngine(url, "j", max_retries=0), "j")
        report = calibrate(settings_for(tmp_path), labelled=SAMPLE, judge=judge)
    unboxed = sum("\\boxed" not in p.pred for p in load_labelled(SAMPLE))
    assert report.overall.unparseable == report.overall.n - unboxed
    assert report.overall.false_accept == 0.0 and report.overall.false_reject == 1.0


@pytest.fixture(scope="module")
def tiny_server(vllm_tiny: str) -> str:
    return vllm_tiny  # the session's one vLLM server (tests/conftest.py)


def test_tiny_model_served_by_vllm(tiny_server: str, tmp_path: Path) -> None:
    """The real client against a real server: every pair gets a verdict or is counted as
    unparseable (the tiny model rarely writes a verdict line), and the report is logged."""
    settings = settings_for(tmp_path, model="tiny")
    pairs = load_labelled(SAMPLE)[:8]
    subset = tmp_path / "subset.jsonl"
    subset.write_text("".join(p.model_dump_json(exclude={"source"}) + "\n" for p in pairs))
    judge = LLMJudge(OpenAICompatEngine(tiny_server, "tiny"), "tiny", max_tokens=24)
    report = calibrate(settings, labelled=subset, judge=judge)
    log_calibration(settings, report)
    assert report.overall.n == 8
    assert 0 <= report.overall.unparseable <= 8
    assert report.judge_model == "tiny" and not changed(settings)


def test_labelled_pair_ignores_unknown_fields() -> None:
    pair = LabelledPair.model_validate(
        {"pred": "a", "gold": "b", "answer_type": "EX", "label": False, "extra": 1}
    )
    assert pair.source == "file"
