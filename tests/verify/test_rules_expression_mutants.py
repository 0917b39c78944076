"""EX decisions, their reasons, and the dispatcher's guards (verify/rules/expression.py,
combine.py), pinned where a whole verdict cannot reach them. Found unchecked by mutation
testing (issue 26).

What is pinned, and where it is documented:

- the README's EX order ("structural equality, exact comparison of closed forms, then numeric
  comparison at seeded points, then ``simplify`` when evaluation is inconclusive"): the reason
  names the rule that decided (module docstring), so ``symbolic`` after an inconclusive
  sampling and ``inconclusive`` when simplify cannot prove it either;
- the seeded points: sampling is seeded by the compared texts, never unseeded (a verdict must
  be reproducible across worker processes), for a single form and for a chain's forms;
- ``gold_unparseable:`` names the gold side, ``unparseable:`` the prediction;
- texts equal up to spaces are ``equal``;
- ``_symbolic_zero`` only simplifies differences of at most 250 operations and a failing
  ``simplify`` proves nothing;
- ``judge_atom``: an unsupported type, a judger's ``UnparseableError`` and ``RecursionError``
  become rejections with reasons, not exceptions;
- ``judge_answers``: no prediction / an empty gold; ``judge_alternatives`` with no value
  offered; ``_offered_values`` ("the distinct final values"); ``assignment`` of nothing.

Verdict-level classes of inputs are rows of ``cases/reason_expression.jsonl`` (run by
``test_cases_inline.py`` and ``test_rules.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
import sympy

from studybench.data.answer_types import AnswerType
from studybench.verify.parsing import UnparseableError
from studybench.verify.rules import combine, expression
from studybench.verify.rules.combine import (
    _offered_values,
    judge_alternatives,
    judge_answers,
    judge_atom,
)
from studybench.verify.rules.expression import _symbolic_zero, judge_ex, parse_compared
from studybench.verify.rules.matching import assignment
from studybench.verify.rules.outcome import Outcome

TOL = 0.01
NV, EX, QL = AnswerType.NV, AnswerType.EX, AnswerType.QL


# --------------------------------------------------------------------------- EX reasons


@pytest.mark.parametrize(
    ("pred", "gold"),
    [
        ("a + b", "a+b"),  # spaces only in the prediction
        ("a+b", "a + b"),  # spaces only in the gold
        ("\\frac{m g}{k}", "\\frac{mg}{ k }"),
    ],
)
def test_texts_equal_up_to_spaces_are_equal(pred: str, gold: str) -> None:
    assert judge_ex(pred, gold, TOL) == Outcome(True, "equal")


@pytest.mark.parametrize(
    ("pred", "gold", "prefix"),
    [
        ("x", "a \\to b", "gold_unparseable"),  # the gold does not parse
        ("a \\to b", "x", "unparseable"),  # the prediction does not parse
        ("x", "[1, 2]", "gold_unparseable"),  # the gold is no expression
        ("(1, 2)", "x", "unparseable"),
    ],
)
def test_an_unparseable_side_is_named(pred: str, gold: str, prefix: str) -> None:
    outcome = judge_ex(pred, gold, TOL)
    assert not outcome.correct
    assert outcome.reason.partition(":")[0] == prefix


def test_not_an_expression_names_the_side() -> None:
    with pytest.raises(UnparseableError) as caught:
        parse_compared("x", "[1, 2]")
    assert (caught.value.reason, caught.value.side) == ("not_an_expression", 1)
    with pytest.raises(UnparseableError) as caught:
        parse_compared("(1, 2)", "x")
    assert (caught.value.reason, caught.value.side) == ("not_an_expression", 0)


def _inconclusive_sampling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer than two sample points evaluate (``numerically_equal`` returns None)."""
    monkeypatch.setattr(expression, "numerically_equal", lambda *args: None)


def test_simplify_decides_when_sampling_is_inconclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    _inconclusive_sampling(monkeypatch)
    assert judge_ex("(x+1)^2", "x^2+2x+1", TOL) == Outcome(True, "symbolic")


def test_inconclusive_when_simplify_cannot_prove_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _inconclusive_sampling(monkeypatch)
    assert judge_ex("(x+1)^2", "x^2+1", TOL) == Outcome(False, "inconclusive")


def test_an_identity_equals_its_closed_value() -> None:
    assert judge_ex("\\sin^2\\theta + \\cos^2\\theta", "1", TOL).correct


# --------------------------------------------------------------------------- seeds


