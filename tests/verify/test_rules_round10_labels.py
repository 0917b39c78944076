"""Round 10: labels that name another quantity than the asked one (red team, /tmp/r10).

* A derivative, change or mean of the asked quantity is another quantity, also where the
  label has a subscript or an argument: ``\\dot q(t) = C\\varepsilon(1 - e^{-t/RC})`` is no
  answer for ``q(t) = ...`` (it was accepted as ``renamed_label``), nor ``\\ddot h_{\\min} =
  2.7R`` for ``h_{\\min} = \\frac{27}{10}R``.
* Against an interval gold that names no variable, the bounded quantity must be the asked
  one: ``\\Delta T \\in [2T_0, 4T_0]`` bounds the change of the temperature the question
  writes as ``T_0``; ``f \\in (0, 20)`` bounds the focal length where the question asks "For
  what range of object distances $u$"; ``v_0 \\in [20.4^\\circ, 69.6^\\circ]`` a speed it
  gives (``$v_0 = 30.0\\,\\mathrm{m/s}$``). All were accepted as ``interval``.
"""

from __future__ import annotations

import pytest

from studybench.verify import judge_inline
from studybench.verify.chains import derived_label, underlying_name
from studybench.verify.question import asked_names, asking_part, given_names

# -- rule 1a: a derived label in an equation ------------------------------------------------
CHARGE = "q(t) = C\\varepsilon\\left(1 - e^{-t/(RC)}\\right)"
CHARGE_RHS = "C\\varepsilon(1 - e^{-t/RC})"
LOOP = "h_{\\min} = \\frac{27}{10} R"
CURRENT = "\\dot q(t) = \\frac{\\varepsilon}{R} e^{-t/(RC)}"
CURRENT_RHS = "\\frac{\\varepsilon}{R}e^{-t/RC}"
ROD = "m\\frac{dv}{dt} = -\\frac{B^{2} L^{2}}{R} v"


@pytest.mark.parametrize(
    ("pred", "gold", "correct", "reason"),
    [
        # the change, rate or mean of the asked quantity, at an argument or with a subscript
        (f"\\dot q(t) = {CHARGE_RHS}", CHARGE, False, "wrong_equation"),
        (f"\\Delta q(t) = {CHARGE_RHS}", CHARGE, False, "wrong_equation"),
        (f"\\bar{{q}}(t) = {CHARGE_RHS}", CHARGE, False, "wrong_equation"),
        (f"\\dot q = {CHARGE_RHS}", CHARGE, False, "wrong_equation"),  # argument dropped
        (f"q'(t) = {CHARGE_RHS}", CHARGE, False, "wrong_equation"),  # primed
        ("\\overline{h}_{\\min} = \\frac{27}{10}R", LOOP, False, "wrong_equation"),
        ("\\ddot h_{\\min} = 2.7R", LOOP, False, "wrong_equation"),
        ("\\Delta h_{\\min} = 2.7R", LOOP, False, "wrong_equation"),
        ("\\dot{T}_{\\rm f} = 3T_0", "T_f = 3T_0", False, "wrong_equation"),
        ("\\bar x_1(t) = A\\cos(\\omega t)", "x_1(t) = A\\cos(\\omega t)", False, "wrong_equation"),
        ("\\Delta\\theta_0 = \\frac{g}{\\omega^2 R}", "\\theta_0 = \\frac{g}{\\omega^2 R}", False,
         "wrong_equation"),
        # the other way round: the plain name for a derived gold label
        (f"q(t) = {CURRENT_RHS}", CURRENT, False, "wrong_equation"),
        (f"q = {CURRENT_RHS}", CURRENT, False, "wrong_equation"),
        # honest: the gold's label, the same derived label, a rename of another quantity
        ("q(t) = C\\varepsilon - C\\varepsilon e^{-t/RC}", CHARGE, True, None),
        (f"q = {CHARGE_RHS}", CHARGE, True, None),
        ("h_{\\min} = 2.7R", LOOP, True, None),
        (f"\\dot q(t) = {CURRENT_RHS}", CURRENT, True, None),
        (f"I(t) = {CURRENT_RHS}", CURRENT, True, "renamed_label"),  # the current, renamed
        ("a = g/7", "\\dot v = g/7", True, "renamed_label"),
        ("\\dot v = g/7", "a = g/7", True, "renamed_label"),
        ("\\dot x_1 = \\omega A", "v_1 = \\omega A", True, "renamed_label"),
        ("m\\dot v = -\\frac{B^2L^2}{R}v", ROD, True, None),
    ],
)  # fmt: skip
def test_a_derived_label_is_another_equation(
    pred: str, gold: str, correct: bool, reason: str | None
) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EQ")
    assert verdict.correct is correct, verdict.reason
    if reason is not None:
        assert verdict.reason == reason


