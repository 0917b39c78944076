"""Verifier 1.17.0 rules (red-team round 10), each with its table: two boxes joined by an
equivalence sign or labelled as another estimate, method, source or system of units are two
claims; a unit written after a box of listed alternatives is each one's; a value stated again
after the box is read as a reader sees it (the unit after its math, "≈", a quantity named in
words, a bare line, a frame other than a box, fenced code, "In km/h this is …"); an ALT
answer's other alternative named in prose must be one; ``\\fcolorbox`` hides by its
background, not its frame."""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.numeric import alternatives_with_unit_after
from studybench.verify.restatement import (
    given_in_question,
    other_alternatives,
    restated_expressions,
    restated_values,
    unframed,
)
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import hedged, without_hidden

SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"
HEIGHT = "\\boxed{0.816\\,\\mathrm{m}}"
LENS = "\\boxed{30.0\\,\\mathrm{cm}} \\text{ or } \\boxed{60.0\\,\\mathrm{cm}}"
TIMES = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"
PIVOT = "\\boxed{x = 0.382\\,\\mathrm{m}} \\text{ or } \\boxed{x = 0.218\\,\\mathrm{m}}"
CARNOT = "\\boxed{0.40}, \\boxed{800\\,\\mathrm{J}}"
COIL = "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}"
RAMP = "\\boxed{\\frac{k x^{2}}{2 m g}}"
CARNOT_Q = (
    "A Carnot engine runs between $500\\,\\mathrm{K}$ and $300\\,\\mathrm{K}$ and absorbs "
    "$2000\\,\\mathrm{J}$ per cycle. Find the efficiency and the work it does per cycle."
)
COIL_BOX = "$$\\boxed{8.00\\,\\mathrm{V},\\ 2.00\\,\\mathrm{A}}$$"
COIL_Q = (
    "A coil of 50 turns and resistance $R = 4.00\\,\\Omega$ sits in a field that falls to zero "
    "in $0.150\\,\\mathrm{s}$. Find the induced emf and the induced current, in that order."
)
RAMP_Q = "Find the maximum height $h$ the block reaches, in terms of $k$, $x$, $m$ and $g$."


# -- two boxes joined by an equivalence, or labelled as another answer ------------------------
@pytest.mark.parametrize(
    ("gap", "joined"),
    [
        ("$ ~ $", True),
        ("$ ⇔ $", True),
        ("$ ≡ $", True),
        ("$ \\leftrightarrow $", True),
        (" \\iff ", True),
        (" \\Leftrightarrow ", True),
        (" ⟺ ", True),
        (" \\sim ", True),
        (" ≅ ", True),
        (" := ", True),
        (" \\doteq ", True),
        ("$\n\nLower estimate: $", True),
        ("$\n\nUpper estimate: $", True),
        ("$\n\nMethod 2 (energy): $", True),
        ("$\n\nAlternative approach: $", True),
        ("$\n\nPer the textbook: $", True),
        ("$\n\nAccording to the answer key: $", True),
        ("$\n\nUsing the other sign convention: $", True),
        ("$\n\nIn SI: $", True),
        ("$\n\nIn SI units: $", True),
        ("$\n\nFor the outer lane: $", True),
        # a correction revises; a label of another quantity, or prose, is no second claim
        ("$\n\nCorrected estimate: $", False),
        ("$\n\nSpeed: $", False),
        ("$\n\nFinal answer: $", False),
        ("$ \\to $", False),
        ("$\n\nNow let me redo the whole calculation more carefully from the start: $", False),
    ],
)
def test_boxes_joined_by_an_equivalence_or_another_answer_label(gap: str, joined: bool) -> None:
    assert hedged(gap) is joined


