"""What a reader sees (verify/visibility.py), round 6: hiding edges mutation testing left open.

Pinned here, one table per helper: how a command's arguments are read (options, overlay
specs, verbatim URLs, their 300-character windows); which commands typeset nothing and how far
that reaches (``\\cite`` variants, beamer overlays, ``\\onslide`` as a switch, the options
between a link's arguments); tikz options and how far a hiding node, picture or style reaches;
switches, scales and boxes at the very start of the text; the size and lift thresholds; CSS
``rgb``/``rgba``/``hsl``/``hsla`` colours by value; excluded environments; and what
``without_hidden`` writes in place of a dark page, a fallback box or a fenced block's code.
"""

from __future__ import annotations

import pytest

from studybench.verify.visibility import (
    _command_arguments,
    _far_length,
    _hiding_tikz,
    _switch_spans,
    _tikz_spans,
    _tiny_box_length,
    _tiny_factor,
    _tiny_length,
    _untypeset_spans,
    _visible_colour,
    _without_excluded,
    without_hidden,
)

_LONG = "a" * 400  # past the 300-character window for a closing "]" or URL delimiter
_EDGE = "a" * 299  # the delimiter lands exactly 300 characters on: outside the window

# ---------------------------------------------------------------------------------------------
# _command_arguments: brace groups, tokens, options and verbatim URLs from a position
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "pos", "count", "arguments"),
    [
        # an overlay spec is skipped only for beamer's overlay commands: \label<x> takes none
        ("\\label <x>{a}", "label", 6, 1, []),
        # options whose "]" is more than 300 characters on are no options: nothing is read
        ("\\label[" + _LONG + "]{x}", "label", 6, 1, []),
        ("\\label[" + _EDGE + "]{x}", "label", 6, 1, []),
        # the first "]" closes the options, not a later one
        ("\\label[a] {b} ]", "label", 6, 1, [(10, 13)]),
        # unclosed options end the reading with no argument (a list, never None)
        ("\\label[", "label", 6, 1, []),
        # trailing whitespace is skipped up to the end, never past it
        ("\\label ", "label", 6, 1, []),
        ("\\url ", "url", 4, 1, []),
        # one space before the group is skipped, and only it
        ("\\label {a}", "label", 6, 1, [(7, 10)]),
        # an unreadable token ends the reading with no argument (a list, never None)
        ("\\label x", "label", 6, 1, []),
        # a control sequence is an argument; a box earlier in the text is not this one
        ("\\boxed{1}\\label\\alpha x", "label", 15, 1, [(15, 21)]),
        # a number is one token (\write18), not a verbatim URL
        ("\\write18{x}", "write", 6, 2, [(6, 8), (8, 11)]),
        # \url followed by a control sequence reads the token, not a verbatim run
        ("\\url\\foo x", "url", 4, 1, [(4, 8)]),
        # \url and \nolinkurl take verbatim delimiters, any character but "\" and "{"
        ("\\nolinkurl|a b| x", "nolinkurl", 10, 1, [(10, 15)]),
        ("\\url XabcX y", "url", 4, 1, [(5, 10)]),
        ("\\url|a| x", "url", 4, 1, [(4, 7)]),
        ("\\url|a|b| x", "url", 4, 1, [(4, 7)]),
        ("\\url||x", "url", 4, 1, [(4, 6)]),
        # an unclosed verbatim URL, or one closed past 300 characters, runs to the text's end
        ("\\url|abc", "url", 4, 1, [(4, 8)]),
        ("\\url|" + _LONG + "| x", "url", 4, 1, [(4, 408)]),
        ("\\url|" + _EDGE + "| x", "url", 4, 1, [(4, 307)]),
    ],
)
def test_command_arguments_are_read_from_their_position(
    text: str, name: str, pos: int, count: int, arguments: list[tuple[int, int]]
) -> None:
    assert _command_arguments(text, name, pos, count) == arguments