@pytest.mark.parametrize(
    ("pred", "gold", "primes", "expected"),
    [
        ("\\dot q(t)", "q(t)", False, True),
        ("\\dot q", "q(t)", False, True),
        ("\\overline{h}_{\\min}", "h_{\\min}", False, True),
        ("\\Delta\\dot x", "x", False, True),  # marks stack
        ("q'(t)", "q(t)", False, False),  # primes only where asked for
        ("q'(t)", "q(t)", True, True),
        ("x^{\\prime}_1", "x_1", True, True),
        ("\\dot q(t)", "\\dot q(t)", True, False),  # the same label
        ("\\dot Q(t)", "q(t)", True, False),  # another letter
        ("\\dot h_{\\max}", "h_{\\min}", True, False),
        ("q(t)", "\\dot q(t)", True, False),  # one way only
    ],
)
def test_derived_label(pred: str, gold: str, primes: bool, expected: bool) -> None:
    assert derived_label(pred, gold, primes=primes) is expected


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("\\Delta T", "T"),
        ("\\overline{T}", "T"),
        ("\\ddot h_{\\min}", "h_min"),  # an operator's name in a subscript is its word
        ("\\bar\\theta", "\\theta"),
        ("\\dot q(t)", "q"),
        ("\\langle v \\rangle", "v"),
        ("T_0", None),
        ("v'", None),
    ],
)
def test_underlying_name(label: str, expected: str | None) -> None:
    assert underlying_name(label) == expected