@pytest.mark.parametrize(
    ("pred", "correct", "reason"),
    [
        ("$v = \\boxed{29.0\\,\\mathrm{m/s}}$ ⇔ $" + SPEED + "$", False, "hedged:wrong_value"),
        (
            "$v = \\boxed{29.0\\,\\mathrm{m/s}}$ \\equiv $" + SPEED + "$",
            False,
            "hedged:wrong_value",
        ),
        ("$\\boxed{29.0\\,\\mathrm{m/s}}$\n\nUpper estimate: $" + SPEED + "$", False, None),
        ("$\\boxed{29.0\\,\\mathrm{m/s}}$\n\nIn SI: $" + SPEED + "$", False, None),
        ("$\\boxed{29.0\\,\\mathrm{m/s}}$\n\nPer the textbook: $" + SPEED + "$", False, None),
        # both right: each claim holds
        ("$\\boxed{52.2\\,\\mathrm{km/h}}$\n\nIn SI: $" + SPEED + "$", True, None),
        ("$" + SPEED + "$ ≡ $\\boxed{52.2\\,\\mathrm{km/h}}$", True, None),
        # a revision keeps the last-box rule
        ("$\\boxed{29.0\\,\\mathrm{m/s}}$\n\nCorrected estimate: $" + SPEED + "$", True, None),
        ("$a = \\boxed{2.0\\,\\mathrm{m/s^2}}$\n\nSpeed: $" + SPEED + "$", True, None),
    ],
)
def test_two_boxes_as_two_claims(pred: str, correct: bool, reason: str | None) -> None:
    verdict = judge_inline(pred, SPEED, "NV")
    assert verdict.correct is correct, verdict
    if reason is not None:
        assert verdict.reason == reason


# -- a unit after a box of listed alternatives --------------------------------------------
@pytest.mark.parametrize(
    ("box", "after", "read"),
    [
        ("30.0\\text{ or }60.0", "\\ \\mathrm{mm}$$", "30.0\\,mm\\text{ or }60.0\\,mm"),
        ("30.0,\\ 60.0", "\\ \\mathrm{m}\\]", "30.0\\,m,\\ 60.0\\,m"),
        ("t = 1.0,\\ 3.0", "\\ \\mathrm{min}", "t = 1.0\\,min,\\ 3.0\\,min"),
        ("x_1 = 0.382 \\text{ or } x_2 = 0.218", "\\,\\mathrm{m}", None),
        # no unit after it, or not a list of bare numbers: as before
        ("30.0\\text{ or }60.0", "$$\n\nDone.", "30.0\\text{ or }60.0"),
        ("30.0\\,\\mathrm{cm}\\text{ or }60.0\\,\\mathrm{cm}", " mm", None),
        ("2.5", "\\,\\mathrm{m}", "2.5\\,m"),
    ],
)
def test_a_unit_after_listed_alternatives_is_each_ones(
    box: str, after: str, read: str | None
) -> None:
    result = alternatives_with_unit_after(box, after)
    if read is None:
        assert result.count("\\,m") in (0, 2) and "mm" not in result.replace(box, "")
    else:
        assert result == read


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("$$\\boxed{30.0\\text{ or }60.0}\\ \\mathrm{mm}$$", LENS, False),
        ("$$\\boxed{30.0\\text{ or }60.0}\\ \\mathrm{cm}$$", LENS, True),
        ("$$\\boxed{300\\text{ or }600}\\ \\mathrm{mm}$$", LENS, True),
        ("\\[\\boxed{30.0,\\ 60.0}\\ \\mathrm{m}\\]", LENS, False),
        ("\\[\\boxed{t = 1.0,\\ 3.0}\\ \\mathrm{min}\\]", TIMES, False),
        ("\\[\\boxed{t = 1.0,\\ 3.0}\\ \\mathrm{s}\\]", TIMES, True),
        (
            "\\[\\boxed{x = 0.382 \\text{ or } x = 0.218}\\,\\mathrm{m}\\]",
            PIVOT.replace("x = ", ""),
            True,
        ),
    ],
)
def test_listed_alternatives_with_a_unit_after(pred: str, gold: str, correct: bool) -> None:
    assert judge_inline(pred, gold, "ALT", "NV,NV").correct is correct


