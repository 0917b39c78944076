"""Physical units in answers, read with pint.

A model writes ``150\\,\\mathrm{cm}`` where the gold says ``1.5\\,\\mathrm{m}``: the verifier
must convert, not strip the unit (stripping makes "10 cm" equal "10 m"). This module turns
the unit text of a normalised answer into a pint unit, and splits an answer into its value
and its unit.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

_PREFIX_WORDS = "atto|femto|pico|nano|micro|milli|centi|deci|kilo|mega|giga|tera|peta"
_UNIT_WORDS = (
    "(?:newton|ampere|amp|coulomb|volt|ohm|watt|joule|met(?:er|re)|gram|second|farad|henr"
    "|tesla|hertz|pascal|weber|lit(?:er|re)|mole|calorie|becquerel|gray|sievert|siemens)"
)
_UNIT_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\\vec\{([^{}]*)\}", r" \1 "),
        # temperature scales spelled out: "degrees Celsius" is no angle and no remark
        (r"(?i)\b(?:deg(?:ree)?s?\s+)?(?:celsius|centigrade)\b", " degC "),
        (r"(?i)\b(?:deg(?:ree)?s?\s+)?fahrenheit\b", " degF "),
        (r"(?i)\b(?:deg(?:ree)?s?\s+)?kelvins?\b", " K "),
        # solar and terrestrial units written with words: L_{\text{sun}}, M_{\rm Earth},
        # "solar masses", "Earth years" (a year on Earth is the year)
        (r"([MRL])_\s*\{?\s*(?:\\odot|\\astrosun|[Ss]un|solar)\s*\}?", r" solar_\1 "),
        (r"([MR])_\s*\{?\s*(?:\\oplus|[Ee]arth)\s*\}?", r" earth_\1 "),
        (r"(?i)\bsolar[\s_-]+mass(?:es)?\b", " solar_mass "),
        (r"(?i)\bsolar[\s_-]+radi(?:us|i)\b", " solar_radius "),
        (r"(?i)\bsolar[\s_-]+luminosit(?:y|ies)\b", " solar_luminosity "),
        (r"(?i)\bearth[\s_-]+mass(?:es)?\b", " earth_mass "),
        (r"(?i)\bearth[\s_-]+radi(?:us|i)\b", " earth_radius "),
        (r"(?i)\bearth[\s-]+(years?|days?)\b", r" \1 "),
        # "1836 electron masses": the electron's (proton's) mass as the unit
        (r"(?i)\belectron[\s-]+mass(?:es)?\b", " m_e "),
        (r"(?i)\bproton[\s-]+mass(?:es)?\b", " m_p "),
        # "800 J per cycle": the amount in one cycle, not joules per 2 pi radians
        (r"(?i)\s*(?:\bper\b|/)\s*(?:cycle|revolution|rev|oscillation|period|orbit)s?\b", " "),
        # an SI prefix written as a word of its own: "3.5 kilo-newtons", "2.0 mega electron
        # volts", "12 milli amperes" (pint read a difference, or no unit; red team r24b)
        (rf"(?i)\b({_PREFIX_WORDS})[\s-]+electron[\s-]*volts?\b", r" \1electronvolt "),
        (rf"(?i)\b({_PREFIX_WORDS})[\s-]+(?={_UNIT_WORDS})", r"\1"),
        # units of two or three words, and amperes as people say them ("2.0 amps": pint read
        # attometres per second), "degrees C" (a degree times a coulomb)
        (r"(?i)\blight[\s-]+years?\b", " light_year "),
        (r"(?i)\bastronomical[\s-]+units?\b", " astronomical_unit "),
        (r"(?i)\batomic[\s-]+mass[\s-]+units?\b", " amu "),
        (r"(?i)(?<![A-Za-z])(milli|micro|kilo)?amps?(?![A-Za-z])", r" \1ampere "),
        (r"\bdeg(?:ree)?s?\s+C\b", " degC "),
        (r"\bdeg(?:ree)?s?\s+F\b", " degF "),
        (r"(?i)henries\b", "henry"),
        (r"(?i)\belectron[\s-]*volts?\b", " eV "),  # not a counted electron times a volt
        (r"\\sec(?![a-zA-Z])", " s "),
        (r"\^\{\\circ\}\s*K(?![a-zA-Z])", " K "),  # degrees kelvin, old style
        (r"\^\{\\circ\}\s*C(?![a-zA-Z])", " degC "),
        (r"\^\{\\circ\}\s*F(?![a-zA-Z])", " degF "),
        (r"\^\{\\circ\}", " degree "),
        (r"%", " percent "),
        # physical constants written inside a unit: 3\,\mu_0 A/m, 2\,\hbar
        (r"\\mu_\{?0\}?", " mu_0 "),
        (r"\\(?:var)?epsilon_\{?0\}?", " epsilon_0 "),
        (r"\\hbar(?![a-zA-Z])", " hbar "),
        (r"(?<![A-Za-z])k_\{?B\}?", " k_B "),
        (r"(?<![A-Za-z])m_\{?([ep])\}?", r" m_\1 "),
        # gauss: pint's gauss is Gaussian-CGS and does not convert to tesla
        (r"(?<![A-Za-z_])([mkµ]?)(?:G|gauss|Gauss)(?![A-Za-z_])", r" \1gauss_SI "),
        (r"(?<![A-Za-z_])(?:Å|\\AA|\\mathring\s*\{?\s*A\s*\}?)", " angstrom "),
        (r"\\mu\s*", "µ"),
        # a prefix set apart from the ohm sign: "3.5 k \Omega" is kilo-ohms (pint read
        # Boltzmann's constant times an ohm)
        (r"(?<![A-Za-z_\\])([kMG])\s+\\Omega", r"\1\\Omega"),
        (r"\\Omega", "ohm"),
        # "4.70 kilohms", "2 megohms": the prefix's vowel dropped as people write it
        (r"(?i)\b(kil|meg)ohms?\b", r" \1oohm "),
        (r"(?i)\b(kil|meg)o-?ohms?\b", r" \1oohm "),
        # "25 per cent": the percent
        (r"(?i)\bper\s*cent\b", " percent "),
        # "y" alone is the year (pint knows it only as the prefix yocto): 1.75 y
        (r"(?<![A-Za-z_\\])y(?![A-Za-z_])", " yr "),
        (r"\\(?:cdot|times)", "*"),
        (r"\^\s*\{\s*([+-]?\s*[\d./]+)\s*\}", r"**(\1)"),
        (r"\^\s*([+-]?\d+)", r"**\1"),
        (r"(?<=[a-zA-Zµ])\.(?=[a-zA-Zµ])", "*"),
    )
)
_SOLAR = {"solar_M": "solar_mass", "solar_R": "solar_radius", "solar_L": "solar_luminosity"}
_EARTH = {"earth_M": "earth_mass", "earth_R": "earth_radius"}
_COUNT_WORDS = (
    "event", "drop", "photon", "electron", "proton", "neutron", "particle", "atom",
    "molecule", "nucleus", "ion", "collision", "oscillation", "fringe", "ring", "step",
    "bounce", "decay", "star", "galaxy", "planet", "bit", "times", "nucleon", "quantum",
    "vibration", "swing", "image", "node", "antinode", "loop", "beat", "flash", "pulse",
    "person", "people",
)  # fmt: skip
_COUNTED = frozenset(_COUNT_WORDS) | {"people", "nucleus", "quantum"}
# "times" counts on its own ("5 times"); beside another unit it is the operator: "(times N)"
# after an expression multiplies it by N, it is no unit "count newton"
_WORDS_OF_UNIT = re.compile(r"[^\s()\[\]{}*/.^]+")
_PLURALS = re.compile(r"\b(nucle)i\b|\b(quant)a\b")
# Symbols that name two units; the reading with the gold's dimension is the one meant
# (physics texts write 1.5 A for 1.5 angstrom).
_READINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![A-Za-zµ_])A(?![A-Za-z_])"), "angstrom"),
    # ms^{-1}: per millisecond, or metres per second written without a space
    (re.compile(r"(?<![A-Za-zµ_])ms\s*\^\s*\{?\s*-\s*1\s*\}?(?!\d)"), "m/s"),
    (re.compile(r"(?<![A-Za-zµ_])ms\s*\^\s*\{?\s*-\s*2\s*\}?(?!\d)"), "m/s^2"),
)
_ALLOWED = re.compile(r"^[A-Za-zµ_ */()\d.*+-]+$")
_EXTRA_DEFINITIONS = (
    "solar_mass = 1.98847e30 kg = M_sun",
    "solar_radius = 6.957e8 m = R_sun",
    "solar_luminosity = 3.828e26 W = L_sun",
    "earth_mass = 5.9722e24 kg = M_earth",
    "earth_radius = 6.3781e6 m = R_earth",
    "AU = astronomical_unit",
    "jansky = 1e-26 W / m ** 2 / Hz = Jy",
    "gauss_SI = 1e-4 tesla",
    "magnitude_astro = 1 = mag",
    "dex = 1",
    "rev = turn",
    # Things counted: "12 drops", "3 events / s" are numbers of things, not dimensions.
    *(f"{word} = count" for word in _COUNT_WORDS),
)


@cache
def registry() -> Any:
    """The shared unit registry, built once per process.

    Parsing pint's definition files took 0.3-1 s in every verifier worker (most of a
    worker's start); pint's own cache of the parsed files (``cache_folder=":auto:"``, the
    user cache directory) brings that to about 0.05 s, and loading the extra definitions as
    one block instead of one ``define`` each saves another 0.4 s. Where that directory
    cannot be written the registry is built without the cache."""
    import pint

    try:
        ureg: Any = pint.UnitRegistry(autoconvert_offset_to_baseunit=True, cache_folder=":auto:")
    except OSError:
        ureg = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    ureg.load_definitions(list(_EXTRA_DEFINITIONS))  # one rebuild (46 define() calls: 0.5 s)
    return ureg


# Unit words joined by hyphens: newton-meters, kilowatt-hours, foot-pounds. Words of three
# letters or more: symbols set apart by a hyphen (a-b, m-s) are a difference, not a unit.
_HYPHENATED = re.compile(r"(?<![A-Za-zµ_-])[A-Za-z]{3,}(?:-[A-Za-z]{3,})+(?![A-Za-zµ_-])")
# The unit symbols written with a hyphen in engineering texts: N-m, N-s, kW-h, W-h, A-h,
# mA-h, ft-lb, lb-ft (any other pair of symbols, m-s or a-b, stays a difference)
_HYPHENATED_SYMBOLS = re.compile(
    r"(?<![A-Za-zµ_-])(k?N|[kMG]?W|m?A|ft|lb)\s*(?:\\text\s*\{\s*-\s*\}|-)\s*(m|s|h|lb|ft)"
    r"(?![A-Za-zµ_-])"
)


@lru_cache(maxsize=1024)
def _is_unit_word(word: str) -> bool:
    """Whether ``word`` names a unit (``meters``, ``kilowatt``, ``foot_pound``); a thing
    counted (``photon``) is no unit word here: ``photon-electron`` names a pair."""
    try:
        names = registry().parse_unit_name(word)
    except Exception:
        return False
    return bool(names) and not counts_things(word)


def _hyphenated_product(match: re.Match[str]) -> str:
    """A hyphen between unit words is a product (``newton-meters``: N m, ``volt-ampere``);
    two words that pint knows as one unit are that unit (``foot-pound``: pint's
    ``foot_pound`` is ft lbf, not ft times the pound of mass; ``pound-force``). Where a word
    is no unit (``second-order``, ``counter-clockwise``) the text is left as written, and
    pint reads a difference, which is no unit."""
    words = match.group().split("-")
    names: list[str] = []
    index = 0
    while index < len(words):
        pair = "_".join(words[index : index + 2])
        if index + 1 < len(words) and _is_unit_word(pair):
            names.append(pair)
            index += 2
        elif _is_unit_word(words[index]):
            names.append(words[index])
            index += 1
        else:
            return match.group()
    return " " + " * ".join(names) + " "


# a unit's name written with a capital ("Joules", "Newtons"): pint's names are in small letters
_CAPITALISED = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{2,}(?![A-Za-z])")


def _small_letters(match: re.Match[str]) -> str:
    word = match.group()
    small = word.lower()
    if small == "per":  # "Meters Per Second"
        return small
    return small if not _is_unit_word(word) and _is_unit_word(_singular(small)) else word


def _to_pint_syntax(unit_text: str) -> str | None:
    text = _CAPITALISED.sub(_small_letters, unit_text.strip())
    text = _singular(text)
    for pattern, replacement in _UNIT_REWRITES:
        text = pattern.sub(replacement, text)
    text = _HYPHENATED.sub(_hyphenated_product, text)
    text = _HYPHENATED_SYMBOLS.sub(r" \1 * \2 ", text)
    for old, new in (*_SOLAR.items(), *_EARTH.items()):
        text = text.replace(old, new)
    text = text.replace("{", " ").replace("}", " ").strip()
    if not text or "\\" in text or not _ALLOWED.match(text):
        return None
    if not re.search(r"[A-Za-zµ]", text):
        return None
    if text.startswith("/"):
        text = "1 " + text  # a reciprocal unit after its number: 50 / s, 3.0 /\mathrm{m}
    text = re.sub(r"\s+", " ", text)
    if _SCALE.search(text) and not _SCALE.fullmatch(text):
        # in a compound unit (J/°C, °C/s, °C^{-1}) a degree Celsius is a step of the scale,
        # as big as a kelvin; pint read J/degC at the scale's point 1 °C (0.0036 J/K)
        text = _SCALE.sub(lambda m: f"delta_{m.group()}", text)
    return text


# a temperature scale with an offset, as the rewrites spell it
_SCALE = re.compile(r"(?<![\w])deg[CF](?![\w])")


# short words of prose that pint reads as units or prefixed units ("in" inch, "a" year, "at"
# attotonne, "us" microsecond): a word after a number that is one of these is no unit
PROSE_WORDS = frozenset(
    "a an and as at be by for if in is it no of on or so the to us we with".split()
)


_EULER_POWER = re.compile(r"^\s*e\s*\^")


@lru_cache(maxsize=4096)
def parse_unit(unit_text: str) -> Any | None:
    """A pint unit for ``unit_text`` (``m/s``, ``kg m^{2}``, ``\\mu m``, ``^{\\circ} C``), or
    None when the text is not a unit. Unknown words are not units: ``x`` stays a symbol."""
    words = _WORDS_OF_UNIT.findall(unit_text.casefold())
    if "times" in words and len(words) > 1:
        return None
    if _EULER_POWER.match(unit_text):
        return None  # "12e^{-2} V": Euler's number to a power, no elementary charge squared
    syntax = _to_pint_syntax(unit_text)
    if syntax is None:
        return None
    ureg = registry()
    try:
        parsed = ureg.parse_expression(syntax)
    except Exception:
        return None
    if not hasattr(parsed, "units") or not hasattr(parsed, "magnitude"):
        return None
    if parsed.magnitude != 1:
        return None
    return parsed.units


@lru_cache(maxsize=4096)
def unit_readings(unit_text: str) -> tuple[Any, ...]:
    """Every unit ``unit_text`` can mean, the usual reading first (``A``: ampere, then
    angstrom); empty when it is not a unit."""
    readings = []
    first = parse_unit(unit_text)
    if first is not None:
        readings.append(first)
    for pattern, meaning in _READINGS:
        if pattern.search(unit_text):
            other = parse_unit(pattern.sub(" " + meaning + " ", unit_text))
            if other is not None and other not in readings:
                readings.append(other)
    return tuple(readings)


def _singular(text: str) -> str:
    """``nuclei`` -> ``nucleus``, ``quanta`` -> ``quantum`` (the plurals pint does not know)."""
    return _PLURALS.sub(lambda m: m.group(1) + "us" if m.group(1) else m.group(2) + "um", text)


def counts_things(word: str) -> bool:
    """Whether ``word`` names things counted (``photons``, ``nuclei``): a count is a plain
    number, so naming it in a remark changes no value (``times`` is an operator, not a thing)."""
    lower = word.casefold()  # Nuclei, Quanta: the plural rule reads lower case
    singular = _singular(lower)
    return singular != "times" and (singular in _COUNTED or singular.removesuffix("s") in _COUNTED)


def same_dimension(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` measure one kind of quantity (Hz and rad/s do not, nor W and
    W/sr, nor photons and electrons: :func:`other_kinds`)."""
    if _hertz_and_angle(a, b) and not _turns_and_hertz(a, b):
        return False
    if other_kinds(a, b):
        return False
    try:
        return bool(a.dimensionality == b.dimensionality)
    except Exception:
        return False


