"""Regression alerts that reach people: what to send and where (no Airflow here).

The Airflow notifier (``plugins/studybench_airflow/notifiers.py``) only hands the message
built here to Airflow's own notifiers (SMTP, Apprise for Slack/Teams/... webhooks), so the
wording, the bounds and the redaction are tested without a scheduler. A message names, per
regression, the metric, the before/after values, the CI of the difference, the adjusted
p-value, the runs compared and their MLflow links, plus what each split can detect.

Everything in a message comes from settings and MLflow (names, numbers, run ids), never from
model output, and is still bounded and passed through :func:`scrub_secrets`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from studybench.config import AlertSettings as AlertSettings
from studybench.secrets import scrub_secrets

if TYPE_CHECKING:  # the pipeline is above this module's settings (studybench/config/)
    from studybench.pipeline.check import CheckResult

MAX_LINE = 600
MAX_LINES = 200


class Alert(BaseModel):
    subject: str
    text: str
    html: str


def load_checks(run_roots: Sequence[str], check_file: str = "check.json") -> list[CheckResult]:
    """The check results the checkpoint and nightly DAGs wrote (missing ones are skipped:
    the verdict task reports those)."""
    from studybench.pipeline.check import CheckResult

    out = []
    for root in run_roots:
        path = Path(root) / check_file
        try:
            out.append(CheckResult.model_validate_json(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return out


def _bounded(lines: list[str]) -> list[str]:
    clipped = [scrub_secrets(line)[:MAX_LINE] for line in lines[:MAX_LINES]]
    if len(lines) > MAX_LINES:
        clipped.append(f"... and {len(lines) - MAX_LINES} more lines")
    return clipped


def build_alert(
    checks: Sequence[CheckResult],
    run_url: Callable[[str], str],
    *,
    subject_prefix: str = "[studybench]",
    dag_run: str = "",
) -> Alert | None:
    """The message of every regression in ``checks`` (None when nothing regressed).

    Args:
        run_url: MLflow link of a run id (the Airflow side passes the UI's address).
    """
    regressions = [r for c in checks for r in c.regressions]
    if not regressions:
        return None

    def link(run_id: str) -> str:
        try:
            return run_url(run_id)
        except Exception:  # a link is a convenience: the run id is in the message anyway
            return f"run {run_id}"

    targets = sorted({r.target for r in regressions})
    subject = (f"{subject_prefix} {len(regressions)} regression(s): {', '.join(targets)}")[:200]
    lines: list[str] = []
    if dag_run:
        lines.append(f"Airflow run: {dag_run}")
    for r in regressions:
        lines.append(r.describe())
        if r.ci_low is not None and r.ci_high is not None:
            lines.append(
                f"  {r.metric}: {100 * r.baseline:.1f} -> {100 * r.candidate:.1f} points, "
                f"difference {100 * (r.candidate - r.baseline):+.1f} "
                f"(95% CI {100 * r.ci_low:+.1f} to {100 * r.ci_high:+.1f})"
            )
        lines.append(f"  candidate: {link(r.run_id)}")
        lines.append(f"  {r.against}: {link(r.baseline_run)}")
    notes = [f"{c.target}: {n}" for c in checks for n in c.notes if "cannot detect" in n]
    if notes:
        lines += ["", "What the splits can detect:", *(f"  {n}" for n in notes)]
    lines = _bounded(lines)
    text = "\n".join(lines) + "\n"
    html = "<pre>" + escape(text) + "</pre>"
    return Alert(subject=scrub_secrets(subject), text=text, html=html)
