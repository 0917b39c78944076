"""Chains, labels and restated questions (verify/chains.py), written from its docstrings.

The chain rules decide which sides of a box are claims; the NV/EX tables check them through
a judge, these tests check the rules themselves with a comparison that knows a handful of
values (so that a verdict depends on the chain rules only): which sides are labels, which
are values, which forms of the gold a side is compared with, and the reason of a failure.
"""

from __future__ import annotations

import re

import pytest

from studybench.verify.chains import (
    GoldChain,
    chain,
    change_ratio,
    contradicting_labels,
    gold_chain,
    is_restatement,
    judge_chain,
    label_key,
    label_ratio,
    names_own_value,
    ratio_label,
    reciprocal_label,
    same_label,
    value_sides,
    wrong_label,
)

_RECIPROCAL = re.compile(r"^\\frac\{1\}\{(.+)\}$")


def _value(text: str) -> float | None:
    """A plain number, or ``\\frac{1}{form}`` of one: the values the comparison knows."""
    text = text.replace(" ", "")
    inverted = _RECIPROCAL.match(text)
    if inverted is not None:
        inner = _value(inverted.group(1))
        return None if not inner else 1 / inner
    try:
        return float(text)
    except ValueError:
        return None


def compare(side: str, form: str) -> tuple[bool, str]:
    """Equal texts match ("equal"), equal numbers match ("numeric"); a side that is no
    number is "unparseable" (a symbolic step, for :func:`symbolic_step`)."""
    if side.replace(" ", "") == form.replace(" ", ""):
        return True, "equal"
    pred, gold = _value(side), _value(form)
    if pred is None or gold is None:
        return False, "unparseable"
    return (True, "numeric") if abs(pred - gold) < 1e-9 else (False, "wrong_value")


def symbolic_step(side: str, form: str, reason: str) -> bool:
    """A side that is no number says nothing about the value: a derivation step."""
    return reason == "unparseable"


@pytest.mark.parametrize(
    ("text", "sides"),
    [
        ("a = b = c", ["a", "b", "c"]),
        ("f(x=1) = 2", ["f(x=1)", "2"]),  # never inside parentheses
        ("{a=b} = c", ["{a=b}", "c"]),  # nor braces
        (" = 3 = ", ["3"]),  # empty sides are dropped
        ("  ", [""]),  # nothing at all: one empty side
        ("x <= 3", ["x <= 3"]),  # a relation, not an equality
    ],
)
def test_chain_sides(text: str, sides: list[str]) -> None:
    assert chain(text) == sides


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (r"E_{\rm k}", "E_k"),
        (r"E_{\mathrm{k}}", "E_k"),
        (r"v_\text{max}", "v_max"),
        (r"\it v", "v"),
        (r"\mathbf{F}", "F"),
        (r"a\, b", "ab"),  # spacing
        (r"a\;b", r"a\;b"),  # a command name goes on after it: \;b is no spacing
        (r"\rmx", r"\rmx"),  # \rmx is no \rm
    ],
)
def test_label_key_drops_what_does_not_change_the_name(text: str, key: str) -> None:
    assert label_key(text) == key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac{v(t)}{v(0)}", True),
        (r"\dfrac{v(t)}{v(0)}", True),
        (r"\tfrac{v(t)}{v(0)}", True),
        ("I(X)/I(0)", True),
        (r"\frac{v_{f}(t)}{v_{f}(0)}", True),
        (r"\frac{v(t)}{x(0)}", False),  # two quantities
        ("v/v_0", False),  # no argument: not one quantity at two places
        ("I(X)/I(0)/2", False),  # two slashes
        (r"\frac{(t)}{(0)}", False),  # no function
        ("f(2x)/f(0)", False),  # an expression as argument: a factor, not a label
        (r"\frac{v(t)}{v(0)} + 1", False),
    ],
)
def test_ratio_label(text: str, expected: bool) -> None:
    assert ratio_label(text) is expected


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        (r"\frac{U_f}{U_i}", 1),
        (r"v_{\rm final}/v_{\rm initial}", 1),
        (r"\frac{E_{new}}{E_{old}}", 1),
        ("v/v_0", 1),
        ("U'/U", 1),
        ("U/U'", -1),
        ("v_0/v", -1),
        ("v_i/v_f", -1),
        ("v_2/v_1", 0),  # which index is later depends on the problem
        ("v_f/u_i", 0),  # two quantities
        ("v(t)/v(0)", 0),  # an application, not plain labels
        ("x/y", 0),
        ("2v/v_0", 0),
        ("v_f/v_f", 0),
        ("x", 0),
    ],
)
def test_change_ratio(text: str, direction: int) -> None:
    assert change_ratio(text) == direction


