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

from studybench.verify.asking import asking_part
from studybench.verify.chains import label_key
from studybench.verify.normalize import collapse_whitespace, question_math
from studybench.verify.question import symbols_of
from studybench.verify.short_offers import short_expressions, short_offers

# the labels a conclusion begins with: "TL;DR:", "Bottom line:", "Correction:" (the later
# offers of ``visibility`` read the same labels before a second value)
CONCLUSION_LABELS = (
    r"tl\s*;?\s*dr|short\s+answer|conclusion|bottom\s+line|in\s+(?:summary|short|sum|brief)"
    r"|(?:net\s+|final\s+)?result|correction"
)
# a conclusion that states a labelled value: "So v = 29.0 m/s", "Therefore \\eta = 0.308",
# "Hence, finally, v = …", "I think v = …", "Re-checking the arithmetic gives 29 m/s"
# possessive (``*+``): spaces given up to a later ``\s*`` are the same spaces, and trying
# each split of a run is what made a run of line breaks polynomial
# the words a sentence may open with before it says anything ("Hmm, or maybe …"; the hedge
# openings of ``visibility`` read the same words)
INTERJECTIONS = r"hmm+|well|oh|ok(?:ay)?|uh|um"
_FILLERS = (
    r"\s*+(?:\(\s*+)?(?:(?:\*\*|__)\s*+)?"
    rf"(?:(?:{INTERJECTIONS}|wait|ah|h(?:old|ang)\s+on)\b\s*+[,.!—–]?\s*+)?"
)
_OPENING = r"(?:^|(?<=[.!?\n:;。！？：]))" + _FILLERS
# an expression may be restated in a clause too: "$I = \\boxed{…}$, so $I = BLv/(2R)$"
_CLAUSE_OPENING = r"(?:^|(?<=[.!?\n:;,。！？：，]))" + _FILLERS
# an arrow from a label to its value: "Final → 29.0 m/s", "Answer $\\to$ 29.0 m/s"
_ARROW = r"(?:[→⟶⇒]|->|=>|\$?\s*\\(?:to|rightarrow|Rightarrow|longrightarrow)(?![a-zA-Z])\s*\$?)"
# words that take the box back (round 19): "I made an error:", "Wait, I dropped a factor of
# 2:", "Erratum:", "Update:", "Let me fix that:", "My mistake —", "Scratch that;", "Make that",
# "The answer above is wrong;", "Upon re-evaluation,", "P.S.", "Should be … instead"; each
# ends on a letter (the markers' ``\b``), its punctuation read after it
CORRECTIONS = (
    r"(?:I\s+)?made\s+an?\s+(?:error|mistake|slip|typo)"
    r"(?:\s+(?:in|with|above|earlier)(?:\s+[^:;,.\n—–]{1,40}?)?)?(?=\s*[:;,.—–])"
    r"|I\s+dropped\s+[^:;.\n]{1,40}?(?=\s*:)"
    r"|(?:errat(?:um|a)|update[d]?|edit(?:ed)?|revised|revision|fixed|amend(?:ed|ment)"
    r"|typo(?:\s+(?:above|earlier))?|correction\s+to\s+the\s+above"
    r"|let\s+me\s+(?:fix|correct)\s+(?:that|this))(?=\s*(?:\*\*|__)?\s*:)"
    r"|my\s+(?:mistake|bad|error)|(?:scratch|strike|make)\s+that|(?:wh)?oops|sorry"
    r"|(?:the\s+)?(?:answer|result|value|box)\s+above\s+is\s+(?:wrong|incorrect|off)"
    r"|(?:up)?on\s+re-?(?:evaluation|examination|consideration|inspection|checking|reading)"
    r"|p\.\s*s(?=\.)|(?:(?:it|that|this)\s+)?(?:should|must)\s+(?:be|read|have\s+been)"
)
# words that take the box back and no other marker reads ("I need to correct this:", "Let me
# redo this:", "Rechecking:"); none of them may be read by another alternative of the markers
# too: the markers repeat, and two readings of one word made "Actually, " x 800 take minutes
_MORE_TAKING_BACK = (
    r"I\s+need\s+to\s+(?:correct|fix|redo)\s+(?:this|that|it)|let\s+me\s+re-?(?:do|check)\b"
    r"|re-?checking(?=\s*:)"
)
# words that take a value back, wherever they stand in their sentence (see _CORRECTED_VALUE)
_TAKING_BACK = (
    rf"{CORRECTIONS}|correction|actually|wait|re-?check(?:ing|ed)?"
    r"|on\s+(?:second\s+thought|reflection)|re-?(?:comput|calculat)(?:ing|ed|e)\b"
    rf"|{_MORE_TAKING_BACK}"
)
# words that take the box back or state the answer again: after them a value needs no label
_ANSWER_WORDS = (
    rf"actually|corrected|on\s+(?:second\s+(?:look|thought)|reflection)|{CONCLUSION_LABELS}"
    rf"|(?:final\s+)?answer(?=\s*(?:\*\*|__)?\s*(?:[:—–]|{_ARROW}))|(?:final|output)(?=\s*(?::|{_ARROW}))"
    r"|without\s+rounding|more\s+(?:precisely|accurately|exactly)|to\s+be\s+(?:exact|precise)"
    r"|re-?(?:comput|calculat)\w*(?:\s+with\s+[^.,;:\n]{0,40})?"
    r"|with\s+the\s+correct\s+(?:numbers|values|arithmetic)|re-?check(?:ing|ed)?\b[^.,;\n]{0,40}?"
    r"\s(?:gives|yields|shows)"
    rf"|{CORRECTIONS}|{_MORE_TAKING_BACK}"
)
_CONNECTIVES = (
    r"so|therefore|thus|hence|finally|overall|altogether|in\s+the\s+end|all\s+in\s+all"
    r"|consequently|accordingly|ergo|as\s+a\s+result|in\s+conclusion|putting\s+it\s+(?:all\s+)?together"
    r"|(?:I|we)\s+(?:think|believe|get|find|obtain|have|mean|conclude(?:\s+that)?)|namely"
    r"|equivalently|numerically|converted(?:\s+(?:to|into)\s+[^\s:,]{1,12})?"
    r"|(?:this|that|which|it)(?:\s+is|'s|’s|\s+(?:equals|comes\s+to|corresponds\s+to|amounts\s+to"
    r"|translates\s+to|works\s+out\s+(?:to|at)|gives|yields|makes|means))(?:\s+(?:about|approximately"
    r"|roughly|around|nearly|almost|just\s+(?:over|under)))?"
    # the same words in the other languages models answer in
    r"|donc|ainsi|also\s+ist|daher|somit|por\s+lo\s+tanto|entonces|portanto|quindi|dunque"
    r"|所以|因此|故"
)
# words a conclusion may put before its value: "So, in words: …", "Therefore, restating: …"
_RESTATING = r"in\s+(?:other\s+)?words|to\s+restate|restating(?:\s+the\s+result)?|explicitly"
_MARKERS = (
    rf"(?:(?:{_CONNECTIVES}|{_ANSWER_WORDS})\b(?:[\s,:;.—–]|\*\*|__|{_ARROW})*+)+"
    rf"(?:(?:{_RESTATING})\b[\s,:]*+)?"
)
# a label: a letter or a command, maybe a change (\\Delta S) or a script face (\\mathcal{E}),
# with one subscript (``v_0``, ``T_{eq}``, ``T_eq`` as code writes it)
_LABEL_CORE = (
    r"(?:\\(?:Delta|delta)\s*)?(?:\\(?:math(?:cal|rm|bf|scr|it)|hat|tilde|check|bar|overline|vec)"
    r"\s*\{\\?[A-Za-z]+\}|\\(?:hat|tilde|check|bar|vec)\s+[A-Za-z]|\\[A-Za-z]+|[A-Za-z])"
    r"(?:\s*_\s*(?:\{(?:[^{}]|\{[^{}]*\}){1,24}\}|\w+))?"
    r"(?:\s*\^\s*(?:\{\s*(?:\\ast|\*|\\star|\\prime)\s*\}|\\ast|\*|\\prime)|'+)?"
    # an evaluation bar: "v\big|_{\text{num}}"
    r"(?:\s*(?:\\[bB]igg?)?\|\s*_\s*(?:\{(?:[^{}]|\{[^{}]*\}){1,24}\}|\w+))?"
)
# as a magnitude or in parentheses too: "|v| = …", "(h) = …"
_LABEL = rf"(?:\|\s*{_LABEL_CORE}\s*\||\(\s*{_LABEL_CORE}\s*\)|{_LABEL_CORE})"
# what states a value for a label: "v = 29.0", "v \\approx 29", "t ≈ 0.115 s"
_STATES = (
    r"(?:=|≈|≃|≔|≅|≡|≊|\\(?:approx|simeq|coloneqq|cong|equiv|approxeq|thickapprox)(?![a-zA-Z])|:=)"
)
# "of the order of" states a value where it writes one to a decimal ("$h \\sim 1.63$ m"), not
# an order of magnitude ("$\\lambda \\sim 10^{-10}$ m")
_ROUGHLY = r"(?:\\sim(?![a-zA-Z])|∼)(?=\s*[-+−]?\d+\.\d)"
# a quantity named in words: "So the work is 1200 J", "Hence the speed comes to about 29 m/s"
# ("it reaches a height of 3.0 m", "the ball rises to a height of …": red team r22a)
_NOUN_STATES = (
    r"(?:(?:it|this|that|they|the\s+[a-z]+)\s+(?:[a-z]+(?:s|ed)|has|had|will\s+[a-z]+)\s+"
    r"(?:(?:to|at|with|up\s+to)\s+)?)?"
    r"(?:an?|the)\s+(?P<noun_of>[a-z]+(?:\s+[a-z]+){0,2}?)\s+of\s+(?=[-+−]?\$?\d)|"
    r"(?:the|its|their|our|your|this|the\s+answer['’]s|the\s+final)\s+"
    r"(?P<noun>[a-z]+(?:\s+[a-z]+){0,4}?)\s+"
    r"(?:(?:here|then|thus|therefore|hence|so|we\s+(?:need|want|seek)|required|needed|sought"
    r"|in\s+question|of\s+interest)\s+)?"
    r"(?:is|equals|comes\s+(?:out\s+)?to|works\s+out\s+(?:at|to)|turns\s+out\s+to\s+be"
    r"|(?:is|was)\s+found\s+to\s+be|(?:would|will|must|should|has\s+to)\s+be)"
    r"(?:\s+(?:thus|therefore|then|so|hence|really|actually))?\s+"
    r"(?:(?:about|approximately|roughly|around|exactly|just|nearly)\s+)?"
)
# a unit written after the math that holds the number: "So $v = 29.0$ m/s."
_UNIT_WORD = r"[A-Za-zµμΩ°%][\w/^·\-]{0,12}"
_UNIT_AFTER_MATH = rf"(?:(?<=\$)[ \t]*(?!instead\b)(?P<unit>{_UNIT_WORD}))?"
_VALUE_TAIL = (
    r"(?:(?P<value>[-+−]?\s*\d[^$\n;(<>=≈≤≥]{0,50}?)"
    r"(?P<rest>\s*(?:[(<>=≈≤≥]|\\approx|\\[lg]e?q?\b)(?:[^.\n]|\.(?=\d))*)?"
    r"|(?:option|choice|answer)\s+\(?(?-i:(?P<letter>[A-H]))\)?"
    r"|\(?(?-i:(?P<bare>[A-H](?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)\(?[A-H]\)?)*))\)?"
    r"(?=[.!]?\s*$|[.!]?\n|[.!]\s+[A-Z])"
    r"|(?:the\s+(?:statement|claim|answer)\s+is|it(?:'s|’s|\s+is))\s+(?P<truth>true|false))\s*\$?"
    + _UNIT_AFTER_MATH
    + r"(?=\s+(?:in\s+the\s+end|as\s+well|overall|after\s+all|instead)\b"
    + r"|[.,;!]\s|[.,;!。]?\s*$|\n|。)"
)
# a quantity named in words that concludes by itself: "The emf is therefore 16.0 V."
_NOUN_CONCLUDES = (
    r"the\s+(?P<concluding>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:is|equals|comes\s+to)\s+"
    r"(?:therefore|thus|hence|then|finally|so|really|actually|in\s+fact)\s+"
    r"(?:(?:about|approximately|roughly|around)\s+)?"
)
_CONCLUSION = re.compile(
    _OPENING
    + rf"(?:{_MARKERS}"
    + rf"\$?\s*(?:(?P<label>{_LABEL})\s*(?:{_STATES}|{_ROUGHLY})\s*"
    + rf"|{_NOUN_STATES}(?:\$?\s*(?P<noun_label>{_LABEL})\s*{_STATES}\s*)?)?"
    + rf"|{_NOUN_CONCLUDES}\$?\s*)"
    # the value may open its math: "the maximum height is $3.0\,\mathrm{m}$" (red team r22a)
    + r"(?:\$\s*(?:\\approx\s*)?(?=[-+−]?\s*\d))?"
    + _VALUE_TAIL,
    re.IGNORECASE,
)
# a line that states a labelled value with no word before it, as a display, a code line, a
# list item or a framed line after the box does ("$$h = 1.63\\,\\mathrm{m}$$",
# "```\nh = 1.63  # m\n```", "Final answer: h = 1.63 m")
_LINE_STATEMENT = re.compile(
    r"(?:^|(?<=\n))[ \t]*(?:[-*•>]\s+|\d+[.)]\s+|#{1,6}\s+)?"
    r"(?:(?P<prefix>[A-Za-z][A-Za-z ()'-]{0,30}):\s*)?"  # "- temperature: $T = 50.0$ °C"
    + rf"\$?\s*(?P<label>{_LABEL})\s*(?:{_STATES}|{_ROUGHLY}|:)\s*"
    + _VALUE_TAIL.replace("(?P<", "(?P<line_"),
    re.IGNORECASE,
)
# "In km/h this is about 104.", "In kelvin, that is 303": a value in the unit named before it
_IN_UNIT_STATEMENT = re.compile(
    r"(?:^|(?<=[.!?\n]))\s*in\s+(?!(?:summary|short|sum|brief|the|other|fact|total|words"
    r"|particular|general|practice|theory|principle|conclusion)\b)"
    r"(?P<unit>\$[^$]{1,24}\$|[^\s,$]{1,12})\s*,?\s*(?:this|that|it)"
    r"(?:\s+is|'s|’s|\s+equals|\s+comes\s+to|\s+would\s+be)\s+(?:(?:about|approximately|roughly"
    r"|around|nearly)\s+)?\$?(?P<value>[-+−]?\d[\d.,]*(?:\s*\\times\s*10\s*\^\s*\{?[-+−]?\d+\}?)?)"
    r"\$?(?=[.,;!]?\s|[.,;!]?$)",
    re.IGNORECASE,
)
# a value in a sentence that takes the box back, whatever words lead to it: "Correction: it
# rises $3.0\,\mathrm{m}$.", "Rechecking: 3.0 m.", "I made an error above; the ball rises to
# 3.0 m.", "(Typo: should read 3.0 m.)", "On reflection the ball only rises 3.0 m." (red team
# r22a: the words before the value are too many to list, the taking back is what counts)
_CORRECTED_VALUE = re.compile(
    r"(?:^|(?<=[.!?\n:;{|>(]))"
    + _FILLERS  # also opening a footnote, a cell, an aside
    + rf"(?:{_TAKING_BACK})\b(?P<sentence>(?:[^.!?\n]|\.(?=\d)){{0,200}})",
    re.IGNORECASE,
)
# each value in such a sentence, with the unit after it (after its math too: "$v = 2.0$ m/s")
_SENTENCE_VALUE = re.compile(
    r"(?<![\w.^_/{(])(?P<value>[-+−]?\d+(?:\.\d+)?(?:\s*\\times\s*10\s*\^\s*\{?[-+−]?\d+\}?)?)"
    r"(?![\d.]*\s*[)*^(])(?P<unit>(?:\s|\\[,;: ]|\$(?=[ \t]*[A-Za-zµμΩ°\\]))*"
    r"(?:\\(?:mathrm|text|rm)\s*\{[^{}]{1,20}\}|[A-Za-zµμΩ°][A-Za-z/^\d]{0,8})"
    r"(?![.][A-Za-z]))?\s*\$?(?=[\s.,;!)$]|$)"
)
# words that set a value aside in its sentence: "3.0 m, not 5.0 m", "instead of 5.0 m"
_SET_ASIDE_BEFORE = re.compile(
    r"\b(?:not|n[o']t|never|instead\s+of|rather\s+than|than|from|vs\.?|versus)\W*\$?\s*$",
    re.IGNORECASE,
)


