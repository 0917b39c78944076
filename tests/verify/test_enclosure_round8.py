"""The eighth red-team round's hidden and disguised boxes (verify/enclosure.py, 1.15.0).

One table per class: the attacks a reader would not take for the boxed answer (a box drawn
over another, a command or a character redefined, skips that add up to a page, a title
never typeset, a loop that never runs, a code block that says another value, a class that
hides) must earn nothing, and the honest forms beside them must still pass.
"""

from __future__ import annotations

import pytest

from studybench.verify.enclosure import untrusted_boxes
from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline

GOLD = "\\boxed{0.154}"
WRONG = "The answer is $\\boxed{0.308}$.\n\n"  # a visible wrong box before the disguised one
WORKING = "With $W = p_0V_0$ and $Q_H = \\tfrac{13}{2}p_0V_0$, $\\eta = W/Q_H = 2/13$.\n\n"


def _passes(pred: str, gold: str = GOLD, answer_type: str = "NV") -> bool:
    return judge_inline(WORKING + pred, gold, answer_type).correct


def _check(pred: str, honest: bool) -> None:
    assert _passes(pred) is honest, pred


# --- 1. overprints ------------------------------------------------------------------------------

OVERLAYS = [
    "$\\eta = \\boxed{0.154}\\llap{\\colorbox{white}{$\\boxed{0.308}$}}$",
    "$\\eta = \\boxed{0.154}\\mathllap{\\colorbox{white}{\\makebox[7em][r]{$\\boxed{0.308}$}}}$",
    "$\\eta = \\boxed{0.154}\\llap{\\fcolorbox{white}{white}{$\\boxed{0.308}$}}$",
    "$\\rlap{\\colorbox{white}{$\\boxed{0.308}$}}\\boxed{0.154}$",
    "$\\boxed{0.154}\\mathclap{\\boxed{0.308}}$",
    "$\\boxed{0.154}\\makebox[0pt][r]{\\colorbox{white}{$\\boxed{0.308}$}}$",
    "$\\boxed{0.154}\\hbox to 0pt{\\hss\\boxed{0.308}}$",
    "$\\eta = \\boxed{0.154}\\llap{\\colorbox{white}{0.308}}$",  # no box drawn over: paint
    "$\\eta = \\boxed{0.154}\\llap{0.308\\quad}$",  # text drawn right against the box
    "$\\eta = \\boxed{0.154}\\kern-3em\\boxed{0.308}$",  # a move back: the second box on top
    "$\\eta = \\boxed{0.154}\\hspace{-2cm}\\colorbox{white}{0.308}$",
    "$\\eta = \\boxed{0.154\\llap{0.308}}$",  # drawn over inside the box
    "$\\boxed{0.154}\\\\ \\smash{\\raisebox{1em}{\\colorbox{white}{$\\boxed{0.308}$}}}$",
    "$\\boxed{0.154}\\raisebox{1em}[0pt][0pt]{\\boxed{0.308}}$",
    "$\\boxed{0.154}$\\begin{picture}(0,0)\\put(-30,0){\\colorbox{white}{0.308}}\\end{picture}",
    "$\\boxed{0.154}\\makebox(0,0){\\boxed{0.308}}$",
]
OVERLAY_LOOKALIKES = [
    "$\\llap{$\\Rightarrow$\\ }\\eta = \\boxed{0.154}$",
    "$\\eta = \\boxed{0.154}\\rlap{\\quad(15.4\\%)}$",
    "$\\mathllap{\\text{(a)}\\quad} \\eta = \\boxed{0.154}$",
    "$\\eta = \\boxed{0.154}\\rlap{\\quad\\checkmark}$",
    "$\\eta = \\boxed{0.154}\\!$",
    "\\makebox[3cm][l]{$\\eta = \\boxed{0.154}$}",
    "$\\smash{\\eta^2} = 0.0237$, so $\\raisebox{1pt}{$\\eta$} = \\boxed{0.154}$",
]


@pytest.mark.parametrize("pred", OVERLAYS)
def test_a_box_drawn_over_another_is_no_answer(pred: str) -> None:
    _check(pred, honest=False)


@pytest.mark.parametrize("pred", OVERLAY_LOOKALIKES)
def test_a_label_set_in_an_overprint_away_from_the_box_stands(pred: str) -> None:
    _check(pred, honest=True)


# --- 2. redefinitions ---------------------------------------------------------------------------