# ---------------------------------------------------------------------------------------------
# _untypeset_spans: commands that typeset nothing of an argument, and how far they reach
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        # \cite's variants (\citep) take \cite's arguments
        ("\\citep{a} b", [(0, 9)]),
        # a command at the very start of the text is hidden too
        ("\\label{a} b", [(0, 9)]),
        # a command inside a hidden one is skipped, and the scan goes on after it
        ("\\label{\\ref{a}} \\label{b}", [(0, 15), (16, 25)]),
        ("\\label{a} \\ref{b}", [(0, 9), (10, 17)]),
        # a command without an argument hides itself, and the scan goes on
        ("\\label x \\ref{b}", [(0, 6), (9, 16)]),
        # an overlay command without a spec is shown on every slide; the scan goes on
        ("\\only{a} \\label{b}", [(9, 18)]),
        # \only<2> with no argument hides only itself; \only<2>\alpha hides its token
        ("\\only<2> x", [(0, 5)]),
        ("\\only<2>\\alpha b", [(0, 14)]),
        # \onslide<2> without a group is a switch: the rest of its group (or of the text)
        ("\\onslide<2> a", [(0, 13)]),
        ("{\\onslide<2> a} \\label{b}", [(1, 14), (16, 25)]),
        # \onslide<2>{a} hides its group only
        ("\\onslide<2>{a} b", [(0, 14)]),
        # \href hides its URL and the options between its arguments, not its text
        ("\\href{u}[o]{t}", [(0, 5), (5, 8), (8, 11)]),
        # tikz content is looked at where the text names tikz or \node
        ("\\tikz[opacity=0]{a} b", [(0, 19)]),
        ("\\node[opacity=0]{a} b", [(0, 19)]),
    ],
)
def test_untypeset_commands_hide_their_arguments(text: str, spans: list[tuple[int, int]]) -> None:
    assert list(_untypeset_spans(text)) == spans


# ---------------------------------------------------------------------------------------------
# _hiding_tikz: which tikz options draw text invisible
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "hiding"),
    [
        # a full opacity or scale is read as a factor, not as a colour: it hides nothing
        ("opacity=1", False),
        ("text opacity=1", False),
        ("scale=1", False),
        ("xscale=1", False),
        # a font size below 2 pt in the options hides; a readable one does not
        ("font=\\fontsize{1pt}{2pt}\\selectfont", True),
        ("font=\\fontsize{9pt}{2pt}\\selectfont", False),
    ],
)
def test_tikz_options_that_hide(options: str, hiding: bool) -> None:
    assert _hiding_tikz(options) is hiding


# ---------------------------------------------------------------------------------------------
# _tikz_spans: how far a hiding node, picture, scope or style reaches
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        # a visible node before a hiding one does not stop the scan
        ("\\node{a} \\node[opacity=0]{b} c", [(9, 28)]),
        # a node at the very start of the text
        ("\\node[opacity=0]{a} b", [(0, 19)]),
        # a hiding style hides the rest of the text, past the end of its path
        ("\\tikzset{opacity=0} x; y", [(0, 24)]),
        ("\\tikzstyle{opacity=0} x; y", [(0, 26)]),
        # a hiding picture or scope reaches its own \end, found after it
        ("\\begin{tikzpicture}[opacity=0] a \\end{tikzpicture} b", [(0, 50)]),
        ("\\end{scope} \\begin{scope}[opacity=0] a \\end{scope} b", [(12, 50)]),
        # an unclosed one reaches the text's end
        ("\\begin{scope}[opacity=0] a", [(0, 26)]),
        # a node's name before its text is skipped; its text is the group or box after
        ("\\node[opacity=0] (a) {x} y", [(0, 24)]),
        ("\\node[opacity=0] \\boxed{1} y", [(0, 26)]),
        # without a group, the first ";" after the node ends its path (or the text's end)
        ("\\node[opacity=0] x", [(0, 18)]),
        ("a; \\node[opacity=0] x; y", [(3, 22)]),
        ("\\node[opacity=0] x; y; z", [(0, 19)]),
    ],
)
def test_tikz_spans_reach(text: str, spans: list[tuple[int, int]]) -> None:
    assert list(_tikz_spans(text)) == spans


# ---------------------------------------------------------------------------------------------
# _switch_spans: switches, scales and resized boxes at the very start of the text
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("\\transparent{0} a", [(0, 17)]),
        ("\\scalebox{0}{a} b", [(0, 15)]),
        ("\\resizebox{0pt}{1pt}{a} b", [(0, 23)]),
    ],
)
def test_switches_at_the_start_hide(text: str, spans: list[tuple[int, int]]) -> None:
    assert list(_switch_spans(text)) == spans