def _concluding_value(sentence: str) -> re.Match[str] | None:
    """The value a sentence that takes the box back concludes with: its last one that no
    word sets aside ("Correction: it rises 3.0 m, not 5.0 m" concludes with 3.0 m). The
    values of its working ("$\\omega = 20$ rad/s, so $v = 0.10 \\times 20 = 2.0$ m/s") are
    steps to it (red team r24c: each was offered beside the box)."""
    kept = [
        v
        for v in _SENTENCE_VALUE.finditer(sentence)
        if not _SET_ASIDE_BEFORE.search(sentence[max(0, v.start() - 20) : v.start()])
    ]
    return kept[-1] if kept else None


# a line that names a quantity in words and gives its value: "- emf: 16.0 V", "potential: 4.96 V"
_NOUN_LINE = re.compile(
    r"(?:^|(?<=\n))[ \t]*(?:[-*•>]\s+|\d+[.)]\s+|\|[ \t]*)?(?P<noun>[A-Za-z][A-Za-z ]{1,30}?)"
    r"[ \t]*(?:[:=≈→—|]|\bis\b)[ \t]*"
    r"\$?(?P<value>[-+−]?\d[^\n$|]{0,40}?)\$?[ \t]*[.;,|]?[ \t]*(?=\n|$)"
)
# A statement of a labelled number anywhere in a clause that opens on a conclusion ("So the
# image distance comes out as $v = 12.0$ cm", "Donc, après simplification, $V_s = 4.96$ V"):
# read where its label names an asked quantity (the reader's ``asked``); not in a clause about
# another case (``_WHAT_IF``), after a preposition ("So at $v = 20$ m/s the car slips"), or
# after another value in the clause ("So on the Moon, with $g = 1.62$, $h = 4.94$ m").
_NUMBER = (
    r"[-+−]?\s*\d[\d.,]*(?<![.,])"
    r"(?:\s*(?:\\times|×|\\cdot)\s*10\s*\^\s*(?:\{\s*[-+−]?\d+\s*\}|[-+−]?\d+))?"
)
_STATEMENT = re.compile(
    rf"(?<![\w\\'|(])(?P<label>{_LABEL})\s*(?:{_STATES}|{_ROUGHLY})\s*(?P<number>{_NUMBER})"
    r"(?P<unit>(?:\\[,;:! ]|[^$\n.,;:!?=<>+*/^]|\.(?=\d)|/|\^){0,40}?)"
    r"(?P<end>\$|\\\)|[.,;:!?。)]?(?=\s|$)|\n|$)"
)
# a command no unit is written with ("\\times", "\\sqrt", "\\pi")
_NOT_UNIT = re.compile(
    r"\\(?!(?:mathrm|text|textrm|rm|mbox|operatorname|unit|circ|mu|Omega|AA|degree|micro|ohm)"
    r"(?![A-Za-z]))[A-Za-z]+"
)
_AFTER_CLOSE = re.compile(rf"[ \t]*(?P<unit>{_UNIT_WORD})")
_WHAT_IF = re.compile(
    r"\b(?:if|were|would|could|might|suppose[sd]?|supposing|assum\w*|without|instead|compar\w*"
    r"|unless|limit\w*|whereas|hypothetical\w*|for\s+(?:a|an)|say|reduces?|recover\w*|becomes?"
    r"|tends?|approach\w*|si|wenn|falls|se|aurait|serait|hätte|wäre|sería|seria|sarebbe)\b"
    r"|如果|若|假如"
    # a condition on another quantity: "for $\\mu = 0$ …", "at $t = 0$ this gives …",
    # "as $x \\to 0$"
    r"|\b(?:for|at|when)\s+\$|\\to(?![A-Za-z])|→",
    re.IGNORECASE,
)
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:at|for|when|with|if|below|above|beyond|from|between|than|until|unless|where|once"
    r"|after|before|near|over|under|like|say|e\.g\.|vs\.?|versus)[\s$,(]*$",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?\n。;；]*(?:\.(?=\d)[^.!?\n。;；]*)*")
