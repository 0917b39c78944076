"""What surrounds the value in a final answer: labels, relations, chains, bounds, remarks.

Physicists box more than the value: ``\\dot M \\approx 2\\times10^{-3}``, ``F(t) = 3t^2``,
``T = 2\\pi\\sqrt{l/g} = 2.0\\,s``, ``B < 0.866\\,T``, ``\\frac{mg}{k}\\ \\text{(downward)}``.
These helpers turn such a box into the forms that may be compared (the sides of a chain, the
value of a bound, the expression without its remark), working on normalised text and
splitting only at the top level (never inside braces or parentheses).
"""

from __future__ import annotations

import re

from studybench.verify.normalize import split_top_level

# A label names the quantity: one letter or Greek letter, optionally accented, a vector,
# with a subscript, primes, and the arguments of a function (F(t), v_x(t_1)).
_LETTER = r"(?:[A-Za-z]|\\[A-Za-z]+)"
_ACCENT = r"\\(?:dot|ddot|hat|widehat|bar|overline|tilde|widetilde|vec|check)\s*"
_LABEL_CORE = (
    rf"(?:{_ACCENT}(?:\{{\s*{_LETTER}\s*\}}|{_LETTER})|\\langle\s*{_LETTER}\s*\\rangle|{_LETTER})"
)
_SUBSCRIPT = r"(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]|\\[A-Za-z]+))?"
_PRIMES = r"(?:\s*(?:'|\^\s*\{?\s*\\prime\s*\}?))*"
# the arguments of a function are names or numbers (F(t), I(0), u(x, t)); a parenthesis
# holding an expression is a factor (``Q(\frac{v_0^2}{g})`` is Q times it, not a label)
_ARG = r"\s*[+-]?\s*(?:[A-Za-z]|\\[A-Za-z]+|\d+(?:\.\d+)?)(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?\s*"
_ARGS = rf"(?:\s*\({_ARG}(?:,{_ARG})*\))?"
_LABEL = re.compile(rf"^\s*{_LABEL_CORE}{_SUBSCRIPT}{_PRIMES}{_SUBSCRIPT}{_ARGS}\s*$")
_FUNCTION_NAMES = {
    r"\sin", r"\cos", r"\tan", r"\cot", r"\sec", r"\csc", r"\exp", r"\ln", r"\log",
    r"\sinh", r"\cosh", r"\tanh", r"\coth", r"\pi", r"\infty", r"\sqrt", r"\frac",
}  # fmt: skip

# Relations of a bound: the value is what the quantity is compared with.
_BOUND = re.compile(
    r"\\(?:lesssim|gtrsim|leqslant|geqslant|leq|geq|le|ge|lt|gt|ll|gg)(?![a-zA-Z])|<=|>=|<|>"
)