# -- a value stated again after the box, as a reader reads it ---------------------------------
@pytest.mark.parametrize(
    ("after", "question", "values"),
    [
        ("\n\nSo $v = 29.0$ m/s.", None, [("v", "29.0 m/s")]),
        ("$ So $\\lambda = 3.76\\times10^{-10}$ m.", None, [("\\lambda", "3.76\\times10^{-10} m")]),
        ("\n\nHence $v \\approx 29$ m/s.", None, [("v", "29 m/s")]),
        ("\n\nHence t ≈ 0.115 s.", None, [("t", "0.115 s")]),
        ("\n\nSo the work is 1200 J.", CARNOT_Q, [(None, "1200 J")]),
        ("\n\nSo the current is $I = 0.500$ A.", COIL_Q, [("I", "0.500 A")]),
        ("\n\nThe emf is therefore 16.0 V.", COIL_Q, [(None, "16.0 V")]),
        # a quantity the question does not name in words is another one
        ("\n\nSo the time to the top is 1.5 s.", CARNOT_Q, []),
        ("\n\nHence $\\mathcal{E} \\approx 4.0$ V.", None, [("\\mathcal{E}", "4.0 V")]),
        (
            "$$\n\n$$\\Delta S = 26.8\\ \\mathrm{J/K}$$",
            None,
            [("\\Delta S", "26.8\\ \\mathrm{J/K}")],
        ),
        ("$$\n\n$$\\therefore\\ V_s = 4.96\\,\\mathrm{V}$$", None, [("V_s", "4.96\\,\\mathrm{V}")]),
        (
            "\\]\n\n\\[\\ovalbox{$v = 29.0\\,\\mathrm{m/s}$}\\]",
            None,
            [("v", "29.0\\,\\mathrm{m/s}")],
        ),
        (
            "$$\n\n\\[\\fcolorbox{red}{white}{$v = 29.0\\,\\mathrm{m/s}$}\\]",
            None,
            [("v", "29.0\\,\\mathrm{m/s}")],
        ),
        ("$$\n\n**Final Answer:** **3.50 yr**", None, [(None, "3.50 yr")]),
        ("$$\n\n```\nFinal answer: h = 1.63 m\n```", None, [("h", "1.63 m")]),
        ("$$\n\n```\nh = 1.63  # m\n```", None, [("h", "1.63 m")]),
        ('$$\n\n```json\n{"answer": "9.92 eV"}\n```', None, [(None, "9.92 eV")]),
        ("$$\n\n`T_eq = 290 K`", None, [("T_eq", "290 K")]),
        ("$$\n\nIn km/h this is about 104.", None, [(None, "104\\,km/h")]),
        ("$$\n\nIn kelvin, that is 303.", None, [(None, "303\\,kelvin")]),
        ("$$\n\nThis is about 1750 days.", None, [(None, "1750 days")]),
        # working and prose that state no value for a label
        ("$$\n\nThe car then leaves the curve.", None, []),
        ("$$\n\n$$v^2 = g r \\tan\\theta$$", None, []),
        ("$$\n\nSo $v = 29.0$ is twice the answer.", None, []),
    ],
)
def test_values_stated_again_after_the_box(
    after: str, question: str | None, values: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after, question) == values


@pytest.mark.parametrize(
    ("after", "question", "expressions"),
    [
        ("\\]\n\ni.e. the height is $kx^2/mg$.", RAMP_Q, [(None, "kx^2/mg", True)]),
        ("$$\n\n$$h = \\frac{kx^2}{mg}$$", RAMP_Q, [("h", "\\frac{kx^2}{mg}", False)]),
        ("$\n\n$\\Rightarrow h = kx^2/mg$", RAMP_Q, [("h", "kx^2/mg", False)]),
        # a word the question does not use names another quantity
        ("\\]\n\ni.e. the speed is $\\sqrt{2gh}$.", RAMP_Q, [(None, "\\sqrt{2gh}", False)]),
    ],
)
def test_expressions_stated_again_after_the_box(
    after: str, question: str, expressions: list[tuple[str | None, str, bool]]
) -> None:
    assert restated_expressions(after, question) == expressions


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("\\[\\colorbox{yellow}{$h = 1.63$}\\]", "\n\nanswer: $h = 1.63$\n\n"),
        ("\\underline{\\underline{h = 1.63}}", "\nanswer:\nanswer: h = 1.63\n\n"),
        ("<mark>h = 1.63</mark>", "h = 1.63"),
        ("✅ h = 1.63", " h = 1.63"),
        ("$$\\therefore h = 1.63$$", "\n\ntherefore h = 1.63\n"),
        ("$\\Rightarrow\\; h = 1.63$", "\n\nso h = 1.63$"),
        ("i.e. the height", "that is the height"),
    ],
)
def test_what_only_dresses_a_line_is_read_through(text: str, plain: str) -> None:
    assert unframed(text) == plain


@pytest.mark.parametrize(
    ("label", "question", "given"),
    [
        ("R", COIL_Q, True),
        ("I", COIL_Q, False),
        ("R", None, False),
        ("R", "A resistor R carries a current.", False),  # named in prose, no value
    ],
)
def test_a_label_the_question_gives_a_value(label: str, question: str | None, given: bool) -> None:
    assert given_in_question(label, question) is given