# -- the questions of the interval rules ---------------------------------------------------
GAS_Q = (
    "One mole of a monatomic ideal gas is taken around a cycle of four reversible steps that "
    "forms a rectangle on the $p$–$V$ diagram. It starts in state $A$ with pressure $p_0$, "
    "volume $V_0$ and temperature $T_0$. Step $A\\to B$: heating at constant volume to "
    "pressure $2p_0$. Step $B\\to C$: expansion at constant pressure to volume $2V_0$. Step "
    "$C\\to D$: cooling at constant volume to pressure $p_0$. Step $D\\to A$: compression at "
    "constant pressure back to volume $V_0$. The molar heat capacities are $C_V = "
    "\\frac{3}{2}R$ and $C_p = \\frac{5}{2}R$, where $R$ is the gas constant.\n\n"
    "During step $B\\to C$ the temperature changes continuously. What range of temperatures "
    "does the gas take during this step? Give it as a closed interval."
)
GAS = "\\boxed{[2T_0, 4T_0]}"
PROJECTILE_Q = (
    "A projectile is launched from level ground with speed $v_0$ at an angle $\\theta$ above "
    "the horizontal. Air resistance is negligible and the gravitational acceleration is $g$."
    "\n\nTake $v_0 = 30.0\\,\\mathrm{m/s}$ and $g = 9.80\\,\\mathrm{m/s^2}$. Find the set of "
    "launch angles, in degrees between $0^\\circ$ and $90^\\circ$, for which the range is at "
    "least $60.0\\,\\mathrm{m}$."
)
PROJECTILE = "\\boxed{[20.4^\\circ, 69.6^\\circ]}"
LENS_Q = (
    "An object is placed $30.0\\,\\mathrm{cm}$ in front of a thin converging lens of focal "
    "length $20.0\\,\\mathrm{cm}$. Use the convention of this chapter: $\\frac{1}{u} + "
    "\\frac{1}{v} = \\frac{1}{f}$ with real objects and real images counted positive, and "
    "magnification $m = -v/u$.\n\nFor what range of object distances $u$, in centimetres, "
    "would the same lens form a virtual image?"
)
LENS = "\\boxed{(0, 20)}"
TWO_LENS_Q = (
    "Two thin converging lenses share a common optical axis. Lens 1 has focal length $f_1 = "
    "10.0\\,\\mathrm{cm}$; lens 2, placed a distance $d = 40.0\\,\\mathrm{cm}$ to the right of "
    "lens 1, has focal length $f_2 = 15.0\\,\\mathrm{cm}$.\n\nKeeping the object and both "
    "focal lengths fixed, the separation $d$ of the lenses is now varied. For which range of "
    "$d$, in centimetres, does the intermediate image lie to the left of lens 2 at a distance "
    "smaller than $f_2$, so that the final image is virtual?"
)
TWO_LENS = "\\boxed{(30, 45)}"
# one paragraph, the asked quantity in words only
INCLINE_Q = (
    "A block rests on a rough plane inclined at an angle $\\alpha$ to the horizontal; the "
    "coefficient of static friction is $\\mu_s = 0.50$ and the block's mass is $m$. Find the "
    "range of inclination angles, in degrees, for which the block stays at rest."
)
INCLINE = "\\boxed{[0^\\circ, 26.6^\\circ]}"
SPRING_Q = (
    "A block of mass $m = 2.0\\,\\mathrm{kg}$ on a spring of constant $k$ oscillates about "
    "$x = 0$ with amplitude $A$.\n\nFor what range of positions $x$ is the kinetic energy of "
    "the block larger than the potential energy of the spring?"
)
SPRING = "\\boxed{\\left(-\\frac{A}{\\sqrt{2}}, \\frac{A}{\\sqrt{2}}\\right)}"
COOLING_Q = (
    "A cup of coffee at $T_0 = 90^\\circ\\mathrm{C}$ is left in a room.\n\n"
    "What range of values can $\\Delta T$, the drop of its temperature in kelvin, take?"
)
COOLING = "\\boxed{[0, 70]}"
WIRE_Q = (
    "A wire of resistance $R$ carries a current $I$ that is switched on at $t = 0$.\n\n"
    "Find the interval of temperatures, in kelvin, that the wire passes through."
)
WIRE = "\\boxed{[300, 450]}"
# the asked quantity written only in the setup, the asking part writing another name
WALL_Q = (
    "A projectile is launched with speed $v_0$ at an angle $\\theta$ above the horizontal."
    "\n\nA wall stands a distance $D$ from the launch point. Find the set of launch angles "
    "for which the projectile clears the wall."
)
WALL = "\\boxed{[20^\\circ, 60^\\circ]}"