_OPENS_CONCLUSION = re.compile(_FILLERS + rf"(?:{_MARKERS})", re.IGNORECASE)
# a value before the statement in its clause: the clause is about that case
_VALUE_BEFORE = re.compile(
    r"\d\s*(?:\$\s*)?(?:\\[,;:! ]|\s)*(?:\\mathrm|\\text|[A-Za-zµΩ°%])|=\s*-?\d"
)
# subscripts and wrappers that mark a label as the answer's, not another quantity's:
# "v_{\text{final}}", "T_{\mathrm{ans}}", "E_{\text{num}}", "v\big|_{\text{num}}", "|r|", "(h)"
_ANSWER_MARK = re.compile(
    r"\s*(?:(?:\\[bB]igg?)?\|)?\s*_\s*\{?\s*(?:\\(?:text|mathrm|rm|textrm|mathit)\s*\{?)?\s*"
    r"(?:final|fin|ans|answer|num|numeric(?:al)?|result|res|value|val|sol|solution|calc|computed"
    r"|out|exact)\s*\}?\s*\}?\s*$"
)
_SCOPE = 600  # characters after the box that are read
# an expression stated again (EX answers): "Correction: x = d/3.", "Actually, it's d/3.",
# "Wait, it should be $d/3$.", "So $v = \\sqrt{2gh}$."; after a bare connective ("So",
# "Therefore") only a labelled one, after words that state an answer any
# "=" or the word for it after a label's math: "$x$ equals $d/3$", "$x$ is $d/3$"
_SAYS_EQUAL = r"(?:=(?![=<>])|\$?\s+(?:equals|is(?:\s+equal\s+to)?)\s+\$)"
# a quantity in words whose value is taken back: "Hold on, the current is really …"
_TAKEN_BACK = r"the\s+[a-z]+(?:\s+[a-z]+){0,2}?\s+is\s+(?:really|actually|in\s+fact)\b"
_EXPRESSION_CONCLUSION = re.compile(
    _CLAUSE_OPENING
    + rf"(?P<markers>{_MARKERS}|(?={_TAKEN_BACK})"
    + rf"|(?P<line>(?<![^\n])(?:>[ \t]*)?(?=\$?\s*{_LABEL}\s*{_SAYS_EQUAL})))"
    + r"(?:\$|\\\()?\s*(?:it(?:'s|’s|\s+is|\s+should\s+be|\s+must\s+be)\s+)?(?:\$|\\\()?\s*"
    + rf"(?:{_NOUN_STATES}(?:\$|\\\()?\s*)?(?:(?P<label>{_LABEL})\s*{_SAYS_EQUAL}\s*)?"
    + r"(?P<expression>[^\n$]{1,160}?)\s*(?:\$|\\\))?"
    + r"(?=\s+in\s+the\s+end\b|[.;!]\s|[.;!]?\s*$|(?<!\\),\s|\n|\s+\(|(?<=\$)\s"
    + r"|(?<=\$)[.;!]?\))",  # "(Typo above: $I = BLv/2R$.)"
    re.IGNORECASE,
)
_ANSWER_MARKER = re.compile(rf"\b(?:{_ANSWER_WORDS})\b", re.IGNORECASE)
# prose after an expression ends it: "2d/3 from the left charge" (a math function is no prose)
# (a word after a space, in lower case, with a vowel: "BLv" and "mgh" are products of symbols)
_PROSE_WORD = re.compile(
    r"(?:^|(?<=\s))(?!(?:sin|cos|tan|cot|sec|csc|exp|log|ln|sqrt|sinh|cosh|tanh|arcsin|arccos"
    r"|arctan|max|min)\b)(?=[a-z]*[aeiouy])[a-z]{3,}(?![A-Za-z])"
)
_RELATION = re.compile(r"\\approx|\\simeq|\\sim\b|\\cong\b|\\equiv\b|[≈≃≅≡]|\\[lg]e?q?\b|[<>≤≥]|=")


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
        noun = m.group("noun") or m.group("noun_of") or m.group("concluding")
        if noun and question and not _asks_about(noun, question):
            continue  # "So the time to the top is 1.5 s": another quantity than the asked one
        value = m.group("value") or m.group("letter") or m.group("bare") or m.group("truth")
        value, unit = _last_link(value, m.group("rest"), m.group("unit"))
        label = m.group("label") or m.group("noun_label")
        found.append((m.start(), label, _with_unit(value, unit)))
        spans.append(m.span())
    for m in _LINE_STATEMENT.finditer(text):
        value = m.group("line_value")
        if not value or (asked is not None and not asked(m.group("label"))):
            continue
        if all(m.end() <= start or end <= m.start() for start, end in spans):
            found.append((m.start(), m.group("label"), _with_unit(value, m.group("line_unit"))))
            spans.append(m.span())
    earlier = _read(found, spans)
    for m in _CORRECTED_VALUE.finditer(text):
        v = _concluding_value(m.group("sentence")) if not _CHECKS_UNITS.search(m.group(0)) else None
        if v is not None:
            unit = (v.group("unit") or "").replace("$", "").strip()
            value = v.group("value")
            at = m.start("sentence") + v.start()
            if not any(
                start <= at < end and read.startswith(value) for start, end, read in earlier
            ):
                found.append((at, None, f"{value}\\,{unit}" if unit else value))
        spans.append(m.span())
    for m in _IN_UNIT_STATEMENT.finditer(text):
        unit = m.group("unit").strip("$")
        found.append((m.start(), None, f"{m.group('value').rstrip('.,')}\\,{unit}"))
        spans.append(m.span())
    if asked is not None:
        found += _asked_statements(text, asked, question, spans)
    found += [
        (start, None, value)
        for start, end, value in short_offers(text, asking_part(question) if question else "")
        # a sentence read already, by a reader above
        if not any(a < end and start < b for a, b in spans)
        and not any(start <= at < end for at, _, _ in found)
    ]
    # prose writes a power of ten without braces ("7.35 × 10^26 W"): the whole exponent
    return [
        (label, _PROSE_POWER.sub(r"^{\1}", _closed(value)))
        for _, label, value in sorted(found, key=_first)
    ]