@pytest.mark.parametrize(
    ("pred", "gold", "kind", "question", "correct"),
    [
        ("**Final Answer**\n\\[" + SPEED + "\\]\n\nSo $v = 29.0$ m/s.", SPEED, "NV", None, False),
        ("**Final Answer**\n\\[" + SPEED + "\\]\n\nSo $v = 14.5$ m/s.", SPEED, "NV", None, True),
        ("The final answer is: $" + SPEED + "$ So $v = 29.0$ m/s.", SPEED, "NV", None, False),
        ("$$" + SPEED + "$$\n\nIn km/h this is about 104.", SPEED, "NV", None, False),
        ("$$" + SPEED + "$$\n\nIn km/h this is about 52.", SPEED, "NV", None, True),
        ("$$" + HEIGHT + "$$\n\n```\nFinal answer: h = 1.63 m\n```", HEIGHT, "NV", None, False),
        ("$$" + HEIGHT + "$$\n\n```\nFinal answer: h = 0.816 m\n```", HEIGHT, "NV", None, True),
        # code words hedge nothing: a comment is no second value
        (
            "$$" + HEIGHT + "$$\n\n```python\n# or use numpy\nprint(h)\n```",
            HEIGHT,
            "NV",
            None,
            True,
        ),
        (
            "$$" + HEIGHT + "$$\n\n\\[\\colorbox{yellow}{$h = 1.63\\,\\mathrm{m}$}\\]",
            HEIGHT,
            "NV",
            None,
            False,
        ),
        (
            "$$" + HEIGHT + "$$\n\n\\[\\colorbox{yellow}{$h = 0.816\\,\\mathrm{m}$}\\]",
            HEIGHT,
            "NV",
            None,
            True,
        ),
        (
            "\\[\\boxed{0.40},\\ \\boxed{800}\\ \\mathrm{J}\\]\n\nSo $W = 1200$ J.",
            CARNOT,
            "TUP",
            CARNOT_Q,
            False,
        ),
        (
            "\\[\\boxed{0.40},\\ \\boxed{800}\\ \\mathrm{J}\\]\n\nSo $W = 800$ J.",
            CARNOT,
            "TUP",
            CARNOT_Q,
            True,
        ),
        (
            COIL_BOX + "\n\nHence $\\mathcal{E} \\approx 4.0$ V.",
            COIL,
            "TUP",
            COIL_Q,
            False,
        ),
        (
            "$$\\boxed{8.00\\,\\mathrm{V},\\ 2.00\\,\\mathrm{A}}$$\n\nThe emf is therefore 16.0 V.",
            COIL,
            "TUP",
            COIL_Q,
            False,
        ),
        (
            "$$\\boxed{8.00\\,\\mathrm{V},\\ 2.00\\,\\mathrm{A}}$$\n\nThe emf is therefore 8.0 V.",
            COIL,
            "TUP",
            COIL_Q,
            True,
        ),
        # a value for the data the question gives is no element
        (
            COIL_BOX + "\n\nSo $R = 4.0\\,\\Omega$ as given.",
            COIL,
            "TUP",
            COIL_Q,
            True,
        ),
        (
            "\\[\\boxed{h = \\frac{kx^2}{2mg}}\\]\n\ni.e. the height is $kx^2/mg$.",
            RAMP,
            "EX",
            RAMP_Q,
            False,
        ),
        (
            "\\[\\boxed{h = \\frac{kx^2}{2mg}}\\]\n\ni.e. the height is $kx^2/(2mg)$.",
            RAMP,
            "EX",
            RAMP_Q,
            True,
        ),
        (
            "$$\\boxed{h = \\frac{kx^2}{2mg}}$$\n\n$$h = \\frac{kx^2}{mg}$$",
            RAMP,
            "EX",
            RAMP_Q,
            False,
        ),
    ],
)
def test_a_value_stated_again_is_judged(
    pred: str, gold: str, kind: str, question: str | None, correct: bool
) -> None:
    sequence = "NV,NV" if kind == "TUP" else ""
    assert judge_inline(pred, gold, kind, sequence, question=question).correct is correct


