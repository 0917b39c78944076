"""A remark that closes the final box is part of the answer it closes.

"\\boxed{4.9\\,\\text{m/s}} (going up)", "\\boxed{826} (milli-newtons)", "\\boxed{9.6\\ \\text{kN}}
on each of the four tires.", "\\boxed{58.8\\,\\text{J}} per kilogram": the words right after
a box, in brackets or continuing its sentence, say what the boxed value is, exactly as the
same words inside the box do. Inside the box they are read (a direction that contradicts the
gold's, a unit of another kind, words that name another quantity make the answer wrong);
after it they were dropped, so any claim could follow a right number (red team r30a: 41
such rows rewarded; r30b: "on each of the four tires", "in each of the two parallel
branches"). The remark is written into the box and judged with it.

Only a remark that closes the box is read: in brackets right after it (or as a bracketed
paragraph of its own right after it), a phrase that continues its sentence in small letters
("upwards", "directed east", ", in the −x direction", "per hour"), or a short phrase of its
own that names a direction ("Upward."), on the box's line or the line right after a
display. Of it, the directions are read (its other words are prose: "(the ball is now
falling)" points down), a value per item of something the question does not ask per item,
a unit in words ("per second" divides, "squared" squares; the unit's own denominator stated
again in brackets, "(per kg)" after J/kg, changes nothing), and a sign convention, against
the question's. A new sentence ("This is the time to land.") or paragraph is prose about the
answer, read by the other rules (:mod:`studybench.verify.revisions`, the offers in prose).
"""

from __future__ import annotations

import re

from studybench.verify.number_words import NUMBER_WORD_VALUES, numbers_in_digits
from studybench.verify.relations import DIRECTION_WORDS, word_stem

# what may come between the box and its remark: spacing, the math's end (with the line
# after a display), a comma or a dash; :mod:`viewpoints` reads its sides after it too
LEAD = re.compile(r"^(?:[ \t]|\\[,;: !]|\\q?quad(?![A-Za-z])|~|\$+\n?|\s*\\\]\n?|\\\)\n?|\*)*")
# a phrase continuing the box's sentence: after a comma or a dash, or a word in small letters
# that opens no clause of its own ("which is …", "so …", "and …" state something else)
_CONTINUES = re.compile(
    r"^(?:[,—–]\s*|-\s+)?(?=[a-zµμΩ°+\-−×])(?!(?:which|that|so|and|but|or|as|where|since|because"
    r"|then|thus|hence|therefore|this|it|i\.e|e\.g|rounded|approximately|to\s+\d|with\s+\d)\b)"
)
# the end of the remark: the sentence's end, a line's end or the next box
_END = re.compile(r"(?:\.(?!\d)|[!?;\n]|\\boxed|\\\[|\$\$)")
_MAX_CHARS = 100
# a remark that restates the value or says how it was rounded, not what it is: "(i.e. 4.9 m/s
# upward)" is read as a restatement by the other rules ("(i.e. directed upward)" is read
# here); "(to 3 s.f.)", "(approximately)"
_NOT_A_CLAIM = re.compile(
    r"^\(?\s*(?:(?:i\.?\s*e\.?|e\.?\s*g\.?|that\s+is)(?=[^)]*\d)|to\s+\d|rounded|approx|about|roughly|exact"
    r"|\d+\s*(?:s\.?\s*f|sig|significant|d\.?\s*p|decimal)|see\s|from\s+(?:eq|equation|step|part)"
    r"|final|answer\b|boxed|as\s+required|as\s+expected|q\.?e\.?d)",
    re.IGNORECASE,
)


def _parenthetical(text: str) -> str | None:
    """The bracketed remark ``text`` opens with, brackets included, or None."""
    if not text.startswith("("):
        return None
    depth = 0
    for index, char in enumerate(text[:_MAX_CHARS]):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return text[: index + 1]
    return None