# A trailing remark: ``\\text{(downward)}``, ``\\text{ directed north}``, ``(to the left)``.
_TEXT_GROUP = re.compile(r"\\(?:text|textrm|mbox|textnormal|textit|mathrm)\s*\{([^{}]*)\}\s*$")
_PAREN_REMARK = re.compile(r"\(\s*([A-Za-z][A-Za-z\s,.-]*)\)\s*$")
_WORD = re.compile(r"[A-Za-z]{2,}")
# What a remark may hold: words and punctuation; a digit, an operator, a backslash command or
# a bracket other than parentheses is content (``\\text{ times 2}``, ``\\mathrm{kg\\,m/s}``).
_REMARK_TEXT = re.compile(r"^[A-Za-z\s,.;:()'\u2019-]*$")
_LONE_HYPHEN = re.compile(r"(?<![A-Za-z])-|-(?![A-Za-z])")
_REMARK_WORDS = re.compile(r"[A-Za-z]+")
# Words that change a value when they follow it: numbers and multipliers, operators, signs,
# relations, alternatives. A remark holding one of them is part of the answer, never dropped.
_VALUE_WORDS = frozenset(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
    ninety hundred hundreds thousand thousands million millions billion billions trillion
    trillions dozen dozens score gross half halves halved double doubled twice triple tripled
    thrice quadruple quadrupled third thirds quarter quarters fifth fifths tenth tenths
    hundredth hundredths thousandth thousandths millionth percent per cent
    times plus minus over divided multiplied product sum difference ratio squared cubed square
    cube root roots power powers inverse reciprocal negative opposite reversed less more
    greater smaller fewer larger than least most exceeding exceeds or nor either not no order
    factor log ln exp sqrt sin cos tan""".split()
)
# Articles, prepositions and plain words that pint would read as units (``in``: inch, ``a``:
# year, ``point``: a printer's point in "the highest point").
_FUNCTION_WORDS = frozenset(
    "a an the in at to of on as by is it its be and from with for this that into onto point"
    " points".split()
)
_AXES = frozenset("xyz")


def is_label(text: str) -> bool:
    """Whether ``text`` only names a quantity (``v``, ``\\dot M``, ``B_{\\max}``, ``F(t)``)."""
    if not _LABEL.match(text):
        return False
    head = text.strip().split("_")[0].split("(")[0].strip()
    return head not in _FUNCTION_NAMES


def sides(text: str) -> list[str]:
    """The forms a box states as equal: ``A = B = C`` -> ``[B, C]`` when ``A`` only names
    the quantity, else ``[A, B, C]``; a box without ``=`` is its own single form."""
    parts = [p.strip() for p in split_top_level(text, "=")]
    parts = [p for p in parts if p]
    if not parts:
        return [text.strip()]
    if len(parts) > 1 and is_label(parts[0]):
        parts = parts[1:]
    return parts


def bound_value(text: str) -> str:
    """``B < 0.866 T`` -> ``0.866 T`` (and ``0.866 T > B``): a bound written as the answer.

    Only a two-sided relation with a label on one side is read this way; an interval such
    as ``1 < x < 2`` is left alone.
    """
    if not _BOUND.search(text):
        return text
    pieces = _split_bound(text)
    if len(pieces) != 2:
        return text
    left, right = pieces
    if is_label(left) and not is_label(right):
        return right
    if is_label(right) and not is_label(left):
        return left
    return text


def _split_bound(text: str) -> list[str]:
    pieces: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        if depth == 0:
            match = _BOUND.match(text, i)
            if match is not None:
                pieces.append(text[start:i].strip())
                start = i = match.end()
                continue
        if char == "\\":
            i += 2 if i + 1 < len(text) and not text[i + 1].isalpha() else 1
            continue
        i += 1
    pieces.append(text[start:].strip())
    return pieces


# A unit set apart after an expression: ``2\\pi\\sqrt{l/g}\\,\\mathrm{s}``, ``x\\text{ (rad/s)}``.
_SPACED_UNIT = (
    re.compile(r"(?:\\[,;:! ]|\\q?quad|~|\s)\s*\\(?:text|textrm|mathrm|mbox)\s*\{([^{}]*)\}\s*$"),
    re.compile(r"\\(?:text|textrm|mbox)\s*\{(\s[^{}]*)\}\s*$"),
)


def strip_unit_annotation(text: str) -> str:
    """Drop a unit set apart after a symbolic answer (EX, EQ): the expression is what is
    compared, and ``\\mathrm{s}`` read as a symbol would make it wrong."""
    from studybench.verify.units import parse_unit

    stripped = text.rstrip()
    for pattern in _SPACED_UNIT:
        match = pattern.search(stripped)
        if match is None or not stripped[: match.start()].strip():
            continue
        unit = match.group(1).strip().strip("()[]").strip()
        if unit and parse_unit(unit) is not None:
            return stripped[: match.start()].rstrip()
    return text


def is_remark(text: str) -> bool:
    """Whether ``text`` is words that cannot change the value they follow (``(downward)``,
    ``directed north``, ``approximately``), so dropping it leaves the claim as it was.

    Not a remark: a digit, an operator, a command (``\\text{ times 2}``, ``\\mathrm{kg\\,m/s}``),
    a word that multiplies, relates or offers another value (``thousand``, ``squared``, ``per``,
    ``or``, ``less than``), a unit (``(radians)``, ``per second``; things counted, ``(photons)``,
    are plain numbers and may stay) or a lone letter other than an axis (``k``)."""
    from studybench.verify.units import counts_things, parse_unit

    if not _REMARK_TEXT.match(text) or _LONE_HYPHEN.search(text):
        return False
    words = _REMARK_WORDS.findall(text)
    if not any(len(word) > 1 and word not in _FUNCTION_WORDS for word in words):
        return False  # ``\\text{ x}``, ``\\text{ a}``: a symbol, not words
    for word in words:
        lower = word.casefold()
        if lower in _VALUE_WORDS:
            return False
        if word in _FUNCTION_WORDS or word in _AXES or counts_things(word):
            continue  # lower case only: ``A`` is an ampere, ``a`` an article
        if len(word) == 1 or parse_unit(word) is not None:
            return False
    return True


def _unit_then_remark(content: str) -> str | None:
    """The unit that opens a text group followed by a remark: ``km/s (to the right)`` ->
    ``km/s``, ``T, to the right`` -> ``T``; None when the group is not a unit and a remark.

    The remark goes, the unit never: dropping the whole group read ``3 km/s`` as 3 in the
    gold's unit."""
    from studybench.verify.units import parse_unit

    content = content.strip()
    cuts = [m.start() for m in re.finditer(r"[\s(,;:]", content)]
    for cut in reversed(cuts):  # the longest unit first
        unit, rest = content[:cut].strip(), content[cut:].strip(" ,;:")
        if unit and rest and parse_unit(unit) is not None and is_remark(rest):
            return unit
    return None


def strip_remark(text: str) -> str:
    """Drop trailing natural-language remarks from a mathematical answer.

    ``\\frac{mg}{k}\\ \\text{(downward)}`` -> ``\\frac{mg}{k}``; ``3\\ \\text{km/s (to the
    right)}`` -> ``3\\ \\text{km/s}``. Only a remark that cannot change the value is dropped
    (:func:`is_remark`): ``\\text{ thousand}``, ``\\text{ per second}``, ``\\text{ or 7 s}``
    and a unit stay, and the answer is judged with them. Runs on the raw box content, before
    ``\\text`` is unwrapped.
    """
    stripped = text.rstrip()
    for _ in range(3):  # a remark after a remark: \text{ m}\ \text{(upward)}
        shorter = _strip_one_remark(stripped)
        if shorter == stripped:
            break
        stripped = shorter
    return stripped if stripped != text.rstrip() else text


def _strip_one_remark(text: str) -> str:
    for pattern in (_TEXT_GROUP, _PAREN_REMARK):
        match = pattern.search(text)
        if match is None or not text[: match.start()].strip():
            continue
        content = match.group(1)
        words = _WORD.findall(content)
        if pattern is _PAREN_REMARK and not (len(words) > 1 or any(len(w) > 3 for w in words)):
            continue  # f(xy) is a product, (to the left) a remark
        if is_remark(content):
            return text[: match.start()].rstrip(" ,;:\\")
        if pattern is _TEXT_GROUP:
            unit = _unit_then_remark(content)
            if unit is not None:
                head = text[: match.start(1)]
                return head + unit + "}"
    return text


_ELEMENT_SEPARATORS = (
    re.compile(r"\\\\"),  # rows of cases / aligned
    re.compile(r"\\q?quad(?![a-zA-Z])"),
    re.compile(r";"),
    re.compile(r"\\text\s*\{\s*(?:and|,)\s*\}|\s+and\s+"),
)
_ENVIRONMENT = re.compile(
    r"\\(?:begin|end)\s*\{\s*(?:cases|aligned|align|array|tabular|gathered|gather|split|[pbvV]?matrix)"
    r"\*?\s*\}(?:\s*\{[lcr|\s]*\})?"  # and an array's column spec: \begin{array}{ll}
)
# the brace that opens a system of equations: \left\{ ... \right.
_SYSTEM_BRACE = re.compile(r"\\left\s*\\\{|\\right\s*\.|\\[{}]")


def has_environment(text: str) -> bool:
    """Whether a box lays out rows (``\\begin{cases}``, ``aligned``, ``array``)."""
    return _ENVIRONMENT.search(text) is not None


def split_elements(text: str, count: int) -> tuple[str, ...] | None:
    """A single box holding ``count`` elements: ``a \\quad b``, ``\\begin{cases} a \\\\ b
    \\end{cases}``, ``a; b``, ``a and b``. None when no separator gives ``count`` parts."""
    body = _ENVIRONMENT.sub(" ", text)
    if has_environment(text):
        body = _SYSTEM_BRACE.sub(" ", body)
    table = _HLINE.sub(" ", body)
    body = body.replace("&", " ").strip()
    for separator in _ELEMENT_SEPARATORS:
        parts = [p.strip(" ,") for p in split_top(body, separator)]
        parts = [p for p in parts if p]
        if len(parts) == count:
            return tuple(parts)
    return _table_cells(table, count)


_HLINE = re.compile(r"\\(?:hline|toprule|midrule|bottomrule)(?![a-zA-Z])")
_CELL = re.compile(r"&")
_ROW = re.compile(r"\\\\")
_RELATION_START = re.compile(r"^(?:=|<|>|\\(?:approx|le|ge|leq|geq|neq|sim)(?![a-zA-Z]))")


def _table_cells(body: str, count: int) -> tuple[str, ...] | None:
    """The cells of a table (``a & b \\\\ c & d``, an ``array`` or ``tabular``) in row
    order, when there are ``count`` of them: a tuple given as a table is the same values as
    the list read row by row (a transposed table differs in its elements, so it is wrong).

    Only a table whose every row has the same number of cells counts, and no cell may start
    with a relation: ``x &= 1 \\\\ y &= 2`` is an aligned system (two rows), not four cells."""
    if "&" not in body:
        return None
    rows = [row for row in split_top(body, _ROW) if row.strip()]
    table = [[cell.strip(" ,") for cell in split_top(row, _CELL)] for row in rows]
    if len({len(row) for row in table}) != 1:
        return None
    cells = [cell for row in table for cell in row]
    if len(cells) != count or not all(cells) or any(_RELATION_START.match(c) for c in cells):
        return None
    return tuple(cells)


def split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """Split at matches of ``separator`` outside braces, brackets and parentheses."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        if depth == 0:
            match = separator.match(text, i)
            if match is not None and match.end() > i:
                parts.append(text[start:i])
                start = i = match.end()
                continue
        i += 2 if char == "\\" and i + 1 < len(text) and text[i + 1] == "\\" else 1
    parts.append(text[start:])
    return parts
