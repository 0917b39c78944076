"""Inputs whose reading had no time bound (a search for ReDoS and unbounded sympy work,
round 16c): each mechanism that bounds them, as properties and case tables. Times are in
``perf/verify_slow_inputs.py``, not here; these tests check what each bound decides."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.data.boxes import brace_partners, delimited_spans, matching_brace
from studybench.verify import judge_inline
from studybench.verify.extract import boxed_answers, gold_answers, visible_text
from studybench.verify.normalize import collapse_whitespace
from studybench.verify.parsing import (
    UnparseableError,
    _parsed_or_failure,
    numeric_value,
    parse_latex,
)
from studybench.verify.question import _sentence, requested_units
from studybench.verify.rules.equation import _intractable
from studybench.verify.symbolic import (
    _integrated,
    evaluate,
    expansion_size,
    unbounded_series_in,
)

# ---------------------------------------------------------------------------------------------
# whitespace: every run as short as what it means, once, where text enters
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "collapsed"),
    [
        ("a   b", "a b"),
        ("a\t\t\xa0\u2009b", "a b"),  # tabs, NBSP, thin spaces: one space
        ("a   \nb", "a\nb"),  # no space at a line's end
        ("a" + "\n" * 300 + "b", "a\n\nb"),  # at most one blank line
        ("a\n \t \n\n  \nb", "a\n\nb"),  # lines of spaces are blank lines
        ("a\n\nb", "a\n\nb"),
        ("a\nb", "a\nb"),
        ("a\r\nb\rc", "a\nb\nc"),  # CRLF and CR are line breaks
        ("a\n\n    code", "a\n\n    code"),  # an indented code block stays one
        ("a\n\n" + " " * 100 + "code", "a\n\n" + " " * 8 + "code"),
        ("a\n\n\tcode", "a\n\n\tcode"),
        ("   a", "   a"),  # the text's first line is a line
        ("a   ", "a"),
        ("", ""),
    ],
)
def test_whitespace_runs_are_collapsed(text: str, collapsed: str) -> None:
    assert collapse_whitespace(text) == collapsed


_SPACE = st.sampled_from([" ", "\t", "\n", "\xa0", "\u2009", "\r", "a", "b", "\\", "$"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_SPACE, max_size=60).map("".join))
def test_collapsing_leaves_no_run_and_is_idempotent(text: str) -> None:
    collapsed = collapse_whitespace(text)
    assert collapse_whitespace(collapsed) == collapsed
    assert "\n\n\n" not in collapsed and "\r" not in collapsed
    assert not re.search(r"[^\S\n]\n|[^\S\n]$", collapsed)  # no space at a line's end
    for line in collapsed.split("\n"):
        body = line.lstrip()
        assert len(line) - len(body) <= 8
        assert not re.search(r"[^\S\n]{2}", body)  # one space inside a line
    # nothing but whitespace changes
    assert re.sub(r"\s", "", collapsed) == re.sub(r"\s", "", text)


@pytest.mark.parametrize(
    "padding",
    [" " * 300, "\n" * 300, "\xa0" * 40, "\t" * 300, " \n" * 150, "\u3000" * 100],
    ids=["spaces", "newlines", "nbsp", "tabs", "space-newline", "ideographic"],
)
def test_a_run_reads_as_its_shortest_form_in_predictions_and_golds(padding: str) -> None:
    """The verdict with a long run anywhere is the verdict with the run's short form: in the
    box, after it, in the gold."""
    short = collapse_whitespace("x" + padding + "x")[1:-1]
    for pred, gold, kind in (
        ("So $\\boxed{14.5{pad}\\,\\mathrm{{m/s}}}$.", "\\boxed{14.5\\,\\mathrm{m/s}}", "NV"),
        ("So $\\boxed{14.5\\,\\mathrm{{m/s}}}${pad}Done.", "\\boxed{14.5\\,\\mathrm{m/s}}", "NV"),
        ("So $x = \\boxed{\\frac{{2d}}{{3}}}$.{pad}Done.", "\\boxed{\\frac{2d}{3}}", "EX"),
        ("$\\boxed{h_{{\\min}} ={pad}\\frac{{27}}{{10}} R}$", "\\boxed{h_{\\min} = 2.7 R}", "EQ"),
        ("Wrong answer:{pad}\\boxed{{14.5}}", "\\boxed{14.5}", "NV"),
    ):
        long_form = judge_inline(pred.replace("{pad}", padding), gold, kind)
        short_form = judge_inline(pred.replace("{pad}", short), gold, kind)
        assert (long_form.correct, long_form.reason) == (short_form.correct, short_form.reason)
        padded_gold = gold.replace("\\,", padding + "\\,")
        assert judge_inline(pred.replace("{pad}", short), padded_gold, kind).correct == (
            short_form.correct
        )


def test_text_enters_collapsed() -> None:
    assert visible_text("a" + " " * 50 + "b")[0] == "a b"
    assert gold_answers("\\boxed{14.5" + " " * 50 + "m/s}") == ("14.5 m/s",)
    # a code span's backticks or hidden text removed leave no run behind either
    (answer,) = boxed_answers("\\boxed{14.5" + "`" * 260 + "\\,\\mathrm{m/s}}").answers
    assert answer.startswith("14.5 ") and not re.search(r"\s\s", answer)


# ---------------------------------------------------------------------------------------------
# scans that read to the text's end once, not once per opener
# ---------------------------------------------------------------------------------------------

_BRACES = st.lists(st.sampled_from(["{", "}", "\\", "a", "\\{", "\\}"]), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(_BRACES)
def test_brace_partners_match_brace_by_brace(text: str) -> None:
    partners = brace_partners(text)
    escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
            continue
        if char == "\\":
            escaped = True
        elif char == "{":
            assert partners.get(index) == matching_brace(text, index + 1)


_DELIMITED = st.lists(
    st.sampled_from(["$", "$$", "\\[", "\\]", "\\(", "\\)", "a", "\n"]), max_size=30
).map("".join)
_MATH_PAIRS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
_MATH_REGEX = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL)


@settings(max_examples=400, deadline=None)
@given(_DELIMITED)
def test_delimited_spans_are_the_lazy_regex_spans(text: str) -> None:
    """The regex it replaces is the oracle: the same spans, in linear time."""
    assert delimited_spans(text, _MATH_PAIRS) == [m.span() for m in _MATH_REGEX.finditer(text)]


@pytest.mark.parametrize(
    ("text", "answers", "problem"),
    [
        # thousands of unclosed openers around a box: each was a scan to the end
        ("\\[" * 3000 + " \\boxed{14.5} " + "\\[" * 3000, ("14.5",), None),
        ("](" * 3000 + " \\boxed{14.5} " + "](" * 3000, ("14.5",), None),
        ("\\boxed{" * 3000 + " \\boxed{14.5} ", (), "unbalanced_box"),
    ],
)
def test_unclosed_openers_leave_the_box_as_it_was(
    text: str, answers: tuple[str, ...], problem: str | None
) -> None:
    extraction = boxed_answers(text)
    assert (extraction.answers, extraction.problem) == (answers, problem)


# ---------------------------------------------------------------------------------------------
# numbers whose evaluation had no bound
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "value"),
    [
        # a tower is refused before its next storey is evaluated
        ("\\sin(e^{e^{e^{e}}})", None),
        ("e^{e^{e^{e^{e}}}}", None),
        ("\\exp(\\exp(\\exp(\\exp(1))))", None),
        ("e^{e^{e}}", 3814279.1047602205),
        ("10^{-400}", 0.0),
        # a series with a closed form that mpmath's sum confirms; one without is no number
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n^2}", 1.6449340668482264),
        ("\\sum_{n=0}^{\\infty}\\frac{1}{n!}", 2.718281828459045),
        ("\\sum_{n=1}^{\\infty}\\frac{(-1)^{n+1}}{n}", 0.6931471805599453),
        ("\\sum_{n=1}^{\\infty}\\frac{(-1)^n}{\\ln(n+1)}", None),  # -0.9243..., no closed form
        ("\\sum_{n=2}^{\\infty}\\frac{1}{n\\ln(n)^2}", None),  # 2.1097..., summed too slowly
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n}", None),  # diverges
        # nothing for a thousand terms, then everything: extrapolated, it was pi^2/6
        ("\\sum_{n=1}^{\\infty}\\left(\\frac{1}{n^2}+e^{n-10000}\\right)", None),
        ("\\prod_{n=1}^{\\infty}(1+\\frac{1}{n^2})", None),  # sinh(pi)/pi: no product is summed
        # a finite sum or product is computed, up to 10,000 terms
        ("\\sum_{n=1}^{10} n", 55.0),
        ("\\sum_{n=1}^{10^{2}} n", 5050.0),  # a bound written as a power is an integer too
        ("\\prod_{n=1}^{5} n", 120.0),
        ("\\sum_{n=1}^{100000} n", None),
        ("\\sum_{n=1}^{3} e^{e^{e^{n}}}", None),  # each term is checked as any power
        # an integral by quadrature, its error estimate small, or none
        ("\\int_0^1 x^2\\,dx", 1 / 3),
        ("\\int_0^\\infty e^{-x^2}\\,dx", 0.886226925452758),
        ("\\int_0^1 e^{-x^2}\\sin(\\frac{1}{x})\\,dx", None),  # oscillates without end
        ("\\int_0^\\infty \\frac{\\sin x}{x}\\,dx", None),
    ],
)
def test_numbers_are_evaluated_within_a_bound_or_not_at_all(
    latex: str, value: float | None
) -> None:
    try:
        found = numeric_value(parse_latex(latex))
    except UnparseableError:
        found = None
    if value is None:
        assert found is None
    else:
        assert found is not None and found.real == pytest.approx(value, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n^2}", True),
        ("\\sum_{n=1}^{\\infty}\\frac{1.02}{n^2}", False),
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n}", False),
        ("\\sum_{n=1}^{\\infty}\\left(\\frac{1}{n^2}+e^{n-10000}\\right)", False),
    ],
)
def test_a_series_as_a_numeric_answer(pred: str, correct: bool) -> None:
    assert judge_inline(f"\\boxed{{{pred}}}", "\\boxed{1.6449}", "NV").correct is correct


@pytest.mark.parametrize(
    ("latex", "unbounded"),
    [
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n^{1.0001}}", True),
        ("\\prod_{n=1}^{\\infty}(1+\\frac{1}{n^2})", True),
        ("\\prod_{n=1}^{10^{9}}(1+\\frac{1}{n^2})", True),
        ("\\sum_{n=1}^{10^{5}} n", True),
        ("\\sum_{n=1}^{N} n", True),  # its bound a symbol: no count of terms
        ("x + \\sum_{n=1}^{10^{4}} \\frac{1}{n}", False),
        ("\\prod_{n=1}^{5} (x + n)", False),
        ("\\int_0^1 x\\,dx + x", False),
    ],
)
def test_what_has_no_value_in_an_expression(latex: str, unbounded: bool) -> None:
    assert unbounded_series_in(parse_latex(latex)) is unbounded
    if unbounded:
        assert evaluate(parse_latex(latex), {}) is None


@pytest.mark.parametrize(
    ("pred", "gold", "correct", "reason"),
    [
        # a checked closed form, a finite sum of numbers added up: compared as before
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n^2} + x", "\\frac{\\pi^2}{6} + x", True, None),
        ("\\sum_{n=1}^{\\infty}\\frac{1}{n^2} + x", "\\frac{\\pi^2}{5} + x", False, None),
        ("\\sum_{n=1}^{4} n + x", "10 + x", True, None),
        ("\\sum_{n=1}^{4} n + x", "11 + x", False, None),
        # with parameters, written out up to 100 terms
        ("\\prod_{n=1}^{3}(x+n)", "(x+1)(x+2)(x+3)", True, None),
        ("\\prod_{n=1}^{3}(x+n)", "(x+1)(x+2)(x+4)", False, None),
        ("\\sum_{n=1}^{3} x^n", "x+x^2+x^3", True, None),
        ("\\sum_{n=1}^{3} x^n", "x+x^2+2x^3", False, None),
        ("\\sum_{n=1}^{200} x^n", "\\frac{x(1-x^{200})}{1-x}", False, "inconclusive"),
        ("\\int_0^{a}\\sqrt{a^2-x^2}\\,dx", "\\frac{\\pi a^2}{4}", True, None),
        ("\\int_0^{a}\\sqrt{a^2-x^2}\\,dx", "\\frac{\\pi a^2}{2}", False, None),
        # no checked closed form, too many terms, a product without end: no value (simplify
        # evaluated the first for 145 s; evalf the second for 18 s)
        ("\\sum_{n=1}^{\\infty}\\frac{\\sin n}{n^{3/2}} + x", "x + 1", False, "inconclusive"),
        ("\\prod_{n=1}^{10^{9}}(1+\\frac{1}{n^{2}})", "3", False, "inconclusive"),
        ("\\frac{\\pi}{2}\\prod_{n=1}^{\\infty}(1-\\frac{1}{4n^2})", "1", False, "inconclusive"),
        # quadrature cannot confirm a closed form here, so none is looked for (20 s before)
        ("\\int_{0}^{a} e^{-x^{2}}\\sin(\\frac{1}{x})\\,dx", "a", False, "inconclusive"),
        # the same sum on both sides is the same answer, evaluated or not
        (
            "\\sum_{n=1}^{\\infty}\\frac{\\sin n}{n^{3/2}}",
            "\\sum_{n=1}^{\\infty}\\frac{\\sin n}{n^{3/2}}",
            True,
            None,
        ),
    ],
)
def test_series_and_integrals_in_an_expression(
    pred: str, gold: str, correct: bool, reason: str | None
) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EX")
    assert verdict.correct is correct, verdict.reason
    if reason is not None:
        assert verdict.reason == reason


def test_no_closed_form_is_looked_for_where_quadrature_cannot_confirm_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sympy

    calls: list[object] = []
    original = sympy.Integral.doit

    def counted(self: sympy.Integral, **hints: object) -> object:
        calls.append(self)
        return original(self, **hints)

    monkeypatch.setattr(sympy.Integral, "doit", counted)
    x, a = sympy.symbols("x a", positive=True)
    assert _integrated(sympy.Integral(sympy.exp(-(x**2)) * sympy.sin(1 / x), (x, 0, a))) is None
    assert calls == []
    closed = _integrated(sympy.Integral(sympy.sqrt(a**2 - x**2), (x, 0, a)))
    assert closed is not None and sympy.simplify(closed - sympy.pi * a**2 / 4) == 0
    assert len(calls) == 1


# ---------------------------------------------------------------------------------------------
# equations sympy cannot solve or factor in bounded time are not solved
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "name", "intractable"),
    [
        ("h^{399} - a^{399}", "h", True),
        ("h^{13} - a", "h", True),
        ("h^{12} - a", "h", False),
        ("h - a^{40}", "h", False),  # a power of another quantity is no degree in h
        ("h - a^{40}", "", True),
        ("e^{h} - e^{a} + \\sin(h) - \\sin(a)", "h", True),  # exp and trig: _tsolve
        ("\\log(h) + \\sin(h)", "h", True),
        ("\\sin(h) - \\mu\\cos(h)", "h", False),  # one family: rewritten into one another
        ("\\cosh(h) - e^{h} + a", "h", False),
        ("2^{h} - \\sin(h)", "h", True),  # a power with h in its exponent is exp's family
        ("\\sin(h) - e^{a}", "h", False),  # exp of another quantity is a constant
    ],
)
def test_what_is_not_solved(latex: str, name: str, intractable: bool) -> None:
    assert _intractable(parse_latex(latex), name) is intractable


@pytest.mark.parametrize(
    ("pred", "gold", "reason"),
    [
        # equivalent in fact, but of a degree no comparison can afford to solve: rejected
        ("h^{50} = (2.7R)^{50}", "h = 2.7 R", "wrong_equation"),
        ("h^{399} = (2.7R)^{399}", "h = 2.7 R", "wrong_equation"),
        ("e^{h} - e^{2.7R} + \\sin(h) - \\sin(2.7R) = 0", "h = 2.7 R", "wrong_equation"),
        ("\\sin(x)^{20} = \\sin(\\frac{L}{2})^{20}", "x = \\frac{L}{2}", "wrong_equation"),
        # what is solved as before
        ("h^2 = (2.7R)^2", "h = 2.7 R", "wrong_equation"),  # h = -2.7R too
        ("\\frac{h}{R} = 2.7", "h = 2.7 R", "rearranged"),
        ("h^{3} = (2.7R)^{3}", "h = 2.7 R", "rearranged"),
    ],
)
def test_equations_of_high_degree_or_mixed_functions(pred: str, gold: str, reason: str) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EQ")
    assert verdict.reason == reason
    assert verdict.correct is (reason == "rearranged")


# ---------------------------------------------------------------------------------------------
# a parse that fails is not tried again
# ---------------------------------------------------------------------------------------------


def test_a_failed_parse_is_cached_as_a_success_is() -> None:
    text = "14.5" + "0." * 400
    for _ in range(2):
        with pytest.raises(UnparseableError):
            parse_latex(text)
    assert _parsed_or_failure(text)[1] is not None
    hits = _parsed_or_failure.cache_info().hits
    with pytest.raises(UnparseableError) as caught:
        parse_latex(text)
    assert _parsed_or_failure.cache_info().hits == hits + 1
    assert caught.value.reason == _parsed_or_failure(text)[1]


def test_a_box_past_the_parse_limit_is_too_long() -> None:
    verdict = judge_inline("\\boxed{" + "x+" * 600 + "x}", "\\boxed{x}", "EX")
    assert (verdict.correct, verdict.reason) == (False, "unparseable:too_long")


# ---------------------------------------------------------------------------------------------
# round 18: shapes whose parse or comparison grows steeply, refused or bounded before sympy
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "reason"),
    [
        # exponents inside exponents: four levels have millions of digits at a sample point
        ("e^{d+e^{d+e^{d+e^{d+d}}}}", "too_large"),
        ("\\exp(\\exp(\\exp(\\exp(x))))", "too_large"),
        ("e^{d+e^{d+e^{d}}}", None),
        ("e^{-x^{2}}", None),
        # a binomial of a large number is computed exactly by the parser
        ("\\binom{1000000}{500000}", "too_large"),
        ("\\binom{10^6}{3}", "too_large"),
        ("\\binom{10}{3}", None),
        # absolute-value bars: the slow parser's prediction grows steeply with them
        ("|d|d|d|d|d|d|d|d|d|d", "too_deep"),
        ("|a - b| + |c| + |d|", None),
        # fractions inside fractions
        (
            "\\frac{1}{d+\\frac{1}{d+\\frac{1}{d+\\frac{1}{d+\\frac{1}{d+\\frac{1}{d+\\frac{1}{d}}}}}}}",
            "too_deep",
        ),
        ("\\frac{1}{d+\\frac{1}{d+\\frac{1}{d}}}", None),
        (
            " + ".join(f"\\frac{{{a}}}{{{b}}}" for a, b in zip("acegikm", "bdfhjln", strict=True)),
            None,
        ),
        # powers nested in bases multiply their degrees
        ("(d+(d+(d+(d+(d+(d+(d+(d+(d+1)^{2})^{2})^{2})^{2})^{2})^{2})^{2})^{2})^{2}", "too_large"),
        ("x^{100} + 1", None),
        ("(x+y)^{400}", None),
    ],
)
def test_shapes_refused_before_sympy(latex: str, reason: str | None) -> None:
    try:
        parse_latex(latex)
        found = None
    except UnparseableError as exc:
        found = exc.reason
    if reason is None:
        assert found in (None, "syntax")  # read, or unreadable for its own reasons
    else:
        assert found == reason


@pytest.mark.parametrize(
    ("latex", "size"),
    [
        ("x + y", 2),
        ("(x + y)(z + w)", 4),
        ("(x + y)^{2}", 3),
        ("(d + x + y + z)^{40}", 12341),
        ("\\frac{1}{(x + y)^{2}}", 1),  # a denominator is not multiplied out by expand
        ("(x_0 + d)(x_1 + d)(x_2 + d)(x_3 + d)(x_4 + d)(x_5 + d)(x_6 + d)(x_7 + d)", 256),
    ],
)
def test_expansion_size_is_counted_without_expanding(latex: str, size: int) -> None:
    assert expansion_size(parse_latex(latex)) == size


def test_a_denominator_counts_where_cancel_multiplies_it_out() -> None:
    assert expansion_size(parse_latex("\\frac{1}{(x + y)^{2}}"), denominators=True) == 3


@pytest.mark.parametrize(
    "pred",
    [
        "(d+x+y+z)^{40}",
        "(x_0+d)(x_1+d)(x_2+d)(x_3+d)(x_4+d)(x_5+d)(x_6+d)(x_7+d)(x_8+d)(x_9+d)(x_10+d)",
        "(x_0+x_1+x_2+x_3+x_4+x_5+x_6+x_7+x_8+x_9+x_{10}+x_{11})^{8}",
    ],
)
def test_a_large_expansion_is_judged_without_being_multiplied_out(pred: str) -> None:
    """Wrong answers whose exact check would multiply out thousands of terms: judged wrong
    by the numeric comparison (the pool's bound is not what rejects them)."""
    verdict = judge_inline(f"\\boxed{{{pred}}}", "\\boxed{\\frac{2d}{3}}", "EX")
    assert (verdict.correct, verdict.reason) == (False, "wrong_value")


# ---------------------------------------------------------------------------------------------
# a long question: the sentence of each unit it names is a lookup, not a scan from the start
# ---------------------------------------------------------------------------------------------


def _sentence_by_scan(text: str, position: int) -> str:
    """What ``question._sentence`` returned when it scanned from the start each time."""
    start = 0
    for end in re.finditer(r"[.?!](?=\s|$)", text):
        if end.start() >= position:
            return text[start : end.end()]
        start = end.end()
    return text[start:]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab .?!\n", max_size=60), st.integers(min_value=0, max_value=70))
def test_the_sentence_of_a_position_is_the_one_a_scan_finds(text: str, position: int) -> None:
    assert _sentence(text, position) == _sentence_by_scan(text, position)


@pytest.mark.parametrize(
    ("question", "units"),
    [
        ("The heights are given in m. What is the height (in cm)?", ["centimeter"]),
        ("The heights are given in  m. What is the height (in cm)?", ["centimeter"]),
        ("Lengths are tabulated in mm; what is the length (in cm)?", ["centimeter"]),
        ("What is the height (in m)? " * 700, ["meter"]),
        ("A ball (in m) is dropped. " * 700 + "Find its height in cm.", ["centimeter"]),
    ],
)
def test_units_a_question_asks_for(question: str, units: list[str]) -> None:
    assert [str(unit) for unit in requested_units(collapse_whitespace(question))] == units