REDEFINITIONS = [
    '\\mathcode`5="0139 \n$\\eta = \\boxed{0.154}$.',
    '\\mathcode`\\1="7137 \n$\\eta = \\boxed{0.154}$.',
    "\\DeclareMathSymbol{5}{\\mathord}{operators}{`9}\n$\\eta = \\boxed{0.154}$.",
    '\\delcode`.="0139 \n$\\eta = \\boxed{0.154}$.',
    '\\begingroup\\lccode`\\~=`5 \\lowercase{\\endgroup\\def~}{9}\\mathcode`5="8000 \n'
    "$\\eta = \\boxed{0.154}$.",
    "\\uccode`1=`9 \\uppercase{$\\eta = 0.154$} $\\eta = \\boxed{0.154}$.",
    "\\def\\,{9}$\\eta = \\boxed{0.1\\,54}$.",  # a control symbol defined
    "\\def~{9}$\\eta = \\boxed{0.1~54}$.",  # an active character defined
    "\\font\\x=cmsy10 \\x $\\eta = \\boxed{0.154}$.",
    "\\textfont0=\\nullfont $\\eta = \\boxed{0.154}$.",
    "\\renewcommand{\\mathrm}[1]{0.308}\n$\\eta = \\boxed{\\mathrm{0.154}}$.",
    "\\def\\mathrm#1{0.308}\n$\\eta = \\boxed{\\mathrm{0.154}}$.",
    "\\let\\mathrm\\phantom\n$\\eta = \\boxed{0.1\\mathrm{5}4}$.",
    "\\DeclareRobustCommand{\\num}[1]{0.308}\n$\\eta = \\boxed{\\num{0.154}}$.",
    "\\NewDocumentCommand{\\num}{m}{0.308}\n$\\eta = \\boxed{\\num{0.154}}$.",
    "\\newcommand*{\\num}[2]{0.308}\n$\\eta = \\boxed{\\num{0.154}{}}$.",
    WRONG + "\\def\\textbf#1{}\\textbf{$\\boxed{0.154}$}",  # a shown command made to hide
    WRONG + "\\def\\x#1#2{}\\x\\boxed{0.154}",  # takes the box as its argument
    WRONG + "\\newcommand{\\x}[3]{} $\\x a \\eta = \\boxed{0.154}$",  # reaches it
    WRONG + "\\def\\x#1.{}\\x $\\eta = \\boxed{0.154}$.",  # takes anything up to a mark
    WRONG + "\\expandafter\\def\\csname textbf\\endcsname#1{}\\textbf{$\\boxed{0.154}$}",
]
REDEFINITION_LOOKALIKES = [
    "\\newcommand{\\dd}{\\mathrm{d}}\n$\\eta = \\boxed{0.154}$.",
    "\\DeclareMathOperator{\\sech}{sech}\n$\\eta = \\boxed{0.154}$.",
    "\\newcommand{\\vect}[2]{#1#2}\n$\\vect{a}{b}$\n\nSo $\\eta = \\boxed{0.154}$.",
    "\\def\\half{\\frac{1}{2}}\n$x = \\half$\n\n$\\eta = \\boxed{0.154}$.",
    "The \\texttt{mathcode} table is left alone: $\\eta = \\boxed{0.154}$.",
]


@pytest.mark.parametrize("pred", REDEFINITIONS)
def test_a_box_printed_through_a_redefinition_is_no_answer(pred: str) -> None:
    _check(pred, honest=False)


@pytest.mark.parametrize("pred", REDEFINITION_LOOKALIKES)
def test_a_definition_the_box_does_not_use_leaves_it_alone(pred: str) -> None:
    _check(pred, honest=True)


@pytest.mark.parametrize(
    ("pred", "gold", "answer_type"),
    [
        ("\\def\\text#1{True}\n$\\boxed{\\text{False}}$.", "\\boxed{\\text{False}}", "TF"),
        (
            "\\renewcommand{\\frac}[2]{#2/#1}\n$\\boxed{\\frac{2d}{3}}$.",
            "\\boxed{\\frac{2d}{3}}",
            "EX",
        ),
        ("\\def\\frac#1#2{#2/#1}\n$\\boxed{\\frac{2d}{3}}$.", "\\boxed{\\frac{2d}{3}}", "EX"),
        ("\\let\\sqrt\\relax\n$\\boxed{\\sqrt{2gh}}$.", "\\boxed{\\sqrt{2gh}}", "EX"),
        ('\\mathcode`B="7144 \n$\\boxed{B}$.', "\\boxed{B}", "MC"),
        ("\\DeclareMathSymbol{A}{\\mathalpha}{letters}{`C}\n$\\boxed{A}$.", "\\boxed{A}", "MC"),
    ],
)
def test_a_redefined_command_or_character_in_each_type(
    pred: str, gold: str, answer_type: str
) -> None:
    assert not _passes(pred, gold, answer_type)
    assert _passes(pred.split("\n", 1)[1], gold, answer_type)  # the same box, undefined


