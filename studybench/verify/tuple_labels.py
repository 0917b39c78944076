"""The part of the question each element of a tuple answer is labelled as.

"Range: \\boxed{5.10 m}, maximum height: \\boxed{35.3 m}" for "Find (a) the maximum height
and (b) the range" gives the height as 35.3 m: the values are in the gold's order, but the
model's labels put each under the other part. The gold lists its values in the order asked,
so a tuple is read in the order its labels give, not the order it is written in: a label
that names a part of the question (its letter "(b)", its words "maximum height", "rope B",
"through the 3.0 Ω resistor", a symbol's subscript "v_{top}", "T_B", or a symbol that
conventionally names a quantity, "R" the range, "K" the kinetic energy) places its element
there (red team r30a: 16 such swaps rewarded; 1.26.0 read labels only where they were the
question's own math names). Where any element's label is missing, names no part or names a
part another element already has, the written order stands.
"""

from __future__ import annotations

import re

from studybench.verify.asking import asking_part
from studybench.verify.normalize import split_top_level
from studybench.verify.number_words import ORDINAL_WORDS, ROMAN_NUMERALS

# the parts a question asks, by letter: "(a) the maximum height and (b) the range"
# or by roman numeral: "(i) the maximum height and (ii) the range"
_ROMAN = ROMAN_NUMERALS[:8]  # not "(x)", a coordinate as often as a part
_MARK = r"([a-h]|" + "|".join(sorted(_ROMAN, key=len, reverse=True)) + r")"
_PART_MARK = re.compile(r"(?:^|(?<=[\s:;,.]))\(?" + _MARK + r"\)\s*", re.IGNORECASE)


def _index(mark: str) -> int:
    """The place a part's mark names: "b" and "ii" are the second part."""
    mark = mark.casefold()
    return _ROMAN.index(mark) if mark in _ROMAN else ord(mark) - ord("a")


# where the asking sentence separates the things it asks for when it letters none
_PART_JOIN = re.compile(
    r"\s*(?:\s+first\b)?(?:,\s*(?:and\s+|then\s+)?|;\s*|\b(?:and|then)\s+(?:also\s+)?)",
    re.IGNORECASE,
)
# a list that gives its own order: "Energy lost, then speed:", "(range first, then height)"
_THEN_LIST = re.compile(r"\bthen\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-zΑ-Ωα-ω]+|\d+(?:\.\d+)?")
_STOP = frozenset(
    """the a an of in on at to for and its it is are be by from with as find what determine
    calculate compute value magnitude through across between each also then both""".split()
)
# symbols that name a quantity by convention, where the question writes the quantity's noun;
# a symbol of several quantities ("T": period, tension or temperature) names the one the
# question asks where it asks only one of them
_SYMBOL_NOUNS = {
    "R": ("range", "resistance"),
    "H": ("height",),
    "h": ("height",),
    "K": ("kinetic",),
    "KE": ("kinetic",),
    "U": ("potential",),
    "PE": ("potential",),
    "N": ("normal",),
    "a": ("acceleration",),
    "t": ("time",),
    "v": ("speed", "velocity"),
    "T": ("period", "tension", "temperature"),
    "r": ("radius",),
    "Q": ("charge", "heat"),
    "q": ("charge",),
    "tau": ("torque", "time constant"),
    "lambda": ("wavelength",),
    "f": ("frequency", "friction"),
    "omega": ("angular",),
    "theta": ("angle",),
    "p": ("momentum",),
    "P": ("power", "pressure"),
    "W": ("work", "weight"),
    "I": ("current", "intensity"),
    "E": ("energy", "field"),
    "F": ("force",),
    "m": ("mass",),
    "d": ("distance",),
}
_GREEK = {"τ": "tau", "λ": "lambda", "ω": "omega", "θ": "theta"}
# what closes the text before a box's label: math openers, emphasis, ":" or "=" or "is"
_LABEL_END = re.compile(r"(?:\s|\$|\\\(|\\\[|\*\*)*$")
_LABEL_MARK = re.compile(
    r"\s*(?:[:=→⟶⇒]|\\(?:to|rightarrow|Rightarrow|longrightarrow|implies|mapsto)(?![a-zA-Z])"
    r"|\bis\b|\bequals\b)\s*$"
)
# where the label starts: after the last line or sentence break, math delimiter or comma
_LABEL_START = re.compile(r"(?:\n|[.;,:](?:\s|$)|\$|\\[\]\[()]|\\quad|\*\*)")
# the verb the asking sentence lists its parts after
_ASKS = re.compile(
    r"\b(?:find|determine|calculate|compute|give|state|obtain|what\s+(?:is|are))\b", re.I
)
_IN_BOX_LABEL = re.compile(
    r"^\s*(?P<label>\\?[A-Za-z]+(?:_\s*\{(?:[^{}]|\{[^{}]*\}){1,30}\}|_\s*\\?\w+)?)\s*="
)
_SPACING = re.compile(r"^(?:\\[,;:! ]|~|\s)+")
_LETTER = re.compile(r"^\(?" + _MARK + r"\)$", re.IGNORECASE)
_SUBSCRIPT = re.compile(
    r"^\\?(?P<base>[A-Za-z]+)(?:_\s*(?:\{(?P<braced>(?:[^{}]|\{[^{}]*\})*)\}|(?P<single>\\?\w+)))?$"
)
_TEXT_COMMAND = re.compile(r"\\(?:text|mathrm|rm|mathit|textrm)\s*\{([^{}]*)\}")
_OMEGA = re.compile(r"\\?Omega|Ω")