def is_dimensionless(unit: Any) -> bool:
    return bool(unit.dimensionless)


_ANGLES = frozenset(
    "radian degree turn revolution rev cycle arcminute arcsecond steradian gradian grade".split()
)


def _named_powers(unit: Any) -> list[tuple[str, Any]]:
    """Each unit name in ``unit`` without its prefix (``kHz``: hertz, ``mrad``: radian), with
    its power; none where ``unit`` is no pint unit."""
    ureg = registry()
    try:
        items = list(unit._units.items())
        named = []
        for name, power in items:
            parsed = ureg.parse_unit_name(str(name))
            named.append((str(parsed[0][1]) if parsed else str(name), power))
    except Exception:
        return []
    return named


def _names(unit: Any) -> set[str]:
    """The unit names in ``unit`` without their prefixes (``kHz``: hertz, ``mrad``: radian)."""
    return {name for name, _ in _named_powers(unit)}


# Plane and solid angles, which pint reads as 1: a unit with one more radian or steradian
# than another measures another quantity (W/sr is an intensity, W a power; N m/rad a torsion
# constant, N m a torque; lm is cd sr)
_PLANE_ANGLES = frozenset(
    "radian degree turn revolution rev cycle arcminute arcsecond gradian grade".split()
)
_SOLID_ANGLES = {"steradian": 1, "square_degree": 1, "lumen": 1, "lux": 1}


