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
from collections.abc import Callable

from studybench.verify.chains import label_key
from studybench.verify.question import asking_part, question_math

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
    r"|(?:I|we)\s+(?:think|believe|get|find|obtain|have)|namely|equivalently|numerically"
    r"|(?:this|that|which|it)\s+(?:is|'s|’s|equals|comes\s+to)(?:\s+(?:about|approximately"
    r"|roughly|around|nearly|almost|just\s+(?:over|under)))?"
)
# words a conclusion may put before its value: "So, in words: …", "Therefore, restating: …"
_RESTATING = r"in\s+(?:other\s+)?words|to\s+restate|restating(?:\s+the\s+result)?|explicitly"
_MARKERS = (
    rf"(?:(?:{_CONNECTIVES}|{_ANSWER_WORDS})\b(?:[\s,:]|\*\*|__)*)+"
    rf"(?:(?:{_RESTATING})\b[\s,:]*)?"
)
# a label: a letter or a command, maybe a change (\\Delta S) or a script face (\\mathcal{E}),
# with one subscript (``v_0``, ``T_{eq}``, ``T_eq`` as code writes it)
_LABEL = (
    r"(?:\\(?:Delta|delta)\s*)?(?:\\math(?:cal|rm|bf|scr|it)\s*\{[A-Za-z]\}|\\[A-Za-z]+|[A-Za-z])"
    r"(?:\s*_\s*(?:\{[^{}]{1,12}\}|\w+))?"
)
# what states a value for a label: "v = 29.0", "v \\approx 29", "t ≈ 0.115 s"
_STATES = r"(?:=|≈|≃|\\approx(?![a-zA-Z])|\\simeq(?![a-zA-Z]))"
# a quantity named in words: "So the work is 1200 J", "Hence the speed comes to about 29 m/s"
_NOUN_STATES = (
    r"the\s+(?P<noun>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:is|equals|comes\s+(?:out\s+)?to"
    r"|(?:would|will|must)\s+be)\s+(?:(?:about|approximately|roughly|around|exactly|just)\s+)?"
)
# a unit written after the math that holds the number: "So $v = 29.0$ m/s."
_UNIT_AFTER_MATH = r"(?:(?<=\$)[ \t]*(?P<unit>[A-Za-zµμΩ°%][\w/^·\-]{0,12}))?"
_VALUE_TAIL = (
    r"(?:(?P<value>[-+−]?\s*\d[^$\n;(<>=≈≤≥]{0,50}?)(?:\s*(?:[(<>=≈≤≥]|\\approx|\\[lg]e?q?\b)[^.\n]*)?"
    r"|(?:option|choice|answer)\s+\(?(?-i:(?P<letter>[A-H]))\)?"
    r"|\(?(?-i:(?P<bare>[A-H]))\)?(?=[.!]?\s*$|[.!]?\n|[.!]\s+[A-Z])"
    r"|(?:the\s+(?:statement|claim|answer)\s+is|it(?:'s|’s|\s+is))\s+(?P<truth>true|false))\s*\$?"
    + _UNIT_AFTER_MATH
    + r"(?=\s+(?:in\s+the\s+end|as\s+well|overall|after\s+all)\b|[.,;!]\s|[.,;!]?\s*$|\n)"
)
# a quantity named in words that concludes by itself: "The emf is therefore 16.0 V."
_NOUN_CONCLUDES = (
    r"the\s+(?P<concluding>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:is|equals|comes\s+to)\s+"
    r"(?:therefore|thus|hence|then|finally|so)\s+(?:(?:about|approximately|roughly|around)\s+)?"
)
_CONCLUSION = re.compile(
    _OPENING
    + rf"(?:{_MARKERS}"
    + rf"\$?\s*(?:(?P<label>{_LABEL})\s*{_STATES}\s*"
    + rf"|{_NOUN_STATES}(?:\$?\s*(?P<noun_label>{_LABEL})\s*{_STATES}\s*)?)?"
    + rf"|{_NOUN_CONCLUDES}\$?\s*)"
    + _VALUE_TAIL,
    re.IGNORECASE,
)
# a line that states a labelled value with no word before it, as a display, a code line, a
# list item or a framed line after the box does ("$$h = 1.63\\,\\mathrm{m}$$",
# "```\nh = 1.63  # m\n```", "Final answer: h = 1.63 m")
_LINE_STATEMENT = re.compile(
    r"(?:^|(?<=\n))[ \t]*(?:[-*•>]\s+|\d+[.)]\s+)?"
    r"(?:(?:(?:final\s+)?(?:answer|result)|final)\s*:\s*)?"
    + rf"\$?\s*(?P<label>{_LABEL})\s*{_STATES}\s*"
    + _VALUE_TAIL.replace("(?P<", "(?P<line_"),
    re.IGNORECASE,
)
# "In km/h this is about 104.", "In kelvin, that is 303": a value in the unit named before it
_IN_UNIT_STATEMENT = re.compile(
    r"(?:^|(?<=[.!?\n]))\s*in\s+(?!(?:summary|short|sum|brief|the|other|fact|total|words"
    r"|particular|general|practice|theory|principle|conclusion)\b)"
    r"(?P<unit>\$[^$]{1,24}\$|[^\s,$]{1,12})\s*,?\s*(?:this|that|it)"
    r"\s+(?:is|'s|’s|equals|comes\s+to|would\s+be)\s+(?:(?:about|approximately|roughly"
    r"|around|nearly)\s+)?\$?(?P<value>[-+−]?\d[\d.,]*(?:\s*\\times\s*10\s*\^\s*\{?[-+−]?\d+\}?)?)"
    r"\$?(?=[.,;!]?\s|[.,;!]?$)",
    re.IGNORECASE,
)
_SCOPE = 600  # characters after the box that are read
# an expression stated again (EX answers): "Correction: x = d/3.", "Actually, it's d/3.",
# "Wait, it should be $d/3$.", "So $v = \\sqrt{2gh}$."; after a bare connective ("So",
# "Therefore") only a labelled one, after words that state an answer any
_EXPRESSION_CONCLUSION = re.compile(
    _CLAUSE_OPENING
    + rf"(?P<markers>{_MARKERS}|(?=it\s+should\s+be\b)|(?P<line>(?<![^\n])(?=\$?\s*{_LABEL}\s*=)))"
    + r"(?:\$|\\\()?\s*(?:it(?:'s|’s|\s+is|\s+should\s+be|\s+must\s+be)\s+)?(?:\$|\\\()?\s*"
    + rf"(?:{_NOUN_STATES}(?:\$|\\\()?\s*)?(?:(?P<label>{_LABEL})\s*=(?![=<>])\s*)?"
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


def restated_values(
    after: str, question: str | None = None, asked: Callable[[str], bool] | None = None
) -> list[tuple[str | None, str]]:
    """The (label, value) pairs the sentences after the final box conclude with; an option
    ("So option D.", "So D.") is a value too, with no label. A value ends where a remark, a
    comparison or a second form of it begins ("0.82 m (2 s.f.)", "60 cm > 0", "5.54 ks ≈
    1.5 h": the first form is the value). Read in the text as a reader sees it
    (:func:`unframed`): a line that states a labelled value counts without a word before it,
    and a value in a unit named before it ("In km/h this is about 104") takes that unit. A
    quantity named in words ("So the work is 1200 J") is about the question's quantity only
    where the question asks with that word (``question``; without one it is). A bare line
    says nothing of which quantity it is about but its label: with ``asked`` it is read only
    where ``asked(label)`` (the label names an asked quantity), so a display of an
    intermediate ("$$u = 30.0\\,\\mathrm{cm}$$") is working, not a second answer."""
    text = unframed(after[:_SCOPE])
    found: list[tuple[int, str | None, str]] = []
    spans: list[tuple[int, int]] = []  # a line that concludes is read once
    for m in _CONCLUSION.finditer(text):
        noun = m.group("noun") or m.group("concluding")
        if noun and question and not _asks_about(noun, question):
            continue  # "So the time to the top is 1.5 s": another quantity than the asked one
        value = m.group("value") or m.group("letter") or m.group("bare") or m.group("truth")
        label = m.group("label") or m.group("noun_label")
        found.append((m.start(), label, _with_unit(value, m.group("unit"))))
        spans.append(m.span())
    for m in _LINE_STATEMENT.finditer(text):
        value = m.group("line_value")
        if not value or (asked is not None and not asked(m.group("label"))):
            continue
        if all(m.end() <= start or end <= m.start() for start, end in spans):
            found.append((m.start(), m.group("label"), _with_unit(value, m.group("line_unit"))))
    for m in _IN_UNIT_STATEMENT.finditer(text):
        unit = m.group("unit").strip("$")
        found.append((m.start(), None, f"{m.group('value').rstrip('.,')}\\,{unit}"))
    # prose writes a power of ten without braces ("7.35 × 10^26 W"): the whole exponent
    return [
        (label, _PROSE_POWER.sub(r"^{\1}", value)) for _, label, value in sorted(found, key=_first)
    ]


def _first(item: tuple[int, str | None, str]) -> int:
    return item[0]


def _with_unit(value: str, unit: str | None) -> str:
    value = value.strip()
    return f"{value} {unit}" if unit else value


def _asks_about(noun: str, question: str) -> bool:
    """Whether the question asks with the last word of a quantity named in words ("the
    work"): in its asking part (:func:`question.asking_part`), or anywhere where it has
    none; "the incident wavelength" of its setup is data."""
    word = noun.split()[-1]
    part = asking_part(question) or question
    return re.search(rf"\b{re.escape(word)}", part, re.IGNORECASE) is not None


# What only dresses a line after the box: code fences and backticks, display delimiters,
# frames and highlights other than a box, bold and HTML tags, check marks; a "therefore" or
# an implication sign starts a conclusion. Read as plain lines, what they hold is stated.
_FRAME = re.compile(
    r"\\(?:fcolorbox\s*\{[^{}]*\}\s*\{[^{}]*\}|colorbox\s*\{[^{}]*\}|bbox\s*(?:\[[^\]]*\])?"
    r"|tcbox\s*(?:\[[^\]]*\])?|[oO]valbox|shadowbox|doublebox|underline|uline|uuline"
    r"|mathbf|textbf|boldsymbol|bm|highlight|hl)\s*\{(?P<content>(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
)
_SPACING = r"(?:\s|\\[,;:! ]|\\q?quad(?![A-Za-z]))*"
_DRESSING = (
    (re.compile(r"```[\w+-]*|\$\$|\\\[|\\\]|^[ \t]*\$"), "\n"),
    # a unit in a code comment at the line's end: "h = 1.63  # m"
    (re.compile(r"[ \t]+#[ \t]*([A-Za-zµ°%][\w/^·\-]{0,12})[ \t]*$", re.MULTILINE), r" \1"),
    (
        re.compile(r'\{?\s*"(?:final_?)?answer"\s*:\s*"([^"\n]{1,60})"\s*\}?', re.IGNORECASE),
        "\nanswer: \\1\n",
    ),
    (re.compile(r"`|\*\*|__|</?[A-Za-z][^<>\n]{0,40}>|[✅✔☑]\ufe0f?"), ""),
    (re.compile(rf"(?:\\therefore(?![A-Za-z])|∴){_SPACING}"), "\ntherefore "),
    (
        re.compile(rf"(?:\\(?:Rightarrow|implies|Longrightarrow)(?![A-Za-z])|⇒|⟹){_SPACING}"),
        "\nso ",
    ),
    (re.compile(r"\bi\.\s*e\.,?"), "that is"),
)


def _framed(frame: re.Match[str]) -> str:
    """A frame or highlight marks its content as the answer, as "Answer:" does."""
    return "\nanswer: " + frame.group("content") + "\n"


def unframed(text: str) -> str:
    """``text`` as a reader takes it in (see ``_FRAME``, ``_DRESSING``)."""
    previous = None
    while previous != text:  # \\underline{\\underline{…}}: until none is left
        previous, text = text, _FRAME.sub(_framed, text)
    for pattern, plain in _DRESSING:
        text = pattern.sub(plain, text)
    return text


_PROSE_POWER = re.compile(r"\^\s*([-+−]?\d+)")


def restated_expressions(
    after: str, question: str | None = None
) -> list[tuple[str | None, str, bool]]:
    """The (label, expression, answered) triples the sentences after the final box conclude
    with, for answers that are expressions; ``answered`` says whether words that state an
    answer ("Correction:", "Actually, it's", "Wait, it should be", "TL;DR:") introduce it,
    so that it is about the asked quantity without a label. An expression ends at prose
    ("d/3 from the left"), a second form ("\\approx 0.67 d") or a clause ("…, so it lies
    between them"); one that is only a number is no restated expression. A quantity named
    in words that the question uses ("i.e. the height is kx^2/mg") is the asked one too
    (``question``; see :func:`restated_values`)."""
    found: list[tuple[str | None, str, bool]] = []
    for match in _EXPRESSION_CONCLUSION.finditer(unframed(after[:_SCOPE])):
        expression = match.group("expression")
        for stop in (_PROSE_WORD.search(expression), _RELATION.search(expression)):
            if stop is not None:
                expression = expression[: stop.start()]
        expression = expression.strip().rstrip(",.;:").strip()
        if not re.search(r"[A-Za-z]", expression):
            continue  # nothing symbolic: a number, or nothing left
        markers = match.group("markers")
        noun = match.group("noun")
        # a bare line ("$$h = kx^2/mg$$") is about the asked quantity where its label says so
        answered = (
            (not markers and match.group("line") is None)
            or _ANSWER_MARKER.search(markers) is not None
            or bool(noun and (question is None or _asks_about(noun, question)))
        )
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
    return named is not None and (given_counts or not given_in_question(label, question))


def given_in_question(label: str, question: str | None) -> bool:
    """Whether the question gives ``label`` a value ("$R = 0.0500\\,\\Omega$"): a value
    stated for it after the answer is about the data, not an asked quantity."""
    if not question:
        return False
    math = question_math(question)
    return re.search(rf"(?<![A-Za-z\\]){re.escape(label.strip())}\s*=", math) is not None


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


# Another alternative named after the box: "(the other position, 70.0 cm, also works)", "By
# symmetry the other position is $u = 70.0$ cm", "The second solution is $u' = 70.0$ cm" ("also"
# and "again" name other events as often: "The ball also lands at 4.0 s"). Where the question
# has alternatives (ALT), it is one more claimed, and
# must be one of them (the verifier judges those of the gold's kind of quantity); a root the
# sentence sets aside ("the other root, -3.0 s, is unphysical") claims nothing.
_OTHER_ALTERNATIVE = re.compile(
    r"\b(?:other|second|another|remaining)\s+(?:[a-z]+\s+)?(?:position|solution|root|time"
    r"|value|answer|possibility|configuration|location|distance|instant|angle|speed|one)s?"
    r"(?P<clause>(?:[^.!?\n]|\.(?=\d)){0,100})",
    re.IGNORECASE,
)
_SET_ASIDE = re.compile(
    r"\b(?:unphysical|non-?physical|not\s+physical|reject\w*|discard\w*|extraneous|spurious"
    r"|invalid|impossible|not\s+(?:allowed|valid|possible|acceptable|relevant)|ignore\w*"
    r"|does\s*n[o']t\s+(?:work|apply|count)|no\s+other|fails?)\b",
    re.IGNORECASE,
)
_CLAUSE_VALUE = re.compile(
    r"(?P<number>[-+−]?\d+(?:\.\d+)?(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?\s*[-+−]?\d+\s*\}?)?)"
    r"(?![\d.])\s*\$?(?:\s|\\[,;:! ]|~)*"
    r"(?P<unit>\\(?:mathrm|text|rm)\s*\{[^{}]{1,12}\}|[A-Za-zµΩ°][\w/^·\-]{0,8})?"
)


_SENTENCE_BREAK = re.compile(r"[.!?\n](?!\d)")
_CLAUSE_END = re.compile(r";|,?\s+(?:and|but|while|whereas|which|so)\s")


def other_alternatives(after: str) -> list[str]:
    """The values sentences after the box offer as another alternative (see
    ``_OTHER_ALTERNATIVE``): the last value written in such a clause, with its unit."""
    found = []
    text = unframed(after[:_SCOPE])
    for match in _OTHER_ALTERNATIVE.finditer(text):
        clause = _CLAUSE_END.split(match.group("clause"))[0]  # "…, and it lands at 4.0 s"
        opening = _SENTENCE_BREAK.split(text[max(0, match.start() - 80) : match.start()])[-1]
        if _SET_ASIDE.search(opening) or _SET_ASIDE.search(clause):  # "We discard the …"
            continue
        values = list(_CLAUSE_VALUE.finditer(clause))
        if values:
            number, unit = values[-1].group("number", "unit")
            if unit and not unit.startswith("\\"):
                unit = f"\\mathrm{{{unit}}}"  # "m" a unit, not a mass, beside an equation's
            found.append(f"{number}\\,{unit}" if unit else number)
    return found
