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
    "vertical": "vertical plumb",
    "normal": "normal perpendicular",
    "surface": "surface boundary interface mirror face",
    "x-axis": "x-axis",
    "y-axis": "y-axis",
    "z-axis": "z-axis",
    "incline": "incline ramp slope",
}
_LINE_OF = {word: line for line, words in _SAME_LINE.items() for word in words.split()}
_PREPOSITION = (
    r"(?:(?:as\s+)?measured\s+)?(?P<side>from|to|with\s+respect\s+to|relative\s+to|with|above"
    r"|below|beneath|under|off|beyond|past)"
)
_LINE_WORDS = "|".join(sorted((w for w in _LINE_OF if "axis" not in w), key=len, reverse=True))
# the line, maybe after a word or two that say which ("the glass surface", "the ramp's
# face"; red team r25a), or an axis ("the positive x-axis" names a direction, not the axis)
_LINE = (
    rf"(?:(?P<axis>[xyz][\s-]?axis)|(?:(?!(?:the|of|an?|positive|negative|[xyz])\b)"
    rf"[a-z]+(?:['’]s)?[\s-]+){{0,2}}?(?P<line>{_LINE_WORDS}))"
)
_REFERENCE = re.compile(rf"\b{_PREPOSITION}\s+(?:the\s+)?{_LINE}\b", re.IGNORECASE)
_NORMAL_TO = re.compile(r"\b(?:normal|perpendicular)\s*$", re.IGNORECASE)
# a question whose surface is level: its normal is the vertical, its surface the horizontal
_LEVEL = re.compile(
    r"\b(?:level|horizontal)\s+(?:surface|ground|floor|interface|boundary)\b|\b(?:lake|pond|pool"
    r"|still\s+water|calm\s+water)\b",
    re.IGNORECASE,
)
_BEARING = re.compile(
    r"\b(?P<first>north|south|east|west)(?:ward)?\s+of\s+(?P<second>north|south|east|west)\b",
    re.IGNORECASE,
)
# where a question speaks of an angle: the reference follows within a clause
_ANGLE_WORD = re.compile(r"degrees?\b|°|\\circ|\bangles?\b|\binclined\b|\btilted\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[^.;?!\n]{0,40}")
_BELOW = frozenset({"below", "beneath", "under"})

# (side: "above", "below" or "", line), ("bearing", "west of north"), or ("~", line): the
# line a kind of angle is measured from by convention
Reference = tuple[str, str]


def _line(word: str) -> str | None:
    return _LINE_OF.get(re.sub(r"(?<=[xyz])[\s-]?(?=axis)", "-", word.casefold()))


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
        if line is None:
            continue  # "from the top", "to the wall": no line an angle is measured from
        side = match.group("side").casefold()
        side = "below" if side in _BELOW else "above" if side == "above" else ""
        found.append((match.start(), match.end(), (side, line)))
    for match in _BEARING.finditer(text):
        first, second = match.group("first").casefold(), match.group("second").casefold()
        if first != second:
            found.append((match.start(), match.end(), ("bearing", f"{first} of {second}")))
    return found


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
        return reference in references
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


def with_agreed_reference(box: str, golds: tuple[str, ...], question: str | None) -> str | None:
    """``box`` (a value as written) without the references to the question's line that
    follow its number, or None where one names another line, side or bearing. Unchanged
    where it is no angle (nor the gold one), names no reference, or the question names
    none."""
    if not question or not _ANGLE_UNIT.search(" ".join((box, *golds))):
        return box
    number = re.search(r"\d", box)
    references = question_references(question) if number is not None else frozenset()
    if number is None or not references:
        return box
    kept, last = [], 0
    for start, end, reference in _references(box):
        if start < number.start():
            continue  # before the value: a label's words ("\\theta_{\\text{from normal}}")
        if not _agrees(reference, references):
            return None
        kept.append(box[last:start])
        last = end
    if not kept:
        return box
    text, previous = _MEASURED.sub("", "".join(kept) + box[last:]), ""
    while previous != text:  # "\\text{(measured )}": the word, the brackets, the group
        previous, text = text, _LEFT_OVER.sub("", text)
    return text.strip()
