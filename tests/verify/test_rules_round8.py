"""Verifier 1.15.0 rules found by a fifth model-style corpus and a blind set of equivalent
forms, each with its table: a relation is no label, a tuple boxed in parentheses after other
boxes, Unicode radicals, a unit after a bracketed number, a stated precision, intervals in
words, truth answers in bold or as a sentence, and partial derivatives of a one-variable
function."""

from __future__ import annotations

import pytest

from studybench.data.answer_types import AnswerType
from studybench.verify.extract import select_answers
from studybench.verify.normalize import unicode_roots
from studybench.verify.parsing import single_variable_totals
from studybench.verify.relations import is_label, mark_unit_annotations, strip_remark
from studybench.verify.rules.interval import parse_intervals
from studybench.verify.verifier import judge_inline

NV, TF, MC, EX, IN = AnswerType.NV, AnswerType.TF, AnswerType.MC, AnswerType.EX, AnswerType.IN


# -- a relation or an operator names no quantity ------------------------------------------
@pytest.mark.parametrize(
    ("side", "label"),
    [
        ("\\le", False),
        ("\\leq", False),
        ("\\lesssim", False),
        ("\\approx", False),
        ("\\sim", False),
        ("\\propto", False),
        ("\\times", False),
        ("\\pm", False),
        ("\\ni", False),
        ("\\to", False),
        ("v", True),
        ("\\nu", True),  # a Greek letter that starts like \ne
        ("\\theta", True),
        ("\\tau_0", True),
        ("\\lambda_{\\max}", True),
        ("\\phi(t)", True),
        ("\\ell", True),
    ],
)
def test_a_relation_is_no_label(side: str, label: bool) -> None:
    assert is_label(side) is label


TEMPERATURE = "\\boxed{57.5\\,^\\circ\\mathrm{C}}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{\\le \\approx 57.5\\,^{\\circ}\\mathrm{C}}", False),  # a bound, "≈" or not
        ("\\boxed{\\leq\\approx 57.5\\,^{\\circ}\\mathrm{C}}", False),
        ("\\boxed{\\lesssim 57.5\\,^{\\circ}\\mathrm{C}}", False),
        ("\\boxed{T \\approx 57.5\\,^{\\circ}\\mathrm{C}}", True),
        ("\\boxed{\\approx 57.5\\,^{\\circ}\\mathrm{C}}", True),
    ],
)
def test_a_bound_with_approx_is_no_labelled_value(pred: str, correct: bool) -> None:
    assert judge_inline(pred, TEMPERATURE, "NV").correct is correct


# -- a tuple boxed in parentheses after other boxes ----------------------------------------
@pytest.mark.parametrize(
    ("boxes", "sequence", "selected"),
    [
        # numbers, options, truth values: a bracketed pair can only be the whole tuple
        (("0.750 m, 0.450 J", "(0.75 m, 900 mJ)"), (NV, NV), ("0.75 m", "900 mJ")),
        (("\\eta=1-T_c/T_h", "(0.4, 800 J)"), (NV, NV), ("0.4", "800 J")),
        (("x", "(A, True)"), (MC, TF), ("A", "True")),
        # an element that may be a point or an interval: the last n boxes
        (("(1, 2)", "(3, 4)"), (EX, EX), ("(1, 2)", "(3, 4)")),
        (("a", "(0, 1]"), (NV, IN), ("a", "(0, 1]")),
        (("a", "(3, 4)"), (), ("a", "(3, 4)")),  # no sequence: as before
        # nothing else boxed: the bracketed pair is the tuple, as before
        (("(1, 2)",), (EX, EX), ("1", "2")),
    ],
)
def test_a_bracketed_tuple_of_plain_elements_is_the_tuple(
    boxes: tuple[str, ...], sequence: tuple[AnswerType, ...], selected: tuple[str, ...]
) -> None:
    assert select_answers(boxes, AnswerType.TUP, 2, sequence) == selected


