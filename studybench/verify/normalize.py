"""LaTeX normalisation that never corrupts an answer.

Every rewrite here is a whole-token rewrite: commands are matched with a word boundary
(``\\left`` never eats ``\\leftarrow``), wrappers are unwrapped with brace matching, and no
letter is ever deleted from the text. The reference harness deleted the substrings ``e``,
``h``, ``R``, ``G`` (physical constants) everywhere and then judged ``R`` equal to ``h``;
nothing of the kind happens here.
"""

from __future__ import annotations

import re
from typing import Any

from studybench.data.boxes import closing_bracket

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
    # negated relations: one canonical token (see NEGATED)
    "≠": r" \neq ",
    "≉": r" \neq ",
    "≄": r" \neq ",
    "≁": r" \neq ",
    "≇": r" \neq ",
    "≢": r" \neq ",
    "≮": r" \neq ",
    "≯": r" \neq ",
    "≰": r" \neq ",
    "≱": r" \neq ",
    "∉": r" \neq ",
    "≤": r"\le ",
    "≥": r"\ge ",
    "∞": r"\infty ",
    "∪": r"\cup ",
    "°": r"^{\circ}",
    "℃": r"^{\circ}C",
    "℉": r"^{\circ}F",
    "Å": r"\AA ",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
    # Greek letters typed as characters are the commands (θ in "20.4° ≤ θ ≤ 69.6°" is the
    # question's \theta); μ and Ω stay, as in μm and kΩ they are units' letters
    **{
        letter: f"\\{name} "
        for letter, name in zip(
            "αβγδεζηθικλνξπρστυφχψωΓΔΘΛΞΠΣΦΨ",
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda nu xi pi rho sigma"
            " tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi".split(),
            strict=True,
        )
    },
}
_CHAR_TABLE = str.maketrans(_CHAR_MAP)
# Unicode vulgar fractions (``½``, ``¾``); after digits a mixed number (``1½`` is 1 + 1/2)
_VULGAR = {
    "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5),
    "⅖": (2, 5), "⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8),
    "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8),
}  # fmt: skip
_VULGAR_FRACTION = re.compile(r"(?<![\d.])(\d+)?\s*([" + "".join(_VULGAR) + "])")


# degrees and arcminutes (and arcseconds): ``20^\\circ 24'``, ``69°36′``, ``12^{\\circ}30'15''``
_ARC_MINUTES = re.compile(
    r"(?<![\d.])(\d+)\s*\^\s*\{?\s*\\circ\s*\}?\s*(?:\\[,;: ]\s*)*"
    r"([0-5]?\d(?:\.\d+)?)\s*(?:'|′|\^\s*\{?\s*\\prime\s*\}?)"
    r"(?!')(?:\s*(?:\\[,;: ]\s*)*([0-5]?\d(?:\.\d+)?)\s*(?:''|″|\^\s*\{?\s*\\prime\\prime\s*\}?))?"
)


def _in_degrees(match: re.Match[str]) -> str:
    """``20^\\circ 24'`` as ``20.4^{\\circ}``: one number of degrees, to the minute's digits."""
    degrees = int(match.group(1)) + float(match.group(2)) / 60 + float(match.group(3) or 0) / 3600
    return f"{round(degrees, 6):g}^{{\\circ}}"


# "= constant" in any spelling (``\\text{constant}``, ``\\mathrm{const.}``): one word
_CONSTANT_WORD = re.compile(r"\\(?:text|mathrm|textrm|rm)\s*\{\s*(?:const\.?|constant)\s*\}")


def constant_word(text: str) -> str:
    """``= \\text{constant}`` and ``= \\mathrm{const.}`` as ``= \\text{const}``: one word for one
    claim, in answers and golds alike (a remark reading compared the words)."""
    return _CONSTANT_WORD.sub(r"\\text{const}", text) if "onst" in text else text


def _vulgar_fraction(match: re.Match[str]) -> str:
    numerator, denominator = _VULGAR[match.group(2)]
    fraction = rf"\frac{{{numerator}}}{{{denominator}}}"
    return f"({match.group(1)}+{fraction})" if match.group(1) else f"{{{fraction}}}"


# Unicode superscripts: ``10³``, ``10⁻¹⁹``, ``m²`` are powers.
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")


