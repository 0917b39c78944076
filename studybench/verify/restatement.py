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

# the labels a conclusion begins with: "TL;DR:", "Bottom line:", "Correction:" (the later
# offers of ``visibility`` read the same labels before a second value)
CONCLUSION_LABELS = (
    r"tl\s*;?\s*dr|short\s+answer|conclusion|bottom\s+line|in\s+(?:summary|short|sum|brief)"
    r"|(?:net\s+|final\s+)?result|correction"
)
# a conclusion that states a labelled value: "So v = 29.0 m/s", "Therefore \\eta = 0.308",
# "Hence, finally, v = …", "I think v = …", "Re-checking the arithmetic gives 29 m/s"
_CONCLUSION = re.compile(
    r"(?:^|(?<=[.!?\n:;]))\s*(?:(?:hmm+|oh|ok(?:ay)?|well|wait)\b[,.!]?\s*)?"
    r"(?:(?:so|therefore|thus|hence|finally|overall|altogether|actually|corrected"
    rf"|on\s+second\s+(?:look|thought)|{CONCLUSION_LABELS}"
    r"|in\s+the\s+end|all\s+in\s+all|(?:I|we)\s+(?:think|believe|get|find|obtain|have)"
    r"|with\s+the\s+correct\s+(?:numbers|values|arithmetic)|re-?check(?:ing|ed)?\b[^.,;\n]{0,40}?"
    r"\s(?:gives|yields|shows))\b[\s,:]*)+"
    r"\$?\s*(?:(?P<label>(?:\\[A-Za-z]+|[A-Za-z])(?:\s*_\s*(?:\{[^{}]{1,12}\}|\w))?)\s*=\s*)?"
    r"(?:(?P<value>[-+−]?\s*\d[^$\n;(<>=≈≤≥]{0,50}?)(?:\s*(?:[(<>=≈≤≥]|\\approx|\\[lg]e?q?\b)[^.\n]*)?"
    r"|(?:option|choice|answer)\s+\(?(?-i:(?P<letter>[A-H]))\)?"
    r"|\(?(?-i:(?P<bare>[A-H]))\)?(?=[.!]?\s*$|[.!]?\n|[.!]\s+[A-Z])"
    r"|(?:the\s+(?:statement|claim|answer)\s+is|it(?:'s|’s|\s+is))\s+(?P<truth>true|false))\s*\$?"
    r"(?=\s+(?:in\s+the\s+end|as\s+well|overall|after\s+all)\b|[.,;!]\s|[.,;!]?\s*$|\n)",
    re.IGNORECASE,
)
_SCOPE = 600  # characters after the box that are read


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


_LETTER = re.compile(r"^[A-H]$")
_TRUTH = re.compile(r"^(?:true|false)$", re.IGNORECASE)


def value_kind(value: str) -> str:
    """What a restated value is: ``"option"`` (a letter), ``"truth"`` or ``"value"``."""
    if _LETTER.match(value):
        return "option"
    return "truth" if _TRUTH.match(value) else "value"


def names_asked_quantity(label: str | None, own_labels: set[str], question: str | None) -> bool:
    """Whether ``label`` names the asked quantity: the box's or the gold's label
    (``own_labels``), or a symbol the question names without giving its value ("Find the
    efficiency $\\eta$", not "Take $g = 9.8$")."""
    if label is None:
        return False
    key = label_key(label)
    if key in {label_key(own) for own in own_labels}:
        return True
    if not question:
        return False
    math = " ".join(m.group() for m in _MATH.finditer(question))  # symbols are in its math
    named = re.search(rf"(?<![A-Za-z\\]){re.escape(label.strip())}(?![A-Za-z])", math)
    given = re.search(rf"(?<![A-Za-z\\]){re.escape(label.strip())}\s*=", math)
    return named is not None and given is None


_MATH = re.compile(r"\$[^$]+\$|\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL)
