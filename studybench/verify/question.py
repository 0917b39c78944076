"""What the rules read off a question: the unit it asks for, and the math it writes.

The unit a question asks for, so a unitless gold can be compared with an answer in units.

Release golds often drop the unit the question names: "How long does it take (in days)?"
with gold ``57``. An answer of ``4.9\\times10^{6}\\,\\mathrm{s}`` is then correct, and one of
``57\\,\\mathrm{kg}`` is not. Only explicit requests count ("in days", "(in eV)", "in units
of km/s", "[MeV]", "express ... in K"): a unit is never guessed from an arbitrary word, so
"in a magnetic field" names no unit (pint would read ``a`` as a year).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import Any

from studybench.verify.asked import asked_question
from studybench.verify.asking import (
    ASKS,
    MAX_QUESTION_CHARS,
    SENTENCE_END,
    asking_part,
    asking_sentences,
)
from studybench.verify.normalize import MATH_SPAN, normalize_answer
from studybench.verify.units import counted_word, parse_unit

_MATH = MATH_SPAN


def symbols_of(text: str) -> set[str]:
    """The letters and Greek commands ``text`` writes as symbols (``2gh``: g and h)."""
    greek = set(_GREEK_COMMAND.findall(text))
    plain = re.sub(r"\\[A-Za-z]+", " ", text)  # a command is a function or a Greek letter
    return greek | set(re.findall(r"[A-Za-z]", plain))  # "2gh" is g times h


_GREEK_COMMAND = re.compile(
    r"\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa"
    r"|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta"
    r"|Lambda|Xi|Pi|Sigma|Phi|Psi|Omega)(?![A-Za-z])"
)


# A requested unit ends at punctuation, a closing bracket, "and"/"or", or the end.
_END = r"(?=\s*(?:[.,;:?!)\]]|\s(?:and|or|with|to|rounded|accurate|using|assuming)\b|$))"
_UNIT = r"(\$[^$]{1,40}\$|\\\([^)]{1,40}\\\)|[A-Za-z°µμΩÅ\\][\w°µμΩÅ\\/^{}.*\-\s]{0,30}?)"
_REQUESTS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        rf"\bin\s+units\s+of\s+{_UNIT}{_END}",
        rf"\(\s*in\s+{_UNIT}\s*\)",
        rf"\[\s*(?:in\s+)?{_UNIT}\s*\]",
        rf"\b(?:express(?:ed)?|give|answer|write|report|state)\b[^.?!]{{0,80}}?\bin\s+{_UNIT}{_END}",
        rf"\bin\s+{_UNIT}\s*[?]",
        # a single word right before punctuation, "and" or "or": "Find the energy in eV.",
        # "Find the height in m and the time in s"
        r"\bin\s+(\$[^$]{1,40}\$|[A-Za-z°µμΩÅ\\][^\s,.;:?!()]{0,25})"
        r"(?=\s*[.,;:?!)]|\s*$|\s*,?\s+(?:and|or)\b)",
        rf"\b(?:unit|units)\s*:\s*{_UNIT}{_END}",
    )
)
_TURNS = r"(?:revolutions?|turns?|rotations?|cycles?|revs?)\b"
# Dimensionless scales a question names: the unitless gold is then in that scale (a question
# about a "percentage" has the gold 25 for 25 %), never a plain fraction.
_SCALES = tuple(
    (re.compile(pattern, re.IGNORECASE), unit)
    for pattern, unit in (
        # a scale names the answer's unit only where the answer is asked in it: "what
        # percentage", "in degrees"; "an efficiency of 25 %" or "inclined at 30 degrees" in
        # the data names none (0.75 % was read as 0.75 in percent)
        (
            r"\b(?:in|as\s+an?|what|which|by\s+how\s+many|how\s+many)\s+percent(?:age)?s?\b"
            r"|\bpercent(?:age)?s?\s+(?:of|change|error|difference|increase|decrease|loss"
            r"|gain|uncertainty|efficiency)\b|\(\s*(?:in\s+)?(?:\\?%|percent)\s*\)|\bin\s+\\?%",
            "percent",
        ),
        (r"\bppm\b|\bparts\s+per\s+million\b", "ppm"),
        (r"\bppb\b|\bparts\s+per\s+billion\b", "ppb"),
        (
            r"\b(?:in|how\s+many|in\s+units\s+of)\s+(?:degrees?\b(?!\s*(?:celsius|fahrenheit|kelvin"
            r"|C\b|F\b))|(?:°|\^\s*\{?\s*\\circ\s*\}?)(?!\s*(?:\\mathrm\{|\\text\{)?\s*[CFK]\b))"
            r"|\(\s*(?:in\s+)?(?:degrees?|°|\^\s*\{?\s*\\circ\s*\}?|deg)\s*\)",
            "degree",
        ),
        # a count of turns only where the answer is asked in them: "efficiency of the cycle"
        # or "turns per second" in the data names no scale of the answer (40 % was read as
        # 0.4 turn = 2.5 rad)
        (
            r"\b(?:in\s+(?:units\s+of\s+)?|how\s+many\s+(?:complete\s+|full\s+)?"
            rf"|number\s+of\s+(?:complete\s+|full\s+)?){_TURNS}",
            "turn",
        ),
        (
            r"\b(?:in|how\s+many|in\s+units\s+of)\s+radians?\b|\(\s*(?:in\s+)?rad(?:ians?)?\s*\)",
            "radian",
        ),
    )
)
# English words that pint would read as units.
_NOT_UNITS = {"a", "an", "the", "at", "in", "it", "is", "of", "on", "s?", "so", "per", "t"}


def _as_unit(raw: str) -> Any | None:
    text = raw.strip().strip("$").strip()
    if text.startswith("\\(") and text.endswith("\\)"):
        text = text[2:-2]
    if not text or text.casefold() in _NOT_UNITS or len(text) > 40:
        return None
    unit = parse_unit(normalize_answer(text))
    if unit is None or unit.dimensionless:
        return None
    return unit


# A sentence ends at ., ? or ! before a space or the end (never inside 2.5).
# What makes a sentence ask for the answer: a question mark or an asking verb.
_ASKING = re.compile(
    r"\?|\b(?:find|what|which|how|calculate|compute|determine|estimate|evaluate|obtain"
    r"|derive|express|give|answer|write|report|state|show|predict|solve)\b",
    re.IGNORECASE,
)
# A unit that a clause says the data are in: "given in m", "measured in cm".
_DATA_UNIT = re.compile(
    r"\b(?:given|measured|quoted|listed|specified|tabulated|recorded)\s+in\s*$", re.IGNORECASE
)
_DATA_UNIT_REACH = 40  # characters: the longest clause above, its spaces collapsed


@lru_cache(maxsize=64)
def _sentence_ends(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where each sentence end of ``text`` starts and ends: found once per text, so that
    finding the sentence of each unit a question names is a lookup (a scan from the start
    for each was quadratic: 3 s for a 20,000-character question)."""
    ends = list(SENTENCE_END.finditer(text))
    return tuple(end.start() for end in ends), tuple(end.end() for end in ends)


