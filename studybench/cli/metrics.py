"""``studybench metrics ...``: scores from plain verdict and outcome files (no store)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from studybench.cli.common import out
from studybench.cli.stats import metrics_compare
from studybench.errors import DataError

metrics_app = typer.Typer(help="Scores from plain verdict files.", no_args_is_help=True)


def _read_verdicts(path: Path) -> list[Any]:
    """Every row of a verdict JSONL file, or a DataError naming the file, line and field."""
    from pydantic import ValidationError

    from studybench.metrics.passk import VerdictRow

    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(VerdictRow.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise DataError(f"{path}: line {number}: {where}: {first['msg']}") from None
    return rows


@metrics_app.command("passk")
def metrics_passk(
    verdicts: Annotated[Path, typer.Argument(help="JSONL: parent, slot, seed, attempt, correct.")],
) -> None:
    """Par@k and Sub@k per seed and mean ± std (ddof=1) from a plain verdict file (JSON)."""
    from studybench.metrics.passk import score

    result = score(_read_verdicts(verdicts))
    payload = {
        "k": result.k,
        "seeds": result.seeds,
        "per_seed": {str(s.seed): {"par": s.par, "sub": s.sub} for s in result.per_seed},
        "par_mean": result.par_mean,
        "par_std": result.par_std,
        "par_pstd": result.par_pstd,
        "sub_mean": result.sub_mean,
        "sub_std": result.sub_std,
        "sub_pstd": result.sub_pstd,
        "par_unbiased": result.par_unbiased,
        "sub_unbiased": result.sub_unbiased,
        "parents": result.parents,
        "slots": result.slots,
    }
    out.print_json(json.dumps(payload))


def _read_sequences(path: Path) -> list[Any]:
    """The outcome sequences of a JSON file, or a DataError naming the file and the value."""
    from studybench.metrics.sequential import parse_sequences

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    try:
        return parse_sequences(data)
    except ValueError as exc:
        raise DataError(f"{path}: {exc}") from None


@metrics_app.command("sequential")
def metrics_sequential(
    outcomes: Annotated[
        Path,
        typer.Argument(
            help='JSON: {"<task type>": [[0,1,null,...], ...]} (null: missing); for O_learned '
            'each sequence as {"outcomes": [...], "problem_ids": [...]}.'
        ),
    ],
    warmup: Annotated[
        int, typer.Option(help="Positions excluded from post-warm-up accuracy (EvaLearn: 3).")
    ] = 3,
    zero_shot: Annotated[
        Path | None,
        typer.Option(
            "--zero-shot",
            help="Zero-shot outcomes of the same problems (same format, with problem_ids): "
            "enables O_learned (learned_offset).",
        ),
    ] = None,
    problems: Annotated[
        int | None,
        typer.Option(help="Problems per sequence M (EvaLearn: 7; default: the longest)."),
    ] = None,
) -> None:
    """Learning-curve metrics of sequential outcomes (EvaLearn-style), as JSON: Acc, slope k,
    P_first, N_consec, post-warm-up accuracy and, with ``--zero-shot``, O_learned."""
    from studybench.metrics.sequential import sequential_metrics, solved_ids

    sequences = _read_sequences(outcomes)
    solved = None
    if zero_shot is not None:
        baseline = _read_sequences(zero_shot)
        unnamed = next((s for s in baseline if s.outcomes and not s.problem_ids), None)
        if unnamed is not None:
            raise DataError(
                f"{zero_shot}: a {unnamed.type!r} sequence has no problem_ids: O_learned "
                'matches zero-shot results by problem id ({"outcomes": [...], '
                '"problem_ids": [...]})'
            )
        solved = solved_ids(baseline)
    try:
        result = sequential_metrics(
            sequences, warmup=warmup, problems=problems, zero_shot_solved=solved
        )
    except ValueError as exc:
        raise DataError(f"{outcomes}: {exc}") from None
    out.print_json(result.model_dump_json())


metrics_app.command("compare")(metrics_compare)  # the paired comparison of two runs