def _angle_powers(unit: Any) -> tuple[int, int]:
    """The powers of plane and of solid angle in ``unit`` (``W/sr``: 0, -1; ``lm``: 0, 1)."""
    plane = solid = 0
    for base, power in _named_powers(unit):
        if base in _PLANE_ANGLES:
            plane += power
        elif base in _SOLID_ANGLES:
            solid += power * _SOLID_ANGLES[base]
    return plane, solid


def is_angle(unit: Any) -> bool:
    """Whether ``unit`` measures a plane angle (degree, radian, arcminute, ...), not a count
    of turns nor a scale such as percent."""
    return (
        unit is not None
        and _angle_powers(unit) == (1, 0)
        and not _names(unit) & {"turn", "revolution", "rev", "cycle"}
        and is_dimensionless(unit)
    )


def _angle_per_time_or_length(angled: Any, plain: Any) -> bool:
    """``rad/s`` beside ``s^{-1}``, ``rad/m`` beside ``m^{-1}``: an angle per time or length
    and the bare inverse, which physicists write for one another."""
    try:
        dimensions = dict(plain.dimensionality)
    except Exception:
        return False
    return bool(dimensions) and all(
        power < 0 and name in ("[time]", "[length]") for name, power in dimensions.items()
    )


def _counted_things(unit: Any) -> set[str]:
    return {name for name in _names(unit) if name in _COUNTED and name != "times"}