def asked_parts(question: str, count: int) -> list[str] | None:
    """The text of each of the ``count`` things the question asks, in order, or None where
    it does not split into that many."""
    asking = asking_part(question)
    marks = list(_PART_MARK.finditer(asking))
    places = [_index(m.group(1)) for m in marks]
    if len(marks) == count and places == list(range(count)):
        ends = [m.start() for m in marks[1:]] + [len(asking)]
        return [asking[m.end() : end] for m, end in zip(marks, ends, strict=True)]
    for sentence in re.split(r"(?<=[.?!])\s+", asking):
        verbs = list(_ASKS.finditer(sentence))
        if verbs:
            sentence = sentence[verbs[-1].end() :]  # "When it is 2.0 m up, find its K and its U"
        pieces = [p for p in _PART_JOIN.split(sentence) if p.strip()]
        if len(pieces) == count:
            return pieces
    return None


def _stem(word: str) -> str:
    return word.casefold()[:5]


def _words(text: str) -> list[str]:
    text = _OMEGA.sub(" ohm ", _TEXT_COMMAND.sub(r" \1 ", re.sub(r"['’]s\b", "", text)))
    # a capital letter alone names a thing ("rope A"), not the article
    return [
        w for w in _WORD.findall(text) if w.casefold() not in _STOP or (len(w) == 1 and w.isupper())
    ]


def _tokens(part: str) -> set[str]:
    return {_stem(w) if w[0].isalpha() else str(float(w)) for w in _words(part)}


def _by_words(words: list[str], parts: list[str]) -> int | None:
    """The one part holding every one of ``words`` (by the start of each), or None."""
    if not words:
        return None
    keys = {_stem(w) if w[0].isalpha() else str(float(w)) for w in words}
    found = [i for i, part in enumerate(parts) if keys <= _tokens(part)]
    return found[0] if len(found) == 1 else None


def _by_symbol(label: str, parts: list[str]) -> int | None:
    """The part a symbol names: by its subscript's words or letter ("v_{top}", "T_B"), else
    by the quantity its letter conventionally names ("K", "R")."""
    label = _latin(label)
    match = _SUBSCRIPT.match(label)
    if match is None:
        return None
    base = match.group("base")
    subscript = match.group("braced") or match.group("single") or ""
    subscript = _OMEGA.sub(" ohm ", _TEXT_COMMAND.sub(r"\1", subscript)).replace("\\", " ")
    if subscript.strip():
        words = _words(subscript)
        if len(subscript.strip()) == 1 and subscript.strip().isalnum():
            letter = subscript.strip()  # "T_B": the part that names B ("rope B", "R_B")
            alone = rf"(?<![A-Za-z0-9]){letter}(?![A-Za-z0-9])"
            found = [i for i, part in enumerate(parts) if re.search(alone, part)]
            if len(found) == 1:
                return found[0]
            if letter.isalpha():  # "W_g": the one part with a word of that letter ("gravity")
                initial = rf"\b{letter}[a-z]{{2,}}"
                found = [i for i, p in enumerate(parts) if re.search(initial, p, re.IGNORECASE)]
                if len(found) == 1:
                    return found[0]
        elif words and (place := _by_words(words, parts)) is not None:
            return place
        if subscript.strip() == "N":
            return _by_words(["normal"], parts)  # "F_N": the normal force
    if not subscript.strip():
        # the question's own symbol for a part: "the radius r and the period T"
        alone = rf"(?<![A-Za-z0-9\\]){re.escape(label.strip())}(?![A-Za-z0-9])"
        found = [i for i, part in enumerate(parts) if re.search(alone, part)]
        if len(found) == 1:
            return found[0]
    nouns = _SYMBOL_NOUNS.get(base, ())
    named = {
        i for i, part in enumerate(parts) for noun in nouns if _by_words(noun.split(), [part]) == 0
    }
    return named.pop() if len(named) == 1 else None


