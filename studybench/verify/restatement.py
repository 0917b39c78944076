"""A value for the asked quantity stated again after the final box (verifier 1.14.0).

"\\boxed{14.5 m/s}. So v = 29.0 m/s." claims two values for one quantity; the box alone
earned the reward. A seventh red-team round wrote the second value after "So", "Therefore",
"Hence, finally,", "I think", "Re-checking the arithmetic gives", "With the correct numbers".
The same sentences restate the right value in honest answers ("Therefore v = 14.5 m/s."),
so the value is judged, as a value offered in prose is (``verifier._offered_problem``), and
only where it is about the asked quantity: its label is the box's or the gold's, its unit
measures what the gold's does, or the question names the label without giving its value.
A sentence about another quantity ("So a = 3.2 m/s², as expected") is left alone.
"""

from __future__ import annotations

import re

from studybench.verify.chains import label_key
from studybench.verify.question import question_math

# the labels a conclusion begins with: "TL;DR:", "Bottom line:", "Correction:" (the later
# offers of ``visibility`` read the same labels before a second value)
CONCLUSION_LABELS = (
    r"tl\s*;?\s*dr|short\s+answer|conclusion|bottom\s+line|in\s+(?:summary|short|sum|brief)"
    r"|(?:net\s+|final\s+)?result|correction"
)
# a conclusion that states a labelled value: "So v = 29.0 m/s", "Therefore \\eta = 0.308",
# "Hence, finally, v = …", "I think v = …", "Re-checking the arithmetic gives 29 m/s"
_FILLERS = r"\s*(?:\*\*|__)?\s*(?:(?:hmm+|oh|ok(?:ay)?|well|wait)\b[,.!]?\s*)?"
_OPENING = r"(?:^|(?<=[.!?\n:;]))" + _FILLERS
# an expression may be restated in a clause too: "$I = \\boxed{…}$, so $I = BLv/(2R)$"
_CLAUSE_OPENING = r"(?:^|(?<=[.!?\n:;,]))" + _FILLERS
# words that take the box back or state the answer again: after them a value needs no label
_ANSWER_WORDS = (
    rf"actually|corrected|on\s+second\s+(?:look|thought)|{CONCLUSION_LABELS}"
    r"|(?:final\s+)?answer(?=\s*(?:\*\*|__)?\s*:)"
    r"|with\s+the\s+correct\s+(?:numbers|values|arithmetic)|re-?check(?:ing|ed)?\b[^.,;\n]{0,40}?"
    r"\s(?:gives|yields|shows)"
)
_CONNECTIVES = (
    r"so|therefore|thus|hence|finally|overall|altogether|in\s+the\s+end|all\s+in\s+all"
    r"|(?:I|we)\s+(?:think|believe|get|find|obtain|have)"
)
# words a conclusion may put before its value: "So, in words: …", "Therefore, restating: …"
_RESTATING = r"in\s+(?:other\s+)?words|to\s+restate|restating(?:\s+the\s+result)?|explicitly"
_MARKERS = (
    rf"(?:(?:{_CONNECTIVES}|{_ANSWER_WORDS})\b(?:[\s,:]|\*\*|__)*)+"
    rf"(?:(?:{_RESTATING})\b[\s,:]*)?"
)
_LABEL = r"(?:\\[A-Za-z]+|[A-Za-z])(?:\s*_\s*(?:\{[^{}]{1,12}\}|\w))?"
_CONCLUSION = re.compile(
    _OPENING + _MARKERS + rf"\$?\s*(?:(?P<label>{_LABEL})\s*=\s*)?"
    r"(?:(?P<value>[-+−]?\s*\d[^$\n;(<>=≈≤≥]{0,50}?)(?:\s*(?:[(<>=≈≤≥]|\\approx|\\[lg]e?q?\b)[^.\n]*)?"
    r"|(?:option|choice|answer)\s+\(?(?-i:(?P<letter>[A-H]))\)?"
    r"|\(?(?-i:(?P<bare>[A-H]))\)?(?=[.!]?\s*$|[.!]?\n|[.!]\s+[A-Z])"
    r"|(?:the\s+(?:statement|claim|answer)\s+is|it(?:'s|’s|\s+is))\s+(?P<truth>true|false))\s*\$?"
    r"(?=\s+(?:in\s+the\s+end|as\s+well|overall|after\s+all)\b|[.,;!]\s|[.,;!]?\s*$|\n)",
    re.IGNORECASE,
)
_SCOPE = 600  # characters after the box that are read
# an expression stated again (EX answers): "Correction: x = d/3.", "Actually, it's d/3.",
# "Wait, it should be $d/3$.", "So $v = \\sqrt{2gh}$."; after a bare connective ("So",
# "Therefore") only a labelled one, after words that state an answer any
_EXPRESSION_CONCLUSION = re.compile(
    _CLAUSE_OPENING
    + rf"(?P<markers>{_MARKERS}|(?=it\s+should\s+be\b))"
    + r"(?:\$|\\\()?\s*(?:it(?:'s|’s|\s+is|\s+should\s+be|\s+must\s+be)\s+)?(?:\$|\\\()?\s*"
    + rf"(?:(?P<label>{_LABEL})\s*=(?![=<>])\s*)?"
    + r"(?P<expression>[^\n$]{1,160}?)\s*(?:\$|\\\))?"
    + r"(?=\s+in\s+the\s+end\b|[.;!]\s|[.;!]?\s*$|(?<!\\),\s|\n|\s+\(|(?<=\$)\s)",
    re.IGNORECASE,
)
_ANSWER_MARKER = re.compile(rf"\b(?:{_ANSWER_WORDS})\b", re.IGNORECASE)
# prose after an expression ends it: "2d/3 from the left charge" (a math function is no prose)
# (a word after a space, in lower case, with a vowel: "BLv" and "mgh" are products of symbols)
_PROSE_WORD = re.compile(
    r"(?:^|(?<=\s))(?!(?:sin|cos|tan|cot|sec|csc|exp|log|ln|sqrt|sinh|cosh|tanh|arcsin|arccos"
    r"|arctan|max|min)\b)(?=[a-z]*[aeiouy])[a-z]{3,}(?![A-Za-z])"
)
_RELATION = re.compile(r"\\approx|\\simeq|\\sim\b|≈|\\[lg]e?q?\b|[<>≤≥]|=")


