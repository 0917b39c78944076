"""The sixth red-team round's classes on what a reader sees (verify/visibility.py).

One table per rule, each read through the function that applies it, with the honest forms the
rule must leave alone: arguments that typeset nothing, box registers, the end of the input,
invisible drawing (tikz, transparency, tiny scales and fonts, a dark page), overlays and
excluded environments, HTML fallback content, CSS that hides, hedge words spelt with character
codes, letter-like forms or mirrored, more hedge words, runner-up labels, and a box made a
bound by a relation or by bound words.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import hedged, offers_in_prose

WRONG = "The answer is \\boxed{29}.\n\n"  # a visible wrong box, then the right one hidden


def _answers(text: str) -> tuple[str, ...]:
    return boxed_answers(text).answers


# ---------------------------------------------------------------------------------------------
# hidden content
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (WRONG + "\\label{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\index{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\typeout{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\message{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\write18{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\immediate\\write\\out{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\url{\\boxed{14.5}}", ("29",)),  # verbatim: a box shown as code
        (WRONG + "\\url|\\boxed{14.5}|", ("29",)),
        (WRONG + "\\href{\\boxed{14.5}}{see here}", ("29",)),  # the URL is not shown
        (WRONG + "\\pdfinfo{/Title (\\boxed{14.5})}", ("29",)),
        (WRONG + "\\hypersetup{pdftitle={\\boxed{14.5}}}", ("29",)),
        (WRONG + "\\pdfcomment[icon=Note]{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\tooltip{note}{\\boxed{14.5}}", ("29",)),  # the tip shows on hover only
        (WRONG + "\\texttip{note}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\mathtip{x}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\texorpdfstring{note}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\ref{\\boxed{14.5}}", ("29",)),
        # honest: what these commands do show
        (WRONG + "\\href{https://example.org}{\\boxed{14.5}}", ("29", "14.5")),
        (WRONG + "\\tooltip{\\boxed{14.5}}{the speed}", ("29", "14.5")),
        ("\\begin{equation}\\boxed{14.5}\\label{eq:v}\\end{equation}", ("14.5",)),
        ("By \\eqref{eq:v}, $v = \\boxed{14.5}$ m/s.", ("14.5",)),
        ("See \\url{https://example.org}. \\boxed{14.5}", ("14.5",)),
    ],
)
def test_arguments_that_typeset_nothing_hide_a_box(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (WRONG + "\\sbox{\\mybox}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\sbox\\mybox{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\savebox{\\mybox}[3cm][l]{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\setbox0=\\hbox{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\global\\setbox\\mybox\\vbox{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\begin{lrbox}{\\mybox}\\boxed{14.5}\\end{lrbox}", ("29",)),
        # a register shown later draws a box a macro made: it does not count either
        (WRONG + "\\sbox{\\mybox}{\\boxed{14.5}}\\usebox{\\mybox}", ("29",)),
        # honest: boxes inside boxes that are drawn where they stand
        ("\\mbox{\\boxed{14.5}} m/s", ("14.5",)),
        ("\\hbox{\\boxed{14.5}} m/s", ("14.5",)),
    ],
)
def test_a_box_register_is_stored_not_shown(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (WRONG + "\\stop \\boxed{14.5}", ("29",)),
        (WRONG + "\\bye \\boxed{14.5}", ("29",)),
        (WRONG + "\\end{document*} \\boxed{14.5}", ("29",)),
        (WRONG + "\\enddocument \\boxed{14.5}", ("29",)),
        (WRONG + "\\stoptext \\boxed{14.5}", ("29",)),
        # honest: other environments end, and words that start alike
        (WRONG + "\\end{align*} \\boxed{14.5}", ("29", "14.5")),
        ("\\boxed{14.5}\n\\end{document}", ("14.5",)),
        ("The stopping distance is \\boxed{14.5}", ("14.5",)),
    ],
)
def test_the_end_of_the_input_hides_what_follows(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (WRONG + "\\tikz\\node[opacity=0]{\\boxed{14.5}};", ("29",)),
        (WRONG + "\\tikz\\node[text opacity=0.0]{\\boxed{14.5}};", ("29",)),
        (WRONG + "\\tikz\\node[text=white]{\\boxed{14.5}};", ("29",)),
        (WRONG + "\\tikz\\node[draw, white]{\\boxed{14.5}};", ("29",)),
        (WRONG + "\\tikz\\node[transparent] at (0,0) {\\boxed{14.5}};", ("29",)),
        (
            WRONG + "\\begin{tikzpicture}[opacity=0]\\node{\\boxed{14.5}};\\end{tikzpicture}",
            ("29",),
        ),
        (WRONG + "{\\transparent{0}\\boxed{14.5}}", ("29",)),
        (WRONG + "\\texttransparent{0}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\scalebox{-0}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\scalebox{1e-9}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\scalebox{1}[0]{\\boxed{14.5}}", ("29",)),
        (WRONG + "{\\fontsize{0.01pt}{0pt}\\selectfont \\boxed{14.5}}", ("29",)),
        (WRONG + "{\\fontsize{1sp}{1sp}\\selectfont \\boxed{14.5}}", ("29",)),
        (WRONG + "\\pagecolor{black}\\boxed{14.5}", ()),  # the whole page is dark
        (WRONG + "\\pagecolor[rgb]{0,0,0.1}\\boxed{14.5}", ()),
        (WRONG + "\\resizebox{0.001pt}{!}{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\raisebox{100cm}{\\boxed{14.5}}", ("29",)),  # lifted off the page
        (WRONG + "\\clipbox{0 0 5cm 0}{\\boxed{14.5}}", ("29",)),  # cropped away
        (WRONG + "\\adjustbox{clip, trim=0 0 5cm 0}{\\boxed{14.5}}", ("29",)),
        # honest: visible drawing, readable sizes, a light page
        ("\\tikz\\node[draw, red]{\\boxed{14.5}};", ("14.5",)),
        ("\\tikz\\node[text=black, fill=white]{\\boxed{14.5}};", ("14.5",)),
        ("\\tikz\\node[fill opacity=0.2, fill=blue]{\\boxed{14.5}};", ("14.5",)),
        ("{\\transparent{1}\\boxed{14.5}}", ("14.5",)),
        ("\\scalebox{0.8}{\\boxed{14.5}}", ("14.5",)),
        ("{\\fontsize{12}{14}\\selectfont \\boxed{14.5}}", ("14.5",)),
        ("\\pagecolor{yellow!10}\\boxed{14.5}", ("14.5",)),
        ("\\resizebox{0.5\\linewidth}{!}{\\boxed{14.5}}", ("14.5",)),
        ("\\raisebox{-0.5ex}{\\boxed{14.5}}", ("14.5",)),
        ("\\adjustbox{max width=\\linewidth}{\\boxed{14.5}}", ("14.5",)),
    ],
)
def test_text_drawn_invisible_hides_a_box(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (WRONG + "\\only<2>{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\only{\\boxed{14.5}}<2>", ("29",)),
        (WRONG + "\\uncover<2->{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\visible<3>{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\invisible{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\alt<2>{\\boxed{14.5}}{\\boxed{14.5}}", ("29",)),
        (WRONG + "{\\onslide<2> \\boxed{14.5}}", ("29",)),
        (WRONG + "\\begin{onlyenv}<2>\\boxed{14.5}\\end{onlyenv}", ("29",)),
        (WRONG + "\\excludecomment{hide}\\begin{hide}\\boxed{14.5}\\end{hide}", ("29",)),
        (WRONG + "\\excludeversion{old}\\begin{old}\\boxed{14.5}\\end{old}", ("29",)),
        (WRONG + "\\begin{filecontents}{a.tex}\\boxed{14.5}\\end{filecontents}", ("29",)),
        (WRONG + "\\hcancel{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\hcancel[red]{\\boxed{14.5}}", ("29",)),
        (WRONG + "\\enclose{horizontalstrike}{\\boxed{14.5}}", ("29",)),
        # honest: no overlay spec shows on every slide; an included comment is typeset
        ("\\only{\\boxed{14.5}}", ("14.5",)),
        ("\\includecomment{note}\\begin{note}\\boxed{14.5}\\end{note}", ("14.5",)),
        ("\\enclose{circle}{\\boxed{14.5}}", ("14.5",)),
    ],
)
def test_overlays_and_excluded_environments_hide_a_box(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (WRONG + "<canvas>\\boxed{14.5}</canvas>", ("29",)),
        (WRONG + "<video src='a.mp4'>\\boxed{14.5}</video>", ("29",)),
        (WRONG + "<audio>\\boxed{14.5}</audio>", ("29",)),
        (WRONG + "<object>\\boxed{14.5}</object>", ("29",)),
        (WRONG + "<noembed>\\boxed{14.5}</noembed>", ("29",)),
        (WRONG + "<noframes>\\boxed{14.5}</noframes>", ("29",)),
        (WRONG + "<iframe>\\boxed{14.5}</iframe>", ("29",)),
        (WRONG + "<select><option>a</option><option>\\boxed{14.5}</option></select>", ("29",)),
        (WRONG + "<textarea>\\boxed{14.5}</textarea>", ("29",)),
        (WRONG + "<math><annotation encoding='tex'>\\boxed{14.5}</annotation></math>", ("29",)),
        (WRONG + "<math><annotation-xml>\\boxed{14.5}</annotation-xml></math>", ("29",)),
        # honest: elements whose content is shown
        ("<p>\\boxed{14.5}</p>", ("14.5",)),
        ("<figure>\\boxed{14.5}</figure>", ("14.5",)),
    ],
)
def test_html_fallback_content_hides_a_box(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


def test_words_in_fallback_content_are_still_read() -> None:
    # a hedge in fallback content is seen where the media fails: its box does not count,
    # its words still hedge
    assert boxed_answers("\\boxed{14.5} <object>or maybe 29 m/s</object>").offers == ("29 m/s",)


@pytest.mark.parametrize(
    ("style", "answers"),
    [
        ("filter:opacity(0)", ("29",)),
        ("filter: brightness(100)", ("29",)),
        ("clip-path:inset(100%)", ("29",)),
        ("clip-path: circle(0)", ("29",)),
        ("position:absolute;clip:rect(0 0 0 0)", ("29",)),
        ("text-indent:-9999px;display:block", ("29",)),
        ("position:absolute;left:-9999px", ("29",)),
        ("margin-left: -10000px", ("29",)),
        ("transform: scale(0)", ("29",)),
        ("opacity: 0.05", ("29",)),
        ("opacity: 5%", ("29",)),
        ("color:hsl(0,0%,100%)", ("29",)),
        ("color: hsla(120, 50%, 20%, 0)", ("29",)),
        ("color: rgb(100%, 100%, 100%)", ("29",)),
        ("-webkit-text-fill-color: white", ("29",)),
        ("background: black", ("29",)),
        ("height: 0; overflow: hidden", ("29",)),
        ("font-size: 1px", ("29",)),
        ("visibility: collapse", ("29",)),
        # honest: readable colours and harmless layout
        ("color:hsl(0,0%,10%)", ("29", "14.5")),
        ("color: hsl(240, 100%, 25%)", ("29", "14.5")),
        ("color: #333", ("29", "14.5")),
        ("background: yellow", ("29", "14.5")),
        ("background-color: #f0f0f0; padding: 4px", ("29", "14.5")),
        ("opacity: 1", ("29", "14.5")),
        ("margin-left: -1em", ("29", "14.5")),
        ("font-weight: bold", ("29", "14.5")),
        ("font-size: 12px", ("29", "14.5")),
    ],
)
def test_css_that_hides_hides_a_box(style: str, answers: tuple[str, ...]) -> None:
    assert _answers(WRONG + f"<span style='{style}'>\\boxed{{14.5}}</span>") == answers


# ---------------------------------------------------------------------------------------------
# hedges
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "hedge"),
    [
        (" \\quad \\text{\\char111\\char114} \\quad ", True),
        (' \\quad \\text{\\char"6F\\char"72} \\quad ', True),
        (" \\quad \\text{\\char'157\\char'162} \\quad ", True),
        (" \\quad \\text{\\symbol{111}\\symbol{114}} \\quad ", True),
        (" \\quad \\text{^^6f^^72} \\quad ", True),
        (" \\quad ⓞⓡ \\quad ", True),
        (" \\quad ⒪⒭ \\quad ", True),
        (" \\quad ᵒʳ \\quad ", True),
        (" \\quad oг \\quad ", True),  # a Cyrillic ge read as r
        (" \\quad o\u3164r \\quad ", True),  # a Hangul filler between the letters
        (" \\quad 0r \\quad ", True),  # a zero for the o, with nothing else between
        (" \\quad \\reflectbox{ro} \\quad ", True),
        (" \\quad \\reflectbox{\\text{ebyam}} \\quad ", True),
        (" \\quad \\scalebox{-1}[1]{ro} \\quad ", True),
        (" \u202ero\u202c ", True),  # a right-to-left override shows "or"
        # honest: a character code or a number that spells no hedge
        (" \\quad \\text{\\char65} \\quad ", False),
        (" and ", False),
        (", i.e. 10r = ", False),
        (" \\quad 2\\,\\mathrm{m}^2 \\quad ", False),
    ],
)
def test_hedge_words_are_read_through_character_codes_and_letter_forms(
    gap: str, hedge: bool
) -> None:
    assert hedged(gap) is hedge


@pytest.mark.parametrize(
    ("gap", "hedge"),
    [
        (" \\quad \\text{perchance} \\quad ", True),
        (" \\quad \\text{arguably} \\quad ", True),
        (" \\quad \\text{a.k.a.} \\quad ", True),
        (" aka ", True),
        (" \\quad \\text{of} \\quad ", True),  # Dutch, between two boxes only
        (" \\quad \\text{nebo} \\quad ", True),
        (" \\quad \\text{sau} \\quad ", True),
        (" \\quad \\text{albo} \\quad ", True),
        (" \\quad \\text{tai} \\quad ", True),
        (" \\quad \\text{ili} \\quad ", True),
        (" \\quad か \\quad ", True),
        (" \\quad \\text{peut-être} \\quad ", True),
        (" \\quad \\text{forse} \\quad ", True),
        (" \\quad \\text{talvez} \\quad ", True),
        (" \\quad \\text{misschien} \\quad ", True),
        (" \\quad \\text{może} \\quad ", True),
        (" \\quad \\text{может быть} \\quad ", True),
        (" \\quad \\text{hay} \\quad ", True),
        (" \\quad \\text{yoki} \\quad ", True),
        # honest: the same short words inside English prose join nothing
        (" is half of ", False),
        (", so the hay bale moves at ", False),
        (" for the tai chi student and ", False),
        (" and the energy is ", False),
    ],
)
def test_more_hedge_words_join_two_boxes(gap: str, hedge: bool) -> None:
    assert hedged(gap) is hedge


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        ("\n\nPlan B: 29 m/s.", ("29 m/s",)),
        ("\n\nRunner-up: 29 m/s.", ("29 m/s",)),
        ("\n\nSecond choice: D.", ("D",)),
        ("\n\nFallback: d/3.", ("d/3",)),
        ("\n\nBackup answer: (20, 45).", ("(20, 45)",)),
        ("\n\nMy second pick: runs fast.", ("runs fast",)),
        ("\n\nIf that's marked wrong, try 29 m/s.", ("29 m/s",)),
        (" (confidence 40%; 29 m/s is the runner-up).", ("29 m/s",)),
        (" (confidence 40%; (20, 45) is the runner-up).", ("(20, 45)",)),
        (". Runs fast would be my second choice.", ("Runs fast",)),
        ("\n\nThe runner-up is 29 m/s.", ("29 m/s",)),
        ("\n\nMy second choice would be D.", ("D",)),
        ("\n\nIf the grader rejects it, use 29 m/s.", ("29 m/s",)),
        ("\n\nIf that isn't accepted, try 29 m/s.", ("29 m/s",)),
        # honest: labels and conditions that offer nothing
        ("\n\nBackup check: energy conservation gives the same speed.", ()),
        (". If that seems large, recall the drop is 10 m.", ()),
        ("\n\nThe fallback is to use energy conservation.", ()),
        (". The runner-up in the race finishes 2 s later.", ()),
    ],
)
def test_a_runner_up_is_an_offer(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


# ---------------------------------------------------------------------------------------------
# bounds
# ---------------------------------------------------------------------------------------------


def _bound(text: str) -> str | None:
    extraction = boxed_answers(text)
    assert extraction.answers, text  # a bound is still a box: the verifier judges it
    return extraction.bounds[-1]


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("$$\\eta < \\boxed{0.154}$$", "upper"),
        ("$$v \\ge \\boxed{14.5}$$", "lower"),
        ("$$v_2 \\le \\boxed{-30.0}$$", "upper"),
        ("$$v \\geq \\boxed{14.5}$$", "lower"),
        ("$$T \\lesssim \\boxed{245}$$", "upper"),
        ("$$T \\gtrsim \\boxed{245}$$", "lower"),
        ("$$r \\ll \\boxed{0.157}$$", ""),  # much less: no value at all
        ("$$E \\leqslant \\boxed{4.96}$$", "upper"),
        ("$v ≤ \\boxed{14.5}$", "upper"),
        ("v &lt; \\boxed{14.5}", "upper"),
        ("$$\\boxed{14.5} > v$$", "upper"),  # the box bounds v from above
        ("$$\\boxed{14.5} \\ge v_{\\max}$$", "upper"),
        ("$$\\boxed{14.5} < v$$", "lower"),
        # honest: the value claimed, compared with a number, an HTML tag, a Markdown quote
        ("$$v = \\sqrt{rg\\tan\\theta} \\approx \\boxed{14.5}$$", None),
        ("$$v = \\boxed{14.5}$$", None),
        ("$$0 < \\boxed{0.154}$$", None),
        ("$$\\boxed{10^5} \\gg 1$$", None),
        ("<b>\\boxed{B}</b>", None),
        ("> \\boxed{14.5}", None),
        ("so => \\boxed{14.5}", None),
        ("so -> \\boxed{14.5}", None),
    ],
)
def test_a_relation_beside_the_box_makes_it_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("$$\\boxed{14.5\\,\\mathrm{m/s}}\\text{ or less}$$", "upper"),
        ("$$\\boxed{14.5}\\,\\mathrm{m/s}\\text{ at most}$$", "upper"),
        ("\\boxed{14.5} m/s or more.", "lower"),
        ("\\boxed{14.5} m/s (upper bound)", "upper"),
        ("\\boxed{14.5} m/s (lower bound)", "lower"),
        ("\\boxed{14.5} m/s max.", "upper"),
        ("\\boxed{14.5} m/s minimum.", "lower"),
        ("The value must stay below \\boxed{14.5}.", "upper"),
        ("The speed is less than \\boxed{14.5} m/s.", "upper"),
        ("It is at most \\boxed{14.5} m/s.", "upper"),
        ("It is at least \\boxed{14.5} m/s.", "lower"),
        ("The speed is no more than \\boxed{14.5} m/s.", "upper"),  # negated: flipped
        ("The speed is no less than \\boxed{14.5} m/s.", "lower"),
        ("The speed is bounded by \\boxed{14.5} m/s.", "upper"),
        ("The speed never exceeds \\boxed{14.5} m/s.", "upper"),
        ("The speed exceeds \\boxed{14.5} m/s.", "lower"),
        # honest: a noun phrase, a restatement, a unit, a subscript's label, a pointer
        ("The maximum speed is \\boxed{14.5} m/s.", None),
        ("\\boxed{14.5} m/s, or more precisely 14.52 m/s.", None),
        ("\\boxed{92.3\\,\\mathrm{min}}", None),
        ("\\boxed{92.3} min", None),
        ("\\boxed{h_{max} = 2.7R}", None),
        ("The final answer is given below:\n\\boxed{14.5}", None),
        ("As derived above \\boxed{14.5}", None),
        ("Part (b): more than one root exists; the first is \\boxed{1.0} s.", None),
    ],
)
def test_bound_words_make_the_box_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"


@pytest.mark.parametrize(
    ("pred", "question", "correct"),
    [
        (f"The car must go at least {SPEED}.", "Find the minimum speed.", True),
        (f"The car must go at least {SPEED}.", "Find the speed.", False),
        (f"The car must go at most {SPEED}.", "Find the minimum speed.", False),
        (f"The speed never exceeds {SPEED}.", "Find the maximum speed.", True),
        (f"$$v \\ge {SPEED}$$", "Find the minimum speed.", True),
        (f"$$v \\ll {SPEED}$$", "Find the minimum speed.", False),
        (f"{SPEED} or more.", "Find the maximum speed.", False),
        (f"The maximum speed is {SPEED}.", "Find the maximum speed.", True),
    ],
)
def test_a_bound_answers_only_a_question_for_that_extreme(
    pred: str, question: str, correct: bool
) -> None:
    assert judge_inline(pred, SPEED, "NV", question=question).correct is correct