def counted_things(unit: Any) -> frozenset[str]:
    """The things ``unit`` counts (``photons/s``: photon), singular; none for ``None``."""
    return frozenset(_counted_things(unit)) if unit is not None else frozenset()


def counted_word(word: str) -> str | None:
    """``word`` as the thing it counts, singular (``nuclei``: nucleus), or None."""
    lower = word.casefold()
    singular = _singular(lower)
    for form in (singular, singular.removesuffix("s"), singular.removesuffix("es")):
        if form in _COUNTED and form != "times":
            return form
    return None


def other_kinds(a: Any, b: Any) -> bool:
    """Whether units pint reads as one dimension measure different things: another power of
    a plane or solid angle where both have a dimension (30.2 W/sr for 30.2 W, 1200 cd for
    1200 lm, J/rad for J; rad/s and s^{-1} excepted), or different things counted (7
    photons for 7 electrons: pint's count makes them one)."""
    if a is None or b is None:
        return False
    counted_a, counted_b = _counted_things(a), _counted_things(b)
    if counted_a and counted_b and counted_a != counted_b:
        return True
    try:
        dimensionless = a.dimensionless or b.dimensionless
    except Exception:
        return False
    (plane_a, solid_a), (plane_b, solid_b) = _angle_powers(a), _angle_powers(b)
    if dimensionless:
        # a unitless gold takes an angle, as a number; but an angle squared or a solid angle
        # is no plane angle ("π rad squared", "π sr" for π rad)
        angled = (plane_a, solid_a) != (0, 0) and (plane_b, solid_b) != (0, 0)
        return angled and (plane_a, solid_a) != (plane_b, solid_b)
    if solid_a != solid_b:
        return True
    if plane_a == plane_b:
        return False
    if abs(plane_a - plane_b) != 1:
        return True
    return not _angle_per_time_or_length(
        b if plane_a > plane_b else a, a if plane_a > plane_b else b
    )