STOPPING = "\\boxed{0.750\\,\\mathrm{m}}, \\boxed{0.900\\,\\mathrm{J}}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("$$\\boxed{0.750\\,\\mathrm{m},\\ 0.450\\,\\mathrm{J}}$$\n\nCorrected:\n"
         "$$\\boxed{(0.75\\ \\mathrm{m},\\ 900\\ \\mathrm{mJ})}$$", True),
        ("$$\\boxed{0.750\\,\\mathrm{m},\\ 0.900\\,\\mathrm{J}}$$\n\nCorrected:\n"
         "$$\\boxed{(0.75\\ \\mathrm{m},\\ 450\\ \\mathrm{mJ})}$$", False),  # the last is wrong
    ],
)  # fmt: skip
def test_a_corrected_tuple_in_parentheses_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, STOPPING, "TUP", "NV,NV").correct is correct


# -- Unicode radicals -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "rooted"),
    [
        ("√2", "\\sqrt{2}"),
        ("√2.5", "\\sqrt{2.5}"),
        ("∛V", "\\sqrt[3]{V}"),
        ("∜x", "\\sqrt[4]{x}"),
        ("√\\pi", "\\sqrt{\\pi}"),
        ("√x_0 + 1", "\\sqrt{x_0} + 1"),
        ("√ g", "\\sqrt{g}"),
        ("√(a+b)", "\\sqrt{a+b}"),
        ("√{ab}", "\\sqrt{ab}"),
        ("2π√((L² + 12x²)/(12gx))", "2π\\sqrt{(L² + 12x²)/(12gx)}"),
        ("√(√2)", "\\sqrt{\\sqrt{2}}"),
        ("a√", "a√"),  # nothing after it
        ("√(a", "√(a"),  # unclosed
        ("x", "x"),
    ],
)
def test_a_unicode_radical_takes_what_follows(text: str, rooted: str) -> None:
    assert unicode_roots(text) == rooted


PERIOD = "\\boxed{2\\pi\\sqrt{\\frac{L^{2} + 12 x^{2}}{12 g x}}}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{2π√((L² + 12x²)/(12gx))}", True),
        ("\\boxed{2π√(L²+12x²)/√(12gx)}", True),
        ("\\boxed{2π√((L² + 12x²)/(6gx))}", False),
        ("\\boxed{2π√(L² + 12x²)/(12gx)}", False),  # the root stops at its bracket
    ],
)
def test_an_expression_with_unicode_radicals_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, PERIOD, "EX").correct is correct


# -- a unit right after a bracketed number --------------------------------------------------
@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("x = (0.3 + \\frac{1}{\\sqrt{150}})\\mathrm{m}", True),
        ("x = \\left(0.3 + \\tfrac{1}{4}\\right)\\mathrm{m}", True),
        ("x = (0.3 + 1/4)\\mathrm{m}", True),
        ("x = (a + 2)\\mathrm{m}", False),  # a symbol: m may be a mass
        ("x = 2\\mathrm{m}", True),
    ],
)
def test_a_unit_after_a_bracketed_number_is_marked(text: str, marked: bool) -> None:
    assert ("\u27e6" in mark_unit_annotations(text)) is marked


ROOTS = "\\boxed{x = 0.382\\,\\mathrm{m}} \\text{ or } \\boxed{x = 0.218\\,\\mathrm{m}}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{x = \\left(0.3 + \\tfrac{1}{\\sqrt{150}}\\right)\\mathrm{m}}", True),
        ("\\boxed{x = (0.3 + \\frac{1}{\\sqrt{150}})\\mathrm{m}}", True),
        ("\\boxed{x = \\left(0.3 + \\tfrac{1}{\\sqrt{151}}\\right)\\mathrm{km}}", False),
        ("\\boxed{x = \\left(0.3 + \\tfrac{1}{\\sqrt{20}}\\right)\\mathrm{m}}", False),
    ],
)
def test_an_exact_root_with_its_unit_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, ROOTS, "ALT", "EQ,EQ").correct is correct