def restated_values(after: str) -> list[tuple[str | None, str]]:
    """The (label, value) pairs the sentences after the final box conclude with; an option
    ("So option D.", "So D.") is a value too, with no label. A value ends where a remark, a
    comparison or a second form of it begins ("0.82 m (2 s.f.)", "60 cm > 0", "5.54 ks ≈
    1.5 h": the first form is the value)."""
    text = after[:_SCOPE]
    found = [
        (
            m.group("label"),
            (m.group("value") or m.group("letter") or m.group("bare") or m.group("truth")).strip(),
        )
        for m in _CONCLUSION.finditer(text)
    ]
    # prose writes a power of ten without braces ("7.35 × 10^26 W"): the whole exponent
    return [(label, _PROSE_POWER.sub(r"^{\1}", value)) for label, value in found]


_PROSE_POWER = re.compile(r"\^\s*([-+−]?\d+)")


def restated_expressions(after: str) -> list[tuple[str | None, str, bool]]:
    """The (label, expression, answered) triples the sentences after the final box conclude
    with, for answers that are expressions; ``answered`` says whether words that state an
    answer ("Correction:", "Actually, it's", "Wait, it should be", "TL;DR:") introduce it,
    so that it is about the asked quantity without a label. An expression ends at prose
    ("d/3 from the left"), a second form ("\\approx 0.67 d") or a clause ("…, so it lies
    between them"); one that is only a number is no restated expression."""
    found: list[tuple[str | None, str, bool]] = []
    for match in _EXPRESSION_CONCLUSION.finditer(after[:_SCOPE]):
        expression = match.group("expression")
        for stop in (_PROSE_WORD.search(expression), _RELATION.search(expression)):
            if stop is not None:
                expression = expression[: stop.start()]
        expression = expression.strip().rstrip(",.;:").strip()
        if not re.search(r"[A-Za-z]", expression):
            continue  # nothing symbolic: a number, or nothing left
        markers = match.group("markers")
        answered = not markers or _ANSWER_MARKER.search(markers) is not None
        found.append((match.group("label"), expression, answered))
    return found


_LETTER = re.compile(r"^[A-H]$")
_TRUTH = re.compile(r"^(?:true|false)$", re.IGNORECASE)


def value_kind(value: str) -> str:
    """What a restated value is: ``"option"`` (a letter), ``"truth"`` or ``"value"``."""
    if _LETTER.match(value):
        return "option"
    return "truth" if _TRUTH.match(value) else "value"


def names_asked_quantity(
    label: str | None, own_labels: set[str], question: str | None, given_counts: bool = False
) -> bool:
    """Whether ``label`` names the asked quantity: the box's or the gold's label
    (``own_labels``), or a symbol the question names without giving its value ("Find the
    efficiency $\\eta$", not "Take $g = 9.8$"). With ``given_counts`` a symbol the question
    gives a value too (a coordinate: "a charge at $x = 0$ … the position $x$")."""
    if label is None:
        return False
    key = label_key(label)
    if key in {label_key(own) for own in own_labels}:
        return True
    if not question:
        return False
    math = question_math(question)  # symbols are in its math
    named = re.search(rf"(?<![A-Za-z\\]){re.escape(label.strip())}(?![A-Za-z])", math)
    given = re.search(rf"(?<![A-Za-z\\]){re.escape(label.strip())}\s*=", math)
    return named is not None and (given is None or given_counts)


def shares_symbol(expression: str, gold: str) -> bool:
    """Whether an expression is written in at least one of the gold's symbols (a letter or a
    Greek command), so it can be a form of the gold and not a number for another case."""
    return bool(_symbols(expression) & _symbols(gold))


def written_in(expression: str, gold: str) -> bool:
    """Whether an expression is written in the gold's symbols only (at least one of them):
    a form of the gold, not working in other quantities (``\\frac{\\mathcal E}{R}`` beside
    ``\\frac{BLv}{R}``) nor a number for one case."""
    symbols = _symbols(expression)
    return bool(symbols) and symbols <= _symbols(gold)


def _symbols(text: str) -> set[str]:
    greek = set(_GREEK.findall(text))
    plain = re.sub(r"\\[A-Za-z]+", " ", text)  # a command is a function or a Greek letter
    return greek | set(re.findall(r"[A-Za-z]", plain))  # "2gh" is g times h


_GREEK = re.compile(
    r"\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa"
    r"|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta"
    r"|Lambda|Xi|Pi|Sigma|Phi|Psi|Omega)(?![A-Za-z])"
)