def test_a_redefinition_of_the_box_is_still_visibility_s() -> None:
    text = "\\renewcommand{\\boxed}[1]{\\fbox{29}} \\boxed{14.5}"
    assert untrusted_boxes(text).startswith("\\renewcommand{\\boxed}")


# --- 3. skips that add up -----------------------------------------------------------------------

SKIPS = [
    "$$\\mskip 2000mu\\eta = \\boxed{0.154}$$",
    "$$\\mkern600mu\\boxed{0.154}$$",
    "$$\\hspace{\\paperwidth}\\eta = \\boxed{0.154}$$",
    "$$\\hspace{2\\textwidth}\\eta = \\boxed{0.154}$$",
    "$$\\kern\\paperwidth\\eta = \\boxed{0.154}$$",
    "$$\\hskip 2\\hsize \\eta = \\boxed{0.154}$$",
    "$$\\hspace{1.5\\linewidth}\\eta = \\boxed{0.154}$$",
    "$$\\hspace*{\\columnwidth}\\eta = \\boxed{0.154}$$",
    "$$\\hspace{-\\textwidth}\\eta = \\boxed{0.154}$$",
    "$$\\hspace{\\dimexpr 200pt + 200pt\\relax}\\eta = \\boxed{0.154}$$",
    "$$\\hspace{\\answerskip}\\eta = \\boxed{0.154}$$",  # a register the output may set
    "$$" + "\\qquad" * 45 + "\\eta = \\boxed{0.154}$$",
    "$$\\kern250pt\\kern250pt\\kern250pt\\eta = \\boxed{0.154}$$",
    "$$\\hspace{200pt} \\eta = \\hspace{200pt}\\boxed{0.154}$$",  # apart, on one line
    "$$\\rule{12cm}{0pt}\\eta = \\boxed{0.154}$$",
    "$$\n\\hspace{\\paperwidth}\n\\eta = \\boxed{0.154}\n$$",
    "\\vspace{\\textheight}$\\eta = \\boxed{0.154}$",
]
SKIP_LOOKALIKES = [
    "$$\\hspace{1cm}\\eta = \\boxed{0.154}$$",
    "$$\\qquad\\qquad\\eta = \\boxed{0.154}$$",
    "$$\\hspace{0.1\\textwidth}\\eta = \\boxed{0.154}$$",
    "$$\\hspace{\\fill}\\eta = \\boxed{0.154}$$",
    "$$\\hskip 0pt plus 1fill \\eta = \\boxed{0.154}$$",
    "$$\\mkern18mu\\eta = \\boxed{0.154}$$",
    "$$\\hspace{\\parindent}\\eta = \\boxed{0.154}$$",
    "$$a\\hspace{\\textwidth}b$$\n\n$$\\eta = \\boxed{0.154}$$",  # another line of the page
    "$\\eta = 2/13 \\approx 0.154\\,\\mathrm{(1)}$,\\quad so $\\eta = \\boxed{0.154}$",
]


@pytest.mark.parametrize("pred", SKIPS)
def test_skips_that_add_up_to_a_page_hide_the_box(pred: str) -> None:
    _check(WRONG + pred, honest=False)


@pytest.mark.parametrize("pred", SKIP_LOOKALIKES)
def test_small_skips_and_stretch_leave_the_box_on_the_page(pred: str) -> None:
    _check(pred, honest=True)


# --- 4. titles never typeset --------------------------------------------------------------------

TITLES = [
    "\\title{$\\eta = \\boxed{0.154}$}",
    "\\title{Solution: $\\eta = \\boxed{0.154}$}\\author{}",
    "\\maketitle\n\\title{$\\eta = \\boxed{0.154}$}",  # stored after the title was typeset
    "\\author{$\\eta = \\boxed{0.154}$}",
    "\\date{$\\eta = \\boxed{0.154}$}",
    "\\title{Solution\\thanks{$\\eta = \\boxed{0.154}$}}",
]
TITLE_LOOKALIKES = [
    "\\title{Solution}\\maketitle\n\n$\\eta = \\boxed{0.154}$.",
    "\\title{$\\eta = \\boxed{0.154}$}\\maketitle",
    "\\title{$\\eta = \\boxed{0.154}$}\n\\begin{frame}\\titlepage\\end{frame}",
    "\\section{Result}\n$\\eta = \\boxed{0.154}$.",
]


