"""What the rules read off a question: the unit it asks for, and the math it writes.

The unit a question asks for, so a unitless gold can be compared with an answer in units.

Release golds often drop the unit the question names: "How long does it take (in days)?"
with gold ``57``. An answer of ``4.9\\times10^{6}\\,\\mathrm{s}`` is then correct, and one of
``57\\,\\mathrm{kg}`` is not. Only explicit requests count ("in days", "(in eV)", "in units
of km/s", "[MeV]", "express ... in K"): a unit is never guessed from an arbitrary word, so
"in a magnetic field" names no unit (pint would read ``a`` as a year).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from studybench.verify.normalize import normalize_answer
from studybench.verify.units import parse_unit

MAX_QUESTION_CHARS = 20_000
# A question's math, inline ($…$, \(…\)) or displayed (\[…\]): where its symbols are written.
_MATH = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
# A name as a question writes one: a letter or command with one subscript and primes.
NAME = re.compile(r"\\?[A-Za-z]+(?:_\s*(?:\{[^{}]*\}|\\?\w))?'*")


def question_math(question: str) -> str:
    """The math a question writes, its pieces joined by spaces: the names it asks about and
    the values it gives are read there, never in its prose ("a" is an article there)."""
    return " ".join(next(filter(None, m.groups()), "") for m in _MATH.finditer(question))


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
        # a single word right before punctuation: "Find the energy in eV."
        r"\bin\s+(\$[^$]{1,40}\$|[A-Za-z°µμΩÅ\\][^\s,.;:?!()]{0,25})(?=\s*[.,;:?!)]|\s*$)",
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
_SENTENCE_END = re.compile(r"[.?!](?=\s|$)")
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


def _sentence(text: str, position: int) -> str:
    """The sentence of ``text`` that holds ``position``."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        if end.start() >= position:
            return text[start : end.end()]
        start = end.end()
    return text[start:]


def _names_data(text: str, match: re.Match[str], asking: bool) -> bool:
    """Whether a unit found in ``text`` labels the data, not the answer: a clause saying
    what the data are in ("The height is given in m."), or, where some sentence asks for
    the answer (``asking``), a sentence that asks nothing ("A block of mass m [kg] slides
    down a ramp."). A question that asks nowhere keeps every unit it names."""
    before = text[: match.start(1)]
    if _DATA_UNIT.search(before.rstrip("( [$\\")):
        return True
    return asking and _ASKING.search(_sentence(text, match.start())) is None


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