def test_same_label() -> None:
    assert same_label(r"E_{\rm k}", "E_k")
    assert not same_label("a", "b")
    assert not same_label("x", None)  # the gold has no label
    assert not same_label("{}", "{}")  # an empty name names nothing


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (r"v_{\max}", r"v_{\min}", True),
        ("x_2", "x_1", True),
        ("v", "v_1", False),  # renaming is fine: only two members of a family contradict
        ("a", r"\dot v", False),
        ("x_1", "x_1", False),
        ("_1", "_2", False),  # no base quantity
        ("v_1", "u_2", False),  # two families
        (r"v_{\rm max}", "v_max", False),  # one name, two spellings
    ],
)
def test_contradicting_labels(a: str, b: str, expected: bool) -> None:
    assert contradicting_labels(a, b) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac{m_1}{m_2}", True),
        ("v_2/v_1", True),
        (r"\frac{I(X)}{I(0)}", True),
        ("2/v", False),
        ("m_1/m_2/m_3", False),
        ("x", False),
    ],
)
def test_label_ratio(text: str, expected: bool) -> None:
    assert label_ratio(text) is expected


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        (r"\frac{I(0)}{I(X)}", r"\frac{I(X)}{I(0)}", True),
        ("m_2/m_1", "m_1/m_2", True),
        (r"\frac{m_2}{m_1}", "m_1/m_2", True),  # either spelling
        ("m_1/m_2", "m_1/m_2", False),  # the same ratio
        ("m_2/m_3", "m_1/m_2", False),
        ("2/m_1", "m_1/2", False),  # 2 names nothing
        ("x", "m_1/m_2", False),
        ("m_2/m_1", "x", False),
    ],
)
def test_reciprocal_label(pred: str, gold: str, expected: bool) -> None:
    assert reciprocal_label(pred, gold) is expected


@pytest.mark.parametrize(
    ("side", "gold_label", "expected"),
    [
        (r"v_{\max}", r"v_{\min}", True),
        ("m_2/m_3", "m_1/m_2", True),
        ("m_2/m_1", "m_1/m_2", False),  # the reciprocal: compared with the reciprocal value
        ("m_1/m_2", "m_1/m_2", False),
        ("m_1 / m_2", "m_1/m_2", False),
        ("11.2", r"v_{\min}", False),  # a value, not a name
        ("a", r"\dot v", False),  # a renamed label
        ("m_2/m_3", "v", False),  # a ratio beside a plain label: compared as a value
    ],
)
def test_wrong_label(side: str, gold_label: str, expected: bool) -> None:
    assert wrong_label(side, gold_label) is expected


@pytest.mark.parametrize(
    ("label", "others", "expected"),
    [
        ("g", [r"2\pi\sqrt{l/g}"], True),  # g equals an expression in g: a claim
        ("x", ["2y", "3x"], True),  # any other side counts
        ("x", ["5 m", "2x"], True),
        ("x", ["2y"], False),
        ("m", ["5 m"], False),  # a quantity with a unit is no expression in m
        ("v", ["3"], False),
        ("x", [r"\frac{1}{"], False),  # unreadable: no claim found
    ],
)
def test_names_own_value(label: str, others: list[str], expected: bool) -> None:
    assert names_own_value(label, others) is expected


@pytest.mark.parametrize(
    ("gold", "expected"),
    [
        ("x = 3", GoldChain("x", ("3",))),
        (r"\Delta x = 3c", GoldChain(r"\Delta x", ("3c",))),
        ("y = 2 = 4", GoldChain("y", ("2", "4"))),
        ("7", GoldChain(None, ("7",))),
        ("3 = x", GoldChain(None, ("3", "x"))),  # a plain number is never a label
        ("3.0 = x", GoldChain(None, ("3.0", "x"))),
        ("- 3 = 2", GoldChain(None, ("- 3", "2"))),
        ("+3=x", GoldChain(None, ("+3", "x"))),
        (".5 = x", GoldChain(None, (".5", "x"))),
        ("3. = x", GoldChain(None, ("3.", "x"))),
        ("1 2 = x", GoldChain(None, ("1 2", "x"))),  # spaces inside a number do not count
        ("3x = 6", GoldChain("3x", ("6",))),  # a number with a symbol is no plain number
    ],
)
def test_gold_chain(gold: str, expected: GoldChain) -> None:
    assert gold_chain(gold) == expected


