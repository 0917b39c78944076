"""Regression alert messages: content, links, bounds and redaction (no Airflow)."""

from __future__ import annotations

from studybench.alerts import MAX_LINE, build_alert
from studybench.pipeline.check import CheckResult, Regression


def _check(**extra: object) -> CheckResult:
    return CheckResult(
        target="tiny-base",
        run_id="cand123",
        compared={"baseline": "base456"},
        regressions=[
            Regression(
                target="tiny-base",
                run_id="cand123",
                against="baseline",
                baseline_run="base456",
                metric="application/par_at_8_mean",
                baseline=0.42,
                candidate=0.31,
                margin=0.02,
                ci_low=-0.17,
                ci_high=-0.05,
                p_adjusted=0.004,
                **extra,  # type: ignore[arg-type]
            )
        ],
        notes=["baseline: application: this split cannot detect a drop smaller than 6.1 points"],
    )


def test_alert_names_metric_ci_runs_and_links() -> None:
    alert = build_alert([_check()], lambda run: f"http://mlflow/#/experiments/1/runs/{run}")
    assert alert is not None
    assert "1 regression(s): tiny-base" in alert.subject
    text = alert.text
    assert "application/par_at_8_mean" in text
    assert "95% CI -0.170 to -0.050" in text and "(95% CI -17.0 to -5.0)" in text
    assert "http://mlflow/#/experiments/1/runs/cand123" in text
    assert "baseline: http://mlflow/#/experiments/1/runs/base456" in text
    assert "cannot detect a drop smaller than 6.1 points" in text
    assert alert.html.startswith("<pre>")


def test_no_regression_no_alert() -> None:
    quiet = CheckResult(target="t", run_id="r")
    assert build_alert([quiet], str) is None


def test_broken_links_and_hostile_names_are_bounded_and_scrubbed(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-secret-value-123456789")
    check = _check()
    check.regressions[0].target = "x" * 5000 + " sk-live-secret-value-123456789 <b>"

    def broken(run: str) -> str:
        raise RuntimeError("MLflow down")

    alert = build_alert([check], broken)
    assert alert is not None
    assert "sk-live-secret-value-123456789" not in alert.text + alert.subject
    assert all(len(line) <= MAX_LINE for line in alert.text.splitlines())
    assert "run cand123" in alert.text
    assert "<b>" not in alert.html