# -- rule 1b: an interval of a derived name ------------------------------------------------
@pytest.mark.parametrize(
    ("box", "gold", "question", "correct"),
    [
        ("\\Delta T \\in [2T_0, 4T_0]", GAS, GAS_Q, False),
        ("\\dot T \\in [2T_0, 4T_0]", GAS, GAS_Q, False),
        ("\\overline{T} \\in [2T_0, 4T_0]", GAS, GAS_Q, False),
        ("2T_0 \\le \\delta T \\le 4T_0", GAS, GAS_Q, False),  # an inequality
        ("\\ddot T_1 \\in [2T_0, 4T_0]", GAS, GAS_Q, False),  # with a subscript
        ("\\Delta\\theta \\in [20.4^\\circ, 69.6^\\circ]", PROJECTILE, PROJECTILE_Q, False),
        ("\\bar\\theta \\in [20.4^\\circ, 69.6^\\circ]", PROJECTILE, PROJECTILE_Q, False),
        ("0 < \\dot u < 20", LENS, LENS_Q, False),
        ("\\Delta d \\in (30, 45)", TWO_LENS, TWO_LENS_Q, False),
        ("\\Delta x \\in " + SPRING[7:-1], SPRING, SPRING_Q, False),
        ("\\dot{\\alpha} \\in [0^\\circ, 26.6^\\circ]", INCLINE, INCLINE_Q, False),
        # honest: the plain name, a change the question asks, a letter it never writes
        ("2T_0 \\le T \\le 4T_0", GAS, GAS_Q, True),
        ("T \\in [2T_0, 4T_0]", GAS, GAS_Q, True),
        ("20.4^\\circ \\le \\theta \\le 69.6^\\circ", PROJECTILE, PROJECTILE_Q, True),
        ("u \\in (0, 20)", LENS, LENS_Q, True),
        ("\\Delta T \\in [0, 70]", COOLING, COOLING_Q, True),
        ("0 \\le \\Delta T \\le 70", COOLING, COOLING_Q, True),
        ("\\Delta\\Theta \\in [300, 450]", WIRE, WIRE_Q, True),  # the writer's own name
        ("[2T_0, 4T_0]", GAS, GAS_Q, True),
    ],
)
def test_an_interval_of_a_derived_name(box: str, gold: str, question: str, correct: bool) -> None:
    verdict = judge_inline(f"$$\\boxed{{{box}}}$$", gold, "IN", question=question)
    assert verdict.correct is correct, verdict.reason
    if not correct:
        assert verdict.reason == "wrong_variable"


def test_a_derived_gold_variable_is_matched_by_the_same_name() -> None:
    gold = "\\boxed{0 \\le \\Delta T \\le 70}"
    assert judge_inline("\\boxed{\\Delta T \\in [0, 70]}", gold, "IN").correct
    assert not judge_inline("\\boxed{T \\in [0, 70]}", gold, "IN").correct


# -- rule 2: an interval of another quantity the question names ----------------------------
@pytest.mark.parametrize(
    ("box", "gold", "question", "correct"),
    [
        # a name the question gives a value to
        ("v_0 \\in [20.4^\\circ, 69.6^\\circ]", PROJECTILE, PROJECTILE_Q, False),
        ("g \\in [20.4^\\circ, 69.6^\\circ]", PROJECTILE, PROJECTILE_Q, False),
        ("\\mu_s \\in [0^\\circ, 26.6^\\circ]", INCLINE, INCLINE_Q, False),
        ("T_0 \\in [0, 70]", COOLING, COOLING_Q, False),
        # a name written only in the setup, the asking part writing another
        ("p \\in [2T_0,4T_0]", GAS, GAS_Q, False),
        ("2T_0 \\le V \\le 4T_0", GAS, GAS_Q, False),
        ("p_0 \\in [2T_0, 4T_0]", GAS, GAS_Q, False),
        ("T_0 \\in [2T_0, 4T_0]", GAS, GAS_Q, False),  # the gold's bounds are in it
        ("T_A \\in [2T_0, 4T_0]", GAS, GAS_Q, False),  # the value at a state, away
        # a name that is not the one the asking sentence writes
        ("f \\in (0, 20)", LENS, LENS_Q, False),
        ("0 < m < 20", LENS, LENS_Q, False),
        ("f_2 \\in (30, 45)", TWO_LENS, TWO_LENS_Q, False),
        ("30 < f_1 < 45", TWO_LENS, TWO_LENS_Q, False),
        ("k \\in " + SPRING[7:-1], SPRING, SPRING_Q, False),
        ("A \\in " + SPRING[7:-1], SPRING, SPRING_Q, False),
        ("u \\in (0, 1]", "\\boxed{(0, 1]}",
         "A particle of mass $m_1$ moving with velocity $u$ collides elastically with a "
         "particle of mass $m_2$ at rest.\n\nFor which values of the mass ratio $m_1/m_2$ "
         "does the incident particle stop or bounce back?", False),
        ("T \\in [0, 70]", COOLING, COOLING_Q, False),  # the name under the asked change
        ("v_0 \\in [20^\\circ, 60^\\circ]", WALL, WALL_Q, False),  # setup only: "speed $v_0$"
        # honest: the asked name, in every style, and the writer's own names
        ("\\theta \\in [20.4^\\circ, 69.6^\\circ]", PROJECTILE, PROJECTILE_Q, True),
        ("\\alpha \\in [0^\\circ, 26.6^\\circ]", INCLINE, INCLINE_Q, True),
        ("\\phi \\in [0^\\circ, 26.6^\\circ]", INCLINE, INCLINE_Q, True),
        ("T \\in [2T_0, 4T_0]", GAS, GAS_Q, True),
        ("\\{T : 2T_0 \\le T \\le 4T_0\\}", GAS, GAS_Q, True),
        ("d \\in (30, 45)", TWO_LENS, TWO_LENS_Q, True),
        ("30 < d < 45", TWO_LENS, TWO_LENS_Q, True),
        ("0 < u < 20", LENS, LENS_Q, True),
        ("x \\in " + SPRING[7:-1], SPRING, SPRING_Q, True),
        ("\\Delta T \\in [0, 70]", COOLING, COOLING_Q, True),
        ("\\Theta \\in [300, 450]", WIRE, WIRE_Q, True),
        ("\\theta \\in [20^\\circ, 60^\\circ]", WALL, WALL_Q, True),  # "at an angle $\\theta$"
        ("20^\\circ \\le \\theta \\le 60^\\circ", WALL, WALL_Q, True),
        ("(0, 20)", LENS, LENS_Q, True),
    ],
)  # fmt: skip
def test_an_interval_of_another_named_quantity(
    box: str, gold: str, question: str, correct: bool
) -> None:
    verdict = judge_inline(f"$$\\boxed{{{box}}}$$", gold, "IN", question=question)
    assert verdict.correct is correct, verdict.reason
    if not correct:
        assert verdict.reason == "wrong_variable"


