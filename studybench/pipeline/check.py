"""Check: compare a logged evaluation with the previous evaluation of its lineage and with a
baseline; regressions beyond seed noise fail the nightly run.

Like with like: every baseline is compared in the version judged by the candidate's
instrument (verifier and judge). A baseline judged by another one is re-scored first from
its stored generations (seconds, no inference); when that is impossible the comparison is
not made and the notes say why. The instrument the decision used is a tag of the candidate
(``studybench.check.instrument``) and a field of the result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.pipeline.target import Target


class Regression(BaseModel):
    target: str
    run_id: str
    against: str
    baseline_run: str
    metric: str
    baseline: float
    candidate: float
    margin: float
    ci_low: float | None = None  # paired comparison (tracking.compare): CI of the difference
    ci_high: float | None = None
    p_adjusted: float | None = None

    def describe(self) -> str:
        if self.ci_low is not None and self.ci_high is not None:
            return (
                f"{self.target}: {self.metric} {self.baseline:.3f} -> {self.candidate:.3f} "
                f"({self.candidate - self.baseline:+.3f}, 95% CI {self.ci_low:+.3f} to "
                f"{self.ci_high:+.3f}, Holm p {self.p_adjusted or 0:.3g}) against "
                f"{self.against} (run {self.baseline_run})"
            )
        return (
            f"{self.target}: {self.metric} {self.baseline:.3f} -> {self.candidate:.3f} "
            f"({self.candidate - self.baseline:+.3f}, noise margin {self.margin:.3f}) against "
            f"{self.against} (run {self.baseline_run})"
        )


class CheckResult(BaseModel):
    target: str
    run_id: str
    compared: dict[str, str] = Field(default_factory=dict)  # what -> baseline run id
    regressions: list[Regression] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    instrument: str = ""  # the verifier and judge every compared run was judged by


def like_with_like(
    client: Any, settings: Settings, what: str, base: str, candidate: str
) -> tuple[str | None, str]:
    """The version of baseline ``base`` judged by ``candidate``'s instrument (re-scored now
    when there is none and the installed instrument is the candidate's), and a note; None
    when the baseline cannot be brought to that instrument."""
    from studybench.rescore import RescoreRefusedError, installed, rescore_run
    from studybench.tracking.rescore import Instrument, judged_by

    wanted = Instrument.of_run(client.get_run(candidate))
    found = judged_by(client, base, wanted)
    if found is not None:
        if found == base:
            return base, ""
        return found, f"{what}: run {base} compared in its re-score {found} ({wanted.describe()})"
    held = Instrument.of_run(client.get_run(base)).describe()
    if installed(settings) != wanted:
        return None, (
            f"{what} (run {base}) was judged by {held}, this run by {wanted.describe()}, and "
            f"the installed instrument is {installed(settings).describe()}: it cannot be "
            "re-scored to this run's instrument; not compared"
        )
    try:
        outcome = rescore_run(settings, base)
    except (RescoreRefusedError, StudyBenchError) as exc:
        return None, (
            f"{what} (run {base}) was judged by {held}, this run by {wanted.describe()}; it "
            f"cannot be re-scored ({exc}); not compared"
        )
    return outcome.run_id, (
        f"{what}: run {base} ({held}) re-scored first as run {outcome.run_id} "
        f"({wanted.describe()}, {outcome.flips.flips} verdict(s) flipped)"
    )


def check(target: Target, run_id: str, settings: Settings, baseline: str = "") -> CheckResult:
    """Compare the logged run with the previous evaluation of the same lineage (previous
    checkpoint of the training run, or previous night of the model) and with ``baseline``."""
    from studybench.metrics.paired import ComparisonRefusedError
    from studybench.tracking.compare import (
        best_so_far,
        compare_runs,
        previous_evaluation,
        resolve_run,
    )
    from studybench.tracking.mlflow_log import client_for

    client = client_for(settings)
    result = CheckResult(target=target.name, run_id=run_id)
    against: dict[str, str] = {}
    previous = previous_evaluation(client, run_id)
    if previous:
        against["previous checkpoint" if target.checkpoint.training_run else "previous run"] = (
            previous
        )
    else:
        result.notes.append("no earlier evaluation of this lineage to compare with")
    best = best_so_far(client, run_id, exclude=tuple(against.values()))
    if best:
        against["best so far"] = best
    if baseline:
        try:
            against["baseline"] = resolve_run(client, baseline, relative_to=run_id)
        except Exception as exc:  # an unknown alias must not hide the other comparison
            result.notes.append(f"baseline {baseline!r} not found: {exc}")
    from studybench.tracking.rescore import Instrument

    instrument = Instrument.of_run(client.get_run(run_id))
    result.instrument = instrument.describe()
    for what, planned in against.items():
        if planned == run_id:
            continue
        base, note = like_with_like(client, settings, what, planned, run_id)
        if note:
            result.notes.append(note)
        if base is None or base == run_id:
            continue
        try:
            comparison = compare_runs(
                client,
                base,
                run_id,
                settings.tracking.regression_threshold,
                log=what != "baseline",
                label="compare" if what != "best so far" else "compare_best",
                target=settings.tracking.regression_target,
            )
        except ComparisonRefusedError as exc:  # other items/protocol: say so, compare the rest
            result.notes.append(f"{what} (run {base}): {exc}")
            continue
        result.compared[what] = base
        result.notes.extend(f"{what}: {note}" for note in comparison.notes)
        result.regressions.extend(
            Regression(
                target=target.name,
                run_id=run_id,
                against=what,
                baseline_run=base,
                metric=m.metric,
                baseline=m.baseline,
                candidate=m.candidate,
                margin=m.margin,
                ci_low=m.ci_low if m.decision else None,
                ci_high=m.ci_high if m.decision else None,
                p_adjusted=m.p_adjusted if m.decision else None,
            )
            for m in comparison.metrics
            if m.regression
        )
    client.set_tag(run_id, "studybench.regressions", str(len(result.regressions)))
    client.set_tag(run_id, "studybench.check.instrument", result.instrument)
    return result


def regression_message(results: Sequence[CheckResult]) -> str:
    lines = [r.describe() for result in results for r in result.regressions]
    if not lines:
        return ""
    return f"{len(lines)} regression(s) beyond seed noise:\n  " + "\n  ".join(lines)