def superscripts_as_powers(text: str) -> str:
    """``m/s²`` as ``m/s^{2}``, ``10⁻¹⁹`` as ``10^{-19}``: each run of Unicode superscripts a
    power."""
    return _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group(0).translate(_SUPERSCRIPTS) + "}", text)


# Commands removed as whole tokens (sizing and spacing only, no meaning).
_DROP_COMMANDS = re.compile(
    r"\\(?:left|right)\s*\.|"  # \left. and \right. are invisible delimiters, dot and all
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg|displaystyle|textstyle"
    r"|limits|nolimits|tiny|scriptsize|footnotesize|small|normalsize|large|Large|LARGE|huge|Huge)"
    r"(?![a-zA-Z])"
    # a colour shown is presentation (a colour that hides is read before: ``visibility``)
    r"|\\color\s*\{[^{}]*\}"
)
# LaTeX spacing commands (thin to wide spaces, ~): one spelling, which relations builds on
SPACING = r"\\[,;:! ]|\\q?quad(?![a-zA-Z])|~"
_SPACES = re.compile(SPACING)
_FRAC_VARIANTS = re.compile(r"\\[dt]frac(?![a-zA-Z])")
# A negated relation (``v \\not= 5``, ``\\not\\approx``, ``\\neq``, ``\\nsim``, ``!=``) states
# what the value is NOT: it is never the value. All spellings become the one token NEGATED,
# which no side can match (the ``\\approx`` -> ``=`` rewrite below used to leave ``v \\not``
# as a side of its own, skipped as unparseable, and ``v \\not= 5`` was accepted for 5).
NEGATED = r"\neq"
_NEGATION = re.compile(
    r"\\not\s*(?:\\[A-Za-z]+|[=<>~]|\{[^{}]*\})"
    r"|\\(?:neq|ne|notin|nsim|ncong|napprox|nequiv|nleq|ngeq|nleqslant|ngeqslant|nless|ngtr"
    r"|nsimeq|nparallel|nmid)(?![a-zA-Z])"
    r"|!=|=/="
)
_APPROX = re.compile(r"\\(?:approx|simeq|sim|cong|doteq)(?![a-zA-Z])")
# a defining sign (``T := 2\\pi/\\omega``, ``\\coloneqq``, ``\\equiv``, ``\\triangleq``,
# ``\\stackrel{\\text{def}}{=}``) claims the equality as ``=`` does; ``\\stackrel{?}{=}``
# asks it and is left alone
_DEFINES = re.compile(
    r"\\(?:coloneqq|coloneq|eqqcolon|triangleq|equiv|defeq)(?![a-zA-Z])|:\s*=(?!=)|(?<![=<>!])=\s*:(?![=\\])"
    r"|\\(?:stackrel|overset)\s*\{\s*(?:\\(?:text|mathrm|rm)\s*\{\s*)?(?:def|\\triangle)\s*\}?\s*\}"
    r"\s*\{\s*=\s*\}"
)
# a leading \sim before a truth word negates it
# (nothing is "approximately true"), and so does one before an option letter standing alone
# (``\\sim B``: "not B"; an approximate option is no option)
_TILDE_TRUTH = re.compile(
    r"^\s*\\sim(?![a-zA-Z])(?=\s*(?:\\(?:text|textbf|mathrm)\s*\{\s*)?(?:true|false|yes|no)\b"
    r"|(?:\s|\\[!,;: ])*(?:\\(?:text|textbf|mathrm)\s*\{\s*)?(?-i:[A-H])\s*\}?\s*$)",
    re.IGNORECASE,
)
_DEGREE = re.compile(r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ(?![a-zA-Z])|\\(?:text)?degree(?![a-zA-Z])")
# A degree written with the letter o after a number: ``45^{o}``, ``45^o``.
_DEGREE_O = re.compile(r"(\d)\s*\^\s*(?:\{\s*o\s*\}|o(?![a-zA-Z]))")
# A degree sign written without its caret after a number: ``45\circ``, ``45\,\circ`` (after
# anything else \circ composes functions: ``f \circ g``)
_BARE_CIRC = re.compile(r"(\d)\s*(?:\\[,;: ]\s*)?\\circ(?![a-zA-Z])")
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
    "textsf",  # other type faces of one text: sans serif, typewriter, upright, slanted
    "texttt",
    "mathtt",
    "textup",
    "textsl",
    "underline",  # emphasis marks: an underlined or emphasised value is the value
    "uline",
    "emph",
)
# A function name set upright (\\mathrm{ln}, \\text{exp}) is the function, not the letters.
_UPRIGHT_FUNCTION = re.compile(
    r"\\(?:mathrm|text|textrm|rm|operatorname)\s*\{\s*"
    r"(sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|ln|log|exp|arcsin|arccos|arctan)\s*\}"
)
# A subscript or superscript that is a \text/\mathrm group without braces (h_\text{min}):
# the whole group is the subscript (unwrapped it left h_m followed by the letters i, n).
_SCRIPT_WRAPPER = re.compile(
    r"([_^])\s*(\\(?:mathrm|text|textrm|mathit|textit|mathbf|textbf|mathsf|mbox|rm)\s*\{)"
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
# the norm of one vector, in bars or double bars (\\|\\vec v\\|, \\lVert\\mathbf v\\rVert,
# \\left|\\vec{v}\\right|): its magnitude, the name without the arrow, so a label's checks
# read it ("|\\vec v|^2 = 14.5 m/s" is v^2, transformed_quantity; red team r24b)
_BAR = (
    r"(?:\\[bB]igg?[lr]?|\\left|\\right)?\s*"
    r"(?:\\\||\\[lr]?Vert(?![A-Za-z])|\\[lr]vert(?![A-Za-z])|\|)"
)
_NORM_SUBSCRIPT = r"(\s*_\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\w))?"
_VECTOR_NORM = re.compile(rf"{_BAR}\s*\\vec\{{([A-Za-z]|\\[A-Za-z]+)\}}{_NORM_SUBSCRIPT}\s*{_BAR}")
_BOLD = re.compile(
    r"\\(?:mathbf|boldsymbol|bm|vec|overrightarrow|pmb)\s*(?=\{)"
    r"(?!\{\s*(?:[A-Za-z]|\\[A-Za-z]+)\s*\})"
)
# A function whose argument is written without parentheses and ended by a thin space:
# ``\\ln 2\\, p_0V_0`` is ln(2) p_0 V_0 and ``\\tan\\theta\\, x`` is tan(theta) x. The thin space
# is the only mark of where the argument ends, and it becomes a plain space below, so the
# argument is braced first (the parser read ln(2 p_0 V_0)). Only arguments of letters, digits,
# Greek letters and scripts are braced: ``\\sin\\theta\\cos\\phi\\,`` is left as it is.
_FUNCTION_NAMES = "sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|arcsin|arccos|arctan|ln|log|exp"
_GREEK_LETTER = (
    r"\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda"
    r"|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi"
    r"|Pi|Sigma|Upsilon|Phi|Psi|Omega|hbar|ell)(?![a-zA-Z])"
)
_SCRIPT = r"[_^]\s*(?:\{[^{}]*\}|[A-Za-z0-9]|\\[A-Za-z]+)"
_THIN_SPACE = r"(?:\\[,;:! ]|\\q?quad(?![a-zA-Z])|~)"
_BARE_ARGUMENT = re.compile(
    r"(\\(?:" + _FUNCTION_NAMES + r")(?![a-zA-Z])\s*(?:\^\s*(?:\{[^{}]*\}|[0-9]))?)"
    r"((?:\s*(?:[A-Za-z]|\d+(?:\.\d+)?|" + _GREEK_LETTER + r")(?:\s*" + _SCRIPT + r")*)+)"
    r"(?=\s*" + _THIN_SPACE + r")"
)
_UNWRAP_RE = re.compile(r"\\(?:" + "|".join(_UNWRAP) + r"|textcolor\s*\{[^{}]*\})\s*\{")
_MULTISPACE = re.compile(r"\s+")
# an empty sub- or superscript is no script: ``T_{}`` is ``T`` (a second definition of it)
_EMPTY_SCRIPT = re.compile(r"[_^]\s*\{\s*\}")
# A box's last "\ " (a spaced-out unit, "14.5\ \text{m/s}\ ") loses its space when the box
# is stripped; the backslash left alone at the end means nothing. An escaped backslash
# ("\\", a line break) is not one.
_LONE_TRAILING_BACKSLASH = re.compile(r"(?<!\\)((?:\\\\)*)\\$")
_TRAILING_PUNCT = re.compile(r"[\s.;,]+$")
# A neutral lead-in before a factor: "a factor of \\kappa", "by a factor of 2". Only words
# that claim no direction: "increases by a factor of 2" (or "decreases ...") is left as
# written, since the question may ask for the factor of the other direction.
_FACTOR_LEAD = re.compile(
    r"^(?:(?:changes|changed)\s+)?(?:by\s+)?(?:a\s+)?factor\s+of\s+(?=\S)", re.I
)
# A vector differentiated (\\frac{\\partial\\vec{B}}{\\partial t}, \\frac{d\\vec p}{dt}) is its
# quantity's derivative: the marker goes so that the derivative is read as one quantity, as
# for a scalar (sympy's Derivative of a constant symbol vanished: any factor on it was right).
_DERIVED_VECTOR = re.compile(
    r"(\\partial|(?<![A-Za-z\\])d)(\s*(?:\^\s*\{?\s*\d\s*\}?)?\s*)\\vec\s*\{\s*([A-Za-z])\s*\}"
)
# Divergence and curl: the parsers read \\nabla\\cdot and \\nabla\\times as products (a curl
# of vectors even vanished as a cross product of nabla with itself), so a divergence equalled a
# curl. Each becomes its own operator symbol, applied as a product like the gradient.
_NABLA_PRODUCT = re.compile(r"\\nabla\s*\\(cdot|times)(?![a-zA-Z])")
_NABLA_NAMES = {"cdot": "div", "times": "curl"}
# A factor written with its times sign: "-6.00\\times" (a magnification), "\\times\\kappa"
# (increases by it): the sign says "times", the value is the factor.
_TIMES_TRAIL = re.compile(r"(?<=\d)\s*\\times\s*$")
_TIMES_LEAD = re.compile(r"^\s*\\times(?![a-zA-Z])\s*(?=\S)")
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
        out.append(" " + unwrap_command_groups(inner) + " ")
        pos = i


def _brace_scripts(text: str) -> str:
    """``h_\\text{min}`` -> ``h_{\\text{min}}`` (brace-matched), before wrappers are unwrapped."""
    out: list[str] = []
    pos = 0
    for match in _SCRIPT_WRAPPER.finditer(text):
        if match.start() < pos:
            continue
        depth, i = 1, match.end()
        while i < len(text) and depth:
            if text[i] == "\\":
                i += 2
                continue
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(
            text[pos : match.start()] + match.group(1) + "{" + text[match.start(2) : i] + "}"
        )
        pos = i
    out.append(text[pos:])
    return "".join(out)


def is_negated(text: str) -> bool:
    """Whether a normalised answer states a negated relation (``v \\neq 5``)."""
    return NEGATED in text


# Unicode radicals: "√(L² + 12x²)", "√2", "∛V", "√\\pi" are roots of what follows
_ROOTS = {"√": "", "∛": "[3]", "∜": "[4]"}
_ROOT_TOKEN = re.compile(r"\s*(?:\d+(?:\.\d+)?|\\[A-Za-z]+|[A-Za-z])(?:_(?:\{[^{}]*\}|\w))?")


# Unicode subscripts: ``p₀`` is p_0, ``v₁₂`` is v_{12}
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+-")
_SUBSCRIPT_RUN = re.compile("[₀₁₂₃₄₅₆₇₈₉₊₋]+")
# Math typed as plain text (a calculator's or a program's): ``sqrt(2gh)``, ``(2gh)^(1/2)``,
# ``p_0 V_0 ln 2``, ``sin(2θ)``. A function's name stands alone (no letter or backslash
# before it) and takes a bracket, a number or a command after it, so words are left alone.
_PLAIN_ROOT = re.compile(r"(?<![\\A-Za-z])sqrt\s*(?=\()")
_PLAIN_FUNCTION = re.compile(
    r"(?<![\\A-Za-z])(ln|log|exp|sinh|cosh|tanh|sin|cos|tan|arcsin|arccos|arctan)"
    r"(?=\s*(?:\(|\d|\\[A-Za-z]))"
)
# A power of ten written as a calculator's E after a number, in an upright group:
# ``7.52\mathrm{E}{-10}``, ``3.98\text{E-}19``, ``3.98\text{e}{-19}``
_UPRIGHT_E = re.compile(
    r"(?<=\d)\s*\\(?:mathrm|text|rm|textrm)\s*\{\s*[eE]\s*(?P<sign>[-+−]?)\s*\}"
    r"\s*(?:\{\s*(?P<braced>[-+−]?\d+)\s*\}|(?P<bare>[-+−]?\d+))"
)


def plain_math(text: str) -> str:
    """Math typed as plain text in the notation the parsers read: Unicode subscripts as
    ``_{...}``, ``sqrt(...)`` as a root, ``^(...)`` as a braced power, ``ln 2`` and
    ``sin(2θ)`` as the functions, ``7.52\\mathrm{E}{-10}`` as a power of ten. A ``sqrt``
    read as the product s·q·r·t made ``sqrt(2gh)`` wrong for ``\\sqrt{2gh}``."""
    text = _SUBSCRIPT_RUN.sub(lambda m: "_{" + m.group(0).translate(_SUBSCRIPTS) + "}", text)
    text = _UPRIGHT_E.sub(
        lambda m: rf"\times10^{{{m.group('sign')}{m.group('braced') or m.group('bare')}}}", text
    )
    text = _PLAIN_ROOT.sub("√", text)
    text = _PLAIN_FUNCTION.sub(lambda m: "\\" + m.group(1) + " ", text)
    if "^(" not in text.replace(" ", ""):
        return text
    out, at = [], 0
    for power in re.finditer(r"\^\s*\(", text):
        if power.start() < at:
            continue
        close = closing_bracket(text, power.end() - 1)
        if close is None:
            continue
        out.append(text[at : power.start()] + "^{" + text[power.end() : close] + "}")
        at = close + 1
    out.append(text[at:])
    return "".join(out)


def unicode_roots(text: str) -> str:
    """``√(a+b)`` -> ``\\sqrt{a+b}``, ``√2`` -> ``\\sqrt{2}``, ``∛V`` -> ``\\sqrt[3]{V}``: a
    radical takes the bracket group or the one number, letter or command after it. One with
    nothing after it, or an unclosed bracket, is left as written (it does not parse)."""
    if not any(root in text for root in _ROOTS):
        return text
    out: list[str] = []
    at = 0
    while at < len(text):
        index = _ROOTS.get(text[at])
        if index is None:
            out.append(text[at])
            at += 1
            continue
        start = at + 1
        while start < len(text) and text[start] == " ":
            start += 1
        close = closing_bracket(text, start) if start < len(text) else None
        if close is not None:
            out.append(rf"\sqrt{index}{{{unicode_roots(text[start + 1 : close])}}}")
            at = close + 1
            continue
        token = _ROOT_TOKEN.match(text, start)
        if token is None or text[start : start + 1] in ("(", "[", "{"):
            out.append(text[at])
            at += 1
            continue
        out.append(rf"\sqrt{index}{{{token.group().strip()}}}")
        at = token.end()
    return "".join(out)


_OVER = re.compile(r"\\over(?![a-zA-Z])")


def _group_bounds(text: str, at: int) -> tuple[int, int]:
    """The span inside the innermost brace group around ``at`` (the whole text outside any)."""
    depth, start = 0, 0
    for i in range(at - 1, -1, -1):
        if text[i] == "}" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif text[i] == "{" and (i == 0 or text[i - 1] != "\\"):
            if depth == 0:
                start = i + 1
                break
            depth -= 1
    depth, end = 0, len(text)
    for i in range(at, len(text)):
        if text[i] == "{" and text[i - 1] != "\\":
            depth += 1
        elif text[i] == "}" and text[i - 1] != "\\":
            if depth == 0:
                end = i
                break
            depth -= 1
    return start, end


def over_fractions(text: str) -> str:
    """TeX's infix fraction as ``\\frac``: ``{a \\over b}`` is ``\\frac{a}{b}``, the group
    around ``\\over`` (or the whole text) its numerator and denominator. One ``\\over`` per
    group; a second in the same group is left, unreadable, as TeX itself refuses it."""
    for _ in range(8):  # nested groups, innermost last: a bounded number of passes
        match = _OVER.search(text)
        if match is None:
            return text
        start, end = _group_bounds(text, match.start())
        top, bottom = text[start : match.start()], text[match.end() : end]
        if _OVER.search(bottom) or not top.strip() or not bottom.strip():
            return text
        text = text[:start] + rf"\frac{{{top.strip()}}}{{{bottom.strip()}}}" + text[end:]
    return text


def _operator_name(match: re.Match[str]) -> str:
    """``\\operatorname{arcsinh}`` is the function ``\\arcsinh``; a one-letter name
    (``\\operatorname{d}v``, an upright differential) is that letter."""
    name = match.group(1)
    return (name if len(name) == 1 else "\\" + name) + " "


def normalize_answer(text: str) -> str:
    """Canonical form of one box's content, for comparison and display.

    Keeps everything that carries meaning: symbols, case, constants, units (as plain text
    after ``\\mathrm``/``\\text`` unwrapping, so the unit parser can read them).
    """
    text = plain_math(expand_siunitx(text.translate(_CHAR_TABLE)))
    text = _VULGAR_FRACTION.sub(_vulgar_fraction, text)
    text = constant_word(text)
    if "'" in text or "′" in text or "prime" in text:
        text = _ARC_MINUTES.sub(_in_degrees, text)
    text = _LONE_TRAILING_BACKSLASH.sub(r"\1", text.rstrip())
    text = superscripts_as_powers(text)
    text = unicode_roots(text)
    text = _DEGREE_O.sub(r"\1^{\\circ}", text)
    text = _BARE_CIRC.sub(r"\1^{\\circ}", text)
    text = _NABLA_PRODUCT.sub(lambda m: rf"\nabla_{{{_NABLA_NAMES[m.group(1)]}}} ", text)
    text = _DOLLARS.sub("", text)
    text = _DROP_COMMANDS.sub("", text)
    text = _FRAC_VARIANTS.sub(r"\\frac", text)
    if "\\over" in text:
        text = over_fractions(text)
    text = _DEGREE.sub(lambda _: r" ^{\circ} ", text)
    text = _PERCENT.sub(" % ", text)
    text = _NEGATION.sub(" " + NEGATED.replace("\\", "\\\\") + " ", text)
    text = _TILDE_TRUTH.sub("¬", text)  # \sim\text{False}: "not false", no approximation
    text = _APPROX.sub("=", _DEFINES.sub("=", text))
    text = _FONT_SWITCH.sub(" ", text)
    text = _OPERATORNAME.sub(_operator_name, text)
    text = _VECTOR.sub(lambda m: r"\vec{" + (m.group(1) or m.group(2)) + "}", text)
    text = _VECTOR_NORM.sub(lambda m: m.group(1) + (m.group(2) or ""), text)
    text = _DERIVED_VECTOR.sub(r"\1\2 \3", text)
    text = _BOLD.sub(r"\\mathrm", text)  # bold expressions: just the expression
    text = _UPRIGHT_FUNCTION.sub(lambda m: "\\" + m.group(1) + " ", text)
    text = _brace_scripts(text)
    text = _BARE_ARGUMENT.sub(lambda m: m.group(1) + "{" + m.group(2).strip() + "}", text)
    text = unwrap_command_groups(text)
    text = _SPACES.sub(" ", text)
    text = _EMPTY_SCRIPT.sub("", text)
    text = text.replace("\\\\", " ")
    text = _MULTISPACE.sub(" ", text).strip()
    text = _FACTOR_LEAD.sub("", text)
    text = _TIMES_LEAD.sub("", _TIMES_TRAIL.sub("", text))
    text = _TRAILING_PUNCT.sub("", text)
    # A leading "=" is what remains of "\approx 3.2" or "= 3.2"; a leading word of
    # approximation ("about 8 m/s", "approximately 58.6 kW") is read as that sign is.
    text = _APPROX_WORD.sub("", text.lstrip("= ").strip())
    return _without_outer_group(text)


# a word of approximation opening an answer before its value (red team r35c)
_APPROX_WORD = re.compile(
    r"^(?:approximately|approx\.?|about|roughly|around|nearly|close\s+to|circa|ca\.|~)\s*"
    r"(?=[-+−]?\s*[\d.\\])",
    re.IGNORECASE,
)


def _without_outer_group(text: str) -> str:
    """``text`` without a brace group around all of it: ``{9.0 J}`` (what a colour switch
    or a group for spacing leaves, ``\\color{red}{9.0\\,\\mathrm{J}}``) typesets as 9.0 J."""
    while len(text) > 2 and text[0] == "{" and _group_bounds(text, 1) == (1, len(text) - 1):
        text = text[1:-1].strip()
    return text


def last_side(text: str) -> str:
    """The expression after the last top-level ``=``: ``v = \\sqrt{2gh}`` -> ``\\sqrt{2gh}``.

    Chained equalities (``T = 2\\pi\\sqrt{l/g} = 2.0 s``) give the last, most explicit side.
    Relations inside braces (``\\frac{a=b}{c}``) do not split.
    """
    sides = split_top_level(text, "=")
    return sides[-1].strip() if sides else text


# A question's math, inline ($…$, \(…\)) or displayed (\[…\]): where its symbols are written.
MATH_SPAN = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
# A name as a question writes one: a letter or command with one subscript and primes.
NAME = re.compile(r"\\?[A-Za-z]+(?:_\s*(?:\{[^{}]*\}|\\?\w))?'*")


def question_math(question: str) -> str:
    """The math a question writes, its pieces joined by spaces: the names it asks about and
    the values it gives are read there, never in its prose ("a" is an article there)."""
    return " ".join(next(filter(None, m.groups()), "") for m in MATH_SPAN.finditer(question))


# the script letter l, which a text may write for l (``\\ell``)
ELL = re.compile(r"\\ell(?![a-zA-Z])")
# A run of horizontal whitespace (spaces, tabs, NBSP, thin spaces) or of line breaks.
_WHITESPACE_RUN = re.compile(r"[^\S\n]+|\n(?:[^\S\n]*\n)+")
_INDENT_KEPT = 8  # a line's indentation beyond this says nothing more (Markdown code: 4)


def collapse_whitespace(text: str) -> str:
    """``text`` with every run of whitespace as short as what it means: one space inside a
    line, a line's indentation cut to 8 characters (an indented code block stays one), no
    space at a line's end, and at most one blank line between paragraphs.

    Model output and golds enter the rules through this, once: LaTeX and Markdown read a run
    of spaces as one, and a run is what turns a regex with adjacent optional spaces
    (``\\s*(?:…)?\\s*``) polynomial or exponential in its length: 300 blank lines after a box
    took 47 s, 100 spaces inside one 13 s. One left-to-right pass, linear in the text."""

    def shortened(run: re.Match[str]) -> str:
        spaces, start, end = run.group(), run.start(), run.end()
        if spaces[0] == "\n":
            return "\n\n"
        if end == len(text) or text[end] == "\n":
            return ""
        if start == 0 or text[start - 1] == "\n":
            return spaces[:_INDENT_KEPT]
        return " "

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _WHITESPACE_RUN.sub(shortened, text)


# A number with thousands separators (``1,000``, ``12{,}500.5``). No group of thousands opens
# with 0: ``0,816`` is a decimal comma or a list, never 816.
THOUSANDS = re.compile(r"[+-]?[1-9]\d{0,2}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?")


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


# siunitx: ``\SI{57.5}{\celsius}``, ``\qty{3}{\metre\per\second}``, ``\si{\kilo\ohm}``,
# ``\num{1.5}``, ``\ang{45}``: the number and the unit they typeset, in plain notation.
_SI_UNITS = {
    "metre": "m", "meter": "m", "second": "s", "kilogram": "kg", "gram": "g", "ampere": "A",
    "kelvin": "K", "mole": "mol", "candela": "cd", "newton": "N", "joule": "J", "watt": "W",
    "pascal": "Pa", "hertz": "Hz", "coulomb": "C", "volt": "V", "ohm": r"\Omega",
    "farad": "F", "henry": "H", "tesla": "T", "weber": "Wb", "siemens": "S",
    "electronvolt": "eV", "radian": "rad", "steradian": "sr", "litre": "L", "liter": "L",
    "minute": "min", "hour": "h", "day": "d", "year": "yr", "bar": "bar", "becquerel": "Bq",
    "gray": "Gy", "sievert": "Sv", "lumen": "lm", "lux": "lx", "dalton": "Da",
    "angstrom": r"\AA", "astronomicalunit": "AU", "atmosphere": "atm", "calorie": "cal",
    "parsec": "pc", "lightyear": "ly",
}  # fmt: skip
_SI_WHOLE = {
    "celsius": r"^{\circ}C", "degreeCelsius": r"^{\circ}C", "degree": r"^{\circ}",
    "percent": r"\%",
}  # fmt: skip
_SI_PREFIXES = {
    "yocto": "y", "zepto": "z", "atto": "a", "femto": "f", "pico": "p", "nano": "n",
    "micro": r"\mu ", "milli": "m", "centi": "c", "deci": "d", "deca": "da", "deka": "da",
    "hecto": "h", "kilo": "k", "mega": "M", "giga": "G", "tera": "T", "peta": "P", "exa": "E",
}  # fmt: skip
_SI_POWERS = {"squared": 2, "cubed": 3}
_SI_POWER_BEFORE = {"square": 2, "cubic": 3}
_SI_TOKEN = re.compile(r"\\([A-Za-z]+)(?:\s*\{\s*([+-]?\d+)\s*\})?|([^\\\s]+)|\s+")
_SI_QUANTITY = re.compile(
    r"\\(?:SI|qty)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}\s*(?:\[[^\]]*\])?\s*\{((?:[^{}]|\{[^{}]*\})*)\}"
)
_SI_UNIT = re.compile(r"\\(?:si|unit)\s*(?:\[[^\]]*\])?\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_SI_NUMBER = re.compile(r"\\num\s*(?:\[[^\]]*\])?\s*\{([^{};]*)\}")
_SI_ANGLE = re.compile(r"\\ang\s*(?:\[[^\]]*\])?\s*\{([^{};]*)\}")


def _si_unit_text(body: str) -> str | None:
    """The unit a siunitx unit argument typesets (``\\kilo\\metre\\per\\second`` -> ``km
    s^{-1}``), None for a macro not known here (the text is then left as written)."""
    factors: list[list[Any]] = []  # [text, power]
    prefix, sign, before = "", 1, 1
    for match in _SI_TOKEN.finditer(body):
        name, argument, literal = match.group(1), match.group(2), match.group(3)
        if literal is not None:
            if prefix:
                return None  # \kilo m: not siunitx's
            factors.append([literal, sign * before])  # m\per s: per reaches a literal too
            sign, before = 1, 1
        elif name is None:
            continue
        elif name in _SI_WHOLE and not factors and not prefix:
            factors.append([_SI_WHOLE[name], 1])
        elif name in _SI_PREFIXES and not prefix:
            prefix = _SI_PREFIXES[name]
        elif name in _SI_UNITS:
            factors.append([prefix + _SI_UNITS[name], sign * before])
            prefix, sign, before = "", 1, 1
        elif name == "per":
            sign = -1
        elif name in _SI_POWER_BEFORE:
            before = _SI_POWER_BEFORE[name]
        elif (name in _SI_POWERS or (name == "tothe" and argument)) and factors:
            power = _SI_POWERS.get(name) or int(argument or 1)
            factors[-1][1] *= power
        else:
            return None
    if prefix or not factors or sign != 1 or before != 1:
        return None  # a dangling \per, \square or prefix: malformed, left as written
    return r" \cdot ".join(text if power == 1 else f"{text}^{{{power}}}" for text, power in factors)


def expand_siunitx(text: str) -> str:
    """``\\SI{57.5}{\\celsius}`` -> ``57.5\\,\\mathrm{^{\\circ}C}``-like plain notation: a
    siunitx quantity is its number and its unit set apart in ``\\mathrm{}``, as a unit
    written by hand is (so the remark and unit rules read it alike)."""
    if "\\" not in text or not re.search(r"\\(?:SI|qty|si|unit|num|ang)\s*[\[{]", text):
        return text

    def quantity(match: re.Match[str]) -> str:
        unit = _si_unit_text(match.group(2))
        if unit is None:
            return match.group(0)
        return rf"{match.group(1).strip()}\,\mathrm{{{unit}}}"

    def unit_only(match: re.Match[str]) -> str:
        unit = _si_unit_text(match.group(1))
        return match.group(0) if unit is None else rf"\,\mathrm{{{unit}}}"

    text = _SI_QUANTITY.sub(quantity, text)
    text = _SI_UNIT.sub(unit_only, text)
    text = _SI_NUMBER.sub(lambda m: m.group(1).strip(), text)
    return _SI_ANGLE.sub(lambda m: m.group(1).strip() + r"^{\circ}", text)
