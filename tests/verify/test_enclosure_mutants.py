"""Edges of which boxes a reader sees (verify/enclosure.py), found unchecked by mutation testing.

Each table is one rule of the module, read through ``untrusted_boxes`` (a box made text becomes
``\\mbox``): which box commands are looked for, where a hiding group or environment starts and
ends, how far a box made text reaches, how far a skip pushes a box off the page, which HTML
styles a reader can read (opacity edges, escapes, computed colours), and where a styled element
ends.
"""

from __future__ import annotations

import pytest

from studybench.verify.enclosure import untrusted_boxes
from studybench.verify.extract import boxed_answers


def _answers(text: str) -> tuple[str, ...]:
    return boxed_answers(text).answers


# ---------------------------------------------------------------------------------------------
# every box command is looked for, alone in the text
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        ("\\hid{\\fbox{1}}", "\\hid{\\mbox{1}}"),
        ("\\hid{\\framebox{1}}", "\\hid{\\mbox{1}}"),
        ("\\hid{\\framebox[2cm]{1}}", "\\hid{\\mbox[2cm]{1}}"),
    ],
)
def test_an_fbox_or_framebox_alone_in_the_text_is_read(text: str, made_text: str) -> None:
    """A text whose only box is an ``\\fbox`` or ``\\framebox`` is still read, not passed over."""
    assert untrusted_boxes(text) == made_text


# ---------------------------------------------------------------------------------------------
# hidden brace groups: the command owning a group, nesting, escapes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        # the hiding command at the very start of the text still owns its group
        ("\\hid{\\boxed{1}}", "\\hid{\\mbox{1}}"),
        ("\\note{\\boxed{1}} and more", "\\note{\\mbox{1}} and more"),
        # a group that shows its content, inside a hiding one, does not unhide what follows it
        ("\\hid{\\textbf{a} \\boxed{1}}", "\\hid{\\textbf{a} \\mbox{1}}"),
        ("\\hid{{a} \\boxed{1}}", "\\hid{{a} \\mbox{1}}"),
        # two hiding groups, one in the other: closing the inner one leaves the outer one
        ("\\hid{\\hid{a} \\boxed{1}}", "\\hid{\\hid{a} \\mbox{1}}"),
    ],
)
def test_a_box_in_a_hiding_group_is_made_text(text: str, made_text: str) -> None:
    assert untrusted_boxes(text) == made_text


@pytest.mark.parametrize(
    "text",
    [
        # a control symbol (one character) right before the closing brace: the group closes
        "\\hid{\\,}\\boxed{2}",
        "\\hid{a\\,}\\boxed{2}",
        "\\hid{a\\\\}\\boxed{2}",
        "\\hid{\\{}\\boxed{2}",
        "\\hid{x\\;} \\boxed{2}",
    ],
)
def test_a_hiding_group_ends_at_its_closing_brace(text: str) -> None:
    """What follows a hiding group is seen, however short the command before its brace."""
    assert untrusted_boxes(text) == text
    assert _answers(text) == ("2",)


# ---------------------------------------------------------------------------------------------
# hiding environments: where they end
# ---------------------------------------------------------------------------------------------


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    "text",
    [
        "\\begin{spoiler}a\\end{spoiler} \\boxed{2}",
        "\\begin{comment}\\boxed{1}\\end{comment}\n\\boxed{2}",
        "\\begin{spoiler}\\begin{center}a\\end{center}\\end{spoiler} \\boxed{2}",
        "\\begin{tcolorbox}[coltext=white]a\\end{tcolorbox} \\boxed{2}",
    ],
)
def test_a_box_after_a_hiding_environment_is_seen(text: str) -> None:
    assert _answers(text) == ("2",)
    assert untrusted_boxes(text).endswith("\\boxed{2}")


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        # an \end of an environment never begun does not close the hiding one
        (
            "\\begin{spoiler} \\end{center} \\boxed{1}\\end{spoiler}",
            "\\begin{spoiler} \\end{center} \\mbox{1}\\end{spoiler}",
        ),
        # an environment begun and ended inside a hiding one leaves the hiding one open
        (
            "\\begin{spoiler}\\begin{center}a\\end{center} \\boxed{1}\\end{spoiler}",
            "\\begin{spoiler}\\begin{center}a\\end{center} \\mbox{1}\\end{spoiler}",
        ),
        (
            "\\begin{hide}\\begin{itemize}\\item a\\end{itemize}\\boxed{1}\\end{hide}",
            "\\begin{hide}\\begin{itemize}\\item a\\end{itemize}\\mbox{1}\\end{hide}",
        ),
    ],
)
def test_a_hiding_environment_stays_open_until_its_own_end(text: str, made_text: str) -> None:
    assert untrusted_boxes(text) == made_text