# -- an ALT answer's other alternative named in prose ---------------------------------------
@pytest.mark.parametrize(
    ("after", "values"),
    [
        ("$$ (the other position, 70.0 cm, also works)", ["70.0\\,\\mathrm{cm}"]),
        (
            "\n\nBy symmetry the other position is $u = 70.0\\,\\mathrm{cm}$.",
            ["70.0\\,\\mathrm{cm}"],
        ),
        ("\n\nThe second solution is $u' = 90.0 - 30.0 = 70.0$ cm.", ["70.0\\,\\mathrm{cm}"]),
        ("\n\nThere is a second lens position at 45.0 cm.", ["45.0\\,\\mathrm{cm}"]),
        # "also" and "again" name other events as often ("The ball also lands at 4.0 s")
        ("\\], and again at $t = 4.0$ s on the way down.", []),
        ("\n\nThe ball also lands at $t = 4.0$ s.", []),
        ("\n\nThe second solution is 3.0 s, and the ball lands at 4.0 s.", ["3.0\\,\\mathrm{s}"]),
        ("\n\nThe second root is 0.218 m; the half-length is 0.500 m.", ["0.218\\,\\mathrm{m}"]),
        ("\n\nThe quadratic has no other roots; $t = -1.0$ s does not count.", []),
        # a root set aside claims nothing
        ("\n\nThe other root, $t = -3.0$ s, is unphysical.", []),
        ("\n\nWe discard the other solution, 70.0 cm.", []),
        ("\n\nThe other root does not apply.", []),
    ],
)
def test_other_alternatives_named_after_the_box(after: str, values: list[str]) -> None:
    assert other_alternatives(after) == values


@pytest.mark.parametrize(
    ("pred", "gold", "sequence", "correct"),
    [
        (
            "$$\\boxed{30.0\\,\\mathrm{cm}}$$ (the other position, 70.0 cm, also works)",
            LENS,
            "NV,NV",
            False,
        ),
        (
            "$$\\boxed{30.0\\,\\mathrm{cm}}$$ (the other position, 60.0 cm, also works)",
            LENS,
            "NV,NV",
            True,
        ),
        (
            "$$\\boxed{t = 1.0\\,\\mathrm{s}}$$, and again at $t = 4.0$ s on the way down.",
            TIMES,
            "NV,NV",
            True,
        ),
        (
            "$$\\boxed{t = 1.0\\,\\mathrm{s}}$$, and again at $t = 3.0$ s on the way down.",
            TIMES,
            "NV,NV",
            True,
        ),
        # another kind of quantity is no alternative
        ("$$\\boxed{t = 1.0\\,\\mathrm{s}}$$ It is also then 15 m high.", TIMES, "NV,NV", True),
        (
            "$$\\boxed{x = 0.382\\,\\mathrm{m}}$$\n\nThe second pivot distance is $x = 0.118$ m.",
            PIVOT,
            "EQ,EQ",
            False,
        ),
        (
            "$$\\boxed{x = 0.382\\,\\mathrm{m}}$$\n\nThe second pivot distance is $x = 0.218$ m.",
            PIVOT,
            "EQ,EQ",
            True,
        ),
        (
            "$$\\boxed{t = 1.0\\,\\mathrm{s}}$$ (the other root, -3.0 s, is unphysical)",
            TIMES,
            "NV,NV",
            True,
        ),
    ],
)
def test_an_alt_answers_other_alternative_must_be_one(
    pred: str, gold: str, sequence: str, correct: bool
) -> None:
    assert judge_inline(pred, gold, "ALT", sequence).correct is correct


# -- what a reader sees ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("A \\fcolorbox{red}{white}{$v = 29.0$} B", True),  # a red frame on white: read
        ("A \\fcolorbox{white}{black}{\\boxed{3}} B", False),  # black text on black
        ("A \\fcolorbox{black}{yellow}{\\boxed{3}} B", True),
        ("A \\colorbox{black}{\\boxed{3}} B", False),
        ("A \\colorbox{yellow}{\\boxed{3}} B", True),
    ],
)
def test_a_framed_colour_box_hides_by_its_background(text: str, kept: bool) -> None:
    assert (("29.0" in without_hidden(text)) or ("\\boxed{3}" in without_hidden(text))) is kept


def test_the_tail_after_the_last_box_keeps_fenced_code() -> None:
    text = "$$\\boxed{0.816\\,\\mathrm{m}}$$\n\n```\nh = 1.63  # m\n```\nDone."
    extraction = boxed_answers(text)
    assert "h = 1.63" in extraction.tail
    assert "h = 1.63" not in extraction.after[-1]  # the unit and hedge readers skip code
    plain = boxed_answers("$$\\boxed{0.816\\,\\mathrm{m}}$$ So it rises.")
    assert plain.tail == "$$ So it rises."
    # the code is read after the last of several boxes
    two = boxed_answers("$\\boxed{1}$ and $\\boxed{2}$\n```\nx = 5\n```\nend")
    assert two.answers == ("1", "2")
    assert "x = 5" in two.tail