def closing_remark(after: str) -> str | None:
    """The remark that closes a box, from the text ``after`` it, or None: in brackets right
    after it (or as a paragraph of its own that is nothing else: "\\n\\n*(eastward)*"), a
    phrase continuing its sentence, or a short phrase of its own that names a direction
    ("Upward.", "— Heading up.")."""
    after = _AS_PLAIN.sub(lambda m: _PLAIN[m.group(0)], _TEXT_GROUP.sub(r"\1", after[:_READ_CHARS]))
    head = LEAD.match(after)
    text = _AS_EXPECTED.sub("", after[head.end() if head else 0 :])  # "as expected, pointing west"
    alone = _OWN_PARAGRAPH.match(text)
    if alone is not None:
        text = alone.group("remark")  # "\n\n(upward)": a bracketed paragraph of its own
    remark = _parenthetical(text)
    if remark is None:
        short = _SHORT_PHRASE.match(text)
        if short is not None and _first_direction(short.group("phrase")):
            remark = short.group("phrase")  # "Upward.", "— Heading up."
        elif _CONTINUES.match(text) is None:
            return None
        else:
            end = _END.search(text)
            remark = text[: end.start() if end else len(text)]
            if len(remark) > _MAX_CHARS:
                return None
    remark = remark.strip(" ,—–-*")
    if not remark or "\\boxed" in remark or "$" in remark:
        return None
    if _NOT_A_CLAIM.match(remark) or _NOT_A_CLAIM.match(numbers_in_digits(remark)):
        return None  # "(i.e. fifty-seven kilometres per hour)": a restatement, read as one
    return remark


_READ_CHARS = 200
# words that only agree with the reader before the remark goes on: "as expected, pointing west"
_AS_EXPECTED = re.compile(
    r"^(?:as\s+expected|as\s+required|of\s+course)\s*[,;:—–]\s*(?=\S)", re.IGNORECASE
)
# a remark's own wrapping: a text group, full-width brackets, arrows for directions
_TEXT_GROUP = re.compile(r"\\(?:text|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_PLAIN = {
    "（": "(",
    "）": ")",
    "\\uparrow": "up",
    "\\downarrow": "down",
    "↑": "up",
    "↓": "down",
    "\\leftarrow": "left",
    "\\rightarrow": "right",
    "←": "left",
    "→": "right",
}
_AS_PLAIN = re.compile("|".join(re.escape(k) for k in sorted(_PLAIN, key=len, reverse=True)))
# a bracketed remark that is a paragraph of its own right after the box
_OWN_PARAGRAPH = re.compile(r"^\s*\n\s*\n\s*(?P<remark>\*{0,2}\([^()\n]{1,40}\)\*{0,2})\s*(?:\n|$)")
# a short phrase of its own after the box: up to five words, to its full stop
_SHORT_PHRASE = re.compile(
    r"^[ \t]*[—–-]?[ \t]*(?P<phrase>(?:[A-Za-z][\w-]*[ \t]*){1,5})[.!]?[ \t]*(?:\n|$)"
)


