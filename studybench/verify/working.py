"""Working in numbers, as a chain writes it before its final box: its value.

``$U = \\tfrac12(50)(0.10)^2 = \\boxed{0.25\\,\\mathrm{J}}$``: the side ``\\tfrac12(50)(0.10)^2``
is arithmetic on written numbers, and a chain claims it equals the box. The LaTeX parser the
rules use reads such working wrongly (latex2sympy2 takes ``(2)(3)`` for 5 and ``(1500)(20)``
for 1520, red team r36b), so this module reads the few forms working takes itself: numbers
(with a power of ten), + − × · /, ``\\frac``, ``\\sqrt``, powers, brackets, and a product
written by juxtaposition. Anything else (a name, a unit, a function) is not working: None.
Python's ``ast`` evaluates the result, with the size of powers bounded, so no input costs
more than a few microseconds.
"""

from __future__ import annotations

import ast
import math
import re

# the characters and commands working is written in
_WORKING = re.compile(
    r"(?:[\d.\s+\-−*/^(){}×·]|\\(?:times|cdot|[dt]?frac|sqrt|left|right|[,;:! ])(?![a-zA-Z]))+"
)
_REWRITES = (
    (re.compile(r"\\left|\\right|\\[,;:! ]"), " "),
    (re.compile(r"\\times|\\cdot|×|·"), "*"),
    (re.compile(r"−"), "-"),
)
_FRACTION = re.compile(r"\\[dt]?frac\s*")
_MIXED = re.compile(r"\d\s*\\[dt]?frac")
_ROOT = re.compile(r"\\sqrt\s*")
# a number in scientific notation is written out, not worked: "2.0\times10^{-3}"
_SCIENTIFIC = re.compile(r"[-+]?[\d.]+\*10\*\*(?:\([-+]?\d+\)|\d+)")
_MAX_POWER = 400  # |exponent| of any power: 10^{-34} and squares, never 10^{10^9}
_MAX_CHARS = 200


def _group(text: str, start: int) -> tuple[str, int] | None:
    """The argument of a command at ``start``: a brace group, or one digit (``\\frac12``)."""
    while start < len(text) and text[start] == " ":
        start += 1
    if start >= len(text):
        return None
    if text[start] != "{":
        return (text[start], start + 1) if text[start].isdigit() else None
    depth = 0
    for index in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[start + 1 : index], index + 1
    return None


def _python(text: str) -> str | None:
    """``text`` as a Python expression: fractions and roots as calls, braces as brackets,
    ``^`` as ``**``, juxtaposed factors joined by ``*``; None for a digit before a fraction
    ("2\\tfrac12": a mixed number or a product, unsaid)."""
    if _MIXED.search(text):
        return None
    out: list[str] = []
    index = 0
    while index < len(text):
        fraction = _FRACTION.match(text, index)
        root = _ROOT.match(text, index)
        if fraction:
            top = _group(text, fraction.end())
            bottom = _group(text, top[1]) if top else None
            if top is None or bottom is None:
                return None
            inner = (_python(top[0]), _python(bottom[0]))
            if None in inner:
                return None
            out.append(f"(({inner[0]})/({inner[1]}))")
            index = bottom[1]
        elif root:
            argument = _group(text, root.end())
            inner_root = _python(argument[0]) if argument else None
            if argument is None or inner_root is None:
                return None
            out.append(f"sqrt({inner_root})")
            index = argument[1]
        else:
            char = text[index]
            out.append({"{": "(", "}": ")", "^": "**"}.get(char, char))
            index += 1
    expression = "".join(out)
    # a product written by juxtaposition: ")(", ")2", "2(", "2 3" is no working
    expression = re.sub(r"\)\s*(?=[(\d.s])", ")*", expression)
    expression = re.sub(r"(?<=[\d.])\s*(?=\(|sqrt)", "*", expression)
    return expression


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
        if isinstance(node.op, ast.Pow) and abs(right) <= _MAX_POWER:
            return float(left**right)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "sqrt"
        and len(node.args) == 1
        and not node.keywords
    ):
        return math.sqrt(_evaluate(node.args[0]))
    raise ValueError("not working in numbers")


def working_value(side: str) -> float | None:
    """The value of ``side`` where it is working in numbers with at least one operation
    ("2.0+3.0", "\\tfrac12(50)(0.10)^2", "\\sqrt{2(9.8)(5)}"); None for anything else (a
    bare number, a name, a unit, an expression no rule here reads)."""
    side = side.strip()
    if len(side) > _MAX_CHARS or not re.search(r"\d", side) or not _WORKING.fullmatch(side):
        return None
    text = side
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    expression = _python(text)
    if expression is None:
        return None
    # an operation outside the powers and past a leading sign: "-5" and "10^{-3}" are numbers
    # written out, read by the other rules
    bare = re.sub(r"\*\*\s*(?:\([^()]*\)|[-+]?[\d.]+)", "", expression).strip().lstrip("-+")
    if not re.search(r"[-+*/]|sqrt", bare) or _SCIENTIFIC.fullmatch(expression.replace(" ", "")):
        return None
    try:
        value = _evaluate(ast.parse(expression, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError, RecursionError):
        return None
    if isinstance(value, complex) or not math.isfinite(value):
        return None
    return value
