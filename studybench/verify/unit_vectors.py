"""A vector answer in the spelling of the gold's unit vectors.

A gold writes a vector in unit vectors, ``3\\hat{i} + 4\\hat{j}`` or ``(3\\hat x + 4\\hat
y)\\,\\mathrm{N}``; answers write the same vector as ``3\\mathbf{i} + 4\\mathbf{j}``,
``3\\hat\\imath + 4\\hat\\jmath``, ``3\\hat{\\mathbf{i}} + \\dots``, in the other Cartesian
family (``\\hat x`` for ``\\hat i``), or as its components: ``(3, 4)``, ``\\langle 3,
4\\rangle``, a column ``\\begin{pmatrix}3\\\\4\\end{pmatrix}``, each with its unit after it. All
were rejected (the bold letters read as the imaginary unit or as symbols of their own, a list
as no expression).

Only where the gold writes unit vectors of one Cartesian family, and only the answer is
rewritten, into that family: components in order x, y, z (i, j, k). Nothing is accepted here;
the rewritten answer is judged as any other, so swapped or negated components stay wrong.
"""

from __future__ import annotations

import re

from studybench.data.boxes import closing_bracket
from studybench.verify.normalize import split_top_level

_FAMILIES = ("ijk", "xyz")
# a unit vector as the gold writes it: \hat{i}, \hat x, \widehat{z}
_GOLD_HAT = re.compile(r"\\(?:hat|widehat)\s*(?:\{\s*([ijkxyz])\s*\}|([ijkxyz])(?![A-Za-z]))")
# the other spellings of one: dotless letters, bold letters with or without a hat
_DOTLESS = re.compile(r"\\(?:hat|widehat)\s*(?:\{\s*\\([ij])math\s*\}|\\([ij])math(?![A-Za-z]))")
_BOLD_HAT = re.compile(
    r"\\(?:hat|widehat)\s*\{\s*\\(?:mathbf|boldsymbol|bm)\s*\{\s*([ijkxyz])\s*\}\s*\}"
    r"|\\(?:mathbf|boldsymbol|bm)\s*\{\s*\\(?:hat|widehat)\s*\{?\s*([ijkxyz])\s*\}?\s*\}"
)
# bold i, j, k alone (never x, y, z: a bold x is a position vector)
_BOLD_LETTER = re.compile(
    r"\\(?:mathbf|boldsymbol|bm)\s*\{\s*([ijk])\s*\}|\\(?:mathbf|bm)\s+([ijk])\b"
)
_ANGLE_LIST = re.compile(r"^\s*\\langle(?P<body>.*)\\rangle(?P<rest>.*)$", re.DOTALL)
_COLUMN = re.compile(
    r"^\s*\\begin\{[pbv]?matrix\}(?P<body>.*?)\\end\{[pbv]?matrix\}(?P<rest>.*)$", re.DOTALL
)
# what may follow a component list: spacing, then a unit (upright or plain), or nothing
_SPACING_RUN = re.compile(r"(?:\s|\\[,;: ]|~)+")
# a unit after the components: text groups, powers and products ("\\text{m/s}^2",
# "\\text{m}\\,\\text{s}^{-1}", red team r35c)
_UNIT_REST = re.compile(
    r"(?:\\(?:mathrm|text|rm)\s*\{[^{}]*\}|\^\s*\{\s*-?\d+\s*\}|\\(?:cdot|[,;: ])"
    r"|[A-Za-zΩμ/^\d\-·\s])*"
)


def gold_family(gold: str) -> str | None:
    """The Cartesian family (``"ijk"`` or ``"xyz"``) of the unit vectors the gold writes, or
    None where it writes none or mixes the two."""
    letters = {a or b for a, b in _GOLD_HAT.findall(gold)}
    for family in _FAMILIES:
        if letters and letters <= set(family):
            return family
    return None


