"""Hostile and degenerate inputs against the rule verifier's own time, without the pool.

The pool (:class:`studybench.verify.Verifier`) bounds every comparison at 5 s, but a
comparison that uses those 5 s costs a worker and its replacement's start (about 1.3 s of CPU)
and scores 0: a policy that learns to pad its output with blank lines would burn a nightly
run's throughput. So each input here is timed in ``judge_inline`` itself, in a fresh fork of a
warmed parent (cold per-input caches), and hard-killed at ``--cap`` seconds.

Every input is built at several sizes, so a line that grows with the size (n, n^2, 2^n) shows
up. The families are the slow paths a search for ReDoS and unbounded sympy work found:
whitespace runs (spaces, blank lines, NBSP, backticks) inside or after a box, unclosed
openers (``\\boxed{``, ``\\[``, ``](``), numbers whose evaluation is unbounded (power towers,
infinite sums, oscillating integrals), equations of high degree or transcendental ones, and
boxes at the parser's size limit.

    .venv/bin/python perf/verify_slow_inputs.py [--cap S] [--only NAME ...]

Prints one line per input: the family, the size, the wall time of ``judge_inline`` (">cap"
where killed) and the verdict; then the slowest input and how many passed ``--budget``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable
from typing import Any

from studybench.verify import judge_inline
from studybench.verify.verifier import warm_up

NV_GOLD = r"\boxed{14.5\,\mathrm{m/s}}"
NV_BOX = r"\boxed{14.5\,\mathrm{m/s}}"
EX_GOLD = r"\boxed{\frac{2d}{3}}"
EQ_GOLD = r"\boxed{h_{\min} = \frac{27}{10} R}"
NV_QUESTION = (
    r"A highway curve of radius $80.0\,\mathrm{m}$ is banked at an angle of $15.0^\circ$. "
    "At what speed can a car round the curve so that no friction force is needed?"
)

TRIG_POWER = r"$\boxed{\sin(x)^{N} = \sin\left(\frac{L}{2\sqrt{3}}\right)^{N}}$"

Case = dict[str, Any]


def _nv(pred: str, gold: str = NV_GOLD) -> Case:
    return {"pred": pred, "gold": gold, "answer_type": "NV", "question": NV_QUESTION}


def _ex(box: str) -> Case:
    return {
        "pred": f"The final answer is $\\boxed{{{box}}}$.",
        "gold": EX_GOLD,
        "answer_type": "EX",
    }


def _eq(box: str) -> Case:
    return {
        "pred": f"The final answer is $\\boxed{{{box}}}$.",
        "gold": EQ_GOLD,
        "answer_type": "EQ",
    }


# family -> (sizes, builder of one input of that size)
FAMILIES: dict[str, tuple[tuple[int, ...], Callable[[int], Case]]] = {
    "nbsp_after_box": ((24, 28, 40), lambda n: _nv(f"So ${NV_BOX}$" + "\xa0" * n + "x")),
    "blank_lines_after_ex_box": (
        (100, 150, 300),
        lambda n: {
            "pred": "So $x = \\boxed{\\frac{2d}{3}}$." + "\n" * n + "Done.",
            "gold": EX_GOLD,
            "answer_type": "EX",
        },
    ),
    "blank_lines_after_nv_box": (
        (150, 600, 2000),
        lambda n: _nv(f"Work. The answer is ${NV_BOX}$ " + "\n" * n + " Done."),
    ),
    "spaces_in_nv_box": (
        (60, 100, 1000),
        lambda n: _nv("So $\\boxed{14.5" + " " * n + "\\,\\mathrm{m/s}}$."),
    ),
    "tabs_in_nv_box": (
        (100, 1000),
        lambda n: _nv("So $\\boxed{14.5" + "\t" * n + "\\,\\mathrm{m/s}}$."),
    ),
    "spaces_in_eq_box": ((100,), lambda n: _eq("h_{\\min} =" + " " * n + "\\frac{27}{10} R")),
    "spaces_in_gold": (
        (100, 1000),
        lambda n: _nv(f"So ${NV_BOX}$.", gold="\\boxed{14.5" + " " * n + "\\,\\mathrm{m/s}}"),
    ),
    "backticks_in_box": (
        (200, 260),
        lambda n: _nv("So $\\boxed{14.5" + "`" * n + "\\,\\mathrm{m/s}}$."),
    ),
    "backticks_after_box": (
        (3000, 30000),
        lambda n: _nv(f"Work.  The answer is ${NV_BOX}$ " + "`" * n + " Done."),
    ),
    "kern_then_spaces": ((160, 600), lambda n: _nv(f"So ${NV_BOX}$. \\kern" + " " * n + "x")),
    "unclosed_boxes_around": (
        (8500,),
        lambda n: _nv("Work. " + "\\boxed{" * n + f" {NV_BOX} " + "\\boxed{" * n + " Done."),
    ),
    "unclosed_display_around": (
        (15000,),
        lambda n: _nv("Work. " + "\\[" * n + f" {NV_BOX} " + "\\[" * n + " Done."),
    ),
    "link_openers_around": (
        (20000,),
        lambda n: _nv("Work. " + "](" * n + f" {NV_BOX} " + "](" * n + " Done."),
    ),
    "many_boxes": ((6000,), lambda n: _nv("\\boxed{1} " * n + NV_BOX)),
    # words that take a value back, repeated after the box: markers read by two alternatives
    # of a repeated group took minutes (a draft of 1.24.0)
    "taking_back_words_after_box": (
        (200, 800),
        lambda n: _nv(f"So ${NV_BOX}$ " + "Actually, " * n + "wait, rechecking: " * n),
    ),
    "box_at_parse_limit": (
        (990, 1990),
        lambda n: _nv("So $\\boxed{14.5" + "0." * (n // 2) + "\\,\\mathrm{m/s}}$."),
    ),
    "sin_of_power_tower": (
        (4,),
        lambda n: _nv("$\\boxed{\\sin(" + "e^{" * n + "e" + "}" * n + ")}$"),
    ),
    "power_tower": ((5,), lambda n: _nv("$\\boxed{" + "e^{" * n + "e" + "}" * n + "}$")),
    "exp_of_exp": ((4,), lambda n: _nv("$\\boxed{" + "\\exp(" * n + "1" + ")" * n + "}$")),
    "alternating_log_series": (
        (1,),
        lambda n: _nv(r"$\boxed{\sum_{n=1}^{\infty}\frac{(-1)^n}{\ln(n+1)}}$"),
    ),
    "slow_log_series": ((1,), lambda n: _nv(r"$\boxed{\sum_{n=2}^{\infty}\frac{1}{n\ln(n)^2}}$")),
    "slow_power_series": (
        (1,),
        lambda n: _nv(r"$\boxed{\sum_{n=1}^{\infty}\frac{1}{n^{1.0001}}}$"),
    ),
    # nothing for the first terms, everything after: sympy's summation solved a polynomial of
    # the shift's degree, and an extrapolation of the first terms took the series to converge
    "shifted_series": (
        (10000,),
        lambda n: _nv(f"$\\boxed{{\\sum_{{n=1}}^{{\\infty}}(\\frac{{1}}{{n^2}}+e^{{n-{n}}})}}$"),
    ),
    "infinite_product": ((1,), lambda n: _nv(r"$\boxed{\prod_{n=1}^{\infty}(1+\frac{1}{n^2})}$")),
    "oscillating_integral": (
        (1,),
        lambda n: _nv(r"$\boxed{\int_{0}^{1} e^{-x^{2}} \sin(\frac{1}{x}) dx}$"),
    ),
    # the same in an expression, beside a parameter: sympy's closed-form search and evalf
    # had no bound there (heurisch 20 s; simplify evaluated the series for 145 s)
    "ex_oscillating_integral": (
        (1,),
        lambda n: _ex(r"d + \int_{0}^{1} e^{-x^{2}} \sin(\frac{1}{x})\, dx"),
    ),
    "ex_series_without_closed_form": (
        (1,),
        lambda n: _ex(r"\sum_{n=1}^{\infty}\frac{\sin n}{n^{3/2}} + d"),
    ),
    "ex_long_product": (
        (9,),
        lambda n: {
            **_ex(f"\\prod_{{n=1}}^{{10^{{{n}}}}}(1+\\frac{{1}}{{n^2}})"),
            "gold": r"\boxed{3}",
        },
    ),
    # round 18: shapes whose parse or exact comparison grows steeply with their size
    "exponents_in_exponents": ((3, 4), lambda n: _ex("e^{" + "d+e^{" * (n - 1) + "d+d" + "}" * n)),
    "absolute_value_bars": ((20, 50), lambda n: _ex("|d" * n)),
    "continued_fraction": ((8, 16), lambda n: _ex("\\frac{1}{d+" * n + "d" + "}" * n)),
    "product_of_sums": ((14,), lambda n: _ex("".join(f"(x_{{{i}}}+d)" for i in range(n)))),
    "power_of_a_sum": ((40,), lambda n: _ex(f"(d+x+y+z)^{{{n}}}")),
    "powers_nested_in_bases": (
        (7, 10),
        lambda n: _ex("(d+" * (n - 1) + "(d+1)^{2}" + ")^{2}" * (n - 1)),
    ),
    "binomial_of_a_large_number": (
        (10**6,),
        lambda n: _nv(f"$\\boxed{{\\binom{{{n}}}{{{n // 2}}}}}$"),
    ),
    "equation_of_degree": (
        (50, 399),
        lambda n: _eq(f"h_{{\\min}}^{{{n}}} = \\left(\\frac{{27}}{{10}}R\\right)^{{{n}}}"),
    ),
    "transcendental_equation": (
        (1,),
        lambda n: _eq(
            r"e^{h_{\min}} - e^{\frac{27}{10}R} + \sin(h_{\min}) - \sin(\frac{27}{10}R) = 0"
        ),
    ),
    "trig_power_equation": (
        (20,),
        lambda n: {
            "pred": TRIG_POWER.replace("N", str(n)),
            "gold": r"\boxed{x = \frac{L}{2\sqrt{3}}}",
            "answer_type": "EQ",
        },
    ),
}


def _child(conn: Any, case: Case) -> None:
    start = time.perf_counter()
    verdict = judge_inline(
        case["pred"], case["gold"], case["answer_type"], question=case.get("question")
    )
    conn.send((time.perf_counter() - start, verdict.correct, verdict.reason))


def run_once(case: Case, cap: float) -> tuple[float | None, str]:
    """Wall time of ``judge_inline`` on ``case`` in a fresh fork, or None past ``cap``."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(False)
    process = context.Process(target=_child, args=(sender, case))
    process.start()
    if receiver.poll(cap):
        elapsed, correct, reason = receiver.recv()
        process.join()
        return elapsed, f"{'correct' if correct else 'wrong'}:{reason}"
    process.kill()
    process.join()
    return None, "killed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=20.0, help="seconds before a run is killed")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds an input may take")
    parser.add_argument("--only", nargs="*", default=None, help="families to run")
    args = parser.parse_args()
    unknown = sorted(set(args.only or ()) - set(FAMILIES))
    if unknown:
        parser.error(f"unknown families: {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    warm_up()
    rows = []
    for family, (sizes, build) in FAMILIES.items():
        if args.only and family not in args.only:
            continue
        for size in sizes:
            case = build(size)
            elapsed, verdict = run_once(case, args.cap)
            shown = f">{args.cap:.0f}" if elapsed is None else f"{elapsed:.3f}"
            print(
                f"{family:28} {size:>6} {len(case['pred']):>7} chars {shown:>8} s  {verdict}",
                flush=True,
            )
            rows.append((family, size, elapsed))
    slowest = max(rows, key=lambda row: float("inf") if row[2] is None else row[2])
    within = sum(1 for _, _, elapsed in rows if elapsed is not None and elapsed <= args.budget)
    print(
        f"slowest: {slowest[0]} at size {slowest[1]}; {within}/{len(rows)} within {args.budget} s"
    )


if __name__ == "__main__":
    main()
