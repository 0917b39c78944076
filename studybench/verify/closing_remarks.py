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
    text = after[head.end() if head else 0 :]
    alone = _OWN_PARAGRAPH.match(text)
    if alone is not None:
        text = alone.group("remark")  # "\n\n(upward)": a bracketed paragraph of its own
    remark = _parenthetical(text)
    if remark is None:
        short = _SHORT_PHRASE.match(text)
        if short is not None and _DIRECTION.search(short.group("phrase")):
            remark = short.group("phrase")  # "Upward.", "— Heading up."
        elif _CONTINUES.match(text) is None:
            return None
        else:
            end = _END.search(text)
            remark = text[: end.start() if end else len(text)]
            if len(remark) > _MAX_CHARS:
                return None
    remark = remark.strip(" ,—–-*")
    if not remark or "\\boxed" in remark or "$" in remark or _NOT_A_CLAIM.match(remark):
        return None
    return remark


_READ_CHARS = 200
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
# a value said to be per item: "on each of the four tires", "in each branch", "per lift"; the
# item's noun is the phrase's last word
_PER_ITEM = re.compile(
    r"(?:\b(?:each|every|per|apiece)|\b(?:on|in|for|through|across|at|of)\s+(?:just\s+|only\s+)?"
    r"(?:a\s+single|one))\b(?P<phrase>[^,;:()]*)",
    re.IGNORECASE,
)
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
    r"(?:\b|(?<=\())(?:(?P<first>"
    + _SIGNS
    + r")(?:\s+(?:direction|is|as|being|taken|chosen|defined))*"
    r"(?:\s+(?:as|to\s+be))?[\s-]*(?:the\s+)?(?:=\s*)?" + _POSITIVE + r"(?!\w)"
    r"|positive\s+(?:sense|direction)?\s*(?:is\s+|being\s+|taken\s+|:\s*)?(?:to\s+the\s+|the\s+)?"
    r"(?P<second>" + _SIGNS + r")\b|\+\s*ve\s+(?P<third>" + _SIGNS + r")\b"
    r"|\b[xyz][\s-]*axis\s+(?:pointing|points|directed|positive)\s+(?P<fourth>" + _SIGNS + r")\b)",
    re.IGNORECASE,
)
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
        _sign(next(g for g in m.group("first", "second", "third", "fourth") if g))
        for m in _CONVENTION.finditer(text)
    )


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
    remark = closing_remark(after) or closing_remark(after_unit(after)) or ""
    if _HYPOTHETICAL.search(remark) or re.search(r"\d", remark):
        # "(it would read +4.7 m/s had we taken downward as positive)", "(with up as
        # positive this reads −14.7 m/s)": the value under another convention
        remark = ""
    taken = conventions(box) | conventions(remark)
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
    for group in (("tire", "tyre", "whee"), ("rope", "cabl", "stri", "cord"), ("spri", "coil"))
    for stem in group
}


def _per_item(remark: str, question: str | None) -> bool:
    """Whether ``remark`` says the value is per item of something the question does not
    name ("on each of the four tires" for the force on a car)."""
    match = _PER_ITEM.search(remark)
    if match is None:
        return False
    nouns = _WORD.findall(match.group("phrase"))
    if not nouns:
        return True
    item = nouns[-1]  # "each of the two parallel branches": the branches
    # the question asks per item too ("the normal force on each tire"): its item, maybe
    # spelt otherwise ("tyre") or inflected ("lifts")
    stems = {word_stem(item.casefold())[:4]} | _SAME_ITEM.get(word_stem(item.casefold())[:4], set())
    named = any(
        word.casefold().startswith(stem) for word in _WORD.findall(question or "") for stem in stems
    )
    if match.group(0).casefold().startswith("per"):
        return not named  # "per lift", "per compression": a rate of what the question does
    return not (named and _DISTRIBUTIVE.search(question or ""))


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
    return after if found is None else after[start + found[1] :]


_SCALE_WORD = re.compile(r"(?:thousand|million|billion)\s+", re.IGNORECASE)


def with_closing_remark(box: str, after: str, question: str | None = None) -> str:
    """``box`` with what the remark closing it claims written inside it, as text: the
    directions it names, all of it where it makes the value per item of something the
    question does not name or changes the box's unit ("squared", "per hour"); unchanged
    where it claims none of these."""
    remark = closing_remark(after)
    if remark is None:
        return box
    plain = remark.strip("()")
    if _HAS_UNIT.search(box):
        unit_changed = _unit_changed(box, plain, remark.startswith("("))
        if unit_changed is not None:
            return unit_changed  # "\\boxed{2.0 m/s} per second" is 2.0 m/s^2
    if _VIEWED.search(plain):
        return box  # a viewpoint (:mod:`viewpoints`), not a direction of the value
    if (_UNIT_CHANGE.match(plain) and _HAS_UNIT.search(box)) or _per_item(plain, question):
        claim = remark
    elif conventions(plain) or re.search(r"\d", plain):
        return box  # a convention is read against the question's; a value, as an offer
    else:
        # the direction the remark's first clause names: "upward, balancing the downward
        # weight"; "(into the page; the current runs upward)" names none of the value's
        first = _DIRECTION.search(re.split(r"[;,]|\b(?:while|whereas|since|because)\b", plain)[0])
        claim = first.group(0) if first else ""
    if not claim:
        return box
    return f"{box}\\text{{ {claim.replace('{', '(').replace('}', ')')}}}"