def _hertz_and_angle(unit: Any, target: Any) -> bool:
    """Hz beside an angle per time: pint's radian is 1, so 314 Hz "equals" 314 rad/s, and
    1 Hz is 2 pi rad/s to a physicist; neither reading may decide, so they do not convert."""
    a, b = _names(unit), _names(target)
    return ("hertz" in a and bool(b & _ANGLES)) or ("hertz" in b and bool(a & _ANGLES))


# Turns counted as turns: a cycle, a revolution (pint reads each as 2 pi radians)
_TURNS = frozenset(
    "turn revolution rev cycle revolutions_per_minute revolutions_per_second".split()
)


def _turns_and_hertz(unit: Any, target: Any) -> bool:
    """Hz beside turns per time and no other angle (``50 cycles/s``, ``3000 rpm``): a
    frequency counts turns, so one turn a second is one hertz (pint's reading, 2 pi Hz, is
    the angular frequency's). Only against Hz written as Hz: ``s^{-1}`` may be either."""
    a, b = _names(unit), _names(target)
    if "hertz" in b:
        a, b = b, a
    other_angles = _ANGLES - _TURNS
    return "hertz" in a and bool(b & _TURNS) and not (a | b) & other_angles


def _convert_counting_turns(value: float, unit: Any, target: Any) -> float:
    ureg = registry()
    if "hertz" in _names(unit):
        turns = ureg.Quantity(value, unit).to("hertz").magnitude
        return float(ureg.Quantity(turns, "turn / second").to(target).magnitude)
    per_second = ureg.Quantity(value, unit).to("turn / second").magnitude
    return float(ureg.Quantity(per_second, "hertz").to(target).magnitude)


