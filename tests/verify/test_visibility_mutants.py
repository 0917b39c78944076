"""Edges of what a reader sees (verify/visibility.py), found unchecked by mutation testing.

Each table is one rule of the module, read through the box the verifier takes: where a hiding
group's argument starts and ends, which colours a reader can read (the luminance threshold
and its exact edge, mixes, each colour model), which HTML hides its content, how a denial runs
through a list of boxes, when a gap between boxes is a hedge, and which unboxed value the
prose beside the final box offers.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.visibility import hedged, offers_in_prose, without_hidden


def _answers(text: str) -> tuple[str, ...]:
    return boxed_answers(text).answers


# ---------------------------------------------------------------------------------------------
# hidden LaTeX groups: the argument that goes is exactly the group after the command
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # an unbraced box argument is the box itself, not the last group of the text
        (r"\phantom\boxed{1} \boxed{2}", ("2",)),
        (r"\text{a} \boxed{2} \phantom\boxed{1}", ("2",)),
        (r"{\bf Answer:} \phantom\boxed{1} \boxed{2}", ("2",)),
        # an empty group is the whole argument: what follows it is shown
        (r"\hphantom{} \boxed{2}", ("2",)),
        # a braced argument after earlier groups of the text
        (r"\text{a} \phantom{\boxed{1}} \boxed{2}", ("2",)),
        # a hiding command inside one already hidden does not stop the scan
        (r"\phantom{\cancel{a}} \phantom{\boxed{1}} \boxed{2}", ("2",)),
        # \let aliases are removed, and an alias of \boxed is no box
        (r"\let\oldboxed\boxed \boxed{2}", ("2",)),
        (r"\let\b\boxed{1}", ()),
    ],
)
def test_a_hiding_command_hides_exactly_its_argument(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


# ---------------------------------------------------------------------------------------------
# colours: which a reader can read on a white page
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("colour", "visible"),
    [
        # mixes: a named colour at 40 % or more of itself, or mixed with another dark colour
        ("{red!40}", True),
        ("{red!39}", False),
        ("{red!20!black}", True),  # mostly black
        ("{red!20!white}", False),  # mostly white
        ("{red ! 60}", True),  # spaces inside the expression are ignored
        # values: relative luminance under 0.75 is readable, 0.75 and above is not
        ("[HTML]{BFBFBF}", True),  # luminance 0.749
        ("[HTML]{C0C0C0}", False),  # silver: 0.753
        ("[HTML]{C0C0BF}", False),  # 0.7527 (/256 instead of /255 would read 0.7497)
        ("[HTML]{04F3E6}", False),  # luminance exactly 0.75
        ("[HTML]{FF0000}", True),
        ("[HTML]{008000}", True),  # dark green: green weighs 0.7152
        ("[HTML]{00FFFF}", False),  # aqua: blue adds 0.0722 above the threshold
        ("[HTML]{FFC0CB}", False),  # pink
        ("[HTML]{87CEEB}", False),  # sky blue
        ("[HTML]{90EE90}", False),  # light green
        ("[HTML]{E0E0FF}", False),  # lavender: light only with its blue
        ("{#f00}", True),  # three digits: each doubled
        ("{#fff}", False),
        ("{000000}", False),  # no [HTML], no '#': an unknown name (the safe side)
        ("[rgb]{0.75,0.75,0.75}", False),  # exactly at the threshold
        ("[rgb]{0.5,0,0}", True),
        ("[RGB]{192,192,191}", False),  # 0-255 values scale by 255
        ("[RGB]{2,2,2}", True),  # near black in 0-255
        ("[rgb255]{128,0,0}", True),
        ("[gray]{0.75}", False),  # exactly at the threshold
        ("[gray]{0.74}", True),
    ],
)
def test_a_colour_hides_its_text_unless_readable_on_white(colour: str, visible: bool) -> None:
    text = rf"\boxed{{2}} \textcolor{colour}{{\boxed{{1}}}}"
    assert _answers(text) == (("2", "1") if visible else ("2",))


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a colour box is read with its model: [HTML]{000000} is black on black
        (r"\colorbox[HTML]{000000}{\boxed{1}} \boxed{2}", ("2",)),
        # readable colours do not stop the scan for later hidden groups
        (r"\colorbox{yellow}{a} \phantom{\boxed{1}} \boxed{2}", ("2",)),
        (r"\textcolor{red}{a} \phantom{\boxed{1}} \boxed{2}", ("2",)),
        (r"\style{color:red}{x} \phantom{\boxed{1}} \boxed{2}", ("2",)),
        # CSS colour on a group (MathJax \style, KaTeX \htmlStyle), read by value
        (r"\style{color:white}{\boxed{1}} \boxed{2}", ("2",)),
        (r"\htmlStyle{color: red}{\boxed{1}}", ("1",)),
        # \textcolor's argument: after spaces, an unbraced box, or a single token
        (r"\textcolor{white} {so \boxed{1}} \boxed{2}", ("2",)),
        (r"\textcolor{white}\boxed{1} \boxed{2}", ("2",)),
        (r"\textcolor{white}x, \boxed{1}", ("1",)),
        (r"\boxed{1} \textcolor{white}", ("1",)),  # at the very end: nothing to paint
    ],
)
def test_colour_commands_hide_only_their_own_argument(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("value", "visible"),
    [
        ("red", True),
        ("white", False),
        ("rgb(128, 0, 0)", True),
        ("rgb(255, 255, 255)", False),
        ("rgb(0, 0, 0, 1)", True),  # an opaque alpha keeps the colour
    ],
)
def test_an_html_colour_is_read_by_value(value: str, visible: bool) -> None:
    text = rf'\boxed{{2}} <span style="color: {value}">\boxed{{1}}</span>'
    assert _answers(text) == (("2", "1") if visible else ("2",))
    font = rf'\boxed{{2}} <font color="{value}">\boxed{{1}}</font>'
    assert _answers(font) == (("2", "1") if visible else ("2",))


# ---------------------------------------------------------------------------------------------
# HTML that hides its content
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # struck out: <del>, <s>, <strike>, in any case, even at the very start
        (r"<s>\boxed{1}</s> \boxed{2}", ("2",)),
        (r"<strike>\boxed{1}</strike> \boxed{2}", ("2",)),
        (r"<DEL>\boxed{1}</DEL> \boxed{2}", ("2",)),
        (r"\boxed{2} <del>\boxed{1}", ("2",)),  # never closed: the rest is hidden
        # each struck-out span ends at its own closing tag
        (r"<s>\boxed{3}</s> <s>\boxed{1}</s> \boxed{2}", ("2",)),
        (r"<del>a</del><del>\boxed{1}</del> \boxed{2}", ("2",)),  # right after another
        (r"<del><b>x</b></del> <del>\boxed{1}</del> \boxed{2}", ("2",)),  # a tag inside
        # a collapsed <details> block is not shown; an open one is
        (r"\boxed{2} <details>\boxed{1}</details>", ("2",)),
        (r"\boxed{2} <details open>\boxed{1}</details>", ("2", "1")),
        (r"\boxed{2} <details OPEN>\boxed{1}</details>", ("2", "1")),
    ],
)
def test_html_hides_struck_out_and_collapsed_content(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a "<" inside math is typeset, not a tag: nothing between two maths is hidden
        (r"If $v<c$ then \boxed{1} else $v>c$", ("1",)),
        (r"$\boxed{x<c or x>d}$", ("x<c or x>d",)),  # an inequality in math is no tag
        # a real tag after math still hides exactly its own content, and no more
        (r"$x<y$, so \boxed{2} <del>\boxed{1}</del>", ("2",)),
        (r"$x<y$, so <del>\boxed{1}</del>\boxed{2}", ("2",)),
        # a real HTML element inside math is still read (a renderer reads HTML first)
        (r"\boxed{2} $<del>\boxed{1}</del>$", ("2",)),
    ],
)
def test_math_is_not_read_as_html(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


def test_every_hiding_device_in_one_output_is_removed() -> None:
    text = (
        r"50% done ![img](a.png) ~~\boxed{1}~~ `\boxed{3}` <del>\boxed{4}</del> "
        r"% \boxed{5}" + "\n" + r"\boxed{2}"
    )
    assert _answers(text) == ("2",)


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        ("see [the figure](fig.png) above", "fig.png"),  # a link's address
        ("look: ![plot of the data] above", "plot"),  # an image's alt text
    ],
)
def test_markdown_alone_is_cleaned_too(text: str, gone: str) -> None:
    assert gone not in without_hidden(text)
    assert "above" in without_hidden(text)


# ---------------------------------------------------------------------------------------------
# denials: a denial runs through a list of boxes, and stops where the list does
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (r"\boxed{1}, \boxed{2}, \boxed{3} are wrong", ()),
        (r"\boxed{1}, \boxed{2} and \boxed{3} are incorrect", ()),
        (r"It is not \boxed{1}; the roots are \boxed{2}, \boxed{3}", ("2", "3")),
        (r"\boxed{1} is wrong; the roots are \boxed{2}, \boxed{3}", ("2", "3")),
        # prose is read as a reader reads it: across a line break, through \text
        ("\\boxed{2} rather\nthan \\boxed{1}", ("2",)),
        (r"It is \text{not} \boxed{1}", ()),
        (r"It is \text{n}\text{ot} \boxed{1}", ()),
    ],
)
def test_a_denial_covers_its_list_and_no_more(text: str, answers: tuple[str, ...]) -> None:
    extraction = boxed_answers(text)
    assert extraction.answers == answers
    if not answers:
        assert extraction.problem == "disowned_box"


# the prose read after a box ends with its paragraph; a line of crosses below it is a list
@pytest.mark.parametrize(
    ("text", "answers"),
    [
        ("\\boxed{1}\n(incorrect)", ()),  # the next line of the paragraph is read
        ("\\boxed{1}\n\n(incorrect) is what a careless reader writes", ("1",)),
        ("\\boxed{B}\n❌ (C) is too large", ("B",)),
        ("\\boxed{B}\n  ❌ (C) is too large", ("B",)),  # indented
        ("\\boxed{B}\n  (✗) (C) is too large", ("B",)),
        ("\\boxed{B}\n❌ (A) is too small\n❌ (C) is too large", ("B",)),
    ],
)
def test_a_denial_after_a_box_is_read_to_the_paragraph_end(
    text: str, answers: tuple[str, ...]
) -> None:
    assert _answers(text) == answers


# the prose read before a box is its last 80 characters
@pytest.mark.parametrize(
    ("before", "denied"),
    [
        ("Wrong:" + " " * 74, True),  # 80 characters: read whole, "Wrong" opens it
        (
            "So, after checking the units and the sign of the acceleration once more, it is not ",
            True,
        ),
        ("It is not" + " " * 77, True),  # cut right before "not": the word is still read
        ("I had the sign wrong" + " " * 75, False),  # cut before "wrong": no clause's start
    ],
)
def test_the_window_before_a_box_reads_its_edge_as_a_cut(before: str, denied: bool) -> None:
    extraction = boxed_answers(before + r"\boxed{1}")
    assert extraction.answers == (() if denied else ("1",))


# ---------------------------------------------------------------------------------------------
# hedges between boxes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "hedge"),
    [
        ("in the case one, or in case two", True),  # eight words: still a hedge
        ("in the first case one, or in case two", False),  # nine: part of the reasoning
        (r"\text{or}", True),
        (r"\text{o}\text{r}", True),  # letters split across \text groups: one word
        # boxes joined by nothing but an equality both claim the value
        ("=", True),
        (r"\approx", True),
    ],
)
def test_a_hedge_word_counts_within_eight_words(gap: str, hedge: bool) -> None:
    assert hedged(gap) is hedge
    assert boxed_answers(rf"\boxed{{1}} {gap} \boxed{{2}}").hedges == (hedge,)


# ---------------------------------------------------------------------------------------------
# a value offered in prose beside the final box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "offered"),
    [
        # after the box: from the first value sign to the end of its clause
        (r"\boxed{28} or maybe 29 m/s", "29 m/s"),
        (r"\boxed{A} or maybe B", "B"),  # an option letter
        (r"\boxed{5} or maybe 6. I am sure.", "6"),
        (r"\boxed{5} or maybe 6.5 m", "6.5 m"),  # a decimal point ends no clause
        (r"\boxed{5} or maybe 1,000 m, I think", "1,000 m"),  # nor does a thousands comma
        (r"\boxed{5} or maybe -6 m/s", "-6 m/s"),  # offered with its sign
        (r"\boxed{5} or maybe \pm 6", r"\pm 6"),
        # a bracket the remark opened before the box closes after the value: not the value's
        (r"(\boxed{5} or maybe 6)", "6"),
        (r"[\boxed{5} or maybe 6]", "6"),
        (r"(\boxed{5} or maybe 6 m )", "6 m"),
        (r"[(\boxed{5} or maybe 6)]", "6"),
        (r"\boxed{5} or maybe 6 [m]", "6 [m]"),  # the value's own brackets stay
        (r"(\boxed{5} or maybe 6 [m])", "6 [m]"),
        (r"(\boxed{5} or maybe 6 \(\mathrm{m}\))", r"6 \(\mathrm{m}\)"),  # and its math's
        # inline math is offered as written, whichever delimiter
        (r"\boxed{5} or, in other units, $52.2\ \mathrm{km/h}$.", r"52.2\ \mathrm{km/h}"),
        (r"\boxed{5} or maybe \(6\)", "6"),
        (r"\boxed{5} or maybe 6 m, i.e. $6\,\mathrm{m}$", "6 m"),  # the first value wins
        # a value read only in plain prose: an empty offer (the verifier counts it a hedge)
        (r"\boxed{True} or maybe \text{tr}\text{ue}", ""),
        # before the box: the words from the first value sign on
        (r"$29$ or \boxed{30}", "29"),
        (r"$29$, or \boxed{30}", "29"),
        (r"\(29\) or \boxed{30}", "29"),
        (r"It is either B or \boxed{C}", "B"),
        (r"The speed is -14 m/s or \boxed{14}", "-14 m/s"),
        (r"The zoom is 10X, or \boxed{10}", "10X"),
    ],
)
def test_a_hedge_word_beside_the_box_offers_the_value_next_to_it(text: str, offered: str) -> None:
    assert boxed_answers(text).offered == offered


@pytest.mark.parametrize(
    ("text", "offers"),
    [
        (r"After simplifying, we get either \boxed{30}", False),  # a hedge word, no value
        (r"\boxed{28}. Or maybe not", False),
        (r"\boxed{28} or, if you like, 29", True),
        # the value within eight words of the hedge word, in the same clause
        (r"$29$ is what the first method gave me, or \boxed{30}", True),
        (r"$29$ is what the first method gave to me, or \boxed{30}", False),
        (r"I got $29$. Rechecking, or \boxed{30}", False),
    ],
)
def test_a_value_is_offered_only_near_the_hedge_word(text: str, offers: bool) -> None:
    assert (boxed_answers(text).offered is not None) is offers


# ---------------------------------------------------------------------------------------------
# math and boxes are typeset: their "<" opens a tag only for a real HTML element
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a real element in math hides its content up to its own closing tag, no further
        (r"$<span hidden>\boxed{1}</span>$ \boxed{2}", ("2",)),
        (r"\boxed{<span hidden>1</span>2}", ("2",)),
        (r"\boxed{<span style='display:none'>1</span>2}", ("2",)),
        # a box's content that starts with a closing tag: later "<" are read one by one
        (r"\boxed{</span>x<span hidden>1</span>2}", ("</span>x 2",)),
        # an inequality is no tag, at the start of the text, in math, after a nested box
        (r"\boxed{x<c or x>d}", ("x<c or x>d",)),
        (r"\boxed{x<a or x>b}", ("x<a or x>b",)),
        (r"$\boxed{x<a or x>b}$", ("x<a or x>b",)),
        (r"\boxed{\boxed{1}} \boxed{x<a or x>b}", ("1", "x<a or x>b")),
        # an element's name without a tag's end is no tag
        (r"$a<b c$ \boxed{2}", ("2",)),
        # text after a box's closing brace is not typeset: an unknown tag there still hides
        (r"\boxed{2} <foo hidden>\boxed{3}</foo>", ("2",)),
        # a box left open runs to the end of the text, and holds the boxes after it
        (r"\boxed{1 \boxed{2", ()),
        (r"\boxed{1 \boxed{x<2", ()),
    ],
)
def test_math_and_boxes_open_tags_only_for_real_elements(
    text: str, answers: tuple[str, ...]
) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # bare "open" and "hidden" are HTML attributes: the tag in math is read (and dropped)
        (r"$<span open>x$", "$ x$"),
        (r"$<details open>x</details>$", "$ x</details>$"),
        (r"$<span hidden>x</span>$ y", "$ $ y"),
        (r"\boxed{1", r"\boxed{1"),
        # a box left open is typeset to the end of the text, once
        (r"\boxed{x<a or x>b", r"\boxed{x<a or x>b"),
        (r"\boxed{1 \boxed{x<a or x>b", r"\boxed{1 \boxed{x<a or x>b"),
    ],
)
def test_bare_html_attributes_in_math_make_a_tag(text: str, shown: str) -> None:
    assert without_hidden(text) == shown


# ---------------------------------------------------------------------------------------------
# colour values: [RGB] counts 0-255, [rgb] 0-1, CSS rgb() 0-255, an alpha under 0.5 hides
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (r"\textcolor[RGB]{1,1,1}{\boxed{1}}", ("1",)),  # near black on 0-255
        (r"\textcolor[rgb]{1,1,1}{\boxed{1}}", ()),  # white on 0-1
        (r"\textcolor[rgb]{0.5,0.5,0.5}{\boxed{1}}", ("1",)),
        (r"\textcolor[rgb]{2,2,2}{\boxed{1}}", ("1",)),  # a value over 1 means 0-255
        (r"\textcolor[rgb]{1.5,1.5,1.5}{\boxed{1}}", ("1",)),
        (r"\textcolor[rgb]{}{\boxed{1}}", ()),  # no value: not readable
        (r'<span style="color: rgb(1,1,1)">\boxed{1}</span>', ("1",)),  # CSS counts 0-255
        (r'<span style="color: RGB(1,1,1)">\boxed{1}</span>', ("1",)),
        (r'<span style="color: rgb(0,0,0,0)">\boxed{1}</span>', ()),  # transparent
        (r'<span style="color: rgb(0,0,0,0.4)">\boxed{1}</span>', ()),
        (r'<span style="color: rgb(0,0,0,0.5)">\boxed{1}</span>', ("1",)),
        (r'<span style="color: rgb(0,0,0,1)">\boxed{1}</span>', ("1",)),
    ],
)
def test_colour_models_read_their_own_scale(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


# ---------------------------------------------------------------------------------------------
# every value the prose around the final box offers: after it to the sentence end, and before
# it in the hedge word's clause
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "offers"),
    [
        # a unit word after offered math is kept when the math is a bare number
        ("", " or maybe $29$ m/s", ("29 m/s",)),
        ("", r" or maybe \(29\) m/s", ("29 m/s",)),
        # a value's trailing comma is no part of it
        ("", " or maybe 29, or 30", ("29", "30")),
        # the unit written after the box is skipped, and every value after it is read
        ("", " m/s, or maybe 29 or 30", ("29", "30")),
        # a capital hedge word is no unit
        ("", " Or 29", ("29",)),
        ("", " Or 29 maybe 5", ("29", "5")),
        # the sentence ends at a full stop before a capital, or at "!"
        ("", " or maybe 29. Then 30 is out", ("29",)),
        ("", " or maybe! 29", ("29",)),
        # the prose after the box is read to 240 characters
        ("", " or maybe 1 " + "— " * 120 + "or 2", ("1",)),
        # a unit that ends in a capital X is kept whole
        ("", " or maybe 12 PX", ("12 PX",)),
        # values listed right after an offer are offered too, each in turn
        ("", " or maybe 1 and 2 and 3", ("1", "2", "3")),
        ("", " or perhaps 15 m/s, 29 m/s", ("15 m/s", "29 m/s")),
        # before the box: the value right before the hedge word, without the hedge word
        ("either $29$ or $30$ or ", "", ("30",)),
        ("either 29 or ", "", ("29",)),
        # both sides: the values after the box, then those before it
        ("either $29$ or ", " or roughly 15", ("15", "29")),
    ],
)
def test_every_value_offered_around_the_box_is_read(
    before: str, after: str, offers: tuple[str, ...]
) -> None:
    assert offers_in_prose(before, after) == offers


# ---------------------------------------------------------------------------------------------
# a judgement before a box, and a paragraph below it
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a line break ends the clause: "I got" on the line above corrects nothing
        ("I got 5\nWrong answer: \\boxed{1}", ()),
        # a judgement far back in the prose is gone
        (
            "Wrong answer: " + "we take the speed from the energy equation, " * 6 + "\\boxed{1}",
            ("1",),
        ),
        # spacing is no distance: a reader sees a run of spaces as one
        ("Wrong answer:" + " " * 250 + "\\boxed{1}", ()),
        # a following paragraph that is only a judgement, or starts with a cross, denies
        ("\\boxed{1}\n\n(wrong)", ()),
        # the judging paragraph is read on past its own paragraph break
        ("\\boxed{1}\n\n(wrong\n\n)", ()),
        ("\\boxed{1}\n\n❌ this is off", ()),
        ("\\boxed{1}\n\n (❌) off", ()),
        # unless the cross names an option or a value: an elimination list
        ("\\boxed{1}\n\n❌ (C) would need 5", ("1",)),
        ("\\boxed{1}\n\n (❌) (C) needs it", ("1",)),
    ],
)
def test_a_judgement_before_or_a_paragraph_below_denies_the_box(
    text: str, answers: tuple[str, ...]
) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        (r"<dialog>\boxed{1}</dialog> \boxed{2}", ("2",)),
        (r"<DIALOG>\boxed{1}</DIALOG> \boxed{2}", ("2",)),
        (r"<dialog open>\boxed{1}</dialog>", ("1",)),
    ],
)
def test_a_closed_dialog_hides(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


@pytest.mark.parametrize("gap", ["/(", " (right?) "])
def test_a_slash_or_a_question_alone_is_a_hedge(gap: str) -> None:
    assert hedged(gap)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # a custom element in math is a tag, its closing tag too
        ("$<my-note hidden>1</my-note> 2$", "$  2$"),
        ("$<my-note hidden>1$", "$ "),
        # data-/aria- attributes without a value are HTML's
        ("$<span data-x>x$", "$ x$"),
        ("$<span DATA-x>x$", "$ x$"),
        ("$<span aria-label>x$", "$ x$"),
        # a "<" in math that opens no tag there opens none with the text after the math
        ("$a<b x=1$ y=2> c", "$a<b x=1$ y=2> c"),
    ],
)
def test_tags_in_math_are_read_by_their_names(text: str, shown: str) -> None:
    assert without_hidden(text) == shown
