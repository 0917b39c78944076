"""The reference an angle is measured from: part of its value, never a description.

"30° from the surface" is 60° from the normal, "30° below the horizontal" is no launch above
it, "36.9° north of west" is not 36.9° west of north. A remark after an angle that names its
reference (a line or axis it is measured from, a side of it, or a compass bearing) is a claim:
where the question's asking part says which reference the asked angle is measured from, the
answer's must be that one (on the same side, where the question gives one), and then it
changes nothing and is dropped ("30° with respect to the normal" is 30°); a different one is
``angle_reference`` (red team r24b: 1.24.0 read every such remark as a description and
dropped it). A kind of angle with a conventional line (optics from the normal, a launch from
the horizontal) rules out only the line it is surely not measured from, unless the data
measure from the conventional line too. Where the question names no reference the remark is
left to the other rules.
"""

from __future__ import annotations

import re
from functools import lru_cache

from studybench.verify.asking import MAX_QUESTION_CHARS, asking_part

# the lines an angle is measured from, with the words that name the same line
_SAME_LINE = {
    "horizontal": "horizontal horizon ground floor level",
    "vertical": "vertical plumb zenith upward downward wall upright",
    "normal": "normal perpendicular",
    "surface": "surface boundary interface mirror face plane",
    "north": "north",
    "south": "south",
    "east": "east",
    "west": "west",
    "x-axis": "x-axis",
    "y-axis": "y-axis",
    "z-axis": "z-axis",
    "incline": "incline ramp slope",
}
_LINE_OF = {word: line for line, words in _SAME_LINE.items() for word in words.split()}
_PREPOSITION = (
    # the positive sense of rotation is the convention: "counterclockwise from the x-axis"
    r"(?:(?:counter-?|anti-?)clockwise\s+)?(?:(?:as\s+)?measured\s+)?(?P<side>from|to|with\s+respect\s+to|relative\s+to|with|above"
    r"|below|beneath|under|off|beyond|past"
    # "the angle between the refracted ray and the glass surface" (red team r30b)
    r"|between\s+(?:the\s+|its\s+)?(?:[a-z-]+\s+){1,3}?and)"
)
_LINE_WORDS = "|".join(sorted((w for w in _LINE_OF if "axis" not in w), key=len, reverse=True))
# the line, maybe after a word or two that say which ("the glass surface", "the ramp's
# face"; red team r25a), or an axis ("the positive x-axis" names a direction, not the axis)
_LINE = (
    rf"(?:(?P<sense>positive\s+|negative\s+|\+\s*|[-−]\s*)?(?P<axis>[xyz](?:\s*-?\s*axis|\s+direction"
    rf"|(?=\s*(?:$|[),.;]))))|(?:(?!(?:the|of|an?|positive|negative|[xyz])\b)"
    rf"[a-z]+(?:['’]s)?[\s-]+){{0,2}}(?P<line>{_LINE_WORDS})(?P<normal>\s+normal)?"
    r"(?:\s+(?:direction|line|field|road|table|plane|surface|axis))?(?:\s+of\s+(?:the\s+)?[a-z]+(?:[\s-][a-z]+)?)?)"
)
_REFERENCE = re.compile(rf"\b{_PREPOSITION}\s+(?:the\s+)?{_LINE}\b", re.IGNORECASE)
_INCLINE_WORD = re.compile(r"\b(?:ramp|incline|inclined|slope)\b", re.IGNORECASE)
_NORMAL_TO = re.compile(r"\b(?:normal|perpendicular)\s*$", re.IGNORECASE)
# a question whose surface is level: its normal is the vertical, its surface the horizontal
_LEVEL = re.compile(
    r"\b(?:level|horizontal)\s+(?:surface|ground|floor|interface|boundary)\b|\b(?:lake|pond|pool"
    r"|still\s+water|calm\s+water)\b",
    re.IGNORECASE,
)
_BEARING = re.compile(
    r"\b(?:(?i:(?P<first>north|south|east|west)(?:ward)?\s+of\s+(?P<second>north|south|east"
    r"|west))|(?P<first_letter>[NSEW])\s+of\s+(?P<second_letter>[NSEW])"
    # "from north toward east" is east of north
    r"|(?i:from\s+(?:the\s+)?(?P<base>north|south|east|west)\s+(?:toward|towards|to)\s+(?:the\s+)?"
    r"(?P<toward>north|south|east|west)))\b"
)
_COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west"}
# where a question speaks of an angle: the reference follows within a clause
_ANGLE_WORD = re.compile(r"degrees?\b|°|\\circ|\bangles?\b|\binclined\b|\btilted\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[^.;?!\n]{0,40}")
_BELOW = frozenset({"below", "beneath", "under"})