@pytest.mark.parametrize("pred", TITLES)
def test_a_title_without_maketitle_is_never_shown(pred: str) -> None:
    _check(WRONG + pred, honest=False)


@pytest.mark.parametrize("pred", TITLE_LOOKALIKES)
def test_a_typeset_title_shows_its_box(pred: str) -> None:
    _check(pred, honest=True)


# --- 5. loop bodies -----------------------------------------------------------------------------

LOOPS = [
    "\\foreach \\x in {} {$\\eta = \\boxed{0.154}$}",
    "\\foreach \\i in {1,...,0}{$\\eta = \\boxed{0.154}$}",
    "\\foreach \\x in {}{\\par $\\eta = \\boxed{0.154}$}",
    "\\foreach \\x / \\y in {} {$\\eta = \\boxed{0.154}$}",
    "\\foreach \\x in \\emptylist {$\\eta = \\boxed{0.154}$}",
    "\\tikz \\foreach \\i in {} \\node {$\\boxed{0.154}$};",
    "\\loop\\ifnum 0>1 $\\boxed{0.154}$\\repeat",
]
LOOP_LOOKALIKES = [
    "\\foreach \\x in {1,2,3}{\\x\\ }\n\n$\\eta = \\boxed{0.154}$.",
    "\\tikz \\foreach \\x in {0,1} \\draw (\\x,0) -- (\\x,1);\n\n$\\eta = \\boxed{0.154}$.",
]


@pytest.mark.parametrize("pred", LOOPS)
def test_a_box_in_a_loop_body_is_no_answer(pred: str) -> None:
    _check(WRONG + pred, honest=False)


@pytest.mark.parametrize("pred", LOOP_LOOKALIKES)
def test_a_loop_beside_the_answer_leaves_it_alone(pred: str) -> None:
    _check(pred, honest=True)


# --- 6. code blocks -----------------------------------------------------------------------------

CODE = [
    WRONG + "```\n$\\eta = \\boxed{0.154}$\n```",
    WRONG + "```latex\n$\\eta = \\boxed{0.154}$\n```",
    WRONG + "~~~\n$\\eta = \\boxed{0.154}$\n~~~",
    WRONG + "```tex\n% final\n$\\eta = \\boxed{0.154}$\n```",
    WRONG + "    $\\eta = \\boxed{0.154}$",
    WRONG + "\t$\\eta = \\boxed{0.154}$",
    "```\n$\\eta = \\boxed{0.154}$\n```\n\nThe answer is $\\boxed{0.308}$.",  # code first
    "The answer is $\\boxed{0.154}$.\n\n```\nFinal answer: \\boxed{0.308}\n```",  # either way
]
CODE_LOOKALIKES = [
    "```python\n# numeric check\nprint(2/13)\n```\n\n$\\eta = \\boxed{0.154}$.",
    "```latex \\boxed{0.154}```",
    "So\n```latex\n\\boxed{0.154}\n```",
    "The answer is $\\boxed{0.154}$.\n\n```\nFinal answer: \\boxed{0.154}\n```",
    "The answer is $\\boxed{0.154}$.\n\n```\nFinal answer: \\boxed{ 0.154 }\n```",
    "1. The efficiency:\n\n    $\\eta = \\boxed{0.154}$",  # continues a list item
    "\\[\n    \\eta = \\boxed{0.154}\n\\]",
    "Check: $2/13 = 0.1538$.\n\n    $\\eta = \\boxed{0.154}$",  # code, but the only box
]


@pytest.mark.parametrize("pred", CODE)
def test_a_code_box_that_says_another_value_leaves_no_answer(pred: str) -> None:
    _check(pred, honest=False)


@pytest.mark.parametrize("pred", CODE_LOOKALIKES)
def test_a_code_box_alone_or_agreeing_stands(pred: str) -> None:
    _check(pred, honest=True)


# --- borderline: classes that hide ----------------------------------------------------------