def _sentence(text: str, position: int) -> str:
    """The sentence of ``text`` that holds ``position``."""
    starts, stops = _sentence_ends(text)
    index = bisect.bisect_left(starts, position)  # the first end at or after ``position``
    start = stops[index - 1] if index else 0
    return text[start : stops[index]] if index < len(starts) else text[start:]


def _names_data(text: str, match: re.Match[str], asking: bool) -> bool:
    """Whether a unit found in ``text`` labels the data, not the answer: a clause saying
    what the data are in ("The height is given in m."), or, where some sentence asks for
    the answer (``asking``), a sentence that asks nothing ("A block of mass m [kg] slides
    down a ramp."). A question that asks nowhere keeps every unit it names."""
    before = text[: match.start(1)].rstrip("( [$\\")
    # the clause ends ``before``: only its last words are read (a search of the whole
    # prefix for each unit was quadratic); ``\\b`` still sees the character before them
    if _DATA_UNIT.search(before, max(0, len(before) - _DATA_UNIT_REACH)):
        return True
    return asking and _ASKING.search(_sentence(text, match.start())) is None


# angles the data are written in: degrees ("45^\\circ", "30°", "\\degree", "30 degrees", not
# a temperature), radians ("\\pi/4 rad", "2 radians")
_DATA_DEGREES = re.compile(
    r"(?:°|\^\s*\{?\s*\\circ\s*\}?|\\degree(?![A-Za-z])|\bdeg(?:rees?)?\b)"
    r"(?!\s*(?:\\mathrm\s*\{|\\text\s*\{|\\rm\s*)?\s*(?:[CFK]\b|celsius|fahrenheit|kelvin))",
    re.IGNORECASE,
)
_DATA_RADIANS = re.compile(r"\brad(?:ians?)?\b|\\(?:mathrm|text|rm)\s*\{\s*rad\s*\}")