@pytest.mark.parametrize(
    ("pred", "gold_label", "values"),
    [
        ("a = g/7", r"\dot v", [(1, "g/7")]),  # a plain symbol first: a renamed label
        ("g/7 = a", r"\dot v", [(0, "g/7")]),  # ... or last, after a value
        ("g/7 = a", None, [(0, "g/7")]),
        ("a = g/7", None, [(1, "g/7")]),
        ("x = 3", "x", [(1, "3")]),
        ("3 = x", "x", [(0, "3")]),  # the gold's label in any place
        ("x", "x", []),  # only the label: no value
        ("a", None, [(0, "a")]),  # one side is always a value
        (r"g = 2\pi\sqrt{l/g}", None, [(0, "g"), (1, r"2\pi\sqrt{l/g}")]),  # a claim
        ("3 = 4", None, [(0, "3"), (1, "4")]),
        ("3 = a = b", None, [(0, "3"), (1, "a")]),  # only the last plain symbol names
        ("x = 2 = y", None, [(1, "2")]),
        ("M = Q(M)", None, [(1, "Q(M)")]),
        ("Q(M) = M", None, [(1, "M")]),  # an application last is no name: M is compared
        # a ratio label first, unless the gold's label is another ratio
        (r"\frac{v(t)}{v(0)} = e^{-t}", None, [(1, "e^{-t}")]),
        (r"\frac{v(t)}{v(0)} = e^{-t}", "x", [(1, "e^{-t}")]),
        (
            r"\frac{v(t)}{v(0)} = e^{-t}",
            r"\frac{I(X)}{I(0)}",
            [(0, r"\frac{v(t)}{v(0)}"), (1, "e^{-t}")],
        ),
        (r"\frac{I(0)}{I(X)} = e^{t}", r"\frac{I(X)}{I(0)}", [(1, "e^{t}")]),  # reciprocal
        # a change ratio first names the factor asked, when the gold has no label
        ("U_f/U_i = 4", None, [(1, "4")]),
        ("U_i/U_f = 4", None, [(1, "4")]),
        ("U_f/U_i = 4", "x", [(0, "U_f/U_i"), (1, "4")]),
        ("v/v_0 = 2v", None, [(0, "v/v_0"), (1, "2v")]),  # v is a symbol of the value
        ("v_2/v_1 = 4", None, [(0, "v_2/v_1"), (1, "4")]),
    ],
)
def test_value_sides(pred: str, gold_label: str | None, values: list[tuple[int, str]]) -> None:
    assert value_sides(pred, gold_label) == values


def test_is_restatement() -> None:
    assert is_restatement(r"\Delta x", r"\Delta x = 3c")
    assert is_restatement(r"\Delta x = \Delta x", r"\Delta x = 3c")
    assert not is_restatement("3c", r"\Delta x = 3c")
    assert not is_restatement("x", "3")  # a gold without label: nothing to restate