# -- a stated precision -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("2.66\\ \\text{volts}\\ (\\text{to 3 s.f.})", "2.66\\ \\text{volts}"),
        ("2.66\\ \\text{V}\\ (3\\ \\text{s.f.})", "2.66\\ \\text{V}"),
        ("2.66\\,\\mathrm{V}\\ \\text{(3 s.f.)}", "2.66\\,\\mathrm{V}"),
        ("2.66\\,\\mathrm{V} (to three significant figures)", "2.66\\,\\mathrm{V}"),
        ("0.154 (3 sf)", "0.154"),
        ("0.15 (2 d.p.)", "0.15"),
        ("0.154 (rounded to 3 significant digits)", "0.154"),
        ("(3 s.f.)", "(3 s.f.)"),  # nothing before it: no remark
        ("2.66\\ \\text{V (3 cells)}", "2.66\\ \\text{V (3 cells)}"),  # no precision
    ],
)
def test_a_stated_precision_is_a_remark(text: str, stripped: str) -> None:
    assert strip_remark(text) == stripped


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{2.66\\ \\text{volts}\\ (\\text{to 3 s.f.})}", True),
        ("\\boxed{2.66\\ \\text{V}\\ (3\\ \\text{s.f.})}", True),
        ("\\boxed{5.3\\,\\mathrm{V}\\ (\\text{to 2 s.f.})}", False),
    ],
)
def test_a_value_with_its_precision_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, "\\boxed{2.66\\,\\mathrm{V}}", "NV").correct is correct


# -- intervals in words -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("between 2T_0 and 4T_0 inclusive", ("2T_0", "4T_0", True, True)),
        ("between 30 and 45 cm (exclusive)", ("30 cm", "45 cm", False, False)),
        ("from 20.4 ^{\\circ} to 69.6 ^{\\circ} inclusive",
         ("20.4 ^{\\circ}", "69.6 ^{\\circ}", True, True)),
        ("Between 1 and 2, exclusive", ("1", "2", False, False)),
        ("between 1 and 2", None),  # the ends' kind is not said
        ("from 1 to 2", None),
    ],
)  # fmt: skip
def test_an_interval_in_words_states_its_ends(
    text: str, ends: tuple[str, str, bool, bool] | None
) -> None:
    intervals = parse_intervals(text)
    if ends is None:
        assert intervals is None
    else:
        assert intervals is not None and len(intervals) == 1
        interval = intervals[0]
        assert (interval.low, interval.high, interval.low_closed, interval.high_closed) == ends


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("\\boxed{\\text{between } 2T_0 \\text{ and } 4T_0 \\text{ inclusive}}",
         "\\boxed{[2T_0, 4T_0]}", True),
        ("\\boxed{\\text{between } 2T_0 \\text{ and } 4T_0 \\text{ exclusive}}",
         "\\boxed{[2T_0, 4T_0]}", False),
        ("\\boxed{\\text{from } 20.4^\\circ \\text{ to } 69.6^\\circ \\text{ inclusive}}",
         "\\boxed{[20.4^\\circ, 69.6^\\circ]}", True),
        ("\\boxed{\\text{from } 20.4^\\circ \\text{ to } 60.6^\\circ \\text{ inclusive}}",
         "\\boxed{[20.4^\\circ, 69.6^\\circ]}", False),
    ],
)  # fmt: skip
def test_an_interval_in_words_is_judged(pred: str, gold: str, correct: bool) -> None:
    assert judge_inline(pred, gold, "IN").correct is correct


# -- truth answers in bold or as a sentence ------------------------------------------------
@pytest.mark.parametrize(
    ("pred", "correct", "reason"),
    [
        ("\\boxed{\\mathbf{F}}", True, "truth"),
        ("\\boxed{\\textbf{F}}", True, "truth"),
        ("\\boxed{\\text{The statement is false}}", True, "truth"),
        ("\\boxed{\\text{The given claim is false.}}", True, "truth"),
        ("\\boxed{\\text{It is false.}}", True, "truth"),
        ("\\boxed{\\mathbf{T}}", False, "wrong_truth"),
        ("\\boxed{\\text{The statement is true}}", False, "wrong_truth"),
        ("\\boxed{\\text{The statement is not false}}", False, "unparseable:truth"),
        ("\\boxed{\\text{The statement is false, or maybe true}}", False, "unparseable:truth"),
        ("\\boxed{\\mathbf{v}}", False, "unparseable:truth"),  # a vector is no truth value
    ],
)
def test_a_truth_value_in_bold_or_a_sentence(pred: str, correct: bool, reason: str) -> None:
    verdict = judge_inline(pred, "\\boxed{\\text{False}}", "TF")
    assert (verdict.correct, verdict.reason) == (correct, reason)