_OPERATOR_NEXT = re.compile(r"\s*(?:\\times|\\cdot|[×*/+])")
# arithmetic in a stated value ("v = 0.10 \\times 20 = 2.0"), and the chain's last number
_ARITHMETIC = re.compile(r"\\times|\\cdot|[×*/+]|\d\s+\(|\)\s*\(")
_LAST_LINK = re.compile(
    r"=\s*(?P<number>[-+−]?\s*\d[\d.,]*(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?[-+−]?\d+\}?)?)"
    rf"\s*\$?(?:[ \t]*(?P<unit>{_UNIT_WORD}))?\s*$"
)


def _last_link(value: str, rest: str | None, unit: str | None) -> tuple[str, str | None]:
    """A value written as arithmetic and then worked out ("$v = 0.10 \\times 20 = 2.0$ m/s"):
    the number it works out to, with its unit (red team r24c: the first factor was read);
    another form after a plain value ("5.54 ks ≈ 1.5 h") leaves the first."""
    if not rest or _ARITHMETIC.search(value) is None:
        return value, unit
    link = _LAST_LINK.search(rest)
    if link is None:
        return value, unit
    return link.group("number"), link.group("unit") or unit


def _closed(value: str) -> str:
    """``value`` without the sentence's end read into it: "3.0 m.)" of "(Typo: should read
    3.0 m.)" is 3.0 m; a bracket the value opens stays."""
    value = value.rstrip()
    while value.endswith((".", ")")) and (
        value.endswith(".") or value.count(")") > value.count("(")
    ):
        value = value[:-1].rstrip()
    return value


def _read(
    found: list[tuple[int, str | None, str]], spans: list[tuple[int, int]]
) -> list[tuple[int, int, str]]:
    """The spans read so far, each with the value read there (the rules above append to
    ``found`` and ``spans`` together)."""
    return [(start, end, value) for (start, end), (_, _, value) in zip(spans, found, strict=False)]


def _asked_statements(
    text: str,
    asked: Callable[[str], bool],
    question: str | None,
    spans: list[tuple[int, int]],
) -> list[tuple[int, str | None, str]]:
    """The labelled numbers stated anywhere in ``text`` for an asked quantity (see
    ``_STATEMENT``), and the values of lines that name one in words ("- emf: 16.0 V");
    those inside ``spans`` are read already."""
    found: list[tuple[int, str | None, str]] = []
    read = list(spans)
    for m in _STATEMENT.finditer(text):
        if any(start <= m.start() < end for start, end in spans):
            continue
        label = m.group("label")
        if not (asked(label) or asked(answer_base(label))):
            continue
        start, sentence = _sentence_at(text, m.start())
        if not _OPENS_CONCLUSION.match(sentence) or _WHAT_IF.search(sentence):
            continue  # "Halfway up, $h = 0.408$ m", "So if the bank were 30°, $v = 21$ m/s"
        if _PREPOSITION_BEFORE.search(text, start, m.start()):
            continue  # "So at $v = 20$ m/s the car slips"
        if _VALUE_BEFORE.search(text[start : m.start()]):
            continue  # "So on the Moon, with $g = 1.62$ m/s², …"
        number = m.group("number")
        math_end = text.find("$", m.end("number"))
        tail = text[m.end("number") : math_end if math_end >= 0 else m.end("number") + 80]
        if _OPERATOR_NEXT.match(tail):  # "$v = 0.10 \\times 20 = 2.0$ m/s": what it works out to
            link = _LAST_LINK.search(tail)
            if link is None:
                continue  # arithmetic left unworked: an expression, not a value
            number = link.group("number")
            close = _AFTER_CLOSE.match(text, math_end + 1) if math_end >= 0 else None
            unit = close.group("unit") if close is not None else ""
            found.append((m.start(), label, _with_unit(number, unit or None)))
            read.append(m.span())
            continue
        unit = m.group("unit").strip()
        if _NOT_UNIT.search(unit):
            continue  # "v = 2\\sqrt{gh}": an expression with a number in it
        if not unit and m.group("end") in ("$", "\\)", ""):  # "v = 29 m/s" in prose too
            close = _AFTER_CLOSE.match(text, m.end())
            unit = close.group("unit") if close is not None else ""
        found.append((m.start(), label, _with_unit(m.group("number"), unit or None)))
        read.append(m.span())
    for m in _NOUN_LINE.finditer(text):
        if any(m.start() < end and start < m.end() for start, end in read):
            continue  # "Final: 0.313 m", read as a conclusion already
        noun = m.group("noun").strip()
        if question and _asks_about(noun, question) and not _ANSWER_WORD_ONLY.match(noun):
            found.append((m.start(), None, _with_unit(m.group("value"), None)))
    return found


