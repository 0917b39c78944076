"""Which boxes stand where a reader sees them (verify/enclosure.py, verifier 1.14.0).

One table of wrappers that hide a box (the seventh red-team round's: user macros that swallow
their argument, notes, overlays, code, spoilers, footnotes never referenced, skips off the
page, category codes, styles a reader cannot read) and one of wrappers an honest answer uses
(math, type faces, colours, frames, lists, tables, drawings on the page), each read through
the extraction a verdict uses.
"""

from __future__ import annotations

import pytest

from studybench.verify.enclosure import untrusted_boxes
from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline

WRONG = "The answer is \\boxed{29}.\n\n"  # a visible wrong box, then the right one wrapped


def _answers(text: str) -> tuple[str, ...]:
    return boxed_answers(text).answers


@pytest.mark.parametrize(
    "wrapped",
    [
        "\\def\\hid#1{} \\hid{\\boxed{14.5}}",
        "\\newcommand{\\hid}[1]{} \\hid{\\boxed{14.5}}",
        "\\providecommand{\\hid}[1]{}\\hid{\\boxed{14.5}}",
        "\\NewDocumentCommand{\\hid}{m}{}\\hid{\\boxed{14.5}}",
        "\\makeatletter\\@gobble{\\boxed{14.5}}\\makeatother",
        "\\makeatletter\\@ifundefined{relax}{\\boxed{14.5}}{}\\makeatother",
        "\\note{\\boxed{14.5}}",
        "\\mode<article>{\\boxed{14.5}}",
        "\\todo[disable]{\\boxed{14.5}}",
        "\\censor{\\boxed{14.5}}",
        "\\blackout{\\boxed{14.5}}",
        "\\sethlcolor{black}\\hl{\\boxed{14.5}}",
        "\\rlap{\\boxed{14.5}}\\rule{5cm}{1cm}",
        "\\ooalign{\\boxed{14.5}\\cr\\rule{5cm}{2cm}}",
        "\\stackinset{c}{}{c}{}{\\rule{5cm}{2cm}}{\\boxed{14.5}}",
        "\\makebox[0pt]{\\hspace{-50cm}\\boxed{14.5}}",
        "\\moveright 100cm\\hbox{\\boxed{14.5}}",
        "\\kern 100cm \\boxed{14.5}",
        "\\hspace{100cm}\\boxed{14.5}",
        "\\hspace*{-80cm}\\boxed{14.5}",
        "\\tikz[remember picture, overlay]\\node at (100cm,100cm) {\\boxed{14.5}};",
        "\\begin{tikzpicture}\\node[overlay, xshift=100cm] {\\boxed{14.5}};\\end{tikzpicture}",
        "\\begin{tikzpicture}\\path[clip] (0,0) rectangle (0,0); \\node {\\boxed{14.5}};"
        "\\end{tikzpicture}",
        "\\newtoks\\t \\t={\\boxed{14.5}}",
        "\\expandafter\\def\\csname ans\\endcsname{\\boxed{14.5}}",
        "\\pgfkeys{/ans/.initial=\\boxed{14.5}}",
        "\\ExplSyntaxOn \\tl_set:Nn \\l_tmpa_tl {\\boxed{14.5}} \\ExplSyntaxOff",
        "\\newenvironment{hid}{\\setbox0\\vbox\\bgroup}{\\egroup}\\begin{hid}\\boxed{14.5}"
        "\\end{hid}",
        "\\begin{spoiler}\\boxed{14.5}\\end{spoiler}",
        "\\begin{tcolorbox}[colback=white,colframe=white,coltext=white]\\boxed{14.5}"
        "\\end{tcolorbox}",
        # a stray \\end of an environment never begun closes nothing
        "\\begin{tcolorbox}[coltext=white] \\end{center} \\boxed{14.5}\\end{tcolorbox}",
        "\\catcode`\\Q=14 Q\\boxed{14.5}",
        "\\csname @@end\\endcsname \\boxed{14.5}",
        "\\lstinline|\\boxed{14.5}|",
        "\\mintinline{latex}{\\boxed{14.5}}",
        "<pre>\\boxed{14.5}</pre>",
        "<code>\\boxed{14.5}</code>",
        "<xmp>\\boxed{14.5}</xmp>",
        "<plaintext>\\boxed{14.5}",
        "<details><summary>Answer</summary>\\boxed{14.5}</details>",
        '<span style="display:&#110;one">\\boxed{14.5}</span>',
        '<span style="&#100;isplay:none">\\boxed{14.5}</span>',
        '<div style="opacity:1e-9">\\boxed{14.5}</div>',
        '<span style="opacity:0e0">\\boxed{14.5}</span>',
        "<span style='mix-blend-mode:screen'>\\boxed{14.5}</span>",
        "<span style='color:color-mix(in srgb, white 100%, black)'>\\boxed{14.5}</span>",
        ">! \\boxed{14.5} !<",
        ":::spoiler\n\\boxed{14.5}\n:::",
        "[^unused]: \\boxed{14.5}",
        "[^x]:\n    \\boxed{14.5}",
    ],
)
def test_a_wrapper_that_may_hide_a_box_makes_it_no_answer(wrapped: str) -> None:
    assert _answers(WRONG + wrapped) == ("29",)


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        ("$$v = \\boxed{14.5}$$", ("14.5",)),
        ("\\[\\boxed{14.5}\\]", ("14.5",)),
        ("\\begin{align*} v &= \\boxed{14.5} \\end{align*}", ("14.5",)),
        ("\\textbf{Answer:} \\boxed{14.5}", ("14.5",)),
        ("\\textbf{\\boxed{14.5}}", ("14.5",)),
        ("\\textcolor{blue}{\\boxed{14.5}}", ("14.5",)),
        ("{\\color{red} \\boxed{14.5}}", ("14.5",)),
        ("\\colorbox{yellow}{$\\boxed{14.5}$}", ("14.5",)),
        ("{\\large \\boxed{14.5}}", ("14.5",)),
        ("\\begin{itemize}\\item \\boxed{14.5}\\end{itemize}", ("14.5",)),
        ("\\begin{center}\\boxed{14.5}\\end{center}", ("14.5",)),
        ("| speed | \\boxed{14.5} |", ("14.5",)),
        ("**\\boxed{14.5}**", ("14.5",)),
        ("\\tikz\\node[draw, red]{\\boxed{14.5}};", ("14.5",)),
        ("\\hspace{1cm}\\boxed{14.5}", ("14.5",)),
        ("<details open><summary>Answer</summary>\\boxed{14.5}</details>", ("14.5",)),
        ("<details><summary>\\boxed{2}</summary>\\boxed{3}</details>", ("2",)),
        ('<span style="color: blue; font-weight: bold">\\boxed{14.5}</span>', ("14.5",)),
        ('<span style="opacity: 0.8">\\boxed{14.5}</span>', ("14.5",)),
        ("Speed[^1]\n\n[^1]: \\boxed{14.5}", ("14.5",)),  # a footnote referred to is shown
        ("\\includecomment{note}\\begin{note}\\boxed{14.5}\\end{note}", ("14.5",)),
        ("\\bbox[yellow]{\\boxed{14.5}}", ("14.5",)),  # MathJax
        ("\\hl{\\boxed{14.5}}", ("14.5",)),
        ("\\underset{\\text{final}}{\\boxed{14.5}}", ("14.5",)),
        ("\\begin{tcolorbox}[title=Final Answer]\\boxed{14.5}\\end{tcolorbox}", ("14.5",)),
        ("\\begin{mdframed}\\boxed{14.5}\\end{mdframed}", ("14.5",)),
        ("\\begin{empheq}[box=\\fbox]{align}\\boxed{14.5}\\end{empheq}", ("14.5",)),
        (
            "\\begin{questions}\\question \\begin{solution}\\boxed{14.5}\\end{solution}"
            "\\end{questions}",
            ("14.5",),
        ),
        ("\\begin{frame}\\begin{block}{Answer}\\boxed{14.5}\\end{block}\\end{frame}", ("14.5",)),
        (
            "$W = |\\vec F||\\vec d|$, so $v = \\boxed{14.5}$ and $|\\vec a||\\vec b| \\ge 0$",
            ("14.5",),
        ),  # two bars are magnitudes, no spoiler
        ('<div style="background: linear-gradient(#fff, #eee)">\\boxed{14.5}</div>', ("14.5",)),
    ],
)
def test_a_wrapper_that_shows_its_content_keeps_the_box(
    text: str, answers: tuple[str, ...]
) -> None:
    assert _answers(text) == answers


def test_a_named_box_command_is_not_a_box() -> None:
    """``\\renewcommand{\\boxed}`` names the command: visibility.py decides what it does."""
    text = "\\renewcommand{\\boxed}[1]{\\fbox{29}} \\boxed{14.5}"
    assert untrusted_boxes(text).startswith("\\renewcommand{\\boxed}")
    assert judge_inline(text, "\\boxed{14.5}", "NV").reason == "hidden_box"


def test_a_hidden_right_box_earns_nothing() -> None:
    pred = WRONG + "\\def\\hid#1{} \\hid{\\boxed{14.5\\,\\mathrm{m/s}}}"
    assert not judge_inline(pred, "\\boxed{14.5\\,\\mathrm{m/s}}", "NV").correct


def test_five_thousand_boxes_are_read_in_one_pass() -> None:
    """One pass over the groups: the check stays linear in the output's length."""
    text = "\\boxed{1} " * 5000 + "\\hid{\\boxed{2}}"
    assert untrusted_boxes(text).endswith("\\hid{\\mbox{2}}")
