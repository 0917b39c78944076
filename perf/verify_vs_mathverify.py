"""The project's verifier case tables through this verifier and through Math-Verify.

Every case table of ``tests/verify/cases`` (one file per class of behaviour: answer types,
the accepted forms ``form_*`` and the closed holes ``hole_*``) goes through

* ``studybench``: :class:`studybench.verify.Verifier` (the production pool, one worker, the
  question text passed where the case has one);
* ``math-verify``: ``math_verify.verify(parse(gold), parse(pred))`` with its defaults (the
  general peer; it has no notion of answer types, units or questions).

Printed per class: cases, agreement with the table's ``expect`` on the equivalent forms
(expect true) and on the wrong answers (expect false), for both, and the wall time of each.

    .venv/bin/python perf/verify_vs_mathverify.py [FILES...]
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path
from typing import Any

from studybench.verify import Verifier

CASES = Path(__file__).resolve().parents[1] / "tests" / "verify" / "cases"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def math_verify_verdicts(cases: list[dict[str, Any]]) -> tuple[list[bool], float]:
    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)  # it logs every timeout
    verdicts = []
    start = time.perf_counter()
    for case in cases:
        try:
            verdicts.append(bool(verify(parse(case["gold"]), parse(case["pred"]))))
        except Exception:  # a crash of the peer counts as a rejection
            verdicts.append(False)
    return verdicts, time.perf_counter() - start


def ours(verifier: Verifier, cases: list[dict[str, Any]]) -> tuple[list[bool], float]:
    start = time.perf_counter()
    verdicts = verifier.verify_many(cases)
    return [v.correct for v in verdicts], time.perf_counter() - start


def agreement(cases: list[dict[str, Any]], verdicts: list[bool], expect: bool) -> str:
    pairs = [
        (c["expect"], v) for c, v in zip(cases, verdicts, strict=True) if c["expect"] is expect
    ]
    if not pairs:
        return "-"
    return f"{100 * sum(e == v for e, v in pairs) / len(pairs):.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or sorted(CASES.glob("*.jsonl"))
    header = (
        f"{'class':<24}{'cases':>6}{'ours eq':>9}{'ours rej':>9}{'mv eq':>9}{'mv rej':>9}"
        f"{'ours s':>8}{'mv s':>8}"
    )
    print(header)
    totals: dict[str, list[Any]] = {"cases": [], "ours": [], "mv": []}
    wall_ours = wall_mv = 0.0
    with Verifier(workers=1) as verifier:
        verifier.verify(r"\boxed{1}", r"\boxed{1}", "NV")  # worker started and warm
        for path in files:
            cases = load(path)
            mine, t_ours = ours(verifier, cases)
            theirs, t_mv = math_verify_verdicts(cases)
            wall_ours += t_ours
            wall_mv += t_mv
            totals["cases"] += cases
            totals["ours"] += mine
            totals["mv"] += theirs
            print(
                f"{path.stem:<24}{len(cases):>6}"
                f"{agreement(cases, mine, True):>9}{agreement(cases, mine, False):>9}"
                f"{agreement(cases, theirs, True):>9}{agreement(cases, theirs, False):>9}"
                f"{t_ours:>8.2f}{t_mv:>8.2f}"
            )
    cases = totals["cases"]
    print(
        f"{'all':<24}{len(cases):>6}"
        f"{agreement(cases, totals['ours'], True):>9}{agreement(cases, totals['ours'], False):>9}"
        f"{agreement(cases, totals['mv'], True):>9}{agreement(cases, totals['mv'], False):>9}"
        f"{wall_ours:>8.2f}{wall_mv:>8.2f}"
    )
    print("eq: agreement on equivalent forms (expect true); rej: on wrong answers (expect false)")


if __name__ == "__main__":
    main()