@pytest.mark.parametrize(
    ("pred", "gold", "verdict"),
    [
        (r"v \neq 5", "5", (False, "negated_relation")),
        (r"v \neq 5", r"v \neq 5", (True, "equal")),  # both negated: compared
        ("x = 3", "x = 3", (True, "equal")),
        ("x = 4", "x = 3", (False, "wrong_value")),
        ("y = 3", "x = 3", (True, "equal")),  # a renamed label
        ("x", "x = 3", (False, "restated_question")),
        (r"v_{\max} = 3", r"v_{\min} = 3", (False, "wrong_label")),
        (r"3 = v_{\max}", r"v_{\min} = 3", (False, "wrong_label")),  # in any place
        (r"v_{\max}", r"v_{\min} = 3", (False, "unparseable")),  # one side: a value
        # the gold's ratio upside down: its value is the reciprocal of the gold's
        ("m_2/m_1 = 0.5", "m_1/m_2 = 2", (True, "numeric")),
        ("m_2/m_1 = 2", "m_1/m_2 = 2", (False, "wrong_value")),
        ("m_1/m_2 = 2", "m_1/m_2 = 2", (True, "equal")),
        ("m_2/m_3 = 2", "m_1/m_2 = 2", (False, "wrong_label")),
        # the earlier over the later value of the quantity asked: the reciprocal factor
        ("U_i/U_f = 0.25", "4", (True, "numeric")),
        ("U_i/U_f = 4", "4", (False, "wrong_value")),
        ("U_f/U_i = 4", "4", (True, "equal")),
        ("U_i/U_f = 0.25", "x = 4", (False, "chain_link_1:wrong_value")),  # the gold has a
        # label: the ratio is a (skipped) value side, never inverted
        # every value side must hold; a failing one is named when several state values
        ("x = 3 = 4", "3", (False, "chain_link_2:wrong_value")),
        ("x = 4 = 3", "3", (False, "chain_link_1:wrong_value")),
        ("x = 3 = 3.0", "3", (True, "equal")),  # the first match's reason
        ("x = 3.0 = 3", "3", (True, "numeric")),
        ("x = 4", "3", (False, "wrong_value")),  # one value side: no position
        # any gold form may match a side, the last (most explicit) tried first
        ("x = 2", "y = 2 = 3", (True, "equal")),
        ("x = 3", "y = 2 = 3", (True, "equal")),
        ("x = 5", "y = 2 = 3", (False, "wrong_value")),
    ],
)
def test_judge_chain(pred: str, gold: str, verdict: tuple[bool, str]) -> None:
    assert judge_chain(pred, gold, compare, symbolic_step) == verdict


@pytest.mark.parametrize(
    ("pred", "gold", "with_steps", "without"),
    [
        # a symbolic step is skipped when another side holds ...
        ("x = q = 3", "3", (True, "equal"), (False, "chain_link_1:unparseable")),
        ("x = q = 3.0", "3", (True, "numeric"), (False, "chain_link_1:unparseable")),
        ("x = 3 = q", "3", (True, "equal"), (True, "equal")),  # q last: a label
        ("x = q = 3 = 4", "3", (False, "chain_link_3:wrong_value"), None),
        # ... never counted as the match: the first skipped side's failure is the reason
        ("x = q = r = s", "3", (False, "chain_link_1:unparseable"), None),
        ("x = q", "3", (False, "unparseable"), (False, "unparseable")),  # one side: no skip
        ("q", "3", (False, "unparseable"), (False, "unparseable")),
    ],
)
def test_symbolic_steps_are_skipped_only_beside_a_match(
    pred: str,
    gold: str,
    with_steps: tuple[bool, str],
    without: tuple[bool, str] | None,
) -> None:
    assert judge_chain(pred, gold, compare, symbolic_step) == with_steps
    if without is not None:
        assert judge_chain(pred, gold, compare) == without


def test_a_side_is_checkable_when_any_form_says_so() -> None:
    """A side skipped as a step must be uncheckable against every gold form: one form that
    finds a real failure makes the chain wrong."""

    def only_against_two(side: str, form: str, reason: str) -> bool:
        return reason == "unparseable" and form != "2"

    assert judge_chain("x = q = 3", "y = 2 = 3", compare, only_against_two) == (
        False,
        "chain_link_1:unparseable",
    )
    assert judge_chain("x = q = 3", "y = 2 = 3", compare, symbolic_step) == (True, "equal")


def test_forms_are_tried_last_first_and_stop_at_a_match() -> None:
    calls: list[tuple[str, str]] = []

    def recording(side: str, form: str) -> tuple[bool, str]:
        calls.append((side, form))
        return compare(side, form)

    assert judge_chain("x = 3", "y = 2 = 3", recording) == (True, "equal")
    assert calls == [("3", "3")]
    calls.clear()
    assert judge_chain("x = 2", "y = 2 = 3", recording) == (True, "equal")
    assert calls == [("2", "3"), ("2", "2")]
    calls.clear()
    assert judge_chain("x = 5", "y = 2 = 3", recording) == (False, "wrong_value")
    assert calls == [("5", "3"), ("5", "2")]  # the failure of the last form is named
