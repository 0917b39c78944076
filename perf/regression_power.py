"""False-alarm rate and power of the nightly comparison: today's rule versus the pooled one.

Simulates nightly pairs of evaluations shaped like StudyBench: two splits (application, 88
parents; transfer, 100 parents: the release sizes), 1-6 sub-problems per parent, k=8 attempts,
3 seeds. Difficulty is a realistic mix: a parent is hard (half of them: Par@8 near 0), medium
or easy (one in twelve: near 100%), and its slots scatter around the parent's level
(``logit r = a_parent + N(0, 0.8)``). Each night draws a fresh problem set and two independent
evaluations of it:

* no change: both evaluations use the same success rates;
* a true gain of 3, 6, 9 or 12 points: a fifth of the application parents, drawn at random,
  get easier (the same logit shift on each of their slots), chosen so that the expected
  application Par@8 rises by exactly that much.

Rules compared on the same nights (``--threshold``: the minimum effect of both):

* today's rule: per-seed Par@k averaged per parent, sign-flip test, Holm over the 4 metrics,
  paired bootstrap CI over parents (``unit=seed-mean, multiplicity=holm,
  target=problems_like_these``: what ``metrics compare`` did before the pooled test);
* the new rule: the defaults of :class:`studybench.metrics.comparison.CompareSettings`
  (pooled unbiased Par@k per parent, Westfall-Young over the same sign flips, decision on the
  "this benchmark" interval);
* the old seed-noise heuristic (runs without item tables).

It prints the false-alarm rate (any of the 4 metrics not "unchanged" on a no-change night),
the detection rate (application Par@8 "improved"), each with its Monte-Carlo standard error,
the minimum detectable effect at 80% power (the power equation, per split), and the time of
``studybench metrics compare`` on one simulated pair (``--time-cli``; subprocess, so it
includes start-up).

    .venv/bin/python perf/regression_power.py [--nights 200] [--resamples 9999]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import track
from rich.table import Table
from scipy.optimize import brentq

from studybench.metrics.clustered import ClusterTable
from studybench.metrics.comparison import CompareSettings, PairedComparison, compare_evaluations
from studybench.metrics.items import ItemRow, write_items
from studybench.tracking.compare import compare_metrics

SPLITS = {"application": 88, "transfer": 100}
K, SEEDS, MAX_SLOTS = 8, 3, 6
GAINS = (0.0, 0.03, 0.06, 0.09, 0.12)
KINDS = ((0.50, -4.5), (0.42, -0.5), (0.08, 4.5))  # (share, mean logit): hard, medium, easy
EASIER = 0.2  # the share of parents a gain touches


def expected_par(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Expected Par@K per parent: 1 - (1 - P(every slot right in one attempt))^K."""
    rates = 1.0 / (1.0 + np.exp(-logits))
    solve = np.where(mask, rates, 1.0).prod(axis=1)
    return np.asarray(1.0 - (1.0 - solve) ** K)


