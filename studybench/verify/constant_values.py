"""Physical constants an expression answer writes as their values.

A gold keeps its constants as letters (``\\frac{hc}{\\lambda}``, ``\\frac32 k_BT``,
``\\sqrt{2GM/R}``, ``mg`` where the question says "use $g = 9.8$ m/s²"); an answer often
puts their values in (``\\frac{1.99\\times10^{-25}}{\\lambda}``, ``2.07\\times10^{-23}\\,T``,
``1.155\\times10^{-5}\\sqrt{M/R}``, ``9.8\\,m``). Both say the same, and the answer was
rejected as ``wrong_value``.

Verifier 1.7.0 tried this and withdrew it: a tiny constant's value put into the gold met
the comparison's absolute floor (any two values below 1e-40 were equal), and a letter named
like a constant (``h`` a height, ``c`` a specific heat) was taken for it. The floor has been
gone since 1.8.0 (decimals are compared part by part), and here a letter is a constant only
where nothing says otherwise:

* the answer brings in no name of its own, and writes a number;
* each of the gold's names the answer leaves out is either given a value by the question
  (``$g = 9.8\\,\\mathrm{m/s^2}$``, ``take $c = 3.00\\times10^8$ m/s``; the value is read in
  SI units) or a constant of :data:`REFERENCE`. Where the name has other common meanings
  (h, c, G, R, k, e, m_e, m_p, N_A), the question must speak of the constant's physics
  (:data:`studybench.verify.symbolic.CONSTANT_CUES`), and where it writes the name (in its
  math, or a letter standing alone in its prose: "a resistor R"), call it by the constant's
  name ("Planck's constant $h$"; "a height $h$", "a planet of mass $m_p$" are quantities);
* the comparison then is the usual one, part by part, at a tolerance no looser than the
  digits the answer writes (0.1 % at least: a constant rounded to four digits).

The values are pint's (CODATA), in SI units, as the answer's own units are read.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from studybench.verify.given import given_quantities
from studybench.verify.normalize import question_math
from studybench.verify.question import math_names
from studybench.verify.symbolic import CONSTANT_CUES, canonical_name, canonical_spelling
from studybench.verify.units import registry


@dataclass(frozen=True)
class Constant:
    """A constant's pint name (its SI value) and a factor on it. A letter with other common
    meanings has a ``cue``: the question must speak of the constant's physics
    (``CONSTANT_CUES[cue]``); where it writes the letter, call it by the constant's name
    right before it (``named``: "Planck's constant $h$"; "a height $h$" keeps it a height);
    and where it does not, speak of none of its ``other`` meanings ("a spring": k is its
    constant, not Coulomb's)."""

    pint_name: str
    factor: float = 1.0
    cue: str | None = None
    named: str = r"(?!)"
    other: str = r"(?!)"  # the letter's other meanings, in words


# The gold's name (as :func:`canonical_name` spells it) -> the constant.
REFERENCE: dict[str, Constant] = {
    "h": Constant(
        "planck_constant",
        cue="hbar",
        named=r"planck(?:'s)?(?:\s+constant)?",
        other=r"\bheights?\b|altitude|elevation|\btall\b|\bdepth|\bhours?\b|enthalp",
    ),
    "hbar": Constant("planck_constant", 1 / (2 * math.pi)),
    "c": Constant(
        "speed_of_light",
        cue="c",
        named=r"speed\s+of\s+light|light\s+speed",
        other=r"\bsound\b|specific\s+heat|heat\s+capacity|concentration|wave\s+speed",
    ),
    "k_B": Constant("boltzmann_constant"),
    "k_b": Constant("boltzmann_constant"),
    "G": Constant(
        "gravitational_constant",
        cue="G",
        named=r"gravitational\s+constant|newton'?s\s+constant",
        other=r"shear|rigidity|conductance|modulus|free\s+energy|gibbs",
    ),
    "epsilon_0": Constant("vacuum_permittivity"),
    "varepsilon_0": Constant("vacuum_permittivity"),
    "mu_0": Constant("vacuum_permeability"),
    "N_A": Constant(
        "avogadro_constant", cue="N_A", named=r"avogadro'?s?(?:\s+(?:number|constant))?"
    ),
    "m_e": Constant("electron_mass", cue="m_e", named=r"electron'?s?(?:\s+mass)?"),
    "m_p": Constant(
        "proton_mass", cue="m_p", named=r"proton'?s?(?:\s+mass)?", other=r"planet|particle"
    ),
    "k_e": Constant("coulomb_constant", cue="k", named=r"coulomb'?s?(?:\s+constant)?"),
    "k": Constant(
        "coulomb_constant",
        cue="k",
        named=r"coulomb'?s?\s+constant",
        other=r"spring|stiff|elastic|restoring|force\s+constant|wave\s*(?:number|vector)"
        r"|conductiv|dielectric|boltzmann|rate\s+constant|torsion",
    ),
    "R": Constant(
        "molar_gas_constant",
        cue="R",
        named=r"(?:molar\s+|universal\s+)?gas\s+constant",
        other=r"radius|radii|resist|\brange\b|rydberg",
    ),
    # e is a quantity only where the question writes it as one (parsing.e_is_a_quantity):
    # "charge $-e$" of an electron is the elementary charge, a restitution e is not
    "e": Constant(
        "elementary_charge",
        cue="e",
        named=r"(?:elementary\s+)?charge(?:\s+of)?|electrons?|protons?",
        other=r"eccentric|restitution|emissiv|efficien|euler",
    ),
}

# Names whose value comes only from the question (g is 9.8, 9.81 or 10 as the problem says).
GIVEN_ONLY = frozenset({"g"})

# The loosest a substituted constant may make the comparison: four digits of a constant.
LEAST_TOLERANCE = 1e-3


@lru_cache(maxsize=32)
def _reference_value(name: str) -> float:
    constant = REFERENCE[name]
    quantity = registry().Quantity(constant.factor, constant.pint_name)
    return float(quantity.to_base_units().magnitude)


@lru_cache(maxsize=256)
def _question_names(question: str) -> frozenset[str]:
    """The names the question's math writes, spelled as :func:`canonical_name` spells them."""
    names = math_names(question_math(question))
    return frozenset(canonical_spelling(name) for name in names)


def _writes(question: str, name: str) -> bool:
    """Whether the question writes ``name`` as a name of its own: in its math, or a letter
    standing alone anywhere (prose, "a resistor R"; upright, ``\\mathrm{R}``), subscripted
    letters (``R_E``, ``k_B``) being other names."""
    if name in _question_names(question):
        return True
    return (
        len(name) == 1 and re.search(rf"(?<![A-Za-z\\]){name}(?![A-Za-z_])", question) is not None
    )


def _given_values(question: str) -> dict[str, float]:
    found = {}
    for name, quantity in given_quantities(question).items():
        try:
            value = float(quantity.to_base_units().magnitude)
        except Exception:  # an unreadable unit: no value
            continue
        if math.isfinite(value) and value != 0:
            found[canonical_spelling(name)] = value
    return found


# How near the constant's name must stand before the letter it names ("Planck's constant
# $h$", "charge $-e$"): a name elsewhere in the question ("Coulomb's constant $k_e$ is
# needed only in part (b)") names another letter
_NAMING_REACH = 40


def _occurrences(question: str, name: str) -> list[int]:
    if "_" in name:
        base, sub = name.split("_", 1)
        upright = r"(?:\\(?:rm|mathrm)\s*\{?\s*)?"
        pattern = rf"(?<![A-Za-z\\]){re.escape(base)}_\{{?\s*{upright}{re.escape(sub)}"
    else:
        pattern = rf"(?<![A-Za-z\\_]){re.escape(name)}(?![A-Za-z_])"
    return [m.start() for m in re.finditer(pattern, question)]


def _named_where_written(constant: Constant, name: str, question: str) -> bool:
    """Whether each place the question writes the letter calls it the constant: the
    constant's name within the few words before it, no other meaning of the letter nearer;
    or the name after it in the same clause, not negated ("$e$ is the elementary charge",
    not "$G$ (not the gravitational constant)")."""
    folded = question.casefold()
    named, other = re.compile(constant.named), re.compile(constant.other)
    places = _occurrences(question, name)
    if not places:
        return False
    for start in places:
        before = folded[max(0, start - _NAMING_REACH) : start]
        after = re.split(
            r"[.;?!,]\s", folded[start + len(name) : start + len(name) + _NAMING_REACH]
        )[0]
        names_before = [m.end() for m in named.finditer(before)]
        others_before = [m.end() for m in other.finditer(before)]
        if names_before and max(names_before) > max(others_before, default=-1):
            continue
        if others_before:
            return False
        later = named.search(after)
        if later is None or re.search(r"\b(?:not|no|never|nor)\b", after[: later.start()]):
            return False
    return True


def _other_meaning(constant: Constant, folded: str) -> bool:
    """Whether the question speaks of another meaning of the (unwritten) letter without
    giving that quantity a letter of its own ("a spring", not "a height $H$")."""
    for match in re.finditer(constant.other, folded):
        if not re.match(r"\s*(?:of\s+|is\s+|=\s*)?\$", folded[match.end() : match.end() + 12]):
            return True
    return False


def _means_constant(constant: Constant, name: str, question: str | None) -> bool:
    """Whether the gold's letter ``name`` is ``constant`` in the question."""
    if constant.cue is None:
        return True  # \\hbar, k_B, \\varepsilon_0: no other meaning, whoever writes them
    if question is None:
        return False
    folded = question.casefold()
    if not CONSTANT_CUES[constant.cue].search(folded):
        return False
    if _writes(question, name):
        return _named_where_written(constant, name, question)
    return not _other_meaning(constant, folded)


def constant_values(names: set[str], question: str | None) -> dict[str, float] | None:
    """The value of every one of ``names`` (names of the gold the answer leaves out), or
    None where one of them is no constant here (see the module's docstring). ``question`` is
    the question as written (None: unknown, and then only unambiguous constants count)."""
    given = _given_values(question) if question else {}
    values = {}
    for name in names:
        if name in given and (name in REFERENCE or name in GIVEN_ONLY):
            values[name] = given[name]
            continue
        constant = REFERENCE.get(name)
        if constant is None or not _means_constant(constant, name, question):
            return None
        values[name] = _reference_value(name)
    return values or None


@dataclass(frozen=True)
class Readings:
    """The gold with the values of the constants an answer wrote as numbers put in:
    ``valued`` with the reference values, ``rounded`` with them rounded to three significant
    figures (as answers write them: 6.63e-34, 3.00e8), ``misvalued`` one reading per constant
    with that constant at :data:`MISVALUED` times its value."""

    valued: Any
    rounded: Any
    misvalued: tuple[Any, ...]


def substitute_constants(pred_e: Any, gold_e: Any, question: str | None) -> Readings | None:
    """The gold's :class:`Readings`, its other names made the prediction's own symbols; None
    where that does not apply (the prediction names something the gold does not, or the gold
    names something that is no constant).

    Why the misvalued readings: a match must depend on every value put in. An answer that
    leaves a constant's physics out matches the gold wherever that physics is small, and the
    answer's symbols are sampled near 1 (v = 1 m/s, T = 1 K): ``\\frac12 mv^2`` equalled
    ``mc^2(\\gamma - 1)``, Rayleigh-Jeans equalled Planck, ``\\frac{36}{5R_\\infty}`` its
    correction for the nucleus's motion (red team r22a). Such a match holds just as well with
    the constant misvalued, so it says nothing of the constant."""
    import sympy

    pred_names = {canonical_name(s): s for s in pred_e.free_symbols}
    gold_names = {canonical_name(s): s for s in gold_e.free_symbols}
    if set(pred_names) - set(gold_names):
        return None
    values = constant_values(set(gold_names) - set(pred_names), question)
    if values is None:
        return None
    own = {gold_names[n]: s for n, s in pred_names.items()}

    def valued(misvalued: str | None = None, digits: int | None = None) -> Any:
        mapping = {}
        for name, value in values.items():
            value *= MISVALUED if name == misvalued else 1
            if digits is not None and value:
                value = float(f"{value:.{digits - 1}e}")
            mapping[gold_names[name]] = sympy.Float(value, 30)
        return gold_e.xreplace({**mapping, **own})

    return Readings(valued(), valued(digits=3), tuple(valued(name) for name in sorted(values)))


MISVALUED = 1.5  # the factor a constant is put in at to see whether a match depends on it