# ---------------------------------------------------------------------------------------------
# a box made text: exactly the box, up to its own closing brace
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        ("\\hid{\\boxed{1}} \\boxed{2}", "\\hid{\\mbox{1}} \\boxed{2}"),
        (
            "\\begin{spoiler}\\boxed{1}\\end{spoiler} \\boxed{2}",
            "\\begin{spoiler}\\mbox{1}\\end{spoiler} \\boxed{2}",
        ),
        # an empty box, or one whose argument starts with an escaped brace
        (
            "\\begin{spoiler}\\boxed{}\\end{spoiler} \\boxed{2}",
            "\\begin{spoiler}\\mbox{}\\end{spoiler} \\boxed{2}",
        ),
        (
            "\\begin{spoiler}\\boxed{\\{1\\}}\\end{spoiler} \\boxed{2}",
            "\\begin{spoiler}\\mbox{\\{1\\}}\\end{spoiler} \\boxed{2}",
        ),
        ("\\begin{spoiler}\\boxed{}\\end{spoiler}", "\\begin{spoiler}\\mbox{}\\end{spoiler}"),
        # two hidden boxes side by side are both made text
        (
            "\\begin{spoiler}\\boxed{1}\\boxed{2}\\end{spoiler}",
            "\\begin{spoiler}\\mbox{1}\\mbox{2}\\end{spoiler}",
        ),
        ("\\hid{\\boxed{1}\\boxed{2}}", "\\hid{\\mbox{1}\\mbox{2}}"),
        # a hidden box never closed: the rest of the text
        ("\\begin{spoiler}\\boxed{1", "\\begin{spoiler}\\mbox{1"),
        ("\\hid{\\boxed{1} \\boxed{2}", "\\hid{\\mbox{1} \\mbox{2}"),
        # a hidden box whose argument never opens: all that follows it is text
        ("\\hid{\\fbox[1]}} \\fbox[2]", "\\hid{\\mbox[1]}} \\mbox[2]"),
    ],
)
def test_a_hidden_box_is_made_text_up_to_its_closing_brace(text: str, made_text: str) -> None:
    assert untrusted_boxes(text) == made_text


# ---------------------------------------------------------------------------------------------
# several wrappers: a box made text inside another span does not stop the rest being read
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        (
            "<pre>\\hid{\\boxed{1}}</pre> \\hid{\\boxed{2}}",
            "<pre>\\hid{\\mbox{1}}</pre> \\hid{\\mbox{2}}",
        ),
        (
            "\\hid{\\boxed{\\boxed{1}}} \\hid{\\boxed{2}}",
            "\\hid{\\mbox{\\mbox{1}}} \\hid{\\mbox{2}}",
        ),
        (
            ">! \\hid{\\boxed{1}} !< \\begin{spoiler}\\boxed{2}\\end{spoiler}",
            ">! \\hid{\\mbox{1}} !< \\begin{spoiler}\\mbox{2}\\end{spoiler}",
        ),
    ],
)
def test_every_hidden_box_is_made_text_after_nested_spans(text: str, made_text: str) -> None:
    assert untrusted_boxes(text) == made_text