# a remark's words that say where the value points (``relations``' directions): read with
# the box, where they are checked against the gold's ("\\boxed{4.9 m/s} (going up)" for 4.9
# m/s downward); its other words are prose ("(the ball is now falling)" points down)
_DIRECTION = re.compile(
    r"\b(?:" + "|".join(sorted(DIRECTION_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE
)
# "toward the east": the side named after "toward"
_TOWARD_SIDE = re.compile(
    r"\btowards?\s+(?:the\s+)?(?=(?:north|south|east|west|left|right|up|down)\w*\b)", re.IGNORECASE
)


# directions in other words: "skyward", "toward the ground", "opposite to gravity"; the page's
# sides as the phrases the box's own remark is judged by
_OTHER_WORDS = (
    (
        re.compile(
            r"\b(?:sky|heaven)wards?\b|\btowards?\s+the\s+(?:sky|ceiling|roof|zenith)\b"
            r"|\b(?:opposite\s+(?:to\s+)?|against\s+)gravity\b|\bzenith\b",
            re.IGNORECASE,
        ),
        "upward",
    ),
    (
        re.compile(
            r"\b(?:earth|ground)(?:wards?|bound)\b|\btowards?\s+(?:the\s+)?(?:ground|floor|earth(?:['’]s\s+cent(?:er|re))?)\b"
            r"|\bnadir(?:-pointing)?\b",
            re.IGNORECASE,
        ),
        "downward",
    ),
)
_PAGE = re.compile(r"\b(?:into|out\s+of)\s+the\s+(?:page|screen|board|paper)\b", re.IGNORECASE)


def _in_plain_words(text: str) -> str:
    """``text`` with the directions it gives in other words written as direction words."""
    for pattern, word in _OTHER_WORDS:
        text = pattern.sub(word, text)
    return text


def _first_direction(text: str) -> re.Match[str] | None:
    """The first direction ``text`` names (its side of the page, a direction word); of
    "toward the east", the east; of "skyward", up."""
    text = _in_plain_words(text)
    page = _PAGE.search(text)
    word = _DIRECTION.search(_TOWARD_SIDE.sub(lambda m: " " * len(m.group(0)), text))
    return page if page is not None and (word is None or page.start() < word.start()) else word


# a value said to be per item: "on each of the four tires", "in each branch", "per lift"; the
# item's noun is the phrase's last word
_PER_ITEM = re.compile(
    r"(?:\b(?:each|every|per|apiece|individually)|\b(?:on|in|for|through|across|at|by)\s+"
    r"(?:just\s+|only\s+)?(?:a\s+single|one|any(?:\s+(?:one|single|given))?))\b"
    r"(?P<phrase>[^,;:()]*)",
    re.IGNORECASE,
)
# a count of items (more than one) and a question asking for the whole
_COUNT = re.compile(
    r"(?:[2-9]|\d{2,}|"
    + "|".join(word for word, value in NUMBER_WORD_VALUES.items() if value >= 2)
    + r"|several|many|all|both)"
)
_TOTAL = re.compile(r"\b(?:total|altogether|in\s+all|combined|overall)\b", re.IGNORECASE)
_DISTRIBUTIVE = re.compile(r"\b(?:each|every|per|apiece|one|single)\b", re.IGNORECASE)
# a remark that changes the unit of a box that has one: "squared", "thousand" (one per
# item, "per hour", "every second", is read as a value per item)
_UNIT_CHANGE = re.compile(
    r"^(?:squared|cubed|thousand|million|billion|times\s+(?:ten|10))\b", re.IGNORECASE
)
_HAS_UNIT = re.compile(r"[A-Za-zµμΩ°%]|\\(?:mathrm|text|mu|circ|Omega)")
_WORD = re.compile(r"[A-Za-z]{3,}")


# a sign convention: "taking downward as positive", "with up as the positive direction",
# "(right positive)", "positive upward"
_SIGNS = (
    "up|upward|upwards|down|downward|downwards|left|leftward|leftwards|right|rightward"
    "|rightwards|east|eastward|west|westward|north|northward|south|southward|in|out"
    "|into|outward|inward|forward|backward"
)
_POSITIVE = r"(?:positive|\+\s*ve|\+)"
_CONVENTION = re.compile(
    r"(?:\b|(?<=\()|(?=\+))(?:(?P<first>"
    + _SIGNS
    + r")(?:\s+(?:direction|is|as|be|being|taken|chosen|defined|counted|considered|treated))*"
    r"(?:\s+(?:as|to\s+be))?[\s-]*(?:(?:the|my|our)\s+)?(?:=\s*)?" + _POSITIVE + r"(?!\w)"
    r"|positive\s+(?:sense|direction)?\s*(?:is\s+|being\s+|taken\s+|pointing\s+|(?:to\s+)?be\s+|[:=]\s*)?"
    r"(?:to\s+the\s+|the\s+)?"
    r"(?P<second>" + _SIGNS + r")\b|\+\s*ve\s+(?P<third>" + _SIGNS + r")\b"
    r"|\b[xyz][\s-]*axis\s+(?:is\s+)?(?:pointing|points|directed|positive|taken|chosen)\s+(?P<fourth>"
    + _SIGNS
    + r")\b"
    # "(+ downward)": a sign and a direction alone in brackets
    r"|(?<=\()\s*\+\s*(?P<sixth>" + _SIGNS + r")\s*(?=\))"
    # "(x increasing westward)", "(y grows downward)"
    r"|\b[xyz][\s-]*(?:axis\s+)?(?:increasing|increases|grows|growing)\s+(?:to\s+the\s+)?(?P<seventh>"
    + _SIGNS
    + r")\b"
    # an axis's positive end: "Let +x point east", "take the positive x-axis to point up",
    # "with +y upward", "the +x direction is to the right"; "in" only with the page ("the +x
    # direction in Figure 1" names no side)
    r"|(?:\+\s*|\bpositive\s+)[xyz](?![A-Za-z])(?:[\s-]*(?:axis|direction))?"
    r"(?:\s+(?:(?:to\s+)?point(?:s|ing)?|is|be|being|as|directed|taken(?:\s+as)?|chosen(?:\s+as)?))?"
    r"\s+(?:(?:vertically|horizontally|straight)\s+)?(?:to\s+the\s+|the\s+)?(?P<fifth>"
    + _SIGNS.replace("|in|out|into|outward|inward", "")
    + r"|in(?:to)?\s+the\s+page|out\s+of\s+the\s+page)\b)",
    re.IGNORECASE,
)
_CONVENTION_GROUPS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")
# the value's sign: after the label, before its first digit
_SIGNED = re.compile(r"^(?P<head>\s*(?:[^=]{0,40}=\s*)?)(?P<sign>[-+−]?)(?P<number>\s*\d)")


def with_sign_turned(box: str) -> str:
    """``box`` with its value's sign turned round (a value stated under the opposite sign
    convention); unchanged where no number opens its value."""
    match = _SIGNED.match(box)
    if match is None:
        return box
    sign = "" if match.group("sign") in ("-", "−") else "-"
    return f"{match.group('head')}{sign}{match.group('number')}{box[match.end() :]}"


_HYPOTHETICAL = re.compile(r"\b(?:if|had|would|were|could|otherwise)\b", re.IGNORECASE)
_OPPOSITE_SIGN = {
    "up": "down",
    "down": "up",
    "left": "right",
    "right": "left",
    "east": "west",
    "west": "east",
    "north": "south",
    "south": "north",
    "in": "out",
    "out": "in",
    "forward": "backward",
    "backward": "forward",
}


def _sign(word: str) -> str:
    """A direction of a sign convention in its one name ("upward": up, "into": in): the
    name of ``_OPPOSITE_SIGN`` it starts with."""
    word = word.casefold()
    return next((name for name in _OPPOSITE_SIGN if word.startswith(name)), word)


def conventions(text: str) -> frozenset[str]:
    """The directions ``text`` takes as positive."""
    return frozenset(
        _sign(next(g for g in m.group(*_CONVENTION_GROUPS) if g))
        for m in _CONVENTION.finditer(text)
    )


# an axis's name in math of its own: "$+x$"
_AXIS_IN_MATH = re.compile(r"\$\s*([-+−]\s*[xyz])\s*\$")
# a frame other than the answer's: "in an up-positive frame", "under the opposite convention"
_OTHER_FRAME = re.compile(
    r"\b(?:in|under|for)\s+(?:an?|the|another)\s+[\w-]*(?:positive|negative|other|opposite|different)"
    r"[\w-]*\s+(?:frame|convention|system)\b",
    re.IGNORECASE,
)
# the sentence right after the box: "Here I took downward as positive."
_SENTENCE_AFTER = re.compile(r"^(?:[ \t]*[.:]|[ \t]*\n){1,3}[ \t]*(?P<sentence>[^.!?\n]{1,120})")


def _past_lead(after: str) -> str:
    """``after`` past the box's lead (:data:`LEAD`), with the line break the lead took from a
    closing math ("$\\n", "\\]\\n") kept: the next line is a sentence of its own."""
    head = LEAD.match(after)
    end = head.end() if head else 0
    return ("\n" if "\n" in after[:end] else "") + after[end:]


def _next_sentence(after: str) -> str:
    """The sentence that starts right after the box (and its unit), or ""."""
    match = _SENTENCE_AFTER.match(_past_lead(after))
    return match.group("sentence") if match else ""


def against_convention(box: str, after: str, question: str | None) -> bool:
    """Whether the box, or the remark closing it, takes as positive the direction opposite
    to the one the question does ("(taking downward as positive)" where up is positive): a
    signed value then says the opposite of the same number under the question's convention,
    and is read with its sign turned (:func:`with_sign_turned`)."""
    if not question:
        return False
    asked = conventions(question)
    if not asked:
        return False
    after = _AXIS_IN_MATH.sub(r"\1", after)  # "with the $+x$ axis pointing to the left"
    remark = closing_remark(after) or closing_remark(after_unit(after)) or ""
    said = _next_sentence(after_unit(after))  # "Here I took downward as positive."
    taken: frozenset[str] = frozenset()
    for text in (remark, said):
        if not (_HYPOTHETICAL.search(text) or _OTHER_FRAME.search(text) or re.search(r"\d", text)):
            # not "(it would read +4.7 m/s had we taken downward as positive)", "(with up as
            # positive this reads −14.7 m/s)", "(negative in an up-positive frame)": the
            # value under another convention
            taken |= conventions(_in_plain_words(text))  # "(positive: toward the ground)"
    taken |= conventions(box)
    return any(_OPPOSITE_SIGN.get(t) in asked for t in taken) and not taken & asked


_VIEWED = re.compile(r"\b(?:viewed|seen|looking|looked|observer|perspective|view)\b", re.IGNORECASE)
# a remark that writes the box's unit in words: "per second", "squared", "(per kg)"
_PER_UNIT = re.compile(
    r"^(?:per|every|each|a)\s+(?P<shape>(?:square|cubic)\s+)?(?P<unit>[A-Za-zµμΩ°]+)"
    r"(?P<power>\s+(?:squared|cubed))?(?:\s+of\s+[a-z]+)?$",
    re.IGNORECASE,
)
_POWER_WORD = {"squared": "^2", "cubed": "^3"}


def _unit_changed(box: str, remark: str, bracketed: bool) -> str | None:
    """``box`` (a value with a unit) with the unit that the remark after it writes in words
    ("per second", "squared"), where it is one; None where the remark is no unit. The unit's
    own denominator stated again in brackets ("(per kg)" after J/kg) leaves the box as it is;
    spoken on ("2.0 m/s per second", "75 km/h per hour") it divides again, as it says."""
    from studybench.verify.units import is_dimensionless, parse_unit

    lowered = remark.casefold().strip()
    if lowered in _POWER_WORD:
        return box + _POWER_WORD[lowered]  # "4.9 m/s squared": m/s^2, as it is spoken
    match = _PER_UNIT.match(remark.strip())
    if match is None:
        return None
    word = match.group("unit")  # "per kilogram of ice": per kilogram
    unit = parse_unit(word)
    if unit is None or is_dimensionless(unit):
        return None  # "per tire", "per lift", "per cycle": an item (``_per_item``)
    power = {"square": 2, "cubic": 3, "squared": 2, "cubed": 3}.get(
        (match.group("shape") or match.group("power") or "").strip().casefold(), 1
    )
    denominator = box.split("/", 1)[1] if "/" in box else ""
    if bracketed and denominator:
        pieces = re.sub(r"[(){}\\^\d-]", " ", denominator).split()
        restated = bool(pieces) and parse_unit(pieces[0]) == unit
        if restated or word.casefold()[:3] in denominator.casefold():
            return box  # "3.34e5 J/kg (per kg)": the unit's own denominator, stated again
    symbol = format(unit, "~")  # "per second squared": /s^2
    return f"{box}/{symbol}" + (f"^{power}" if power > 1 else "")


# items the textbooks name in several words (the start of each)
_SAME_ITEM = {
    stem: set(group) - {stem}
    for group in (
        ("tire", "tyre", "whee"),
        ("rope", "cabl", "stri", "cord", "stra", "wire"),
        ("spri", "coil"),
        ("pill", "colu", "post", "leg", "supp"),
    )
    for stem in group
}


def _per_item(remark: str, question: str | None) -> bool:
    """Whether ``remark`` says the value is per item of something the question does not
    name ("on each of the four tires" for the force on a car)."""
    match = _PER_ITEM.search(remark)
    if match is None:
        return False
    from studybench.verify.asking import asking_part

    asked = asking_part(question) if question else ""
    if _TOTAL.search(asked):
        return True  # "What total force do the legs exert?" given "Each leg pushes up with 120 N"
    nouns = _WORD.findall(match.group("phrase"))
    if not nouns:  # "individually": per item where the question asks per none
        return not _DISTRIBUTIVE.search(asked)
    item = nouns[-1]  # "each of the two parallel branches": the branches
    # the question asks per item too ("the normal force on each tire"): its item, maybe
    # spelt otherwise ("tyre") or inflected ("lifts")
    stems = {word_stem(item.casefold())[:4]} | _SAME_ITEM.get(word_stem(item.casefold())[:4], set())
    # … and asks per item: a distributive word at most four words before it ("on each of
    # its four tires", "in one cycle"); "A table stands on four legs. What total force …"
    # names the legs but asks for the whole (red team r31a). A rate ("per lift of the
    # barbell") may name another of the question's nouns where it asks per anything ("in
    # one repetition").
    words = re.findall(r"[\w-]+", (question or "").casefold())
    if any(
        word.startswith(stem)
        and any(_DISTRIBUTIVE.fullmatch(w) for w in words[max(0, index - 4) : index])
        for index, word in enumerate(words)
        for stem in stems
    ):
        return False
    named = [i for i, word in enumerate(words) if any(word.startswith(stem) for stem in stems)]
    rate = match.group(0).casefold().startswith("per")
    if not (rate and named):
        return True
    if _TOTAL.search(question or ""):
        return True
    if _DISTRIBUTIVE.search(question or ""):
        return False  # "per lift of the barbell" where it asks "in one repetition"
    # "per lift" where the question lifts once: the value per lift is the value asked; not
    # where it counts the items ("four identical legs") or asks for a total
    counted = any(_COUNT.fullmatch(w) for i in named for w in words[max(0, i - 2) : i])
    return counted


def after_unit(after: str) -> str:
    """The text after a box past the unit written right after it ("\\boxed{15680} N on each
    of the four tires": " on each of the four tires"); unchanged where no unit opens it. The
    StudyBench prompt asks for the unit outside the box, so the remark comes after it."""
    from studybench.verify.numeric import unit_opening

    head = LEAD.match(after)
    start = head.end() if head else 0
    scale = _SCALE_WORD.match(after, start)  # "\\boxed{9.6} thousand newtons"
    if scale is not None:
        start = scale.end()
    found = unit_opening(after[start:])
    if found is None:
        letter = _LETTER_UNIT.match(after, start)  # "\\boxed{4.0} A in each of the two branches"
        return after if letter is None else after[letter.end() :]
    return after[start + found[1] :]


# a unit of one capital letter (ampere, volt, newton …) before a remark's preposition: read as a
# unit there, not as an option or an article ("A in each branch", "N on each tire")
_LETTER_UNIT = re.compile(r"[AVWNJCTKFHS](?=\s+(?:in|on|per|for|through|across|at|of)\s)")
_SCALE_WORD = re.compile(r"(?:thousand|million|billion)\s+", re.IGNORECASE)


_BRACKETED = re.compile(r"\([^()]*\)")


def _inside(remark: str) -> str:
    """A remark without the brackets around the whole of it."""
    return remark[1:-1] if remark.startswith("(") and remark.endswith(")") else remark


_VALUE_IN_REMARK = re.compile(r"\d+(?:\.\d+)?\s*(?P<unit>[A-Za-zΩμµ°%][A-Za-z/^\d]*)")


def _states_value(remark: str) -> bool:
    """Whether a remark gives a value with a unit ("or 120 N on any one leg"): a value
    offered beside the box, judged as offers are, not a claim about the box's value."""
    from studybench.verify.units import parse_unit

    return any(parse_unit(m.group("unit")) is not None for m in _VALUE_IN_REMARK.finditer(remark))


def with_closing_remark(
    box: str, after: str, question: str | None = None, whole: bool = True
) -> str:
    """``box`` with what the remark closing it claims written inside it, as text: the
    directions it names, all of it where it makes the value per item of something the
    question does not name or changes the box's unit ("squared", "per hour"); unchanged
    where it claims none of these. Of an expression (not ``whole``) only a value per item
    is read. A remark past a unit no reader took into a bare box ("\\boxed{4.0} A in each
    of the two branches") is read too."""
    remark = closing_remark(after) or closing_remark(after_unit(after))
    if not whole:  # an expression: only a value per item ("\\boxed{W} on each leg")
        return (
            f"{box}\\text{{ {remark}}}"
            if remark and _per_item(remark.strip("()"), question)
            else box
        )
    if remark is None:
        stated = stated_direction(after, question) if re.search(r"\d", box) else None  # a value's
        return box if stated is None else f"{box}\\text{{ {stated}}}"
    plain = remark.strip("()")
    if _HAS_UNIT.search(box):
        unit_changed = _unit_changed(box, plain, remark.startswith("("))
        if unit_changed is not None:
            return unit_changed  # "\\boxed{2.0 m/s} per second" is 2.0 m/s^2
    if _VIEWED.search(plain):
        return box  # a viewpoint (:mod:`viewpoints`), not a direction of the value
    if (_UNIT_CHANGE.match(plain) and _HAS_UNIT.search(box)) or (
        _per_item(plain, question) and not _states_value(plain)
    ):
        claim = remark
    elif conventions(plain) or re.search(r"\d", _BRACKETED.sub("", _inside(remark))):
        return box  # a convention is read against the question's; a value, as an offer
    else:
        # the direction the remark's first clause names: "upward, balancing the downward
        # weight"; "(into the page; the current runs upward)" names none of the value's
        first = _first_direction(re.split(r"[;,]|\b(?:while|whereas|since|because)\b", plain)[0])
        claim = first.group(0) if first else ""
    if not claim:
        return box
    return f"{box}\\text{{ {claim.replace('{', '(').replace('}', ')')}}}"


# the sentence right after the box that says where the value points: "It points upward.",
# "The force is directed to the left.", "Its direction is east.", "The velocity is downward.",
# "…, and it acts down the slope", a line "Direction: to the left", "By Lenz's law, the current
# flows clockwise" (red team r35)
_DIRECTION_SENTENCE = re.compile(
    r"^(?:[ \t]*[.:]|[ \t]*\n|[ \t]*,[ \t]*and\b){1,3}[ \t]*[*_]*"
    r"(?:(?:So|Thus|Hence|Therefore)\s*,?\s+)?"
    # a clause saying how the direction was found: "By the right-hand rule, the force acts …",
    # "In other words, it pushes …", "Note that, relative to the city, the car ends up …"; no
    # clause of time or condition ("Before the collision, …", "If …, …")
    r"(?P<lead>(?:(?i:by|using|from|applying|according\s+to|per|with|given|since|as|in\s+other\s+words"
    r"|note\s+that|measured\s+from|relative\s+to|following|equivalently|that\s+is|physically"
    r"|geometrically|clearly)\b[^.,;:!?\n\d]{0,70},\s*){1,2})?"
    r"(?:(?:[Ii]t|This|(?:The|Its|its|the)\s+(?:(?:net|resultant|total|induced|final|initial|average|magnetic"
    r"|electric|required)\s+)?(?:direction|sense|(?P<noun>velocity|force|acceleration|field|displacement"
    r"|current|momentum|torque|impulse))(?:\s+(?:on|of|acting\s+on|exerted\s+on)\s+(?:the\s+)?[a-z]+)?)"
    r"(?:\s+(?:therefore|thus|hence|then|also|clearly|indeed))?"
    r"\s+(?:is\s+|was\s+|will\s+be\s+)?(?:points?|pointing|acts?|acting"
    r"|directed|oriented|moves?|moving|heads?|heading|travels?|traveling|travelling|goes|going"
    r"|flows?|flowing|circulates?|circulating|runs?|running"
    # "it pushes the proton to the east": the push's direction
    r"|(?:pushes|pulls|drives|deflects|accelerates)(?:\s+(?:the\s+)?[a-z]+)?"
    r"|(?<=is\s)|(?<=was\s)|(?<=be\s))"
    # a body's motion: "the boat heads west", "the rifle moves forward", "the car ends up east"
    r"|(?:The|the)\s+[a-z]+\s+(?:is\s+)?(?P<body>heads|heading|moves|moving|travels|travelling|traveling"
    r"|recoils|recoiling|ends\s+up)"
    r"|(?:Direction|Heading)[*_]*\s*[:—–][*_]*)\s*(?P<clause>[^.;,:!?\n]{1,60})"
)


_MOTION_ASKED = re.compile(
    r"velocit|displacement|motion|moving|heading|travel|recoil", re.IGNORECASE
)


def stated_direction(after: str, question: str | None = None) -> str | None:
    """The direction the sentence right after a box gives the boxed value ("\\boxed{4.9} m/s.
    It points upward."), or None: a new sentence whose subject is the value (it, this, its
    direction, the velocity, the force …) and whose verb says where it points. Read as a
    remark in brackets would be (red team r31a, r32a: the wrong direction stated in the
    next sentence was rewarded). A clause with a number, a condition or a viewpoint
    states no direction of this value; nor does a sentence about another force ("The normal
    force points up" for the force on the table)."""
    after = _TEXT_GROUP.sub(r"\1", after[:_READ_CHARS])
    match = _DIRECTION_SENTENCE.match(_past_lead(after))
    if match is None:
        return None
    if question:
        from studybench.verify.asking import asking_part

        asked = asking_part(question).casefold()
        noun = match.group("noun")
        if noun is not None and word_stem(noun.casefold())[:5] not in asked:
            return None  # "The velocity is still directed east" where the acceleration is asked
        if match.group("body") is not None and not _MOTION_ASKED.search(asked):
            return None  # "The ball is moving upward" where its acceleration is asked
    clause = match.group("clause")
    if re.search(r"\d", clause) or _HYPOTHETICAL.search(clause) or _VIEWED.search(clause):
        return None
    if _HYPOTHETICAL.search(match.group("lead") or ""):
        return None  # "With the field reversed, it would point …"
    first = _first_direction(re.split(r"\b(?:while|whereas|since|because|but|and)\b", clause)[0])
    return first.group(0) if first else None


# a signed axis named as a direction: "in the −x direction", "along -x", "(+\hat{y})"
_AXIS = re.compile(
    r"(?:(?P<minus>[-−]|\bnegative\s+)|(?P<plus>\+|\bpositive\s+))\s*(?:\\hat\s*\{?\s*)?"
    r"(?P<axis>[xyz])(?![A-Za-z])\}?(?:[\s-]*(?:axis|direction))?"
)


_CONVENTION_WORDS = re.compile(
    r"\b(?:as\s+positive|as\s+negative|tak(?:e|en|ing)|convention|chos(?:e|en)|defin(?:e|ed|ing))\b"
    r"|\+\s*(?:up|down|left|right|east|west|north|south)\b",  # "(+ up, as given)"
    re.IGNORECASE,
)


def directed_sign(box: str, after: str, question: str | None) -> int | None:
    """The sign the direction stated with a value gives it: +1 where the box, the remark
    closing it or the sentence after it names the question's positive direction (or a
    positive axis, "in the +x direction"), -1 where it names the opposite one ("29.4 m/s
    downward" where up is positive, "2.0 m/s², in the −x direction"); None where it names
    none, names a convention of its own (:func:`against_convention` reads it) or the
    question fixes none. A magnitude with its direction is the signed value the gold
    writes (red team r32b: honest "\\\\boxed{29.4} m/s downward" rejected for −29.4 m/s), and
    a negative value said to point the positive way contradicts itself."""
    after = _AXIS_IN_MATH.sub(r"\1", after)  # "in the $-x$ direction"
    stated = after_unit(after)  # past a unit after the box ("m/s^2 in the −x direction")
    remark = (
        closing_remark(stated) or closing_remark(after) or stated_direction(stated, question) or ""
    )
    if _HYPOTHETICAL.search(remark) or re.search(r"\d", remark) or _VIEWED.search(remark):
        remark = ""
    number = re.search(r"\d", box)
    text = _TEXT_GROUP.sub(r"\1", (box[number.end() :] if number else box) + " " + remark)
    if conventions(text) or _VIEWED.search(text) or _CONVENTION_WORDS.search(text):
        return None  # "taking the car's direction of motion (east) as positive"
    axis = _AXIS.search(text)
    if axis is not None:
        return -1 if axis.group("minus") else 1
    named = _first_direction(text)
    return None if named is None else sign_of_direction(named.group(0), question)


def sign_of_direction(direction: str, question: str | None) -> int | None:
    """+1 where ``direction`` ("westward", "down") is the side the question takes as
    positive, -1 where it is the opposite side, None where the question fixes no sign for
    it."""
    asked = conventions(question or "")
    side = _sign(direction)
    if side in asked:
        return 1
    return -1 if _OPPOSITE_SIGN.get(side) in asked else None


def is_negative(box: str) -> bool:
    """Whether the value ``box`` opens with is negative ("-4.9 m/s", "v = −4.9")."""
    match = _SIGNED.match(box)
    return match is not None and match.group("sign") in ("-", "−")