def _latin(label: str) -> str:
    """``label`` with a Greek letter that opens it spelt as its name ("τ": "tau")."""
    label = label.strip()
    return _GREEK.get(label[:1], label[:1]) + label[1:]


def _is_symbol(label: str) -> bool:
    """Whether a label is a symbol ("T_B", "v_{top}", "\\omega", "K", "τ"), not words."""
    label = _latin(label)
    return _SUBSCRIPT.match(label) is not None and (
        "_" in label or label.startswith("\\") or len(label) <= 2
    )


# a part named by its place: "Second one", "first quantity", "the latter", "for the former"
_ORDINAL = re.compile(
    r"^(?:for\s+)?(?:the\s+)?(?P<word>" + "|".join(ORDINAL_WORDS) + r"|former|latter)"
    r"(?:\s+(?:one|quantity|part|answer|value|result|question))?$",
    re.IGNORECASE,
)
_ORDINAL_COMMA = re.compile(
    r"\b(?:first|second|third|former|latter)(?:\s+(?:one|quantity|part))?\s*,\s*$", re.IGNORECASE
)
# "Part II", "part b", "Part (c)"
_PART_WORD = re.compile(r"^part\s+\(?([a-h]|[ivx]{1,4})\)?$", re.IGNORECASE)


def _place(label: str | None, parts: list[str], lettered: bool) -> int | None:
    """The part ``label`` names, or None."""
    if not label or not label.strip():
        return None
    label = label.strip().strip("*").strip()
    ordinal = _ORDINAL.match(label)
    if ordinal is not None:  # "Second one:", "first quantity =", "the latter", "Part II"
        word = ordinal.group("word").casefold()
        index = (
            ORDINAL_WORDS.index(word) if word in ORDINAL_WORDS else ("former", "latter").index(word)
        )
        if word in ("former", "latter") and len(parts) != 2:
            return None
        return index if index < len(parts) else None
    part = _PART_WORD.match(label)
    if part is not None:
        label = f"({part.group(1)})"
    letter = _LETTER.match(label)
    if letter is not None:
        index = _index(letter.group(1))
        return index if lettered and index < len(parts) else None
    if _is_symbol(label):
        return _by_symbol(label, parts)  # "T_B", "v_{top}", "K"; "Range" is a word
    return _by_words(_words(label), parts)


def _before_label(before: str) -> str | None:
    """The label written right before a box ("Range: $", "$T_B = ", "(b) $"), or None; a
    part's letter on the box's line is its label wherever it stands there ("(b) Range: $",
    "Speed (b): $", "b) $v$: $")."""
    text = _LABEL_END.sub("", _LABEL_MARK.sub("", _LABEL_END.sub("", before)))  # "Range $= $"
    if _ORDINAL_COMMA.search(text):
        text = text.rstrip(" ,")  # "For the latter, $"
    line = re.split(r"\n|[.;,](?:\s|$)|\\quad|\*\*", text)[-1]
    letters = _LETTER_IN.findall(line)
    if len(letters) == 1:
        return f"({letters[0]})"
    starts = [m.end() for m in _LABEL_START.finditer(text)]
    label = text[max(starts, default=0) :].strip(" *")
    return label if 0 < len(label) <= 40 else None


# a part's letter in a label: "(b)", "b)" at the line's start
_LETTER_IN = re.compile(r"(?:^|(?<=[\s$*]))\(?" + _MARK + r"\)(?=\s|$|\$|:)")


def _after_label(after: str) -> str | None:
    """The label written right after a box or its unit: "(range)", "— work", " J (kinetic
    energy)"."""
    from studybench.verify.closing_remarks import after_unit

    match = _AFTER_LABEL.match(after) or _AFTER_LABEL.match(after_unit(after))
    if match is None:
        return None
    label = match.group("bracket") or match.group("dash")
    return f"({label})" if re.fullmatch(_MARK, label) else label  # "(b)": the part b


_AFTER_LABEL = re.compile(
    r"^\s*\$?\s*(?:\((?P<bracket>[A-Za-z][^()$\d]{0,30})\)"
    r"|(?:[—–←⟵⇐]|\\(?:leftarrow|Leftarrow|longleftarrow)(?![a-zA-Z]))\s*\$?\s*"
    r"(?P<dash>[A-Za-z][A-Za-z ]{0,25}?)\s*(?=\n|$|,|;|\$))"
)