_ANSWER_WORD_ONLY = re.compile(r"^(?:final\s+)?(?:answer|result|output)$", re.IGNORECASE)


def _sentence_at(text: str, at: int) -> tuple[int, str]:
    """Where the clause of ``text`` that holds position ``at`` starts, and the clause (a
    sentence, or its part up to a semicolon; a decimal point ends none)."""
    for m in _SENTENCE.finditer(text):
        if m.start() <= at <= m.end():
            return m.start(), m.group()
    return at, ""


def answer_base(label: str) -> str:
    """``label`` without the marks that say it is the answer's (``_ANSWER_MARK``): ``v`` of
    ``v_{\\text{final}}``, ``|v|`` and ``(v)``."""
    label = label.strip()
    for wrapped in (re.match(r"^\|\s*(.+?)\s*\|$", label), re.match(r"^\(\s*(.+?)\s*\)$", label)):
        if wrapped is not None:
            label = wrapped.group(1)
    return _ANSWER_MARK.sub("", label) or label


def _first(item: tuple[int, str | None, str]) -> int:
    return item[0]


# words that end a value read up to the sentence's end: "29.0 m/s here", "6.00 cm is the result"
_AFTER_VALUE = re.compile(
    r"\s+(?:is|are|was|here|there|then|now|too|also|which|that|for|in|at|as|and|but|so)\b.*$",
    re.DOTALL,
)


def _with_unit(value: str, unit: str | None) -> str:
    value = _AFTER_VALUE.sub("", value.strip())
    return f"{value} {unit}" if unit else value


# what ends a quantity's name in words: a preposition or a clause after it
_HEAD_END = re.compile(
    r"\s+(?:of|to|for|at|in|on|from|with|we|that|which|here|then|needed|required|sought)\b"
)
# words in a quantity's name that say it is the asked one, not which one it is
_GENERIC_WORDS = frozenset(
    "the a an its this required needed desired sought asked final resulting answer's answer’s"
    " system problem question setup value of to at in on from by we that which here then"
    " need want seek interest".split()
)


def _asks_about(noun: str, question: str) -> bool:
    """Whether the question asks for the quantity named in words ("the work", "the period
    of interest"): its head word ("period") is in the question's asking part
    (:func:`question.asking_part`, or the whole question where it has none), and so is every
    word that says which one it is ("the *incident* wavelength", "the temperature *of the
    star*", "the acceleration *with* friction"): those name the setup's data, another body
    or another case. Words that only join a name ("of", "in", "the", "we need") are not
    asked for."""
    part = asking_part(question) or question
    end = _HEAD_END.search(noun)
    *modifiers, word = noun[: end.start() if end else None].split()
    if len(word) < 3:
        return False  # "So v": a connective and a symbol, no quantity named in words
    after = noun[end.start() :].split() if end else []  # "with friction": "with" says which
    qualifiers = [w for w in (*modifiers, *after) if w.lower() not in _GENERIC_WORDS]
    return all(
        re.search(rf"\b{re.escape(w)}", part, re.IGNORECASE) is not None
        for w in (word, *qualifiers)
    )


# What only dresses a line after the box: code fences and backticks, display delimiters,
# frames and highlights other than a box, bold and HTML tags, check marks; a "therefore" or
# an implication sign starts a conclusion. Read as plain lines, what they hold is stated.
_FRAME = re.compile(
    r"\\(?:fcolorbox\s*\{[^{}]*\}\s*\{[^{}]*\}|colorbox\s*\{[^{}]*\}|bbox\s*(?:\[[^\]]*\])?"
    r"|tcbox\s*(?:\[[^\]]*\])?|[oO]valbox|shadowbox|doublebox|underline|uline|uuline"
    r"|mathbf|textbf|boldsymbol|bm|highlight|hl|emph|textcolor\s*\{[^{}]*\}|color\s*\{[^{}]*\})\s*\{(?P<content>(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
)
_SPACING = r"(?:\s|\\[,;:! ]|\\q?quad(?![A-Za-z]))*"
_ANSWER_TITLE = re.compile(
    r"\b(?:answers?|results?|solution|final|correct\w*|revis\w*|updat\w*|errat\w*|amend\w*"
    r"|second\s+thoughts?|actually|fix(?:ed)?|recomput\w*|recalculat\w*)\b",
    re.IGNORECASE,
)


def _heading(match: re.Match[str]) -> str:
    """A heading of words only: "answer: " where its title names the answer, else nothing."""
    return "answer: " if _ANSWER_TITLE.search(match.group("title")) else ""