def convert(value: float, unit: Any, target: Any) -> float | None:
    """``value`` in ``unit`` expressed in ``target``; None when the dimensions differ (or one
    is Hz and the other an angle per time). Turns per time beside Hz count turns."""
    if _turns_and_hertz(unit, target):
        try:
            return _convert_counting_turns(value, unit, target)
        except Exception:
            return None
    if _hertz_and_angle(unit, target) or other_kinds(unit, target):
        return None
    ureg = registry()
    try:
        return float(ureg.Quantity(value, unit).to(target).magnitude)
    except Exception:
        return None


def si_factor(unit: Any) -> float | None:
    """How many SI base units one ``unit`` is (``km``: 1000, ``%``: 0.01, ``m/s``: 1); None
    for a scale with an offset (``degC``), which no factor converts."""
    ureg = registry()
    try:
        return (
            float(ureg.Quantity(1.0, unit).to_base_units().magnitude) if not _offset(unit) else None
        )
    except Exception:
        return None


# the units working in numbers is commonly done in, by dimension: a value in one of them is the
# same quantity written in another unit than the answer's ("2.0 × 1.6 = \\boxed{5.1e-19 J}" in
# electronvolts); no unit a power of ten from another is listed unless writers use both (no
# decimetre: "2.5 = \\boxed{0.25 m}" is a slip)
_WORKING_UNITS = (
    "J kJ MJ mJ eV keV MeV cal kcal W*h kW*h "
    "m km cm mm um nm pm angstrom ft inch mile "
    "s ms us ns minute hour day year "
    "kg g mg tonne lb "
    "N kN mN lbf W kW MW mW hp "
    "Pa kPa MPa atm bar mmHg psi "
    "L mL m**3 cm**3 "
    "Hz kHz MHz GHz rad/s revolution/s revolution/minute "
    "rad degree revolution "
    "V mV kV A mA uA ohm kohm Mohm F uF nF pF mF C uC nC mC T mT gauss "
    "K degC degF "
    "m/s km/h cm/s mph ft/s m/s**2 "
    "m**2 cm**2 mm**2 km**2 kg/m**3 g/cm**3 g/L N/m N/cm N/mm N/C kN/C V/m kV/m "
    "L*atm degree/s W/m**2 mW/cm**2 J/kg kJ/kg J/g cal/g"
).split()