# ---------------------------------------------------------------------------------------------
# _tiny_factor, _tiny_length, _tiny_box_length, _far_length: the thresholds, and what is
# unreadable
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "tiny"),
    [
        ("0.1", False),  # 0.1 is the first factor that shows
        ("1 0", False),  # spaces inside are dropped: 10
    ],
)
def test_tiny_factor(spec: str, tiny: bool) -> None:
    assert _tiny_factor(spec) is tiny


@pytest.mark.parametrize(
    ("spec", "tiny"),
    [
        ("2pt", False),  # 2 pt is the first size read
        ("abc", True),  # no length a reader can tell
        ("5zz", True),  # an unknown unit
    ],
)
def test_tiny_length(spec: str, tiny: bool) -> None:
    assert _tiny_length(spec) is tiny


@pytest.mark.parametrize(
    ("spec", "tiny"),
    [
        ("0.001\\linewidth", True),  # a share of a page length below 0.01 is tiny
        ("0.01\\linewidth", False),  # 0.01 of it is not
    ],
)
def test_tiny_box_length(spec: str, tiny: bool) -> None:
    assert _tiny_box_length(spec) is tiny


@pytest.mark.parametrize(
    ("spec", "far"),
    [
        ("100pt", True),  # 100 pt is already off the line
        ("abc", True),  # no length a reader can tell
        ("5zz", True),  # an unknown unit
    ],
)
def test_far_length(spec: str, far: bool) -> None:
    assert _far_length(spec) is far


# ---------------------------------------------------------------------------------------------
# _visible_colour: CSS rgb/rgba/hsl/hsla and xcolor rgb in percent, by value
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "model", "visible"),
    [
        # CSS percent counts 0-100: 75 % grey is luminance 0.75, too light
        ("rgb(75%,75%,75%)", None, False),
        # xcolor rgb is 0-1 even with "%" signs: 1,1,1 is white
        ("1%,1%,1%", "rgb", False),
        # rgba and hsla with full alpha are read like rgb and hsl; alpha 0.5 still shows
        ("rgba(0,0,0,1)", None, True),
        ("hsla(0,0%,0%,1)", None, True),
        ("hsla(0,0%,0%,0.5)", None, True),
        # hsl hue in degrees: 0 is red (readable), 60 yellow (too light), 126 a light green
        ("hsl(0,100%,50%)", None, True),
        ("hsl(60,100%,50%)", None, False),
        ("hsl(126,100%,55%)", None, False),
        # saturation above 100 % is capped at 100 %: 111 degrees at 150 % is a readable green
        ("hsl(111,150%,50%)", None, True),
        # saturation and lightness in percent
        ("hsl(0,10%,80%)", None, False),
        ("hsl(180,50%,65%)", None, False),
        # a lightness of exactly 75 % is too light
        ("hsl(0,0%,75%)", None, False),
    ],
)
def test_css_colours_are_read_by_value(spec: str, model: str | None, visible: bool) -> None:
    assert _visible_colour(spec, model) is visible


# ---------------------------------------------------------------------------------------------
# _without_excluded: every excluded environment goes, across lines, leaving one space
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # two declared names: either one's environment goes
        ("\\excludecomment{foo}\\excludecomment{bar}\\begin{foo}x\\end{foo} c", "    c"),
        # an environment spanning lines goes whole
        ("\\excludecomment{foo}\\begin{foo}a\nb\\end{foo} c", "   c"),
    ],
)
def test_excluded_environments_go(text: str, shown: str) -> None:
    assert _without_excluded(text) == shown


# ---------------------------------------------------------------------------------------------
# without_hidden: what is written in place of a dark page, a fallback box, a fence's code
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # a dark page: nothing is read, one space is left
        ("\\pagecolor{black} \\boxed{1}", " "),
        # a box in fallback content becomes a plain \mbox
        ("<video>\\boxed{1}</video> \\boxed{2}", "<video>\\mbox{1}</video> \\boxed{2}"),
        # a fenced block keeps its boxes, one space apart
        ("```\n\\boxed{1} \\boxed{2}\n```", " \\boxed{1} \\boxed{2} "),
    ],
)
def test_without_hidden_writes(text: str, shown: str) -> None:
    assert without_hidden(text) == shown