# -- partial derivatives of a function of one variable ------------------------------------
@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("m\\,\\partial_t v = -k v", "m\\,\\frac{d v}{d t} = -k v"),
        ("m\\frac{\\partial v}{\\partial t} = -kv", "m\\frac{dv}{dt} = -kv"),
        ("\\partial_t^2 x = -\\omega^2 x", "\\frac{d^{2} x}{d t^{2}} = -\\omega^2 x"),
        ("\\frac{\\partial^2 x}{\\partial t^2}", "\\frac{d^2 x}{dt^2}"),
        # a function of two variables keeps its partials, and so does a mixed subscript
        ("\\partial_t u = k\\partial_x^2 u", "\\partial_t u = k\\partial_x^2 u"),
        ("\\partial_{xt} u", "\\partial_{xt} u"),
        # two variables in the answer (fields of x and t), or PDE subscripts beside them
        ("\\frac{\\partial \\rho}{\\partial t} = -\\rho_0\\frac{\\partial v}{\\partial x}",
         "\\frac{\\partial \\rho}{\\partial t} = -\\rho_0\\frac{\\partial v}{\\partial x}"),
        ("u_t = D\\,\\partial_x^2 u", "u_t = D\\,\\partial_x^2 u"),
        ("\\dot q = \\partial_p H", "\\dot q = \\partial_p H"),
        ("\\frac{dq}{dt} = \\partial_p H", "\\frac{dq}{dt} = \\partial_p H"),
        ("v = 2", "v = 2"),
    ],
)  # fmt: skip
def test_partials_of_a_one_variable_function_are_totals(text: str, total: str) -> None:
    assert single_variable_totals(text) == total


MOTION = "\\boxed{m\\frac{dv}{dt} = -\\frac{B^{2} L^{2}}{R} v}"
CONTINUITY = (
    "\\boxed{\\frac{\\partial \\rho}{\\partial t} = -\\rho_0\\frac{\\partial v}{\\partial x}}"
)
HAMILTON = "\\boxed{\\dot q = \\frac{\\partial H}{\\partial p}}"
HEAT = "\\boxed{\\frac{\\partial u}{\\partial t} = k\\frac{\\partial^2 u}{\\partial x^2}}"


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("\\boxed{m\\frac{\\partial v}{\\partial t} = -\\frac{B^{2}L^{2}}{R}v}", MOTION, True),
        ("\\boxed{m\\,\\partial_t v = -\\frac{B^{2}L^{2}}{R}v}", MOTION, True),
        ("\\boxed{m\\frac{\\partial v}{\\partial x} = -\\frac{B^{2}L^{2}}{R}v}", MOTION, False),
        ("\\boxed{m\\frac{\\partial^2 v}{\\partial t^2} = -\\frac{B^{2}L^{2}}{R}v}", MOTION, False),
        ("\\boxed{m\\frac{\\partial v}{\\partial t} = \\frac{B^{2}L^{2}}{R}v}", MOTION, False),
        ("\\boxed{u_t = k u_{xx}}", HEAT, True),
        ("\\boxed{\\partial_t u = k\\,\\partial_x^2 u}", HEAT, True),
        ("\\boxed{\\frac{du}{dt} = k\\frac{d^2 u}{dx^2}}", HEAT, False),  # totals of u(x, t)
        ("\\boxed{u_t = k\\,\\partial_x^2 u}", HEAT, True),
        ("\\boxed{\\rho_t = -\\rho_0 v_x}", CONTINUITY, True),
        ("\\boxed{\\frac{dq}{dt} = \\frac{\\partial H}{\\partial p}}", HAMILTON, True),
        ("\\boxed{\\frac{dq}{dt} = \\frac{d H}{d p}}", HAMILTON, False),
    ],
)
def test_a_partial_derivative_equation_is_judged(pred: str, gold: str, correct: bool) -> None:
    assert judge_inline(pred, gold, "EQ").correct is correct