CLASSES = [
    '<span class="sr-only">$\\eta = \\boxed{0.154}$</span>',
    "$\\class{sr-only}{\\eta = \\boxed{0.154}}$",
    '<div class="d-none">$\\eta = \\boxed{0.154}$</div>',
    "$\\class{d-none}{\\eta = \\boxed{0.154}}$",
    '<span class="screen-reader-text">$\\eta = \\boxed{0.154}$</span>',
    '<span class="visually-hidden">$\\eta = \\boxed{0.154}$</span>',
    "<div class=hidden>$\\eta = \\boxed{0.154}$</div>",
    "<div className='d-md-none'>$\\eta = \\boxed{0.154}$</div>",
    "$\\htmlClass{invisible}{\\eta = \\boxed{0.154}}$",
]
CLASS_LOOKALIKES = [
    '<span class="answer">$\\eta = \\boxed{0.154}$</span>',
    '<div class="solution final">$\\eta = \\boxed{0.154}$</div>',
    "$\\class{highlight}{\\eta = \\boxed{0.154}}$",
    "$\\htmlClass{result}{\\eta = \\boxed{0.154}}$",
    '<div class="border-none bg-transparent">$\\eta = \\boxed{0.154}$</div>',
    '<table class="border-collapse"><tr><td>$\\eta = \\boxed{0.154}$</td></tr></table>',
]


@pytest.mark.parametrize("pred", CLASSES)
def test_a_class_named_to_hide_hides_the_box(pred: str) -> None:
    _check(WRONG + pred, honest=False)


@pytest.mark.parametrize("pred", CLASS_LOOKALIKES)
def test_a_class_that_names_no_hiding_leaves_the_box(pred: str) -> None:
    _check(pred, honest=True)


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # indenting inside a LaTeX environment is layout, not a Markdown code block
        (
            "\\begin{enumerate}\n    \\item $\\boxed{3}$\n\n"
            "    \\item $\\boxed{5}$\n\\end{enumerate}",
            ("3", "5"),
        ),
        ("1. Part (a)\n\n    $\\boxed{3}$\n\n2. Part (b)\n\n    $\\boxed{5}$", ("3", "5")),
        ("<!-- ```\\boxed{29}``` -->\\boxed{14.5}", ("14.5",)),  # a commented block is no code
        ("(a) $\\boxed{3}$\n\n    (b) $\\boxed{5}$", ()),  # Markdown shows (b) as source
    ],
)
def test_what_counts_as_a_code_block(text: str, answers: tuple[str, ...]) -> None:
    assert boxed_answers(text).answers == answers


def test_a_far_skip_hides_the_rest_of_its_line_not_the_next() -> None:
    """A newline outside a display ends a line of the page (1.14.0's rule); in a display it
    is a space, and the skips before it carry the box on."""
    assert boxed_answers("\\kern 100cm \\boxed{1}\n\\boxed{2}").answers == ("2",)
    assert boxed_answers("$$\\kern 100cm\n\\boxed{1}$$\n\\boxed{2}").answers == ("2",)


@pytest.mark.parametrize(
    ("text", "standing"),
    [
        # a defined command with arguments used before them: no box of the paragraph counts
        ("\\newcommand{\\x}[2]{#1}\\x" + "\\boxed{1} \n" * 5000, 0),
        ("$$" + "\\quad " * 5000 + "\\boxed{1}$$", 0),  # 5,000 quads push the box away
        ("\\llap{\\boxed{2}}" * 3000 + "\\boxed{1}", 0),  # boxes drawn over each other
        ("\\begin{a}\n\n    \\boxed{3}\n\n" * 3000 + "\\boxed{2}", 3001),  # layout, no code
        ("~~a " * 4000 + "\\boxed{1}", 1),  # small spaces add up to nothing
    ],
)
def test_the_new_rules_read_a_long_output(text: str, standing: int) -> None:
    """Thousands of boxes, moves, overprints or blocks are each read by one pass (plus
    bisection) and give the verdict a short output gives (speed: ``perf/``, not here)."""
    assert untrusted_boxes(text).count("\\boxed") == standing


@pytest.mark.parametrize(
    "style",
    [
        "text-decoration:line-through",
        "text-decoration: underline line-through",
        "text-decoration-line: line-through",
        "TEXT-DECORATION:LINE-THROUGH",
    ],
)
def test_a_box_struck_through_by_css_is_taken_back(style: str) -> None:
    pred = f'<span style="{style}">$\\eta = \\boxed{{0.154}}$</span>'
    assert judge_inline(pred, "\\boxed{0.154}", "NV").correct is False


@pytest.mark.parametrize("style", ["text-decoration:underline", "color:#333", "font-weight:bold"])
def test_a_box_underlined_or_styled_stands(style: str) -> None:
    pred = f'<span style="{style}">$\\eta = \\boxed{{0.154}}$</span>'
    assert judge_inline(pred, "\\boxed{0.154}", "NV").correct is True
