"""Where an expression holds, written after it: ``\\sqrt{2/L}\\sin(\\pi x/L),\\ 0 \\le x \\le L``,
``2\\pi\\sqrt{L/g}\\quad(\\theta_0 \\ll 1)``, ``\\frac{V_0}{R}e^{-t/RC}\\ \\text{for } t \\ge 0``,
``\\frac{v_0^2\\sin 2\\theta}{g}\\ (\\text{level ground, no drag})``.

A condition of validity says for which values of a variable, or in which regime, the
expression is the answer; it changes no value, so it is dropped before the expression is
compared. Read as part of the answer it made the expression unreadable (red team r22b).

Only what cannot carry a value is dropped:

- a regime, written with ``\\ll`` or ``\\gg`` alone (``\\theta_0 \\ll 1``, ``v \\ll c``);
- a range of one variable the expression is written in, whose bounds are 0, infinity or
  names the expression writes (``0 \\le x \\le L``, ``t \\ge 0``, ``v < c``); a bound that is
  another expression (``t \\ge RC``, ``x < 2``) may be a claim and stays;
- a bracket of words that only name an approximation or an idealisation ("small-angle
  approximation", "level ground, no drag"); any other word, a digit or a value word stays.
"""

from __future__ import annotations

import re

from studybench.verify.asked import asked_question
from studybench.verify.asking import asking_part
from studybench.verify.question import symbols_of

# what separates a condition from the expression before it
_SEPARATOR = re.compile(
    r",|;|\\q?quad(?![a-zA-Z])|\\[,;: ]|~"
    r"|\\(?:text|textrm|mathrm|mbox)\s*\{\s*(?:for|if|when|valid\s+for|provided)\s*\}"
    r"|\s(?:for|if|when)\s"
)
_LEAD = re.compile(
    r"^(?:\s|\\[,;: ]|\\q?quad(?![a-zA-Z])|~)*"
    r"(?:\\(?:text|textrm|mathrm|mbox)\s*\{\s*(?:for|if|when|valid\s+for|provided)\s*\}\s*)?"
)
_BRACKETED = re.compile(r"^(?:\\left\s*\(|\()(?P<inner>.*)(?:\\right\s*\)|\))$", re.DOTALL)
_RELATION = re.compile(
    r"<|>|\\(?:le|leq|leqslant|ge|geq|geqslant|ll|gg|lesssim|gtrsim)(?![a-zA-Z])"
)
_REGIME = re.compile(r"\\(?:ll|gg)(?![a-zA-Z])")
_BELOW = frozenset({"<", "\\le", "\\leq", "\\leqslant", "\\lesssim"})
# a regime the question speaks of: "\\ll" needs a small or slow thing, "\\gg" a large one
_SMALL = re.compile(
    r"\b(?:small|low|weak|short|slow|thin|non-?relativistic|near|approximat)|\\ll|much\s+(?:less|smaller)",
    re.IGNORECASE,
)
_LARGE = re.compile(
    r"\b(?:large|high|strong|long|far|fast|ultra-?relativistic)|\\gg|much\s+(?:greater|larger)",
    re.IGNORECASE,
)
# a side of a range: a name (a letter or command, a subscript), 0, or infinity
_NAME_SIDE = re.compile(r"^(?:\\[A-Za-z]+|[A-Za-z])(?:_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?$")
_OPEN_END = re.compile(r"^(?:0|[+-]?\\infty)$")
# the words of an approximation or idealisation remark
_APPROXIMATION_WORDS = frozenset(
    """small angle angles approximation approximately approx limit regime nonrelativistic
    non relativistic classical ultrarelativistic low high speed speeds velocity level ground
    flat no drag friction frictionless air resistance neglecting neglected ignoring ignored
    negligible weak strong field damping undamped ideal thin lens lenses point mass massless
    uniform far near paraxial rays steady state long short times time large distance
    distances amplitude amplitudes oscillation oscillations for in the and of with without
    a an""".split()
)
_WORDS_ONLY = re.compile(r"^[A-Za-z\s,'-]+$")
_FUNCTION_WORDS = frozenset("for in the and of with without a an no".split())
_EFFECTS = frozenset("drag friction resistance damping air".split())
_NEGATORS = frozenset(
    "no without neglecting neglected ignoring ignored negligible frictionless undamped".split()
)
_SIZES = frozenset("small large low high weak strong short long far near thin slow fast".split())
_TEXT_GROUP = re.compile(r"\\(?:text|textrm|mathrm|mbox)\s*\{([^{}]*)\}")


def without_condition(box: str) -> str:
    """``box`` without a condition of validity after its expression (see the module's
    docstring); as written where the last piece is anything else."""
    for _ in range(2):  # "f(x), 0 \\le x \\le L (small amplitude)": two conditions
        shorter = _without_one(box)
        if shorter == box:
            return box
        box = shorter
    return box