_DRESSING = (
    # an answer tag, a JSON object with an answer (and its unit), a REPL's echo, a printed
    # name with its value in a comment: each states the value
    (re.compile(r"<answer>\s*([^<>\n]{1,80}?)\s*</answer>", re.IGNORECASE), "\nanswer: \\1\n"),
    (
        re.compile(
            r'\{[^{}\n]{0,80}?"(?:final_?)?answer"\s*:\s*"?([^",{}\n]{1,40}?)"?\s*'
            r'(?:,\s*"unit"\s*:\s*"([^"\n]{1,12})"\s*)?[,}]',
            re.IGNORECASE,
        ),
        "\nanswer: \\1 \\2\n",
    ),
    (re.compile(r"(?m)^[ \t]*>>>[ \t]*([A-Za-z]\w{0,12})[ \t]*\n[ \t]*([-+−]?\d)"), "\\1 = \\2"),
    (re.compile(r"(?m)^[ \t]*print\(\s*([A-Za-z]\w{0,12})\s*\)[ \t]*#[ \t]*"), "\\1 = "),
    (
        re.compile(r"(?m)(=[ \t]*)['\"]([^'\"\n]{1,40})['\"][ \t]*$"),
        "\\1\\2",
    ),  # answer = '29.0 m/s'
    (
        re.compile(r"(?m)^[ \t]*(?:final_?)?(?:answer|result|ans|res|output)[ \t]*=[ \t]*"),
        "answer: ",
    ),
    (
        re.compile(
            r'(?m)^[ \t]*\{?[ \t]*"([A-Za-z][\w ]{0,30})"[ \t]*:[ \t]*"([^"\n]{1,40})"'
            r"[ \t]*,?\}?[ \t]*$"
        ),
        "\\1: \\2",
    ),
    # a heading of words only is a section's title ("### Next", "## Discussion"): only an
    # answer's title ("### Final Answer") says the line below states the answer
    (
        re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+(?P<title>[A-Za-z][A-Za-z \t'’&/()-]{0,60}?)[ \t:]*$"),
        _heading,
    ),
    (re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+"), "answer: "),  # a heading after the box frames its line
    (re.compile(r"\\\(|\\\)"), "$"),
    (re.compile(r"\\!"), ""),  # "V_s\\!=\\!4.96"
    # a quantity named in words in math: "$$\\text{temperature} = 290\\ \\text{K}$$"
    (re.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{([A-Za-z][A-Za-z ]{2,30})\}(?=\s*=)"), "\\1"),
    (re.compile(r"\\SI\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), "\\1\\,\\2"),  # siunitx: "\\SI{4.96}{V}"
    # a label in its own math before the sign: "$V_s$ = 4.96 V", "- $V_s$: 4.96 V"
    (re.compile(r"\$([^$\n]{1,24})\$(?=[ \t]*(?:=|≈|:(?!=)|\bequals\b))"), "\\1"),
    (re.compile(r"(=\s*)\((\s*[-+−]?\d[\d.,]*\s*)\)"), "\\1\\2"),  # "h = (1.63) m"
    (re.compile(r"(=\s*)\{\s*([-+−]?\d[\d.,]*)\s*\}"), "\\1\\2"),  # "T = {290}"
    (
        re.compile(r"(?<![$\w])([A-Za-z](?:_\w+)?\s*=\s*)\$(?=\s*[-+−]?\d)"),
        "\\1",
    ),  # "T = $50.0$ °C"
    (re.compile(r"```[\w+-]*|\$\$|\\\[|\\\]|^[ \t]*\$"), "\n"),
    # a unit in a code comment at the line's end: "h = 1.63  # m"
    (re.compile(r"[ \t]+#[ \t]*([A-Za-zµ°%][\w/^·\-]{0,12})[ \t]*$", re.MULTILINE), r" \1"),
    (
        re.compile(r'\{?\s*"(?:final_?)?answer"\s*:\s*"([^"\n]{1,60})"\s*\}?', re.IGNORECASE),
        "\nanswer: \\1\n",
    ),
    # a block of its own opens a line: "<details><summary>Correction</summary>Actually, …",
    # "\\begin{remark}Actually, …" (red team r22a: a correction inside a block is one)
    (
        re.compile(
            r"</?(?:details|summary|div|p|br|aside|blockquote|section|li|note)\b[^<>\n]{0,40}>"
            r"|\\(?:begin|end)\s*\{(?:remark|note|notes|aside|comment|quote|quotation|center"
            r"|framed|mdframed|tcolorbox|small|footnotesize)\*?\}",
            re.IGNORECASE,
        ),
        "\n",
    ),
    (re.compile(r"`|\*\*|__|</?[A-Za-z][^<>\n]{0,40}>|[✅✔☑✓]\ufe0f?"), ""),
    (re.compile(rf"(?:\\therefore(?![A-Za-z])|∴){_SPACING}"), "\ntherefore "),
    (
        re.compile(
            rf"(?:\\(?:Rightarrow|implies|Longrightarrow|longrightarrow)(?![A-Za-z])|⇒|⟹|⟶|👉|➡\ufe0f?"
            r"|(?<![^\n])[ \t]*(?:=>|->|→))"
            rf"{_SPACING}"
        ),
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
    # a run of fences or "$$" becomes a run of line breaks: as short as any other run
    return collapse_whitespace(text)


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
    text = unframed(after[:_SCOPE])
    for match in _EXPRESSION_CONCLUSION.finditer(text):
        expression = match.group("expression")
        for stop in (_PROSE_WORD.search(expression), _RELATION.search(expression)):
            if stop is not None:
                expression = expression[: stop.start()]
        expression = expression.strip().rstrip(",.;:").strip()
        if not re.search(r"[A-Za-z]", expression):
            continue  # nothing symbolic: a number, or nothing left
        markers = match.group("markers")
        noun = match.group("noun") or match.group("noun_of")
        # a bare line ("$$h = kx^2/mg$$") is about the asked quantity where its label says so
        answered = (
            (not markers and match.group("line") is None)
            or _ANSWER_MARKER.search(markers) is not None
            or bool(noun and (question is None or _asks_about(noun, question)))
        )
        found.append((match.group("label"), expression, answered))
    found += _corrected_expressions(text, {expression for _, expression, _ in found})
    read = {expression for _, expression, _ in found}
    return found + [
        (label, expression, True)
        for label, expression in short_expressions(text, asking_part(question) if question else "")
        if expression not in read
    ]


# a sentence that checks units or dimensions: "Re-checking the units: $\sqrt{L/g}$ has units
# of s" (red team r26b)
_CHECKS_UNITS = re.compile(r"\b(?:units?|dimensions?|dimensional(?:ly)?)\b", re.IGNORECASE)
_MATH = re.compile(r"\$([^$\n]{1,160})\$")
_ONLY_UNITS = re.compile(r"(?:\s|\\[,;: ]|\\(?:mathrm|text|rm|textrm)\s*\{[^{}]*\})*")


def _corrected_expressions(text: str, read: set[str]) -> list[tuple[str | None, str, bool]]:
    """The expressions in a sentence that takes the box back, whatever words lead to them
    ("I made an error above; the block arrives with $\\sqrt{gh}$.", red team r22a), as
    :data:`_CORRECTED_VALUE` reads values: each piece of math that is an expression (not a
    lone name, nor only a unit) is offered as the answer; ``label = …`` offers its right
    side under that label. Not in a sentence about another case (``_WHAT_IF``)."""
    found: list[tuple[str | None, str, bool]] = []
    for m in _CORRECTED_VALUE.finditer(text):
        sentence = m.group("sentence")
        if _WHAT_IF.search(sentence) or _CHECKS_UNITS.search(m.group(0)):
            continue  # another case, or a check of the units that takes nothing back
        for math in _MATH.finditer(sentence):
            content = math.group(1).strip()
            label = None
            relations = list(_RELATION.finditer(content))
            if relations:
                if len(relations) != 1 or relations[0].group() != "=":
                    continue  # an inequality or a chain: working, not an answer
                label = content[: relations[0].start()].strip()
                if re.fullmatch(_LABEL, label) is None:
                    continue  # "v^2 = 2gh": an equation (restated_equations)
                content = content[relations[0].end() :].strip()
            content = content.rstrip(",.;:").strip()
            if (
                not re.search(r"[A-Za-z]", content)
                or re.fullmatch(_LABEL, content)
                or _ONLY_UNITS.fullmatch(content)
                or content in read
            ):
                continue
            read.add(content)
            found.append((label, content, label is None))
    return found


# the relation of an equation stated as a conclusion ("So $x/d = 1/3$", "Numerically $x
# \\approx 0.333\\,d$"): one "=" or "≈", no other relation
_EQUATION_RELATION = re.compile(r"\\(?:approx|simeq|cong|equiv)(?![A-Za-z])|[≈≃≅≡=]")


def restated_equations(after: str) -> list[tuple[str, str]]:
    """The equations, other than a label set equal to an expression (those are
    :func:`restated_expressions`), that sentences after the final box conclude with ("So
    $x/d = 1/3$.", "So $v^2 = 2gh$.", "Numerically $x \\approx 0.333\\,d$."), as their two
    sides ("≈" holds within the tolerance that decimals get anyway). Each says which values
    the asked quantity may take: the answer must be one of them."""
    found = []
    text = unframed(after[:_SCOPE])
    for match in _EXPRESSION_CONCLUSION.finditer(text):
        if match.group("label") is not None or not match.group("markers"):
            continue
        expression = match.group("expression")
        prose = _PROSE_WORD.search(expression)
        if prose is not None:
            expression = expression[: prose.start()]
        relations = list(_RELATION.finditer(expression))
        if len(relations) != 1 or _EQUATION_RELATION.fullmatch(relations[0].group()) is None:
            continue
        _, sentence = _sentence_at(text, match.start("expression"))
        if _WHAT_IF.search(sentence):
            continue  # "So $v^2 = 2gh$ for a block sliding without friction": another case
        at = relations[0]
        lhs = expression[: at.start()].strip()
        rhs = expression[at.end() :].strip().rstrip(",.;:").strip()
        if lhs and rhs and re.search(r"[A-Za-z]", lhs + rhs):
            found.append((lhs, rhs))
    return found


_LETTER = re.compile(
    r"^[A-H](?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)\(?[A-H]\)?)*$"
)  # "E", "A, C, E"
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
    return bool(symbols_of(expression) & symbols_of(gold))


def written_in(expression: str, gold: str) -> bool:
    """Whether an expression is written in the gold's symbols only (at least one of them):
    a form of the gold, not working in other quantities (``\\frac{\\mathcal E}{R}`` beside
    ``\\frac{BLv}{R}``) nor a number for one case."""
    symbols = symbols_of(expression)
    return bool(symbols) and symbols <= symbols_of(gold)


# Another alternative named after the box: "(the other position, 70.0 cm, also works)", "By
# symmetry the other position is $u = 70.0$ cm", "The second solution is $u' = 70.0$ cm" ("also"
# and "again" name other events as often: "The ball also lands at 4.0 s"). Where the question
# has alternatives (ALT), it is one more claimed, and
# must be one of them (the verifier judges those of the gold's kind of quantity); a root the
# sentence sets aside ("the other root, -3.0 s, is unphysical") claims nothing.
_OTHER_ALTERNATIVE = re.compile(
    r"\b(?:other|second|third|fourth|3rd|4th|another|remaining|further|additional|one\s+more)\s+"
    r"(?:[a-z]+\s+)?(?:position|solution|root|time|value|answer|possibility|configuration"
    r"|location|distance|instant|moment|angle|speed|crossing|one)s?"
    r"(?P<clause>(?:[^.!?\n]|\.(?=\d)){0,100})",
    re.IGNORECASE,
)
_SET_ASIDE = re.compile(
    r"\b(?:unphysical|non-?physical|not\s+physical|reject\w*|discard\w*|extraneous|spurious"
    r"|invalid|impossible|not\s+(?:allowed|valid|possible|acceptable|relevant)|ignore\w*"
    r"|does\s*n[o']t\s+(?:work|apply|count)|no\s+other|fails?)\b",
    re.IGNORECASE,
)
# a set-aside word that is denied ("is not unphysical", "need not be discarded", "no root
# needs to be rejected") sets nothing aside
_DENIED = re.compile(r"\b(?:not|n[o']t|never|no|none|nothing)\s+(?:[\w-]+\s+){0,4}$", re.IGNORECASE)
# a sentence that claims a value works as well: "The lens works equally well at 70.0 cm",
# "Likewise $t = 2.0$ s satisfies the equation", "It passes the same height once more at
# 4.0 s", "A third valid spot: 45.0 cm", "Both $t = 1.0$ s and $t = 4.0$ s."
_ALSO_WORKS = re.compile(
    r"\b(?:works?|valid|satisf(?:y|ies|ied|ying)|(?:is|are)\s+(?:also\s+)?(?:a\s+)?solutions?"
    r"|acceptable|also\s+possible|(?:gives|has|have|yields)\s+the\s+same|the\s+same\s+(?:height"
    r"|position|place|point|level|period|image|value|result|distance|condition)|once\s+more"
    r"|likewise|equally\s+(?:well|valid|good|fine|acceptable|possible)|qualif(?:y|ies|ied)|fits?"
    r"|(?:is|are)\s+(?:also\s+)?fine|admissible"
    r"|permissible)\b",
    re.IGNORECASE,
)
# "So does $t = 4.0$ s.", "As is 45.0 cm.": the sentence before, said of one more value
_SAID_TOO = re.compile(
    r"^\W*(?:and\s+)?(?:(?:so|as)(?:\s+too)?\s+(?:does|do|is|are|did|was|were)|same\s+(?:for|with)"
    r"|ditto(?:\s+for)?|(?:the\s+)?same\s+(?:holds|goes)\s+(?:at|for))[\s,:]+"
    # the value right after it: not "As is required, …"
    r"(?=\$?\s*(?:[A-Za-z](?:_\{?\w+\}?)?\s*=\s*)?[-+−]?\d)",
    re.IGNORECASE,
)
_ADDS = re.compile(r"^\W*[A-Za-z]")  # a word before the value ("Also", "Equally", "Thirdly")
# a labelled value that opens a sentence saying it does so too: "$u = 45.0$ cm also gives a
# sharp image", "$t = 4.0$ s, too, is a crossing"
_ADDED_SUBJECT = re.compile(
    r"^\W*\$?\s*[A-Za-z](?:_\{?\w+\}?)?\s*=\s*[-+−]?\d(?:[^.;:!?\n]|\.(?=\d)){0,30}?"
    r"\b(?:also|too|as\s+well|likewise)\s+(?:works?|satisf\w*|solves?|gives|yields|puts"
    r"|(?:is|are)\s+(?:a\s+)?(?:solution|root|valid|fine|possible)|qualif\w*|fits?|counts?|crosses"
    r"|reaches|passes|forms|produces|meets|does)\b",
    re.IGNORECASE,
)
# one value as an added value writes it: a number, its power of ten, its unit
_ADDED_ONE = (
    r"[-+−]?\d[\d.,]*(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?[-+−]?\d+\}?)?\s*\$?"
    r"(?:\s|\\[,;:! ]|~)*(?:\\(?:mathrm|text|rm)\s*\{[^{}]{1,12}\}|[A-Za-zµΩ°][\w/^·\-]{0,8})?"
    r"\s*\$?"
)
# a value alone after a word that adds it: "Also $t = 4.0$ s.", "Additionally: 4.0 s",
# "Don't forget $t = 4.0$ s."; with a word after it the clause may say something else of it
# ("Also, $t = 2.0$ s gives the apex")
_ADDED_VALUE = re.compile(
    r"^\W*(?:(?:(?:and\s+)?also|additionally|in\s+addition|plus|moreover|furthermore|and"
    r"|do\s*n[o']?t\s+forget|not\s+to\s+forget|equally|likewise|similarly|thirdly|another"
    r"|and\s+another|plus\s+one\s+more|one\s+more)\b(?:\s+at\b)?[\s,:]*)?\$?\s*"
    r"(?:[A-Za-z](?:_\{?\w+\}?)?\s*=\s*)?"
    rf"{_ADDED_ONE}(?:\s*(?:,|and|&)\s*\$?\s*(?:[A-Za-z](?:_\{{?\w+\}}?)?\s*=\s*)?{_ADDED_ONE})*"
    r"(?P<too>\s+(?:too|as\s+well|also))?\s*(?:\([^()]{0,20}\))?\W*$",
    re.IGNORECASE,
)
# what in such a clause is no value claimed: a remark in parentheses, a reason or condition
# ("…, since $t < 4.0$ s"), a bound ("satisfy $0 < t < 4.0$ s")
_REMARK = re.compile(r"\([^()]*\)")
_CONDITION = re.compile(
    r"\b(?:since|because|as\s+long\s+as|when|provided|given|so\s+long\s+as)\b", re.IGNORECASE
)
_SIGN = r"(?:[<>≤≥]|\\[lg]e?q?(?![A-Za-z]))"  # a bound's sign
_BOUNDED = re.compile(rf"{_SIGN}[\s$]*[-+−]?$")
_BOUNDS = re.compile(rf"[^<>≤≥\n]{{0,20}}?{_SIGN}")
# a value set off by commas is a remark on its noun ("The peak, at $t = 2.0$ s, gives the same
# speed", "The midpoint of the two times, 2.0 s, is the apex time")
_APPOSITIVE = re.compile(r",[^,;]{0,40}?\d[^,;]{0,30},")
# a clause about the answer's own alternatives: what follows its colon or dash explains it
_ABOUT_THESE = re.compile(
    r"^\W*(?:both|all|each|they|these|the\s+two)\b[^:—–]*(?=[:—–])", re.IGNORECASE
)
_BOUND_SIGN = re.compile(_SIGN)


def _in_bound(text: str, at: int) -> bool:
    """Whether position ``at`` lies in inline math that states a bound ("$D \\ge 4f = 80.0$")."""
    for math in re.finditer(r"\$[^$]*\$", text):
        if math.start() < at < math.end():
            return _BOUND_SIGN.search(math.group()) is not None
    return False


_BOTH = re.compile(r"^\W*both\s+\$?\s*(?:[A-Za-z]\w*\s*=\s*)?[-+−]?\d", re.IGNORECASE)
_CLAUSE_VALUE = re.compile(
    r"(?P<number>[-+−]?\d+(?:\.\d+)?(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?\s*[-+−]?\d+\s*\}?)?)"
    r"(?![\d.])\s*\$?(?:\s|\\[,;:! ]|~)*"
    r"(?P<unit>\\(?:mathrm|text|rm)\s*\{[^{}]{1,12}\}|[A-Za-zµΩ°][\w/^·\-]{0,8})?"
)


_SENTENCE_BREAK = re.compile(r"[.!?\n](?!\d)")
_CLAUSE_END = re.compile(r";|,?\s+(?:and|but|while|whereas|which|so)\s")
_EVENT_END = re.compile(r";|,?\s+(?:and|but|while|whereas|so)\s")  # "…, which works too": the same


def other_alternatives(after: str) -> list[str]:
    """The values sentences after the box offer as another alternative (see
    ``_OTHER_ALTERNATIVE``): the last value written in such a clause, with its unit."""
    found = []
    text = unframed(after[:_SCOPE])
    for match in _OTHER_ALTERNATIVE.finditer(text):
        clause = _CLAUSE_END.split(match.group("clause"))[0]  # "…, and it lands at 4.0 s"
        opening = _SENTENCE_BREAK.split(text[max(0, match.start() - 80) : match.start()])[-1]
        if _set_aside(opening) or _set_aside(clause):  # "We discard the …"
            continue
        values = list(_CLAUSE_VALUE.finditer(clause))
        if values:
            found.append(_value_with_unit(values[-1]))
    for sentence in _SENTENCE_BREAK.split(text):
        if _OTHER_ALTERNATIVE.search(sentence):
            continue  # read above
        listed = _BOTH.match(sentence) is not None  # "Both $t = 1.0$ s and $t = 4.0$ s."
        added = _ADDED_VALUE.match(sentence)
        listed = listed or (added is not None and bool(added.group("too") or _ADDS.match(sentence)))
        listed = listed or _SAID_TOO.match(sentence) is not None
        listed = listed or _ADDED_SUBJECT.match(sentence) is not None
        for clause in [sentence] if listed else _EVENT_END.split(sentence):
            # "…, and the ball lands again at 4.0 s": another clause, another event
            if (listed or _ALSO_WORKS.search(clause)) and not _set_aside(sentence):
                claimed = _CONDITION.split(_APPOSITIVE.sub(" ", _REMARK.sub(" ", clause)))[0]
                about = _ABOUT_THESE.match(claimed)
                if about is not None:  # "Both are acceptable: each is before … 4.0 s"
                    claimed = claimed[: about.end()]
                found += [
                    _value_with_unit(m)
                    for m in _CLAUSE_VALUE.finditer(claimed)
                    if not _BOUNDED.search(claimed, 0, m.start())
                    and not _BOUNDS.match(claimed, m.end())
                    and not _in_bound(claimed, m.start())
                ]
    return found


# what joins the values of a list: "1.0 s, 3.0 s and 4.0 s", "\\{1.0, 3.0, 4.0\\}", "30 or 60"
_LIST_JOIN = re.compile(
    r"^(?:\s|\$|\\[,;:! ]|\\[{}]|~)*(?:,|;|&|\s/\s|\band\b|\bor\b|\\text\s*\{\s*(?:and|or)\s*\})"
    r"(?:\s|\$|\\[,;:! ]|~)*(?:(?:and|or)\b)?(?:\s|\$|\\[,;:! ]|\\[{}]|~)*"
    r"(?:[A-Za-z](?:_\{?\w+\}?)?\s*=\s*)?$",  # "$t = 1.0$ s, $t = 3.0$ s or $t = 4.0$ s"
    re.IGNORECASE,
)
_LIST_UNIT = re.compile(
    r"(?:\s|\\[,;:! ]|\\\}|~)*\$?(?:\s|\\[,;:! ]|~)*"
    r"(?P<unit>\\(?:mathrm|text|rm)\s*\{[^{}]{1,12}\}|[A-Za-zµΩ°][\w/^·\-]{0,8})"
)
_NOT_LIST_UNIT = frozenset({"and", "or"})
_LABELS_BEFORE = re.compile(r"[\s$]*(?:[A-Za-z](?:_\{?\w+\}?)?\s*=\s*)?$")


def listed_values(after: str) -> list[list[str]]:
    """The lists of three or more values the sentences after the box write ("All the times:
    1.0 s, 3.0 s and 4.0 s.", "$t \\in \\{1.0, 3.0, 4.0\\}$ s"), each value with its unit (a
    unit written once, after the last, is every value's). Beside an ALT answer a list that
    holds its alternatives states them all: a further value in it is one more claimed. A
    table's row is no such list, nor a sentence that sets values aside."""
    lists: list[list[str]] = []
    for sentence in _SENTENCE_BREAK.split(unframed(after[:_SCOPE])):
        if "|" in sentence or _set_aside(sentence) or _CHECKS.match(sentence):
            continue  # a table's row, values set aside, a check that lists what it tries
        found: list[list[str]] = []
        run: list[re.Match[str]] = []
        for m in [*_CLAUSE_VALUE.finditer(sentence), None]:
            joined = (
                m is not None
                and run
                and _LIST_JOIN.match(sentence[_value_end(run[-1]) : m.start()]) is not None
            )
            if m is not None and (not run or joined):
                run.append(m)
                continue
            if len(run) >= 3:
                before = _LABELS_BEFORE.sub("", sentence[: run[0].start()])
                # not "The heights at 1, 2 and 3 s are …"; but "The crossings are at 1, 3, 4 s"
                if not _PREPOSITION_BEFORE.search(before) or _STATED_AT.search(before):
                    found.append(_listed(sentence, run))
            run = [m] if m is not None else []
        if len(found) > 1:
            continue  # two lists in one sentence pair values up: "the times 1, 3 and 4 s give
            # heights 15, 15 and 0 m" is a table written out
        lists += found
    return lists


_CHECKS = re.compile(
    r"^\W*(?:check|checking|checked|verif\w*|sanity|test(?:ing|ed)?|plugging)\b", re.IGNORECASE
)
_STATED_AT = re.compile(
    r"\b(?:is|are|was|were|occurs?|happens?|(?:can|could|may|might|must)\s+\w+)\s+at[\s$]*$",
    re.IGNORECASE,
)


def _value_end(match: re.Match[str]) -> int:
    """Where a listed value ends: after its unit, or after its number where the "unit" read is
    a joining word ("1.0 and 3.0")."""
    unit = match.group("unit")
    return match.end("number") if unit and unit.lower() in _NOT_LIST_UNIT else match.end()


def _listed(sentence: str, run: list[re.Match[str]]) -> list[str]:
    """The values of one list, each with its unit or the unit written after the last."""
    units = [m.group("unit") for m in run]
    units = [u if u and u.lower() not in _NOT_LIST_UNIT else None for u in units]
    last = units[-1]
    if last is None:
        after = _LIST_UNIT.match(sentence, _value_end(run[-1]))
        last = after.group("unit") if after is not None else None
    return [_upright(m.group("number"), unit or last) for m, unit in zip(run, units, strict=True)]


def _value_with_unit(match: re.Match[str]) -> str:
    return _upright(*match.group("number", "unit"))


def _upright(number: str, unit: str | None) -> str:
    """A number and its unit as one quantity; a bare unit is upright, so that "m" is a unit,
    not a mass, beside an equation's symbols."""
    if unit and not unit.startswith("\\"):
        unit = f"\\mathrm{{{unit}}}"
    return f"{number}\\,{unit}" if unit else number


def _set_aside(text: str) -> bool:
    """Whether ``text`` sets a value aside (``_SET_ASIDE``), not denying that it does."""
    return any(
        _DENIED.search(text[: m.start()]) is None or m.group().lower().startswith(("not", "no "))
        for m in _SET_ASIDE.finditer(text)
    )