# (side: "above", "below" or "", line), ("bearing", "west of north"), or ("~", line): the
# line a kind of angle is measured from by convention
Reference = tuple[str, str]


def _line(word: str) -> str | None:
    word = re.sub(r"^([xyz])(?:\s+direction)?$", r"\1-axis", word.casefold())
    return _LINE_OF.get(re.sub(r"(?<=[xyz])\s*-?\s*(?=axis)", "-", word))


def _references(text: str) -> list[tuple[int, int, Reference]]:
    """Each reference ``text`` names, with where it stands."""
    found: list[tuple[int, int, Reference]] = []
    for match in _REFERENCE.finditer(text):
        if _NORMAL_TO.search(text, max(0, match.start() - 20), match.start()):
            # "the normal to the surface": the normal, named by its surface
            if found and found[-1][2] == ("", "normal") and match.start() - found[-1][1] <= 1:
                found[-1] = (found[-1][0], match.end(), found[-1][2])
            continue
        line = _line(match.group("axis") or match.group("line"))
        if match.group("normal"):
            line = "normal"  # "the surface normal": the normal, named by its surface
        elif line == "surface" and _INCLINE_WORD.search(match.group(0)):
            line = "incline"  # "the ramp surface" is the incline
        if line is None:
            continue  # "from the top": no line an angle is measured from
        if match.group("axis") and (match.group("sense") or "").strip() in ("negative", "-", "−"):
            line = "-" + line  # the negative x-axis points the other way
        side = match.group("side").casefold()
        side = "below" if side in _BELOW else "above" if side == "above" else ""
        found.append((match.start(), match.end(), (side, line)))
    for match in _BEARING.finditer(text):
        first, second = (
            _COMPASS.get(word.casefold(), word.casefold())
            for word in (
                match.group("first") or match.group("first_letter") or match.group("toward"),
                match.group("second") or match.group("second_letter") or match.group("base"),
            )
        )
        if first != second:
            # a bearing is read whole: "from north toward east" names no line "east"
            found = [f for f in found if f[1] <= match.start() or f[0] >= match.end()]
            found.append((match.start(), match.end(), ("bearing", f"{first} of {second}")))
    return sorted(found)


def _of_angles(text: str) -> set[Reference]:
    """The references ``text`` gives its angles: those within a clause after an angle word
    ("48.6 degrees from the normal", "the angle the force makes with the x-axis", "at what
    angle west of north")."""
    found: set[Reference] = set()
    for start, _, reference in _references(text):
        before = text[max(0, start - 60) : start]
        for word in _ANGLE_WORD.finditer(before):
            if _CLAUSE.fullmatch(before[word.end() :]):
                found.add(reference)
                break
    return found


