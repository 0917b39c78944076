"""Verifier 1.12.0's reading of the prose around the final box (verify/visibility.py).

One table per rule, each read through the function that applies it: values offered later in
the prose (the next sentences), offers relative to the box, restatements, ranges and listed
values right after it, hedge words behind markup or spelled otherwise, offers inside the box's
math, two boxes as a range or as answers to two readings, macros, and what no longer hides a
hedge (code spans, CSS classes, a collapsed <details> summary, dark named colours).
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.visibility import hedged, offers_in_prose, without_hidden


def _answers(text: str) -> tuple[str, ...]:
    return boxed_answers(text).answers


# ---------------------------------------------------------------------------------------------
# values offered in the sentences after the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        # the answer "might/could/may/can (also) be" a value
        (". It might also be 0.31.", ("0.31",)),
        (".\n\nIt could also be 29 m/s.", ("29 m/s",)),
        (". The answer may well be 29 m/s, though.", ("29 m/s",)),
        (" is my result. That said, it could equally be 29 m/s.", ("29 m/s",)),
        (". This might also come out to 0.31.", ("0.31",)),
        (". It could also be about 0.31.", ("0.31",)),  # a filler before the value
        (". It could also be written as $1.45\\times10^1$ m/s.", ("1.45\\times10^1 m/s",)),
        # "would" only with the answer as subject; "it would be" speaks of a what-if
        (".\n\nIf the intended reading differs, the answer would be 2.30 V.", ("2.30 V",)),
        (". For a frictionless block it would instead be 29 m/s.", ()),
        # a quantity that "could also" be a value offers it; one that "is" does not
        (". The speed could also be 29 m/s.", ("29 m/s",)),
        (". The energy is 105 J.", ()),
        # another possibility, a source's value, "either this or"
        (". Another possible answer is 30 cm.", ("30 cm",)),
        (".\n\nA second candidate value: 0.31.", ("0.31",)),
        (".\n\nSome textbooks would give 10.2 m/s instead.", ("10.2 m/s",)),
        (". The answer is likely either this or 8.16 m.", ("8.16 m",)),
        # a sentence that opens with a hedge word
        (" is what I get. Alternatively, 0.31.", ("0.31",)),
        (" is what I get. Perhaps it is 0.31.", ("0.31",)),
        (" is the answer.\nOr maybe 0.31.", ("0.31",)),
        # a value called plausible too, right before or a few words before
        (".\n\nI'm not completely sure; 31.6 N/m is also plausible.", ("31.6 N/m",)),
        (" though 29 m/s is possible too", ("29 m/s",)),
        # the value must follow at once: "be useful to note … 105 J" offers nothing
        (". It might also be useful to note that the kinetic energy is 105 J.", ()),
        (". It could be that the friction is negligible.", ()),
        (". You could also get this from the energy, 105 J.", ()),
        # a what-if: a counterfactual, or a sentence that opens on another setup
        (". If g were 9.81, it could also be 14.6 m/s.", ()),
        (". Without the bank, it could be as low as 0 m/s.", ()),
        (". Under other conditions it might be 29 m/s.", ()),
        # unless the condition is the writer's doubt or the question's reading
        (". If I recall correctly, it could also be 29 m/s.", ("29 m/s",)),
        (". With a different convention it could be 29 m/s.", ("29 m/s",)),
        (". It could be 6.00 cm if the problem intends a different setup.", ("6.00 cm",)),
        # a restatement in other symbols, defined in the same breath
        (". It could also be written as $\\varepsilon/R$ with $\\varepsilon = BLv$.", ()),
        # past the second sentence, within 2,000 characters of prose
        (". Check: the units work out. Depending on it, it might be 30 cm instead.", ("30 cm",)),
        (". " + "Filler words here. " * 30 + "It might also be 0.31.", ("0.31",)),
        (". " + "Filler words here. " * 120 + "It might also be 0.31.", ()),
    ],
)
def test_a_value_offered_in_a_later_sentence_is_read(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


# ---------------------------------------------------------------------------------------------
# a value offered relative to the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        (", or possibly twice that.", ("",)),
        (", or maybe half of it.", ("",)),
        (", or perhaps ten times larger.", ("",)),
        (", or an order of magnitude more.", ("",)),
        (", or its negative.", ("",)),
        (" (or maybe a factor of 2 smaller).", ("2 smaller", "")),  # both judged wrong
        (". It could also be twice that.", ("",)),
        (".\n\nIt might also be the negative of this value.", ("",)),
        # a comparison with something else fills no clause with a relative value
        (", or about twice the speed of a jogger.", ()),
        (". Note that twice this value would be the speed for a larger radius.", ()),
    ],
)
def test_a_value_relative_to_the_box_is_an_offer(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


# ---------------------------------------------------------------------------------------------
# restatements, ranges and listed values right after the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "offers"),
    [
        ("So ", " (\\approx 29 m/s)", ("29 m/s",)),
        ("So ", " m/s, which is 52 km/h.", ("52 km/h",)),
        ("So ", "\\,\\mathrm{m/s} = 1450 cm/s", ("1450 cm/s",)),
        ("So ", ", equivalently 29 m/s", ("29 m/s",)),
        ("So ", "–29 m/s", ("29 m/s",)),
        ("So ", "-9.9\\,\\mathrm{eV}", ("9.9\\,\\mathrm{eV}",)),
        ("So ", " ~ 0.46 s", ("0.46 s",)),
        ("So ", "\\text{--}90\\,\\mathrm{cm}", ("90\\,\\mathrm{cm}",)),
        ("So ", " V to 5.3 V", ("5.3 V",)),
        ("So ", " / 29 m/s", ("29 m/s",)),
        # a precision, a step of working, a direction in words: no second value
        ("So ", " to three significant figures", ()),
        ("So ", " to 3 s.f.", ()),
        ("So ", " = 2 \\times 7.25", ()),
        # a magnitude, its side between marks
        ("So ", " (i.e. 30.0 cm to the left of lens 2)", ("\u2223left\u222330.0 cm",)),
        ("So ", "~m/s", ()),
        # a second value listed right after the box fills its clause, or a parenthesis holds
        # it under a condition
        ("So ", " and 29 m/s", ("29 m/s",)),
        ("So ", ", 0.308.", ("0.308",)),
        ("So ", " (29 m/s if the other convention is used)", ("29 m/s",)),
        ("So ", " and 2.3 s to complete the turn", ()),
        ("So ", " (1)", ()),
        # in the box's math the rest of the math is the value
        ("$$", " \\Rightarrow \\frac{d}{3}$$", ("\\frac{d}{3}",)),
        ("$$", " \\quad\\text{or equivalently}\\quad \\frac{2}{3}d$$", ("\\frac{2}{3}d",)),
        ("$$", "\\quad\\text{or}\\quad x = \\frac{L}{6}$$", ("x = \\frac{L}{6}",)),
        ("$$", "\\qquad(\\text{or } 29\\,\\mathrm{m/s})$$", ("29\\,\\mathrm{m/s}",)),
        # once the box's math has closed, the prose is read as prose
        ("$", "$\n\nAlternatively, using energy conservation gives $14.5$ as well.", ("14.5",)),
    ],
)
def test_a_value_right_after_the_box_is_read(
    before: str, after: str, offers: tuple[str, ...]
) -> None:
    assert offers_in_prose(before, after) == offers


# ---------------------------------------------------------------------------------------------
# hedge words behind markup, entities, look-alikes, other languages
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "offers"),
    [
        ("$$", "\\;\\text{or}\\;29\\,\\mathrm{m/s}$$", ("29\\,\\mathrm{m/s}",)),
        ("So ", " _or_ D", ("D",)),
        ("So ", "\\hspace{1em}or 29", ("29",)),
        ("So ", "\\enspace or maybe 29", ("29",)),
        ("So ", " \\mbox{ or 29}", ("29",)),
        ("So ", "\\rlap{ or 29 m/s}", ("29 m/s",)),
        ("So ", "… or maybe 29", ("29",)),
        ("So ", " → or 29", ("29",)),
        ("So ", "\\footnote{Or B.}", ("B",)),
        ("So ", " \\tag{or \\text{B}}$$", ("B",)),
        ("So ", " `or B`", ("B",)),
        ("So ", " <b>or</b> 29", ("29",)),
        ("So ", " \\class{alt}{or} 29", ("29",)),
        ("So ", " \\textcolor{DimGray}{(or maybe 29 m/s)}", ("29 m/s",)),
        ("So ", "\n[^1]: or perhaps 29 m/s", ("29 m/s",)),
        ("So ", " &#111;r 29", ("29",)),
        ("So ", " &#x6f;&#x72; 29", ("29",)),
        ("So ", "\u2062or 29", ("29",)),
        ("So ", " o\u2062r 29", ("29",)),
        ("So ", " \uff4f\uff52 29", ("29",)),  # full-width
        ("So ", " \U0001d5c8\U0001d5cb 29", ("29",)),  # mathematical sans-serif
        ("So ", " \u03bfr 29", ("29",)),  # a Greek omicron
        ("So ", " quizás 29", ("29",)),
        ("So ", " vielleicht 29", ("29",)),
        ("So ", " या 29", ("29",)),
        ("So ", " (alt. 29 m/s)", ("29 m/s",)),
        ("So ", " resp. 29 m/s", ("29 m/s",)),
        ("So ", " (conceivably 29 m/s)", ("29 m/s",)),
        ("So ", ", but perhaps 291 K.", ("291 K",)),
        ("So ", "\\,\\text{?}", ("",)),  # a box put as a question
        # before the box, spacing after the hedge word
        ("$29\\,\\mathrm{m/s}$ or\\hspace{0.5em}", "", ("29\\,\\mathrm{m/s}",)),
        ("B~or~", "", ("B",)),
        # "otherwise stated" restates
        ("So ", " yr. Otherwise stated, the planet completes 0.571 orbits a year.", ()),
    ],
)
def test_a_hedge_word_is_read_through_markup_and_spelling(
    before: str, after: str, offers: tuple[str, ...]
) -> None:
    assert offers_in_prose(before, after) == offers


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        (", or 1,450 cm/s.", ("1,450 cm/s",)),  # a thousands comma is part of the number
        (". Or perhaps 0.31, depending on the convention.", ("0.31",)),  # no trailing comma
        (". Or perhaps 1/4.", ("1/4",)),  # a fraction
        (". Or perhaps 6.00 x 10^1 cm.", ("6.00 x 10^1 cm",)),  # an ASCII times sign
    ],
)
def test_an_offered_number_is_read_whole(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


# ---------------------------------------------------------------------------------------------
# two boxes as a range, or as the answers to two readings
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "gap", "hedge"),
    [
        ("", " – ", True),
        ("", " \\ldots ", True),
        ("The answer lies between ", " and ", True),
        ("It ranges from ", " to ", True),
        ("", " and ", False),  # two asked values
        ("The speed changes from ", " to ", False),  # a TUP's two states
        ("- Interpretation A: ", "\n- Interpretation B: ", True),
        ("If the first interpretation is meant: ", ". If the second: ", True),
        ("### Case 1 (the other reading of the problem)\n", "\n\n### Case 2\n", True),
        ("Depending on the convention, ", " (convention 1) and ", True),
        ("Case 1: ", "\nCase 2: ", False),  # a question's cases, no reading named
        ("", ". Wait, I misread the question. Re-reading it: ", False),  # a revision
    ],
)
def test_two_boxes_as_a_range_or_two_readings_are_hedged(
    before: str, gap: str, hedge: bool
) -> None:
    assert hedged(gap, before) is hedge


# ---------------------------------------------------------------------------------------------
# what no longer hides a hedge, and what a reader sees
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a macro without arguments shows its body where it is used
        ("\\def\\alt{or maybe \\text{D}}\n\\boxed{B} \\alt \\boxed{D}", ("B", "D")),
        # a body with a box is not expanded: the macro's box does not count
        ("\\def\\alt{\\boxed{D}}\n\\boxed{B} \\alt", ("B",)),
        # a CSS class hides nothing
        ("\\htmlClass{answer}{\\boxed{2}}", ("2",)),
        # dark named colours, cmyk and hsb by value
        ("\\textcolor{DimGray}{\\boxed{2}}", ("2",)),
        ("\\textcolor{darkslategrey}{\\boxed{2}}", ("2",)),
        ("\\textcolor[cmyk]{0,0,0,1}{\\boxed{2}}", ("2",)),
        ("\\textcolor[cmyk]{0,0,0,0}{\\boxed{2}}", ()),  # white
        ("\\textcolor[hsb]{0,0,0}{\\boxed{2}}", ("2",)),
        ("\\textcolor[hsb]{0,0,1}{\\boxed{2}}", ()),  # white
        ("\\textcolor[HSB]{0,0,240}{\\boxed{2}}", ()),  # white on HSB's 0-240 scale
        # a collapsed <details> shows its summary
        ("<details><summary>\\boxed{2}</summary>\\boxed{3}</details>", ("2",)),
        ("<details>\\boxed{3}</details>", ()),
        # a link reference hides its own line; a footnote is shown
        ("[x]: https://example.org\n\\boxed{2}", ("2",)),
        ("\\boxed{1}\n[Edit]: Correction: \\boxed{2}", ("1", "2")),
        ("\\boxed{1}\n[comment]: <> (\\boxed{2})", ("1",)),
        # a custom element's closing tag with spaces before ">" ends it (the box after it shows)
        ("<my-note hidden>secret $y</my-note" + " " * 23 + ">$ and \\boxed{5}", ("5",)),
        # malformed numbers in a colour hide, and raise nothing
        ("\\textcolor[gray]{.}{\\boxed{5}}", ()),
        ("\\textcolor[rgb]{1.2.3}{\\boxed{5}}", ()),
        # xcolor's Gray counts 0-15
        ("\\textcolor[Gray]{1}{\\boxed{5}}", ("5",)),
        ("\\textcolor[Gray]{15}{\\boxed{5}}", ()),
    ],
)
def test_what_a_reader_sees(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers


def test_a_code_span_hides_only_a_box() -> None:
    assert without_hidden("a `or b` c") == "a `or b` c"
    assert "boxed" not in without_hidden("a `\\boxed{b}` c")


# ---------------------------------------------------------------------------------------------
# the fifth red-team round: the exemptions read narrowly
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        # a counterfactual only in a conditional; "were"/"had" elsewhere is no what-if
        (". My numbers were rushed, so it could also be 29 m/s.", ("29 m/s",)),
        (". I had some trouble; the answer could also be 29 m/s.", ("29 m/s",)),
        (". If the road were flat, it could be 0 m/s.", ()),
        (". Had the road been flat, it could be 0 m/s.", ()),
        # another setup needs an article: idioms open no setup
        (". For what it's worth, it could also be 29 m/s.", ("29 m/s",)),
        (". With that said, it might also be 29 m/s.", ("29 m/s",)),
        (". For the given data, it could also be 29 m/s.", ("29 m/s",)),
        (". For a frictionless block, it could be 29 m/s.", ()),
        # a definition exempts only a value that uses the defined symbol
        (". It could also be 29 m/s, with g = 9.8 m/s^2.", ("29 m/s",)),
        # wider subjects and constructions
        (". The true value could also be 29 m/s.", ("29 m/s",)),
        (". The speed may well be 29 m/s.", ("29 m/s",)),
        (". However, 29 m/s might also be correct.", ("29 m/s",)),
        (". 29 m/s also seems plausible.", ("29 m/s",)),
        (". Maybe the answer is 29 m/s.", ("29 m/s",)),
        (". One could also get 29 m/s.", ("29 m/s",)),
        (". I would also accept 29 m/s.", ("29 m/s",)),
        (". I can't rule out 29 m/s.", ("29 m/s",)),
        (". Second guess: 29 m/s.", ("29 m/s",)),
        (". Then again, 29 m/s.", ("29 m/s",)),
        (". A different answer, 29 m/s, is also defensible.", ("29 m/s",)),
        (". It could also be closer to 29 m/s.", ("29 m/s",)),
        (". It could also be, I suspect, 29 m/s.", ("29 m/s",)),
        (". It could also be x = 29 m/s.", ("29 m/s",)),
        (". 14.5 m/s is correct.", ()),  # no "also": the box restated
        # a right restatement keeps its unit: the words after it are no unit words
        (". It could also be written as 52.2 km/h when quoting road speeds.", ("52.2 km/h",)),
    ],
)
def test_the_exemptions_are_read_narrowly(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        # a direction in words: a magnitude, judged with either sign
        (", i.e. 29 m/s to the left of the origin.", ("\u2223left\u222329 m/s",)),
        (", i.e. 81.6 cm above the release point.", ("\u2223above\u222381.6 cm",)),
        (", i.e. 30.0 cm left of lens 2.", ("\u2223left\u222330.0 cm",)),
        (" ≈ $d/3$ up to rounding.", ("d/3",)),  # "up to" is no direction
        # an operator needs an operand to be working
        (", i.e. 29 m/s - the value to report.", ("29 m/s",)),
        (" ≈ 29 m/s + small corrections.", ("29 m/s",)),
        (" = 2 \\times 7.25", ()),
        # "otherwise put" restates, and is judged
        (", otherwise put 29 m/s.", ("29 m/s",)),
        ("\n\nOtherwise stated, 29 m/s.", ("29 m/s",)),
        # a listed value called the other possibility
        (", 29 m/s being the other possibility", ("29 m/s",)),
        # the square of the box
        (", or perhaps the square of that.", ("",)),
    ],
)
def test_restatements_right_after_the_box_are_judged(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("So ", after) == offers


@pytest.mark.parametrize(
    ("before", "gap", "hedge"),
    [
        ("anywhere from ", " to ", True),
        ("The value spans ", " to ", True),
        ("It lies from ", " up to ", True),
        ("Roughly ", " to ", True),
        ("Option 1: ", "\nOption 2: ", True),
    ],
)
def test_more_ranges_and_labels_hedge(before: str, gap: str, hedge: bool) -> None:
    assert hedged(gap, before) is hedge


@pytest.mark.parametrize(
    ("text", "answers", "offers"),
    [
        # a macro with one argument, a body with deep braces, a body that names a box
        ("\\newcommand{\\alt}[1]{\\text{ or maybe }#1} \\boxed{B} \\alt{29}", ("B",), ("29",)),
        (
            "\\newcommand{\\alt}{\\text{ or {maybe {\\em 29 m/s}}}}\n\\boxed{B} \\alt",
            ("B",),
            ("29 m/s",),
        ),
        (
            "\\newcommand{\\alt}{\\text{ or maybe 29 }\\vphantom{\\boxed{}}}\n\\boxed{B} \\alt",
            ("B",),
            ("29",),
        ),
        # a box in a code span is code, but the span's words are read
        ("\\boxed{B} `or maybe 29 m/s (not \\boxed{})`", ("B",), ("29 m/s",)),
    ],
)
def test_macros_and_code_spans_show_their_words(
    text: str, answers: tuple[str, ...], offers: tuple[str, ...]
) -> None:
    extraction = boxed_answers(text)
    assert extraction.answers == answers
    assert extraction.offers == offers


@pytest.mark.parametrize(
    "pred",
    [
        # an escaped dollar in closed math leaves the box in prose
        "The fee is $\\$$ 5 and the speed is \\boxed{14.5} m/s = 14.5 m/s, so $v$ is high.",
        # the box's own closing dollar pairs with no later math
        "$\\boxed{14.5}$ m/s, and $52.2$ km/h is also correct.",
    ],
)
def test_dollars_around_the_box_pair_as_a_reader_pairs_them(pred: str) -> None:
    from studybench.verify.verifier import judge_inline

    assert judge_inline(pred, "\\boxed{14.5\\,\\mathrm{m/s}}", "NV").correct


def test_the_later_scan_reads_the_sentence_from_its_first_character() -> None:
    # the box's math closes, then a what-if sentence opens at once: it stays a what-if
    assert offers_in_prose("$", "$ Without the bank, it could be as low as 0 m/s.") == ()
    # a what-if that opens the text right after the box, and a value that opens it
    assert offers_in_prose("", "Without the bank, it could be as low as 0 m/s.") == ()
    assert offers_in_prose("", "29 m/s is also plausible.") == ("29 m/s",)


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        # a one-letter custom element closes it too
        ("<x-a hidden>secret $y</x-a>$ and \\boxed{5}", ("5",)),
        # Gray's 0-15 scale: 11.5 is 0.77, too light
        ("\\textcolor[Gray]{11.5}{\\boxed{5}}", ()),
        ("\\textcolor[Gray]{11}{\\boxed{5}}", ("5",)),
    ],
)
def test_closing_tags_and_gray_levels(text: str, answers: tuple[str, ...]) -> None:
    assert _answers(text) == answers
