"""False-regression rate and power of the nightly regression rule, new versus today's.

Simulates nightly pairs of evaluations shaped like StudyBench: two splits (application, 88
parents; transfer, 100 parents), 1-6 sub-problems per parent, k=8 attempts, 3 seeds, and
heterogeneous per-sub-problem success rates (Beta(0.6, 0.9) per slot, so some problems are
nearly always solved and many nearly never). Each simulated night draws a fresh problem set
and two independent evaluations of it:

* no change: both evaluations use the same success rates;
* a true drop of 5, 10 or 15 points: the candidate's application success rates are scaled so
  that the expected application Par@8 falls by exactly that much.

For each night it applies

* the new rule (:func:`studybench.metrics.comparison.compare_evaluations`: paired cluster
  bootstrap CI, sign-flip permutation p-value, Holm over the 4 metrics, minimum effect), and
* today's heuristic (:func:`studybench.tracking.compare.compare_metrics`: a mean drop beyond
  max(threshold, 2 sqrt(std_a^2 + std_b^2)) over 3 seeds),

and prints the false-regression rate (any of the 4 metrics flagged on a no-change night;
nominal 5%) and the power (application Par@8 flagged) with the Monte-Carlo standard error.

    .venv/bin/python benchmarks/regression_power.py [--nights 200] [--resamples 999]
"""

from __future__ import annotations

import argparse
import gc
import math
import time

import numpy as np
from rich.console import Console
from rich.progress import track
from rich.table import Table
from scipy.optimize import brentq

from studybench.metrics.clustered import ClusterTable
from studybench.metrics.comparison import CompareSettings, compare_evaluations
from studybench.tracking.compare import compare_metrics

SPLITS = {"application": 88, "transfer": 100}
K, SEEDS, MAX_SLOTS = 8, 3, 6


def expected_par(rates: np.ndarray, mask: np.ndarray) -> float:
    """Expected Par@K over parents: 1 - (1 - P(all slots right in one attempt))^K."""
    solve = np.where(mask, rates, 1.0).prod(axis=1)
    return float((1.0 - (1.0 - solve) ** K).mean())


def drop_scale(rates: np.ndarray, mask: np.ndarray, drop: float) -> float:
    """The factor on every slot's success rate that lowers the expected Par@K by ``drop``."""
    target = expected_par(rates, mask) - drop
    return float(brentq(lambda s: expected_par(rates * s, mask) - target, 0.0, 1.0))


def draw_problems(rng: np.random.Generator, parents: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-slot success rates (parents x MAX_SLOTS) and the mask of real slots."""
    sizes = rng.integers(1, MAX_SLOTS + 1, size=parents)
    mask = np.arange(MAX_SLOTS)[None, :] < sizes[:, None]
    rates = rng.beta(0.6, 0.9, size=(parents, MAX_SLOTS))
    return rates, mask


def evaluate(
    rng: np.random.Generator, split: str, rates: np.ndarray, mask: np.ndarray
) -> ClusterTable:
    """One evaluation: K attempts x SEEDS seeds of every parent, as a per-parent table."""
    parents = rates.shape[0]
    hits = rng.random((parents, SEEDS, K, MAX_SLOTS)) < rates[:, None, None, :]
    solved = np.where(mask[:, None, None, :], hits, True).all(axis=3)  # parents x seeds x K
    par = solved.any(axis=2).astype(float)
    sub = (hits.any(axis=2) & mask[:, None, :]).sum(axis=2).astype(float)
    slots = tuple(tuple(str(s) for s in range(int(m.sum()))) for m in mask)
    zeros = np.zeros((parents, SEEDS))
    return ClusterTable(
        benchmark="studybench",
        split=split,
        k=K,
        parents=tuple(f"p{i}" for i in range(parents)),
        slots=slots,
        seeds=tuple(range(SEEDS)),
        par=par,
        sub=sub,
        truncated=zeros,
        turns=zeros,
    )


def heuristic_metrics(tables: dict[tuple[str, str], ClusterTable]) -> dict[str, float]:
    out = {}
    for (_, split), table in tables.items():
        for metric in ("par_at_k", "sub_at_k"):
            per_seed = table.per_seed(metric)  # type: ignore[arg-type]
            name = f"{split}/{metric.removesuffix('_k')}_{K}"
            out[f"{name}_mean"] = float(per_seed.mean())
            out[f"{name}_std"] = float(per_seed.std(ddof=1))
    return out


def night(
    rng: np.random.Generator, drop: float, settings: CompareSettings, threshold: float
) -> tuple[bool, bool, bool, bool]:
    """(new: any regression, new: application Par@8 regressed, heuristic: any, heuristic:
    application Par@8)."""
    baseline, candidate = {}, {}
    for split, parents in SPLITS.items():
        rates, mask = draw_problems(rng, parents)
        cand_rates = rates
        if drop and split == "application":
            cand_rates = rates * drop_scale(rates, mask, drop)
        baseline[("studybench", split)] = evaluate(rng, split, rates, mask)
        candidate[("studybench", split)] = evaluate(rng, split, cand_rates, mask)
    result = compare_evaluations(baseline, candidate, settings)
    new_any = result.regression
    new_app = any(
        m.decision == "regressed" and m.key == f"application/par_at_{K}" for m in result.metrics
    )
    old = compare_metrics(heuristic_metrics(baseline), heuristic_metrics(candidate), threshold)
    old_any = any(m.regression for m in old)
    old_app = any(m.regression and m.metric == f"application/par_at_{K}_mean" for m in old)
    return new_any, new_app, old_any, old_app


def rate(hits: int, n: int) -> str:
    p = hits / n
    return f"{100 * p:5.1f}% ± {100 * math.sqrt(p * (1 - p) / n):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=200, help="simulated nights per scenario")
    parser.add_argument("--resamples", type=int, default=999, help="bootstrap/permutations")
    parser.add_argument("--threshold", type=float, default=0.02, help="minimum effect (0.02)")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    settings = CompareSettings(n_resamples=args.resamples, min_effect=args.threshold)
    gc.freeze()  # statsmodels' Holm calls gc.collect(): keep it from rescanning the imports
    console = Console()
    table = Table(
        title=f"{args.nights} simulated nights per row (± Monte-Carlo standard error)",
        title_justify="left",
    )
    for column in ("true change", "what", "new rule (paired, Holm)", "today's heuristic"):
        table.add_column(column, justify="right")
    started = time.perf_counter()
    for drop in (0.0, 0.05, 0.10, 0.15):
        rng = np.random.default_rng([args.seed, round(drop * 100)])
        counts = np.zeros(4, dtype=int)
        label = "none" if not drop else f"-{100 * drop:.0f} points"
        for _ in track(range(args.nights), description=f"change {label}", console=console):
            counts += np.array(night(rng, drop, settings, args.threshold), dtype=int)
        if drop:
            what = f"power (application Par@{K})"
            new, old = counts[1], counts[3]
        else:
            what = "false regressions (any of 4)"
            new, old = counts[0], counts[2]
        table.add_row(label, what, rate(int(new), args.nights), rate(int(old), args.nights))
    console.print(table)
    console.print(
        f"splits {SPLITS}, k={K}, seeds={SEEDS}, minimum effect {100 * args.threshold:.0f} "
        f"points, {args.resamples} resamples; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