def draw_problems(rng: np.random.Generator, parents: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-slot success logits (parents x MAX_SLOTS) and the mask of real slots."""
    sizes = rng.integers(1, MAX_SLOTS + 1, size=parents)
    mask = np.arange(MAX_SLOTS)[None, :] < sizes[:, None]
    shares = np.array([s for s, _ in KINDS])
    kind = rng.choice(len(KINDS), size=parents, p=shares / shares.sum())
    level = np.array([m for _, m in KINDS])[kind] + rng.normal(0.0, 1.2, size=parents)
    return level[:, None] + rng.normal(0.0, 0.8, size=(parents, MAX_SLOTS)), mask


def gained(
    rng: np.random.Generator, logits: np.ndarray, mask: np.ndarray, gain: float
) -> np.ndarray:
    """The logits after a fifth of the parents got easier by a shift that raises the expected
    Par@K by ``gain`` (another fifth is drawn when the first cannot gain that much)."""
    if not gain:
        return logits
    base = float(expected_par(logits, mask).mean())
    for _ in range(100):
        chosen = np.zeros(len(logits), dtype=bool)
        chosen[rng.choice(len(logits), size=round(EASIER * len(logits)), replace=False)] = True

        def rise(shift: float, chosen: np.ndarray = chosen) -> float:
            moved = logits + shift * chosen[:, None]
            return float(expected_par(moved, mask).mean()) - base - gain

        if rise(30.0) > 0:
            return np.asarray(logits + float(brentq(rise, 0.0, 30.0)) * chosen[:, None])
    raise RuntimeError(f"no fifth of the parents can gain {gain}")


def evaluate(
    rng: np.random.Generator, split: str, logits: np.ndarray, mask: np.ndarray
) -> ClusterTable:
    """One evaluation: K attempts x SEEDS seeds of every parent, every chain kept."""
    parents = logits.shape[0]
    rates = 1.0 / (1.0 + np.exp(-logits))
    hits = (rng.random((parents, SEEDS, K, MAX_SLOTS)) < rates[:, None, None, :]) & mask[
        :, None, None, :
    ]
    solved = np.all(np.where(mask[:, None, None, :], hits, True), axis=3)  # parents x seeds x K
    par = np.any(solved, axis=2).astype(float)
    sub = hits.any(axis=2).sum(axis=2).astype(float)
    sizes = mask.sum(axis=1)
    turns = np.repeat((sizes * K)[:, None], SEEDS, axis=1).astype(float)
    return ClusterTable(
        benchmark="studybench",
        split=split,
        k=K,
        parents=tuple(f"p{i:03d}" for i in range(parents)),
        slots=tuple(tuple(str(s) for s in range(int(n))) for n in sizes),
        seeds=tuple(range(SEEDS)),
        par=par,
        sub=sub,
        truncated=np.zeros((parents, SEEDS)),
        turns=turns,
        hits=hits[:, :, :, : int(sizes.max())],
        present=np.ones((parents, SEEDS, K), dtype=bool),
    )


def night_tables(
    rng: np.random.Generator, gain: float
) -> tuple[dict[tuple[str, str], ClusterTable], dict[tuple[str, str], ClusterTable]]:
    baseline, candidate = {}, {}
    for split, parents in SPLITS.items():
        logits, mask = draw_problems(rng, parents)
        after = gained(rng, logits, mask, gain) if split == "application" else logits
        baseline[("studybench", split)] = evaluate(rng, split, logits, mask)
        candidate[("studybench", split)] = evaluate(rng, split, after, mask)
    return baseline, candidate


def heuristic_metrics(tables: dict[tuple[str, str], ClusterTable]) -> dict[str, float]:
    out = {}
    for (_, split), table in tables.items():
        for metric in ("par_at_k", "sub_at_k"):
            per_seed = table.per_seed(metric)
            name = f"{split}/{metric.removesuffix('_k')}_{K}"
            out[f"{name}_mean"] = float(per_seed.mean())
            out[f"{name}_std"] = float(per_seed.std(ddof=1))
    return out


APP = f"application/par_at_{K}"


def outcome(result: PairedComparison) -> tuple[bool, bool]:
    """(any metric not unchanged, application Par@K improved)."""
    alarm = any(m.decision != "unchanged" for m in result.metrics)
    found = any(m.key == APP and m.decision == "improved" for m in result.metrics)
    return alarm, found


def rate(hits: int, n: int) -> str:
    p = hits / n
    return f"{100 * p:5.1f}% ± {100 * math.sqrt(p * (1 - p) / n):.1f}"


def time_cli(rng: np.random.Generator, repeats: int = 3, pythonpath: str = "") -> float:
    """Median seconds of ``studybench metrics compare --json`` on one simulated +9 pair
    (``pythonpath``: run another checkout's code, e.g. an exported older commit, for a
    before/after figure under the same load)."""
    baseline, candidate = night_tables(rng, 0.09)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, tables in (("baseline", baseline), ("candidate", candidate)):
            path = Path(tmp) / f"{name}.jsonl.gz"
            write_items(path, (row for t in tables.values() for row in table_rows(t)))
            paths.append(path)
        entry = "from studybench.cli import main; main()"
        command = [sys.executable, "-c", entry, "metrics", "compare", "--json"]
        command += ["--baseline", str(paths[0]), "--candidate", str(paths[1])]
        command += ["--min-effect", "0.02"]
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            env = {**os.environ, "PYTHONPATH": pythonpath} if pythonpath else None
            subprocess.run(command, check=True, capture_output=True, env=env, cwd=tmp)
            times.append(time.perf_counter() - started)
    return float(np.median(times))


def table_rows(table: ClusterTable) -> list[ItemRow]:
    """The item rows of a simulated table (what an evaluation would have written)."""
    assert table.hits is not None
    return [
        ItemRow(
            split=table.split,
            parent=parent,
            slot=slot,
            seed=seed,
            attempt=a,
            correct=bool(table.hits[i, j, a, m]),
        )
        for i, (parent, slots) in enumerate(zip(table.parents, table.slots, strict=True))
        for j, seed in enumerate(table.seeds)
        for a in range(table.k)
        for m, slot in enumerate(slots)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--nights", type=int, default=200, help="simulated nights per row")
    parser.add_argument(
        "--resamples", type=int, default=2000, help="bootstrap/permutation draws (2000)"
    )
    parser.add_argument("--threshold", type=float, default=0.02, help="minimum effect (0.02)")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--time-cli", action="store_true", help="time metrics compare")
    parser.add_argument("--cli-pythonpath", default="", help="time another checkout's code too")
    args = parser.parse_args()
    common = {"n_resamples": args.resamples, "min_effect": args.threshold}
    rules = {
        "today": CompareSettings(
            unit="seed-mean", multiplicity="holm", target="problems_like_these", **common
        ),
        "new": CompareSettings(**common),
    }
    console = Console()
    table = Table(
        title=f"{args.nights} simulated nights per row (± Monte-Carlo standard error)",
        title_justify="left",
    )
    for column in ("true change", "what", "today's rule", "new rule", "seed-noise heuristic"):
        table.add_column(column, justify="right")
    started = time.perf_counter()
    mde: dict[str, list[float]] = {}
    curve: dict[str, list[float]] = {name: [] for name in rules}
    for gain in GAINS:
        rng = np.random.default_rng([args.seed, round(gain * 100)])
        counts = {name: np.zeros(2, dtype=int) for name in [*rules, "heuristic"]}
        label = "none" if not gain else f"+{100 * gain:.0f} points"
        for _ in track(range(args.nights), description=f"change {label}", console=console):
            baseline, candidate = night_tables(rng, gain)
            for name, settings in rules.items():
                result = compare_evaluations(baseline, candidate, settings)
                counts[name] += np.array(outcome(result), dtype=int)
                if name == "new" and not gain:
                    for m in result.metrics:
                        mde.setdefault(m.key, []).append(m.mde)
            old = compare_metrics(
                heuristic_metrics(baseline), heuristic_metrics(candidate), args.threshold
            )
            counts["heuristic"] += np.array(
                [
                    any(m.regression or m.improvement for m in old),
                    any(m.improvement and m.metric == f"{APP}_mean" for m in old),
                ],
                dtype=int,
            )
        row = 1 if gain else 0
        what = f"detected (application Par@{K})" if gain else "false alarms (any of 4)"
        for name in rules:
            curve[name].append(counts[name][row] / args.nights)
        table.add_row(
            label,
            what,
            *(rate(int(counts[n][row]), args.nights) for n in [*rules, "heuristic"]),
        )
    console.print(table)
    for name, points in curve.items():
        gains, powers = np.array(GAINS[1:]), np.array(points[1:])
        reach = (
            f"{100 * float(np.interp(0.8, powers, gains)):.1f} points"
            if powers.max() >= 0.8 and np.all(np.diff(powers) >= 0)
            else "beyond the curve"
        )
        console.print(f"{name}: 80% detection on the simulated curve at about {reach}")
    for key, values in sorted(mde.items()):
        console.print(
            f"MDE at 80% power, {key} (new rule, Bonferroni over 4, mean over no-change "
            f"nights): {100 * float(np.nanmean(values)):.1f} points"
        )
    console.print(
        f"splits {SPLITS}, k={K}, seeds={SEEDS}, minimum effect {100 * args.threshold:.0f} "
        f"points, {args.resamples} resamples; {time.perf_counter() - started:.0f} s"
    )
    if args.time_cli:
        seconds = time_cli(np.random.default_rng([args.seed, 999]))
        console.print(f"studybench metrics compare on one pair: {seconds:.2f} s (median of 3)")
        if args.cli_pythonpath:
            other = time_cli(
                np.random.default_rng([args.seed, 999]), pythonpath=args.cli_pythonpath
            )
            console.print(f"  the same with {args.cli_pythonpath}: {other:.2f} s (median of 3)")


if __name__ == "__main__":
    main()
