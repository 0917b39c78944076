"""LaTeX normalisation that never corrupts an answer.

Every rewrite here is a whole-token rewrite: commands are matched with a word boundary
(``\\left`` never eats ``\\leftarrow``), wrappers are unwrapped with brace matching, and no
letter is ever deleted from the text. The reference harness deleted the substrings ``e``,
``h``, ``R``, ``G`` (physical constants) everywhere and then judged ``R`` equal to ``h``;
nothing of the kind happens here.
"""

from __future__ import annotations

import re

# Characters models emit in place of LaTeX commands or ASCII punctuation.
_CHAR_MAP = {
    "，": ",",
    "：": ":",
    "∶": ":",
    "；": ";",
    "（": "(",
    "）": ")",
    "［": "[",
    "］": "]",
    "．": ".",
    "−": "-",
    "–": "-",
    "—": "-",
    "×": r" \times ",
    "·": r" \cdot ",
    "⋅": r" \cdot ",
    "π": r"\pi ",
    "μ": r"\mu ",
    "µ": r"\mu ",
    "Ω": r"\Omega ",
    "≈": "=",
    "≃": "=",
    "∼": "=",
    "≤": r"\le ",
    "≥": r"\ge ",
    "∞": r"\infty ",
    "∪": r"\cup ",
    "°": r"^{\circ}",
    "Å": r"\AA ",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
}
_CHAR_TABLE = str.maketrans(_CHAR_MAP)

# Commands removed as whole tokens (sizing and spacing only, no meaning).
_DROP_COMMANDS = re.compile(
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg|displaystyle|textstyle)"
    r"(?![a-zA-Z])"
)
_SPACES = re.compile(r"\\[,;:! ]|\\q?quad(?![a-zA-Z])|~")
_FRAC_VARIANTS = re.compile(r"\\[dt]frac(?![a-zA-Z])")
_APPROX = re.compile(r"\\(?:approx|simeq|sim|cong|doteq)(?![a-zA-Z])")
_DEGREE = re.compile(r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ(?![a-zA-Z])|\\degree(?![a-zA-Z])")
_PERCENT = re.compile(r"\\%")
_UNWRAP = (
    "mathrm",
    "text",
    "textrm",
    "mathit",
    "textit",
    "mathbf",
    "textbf",
    "mathsf",
    "mbox",
    "textnormal",
)
# Old-style font switches ({\rm w}, {\bf F}) change the look only.
_FONT_SWITCH = re.compile(r"\\(?:rm|bf|it|sf|tt|cal|mathrm)(?![a-zA-Z{])\s*")
# \operatorname{arcsinh} is the function \arcsinh.
_OPERATORNAME = re.compile(r"\\operatorname\*?\s*\{\s*([A-Za-z]+)\s*\}")
# Bold or arrowed single symbols are vectors; the parser needs to know (cross products).
_VECTOR = re.compile(
    r"\\(?:mathbf|boldsymbol|bm|vec|overrightarrow|pmb)\s*"
    r"(?:\{\s*([A-Za-z]|\\[A-Za-z]+)\s*\}|([A-Za-z])(?![A-Za-z]))"
)
_BOLD = re.compile(
    r"\\(?:mathbf|boldsymbol|bm|vec|overrightarrow|pmb)\s*(?=\{)"
    r"(?!\{\s*(?:[A-Za-z]|\\[A-Za-z]+)\s*\})"
)
_UNWRAP_RE = re.compile(r"\\(?:" + "|".join(_UNWRAP) + r")\s*\{")
_MULTISPACE = re.compile(r"\s+")
_TRAILING_PUNCT = re.compile(r"[\s.;,]+$")
_DOLLARS = re.compile(r"(?<!\\)\$")


def unwrap_command_groups(text: str) -> str:
    """Replace ``\\mathrm{X}``-style wrappers by ``X`` (brace-matched, nested-safe)."""
    out: list[str] = []
    pos = 0
    while True:
        match = _UNWRAP_RE.search(text, pos)
        if match is None:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos : match.start()])
        depth = 1
        i = match.end()
        while i < len(text) and depth:
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        inner = text[match.end() : i - 1] if depth == 0 else text[match.end() :]
        out.append(" " + inner + " ")
        pos = i


def normalize_answer(text: str) -> str:
    """Canonical form of one box's content, for comparison and display.

    Keeps everything that carries meaning: symbols, case, constants, units (as plain text
    after ``\\mathrm``/``\\text`` unwrapping, so the unit parser can read them).
    """
    text = text.translate(_CHAR_TABLE)
    text = _DOLLARS.sub("", text)
    text = _DROP_COMMANDS.sub("", text)
    text = _FRAC_VARIANTS.sub(r"\\frac", text)
    text = _DEGREE.sub(lambda _: r" ^{\circ} ", text)
    text = _PERCENT.sub(" % ", text)
    text = _APPROX.sub("=", text)
    text = _FONT_SWITCH.sub(" ", text)
    text = _OPERATORNAME.sub(lambda m: "\\" + m.group(1) + " ", text)
    text = _VECTOR.sub(lambda m: r"\vec{" + (m.group(1) or m.group(2)) + "}", text)
    text = _BOLD.sub(r"\\mathrm", text)  # bold expressions: just the expression
    text = unwrap_command_groups(text)
    text = _SPACES.sub(" ", text)
    text = text.replace("\\\\", " ")
    text = _MULTISPACE.sub(" ", text).strip()
    text = _TRAILING_PUNCT.sub("", text)
    # A leading "=" is what remains of "\approx 3.2" or "= 3.2".
    return text.lstrip("= ").strip()


def last_side(text: str) -> str:
    """The expression after the last top-level ``=``: ``v = \\sqrt{2gh}`` -> ``\\sqrt{2gh}``.

    Chained equalities (``T = 2\\pi\\sqrt{l/g} = 2.0 s``) give the last, most explicit side.
    Relations inside braces (``\\frac{a=b}{c}``) do not split.
    """
    sides = split_top_level(text, "=")
    return sides[-1].strip() if sides else text


def split_top_level(text: str, separator: str) -> list[str]:
    """Split at ``separator`` characters that are outside braces, brackets and parentheses."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif char == separator and depth == 0:
            # "<=", ">=", "!=" are relations of their own, not equalities.
            prev = text[i - 1] if i else ""
            if separator != "=" or prev not in "<>!":
                parts.append(text[start:i])
                start = i + 1
        i += 1
    parts.append(text[start:])
    return parts