def in_gold_basis(answer: str, gold: str) -> str:
    """``answer`` with its unit vectors spelled as the gold's (see the module's docstring);
    as written where the gold writes no unit vectors."""
    family = gold_family(gold)
    if family is None:
        return answer
    text = _DOTLESS.sub(lambda m: rf"\hat{{{m.group(1) or m.group(2)}}}", answer)
    text = _BOLD_HAT.sub(lambda m: rf"\hat{{{m.group(1) or m.group(2)}}}", text)
    text = _BOLD_LETTER.sub(lambda m: rf"\hat{{{m.group(1) or m.group(2)}}}", text)
    components = _components(text)
    if components is not None:
        values, rest = components
        terms = [
            f"({value})\\hat{{{letter}}}" for value, letter in zip(values, family, strict=False)
        ]
        text = f"({' + '.join(terms)}){rest}"
    return _into_family(_unit_after_sum(text), family)


# a sum of numbers times unit vectors, then one unit after the last: ``3\\hat x + 4\\hat y\\,N``
_COEFFICIENT = r"(?:[\s+\-−\d.{}^]|\\times|\\cdot|\\[,;: ])*"
_HAT = r"\\(?:hat|widehat)\s*(?:\{\s*[ijkxyz]\s*\}|[ijkxyz](?![A-Za-z]))"
_SUM_THEN_UNIT = re.compile(
    rf"^(?P<sum>{_COEFFICIENT}{_HAT}(?:\s*[+\-−]{_COEFFICIENT}{_HAT}){{1,2}})"
    r"(?P<rest>(?:\s|\\[,;: ]|~)+"
    r"(?:\\(?:mathrm|text|rm)\s*\{[^{}]*\}|[A-Za-zΩμ][A-Za-zΩμ/^\d\-·]*))\s*$"
)


def _unit_after_sum(text: str) -> str:
    """``3\\hat x + 4\\hat y\\ \\mathrm{N}`` as ``(3\\hat x + 4\\hat y)\\ \\mathrm{N}``: a unit
    written once after a sum of unit-vector terms with bare numbers is every term's (no term
    of a vector is in another unit)."""
    match = _SUM_THEN_UNIT.match(text)
    if match is None:
        return text
    return f"({match.group('sum').strip()}){match.group('rest')}"


def _into_family(text: str, family: str) -> str:
    """Unit vectors of the other family renamed to the gold's (î is x̂), where the answer
    uses only the other family."""
    used = {a or b for a, b in _GOLD_HAT.findall(text)}
    other = next(f for f in _FAMILIES if f != family)
    if not used or not used <= set(other):
        return text
    rename = dict(zip(other, family, strict=True))
    return _GOLD_HAT.sub(lambda m: rf"\hat{{{rename[m.group(1) or m.group(2)]}}}", text)


def _components(text: str) -> tuple[list[str], str] | None:
    """The components of a box that is only a component list (``(3, 4)``, ``\\langle 3,
    4\\rangle``, a matrix column), with what follows it (a unit); None otherwise."""
    stripped = text.strip()
    body = rest = None
    if stripped.startswith(("(", "\\left(")):
        open_at = stripped.index("(")
        close = closing_bracket(stripped, open_at)
        if close is not None:
            body, rest = stripped[open_at + 1 : close], stripped[close + 1 :]
            body = re.sub(r"\\right\s*$", "", body)
    elif (angle := _ANGLE_LIST.match(stripped)) is not None:
        body, rest = angle.group("body"), angle.group("rest")
    elif (column := _COLUMN.match(stripped)) is not None:
        body, rest = column.group("body").replace("\\\\", ","), column.group("rest")
    if body is None or rest is None:
        return None
    if not _UNIT_REST.fullmatch(_SPACING_RUN.sub(" ", rest).strip()):
        return None
    values = [v.strip() for v in split_top_level(body, ",")]
    if not 2 <= len(values) <= 3 or not all(values):
        return None
    return values, rest
