"""False accepts and false rejects of the rule verifier, kept apart (issue 32).

The verifier is the RL reward: a false accept (a wrong answer rewarded) is worse than a false
reject, and a change that lowers false rejects by raising false accepts is a regression. So
the two are never summed into one accuracy here. Sources:

* the case tables (``tests/verify/cases/*.jsonl``): each file is a class of behaviour; a row
  with ``expect: false`` judged correct is a false accept, ``expect: true`` judged wrong a
  false reject;
* the generated perturbations of every gold the project holds
  (:mod:`tests.verify.perturbations`): each must be rejected (an accept is a false accept,
  unless the equivalence table proves it equivalent); each gold against itself must be
  accepted (a reject is a false reject).

Printed per class and per answer type. In-process (``judge_inline``): the figures are about
the rules, not the pool.

    .venv/bin/python perf/verify_soundness.py [--show N]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.verify.perturbations: the generator the tests use

from studybench.verify import judge_inline  # noqa: E402
from tests.verify.perturbations import (  # noqa: E402
    another_alternative,
    collect_golds,
    equivalent_table,
    perturbations,
)

CASES = ROOT / "tests" / "verify" / "cases"
OPTIONS = ("type_sequence", "tolerance", "question")


class Tally:
    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        self.examples: list[str] = []

    def add(self, group: str, kind: str, expect: bool, got: bool, example: str) -> None:
        row = self.counts[(group, kind)]
        row[0 if expect else 1] += 1  # right answers, wrong answers
        if expect and not got:
            row[3] += 1  # false reject
        if got and not expect:
            row[2] += 1  # false accept
        if expect != got:
            self.examples.append(example)

    def print(self, title: str, by: int) -> None:
        merged: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for key, row in self.counts.items():
            for i, value in enumerate(row):
                merged[key[by]][i] += value
        print(f"\n{title}")
        print(f"{'':<28}{'right':>7}{'wrong':>7}{'false acc':>11}{'false rej':>11}")
        total = [0, 0, 0, 0]
        for name in sorted(merged):
            row = merged[name]
            total = [a + b for a, b in zip(total, row, strict=True)]
            print(f"{name:<28}{row[0]:>7}{row[1]:>7}{row[2]:>11}{row[3]:>11}")
        print(f"{'total':<28}{total[0]:>7}{total[1]:>7}{total[2]:>11}{total[3]:>11}")


def case_tables(tally: Tally) -> None:
    for path in sorted(CASES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case: dict[str, Any] = json.loads(line)
            options = {name: case[name] for name in OPTIONS if name in case}
            verdict = judge_inline(case["pred"], case["gold"], case["answer_type"], **options)
            example = (
                f"{path.stem}: {case['pred'][:70]!r} vs {case['gold'][:50]!r} -> {verdict.reason}"
            )
            tally.add(path.stem, case["answer_type"], case["expect"], verdict.correct, example)


def generated(tally: Tally) -> None:
    equivalent = equivalent_table()
    for gold in collect_golds():
        verdict = judge_inline(gold.gold, gold.gold, gold.answer_type, gold.type_sequence)
        tally.add("self_consistency", gold.answer_type, True, verdict.correct, gold.gold[:80])
        for p in perturbations(gold):
            if p.key in equivalent:
                continue
            verdict = judge_inline(p.pred, gold.gold, gold.answer_type, gold.type_sequence)
            if verdict.correct and p.where.startswith("alternative_") and another_alternative(p):
                continue  # the perturbed alternative is another listed one: right
            where = p.where.split(":")[0].rstrip("0123456789").rstrip("_")
            example = (
                f"{p.where} {p.kind}: {p.pred[:70]!r} vs {gold.gold[:50]!r} -> {verdict.reason}"
            )
            tally.add(
                f"perturb:{where}:{p.kind}", gold.answer_type, False, verdict.correct, example
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=10, help="print N disagreements")
    args = parser.parse_args()
    tables, perturbed = Tally(), Tally()
    case_tables(tables)
    generated(perturbed)
    tables.print("case tables, per class (file)", 0)
    tables.print("case tables, per answer type", 1)
    perturbed.print("generated: self-consistency and perturbations, per class", 0)
    perturbed.print("generated, per answer type", 1)
    wrong = tables.examples + perturbed.examples
    if wrong and args.show:
        print("\ndisagreements (first ones):")
        for example in wrong[: args.show]:
            print("  " + example)


if __name__ == "__main__":
    main()