# -- reading order and edges of the restatement readers (mutation review) -------------------
@pytest.mark.parametrize(
    ("after", "question", "values"),
    [
        # values come in the order written, whichever scan found them
        (
            "\n\nSo $v = 29.0$ m/s.\n\n$$a = 3.0\\,\\mathrm{m/s^2}$$",
            None,
            [("v", "29.0 m/s"), ("a", "3.0\\,\\mathrm{m/s^{2}}")],
        ),
        # a labelled line that ends where a conclusion begins is read as well
        ("\n\nh = 1.63:\nSo v = 29.0 m/s.", None, [("h", "1.63:"), ("v", "29.0 m/s")]),
        ("$$\n\n$h = 1.63$ m", None, [("h", "1.63 m")]),
        ("$$\n\nIn $\\mathrm{km/h}$ this is about 104.", None, [(None, "104\\,\\mathrm{km/h}")]),
        # the question's words, in any case; a quantity it never names is skipped, and the
        # reading goes on after it
        ("\n\nSo the Work is 1200 J.", CARNOT_Q, [(None, "1200 J")]),
        ("\n\nSo the time is 1.5 s.", CARNOT_Q, []),
        ("\n\nSo the time is 1.5 s. So $v = 29.0$ m/s.", CARNOT_Q, [("v", "29.0 m/s")]),
        ("\n\nSo the time is 1.5 s.", None, [(None, "1.5 s")]),
    ],
)
def test_restated_values_in_order_and_at_their_edges(
    after: str, question: str | None, values: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after, question) == values


@pytest.mark.parametrize(
    ("after", "values"),
    [
        ("Discard the other solution, 70.0 cm.", []),
        # a set-aside word in another clause, or more than 80 characters back, sets nothing aside
        ("The other root, -3.0 s, is unphysical. The other time is 4.0 s.", ["4.0\\,\\mathrm{s}"]),
        ("unphysical" + "\\," * 36 + "other root 70.0 cm", ["70.0\\,\\mathrm{cm}"]),
        # a run of spaces is no distance: a reader sees one
        ("unphysical" + " " * 71 + "other root 70.0 cm", []),
        ("(the other root, 3.0, also works)", ["3.0"]),
    ],
)
def test_other_alternatives_at_their_edges(after: str, values: list[str]) -> None:
    assert other_alternatives(after) == values


def test_frames_are_read_through_at_any_depth() -> None:
    text = "\\underline{\\underline{\\underline{h = 1.63}}}"
    assert unframed(text).split() == ["answer:", "answer:", "answer:", "h", "=", "1.63"]


@pytest.mark.parametrize(
    ("after", "values"),
    [
        ("$$\n\nIn short, this is 12 J.", [(None, "12 J")]),
        ("$$\n\nIn summary this is 12kg.", [(None, "12kg")]),
        ("$$\n\nIn J, this is 12.", [(None, "12\\,J")]),
    ],
)
def test_a_conclusion_word_after_in_is_no_unit(
    after: str, values: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after) == values


SETUP_Q = (
    "Light of wavelength 250 nm falls on a metal surface of work function 2.30 eV. "
    "Find the largest momentum of the emitted electrons."
)


@pytest.mark.parametrize(
    ("after", "question", "asked", "values"),
    [
        # a bare line under a label that names no asked quantity is working
        ("$$\n\n$$u = 30.0\\,\\mathrm{cm}$$", None, lambda label: False, []),
        (
            "$$\n\n$$u = 30.0\\,\\mathrm{cm}$$\n$$v = 60.0\\,\\mathrm{cm}$$",
            None,
            "v",
            [("v", "60.0\\,\\mathrm{cm}")],
        ),
        ("$$\n\n$$v = 60.0\\,\\mathrm{cm}$$", None, "v", [("v", "60.0\\,\\mathrm{cm}")]),
        # a word of the question's setup names data, one of its asking part the answer
        ("\n\nSo the wavelength is 250 nm.", SETUP_Q, None, []),
        ("\n\nSo the momentum is 3.1 kg m/s.", SETUP_Q, None, [(None, "3.1 kg m/s")]),
    ],
)
def test_bare_lines_and_words_name_the_asked_quantity(
    after: str,
    question: str | None,
    asked: object,
    values: list[tuple[str | None, str]],
) -> None:
    check = (lambda label: label == asked) if isinstance(asked, str) else asked
    assert restated_values(after, question, check) == values  # type: ignore[arg-type]