# ---------------------------------------------------------------------------------------------
# skips and tikz lengths: how far is off the page, and how far a skip reaches
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("\\hspace{300pt}\\boxed{1}", True),  # exactly the threshold is off the page
        ("\\kern 300pt \\boxed{1}", True),
        ("\\hspace{299.9pt}\\boxed{1}", False),
        ("\\hspace{10.5cm}\\boxed{1}", False),  # 298.7 pt
        ("\\tikz\\node at (100cm,0) {\\boxed{1}};", True),  # placed far off, no overlay
        ("\\begin{tikzpicture}\\node at (0,-20cm) {\\boxed{1}};\\end{tikzpicture}", True),
        ("\\tikz\\node at (1cm,0) {\\boxed{1}};", False),
    ],
)
def test_a_box_far_off_the_page_is_made_text(text: str, hidden: bool) -> None:
    assert (untrusted_boxes(text) != text) is hidden


@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        (
            "\\hspace{100cm}\\boxed{1}\n\\boxed{2}\nend",
            "\\hspace{100cm}\\mbox{1}\n\\boxed{2}\nend",
        ),
        (
            "\\kern 100cm \\boxed{1}\n\\boxed{2}\n\n\\boxed{3}\n",
            "\\kern 100cm \\mbox{1}\n\\boxed{2}\n\n\\boxed{3}\n",
        ),
    ],
)
def test_a_far_skip_moves_only_the_rest_of_its_line(text: str, made_text: str) -> None:
    assert untrusted_boxes(text) == made_text


# ---------------------------------------------------------------------------------------------
# HTML: code quoting a </summary>, and where a styled element ends
# ---------------------------------------------------------------------------------------------


def test_code_quoting_a_summary_tag_is_code_throughout() -> None:
    """Only a folded ``<details>`` shows what stands before its ``</summary>``."""
    text = "<code>\\boxed{1}</summary></code>"
    assert untrusted_boxes(text) == "<code>\\mbox{1}</summary></code>"


@pytest.mark.parametrize(
    ("text", "made_text"),
    [
        (
            '<span style="opacity:0">\\boxed{1}</span> \\boxed{2}',
            '<span style="opacity:0">\\mbox{1}</span> \\boxed{2}',
        ),
        # the closing tag in other letter case still closes it
        (
            '<span style="opacity:0">\\boxed{1}</SPAN> \\boxed{2}',
            '<span style="opacity:0">\\mbox{1}</SPAN> \\boxed{2}',
        ),
        # a closing tag before the element is not its end
        (
            '<span>a</span> <span style="opacity:0">\\boxed{1}</span>',
            '<span>a</span> <span style="opacity:0">\\mbox{1}</span>',
        ),
        # never closed: the rest of the text
        (
            '<span style="opacity:0">\\boxed{1} \\boxed{2}',
            '<span style="opacity:0">\\mbox{1} \\mbox{2}',
        ),
    ],
)
def test_a_styled_element_hides_up_to_its_closing_tag(text: str, made_text: str) -> None:
    assert untrusted_boxes(text) == made_text


# ---------------------------------------------------------------------------------------------
# styles a reader can read: opacity edges, escapes, computed colours, several declarations
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "readable"),
    [
        ("opacity:0.1", True),  # the threshold itself is visible
        ("opacity:0.15", True),
        ("opacity:0.09", False),
        ("opacity:50%", True),
        ("opacity:10%", True),
        ("opacity:9%", False),
        ("opacity:5%", False),
        ("opacity: var(--o)", False),  # an opacity no reader can tell
        ("opacity: 0 /* 1:1 */", False),
        ("color: blue; opacity: 0", False),  # each declaration is read
        ("opacity: 0.5; color: blue", True),
        ("color:var(--c, url(https://x.org/a:b))", False),
        ("-webkit-text-fill-color: color-mix(in srgb, white 100%, black)", False),
        ("-WEBKIT-TEXT-FILL-COLOR: var(--x)", False),
        ("-webkit-text-fill-color: rgb(0, 0, 0)", True),
        ("display:n\\6f ne", False),  # a CSS escape
        ("color: blue", True),
    ],
)
def test_a_style_a_reader_cannot_read_makes_its_box_text(style: str, readable: bool) -> None:
    text = f'<span style="{style}">\\boxed{{1}}</span>'
    assert (untrusted_boxes(text) == text) is readable
