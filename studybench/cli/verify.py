"""``studybench verify``: the rule verifier on one pair or on a JSONL file of cases."""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from studybench.cli.common import ParamsOpt, err, out
from studybench.config import load_settings
from studybench.errors import DataError
from studybench.fileio import loads_json


def _case_lines(path: Path) -> list[str]:
    """The lines of a JSONL case file (a DataError if it cannot be read)."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read: {exc}") from None


def _read_cases(path: Path, lines: list[str] | None = None) -> list[dict[str, Any]]:
    """Read and check a JSONL case file completely before any comparison runs."""
    from pydantic import ValidationError

    from studybench.verify import VerifyItem

    if lines is None:
        lines = _case_lines(path)
    cases: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = loads_json(line, source=f"{path}: line {number}")  # DataError, never a traceback
        if not isinstance(record, dict):
            raise DataError(f"{path}: line {number}: expected a JSON object")
        try:
            VerifyItem.model_validate(record)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise DataError(f"{path}: line {number}: field {field}: {first['msg']}") from None
        cases.append(record)
    return cases


def verify_command(
    pred: Annotated[str | None, typer.Argument(help="Model output (with a \\boxed{}).")] = None,
    gold: Annotated[str | None, typer.Argument(help="Gold answer (with \\boxed{}).")] = None,
    answer_type: Annotated[
        str, typer.Option("--type", "-t", help="Answer type of PRED/GOLD: NV EX EQ IN ...")
    ] = "",
    type_sequence: Annotated[
        str, typer.Option("--type-sequence", help="Inner types of TUP/ALT, e.g. EX,NV.")
    ] = "",
    cases: Annotated[
        Path | None,
        typer.Option("--cases", help="JSONL with pred, gold, answer_type, type_sequence."),
    ] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (0: all CPUs).")] = 0,
    tolerance: Annotated[
        float | None, typer.Option(help="Relative tolerance (default: judge.tolerance).")
    ] = None,
    timeout: Annotated[
        float | None, typer.Option(help="Seconds per comparison (default: judge.rule_timeout_s).")
    ] = None,
    details: Annotated[
        bool, typer.Option(help="Add extracted, normalized_gold and verifier_version.")
    ] = False,
    question: Annotated[
        str | None,
        typer.Option(help="Question text: names the unit of a unitless gold ('in days')."),
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """Rule-based verification of answers: one pair, or a JSONL file of cases.

    With --cases, writes one JSON line per case to stdout (the input fields plus correct,
    reason, elapsed_ms) and a summary line to stderr.
    """
    from studybench.verify import Verdict, Verifier

    settings = load_settings(params)
    tol = tolerance if tolerance is not None else settings.judge.tolerance
    limit = timeout if timeout is not None else settings.judge.rule_timeout_s
    strip = settings.protocol.strip_think_before_judging

    def payload(case: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
        fields = {"correct": verdict.correct, "reason": verdict.reason}
        fields["elapsed_ms"] = round(verdict.elapsed_ms, 3)
        if details:
            fields["extracted"] = list(verdict.extracted)
            fields["normalized_gold"] = list(verdict.normalized_gold)
            fields["verifier_version"] = verdict.verifier_version
        return {**case, **fields}

    if cases is None:
        if pred is None or gold is None or not answer_type:
            err.print("give PRED GOLD --type TYPE, or --cases FILE.jsonl", markup=False)
            raise typer.Exit(2)
        case = {"pred": pred, "gold": gold, "answer_type": answer_type}
        case["type_sequence"] = type_sequence
        if question is not None:
            case["question"] = question
        with Verifier(workers=1, tolerance=tol, timeout_s=limit, strip_think=strip) as verifier:
            verdict = verifier.verify(pred, gold, answer_type, type_sequence, question=question)
        out.print_json(json.dumps(payload(case, verdict)))
        raise typer.Exit(0 if verdict.correct else 1)

    lines = _case_lines(cases)
    start = time.perf_counter()
    with Verifier(
        workers=workers or None, tolerance=tol, timeout_s=limit, strip_think=strip
    ) as verifier:
        # the workers start (~1 s each) while this process checks the file; a bad line
        # still stops the command before any comparison runs
        verifier.start(sum(1 for line in lines if line.strip()))
        records = _read_cases(cases, lines)
        verdicts = verifier.verify_many(records)
    wall = time.perf_counter() - start
    for case, verdict in zip(records, verdicts, strict=True):
        sys.stdout.write(json.dumps(payload(case, verdict), ensure_ascii=False) + "\n")
    sys.stdout.flush()
    correct = sum(v.correct for v in verdicts)
    timeouts = sum(v.reason == "timeout" for v in verdicts)
    latencies = sorted(v.elapsed_ms for v in verdicts) or [0.0]
    summary = (
        f"verified {len(verdicts)} case(s) in {wall:.2f} s: {correct} correct, "
        f"{len(verdicts) - correct} incorrect, {timeouts} timeout(s); "
        f"p50 {statistics.median(latencies):.2f} ms, max {latencies[-1]:.1f} ms"
    )
    expected = [
        (c["expect"], v.correct) for c, v in zip(records, verdicts, strict=True) if "expect" in c
    ]
    if expected:
        agree = sum(e == got for e, got in expected)
        summary += f"; matches 'expect' on {agree}/{len(expected)}"
    err.print(summary, markup=False, highlight=False, soft_wrap=True)