# "respectively" and the words that say the same: "in that order", "correspondingly"
_RESPECTIVE = (
    r"(?:respectively|correspondingly|in\s+(?:that|this|the\s+same)\s+order"
    r"|in\s+order\b(?!\s+to\b))"
)
# "… are \\boxed{5.10} m and \\boxed{35.3} m, respectively": the last box's remark
_RESPECTIVELY = re.compile(r"^[^.\n]{0,30}?\b" + _RESPECTIVE, re.IGNORECASE)
# the list's verb: "The range and maximum height are", "… come out to", "… :", "B and A move
# off at"
_LIST_VERB = re.compile(
    r"\s*(?:(?:are|were|will\s+be|come\s+out\s+(?:to|as)|equal|turn\s+out\s+to\s+be)"
    r"(?:\s+(?:approximately|about|roughly|found\s+to\s+be|given\s+by))?|[:=]"
    r"|\s[a-z]+(?:\s+(?:off|out|away|back|apart))?\s+(?:at|with))\s*$",
    re.IGNORECASE,
)
_RESPECTIVELY_BEFORE = re.compile(r",?\s*" + _RESPECTIVE + r"\s*[,:]?\s*$", re.IGNORECASE)
# the list after the boxes: "are the range and maximum height, respectively", "(speed and
# acceleration, respectively)"
_LIST_AFTER = re.compile(
    r"^[^.\n(]{0,25}?(?:\(|\b(?:are|were|being|give|gives|for)\s+)(?:the\s+)?(?P<names>[^()\n.;]{3,80}?),?"
    r"\s+" + _RESPECTIVE,
    re.IGNORECASE,
)
# a list of the names in order, "then" joining them, before the boxes or in brackets after
_THEN_BEFORE = re.compile(r"(?:^|\n)[^\n.:]{1,40}\bthen\s+[^\n.:]{1,30}:\s*$", re.IGNORECASE)
_THEN_AFTER = re.compile(
    r"^[^.\n(]{0,25}?\((?:the\s+)?(?P<names>[^()\n.;]{2,40}?\bthen\s+[^()\n.;]{1,30})\)",
    re.IGNORECASE,
)
_LIST_OPENER = re.compile(r"^(?:so|thus|therefore|hence|finally|overall)\b,?\s*", re.IGNORECASE)


def _respective_labels(
    befores: tuple[str, ...], afters: tuple[str, ...], count: int
) -> list[str] | None:
    """The labels a sentence gives its boxes in turn ("The range and maximum height are
    \\boxed{5.10} m and \\boxed{35.3} m, respectively"), or None where no "respectively"
    closes the last box or its list does not name one thing per box (red team r31a, r32a:
    values swapped this way were rewarded, and honest ones in another order rejected)."""
    if len(befores) < count or len(afters) < count:
        return None
    after = _LIST_AFTER.match(afters[-1]) or _THEN_AFTER.match(afters[-1])
    if after is not None:  # "… are the range and maximum height, respectively"
        pieces = [p for p in _PART_JOIN.split(after.group("names").strip()) if p.strip()]
        return pieces if len(pieces) == count else None
    text = _LABEL_END.sub("", befores[-count])
    before = _RESPECTIVELY_BEFORE.search(text)  # "… are, respectively, \\boxed{…}"
    if before is not None:
        text = text[: before.start()]
    elif _THEN_BEFORE.search(text):  # "Energy lost, then speed: \\boxed{…}"
        text = text.rstrip(" :")
        before = _THEN_BEFORE.search(text + ":")
    elif not _RESPECTIVELY.match(afters[-1]):
        return None
    sentence = re.split(r"\n|[.;!?](?:\s|$)|\*\*", text)[-1]
    listed = _LIST_VERB.search(sentence)
    if listed is None and before is None:
        return None
    # "Range and maximum height, in that order: \\boxed{…}": the list needs no verb
    names = _LIST_OPENER.sub("", sentence[: listed.start() if listed else None].strip())
    pieces = [p for p in _PART_JOIN.split(names) if p.strip()]
    return pieces if len(pieces) == count else None