def _without_one(box: str) -> str:
    text = box.rstrip(" .")
    words = _bracketed_words(text)
    if words is not None:
        return words
    for separator in reversed(list(_SEPARATOR.finditer(text))):
        head, tail = text[: separator.start()], text[separator.end() :]
        if not head.strip() or _depth(head) != 0:
            continue
        condition = _LEAD.sub("", tail).strip()
        bracketed = _BRACKETED.match(condition)
        if bracketed is not None:
            condition = bracketed.group("inner").strip()
        if condition and _is_condition(condition, head):
            return head.rstrip(" ,;")
        return box  # the last piece is something else: the answer as written
    return box


def _bracketed_words(text: str) -> str | None:
    """``text`` without a final bracket of approximation words, or None."""
    match = re.search(
        r"(?:\s|\\[,;: ]|\\q?quad(?![a-zA-Z])|~)*"
        r"(?:\\(?:text|textrm|mbox)\s*\{\s*\(([^{}()]*)\)\s*\}"
        r"|(?:\\left\s*)?\(\s*\\(?:text|textrm|mbox)\s*\{([^{}]*)\}\s*(?:\\right\s*)?\))$",
        text,
    )
    if match is None or not text[: match.start()].strip():
        return None
    content = match.group(1) or match.group(2) or ""
    if not _WORDS_ONLY.match(content):
        return None
    words = re.findall(r"[A-Za-z]+", content.casefold().replace("-", " "))
    if not words or not all(word in _APPROXIMATION_WORDS for word in words):
        return None
    if not set(words) - _FUNCTION_WORDS:
        return None  # "(no)": no approximation named
    if set(words) & _EFFECTS and not set(words) & _NEGATORS:
        return None  # "(with air resistance)", "(strong drag)": an effect kept is another problem
    question = (asked_question(folded=False) or "").casefold()
    if question and any(word in _SIZES and word not in question for word in words):
        return None  # a size the question does not speak of
    return text[: match.start()]


# the index of a state, written after its energy: "\\frac{\\pi^2\\hbar^2}{2mL^2}\\quad(n=1)"
_STATE_INDEX = re.compile(r"n\s*=\s*(\d)")
_STATE_ORDER = {"ground": 0, "first excited": 1, "second excited": 2, "third excited": 3}


def _asked_state(index: int) -> bool:
    """Whether the question's asking part names one state, and ``index`` is its quantum
    number: the ground state is n = 1 (n = 0 for an oscillator), the first excited n = 2
    (1), and so on (red team r24b). Another index claims another state's energy."""
    question = asked_question(folded=False)
    if not question:
        return False
    asking = asking_part(question).casefold()
    named = [order for words, order in _STATE_ORDER.items() if f"{words} state" in asking]
    if len(named) != 1:
        return False
    base = 0 if "oscillator" in question.casefold() else 1
    return index == base + named[0]


def _depth(text: str) -> int:
    depth = 0
    for char in text:
        if char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
    return depth


def _is_condition(condition: str, head: str) -> bool:
    """Whether ``condition`` is a regime the question speaks of or a range of a variable of
    ``head`` from 0 or up to a name (see the module's docstring)."""
    condition = _TEXT_GROUP.sub(r"\1", condition).strip()
    state = _STATE_INDEX.fullmatch(condition)
    if state is not None:
        return "n" not in symbols_of(head) and _asked_state(int(state.group(1)))
    if not _RELATION.search(condition) or "=" in _RELATION.sub("", condition):
        return False
    relations = _RELATION.findall(condition)
    sides = [side.strip().strip("{}").strip() for side in _RELATION.split(condition)]
    if any(not side for side in sides) or len(sides) > 3:
        return False
    if all(_REGIME.match(relation) for relation in relations):
        if not all(_NAME_SIDE.match(side) or side in ("1", "0") for side in sides):
            return False
        question = asked_question(folded=False)  # "(\\theta_0 \\gg 1)" for small oscillations
        regime = _LARGE if "gg" in relations[0] else _SMALL
        return not question or regime.search(question) is not None
    if any(_REGIME.match(relation) for relation in relations):
        return False
    written = symbols_of(head)
    names = [side for side in sides if not _OPEN_END.match(side)]
    if not names or not all(
        _NAME_SIDE.match(side) and symbols_of(side) <= written for side in names
    ):
        return False
    below = [relation in _BELOW for relation in relations]
    if len(sides) == 3:  # 0 \\le x \\le L: from 0 up to a name
        return all(below) and sides[0] == "0" and sides[2] != "0" and "infty" not in sides[2]
    variable_first = not _OPEN_END.match(sides[0])
    bound = sides[1] if variable_first else sides[0]
    if below[0] == variable_first:  # x < bound: up to a name (v < c), never 0 or infinity
        return not _OPEN_END.match(bound)
    return bound == "0"  # t \\ge 0; never a lower bound that is a name (r \\ge R: another region)