# angles whose line is fixed by convention where the asking part names none: optics measures
# from the normal, a launch or an incline from the horizontal
_CONVENTIONS = (
    (
        re.compile(
            r"\bangles?\s+of\s+(?:refraction|incidence|reflection)|\b(?:refraction|incidence"
            r"|reflection|critical|brewster(?:'s)?|polari[sz]ing)\s+angles?\b"
            r"|\bat\s+what\s+(?:angle\s+of\s+)?incidence\b",
            re.IGNORECASE,
        ),
        ("~", "normal"),
    ),
    (
        re.compile(
            r"\b(?:launch|projection|elevation|inclination)\s+angles?\b|\bangles?\s+of\s+"
            r"(?:launch|projection|elevation|inclination|the\s+(?:incline|ramp|slope))\b",
            re.IGNORECASE,
        ),
        ("~", "horizontal"),
    ),
)
# the line a conventional angle is surely not measured from (a refraction angle "from the
# surface", a launch angle "from the vertical" or "below the horizontal"); any other line
# the answer names may be the same one in the problem's setting (the vertical is the normal
# of a level surface), and is left to the value
_NOT_BY_CONVENTION: dict[str, set[Reference]] = {
    "normal": {("", "surface")},
    "horizontal": {("", "vertical"), ("", "normal"), ("below", "horizontal")},
    "vertical": {("", "surface"), ("", "horizontal")},  # the normal of a level surface
}
# a question that lays an axis along a line makes them one line: "x is horizontal and y
# vertical", "the y-axis (vertical)", "The x-axis is along the floor"
_AXIS_ALONG = re.compile(
    r"\b(?P<axis>[xyz])(?:[\s-]?axis)?\s*(?:\(\s*|is\s+|points\s+|lies\s+)?"
    r"(?:(?P<line>horizontal|vertical)|along\s+the\s+(?P<level>floor|ground))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=256)
def question_references(question: str) -> frozenset[Reference]:
    """The references the asked angle is measured from: those the asking part names, else
    the line its kind of angle is measured from by convention (``_CONVENTIONS``), held to
    that line where the data measure from it too. Other data angles say nothing of the asked
    one's line (a ray given "30° to the surface" is refracted at an angle from the normal;
    red team r25b)."""
    asking = asking_part(question)
    found = _of_angles(asking)
    if not found:
        found = {line for pattern, line in _CONVENTIONS if pattern.search(asking)}
        data = _of_angles(question[:MAX_QUESTION_CHARS])
        if {line for _, line in data} == {line for _, line in found}:
            found = data  # the data measure from the conventional line too: the problem's

    if _LEVEL.search(question[:MAX_QUESTION_CHARS]):  # a calm lake's normal is the vertical
        found |= {(side, "vertical") for side, line in found if line == "normal"}
        found |= {(side, "horizontal") for side, line in found if line == "surface"}
    for along in _AXIS_ALONG.finditer(question[:MAX_QUESTION_CHARS]):
        axis = f"{along.group('axis').casefold()}-axis"
        line = (along.group("line") or "horizontal").casefold()
        found |= {(side, line) for side, other in found if other == axis}
        found |= {(side, axis) for side, other in found if other == line}
    return frozenset(found)


def _agrees(reference: Reference, references: frozenset[Reference]) -> bool:
    side, line = reference
    conventional = {other for other_side, other in references if other_side == "~"}
    if conventional:
        ruled_out = set().union(*(_NOT_BY_CONVENTION.get(other, set()) for other in conventional))
        return (side, line) not in ruled_out and ("", line) not in ruled_out
    if side == "bearing":
        # "36.9° west of north" is measured from north, as "the angle from north" asks
        return reference in references or ("", line.rsplit(" of ", 1)[-1]) in references
    return any(
        line == other and (side == other_side or "" in (side, other_side))
        for other_side, other in references
        if other_side != "bearing"
    )


# what a reference leaves when it is taken out of a box: an empty text group or brackets,
# "measured", the spacing before it
_LEFT_OVER = re.compile(
    r"(?:\\[,;: !]|\\q?quad(?![A-Za-z])|~|\s)*(?:\\(?:text|mathrm|textrm|mbox)\s*\{\s*\}"
    r"|\(\s*\)|\[\s*\])"
)
_MEASURED = re.compile(r"\b(?:as\s+)?measured\s*(?=\}|\)|$)", re.IGNORECASE)
# a value is an angle where it or the gold writes an angle's unit
_ANGLE_UNIT = re.compile(r"\\circ|°|\\degree(?![A-Za-z])|\bdeg(?:rees?)?\b|\brad(?:ians?)?\b")


# text groups and hats read as the words and axes they write ("\\text{ from the positive }
# x\\text{-axis}", "+\\hat{x}")
_TEXT_GROUP = re.compile(r"\\(?:text|textrm|mbox)\s*\{([^{}]*)\}")
_HAT = re.compile(r"\\hat\s*\{?\s*([xyz])\s*\}?")
# a phrase after an angle that names what it is measured from, in words no line of
# ``_SAME_LINE`` reads ("from the tangent", "relative to the rod"): where the question says
# which line it asks, an unread reference is no agreement (red team r27a)
_SOME_REFERENCE = re.compile(
    r"\b(?:from|with\s+respect\s+to|relative\s+to|with|to|above|below|beneath|off)\s+"
    r"(?:the\s+)?[A-Za-z+]",
    re.IGNORECASE,
)
# a reference right after the box ("\\boxed{26^\\circ} from the vertical", "(measured from
# the surface)"), read with the box
_AFTER = re.compile(r"^(?:\s|\\[,;: ]|\$|\\\]|\\\)|\*)*\(?\s*")


# what may follow a reference read with the box: the end of its remark or sentence ("(measured
# from the vertical, this is 60.7°)" restates the angle from another line instead)
_CLOSES = re.compile(
    r"\s*(?:$|[).;!\n$]|\\|\([a-z]\)|\(\s*(?:i\.?\s*e\.?|that\s+is|or)\b"
    r"|,\s*(?:as\s+|which\s+|since\s+|because\s+)?[a-z]+[^\d\n]*$)"
)


# words before a reference after the box that say the value is the angle it names: "measured
# from …", "(this is the angle between the ray and …)", "i.e. the angle with …"
_SAYS_ANGLE = re.compile(
    r"^(?:(?:as\s+)?measured\s+|(?:(?:this|that|which|it)\s+(?:is|being)\s+|i\.?e\.?,?\s+"
    r"|that\s+is,?\s+)?(?:the\s+)?angle\s+(?:(?:it|that|which)\s+)?(?:(?:makes|made|forms)\s+)?"
    r"(?:(?:measured|taken)\s+)?(?=(?:from|to|with|relative|between|above|below)\b))",
    re.IGNORECASE,
)


def reference_after(box: str, after: str) -> str:
    """``box`` with the reference that the text right after it names (a line this module
    reads, or a bearing) written inside it, so the reference is judged as part of the
    value; unchanged where the text after it names none."""
    head = _AFTER.match(after)
    start = head.end() if head else 0
    text = _TEXT_GROUP.sub(r"\1", after[start : start + 80])
    text = _SAYS_ANGLE.sub("", text)
    for start_, end, _ in _references(text)[:1]:
        if start_ == 0 and _CLOSES.match(text, end):
            return f"{box}\\text{{ {text[:end]}}}"
    return box


def with_agreed_reference(
    box: str, golds: tuple[str, ...], question: str | None, tolerance: float = 0.0
) -> str | None:
    """``box`` (a value as written) without the references to the question's line that
    follow its number, or None where one names another line, side or bearing, or names its
    line in words no reference here reads. Unchanged where it is no angle (nor the gold
    one), names no reference, or the question names none. An angle from the complementary
    line is judged within ``tolerance`` as it was written (:func:`_complement`)."""
    if not question or not _ANGLE_UNIT.search(" ".join((box, *golds))):
        return box
    number = re.search(r"\d", box)
    # a gold that names its reference ("36.9° west of north") is the most precise statement
    # of it: the answer's must agree with the gold's (red team r29b)
    written = frozenset(
        reference
        for gold in golds
        for _, _, reference in _references(_HAT.sub(r"\1", _TEXT_GROUP.sub(r"\1", gold)))
    )
    references = written or (question_references(question) if number is not None else frozenset())
    if number is None or not references:
        return box
    flat = _HAT.sub(r"\1", _TEXT_GROUP.sub(r"\1", box))
    if flat != box and any(start >= number.start() for start, _, _ in _references(flat)):
        box = flat  # the reference is in text groups: read and stripped as words
        number = re.search(r"\d", box) or number
    kept, last, turned = [], 0, False
    named = [found for found in _references(box) if found[0] >= number.start()]
    for start, end, reference in named:
        if not _agrees(reference, references):
            turned = len(named) == 1 and _complementary(reference, references)
            if not turned:
                return None
        kept.append(box[last:start])
        last = end
    if _SOME_REFERENCE.search(_TEXT_GROUP.sub(r"\1", box[max(last, number.end()) :])):
        return None  # a reference in words no line here reads: no agreement shown
    if not kept:
        return box
    text, previous = _MEASURED.sub("", "".join(kept) + box[last:]), ""
    while previous != text:  # "\\text{(measured )}": the word, the brackets, the group
        previous, text = text, _LEFT_OVER.sub("", text)
    return _complement(text.strip(), golds, tolerance) if turned else text.strip()


# lines at right angles to each other: an angle from one is 90° less the angle from the other
_COMPLEMENTARY = {
    "horizontal": "vertical",
    "vertical": "horizontal",
    "normal": "surface",
    "surface": "normal",
}
# a value in degrees that a complement can be taken of: the whole box, one number and its unit
_DEGREES = re.compile(
    r"^(?P<label>[^=]{0,40}?(?:=|\\approx|\\simeq|≈)\s*)?(?P<number>\d{1,2}(?:\.\d+)?)(?P<unit>\s*(?:\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![A-Za-z])"
    r"|(?:\\[,; ]|~|\s)*(?:\\(?:text|mathrm)\s*\{\s*deg(?:rees?)?\s*\}|deg(?:rees?)?\b)))\s*$"
)


def _complementary(reference: Reference, references: frozenset[Reference]) -> bool:
    """Whether the answer measured its angle from the line at right angles to the asked one
    ("66.3° from the vertical" for an angle above the horizontal): a line with no side, where
    every line asked (or the convention's) is that line's complement."""
    side, line = reference
    other = _COMPLEMENTARY.get(line)
    lines = {asked for asked_side, asked in references if asked_side != "bearing"}
    return side == "" and other is not None and lines == {other}


def _complement(box: str, golds: tuple[str, ...] = (), tolerance: float = 0.0) -> str | None:
    """``box`` (a number of degrees, its reference taken out) as the angle from the
    complementary line, written to the same decimals; None where it is not one plain
    number of degrees below 90 (a complement of anything else is not read).

    The tolerance holds for the angle as written: "66° from the vertical" is 66.3° from the
    vertical rounded, so it is right for a gold of 23.7° above the horizontal, though 24° is
    more than 1 % from 23.7° (red team r30a). Where the written angle is within
    ``tolerance`` of a gold's complement, that gold's value is the answer's."""
    match = _DEGREES.match(box)
    if match is None or float(match.group("number")) >= 90:
        return None
    number = match.group("number")
    decimals = len(number.partition(".")[2])
    value = f"{90 - float(number):.{decimals}f}"
    for gold in golds:
        found = _DEGREES.match(gold.strip())
        if found is None or found.group("label") or float(found.group("number")) >= 90:
            continue
        other = 90 - float(found.group("number"))  # the gold's angle from the written line
        if abs(float(number) - other) <= tolerance * other:
            value = found.group("number")
            break
    return f"{match.group('label') or ''}{value}{match.group('unit')}"