def labelled_order(
    elements: tuple[str, ...],
    befores: tuple[str, ...],
    question: str | None,
    afters: tuple[str, ...] = (),
) -> tuple[int, ...] | None:
    """The part of the question each element's label names (position -> part), where
    every element has one and no two share it, or all but one do and that one takes the
    part left ("(c) …, (a) …, and \\boxed{…}"); None otherwise."""
    if not question or len(elements) < 2:
        return None
    parts = asked_parts(question, len(elements))
    if parts is None:
        return None
    lettered = len(list(_PART_MARK.finditer(asking_part(question)))) == len(elements)
    respective = _respective_labels(befores, afters, len(elements))
    places: list[int | None] = []
    for index, element in enumerate(elements):
        inside = _IN_BOX_LABEL.match(element)
        label = inside.group("label") if inside else None
        place = _place(label, parts, lettered)
        if place is None and respective is not None:
            place = _place(respective[index], parts, lettered)
        if place is None and index < len(befores):
            place = _place(_before_label(befores[index]), parts, lettered)
        if place is None and index < len(afters):
            place = _place(_after_label(afters[index]), parts, lettered)
        places.append(place)
    found = [place for place in places if place is not None]
    if len(set(found)) != len(found) or len(found) < len(elements) - 1:
        return None
    left = set(range(len(elements))) - set(found)
    if len(left) > 1:
        return None
    return tuple(place if place is not None else min(left) for place in places)


def in_labelled_order(
    boxes: tuple[str, ...],
    befores: tuple[str, ...],
    question: str | None,
    count: int,
    afters: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """A tuple answer's boxes (or the elements of its one box) in the order their labels
    give; unchanged where the labels do not give one."""
    if len(boxes) == count:
        written = befores[-count:] if befores else ()
        order = labelled_order(boxes, written, question, afters[-count:] if afters else ())
        if order is None or order == tuple(range(count)):
            return boxes
        placed = [""] * count
        for index, (element, place) in enumerate(zip(boxes, order, strict=True)):
            label = _before_label(written[index]) if index < len(written) else None
            if label is not None and _is_symbol(label) and not _IN_BOX_LABEL.match(element):
                element = f"{label} = {element}"  # the name moves with its value
            placed[place] = element
        return tuple(placed)
    if len(boxes) == 1 and count > 1:
        elements = tuple(_SPACING.sub("", e).strip() for e in split_top_level(boxes[0], ","))
        if len(elements) == count:
            order = labelled_order(elements, (), question)
            if order is not None and order != tuple(range(count)):
                placed = [""] * count
                for element, place in zip(elements, order, strict=True):
                    placed[place] = element
                return (", ".join(placed),)
    return boxes


# a line that answers a part of its own: its mark, a short label, one box, nothing after it
_PART_LINE = re.compile(
    r"^[ \t*]*\(?(?P<mark>[a-h])\)[ \t*]*(?P<label>[^\n]{0,160}?)\\boxed\{[^\n]*\}[ \t$.]*$",
    re.MULTILINE,
)
# words of a line that may revise another part or hedge: such a line is read, never dropped
_NOT_A_PART = re.compile(
    r"\b(?:actually|wait|instead|correct(?:ion|ed)?|revis\w*|rather|or|maybe|perhaps|answer)\b"
    r"|\([a-h]\)",
    re.IGNORECASE,
)


def without_unasked_parts(pred: str, question: str | None, count: int) -> str:
    """``pred`` without the lines at its end that answer parts the question does not ask
    ("(c) Time of flight: \\boxed{2.04 s}" after the asked (a) and (b)), so that the last
    boxes are the asked ones (red team r35b: the extra part shifted the tuple). Only where
    the question letters exactly ``count`` parts, the answer's lines before them letter the
    same parts, and nothing but such lines follows; else unchanged."""
    if not question or count < 2:
        return pred
    marks = [_index(m.group(1)) for m in _PART_MARK.finditer(asking_part(question))]
    if marks != list(range(count)):
        return pred
    lines = list(_PART_LINE.finditer(pred))
    extra = [line for line in lines if _index(line.group("mark")) >= count]
    if not extra or lines[-1] is not extra[-1]:
        return pred
    cut = extra[0].start()
    asked = [_index(line.group("mark")) for line in lines if line.start() < cut]
    if asked[-count:] != list(range(count)):
        return pred
    rest = pred[cut:]
    if any(_index(line.group("mark")) < count for line in lines if line.start() >= cut):
        return pred
    if any(_NOT_A_PART.search(line.group("label")) for line in extra):
        return pred  # "(c) Actually (a) is …": a revision, read with the rest
    if _PART_LINE.sub("", rest).strip():
        return pred  # other words among the extra parts (a revision, a hedge): read them all
    return pred[:cut]