def test_without_a_question_the_name_is_free() -> None:
    assert judge_inline("\\boxed{f \\in (0, 20)}", LENS, "IN").correct


# -- what the rules read off a question ----------------------------------------------------
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (LENS_Q, ("u",)),
        (TWO_LENS_Q, ("d",)),
        (COOLING_Q, ("\\Delta T",)),
        (PROJECTILE_Q, ()),  # in words: "the set of launch angles"
        (GAS_Q, ()),
        ("Find the range of speeds for which $x > 0$.", ()),  # a condition
        ("Find the range of speeds for which the block of mass $m$ stays.", ()),
        ("For which values of the mass ratio $m_1/m_2$ does it stop?", ("m_1/m_2",)),
        ("Find the minimum release height $h_{\\min}$ for which it loops.", ("h_{\\min}",)),
        ("(b) For which range of $d$ is it virtual?", ("d",)),
        ("Hence, find the range of $\\theta$.", ("\\theta",)),
        ("A bead which slides along $x$ is released. Find the range of speeds.", ()),
    ],
)
def test_asked_names(question: str, expected: tuple[str, ...]) -> None:
    assert asked_names(question) == expected


def test_given_names() -> None:
    assert given_names(TWO_LENS_Q) == {"f_1", "f_2", "d"}
    assert given_names(GAS_Q) == {"C_V", "C_p"}
    assert given_names(SPRING_Q) == {"m"}  # x = 0 is a place, no value of x
    assert given_names("at $t = 0$") == frozenset()


def test_asked_and_named_nouns() -> None:
    from studybench.verify.question import asked_nouns, named_nouns

    assert asked_nouns(PROJECTILE_Q) == {"angle"}
    assert asked_nouns(GAS_Q) == {"temperature"}
    assert named_nouns(WALL_Q, "\\theta") == {"angle"}
    assert named_nouns(GAS_Q, "p_0") == {"pressure"}


def test_asking_part() -> None:
    assert asking_part(GAS_Q).startswith("During step $B\\to C$")
    assert asking_part(INCLINE_Q) == "Find the range of inclination angles, in degrees, for " + (
        "which the block stays at rest."
    )