# an asking part that asks for an angle, and one whose quantity is in radians whatever the data
_ASKS_ANGLE = re.compile(r"\bangles?\b|\bdirection\b|\bbearing\b|\bheading\b", re.IGNORECASE)
_ASKS_RADIANS = re.compile(
    r"\bSI\b|\bphase\b|\bangular\s+(?:displacement|amplitude|position)\b|\brad(?:ians?)?\b"
    # an angle turned through is an angular displacement (red team r26b)
    r"|\b(?:turn|rotat|spin|revolv|swe(?:ep|pt))\w*",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def data_angle_unit(question: str | None) -> Any | None:
    """The one unit the question writes its angles in (degree or radian), where it asks for an
    angle (not a phase, an angular displacement or SI units); None where it writes none or
    both. A bare gold for an angle is in that unit: "incidence of
    $45^\\circ$ … Find the angle of refraction" has the gold 30 for 30°, so 30 rad is wrong
    (red team r22a: applying the degree made 30° 0.52 and 30 rad 30)."""
    if not question:
        return None
    text = question[:MAX_QUESTION_CHARS]
    asking = asking_part(text)
    if _ASKS_ANGLE.search(asking) is None or _ASKS_RADIANS.search(asking) is not None:
        return None  # a phase, an angular displacement, SI units: radians (red team r25b)
    degrees = _DATA_DEGREES.search(text) is not None
    radians = _DATA_RADIANS.search(text) is not None
    if degrees == radians:
        return None
    return parse_unit("degree" if degrees else "radian")


@lru_cache(maxsize=1024)
def requested_units(question: str | None) -> tuple[Any, ...]:
    """The units ``question`` asks the answer in, in order of appearance, without repeats;
    then the dimensionless scales it names (``percentage``, ``degrees``, ``revolutions``).
    A unit named in a sentence that states data, not the question, is not asked for
    (:func:`_names_data`)."""
    if not question:
        return ()
    text = question[:MAX_QUESTION_CHARS]
    asking = _ASKING.search(text) is not None
    found: list[tuple[int, Any]] = []
    for pattern in _REQUESTS:
        for match in pattern.finditer(text):
            if _names_data(text, match, asking):
                continue
            unit = _as_unit(match.group(1))
            if unit is not None:
                found.append((match.start(), unit))
    for pattern, name in _SCALES:
        scale = pattern.search(text)
        if scale is not None:
            found.append((len(text) + scale.start(), parse_unit(name)))  # after the dimensional
    units: list[Any] = []
    for _, unit in sorted(found, key=lambda pair: pair[0]):
        if unit is not None and unit not in units:
            units.append(unit)
    return tuple(units)


# the words with which a question asks for an extreme value: an answer written as a bound
# pointing that way ("v \\ge 4 m/s" for "the minimum speed") states it
_ASKS_UPPER = re.compile(
    r"\b(?:max(?:imum|imal|imise|imize)?|greatest|largest|highest|biggest|most|upper\s+(?:bound"
    r"|limit)|at\s+most|no\s+more\s+than|not\s+exceed)\b",
    re.IGNORECASE,
)
_ASKS_LOWER = re.compile(
    r"\b(?:min(?:imum|imal|imise|imize)?|least|smallest|lowest|fewest|lower\s+(?:bound|limit)"
    r"|at\s+least|threshold)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def asked_bound(question: str | None) -> str | None:
    """``"upper"`` when ``question`` asks for a greatest value ("the maximum speed", "at
    most"), ``"lower"`` for a least one, None when it asks for neither or for both. A value
    written as a bound ("v \\le 14.5 m/s") answers only a question that asks for one."""
    if not question:
        return None
    text = question[:MAX_QUESTION_CHARS]
    upper, lower = _ASKS_UPPER.search(text), _ASKS_LOWER.search(text)
    if (upper is None) == (lower is None):
        return None
    return "upper" if upper is not None else "lower"


# -- which names a question asks about, and which it gives ---------------------------------
_GREEK = (
    "alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu"
    "|xi|rho|varrho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi"
    "|Sigma|Upsilon|Phi|Psi|Omega|ell"
)
# A name as a question's math writes one, marks and subscript included: ``T_0``, ``\\theta``,
# ``\\Delta T``, ``\\dot{x}_1``, ``h_{\\min}``, ``v'``. Single letters only: ``mgh`` is three.
WRITTEN_NAME = re.compile(
    r"(?<![A-Za-z\\])"
    r"(?:\\(?:Delta|delta|dot|ddot|dddot|bar|overline)(?![A-Za-z])\s*(?=[\\{A-Za-z]))?"
    rf"(?:\{{\s*(?:\\(?:{_GREEK})(?![A-Za-z])|[A-Za-z])\s*\}}|\\(?:{_GREEK})(?![A-Za-z])"
    r"|[A-Za-z](?![A-Za-z]))"
    r"(?:\s*_\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\(?:mathrm|text|rm)\s*\{[^{}]*\}|\\[A-Za-z]+"
    r"|[A-Za-z0-9]))?'*"
)
# a unit or word set upright after a number (30.0\,\mathrm{m/s}): no name; a subscript's
# (T_{\text{eq}}) stays
_UPRIGHT = re.compile(r"(?<![_{\s])\s*\\(?:mathrm|text|textrm|rm|mbox|operatorname)\s*\{[^{}]*\}")
_UNIT_AFTER_NUMBER = re.compile(
    r"(?<=\d)(?:\s|\\[,;: ])*\\(?:mathrm|text|textrm|rm|mbox)\s*\{[^{}]*\}"
)
# "v_0 = 30.0 m/s", "C_V = \frac{3}{2}R": a name given a value; "t = 0" is a reference point
_GIVEN = re.compile(r"^\s*(?P<name>[^=<>]+?)\s*(?:=|\\approx(?![A-Za-z]))\s*(?P<value>[^=]+)")
_PIECES = re.compile(r"(?<!\\)[,;]|\\q?quad(?![A-Za-z])|\\text\s*\{\s*and\s*\}|\s+and\s+")
# the words between an asking verb and the name it asks about: "For which range of $d$",
# "For what range of object distances $u$", "Find the minimum release height $h_{\min}$";
# a relative clause ("for which", "such that") leads to a condition, not the asked name
_ASKED_LEAD = re.compile(r"^[A-Za-z\s\-]{0,80}$")
_CONDITION_WORDS = re.compile(
    r"\b(?:which|that|when|where|whose|if|such|while|unless|given|with|so|for|at|in|on|by)\b",
    re.IGNORECASE,
)
# what may open a sentence before its asking verb: "(b) For which", "Hence, find", "Now find"
_VERB_START = re.compile(
    r"^\s*(?:\(?[a-z0-9]{1,4}\)\s*)?(?:(?:for|in|over|at|within|hence|now|then|so|also"
    r"|finally|next|thus|and|to)\b,?\s*){0,2}$",
    re.IGNORECASE,
)
_NAME_RATIO = re.compile(
    rf"\\[dt]?frac\s*\{{\s*(?:{WRITTEN_NAME.pattern})\s*\}}\s*\{{\s*(?:{WRITTEN_NAME.pattern})\s*\}}"
    rf"|(?:{WRITTEN_NAME.pattern})\s*/\s*(?:{WRITTEN_NAME.pattern})"
)


# a name with its arguments: "v(t)", "U_{\\mathrm{eff}}(\\theta)", "T(x, t)"
_APPLIED_NAME = re.compile(
    rf"(?:{WRITTEN_NAME.pattern})\s*(?:\\left)?\(\s*[^()$]{{1,20}}\s*(?:\\right)?\)"
)


def math_names(math: str) -> list[str]:
    """The names ``math`` writes (:data:`WRITTEN_NAME`), units after numbers left out."""
    bare = _UPRIGHT.sub(" ", _UNIT_AFTER_NUMBER.sub(" ", math))
    return [m.group(0).strip() for m in WRITTEN_NAME.finditer(bare)]


_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")  # a word of prose, not a command


@lru_cache(maxsize=256)
def asked_words(question: str) -> frozenset[str]:
    """The words (of four letters or more) with which the question asks, case folded, but
    words of value (``twice``, ``less``): a remark after an answer may repeat them, as it
    names the quantity asked (``8.00 V (induced emf)`` for "Find the induced emf")."""
    from studybench.verify.relations import VALUE_WORDS

    prose = MATH_SPAN.sub(" ", asking_part(question))
    return frozenset(w.casefold() for w in _PROSE_WORD.findall(prose)) - VALUE_WORDS


# words that name no quantity, so say nothing of which element a remark is about
_ORDER_NEUTRAL = frozenset("the of and in at to on for an as by is its that this with".split())


def remarks_in_asked_order(elements: tuple[str, ...], question: str) -> bool:
    """Whether the remarks after several answer elements name the asked quantities in the
    order the question asks for them: each element's own remark words (in no other
    element's remark) first appear in the asking part after the previous element's. "2.0 m/s
    (lighter block), 3.0 m/s (heavier block)" for "the heavier block and the lighter block, in
    that order" swaps the names: then the question's words are no remark (red team r17)."""
    from studybench.verify.normalize import split_top_level
    from studybench.verify.relations import remark_words

    if len(elements) == 1:
        elements = tuple(split_top_level(elements[0], ","))
    if len(elements) < 2:
        return True
    asking = asking_part(question).casefold()
    prose = MATH_SPAN.sub(" ", asking)
    asked = frozenset(re.findall(r"(?<![\\a-z])[a-z]{2,}", prose)) - _ORDER_NEUTRAL
    named = [remark_words(element) & asked for element in elements]
    places = []
    for index, words in enumerate(named):
        own = words.difference(*named[:index], *named[index + 1 :])
        found = [m.start() for w in own if (m := re.search(rf"\b{re.escape(w)}", asking))]
        if found:
            places.append(min(found))
    return places == sorted(set(places))


@lru_cache(maxsize=1024)
def given_names(question: str) -> frozenset[str]:
    """The names ``question`` gives a value or a formula to, as :func:`~studybench.verify.
    chains.quantity_key` keys: ``$f_1 = 10.0\\,\\mathrm{cm}$``, ``$g = 9.80$``, ``$C_V =
    \\frac{3}{2}R$``, ``$m = -v/u$``. ``$t = 0$`` names an instant, no value of t."""
    from studybench.verify.chains import quantity_key

    return frozenset(quantity_key(math_names(name)[0]) for name, _ in given_assignments(question))


@lru_cache(maxsize=1024)
def given_assignments(question: str) -> tuple[tuple[str, str], ...]:
    """Each ``name = value`` of ``question``'s math whose name is one written name, as written:
    ``("v_0", "30.0\\,\\mathrm{m/s}")``. ``$t = 0$`` names an instant, no value of t."""
    found = []
    text = question[:MAX_QUESTION_CHARS]
    spans = (next(filter(None, m.groups()), "") for m in _MATH.finditer(text))
    for piece in (p for span in spans for p in _PIECES.split(span)):
        match = _GIVEN.match(piece)
        if match is None or match.group("value").strip() in ("0", "0.0"):
            continue
        name = match.group("name").strip()
        if len(math_names(name)) == 1 and WRITTEN_NAME.fullmatch(name):
            found.append((name, match.group("value").strip()))
    return tuple(found)


@lru_cache(maxsize=1024)
def asked_names(question: str, applied: bool = False) -> tuple[str, ...]:
    """The name (or ratio of names) an asking sentence writes right after the verb it opens
    with, words only between: ``d`` of "For which range of $d$, in centimetres, ...",
    ``m_1/m_2`` of "For which values of the mass ratio $m_1/m_2$ ...". A sentence that names
    its quantity in words ("Find the set of launch angles, in degrees between $0^\\circ$
    ...") gives none, nor a name after a condition ("Find the range of speeds for which $x >
    0$"), nor a relative clause of the setup ("A bead which slides along $x$ ..."). With
    ``applied``, a name with its arguments counts too: ``v(t)`` of "Find the speed $v(t)$"."""
    found = []
    for sentence in asking_sentences(question):
        verb = next(
            (v for v in ASKS.finditer(sentence) if _VERB_START.match(sentence[: v.start()])),
            None,
        )
        if verb is None or verb.group(0) == "?":
            continue
        math = _MATH.search(sentence, verb.end())
        if math is None:
            continue
        lead = sentence[verb.end() : math.start()]
        if not _ASKED_LEAD.match(lead) or _CONDITION_WORDS.search(lead):
            continue
        span = next(filter(None, math.groups()), "").strip()
        names = (
            (WRITTEN_NAME, _NAME_RATIO, _APPLIED_NAME) if applied else (WRITTEN_NAME, _NAME_RATIO)
        )
        if any(name.fullmatch(span) for name in names):
            found.append(span)
    return tuple(found)


def single_asked_name() -> str | None:
    """The one name the question of the comparison asks for (``v(t)`` of "Find the speed
    $v(t)$"; :func:`asked_names`, a name with arguments included), or None without a question
    or where it asks for several."""
    question = asked_question(folded=False)
    names = set(asked_names(question, applied=True)) if question else set()
    return names.pop() if len(names) == 1 else None


# "What range of temperatures", "Find the set of launch angles, ...": the noun a question
# asks the range of, in words (its last word: "angles" of "launch angles")
_ASKED_NOUN = re.compile(
    r"\b(?:range|set|values?|interval)\s+of\s+(?:(?:the|possible|allowed|all)\s+)*"
    r"(?P<noun>[A-Za-z][A-Za-z\- ]{0,40}?)"
    r"(?=\s*[,.;:?$]|\s+(?:for|that|which|does|do|is|are|can|could|would|will|in|at|such|so"
    r"|of|over|during|where|when|between)\b)",
    re.IGNORECASE,
)
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s*$")


def _stem(word: str) -> str:
    word = word.lower()
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


@lru_cache(maxsize=1024)
def asked_nouns(question: str) -> frozenset[str]:
    """The nouns ``question`` asks the range of, in words, singular: ``angle`` of "Find the
    set of launch angles", ``temperature`` of "What range of temperatures"."""
    return frozenset(
        _stem(match.group("noun").split()[-1])
        for sentence in asking_sentences(question)
        for match in _ASKED_NOUN.finditer(sentence)
    )


def named_nouns(question: str, key: str) -> frozenset[str]:
    """The nouns ``question`` writes right before a math span holding only the name whose
    :func:`~studybench.verify.chains.quantity_key` is ``key``, singular: ``angle`` of "at an
    angle $\\theta$", ``pressure`` of "with pressure $p_0$"."""
    from studybench.verify.chains import quantity_key

    text = question[:MAX_QUESTION_CHARS]
    nouns = set()
    for span in _MATH.finditer(text):
        if quantity_key(next(filter(None, span.groups()), "")) != key:
            continue
        before = _WORD_BEFORE.search(text[: span.start()])
        if before is not None:
            nouns.add(_stem(before.group(1)))
    return frozenset(nouns)


# a question that asks how much a temperature changes: "By how much does the temperature
# rise?", "Find the temperature change", "What is the increase in temperature", "Find
# \\Delta T". Its answer is a step of a scale, so 25 °C is 25 K there, not 298 K.
_TEMPERATURE_CHANGE = re.compile(
    r"\btemperature\s+(?:rise|increase|drop|fall|decrease|change|difference|increment|jump|climb)"
    r"|\bhow\s+many\s+(?:kelvins?|degrees)\b"
    r"|\b(?:rise|increase|drop|fall|decrease|change|difference|increment)s?\s+(?:in|of)\s+"
    r"(?:the\s+)?(?:[\w'’]+\s+){0,2}temperature"
    r"|\bby\s+how\s+(?:much|many\s+degrees)\b[^.?!]{0,60}\b(?:temperature|warm|cool|heat|hotter"
    r"|colder)"
    r"|\b(?:temperature|it|the\s+\w+)\s+(?:rises|increases|drops|falls|decreases|changes|climbs)\s+by\b"
    r"|\bhow\s+much\s+(?:warmer|cooler|hotter|colder)\b"
    r"|\bhow\s+much\s+does\s+(?:its|the(?:\s+[\w'’]+){0,2})\s+temperature\s+(?:go|climb|rise|fall|drop)"
    r"|\\Delta\s*T(?![A-Za-z])|Δ\s*T(?![A-Za-z])",
    re.IGNORECASE,
)


def asks_temperature_change(question: str | None) -> bool:
    """Whether ``question`` asks for a change of temperature (see ``_TEMPERATURE_CHANGE``) in
    a sentence that asks; data that mention one ("It is heated by 20 °C. Find its final
    temperature.") do not."""
    if not question:
        return False
    asking = asking_sentences(question)
    if not asking:
        return False
    # the part asked now is the last: "(a) By how much does it rise? (b) Find its final
    # temperature." asks a point of the scale; a change named in a condition ("If its
    # temperature rises by 25 K, what is its final temperature?") is data
    sentence = _CONDITION_CLAUSE.sub(" ", asking[-1])
    if _POINT_OF_SCALE.search(sentence):
        return False
    return _TEMPERATURE_CHANGE.search(sentence) is not None


_POINT_OF_SCALE = re.compile(
    r"\b(?:final|initial|equilibrium|resulting|new|common|steady[-\s]state|mixture|end|starting"
    r"|highest|lowest|maximum|minimum|peak)\s+(?:[\w'’]+\s+)?temperature"
    r"(?!\s+(?:rise|increase|drop|fall|decrease|change|difference|increment|jump|climb))",
    re.IGNORECASE,
)
_CONDITION_CLAUSE = re.compile(
    r"\b(?:if|given|after|when|once|since|because|with)\b[^,;?]*[,;]", re.IGNORECASE
)


# The quantity an asking sentence names, and the unit of its dimension: "Find the normal force
# N", "What is the induced current?", "Derive an expression for the maximum height". A word
# before it that changes the quantity (angular speed, surface tension, specific heat) or one
# after it (energy density, time constant... heat capacity, speed ratio) names no such thing.
_QUANTITY_UNITS = {
    "force": "N", "tension": "N", "weight": "N", "thrust": "N",
    "current": "A",
    "speed": "m/s", "velocity": "m/s",
    "acceleration": "m/s^2",
    "position": "m", "distance": "m", "height": "m", "range": "m", "radius": "m",
    "length": "m", "displacement": "m", "wavelength": "m", "separation": "m", "depth": "m",
    "work": "J", "energy": "J", "heat": "J",
    "pressure": "Pa",
    "period": "s", "time": "s",
    "voltage": "V", "emf": "V",
    "power": "W",
    "frequency": "Hz",
    "mass": "kg",
    "charge": "C",
    "momentum": "kg*m/s",
}  # fmt: skip
_ASKED_QUANTITY = re.compile(
    r"\b(?:find|determine|calculate|compute|derive|obtain|give|express|write(?:\s+down)?"
    r"|what\s+(?:is|are|was|were|will\s+be))\s+"
    r"(?:an?\s+(?:expression|formula)\s+for\s+)?(?:the\s+|its\s+)?"
    r"(?:(?:magnitude|size|value)\s+of\s+(?:the\s+)?)?"
    r"(?:(?!(?:of|per|and|to|in|for|the|a|an|ratio|fraction|angular|specific|surface|rate"
    r"|change|latent|linear|relative|fractional|mean\s+free|rotational|rotation|spin)\b)[a-z\-]+\s+){0,2}?"
    rf"(?P<noun>{'|'.join(_QUANTITY_UNITS)})s?\b"
    r"(?!(?:\s+[a-z]+){0,3}\s+per\s+unit\b|\s+of\s+rotation\b|\s+flow\b|\s+transfer\b)"
    r"(?!\s*(?:-|density|densities|flux|per\b|rate|ratio|constant|gradient|coefficient"
    r"|fraction|factor|capacity|capacities|scale|dilation|difference|derivative|squared))",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def asked_dimension(question: str | None) -> Any | None:
    """The unit of the dimension of the quantity the question's part asks for, by the noun
    that names it (:data:`_QUANTITY_UNITS`); None where no asking sentence names one. A unit
    written after a symbolic answer is then checked against it: ``\\frac{3}{7}mg\\,\\mathrm{kg}``
    is no force, though the gold, a formula, has no unit to compare it with."""
    if not question:
        return None
    sentences = asking_sentences(asking_part(question) or question)
    for sentence in reversed(sentences):
        match = _ASKED_QUANTITY.search(sentence)
        if match is None:
            continue
        rest = _ASKED_CONDITION.split(sentence[match.end() :], maxsplit=1)[0]
        named = {
            m.group(1).lower() for m in _QUANTITY_NOUN.finditer(sentence[: match.end()] + rest)
        }
        if len(named) > 1:
            return None  # "the emf and the current": one answer's unit is no guide to both
        return parse_unit(_QUANTITY_UNITS[match.group("noun").lower()])
    return None


# where the asked quantity's name ends and a condition begins: "the current when the rod moves
# with speed v" asks for one quantity
_ASKED_CONDITION = re.compile(
    r"\b(?:when|if|while|after|before|once|given|with|at|in\s+terms\s+of|as\s+a\s+function)\b",
    re.IGNORECASE,
)
_QUANTITY_NOUN = re.compile(rf"(?<!-)\b({'|'.join(_QUANTITY_UNITS)})s?\b(?!-)", re.IGNORECASE)


# "to six significant figures", "(give 5 s.f.)", "accurate to four significant digits"
_STATED_FIGURES = re.compile(
    r"\b(?P<n>\d{1,2}|four|five|six|seven|eight|nine|ten)\s+(?:significant\s+(?:figures|digits)"
    r"|sig\.?\s*figs?\b|s\.\s?f\.)",
    re.IGNORECASE,
)
_FIGURE_WORDS = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# The gold's leading number as written: its digits say how precise it is
_GOLD_MANTISSA = re.compile(r"^\s*[-+−]?\s*(?P<whole>\d+)(?:\.(?P<decimals>\d+))?(?![\d.])")
# Fewer figures than this leave the 1 % tolerance as it is: three figures are what 1 % means
MIN_STATED_FIGURES = 4


def stated_tolerance(question: str | None, gold: str, tolerance: float) -> float:
    """The tolerance of a numeric answer where the question asks for a precision finer than
    the default 1 % ("to six significant figures") and the gold writes exactly that many
    figures (``3.14159``): half a unit of the gold's last digit. An answer off in its fifth
    figure (``3.14169``) was right at 1 %, though the question asked for six. Otherwise
    ``tolerance`` as it was."""
    if not question:
        return tolerance
    stated = _STATED_FIGURES.search(question)
    number = _GOLD_MANTISSA.match(gold)
    if stated is None or number is None:
        return tolerance
    raw = stated.group("n").casefold()
    figures = int(raw) if raw.isdigit() else _FIGURE_WORDS[raw]
    decimals = number.group("decimals") or ""
    digits = (number.group("whole") + decimals).lstrip("0")
    value = float(f"{number.group('whole')}.{decimals or 0}")
    if figures < MIN_STATED_FIGURES or len(digits) != figures or value == 0:
        return tolerance
    half_unit = 0.5 * 10.0 ** -len(decimals) / value
    return min(tolerance, half_unit * (1 + 1e-6))


# "in units of $\tau$", "as a multiple of the electron mass $m_e$", "in multiples of $mg$"
_UNITS_OF_NAME = re.compile(
    r"\b(?:in\s+units\s+of|as\s+an?\s+multiple\s+of|in\s+multiples\s+of)\b[^$.?!]{0,60}?"
    r"\$\s*(?P<name>[^$]{1,40}?)\s*\$",
    re.IGNORECASE,
)


def _spelled(name: str) -> str:
    return re.sub(r"[\s{}\\]", "", name)


def units_of_names(question: str | None) -> frozenset[str]:
    """The names the question asks the answer in units of (``\\tau`` of "how long, in units
    of $\\tau$?"), spelled without spaces, braces and backslashes."""
    if not question:
        return frozenset()
    return frozenset(_spelled(m.group("name")) for m in _UNITS_OF_NAME.finditer(question))


_NUMBER_THEN_NAME = re.compile(
    r"^(?P<number>[-+]?\d+(?:\.\d+)?(?:\s*\\times\s*10\^\{?[-+]?\d+\}?)?)\s*(?P<name>\S.*?)\s*$"
)


def in_units_of_name(answer: str, gold: str, question: str | None) -> tuple[str, str] | None:
    """``(answer, gold)`` as bare numbers where the question asks for the value in units of a
    name and the gold is a number times that name (``2.30\\,\\tau`` for "in units of
    $\\tau$"): the answer ``2.3`` says the same as ``2.3\\tau``, and an answer ending in the
    name (``t = 2.30\\tau``) loses it too. None where that is not so; an answer with another
    unit or name keeps it, and is judged against a bare number (a unit where none is asked
    is no answer in units of the name)."""
    names = units_of_names(question)
    number = _NUMBER_THEN_NAME.match(gold)
    if re.search(r"%|percent", answer):
        return None  # 230 % is no 2.30 in units of the name
    if not names or number is None or _spelled(number.group("name")) not in names:
        return None
    if parse_unit(number.group("name")) is not None:
        return None  # L_\\odot, m_e: a unit, converted as units are
    name = _spelled(number.group("name"))
    worded = _NUMBER_THEN_WORDS.match(normalize_answer(answer))
    if worded is not None and _names_in_words(worded.group("words"), name, question or ""):
        return worded.group("number"), number.group("number")  # "2.30 time constants"
    stripped = answer.rstrip()
    for cut in range(len(stripped) - 1, max(len(stripped) - 40, 0), -1):
        if _spelled(stripped[cut:]) == name and not stripped[cut - 1].isalpha():
            stripped = stripped[:cut].rstrip(" \\,;")
            break
    if name in _spelled(stripped):
        return None  # the name elsewhere (\\tau\\ln 10): judged as written
    return stripped, number.group("number")


_NUMBER_THEN_WORDS = re.compile(
    r"^(?P<number>[-+]?\d+(?:\.\d+)?)\s+(?P<words>[A-Za-z]+(?:\s+[A-Za-z]+){0,2})$"
)
_WORDS_BEFORE = re.compile(r"((?:[A-Za-z]+\s+){0,2}[A-Za-z]+)\s*$")


def _names_in_words(words: str, name: str, question: str) -> bool:
    """Whether ``words`` are what the question calls the quantity ``name`` (spelled as
    :func:`_spelled`) right before writing it: "time constants" for "with time constant
    $\\tau$", the last word at least, in the singular or the plural."""
    said = [_stem(word) for word in words.split()]
    for span in _MATH.finditer(question[:MAX_QUESTION_CHARS]):
        if _spelled(next(filter(None, span.groups()), "")) != name:
            continue
        before = _WORDS_BEFORE.search(question[: span.start()])
        if before is not None and [_stem(w) for w in before.group(1).split()][-len(said) :] == said:
            return True
    return False


# "How many nodes does ...", "how many photons per second": the things a question counts
_HOW_MANY = re.compile(r"\bhow\s+many\s+([A-Za-z]+)(?:\s+([A-Za-z]+))?", re.IGNORECASE)


def counted_in_question(question: str | None) -> frozenset[str]:
    """The things ``question`` asks the number of (singular: ``node`` of "How many nodes")."""
    if not question:
        return frozenset()
    words = (w for match in _HOW_MANY.finditer(question) for w in match.groups() if w)
    return frozenset(filter(None, map(counted_word, words)))