@lru_cache(maxsize=1)
def _working_units() -> tuple[Any, ...]:
    ureg = registry()
    return tuple(ureg.parse_units(name) for name in _WORKING_UNITS)


def in_base_units(value: float, unit: Any | None) -> float:
    """``value`` in ``unit`` as SI base units measure it (``327 °C``: 600.15, ``6.0 kN``:
    6000); unchanged without a unit or where pint cannot convert it."""
    if unit is None:
        return value
    try:
        return float(registry().Quantity(value, unit).to_base_units().magnitude)
    except Exception:
        return value


def common_readings(value: float, unit: Any | None) -> tuple[float, ...]:
    """``value`` in ``unit`` written in each common unit of its dimension (``_WORKING_UNITS``:
    ``5.1e-19 J`` as 3.2 eV, 1.2e-19 cal, …), itself first; ``(value,)`` without a unit."""
    if unit is None:
        return (value,)
    ureg = registry()
    found = [value]
    for other in _working_units():
        try:
            quantity = ureg.Quantity(value, unit)
            if quantity.dimensionality == ureg.Quantity(1, other).dimensionality:
                found.append(float(quantity.to(other).magnitude))
        except Exception:
            continue
    return tuple(found)


def temperature_step(unit: Any) -> Any:
    """``unit`` as a step of its scale where it is a scale with an offset (°C: a step of one
    kelvin; °F: 5/9 K), else itself: a temperature change is converted as a step."""
    if unit is None or not _offset(unit):
        return unit
    try:
        return registry().Unit(f"delta_{unit}")
    except Exception:
        return unit


def has_offset(unit: Any) -> bool:
    """Whether ``unit`` is a scale with an offset (°C, °F): its zero is no zero quantity."""
    return unit is not None and _offset(unit)


def _offset(unit: Any) -> bool:
    ureg = registry()
    try:
        return not ureg.Quantity(1.0, unit)._is_multiplicative
    except Exception:
        return True


def to_base_dimensionless(value: float, unit: Any) -> float | None:
    """A dimensionless quantity (percent, degree) as a plain number (0.5, radians)."""
    ureg = registry()
    try:
        return float(ureg.Quantity(value, unit).to("dimensionless").magnitude)
    except Exception:
        return None