def _record_seeds(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seeds: list[Any] = []
    real = expression.numerically_equal

    def recording(a: Any, b: Any, tolerance: Any, seed: Any) -> bool | None:
        seeds.append(seed)
        return real(a, b, tolerance, seed)

    monkeypatch.setattr(expression, "numerically_equal", recording)
    return seeds


@pytest.mark.parametrize(
    ("pred", "gold"),
    [
        ("(x+1)^2", "x^2+2x+1"),  # one form
        ("y = (x+1)^2 = x^2+2x+1", "x^2+1"),  # a chain: its forms are compared with each other
    ],
)
def test_sampling_is_seeded_by_the_texts(
    monkeypatch: pytest.MonkeyPatch, pred: str, gold: str
) -> None:
    seeds = _record_seeds(monkeypatch)
    first = judge_ex(pred, gold, TOL)
    calls = len(seeds)
    assert calls >= 1
    assert all(isinstance(seed, str) and seed for seed in seeds), seeds
    second = judge_ex(pred, gold, TOL)
    assert second == first
    assert seeds[calls:] == seeds[:calls]  # the same points every time


def test_a_chain_is_compared_at_seeded_points(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = _record_seeds(monkeypatch)
    # every side of the chain is compared with the gold (issue 32), each at seeded points
    assert judge_ex("y = x^2+2x+1 = x(x+2)+1", "(x+1)^2", TOL).correct
    assert len(seeds) >= 2  # one comparison per side
    assert None not in seeds
    assert not judge_ex("y = (x+1)^2 = x^2+2x+1", "x^2+1", TOL).correct


# --------------------------------------------------------------------------- _symbolic_zero


def _zero_of_size(ops: int) -> Any:
    """A difference that ``simplify`` proves zero, with exactly ``ops`` operations."""
    x = sympy.Symbol("x", positive=True)
    trig, poly = {250: (10, 55), 251: (9, 58)}[ops]
    terms = [sympy.sin(k * x) ** 2 + sympy.cos(k * x) ** 2 - 1 for k in range(2, trig + 2)]
    terms += [(x + k) ** 2 - x**2 - 2 * k * x - k**2 for k in range(2, poly + 2)]
    expr = sympy.Add(*terms)
    assert sympy.count_ops(expr) == ops  # precondition of the boundary tests
    return expr


def test_symbolic_zero_simplifies_up_to_250_operations() -> None:
    assert _symbolic_zero(_zero_of_size(250)) is True


def test_symbolic_zero_refuses_more_than_250_operations() -> None:
    assert _symbolic_zero(_zero_of_size(251)) is False


def test_symbolic_zero_of_a_nonzero_difference() -> None:
    x = sympy.Symbol("x", positive=True)
    assert _symbolic_zero((x + 1) ** 2 - x**2 - 1) is False


def test_a_failing_simplify_proves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(expr: Any) -> Any:
        raise ValueError("simplify failed")

    monkeypatch.setattr(sympy, "simplify", failing)
    x = sympy.Symbol("x", positive=True)
    assert _symbolic_zero(sympy.sin(x) ** 2 + sympy.cos(x) ** 2 - 1) is False


# --------------------------------------------------------------------------- dispatch


@pytest.mark.parametrize("kind", [AnswerType.TUP, AnswerType.ALT])
def test_a_composite_type_is_no_atom(kind: AnswerType) -> None:
    assert judge_atom("1", "1", kind, TOL) == Outcome(False, f"unsupported_type:{kind.value}")


def test_a_judgers_unparseable_error_is_a_rejection(monkeypatch: pytest.MonkeyPatch) -> None:
    def refusing(pred: str, gold: str, tolerance: float) -> Outcome:
        raise UnparseableError("too_large", 0)

    monkeypatch.setitem(combine.JUDGERS, QL, refusing)
    assert judge_atom("a", "b", QL, TOL) == Outcome(False, "unparseable:too_large")


def test_a_judgers_recursion_error_is_too_deep(monkeypatch: pytest.MonkeyPatch) -> None:
    def recursing(pred: str, gold: str, tolerance: float) -> Outcome:
        raise RecursionError

    monkeypatch.setitem(combine.JUDGERS, QL, recursing)
    assert judge_atom("a", "b", QL, TOL) == Outcome(False, "unparseable:too_deep")


def test_no_prediction_is_no_answer() -> None:
    assert judge_answers((), ("1",), NV, (), TOL) == Outcome(False, "no_answer")


def test_an_empty_gold_is_named() -> None:
    assert judge_answers(("1",), (), NV, (), TOL) == Outcome(False, "gold_empty")


def test_an_alt_type_sequence_of_another_length_is_a_gold_error() -> None:
    outcome = judge_answers(("2",), ("2", "3"), AnswerType.ALT, (NV,), TOL)
    assert outcome == Outcome(False, "gold_type_sequence_mismatch")


def test_alternatives_with_no_value_offered() -> None:
    outcome = judge_alternatives(("",), ("2", "3"), (NV, NV), TOL)
    assert outcome == Outcome(False, "wrong_value")


def test_offered_values_are_distinct_and_non_empty() -> None:
    assert _offered_values(("2 or 3", "3", "2 \\lor", "\\lor")) == ["2", "3"]


def test_nothing_to_match_is_a_perfect_matching() -> None:
    assert assignment([], [], lambda p, g: False) is True
