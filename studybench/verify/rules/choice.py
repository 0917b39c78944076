"""MC, TF, QL: the atomic choices (option letters, truth values, short phrases).

Plain string rules: none of them parses LaTeX or imports sympy, so these answer types never
pay for the symbolic machinery.
"""

from __future__ import annotations

import re

from studybench.verify.number_words import NUMBER_WORD_VALUES
from studybench.verify.rules.outcome import Outcome, accept, reject
from studybench.verify.viewpoints import seen_as_asked

_MC_WORDS = re.compile(
    r"^(?:the\s+)?(?:correct\s+|final\s+|right\s+|best\s+)?(?:option|choice|answer|ans)"
    r"(?:\s+is)?\s*[:.]?\s*",
    re.IGNORECASE,
)
# the letter after the option's text: "Toward the top of the page (A)" (a capital, so that
# "f(x)" names no option)
_MC_TRAILING = re.compile(r"^(?P<text>.*\S)\s+\((?P<letter>[A-Z])\)\s*\.?\s*$", re.DOTALL)
_MC_HEDGE = re.compile(r"\b(?:or|nor|either|neither|not|unless|except|maybe|perhaps)\b", re.I)
# a lead letter, then its option's text: "B) 1/3", "B. 1/3", "B, 1/3", "B (1/3)", "B — 1/3"
_MC_LEAD = re.compile(
    r"^\(?([A-Za-z])(?:\s*[).:,—–]\s*\S|\s+-{1,3}\s+(?!(?:not|no|nope|never|nah)\b)\S"
    r"|\s*(?=\(\s*[^\s)]))",
    re.IGNORECASE,
)
# a letter the box calls the answer: "B is correct", "(C) is the right answer"
_MC_CALLED = re.compile(
    r"^\(?([A-Za-z])\)?\s+is\s+(?:the\s+)?(?:correct|right)(?:\s+(?:answer|option|choice))?"
    r"\s*\.?$",
    re.IGNORECASE,
)
# an option named in the text after a lead: "(A) and (C) are correct" (not "f(x)")
_MC_MARKED = re.compile(r"(?:^|[\s,;/&])\(([A-Za-z])\)")


# options named after the first colon: ", B: correct", "the answer is A", "option C"
_MC_LATER = re.compile(
    r"(?:^|[\s,;(])([A-Z])\s*[:)](?!\S*\d)|\b(?:answer|option|choice)\s+(?:is\s+)?\(?([A-Z])\)?(?![A-Za-z])"
)


_SPACED_LETTER = re.compile(r"\(\s*([A-Za-z])\s*\)")
# several options written as one word of capitals, in the order of the options: "ABD"
_CONCATENATED = re.compile(r"A?B?C?D?E?F?G?H?")
_SET_BRACES = re.compile(r"^\\\{\s*(.*?)\s*\\\}$")


def mc_letters(text: str) -> frozenset[str] | None:
    """The options an answer selects: the letters before a colon (``B: 5 m/s``), and every
    option named after it (``A: incorrect, B: correct`` names A and B, so it selects both:
    reading only the first let a box that argues for another option pass)."""
    # "(\\text{B})" normalises to "( B )": the letter in its brackets (red team r24b)
    text = _SPACED_LETTER.sub(r"(\1)", _MC_WORDS.sub("", text.strip()))
    # a set of options: "\\{A, C\\}", "A \\& C" (red team r27b)
    text = _SET_BRACES.sub(r"\1", text.replace("\\&", "&"))
    if len(text) > 1 and _CONCATENATED.fullmatch(text):
        return frozenset(text)  # "ABD": options A, B and D written together (red team r27c)
    called = _MC_CALLED.match(text)
    if called is not None:
        return frozenset({called.group(1).upper()})
    lead = _MC_LEAD.match(text)
    later: set[str] = set()
    if ":" in text:  # "B: 5 m/s", "(A), (C): both": the letters are before the first colon
        text, rest = text.split(":", 1)
        later = {(a or b).upper() for a, b in _MC_LATER.findall(rest)}
    tokens = [t.strip("()[]{}.") for t in re.split(r"[\s,;/&]+|\band\b", text) if t.strip()]
    if tokens and all(re.fullmatch(r"[A-Za-z]", t) for t in tokens):
        return frozenset({t.upper() for t in tokens} | later)
    if lead is not None:  # the lead and every other option the text names: none is dropped
        named = {letter.upper() for letter in _MC_MARKED.findall(text)}
        return frozenset({lead.group(1).upper()} | named | later)
    return _trailing_letter(text) if not later else None


def _trailing_letter(text: str) -> frozenset[str] | None:
    """``Toward the top of the page (A)``: the option's text, then its letter. The letter
    decides, as it does before a colon; a text that names another option (``(B)``) or hedges
    (``top or bottom``) selects nothing."""
    match = _MC_TRAILING.match(text)
    if match is None:
        return None
    head = match.group("text")
    if _MC_MARKED.search(head) or _MC_HEDGE.search(head) or re.search(r"\b[A-Z]\s*:", head):
        return None
    return frozenset({match.group("letter")})


# a letter with a slash drawn over it (``B\\!\\!\\!/`` normalises to ``B /``), or negated
# (``\\sim B`` normalises to ``¬B``): the box strikes its option out
_MC_STRUCK = re.compile(r"/\s*$|^\W*¬")
# a box that calls its option false: "(A) is false", "A: incorrect"
_MC_DENIED = re.compile(
    r"\b(?:false|incorrect|wrong|untrue)\b"
    # "B, not D" sets B against D: no denial of B
    r"|^\W*\(?[A-Za-z]\)?\s*[-—–:).,]*\s*(?:is\s+)?(?:not|no|nope|never(?!\s*mind)|nah)\b"
    r"(?!\s*\(?(?-i:[A-H])\)?(?:\W|$))",
    re.I,
)
# a denial in a word or two more, closing a short remark on the letter: "B -- definitely
# not", "B -- hardly", "B (ruled out)", "B: eliminated" (red team r24c); "B (the negative
# root is rejected)" says more, and the option's own text ("(C) It does not") denies nothing
_MC_DENIED_SHORTLY = re.compile(
    r"^\W*\(?[A-Za-z]\)?\s*[-—–:).,(]*\s*(?:(?:is|was|gets|been)\s+)?(?:[A-Za-z]+\s+){0,2}"
    r"(?:ruled\s+out|eliminated|excluded|rejected|discarded|not|never|hardly|nope|nah)\W*$",
    re.I,
)
_OTHERS = re.compile(
    r"\b(?:others?|rest|alternatives?|remaining|other\s+(?:options?|choices?|answers?))\b", re.I
)
_LEAD_LETTER = re.compile(r"^\W*\(?[A-Za-z]\)?\s*[-—–:).,(]*\s*")
_FONT_GROUP = re.compile(r"\\(?:text|mathrm|textbf|textrm)\s*\{([^{}]*)\}")


def _denied(pred: str, question: str | None) -> bool:
    """Whether the box argues against its own option (``_MC_DENIED``, ``_MC_DENIED_SHORTLY``)."""
    if _MC_DENIED.search(pred):
        return True
    text = _FONT_GROUP.sub(r"\1", pred)
    if not _MC_DENIED_SHORTLY.search(text) or _OTHERS.search(text):
        return False  # "B (others ruled out)": the other options are denied (red team r26b)
    remark = _words_only(_LEAD_LETTER.sub("", text))
    own = option_texts(question).values() if question else ()
    return not any(option and remark.endswith(_words_only(option)) for option in own)


def _words_only(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.casefold()).strip()


# The options a question lists: "(A) real and inverted (B) real and upright ...", each text
# up to the next option's letter or the end of its line.
_OPTION = re.compile(r"(?:^|(?<=\s))\(([A-H])\)\s*(.*?)\s*(?=(?:\s\([A-H]\)\s)|\n|$)")
# what may differ between an option and its text in an answer: spacing, dollars, and
# punctuation at the end; never a decimal point or a comma inside (25 s is not 2.5 s)
_OPTION_NOISE = re.compile(r"[\s$]+")
_OPTION_END = re.compile(r"[.;,:]+$")


_REMARK_WRAP = re.compile(r"^[\s(\[,:;.-]+|[\s)\].]+$")  # "(1/2)", ", 1/2" around a text


def option_texts(question: str) -> dict[str, str]:
    """The options of a multiple-choice question by letter (``{"A": "real and inverted"}``),
    when they are listed as ``(A) … (B) …`` with consecutive letters from A; else empty."""
    found: dict[str, str] = {}
    for match in _OPTION.finditer(question):
        letter, text = match.group(1), match.group(2).strip()
        if letter in found or not text:
            return {}
        found[letter] = text
    letters = sorted(found)
    if len(letters) < 2 or letters != [chr(ord("A") + i) for i in range(len(letters))]:
        return {}
    return found


def _option_key(text: str) -> str:
    from studybench.verify.normalize import normalize_answer

    text = _SHORT_FRACTION.sub(r"\\frac{\1}{\2}", normalize_answer(text))
    return _OPTION_END.sub("", _OPTION_NOISE.sub("", text)).casefold()


_SHORT_FRACTION = re.compile(r"\\frac\s*(\d)\s*(\d)")  # \frac12 is \frac{1}{2}


def option_by_text(pred: str, question: str | None) -> frozenset[str] | None:
    """The option whose text the answer gives instead of its letter (``\\text{Real and
    inverted}`` for "(A) real and inverted"): only where the question lists its options and
    exactly one of them reads the same, case, spacing, dollars and final punctuation aside
    (a decimal point or a comma inside counts: ``25\\,s`` is not "2.5 s").
    Another wording is the judge's to read."""
    if not question:
        return None
    key = _option_key(pred)
    hits = [letter for letter, text in option_texts(question).items() if _option_key(text) == key]
    return frozenset(hits) if key and len(hits) == 1 else None


# an option letter set in bold (``\\mathbf{A}``, which normalisation reads as a vector): in
# a choice a letter names an option, whatever its face
_BOLD_LETTER = re.compile(r"\\vec\s*\{\s*([A-Za-z])\s*\}")


def judge_mc(pred: str, gold: str, tolerance: float, question: str | None = None) -> Outcome:
    """The options the answer selects (:func:`mc_letters`) against the gold's, when nothing
    the answer says besides them (:func:`mc_remark`) hedges, names another option, or gives
    another option's text (from the ``question``)."""
    pred, gold = _BOLD_LETTER.sub(r"\1", pred), _BOLD_LETTER.sub(r"\1", gold)
    gold_l = mc_letters(gold)
    pred_l = mc_letters(pred)
    if pred_l is None and gold_l is not None:
        by_text = option_by_text(pred, question)
        if by_text is not None:
            return accept("option_text") if by_text == gold_l else reject("wrong_choice")
    if gold_l is None or pred_l is None:
        equal = pred.strip().casefold() == gold.strip().casefold()
        return accept("equal") if equal else reject("unparseable:choice")
    if gold_l != pred_l:
        return reject("wrong_choice")
    if _MC_STRUCK.search(pred) and not _MC_STRUCK.search(gold):
        return reject("denied_choice")  # "B\\!\\!\\!/": the letter struck through
    if _denied(pred, question) and not _denied(gold, question):
        return reject("denied_choice")  # "(A) is false": the box argues against its option
    remark = mc_remark(pred)
    named = option_by_text(_REMARK_WRAP.sub("", remark), question)
    if named is not None and not named <= pred_l:
        return reject("mismatched_option")  # "B (1/2)" where (A) is 1/2: another option's text
    if _remark_hedges(remark, pred_l, question):
        return reject("hedged_choice")  # "A. Also D", "A) or D", "A. I mean D", "A...D"
    if _remark_contradicts(remark, pred_l, question):
        return reject("mismatched_option")  # "Virtual and inverted (A)", A real and inverted
    return accept("choice")


# What an answer says besides its letters (:func:`mc_remark`) may take the choice back or add
# another: a hedge, a self-correction, or another option's letter.
_MC_REMARK_HEDGES = frozenset(
    """or nor either neither maybe perhaps possibly probably likely might could unsure
    uncertain guess otherwise alternatively else unless except wait actually nevermind
    scratch kidding joking instead whether versus vs hmm oops retract sorry""".split()
)
# self-corrections that are phrases: "I mean D", "never mind", "Correction: D", "then again"
_MC_REMARK_PHRASES = re.compile(
    r"\bi\s+mean[t]?\b|\bnever\s*mind\b|\bcorrection\s*:|\bsecond\s+thoughts?\b"
    r"|\bthen\s+again\b|\btake\s+(?:\w+\s+)?back\b",
    re.IGNORECASE,
)
# a capital that names an option ("A. Also D", "A...D", "A: A-D"); not a unit after a number
# ("2 A", "5 C") nor a quantity's name ("F = ma", "E_k", "T'", "F(x)")
_MC_NAMED_CAPITAL = re.compile(
    r"(?<![^\W_])(?<![\\_^])(?<!\d\s)(?<!\\,)(?<!\d~)([A-Z])(?![^\W_])"
    r"(?![=<>_^'\u2032(]|\s*[=<>])"
)
# "A" as an article ("C. A greater release height"), unless a predicate says it is an option
_MC_ARTICLE_A = re.compile(
    r"(?<![^\W_])A\s+(?!(?:is|was|and|or|nor|too|also|as|could|might|may|would|seems|fits|"
    r"works|holds|instead|then|though|maybe|perhaps|possibly|probably|not)\b)[a-z]"
)
# a lowercase letter that names an option: marked ("(d)", "d)"), after a word that names or
# adds one ("or d", "also d", "answer is d"), or in a range ("a-d", "a...d", from the lead)
_MC_NAMED_LOWER = re.compile(
    r"(?:^|[\s,;/&(])\(?([a-h])\)"
    r"|\b(?:or|nor|also|and|not|mean|maybe|perhaps|possibly|probably|either|vs|versus|then|"
    r"through|thru|till|until|except|plus|too|option|choice|letter|answer(?:\s+is)?)"
    r"\s+\(?([a-h])\b(?!\s*[=(_^'])"
    r"|(?:^|(?<![^\W_])[a-h])\s*(?:-|\u2013|\u2014|\.{2,}|\u2026)\s*([a-h])(?![^\W_])"
)


def mc_remark(text: str) -> str:
    """What an answer says besides the letters it selects (:func:`mc_letters`): the text after
    the letters before a colon (``A, C: both hold``), after a lead letter (``(D) it is not
    deflected``), or before a trailing letter (``Toward the top (A)``)."""
    text = _MC_WORDS.sub("", text.strip())
    if _MC_CALLED.match(text):
        return ""
    head, _, rest = text.partition(":")
    tokens = [t.strip("()[]{}.") for t in re.split(r"[\s,;/&]+|\band\b", head) if t.strip()]
    if tokens and all(re.fullmatch(r"[A-Za-z]", t) for t in tokens):
        return rest
    lead = _MC_LEAD.match(text)
    if lead is not None:  # a dash after the letter separates (it is no range "a-d")
        return re.sub(r"^\s+(?:-{1,3}|[—–])\s+", " ", text[lead.end(1) :])
    trailing = _MC_TRAILING.match(text)
    return trailing.group("text") if trailing is not None else text


def _named_options(remark: str, options: frozenset[str]) -> set[str]:
    """The option letters a remark names (``Also D``, ``or (d)``, ``...D``, ``a-d``)."""
    named = {m.group(1) for m in _MC_NAMED_CAPITAL.finditer(_MC_ARTICLE_A.sub(" ", remark))}
    for match in _MC_NAMED_LOWER.finditer(remark):
        named |= {letter.upper() for letter in match.groups() if letter}
    return named & options


def _option_words(question: str | None, letters: frozenset[str]) -> tuple[set[str], set[str]]:
    """The terms (:func:`_terms`) of the selected options' texts, and those only other
    options' texts hold."""
    options = option_texts(question) if question else {}
    if not options or not letters <= options.keys():
        return set(), set()
    own = {w for letter in letters for w in _terms(options[letter])}
    other = {w for letter, text in options.items() if letter not in letters for w in _terms(text)}
    return own, other - own


# the words _words makes of signs and LaTeX, which say nothing of an option by themselves
_MC_NOTATION = frozenset(
    """point over minus plus times pow eq pm lt gt prime percent degree check cross frac dfrac
    tfrac sqrt text mathrm cdot left right""".split()
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _terms(text: str) -> set[str]:
    """The words (:func:`_words`) and numbers of a text: ``5.0`` is the number 5, never the
    words "5", "point" and "0" that another option's ``2.5`` or ``0.5`` would share."""
    words = {w for w in _words(text, articles=True) if w.isalpha() and w not in _MC_NOTATION}
    return words | {str(float(number)) for number in _NUMBER.findall(text)}


def _remark_hedges(remark: str, letters: frozenset[str], question: str | None) -> bool:
    """Whether the remark hedges (``or D``, ``maybe``, ``I mean D``, ``never mind``) or names
    an option beside the selected ones (``Also D``, ``The answer is D``, ``A...D``): either
    leaves the choice undecided, so reading the lead letter alone was a false accept. The
    selected option's own text (from the question) may hold such a word."""
    own, _ = _option_words(question, letters)
    if (_terms(remark) - own) & _MC_REMARK_HEDGES or _MC_REMARK_PHRASES.search(remark):
        return True
    options = frozenset(chr(code) for code in range(ord("A"), ord("I")))
    options |= frozenset(option_texts(question)) if question else frozenset()
    return bool(_named_options(remark, options) - letters)


# function words that any option's text may share with an explanation
_MC_COMMON = frozenset(
    """a an the of and in on at to by for with from as is are was were be it its this that
    which so than then because since""".split()
)


def _remark_contradicts(remark: str, letters: frozenset[str], question: str | None) -> bool:
    """Whether the remark uses a word that only another option's text holds (``Virtual and
    inverted (A)`` where (A) is "real and inverted" and (D) "virtual and inverted"), or the
    opposite of a word of the selected option's text (``(C) a smaller release height`` where
    (C) is "a greater release height"): the text and the letter then say different things,
    and the letter alone must not decide."""
    own, other = _option_words(question, letters)
    said = _terms(remark) - _MC_COMMON
    return bool(said & other) or _opposes(_words(remark), own)


# Words with an opposite, as (scale, sign): a remark that says one of them where the option
# says its opposite (and not it) contradicts the option.
_POLAR = {
    word: (scale, sign)
    for scale, pairs in (
        (
            "size",
            (
                "greater larger bigger more higher longer wider heavier increase increases"
                " increased increasing rise rises rising grow grows grew grown raised raises"
                " raising double doubles doubled doubling twice triples tripled quadruples",
                "smaller less lesser fewer lower shorter narrower lighter decrease decreases"
                " decreased decreasing fall falls falling reduce reduces reduced reduction drop"
                " lowers lowered lowering"
                " drops dropped shrink shrinks shrank half halves halved",
            ),
        ),
        ("speed", ("faster quicker", "slower")),
        ("heat", ("hotter warmer", "colder cooler")),
        ("vertical", ("up upward upwards above", "down downward downwards below")),
        ("horizontal", ("left leftward", "right rightward")),
        ("radial", ("inward inwards toward towards", "outward outwards away")),
        ("rotation", ("clockwise", "counterclockwise anticlockwise")),
        ("charge", ("positive", "negative")),
        ("image", ("real", "virtual")),
        ("orientation", ("upright erect", "inverted upside")),
        ("force", ("attractive attract attracts together", "repulsive repel repels apart")),
        ("sameness", ("same", "opposite")),
        ("extreme", ("maximum maximal", "minimum minimal")),
    )
    for sign, words in zip((1, -1), pairs, strict=True)
    for word in words.split()
}


_NEGATIONS = frozenset("not no never non nor".split())
# words that restate an option's text without adding to it ("it gets bigger", "becomes")
_MC_RESTATING = frozenset(
    "it they gets get becomes become is are will would as large much push pull move moves".split()
)


def _opposes(said: list[str], own: set[str]) -> bool:
    """Whether the remark's words ``said`` (in order), where they restate the option's text
    ``own`` (no word of their own but words of a scale), hold a word whose opposite ``own``
    holds, while ``own`` does not hold that word's side of the scale too ("greater or
    smaller"); a word after a negation is its opposite ("not upright"). An explanation with
    words of its own ("a larger mass, because the period gets smaller") is not read."""
    own_sides = {_POLAR[w] for w in own if w in _POLAR}
    rest = {w for w in said if w not in _POLAR and w not in _NEGATIONS} - _MC_COMMON - own
    if rest - _MC_RESTATING:
        # words of its own: an explanation ("because the period gets smaller"), unless an
        # opposite word qualifies the option's own thing before any explanation begins
        return _qualifies_opposite(said, own, own_sides)
    for index, word in enumerate(said):
        side = _POLAR.get(word)
        if side is None:
            continue
        if index and said[index - 1] in _NEGATIONS:
            side = (side[0], -side[1])
        if (side[0], -side[1]) in own_sides and side not in own_sides:
            return True
    return False


_EXPLAINS = frozenset("because since as so which due given while but means meaning".split())


def _qualifies_opposite(said: list[str], own: set[str], own_sides: set[tuple[str, int]]) -> bool:
    """Whether, before the remark explains itself (``_EXPLAINS``), a word opposite to the
    option's stands at most two words (not counting articles) before a thing the option
    names: "(C) lowering the release point", "C, i.e. decrease the release height", "(C) a
    less elevated release" where (C) is "a greater release height" (red team r22a). "(A) a
    larger mass, because the period gets smaller" explains, and is not read."""
    things = own - set(_POLAR) - _MC_COMMON - _NEGATIONS
    for index, word in enumerate(said):
        if word in _EXPLAINS:
            return False
        side = _POLAR.get(word)
        if side is None or side in own_sides or (side[0], -side[1]) not in own_sides:
            continue
        if index and said[index - 1] in _NEGATIONS:
            continue  # "not lower": the option's own side
        following = [w for w in said[index + 1 :] if w not in _MC_COMMON][:2]
        if things & set(following):
            return True
    return False


_TRUE = {"true", "t", "yes", "y", "1", "correct", "right", "是", "对", "正确", "√", "✓"}
_FALSE = {
    "false",
    "f",
    "no",
    "n",
    "0",
    "incorrect",
    "wrong",
    "untrue",
    "否",
    "错",
    "错误",
    "不对",
    "×",
    "✗",
}


# After the truth word: its explanation. A word that hedges or states the other truth value
# (``True or False``, ``False... actually true``) leaves the answer undecided.
_TF_LEAD = re.compile(r"^\s*(?P<word>[^\W\d_]+|[√✓×✗])(?P<rest>(?:[\s.,;:!()\[\]{}—–-]|$).*)$")
_TF_HEDGES = frozenset(
    """or nor either neither but however although though yet actually maybe perhaps possibly
    probably unclear uncertain unsure partly partially sometimes otherwise
    whether ish esque kinda sorta""".split()  # "False-ish": only roughly false
)
_TF_WORDS = re.compile(r"[^\W\d_]{2,}|[√✓×✗?]")
# A negation before the truth word: ``!False``, ``~True``, ``¬True``, ``\neg True``, ``not
# true``, ``non-false``, ``-True``. (``\sim`` is dropped by the normaliser before the rules see
# the answer.)
_TF_NEGATOR = re.compile(
    r"^[\s(\[{\"'“‘]*(?:[!~¬−-]|\\(?:neg|lnot|sim|textasciitilde|overline|bar|tilde)"
    r"(?![a-zA-Z])|(?:not|non|un|never)(?![a-zA-Z]))",
    re.IGNORECASE,
)
# Words that, right after the truth word or closing the answer, negate it: ``False - not!``,
# ``True -- not really``, ``False, no``.
_TF_NEGATIONS = frozenset("not no nope nah never isnt isn nay".split())
# Words that call an answer wrong: in an explanation they may judge the answer itself
# (``False is wrong``, ``True; that's incorrect``), which the rules cannot tell from a
# judgement of something else, so they leave the answer to the judge.
_TF_VERDICTS = frozenset(
    "wrong incorrect untrue mistaken mistake invalid bogus nonsense erroneous false".split()
)
# Words that take the answer back: ``Just kidding``, ``Scratch that``, ``Wait``; and phrases:
# ``I take that back``, ``never mind``, ``I mean true``, ``Correction:``.
_TF_RETRACTIONS = frozenset(
    """kidding joking joke jk lol sike psych scratch retract retracted retracting retraction
    nevermind wait oops whoops conversely disregard undo sarcasm sarcastic
    ironically""".split()
)
_TF_TAKE_BACK = re.compile(
    r"\btak(?:e|es|ing)\s+(?:\w+\s+){0,2}back\b|\bnever\s*mind\b|\bi\s+mean[t]?\b"
    r"|\bcorrection\s*:|\bsecond\s+thoughts?\b|\bthen\s+again\b|\bon\s+the\s+contrary\b",
    re.IGNORECASE,
)
_TF_CONTRACTION = re.compile(r"n['\u2019]t\b")
# A verdict on the statement itself: ``the statement holds``, ``the claim is false``, ``it is
# valid``. It must agree with the truth word; one on the opposite (``the opposite holds``)
# turns it over.
_TF_STATEMENT_VERDICT = re.compile(
    r"\b(?P<subject>statement|claim|assertion|proposition|premise|it|this|that|opposite"
    r"|converse|reverse)\s+"
    r"(?:(?:is|was|does|do|did|would|will)\s*)?(?P<negation>\bnot\s+|nt\s+|never\s+)?"
    r"(?P<verdict>holds?|true|false|correct|incorrect|right|wrong|valid|invalid|untrue|fails?"
    r"|stands?|applies|apply)\b"
)
_TF_STATEMENTS = frozenset("statement claim assertion proposition premise".split())
_TF_OPPOSITES = frozenset("opposite converse reverse".split())
_TF_HOLDS = frozenset("hold holds true correct right valid stand stands applies apply".split())
# a verb right after the truth word makes it the subject of a claim (``False is wrong``,
# ``True would be a mistake``), not the answer
_TF_PREDICATE = frozenset(
    "is isnt was wasnt would seems sounds looks be being are am does doesnt".split()
)


def truth_value(text: str) -> bool | None:
    """``True``, ``false.``, ``No``; also a truth word followed by its explanation (``False
    (it is an unstable equilibrium)``, ``False. The period is independent of speed.``) when
    nothing after it hedges or states the opposite truth value, and nothing negates or takes
    it back (:func:`truth_denial`)."""
    text = _truth_text(text)
    return None if truth_denial(text) is not None else _stated_truth(text)


def _truth_text(text: str) -> str:
    """A truth answer without a bold face, a named subject or a check mark before its word
    (see the patterns below); the whole answer "Not true" ("Not false") is the other value."""
    text = _TRUTH_SUBJECT.sub("", _BOLD_TRUTH.sub(r"\1", text), count=1)
    plain = _NOT_TRUTH.match(text)
    if plain is not None:
        return "False" if plain.group(1).casefold() == "true" else "True"
    return _MARKED_TRUTH.sub(lambda m: m.group(1) or m.group(2), text)


# the whole answer is the negated word: "Not true", "not false." (a negation before any other
# text, "not true in general", is still refused)
_NOT_TRUTH = re.compile(r"^\s*not\s+(true|false)\s*\.?\s*$", re.IGNORECASE)
# a mark that agrees with the word after it: "✓ True", "\checkmark True", "✗ False"
_MARKED_TRUTH = re.compile(
    r"^\s*(?:\\checkmark|✓|✔)\s*(?:\\[,;: ]\s*)?(true)\s*\.?\s*$"
    r"|^\s*(?:\\xmark|✗|✘)\s*(?:\\[,;: ]\s*)?(false)\s*\.?\s*$",
    re.IGNORECASE,
)


# a bold letter normalises to a vector (\mathbf{F} is a force), but alone in a truth answer it
# is the letter: "\mathbf{F}" is False
_BOLD_TRUTH = re.compile(r"^\s*\\vec\s*\{\s*([TFtf])\s*\}\s*$")
# the statement named before its truth word: "The statement is false", "It is true."
_TRUTH_SUBJECT = re.compile(
    r"^\s*(?:the\s+(?:given\s+)?(?:statement|claim|assertion)|this|it|that)\s+is\s+"
    r"(?=(?:true|false)\b)",
    re.IGNORECASE,
)


# "no" that answers, whatever follows it: "no chance", "no dice", "no, wait", "no sense in it"
_NO_IDIOMS = (
    "wait but or it that this actually sorry i its not way longer chance dice siree sir indeed "
    "good sense doubt kidding means comment problem deal thanks question joke idea clue reason"
).split()
# words of an explanation that only look like truth words: "no" before a noun and a clause
# ("True: no external torque acts"), "right" in "right-hand rule", "right angle", "to the
# right"
_NOT_TRUTH_WORDS = re.compile(
    r"\bno(?=\s+(?!(?:" + "|".join(_NO_IDIOMS) + r")\b)[a-z]{2,}\s+[a-z]{2,})"
    r"|\bright(?=[\s-]+(?:hand(?:ed)?|angles?|side|triangle|circular)\b)"
    r"|(?<=\bthe\s)right\b|(?<=\bto\sthe\s)right\b",
    re.IGNORECASE,
)


def _stated_truth(text: str) -> bool | None:
    """The truth word an answer leads with, when nothing after it hedges or states the other
    value; whether it is negated or taken back is :func:`truth_denial`'s to say."""
    word = re.sub(r"[\s.!。()\[\]{}]+", "", text).casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    lead = _TF_LEAD.match(text.casefold())
    if lead is None or not lead.group("rest").strip(" .!"):
        return None
    value = _truth_word(lead.group("word"))
    if value is None:
        return None
    later = _TF_WORDS.findall(_NOT_TRUTH_WORDS.sub(" ", lead.group("rest")))
    if any(w in _TF_HEDGES or w == "?" or _truth_word(w) is (not value) for w in later):
        return None
    return value


def truth_denial(text: str) -> str | None:
    """Why a truth word is not the answer's value: ``negated_truth`` where a negation stands
    before it (``!False``, ``\\neg True``, ``not true``), right after it or at the end of the
    answer (``False - not!``, ``True -- not really``), or where it is the subject of a claim
    (``False is wrong``) or the explanation passes a verdict on something else than the
    statement (``True; that's incorrect``); ``contradicted_truth`` where the explanation says
    the statement holds for ``False`` or fails for ``True``; ``retracted_truth`` where the
    answer takes it back (``False. Just kidding.``, ``True. Scratch that``, ``False. I take
    that back``). Reading the truth word alone accepted all of these for their own value."""
    if _TF_NEGATOR.match(text):
        return "negated_truth"
    lead = _TF_LEAD.match(text.casefold())
    if lead is None or lead.group("word") not in _TRUE | _FALSE:
        return None
    value = lead.group("word") in _TRUE
    after = _TF_CONTRACTION.sub("nt", lead.group("rest"))
    words = re.findall(r"[^\W\d_]+", _NOT_TRUTH_WORDS.sub(" ", after))
    if not words:
        return None
    if words[0] in _TF_NEGATIONS | _TF_PREDICATE or words[-1] in _TF_NEGATIONS:
        return "negated_truth"
    for verdict in _TF_STATEMENT_VERDICT.finditer(after):
        if verdict.group("subject") in _TF_OPPOSITES or _statement_verdict(verdict) is not value:
            return "contradicted_truth"
    words = re.findall(r"[^\W\d_]+", _TF_STATEMENT_VERDICT.sub(_named_statement, after))
    if any(w in _TF_VERDICTS for w in words):
        return "negated_truth"
    if any(w in _TF_RETRACTIONS for w in words) or _TF_TAKE_BACK.search(after):
        return "retracted_truth"
    return None


def _named_statement(match: re.Match[str]) -> str:
    """A verdict that names the statement (``the claim is false``) dropped from the words
    that may judge the answer; one on a pronoun (``this is incorrect``) may judge either."""
    return " " if match.group("subject") in _TF_STATEMENTS else match.group(0)


def _statement_verdict(match: re.Match[str]) -> bool:
    """Whether a verdict on the statement (``the statement holds``, ``the claim is not
    valid``) says it is true."""
    positive = match.group("verdict") in _TF_HOLDS
    return positive is not bool(match.group("negation"))


def _truth_word(word: str) -> bool | None:
    if len(word) < 2 and word not in "√✓×✗":
        return None  # "t", "n", "y": a symbol in an explanation, not a truth word
    return True if word in _TRUE else False if word in _FALSE else None


# A truth word the answer qualifies right away ("False (mostly)", "True, usually", "False?",
# "True (I think)"): it is not the statement's truth value but a guess or a "sometimes".
_TF_QUALIFIERS = (
    # a probability ("(50\\% True)") and an inverted or full-width question mark qualify it too;
    # so do an idealisation or a hedge of degree ("in the ideal case", "in principle",
    # "technically", "sort of", "almost")
    r"[\s,;:(\[—–-]*(?:[?¿？؟]|(?!100\b)\d+(?:\.\d+)?\s*\\?%"
    r"|(?:in\s+(?:the\s+)?(?:an?\s+)?(?:ideal|ideali[sz]ed|limiting|simplest|simple|usual|typical"
    r"|best|worst|general)\s+(?:case|limit|model|setting)|ideally|in\s+theory|in\s+principle"
    r"|in\s+practice|strictly\s+speaking|technically|more\s+or\s+less|kind\s+of|sort\s+of"
    r"|not\s+quite|almost|nearly|debatabl[ey]|for\s+the\s+most\s+part|to\s+some\s+extent)\b"
    r"|(?:mostly|usually|generally|in\s+general|in\s+most\s+cases|often"
    r"|sometimes|typically|partly|partially|in\s+part|i\s+think|i\s+believe|i\s+guess|probably"
    r"|likely|maybe|perhaps|possibly|mainly|largely|not\s+always|approximately|roughly|arguably"
    r"|depending|it\s+depends|in\s+some\s+cases|under\s+some|unless|except|if|provided"
    r"|assuming)\b)"
)
_TF_QUALIFIED = re.compile(
    rf"^\W*(?:true|false|yes|no|correct|incorrect|right|wrong)\b{_TF_QUALIFIERS}", re.IGNORECASE
)
# the same qualifier right after the box ("\\boxed{False} (I think)", "\\boxed{False}\\
# \\text{unless …}"), or the other truth value in a parenthesis there ("(True under the other
# reading)")
_TF_QUALIFIED_AFTER = re.compile(rf"^{_TF_QUALIFIERS}", re.IGNORECASE)
_TF_AFTER_NOISE = re.compile(r"\\(?:text\w*|mathrm|emph|mbox)\s*\{|\\[ ,;:!]|[{}$~*_]")
_TF_AFTER_PARENTHESIS = re.compile(r"^\s*\(\s*([^\W\d_]+)")


# The sentences after the box that keep the other value open: "Though one could argue True.",
# "A case can be made for True.", "True is arguable as well.", "Both readings are defensible."
_TF_OTHER_ARGUABLE = re.compile(
    r"\b(?:could|can|might|may)\s+(?:also\s+|well\s+|equally\s+)?(?:argue|say|claim|answer"
    r"|maintain|contend)\s+(?:for\s+)?(?:that\s+)?(?:(?:it|this|the\s+statement)\s+(?:is|'s)\s+)?"
    r"(?P<argued>true|false)\b"
    r"|\bcase\s+(?:can|could|might|may)\s+(?:also\s+)?be\s+made\s+for\s+(?P<case>true|false)\b"
    r"|\b(?P<named>true|false)\s+(?:is|would\s+be|seems|looks|remains)\s+(?:also\s+|equally\s+"
    r"|just\s+as\s+)?(?:arguable|defensible|possible|plausible|acceptable|reasonable|tenable"
    r"|justifiable)\b"
    r"|\b(?:both|either)\s+(?:readings?|answers?|options?|values?|interpretations?|ways?|sides?)"
    r"\s+(?:are|is|could\s+be|can\s+be|seem|remain)\s+(?:\w+\s+)?(?:defensible|possible"
    r"|plausible|acceptable|reasonable|arguable|valid|tenable|justifiable|correct|right)\b",
    re.IGNORECASE,
)
_TF_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_TF_LATER_SENTENCES = 2  # the box's sentence and the next one


def qualified_after(after: str, value: bool) -> bool:
    """Whether the text right after a truth-value box (``after``, up to the line's end)
    qualifies it (see ``_TF_QUALIFIED_AFTER``) or opens a parenthesis on the other value
    ("(True under the other reading)"), or its next sentences keep the other value open
    (``_TF_OTHER_ARGUABLE``); the box stated ``value``."""
    head = _TF_AFTER_NOISE.sub(" ", after.split("\n", 1)[0][:200])
    if _TF_QUALIFIED_AFTER.match(head):
        return True
    paragraph = _TF_AFTER_NOISE.sub(" ", after.lstrip().split("\n\n", 1)[0][:400])
    scope = " ".join(_TF_SENTENCES.split(paragraph)[:_TF_LATER_SENTENCES])
    for arguable in _TF_OTHER_ARGUABLE.finditer(scope):
        word = arguable.group("argued") or arguable.group("case") or arguable.group("named")
        if word is None or _truth_word(word.casefold()) is (not value):
            return True
    parenthesis = _TF_AFTER_PARENTHESIS.match(head)
    return parenthesis is not None and _truth_word(parenthesis.group(1).casefold()) is (not value)


def judge_tf(pred: str, gold: str, tolerance: float, question: str | None = None) -> Outcome:
    """The truth value the answer states (:func:`_stated_truth`), when it is neither negated
    nor taken back (:func:`truth_denial`) and, given the ``question``, its explanation does
    not restate the statement with the other value (:func:`_restated_truth`)."""
    gold_v = truth_value(gold)
    if gold_v is None:
        return reject("gold_unparseable:truth")
    pred = _truth_text(pred)
    pred_v = _stated_truth(pred)
    if pred_v is None:  # "True or False", "Not true": no value to negate
        return reject("negated_truth" if _TF_NEGATOR.match(pred) else "unparseable:truth")
    denial = truth_denial(pred)
    if denial is not None:
        return reject(denial)
    if _TF_QUALIFIED.match(pred):  # normalised: \\text{…} wrappers are gone
        return reject("qualified_truth")  # "False (mostly)": true in some cases, says the answer
    if question and _restated_truth(pred, question) is (not pred_v):
        return reject("contradicted_truth")  # "False, the speed is halved": it is, it says
    return accept("truth") if gold_v == pred_v else reject("wrong_truth")


# Words an explanation may add to the statement's own when it restates it ("it is a stable
# equilibrium"), the connectives that introduce a restatement ("i.e.", "since", "indeed":
# "False, i.e. it is stable" restates the statement, so it holds), and the negations that
# turn it over.
_TF_RESTATING = frozenset(
    "a an the it its this that is are was were be does do did so"
    " i e ie eg since because as indeed namely thus hence therefore meaning means which".split()
)
_TF_NOTS = frozenset("not no never nt none neither nor cannot".split())


def _restated_truth(pred: str, question: str) -> bool | None:
    """What an explanation says of the statement when it only restates it: every word of
    it is one of the question's, an article, a pronoun or an auxiliary, or a negation. The
    statement then holds (``False: doubling the speed doubles the time``) unless the
    explanation negates it more often than the question does (``True, the speed is not
    halved``). An explanation with a word of its own (``unstable``) says something else,
    which the rules do not read: None."""
    lead = _TF_LEAD.match(pred.casefold())
    if lead is None:
        return None
    said = _words(_TF_CONTRACTION.sub(" nt", lead.group("rest")), articles=True)
    asked = _words(_TF_CONTRACTION.sub(" nt", question), articles=True)
    content = [w for w in said if w not in _TF_RESTATING and w not in _TF_NOTS]
    if not content or not set(content) <= set(asked):
        return None
    negations = sum(w in _TF_NOTS for w in said) - sum(w in _TF_NOTS for w in asked)
    return negations <= 0


_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


# Signs, relations and operators change what a phrase says (``+x`` / ``-x``, ``T_1 < T_2``,
# ``e^{+}``, ``spin 1/2``): each is kept as a word, never dropped as punctuation.
_SYMBOLS = (("+", " plus "), ("<", " lt "), (">", " gt "), ("/", " over "), ("^", " pow "),
            ("=", " eq "), ("±", " pm "), ("*", " times "))  # fmt: skip
# a prime after a name (S', A'', \prime) and marks that are words (%, a tick, a cross)
_PRIME = re.compile(r"(?:(?<=\b[^\W\d_])|(?<=[}\d]))['\u2032]|\\prime(?![a-zA-Z])")
_MARKS = (("%", " percent "), ("✓", " check "), ("✔", " check "), ("✗", " cross "),
          ("✘", " cross "), ("×", " cross "), ("°", " degree "))  # fmt: skip
_COMPOUND_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # counter-clockwise
_DECIMAL_POINT = re.compile(r"\.(?=\d)")


def _words(text: str, articles: bool = False) -> list[str]:
    """The words of a phrase: case folded, the hyphen of a compound word dropped, a sign, a
    relation, an operator or a decimal point kept as a word; articles dropped unless asked."""
    text = _COMPOUND_HYPHEN.sub("", text.casefold())
    text = re.sub(r"n['\u2019]t\b", " not ", text)  # isn't, doesn't: a negation
    text = _PRIME.sub(" prime ", text)  # S' is not S
    for mark, word in _MARKS:
        text = text.replace(mark, word)
    text = text.replace("-", " minus ")
    text = _DECIMAL_POINT.sub(" point ", text)
    for symbol, word in _SYMBOLS:
        text = text.replace(symbol, word)
    text = re.sub(r"[^\w\s]", " ", text)
    if not articles:
        text = _ARTICLES.sub(" ", text)
    return text.split()


def phrase_key(text: str) -> str:
    """A phrase without what does not change it: case, articles, spacing, punctuation, the
    hyphen of a compound word. A sign, a relation, an operator or a decimal point stays."""
    return "".join(_words(text))


# Words that let a phrase say something else than its other words: negation, contrast,
# alternatives, hedges, conditions. A prediction holding one beside the gold's words is the
# LLM judge's to read, never the rules'.
_QL_HEDGES = frozenset(
    """not no never none nor neither either or but however instead rather unless except
    although though yet maybe perhaps possibly probably might may could whether if cannot
    otherwise versus vs unsure depends depending sometimes until than opposite reverse
    reversed contrary whereas only hardly barely nothing without except neither unlike
    alternatively""".split()
)
# Words that add nothing to the answer's content: pronouns and auxiliaries of a subject ("it
# is", "the clock will").
_QL_FUNCTION_WORDS = frozenset(
    "it its is are was were be been will does do this that they so".split()
)
_QL_AUXILIARIES = frozenset(
    "is are was were does do did will would can could should has have had".split()
)
_QL_LEADS = frozenset("whether if".split())
_ARTICLE_WORDS = frozenset("a an the this its".split())
_CLAUSE_END = re.compile(r"[.?!;:\n]+")
_CHOICE_WORDS = frozenset("or nor either whether versus vs".split())


def _subject(tokens: list[str], start: int) -> set[str]:
    """The noun phrase after the article at ``start``: up to an auxiliary within three words
    ("whether the final image is"), else the one word after it ("is the slab pulled")."""
    after = tokens[start + 1 : start + 4]
    for end, token in enumerate(after):
        if token in _QL_AUXILIARIES:
            return set(after[:end])
    return set(after[:1])


def _offered_words(question: str, gold_words: set[str]) -> set[str]:
    """Words of the question that may name another answer than the gold: every word of a
    clause that offers a choice ("run fast, run slow, or keep correct time"; "upright or
    inverted") except its subject, and every word next to a gold word in the question
    ("an adiabatic expansion" beside the gold "the isothermal expansion")."""
    offered: set[str] = set()
    subject: set[str] = set()
    for clause in _CLAUSE_END.split(question):
        tokens = _words(clause, articles=True)
        if not _CHOICE_WORDS & set(tokens):
            continue
        for index, token in enumerate(tokens):
            leads = index < 4 or (index > 0 and tokens[index - 1] in _QL_LEADS)
            if token in _ARTICLE_WORDS and leads:
                subject |= _subject(tokens, index)
        offered |= set(tokens)
    plain = _words(question)
    for index, token in enumerate(plain):
        if token in gold_words:
            offered.update(plain[max(index - 1, 0) : index + 2])
    return offered - subject - gold_words


def _span(words: list[str], part: list[str]) -> int | None:
    for start in range(len(words) - len(part) + 1):
        if words[start : start + len(part)] == part:
            return start
    return None


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n")


def _asking(question: str) -> str:
    """The sentences that ask: those ending in a question mark, else those that offer a
    choice (``state whether the image is upright or inverted``), else the whole question.
    The others set the scene, and a word taken from them qualifies the answer with a
    condition the question did not ask about (``runs slow at sea level``, where the clock
    keeps correct time at sea level and is asked about on a summit)."""
    sentences = [s for s in _SENTENCE_END.split(question) if s.strip()]
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    if not asking:
        asking = [s for s in sentences if _CHOICE_WORDS & set(_words(s))]
    return " ".join(asking) if asking else question


def _restates_gold(pred: str, gold: str, question: str) -> bool:
    """Whether ``pred`` is the gold phrase with a subject or a restated predicate around it
    (``The clock runs slow``, ``It is pulled into the gap``, ``The isothermal expansion ends
    at the higher temperature``): the gold's words appear together and in order, and every
    other word is a pronoun or auxiliary, or a word of the sentence that asks (:func:`_asking`)
    that offers no other answer, and none negates, contrasts or hedges. A synonym or another
    inflection (``runs slowly``) is not matched here: that is the LLM judge's to read."""
    gold_words, pred_words = _words(gold), _words(pred)
    start = _span(pred_words, gold_words) if gold_words else None
    if start is None:
        return False
    extra = pred_words[:start] + pred_words[start + len(gold_words) :]
    if not extra or any(w in _QL_HEDGES or not w.isalpha() for w in extra):
        return False
    question_words = set(_words(_asking(question)))
    offered = _offered_words(question, set(gold_words))
    return all(w in _QL_FUNCTION_WORDS or (w in question_words and w not in offered) for w in extra)


def judge_ql(pred: str, gold: str, tolerance: float, question: str | None = None) -> Outcome:
    """The same phrase (:func:`phrase_key`), or the gold phrase with a subject taken from the
    ``question`` (:func:`_restates_gold`)."""
    seen = seen_as_asked(pred, gold, question)
    if seen is None:
        return reject("viewpoint")  # "clockwise as seen from the left": not the asked side
    pred, gold = seen
    gold_k, pred_k = phrase_key(gold), phrase_key(pred)
    if not gold_k:
        return reject("gold_unparseable:phrase")
    if "?" in pred and "?" not in gold:
        return reject("hedged_phrase")  # "runs slow?": the phrase put as a question
    if gold_k == pred_k:
        return accept("phrase")
    gold_items, pred_items = _list_items(gold), _list_items(pred)
    if gold_items is not None and pred_items is not None and len(pred_items) > len(gold_items):
        return reject("wrong_phrase")  # "virtual, upright, diminished, real": an item more
    if question and _restates_gold(pred, gold, question):
        return accept("phrase_in_sentence")
    if question and _PRONOUN_SUBJECT.match(gold) and _names_the_pronoun(pred, gold, question):
        return accept("phrase_in_sentence")  # "The period doubles" for "It doubles"
    if gold_items is not None and gold_items == pred_items:
        return accept("phrase_list")  # "upright, virtual and diminished" (red team r27c)
    if _synonym_key(gold) == _synonym_key(pred):
        return accept("phrase_synonym")  # "anticlockwise" for "counterclockwise"
    return reject("wrong_phrase")


# a gold phrase's pronoun subject ("It doubles"): the asked quantity, which an answer may name
_PRONOUN_SUBJECT = re.compile(r"^\s*(?:\\text\s*\{\s*)?(?:it|they)\s+(?=\w)", re.IGNORECASE)


# a condition of the question ("if its length is quadrupled", "If the distance … is doubled,"):
# the quantity it changes is not the one asked about
_CONDITION = re.compile(
    r"\b(?:if|when|after|as|once|whose|with|while|keeping|holding|given|unless)\b[^,?.;]*",
    re.IGNORECASE,
)


def _names_the_pronoun(pred: str, gold: str, question: str) -> bool:
    """Whether ``pred`` is the gold phrase with its pronoun ("It doubles") replaced by the
    asked quantity's name ("The period doubles", red team r35b): the words before the gold's
    others are words of the asking sentence that no condition of the question changes ("if
    its length is quadrupled": not the length) and that offer no other answer."""
    rest = _synonym_key(_PRONOUN_SUBJECT.sub("", gold)).split()
    words = _synonym_key(pred).split()
    if not rest or len(words) <= len(rest) or words[-len(rest) :] != rest:
        return False
    subject = words[: -len(rest)]
    asking = _asking(question)
    allowed = set(_words(_CONDITION.sub(" ", asking))) - set(
        _words(" ".join(_CONDITION.findall(asking)))
    )
    allowed -= _offered_words(question, set(rest))
    return all(
        w.isalpha() and w not in _QL_HEDGES and (w in _QL_FUNCTION_WORDS or w in allowed)
        for w in subject
    )


def _synonym_key(phrase: str) -> str:
    """:func:`phrase_key` with each word read as the first of its synonyms. Another
    inflection ("increase", "electrons" for "an electron") stays another phrase."""
    for pattern, word in _FACTOR_WORDS:
        phrase = pattern.sub(word, phrase)
    words = [_synonym(word) for word in _words(phrase)]
    if len(words) > 1 and words[0] in ("it", "they"):
        words = words[1:]  # "it doubles": "doubles"
    if len(words) > 1 and words[0] in ("all", "both"):
        words = words[1:]  # "they all go out": "go out"
    words = [
        w
        for i, w in enumerate(words)
        if not (w in _MANNER and words[i + 1 : i + 2] in (["up"], ["down"]))
    ]
    return " ".join(words)


# a change by a factor in words of its own: "increases by a factor of 2" doubles, "is
# halved" halves (red team r32b)
_FACTOR_NAMES = {2: "doubles", 3: "triples", 4: "quadruples"}
# the factors named, in digits and in words: "2|two|3|three|4|four"
_FACTOR = "|".join(
    f"{value}|{word}" for word, value in NUMBER_WORD_VALUES.items() if value in _FACTOR_NAMES
)


def _factor_name(written: str) -> str:
    """The verb of a change by the factor ``written`` ("2", "two"): "doubles"."""
    value = int(written) if written.isdigit() else NUMBER_WORD_VALUES[written.casefold()]
    return _FACTOR_NAMES[value]


_FACTOR_WORDS = (
    (
        re.compile(
            r"\b(?:increases|grows|rises|is\s+(?:increased|multiplied))\s+by\s+(?:a\s+)?factor\s+(?:of\s+)?("
            + _FACTOR
            + r")\b",
            re.IGNORECASE,
        ),
        lambda m: _factor_name(m.group(1)),
    ),
    (re.compile(r"\bis\s+(doubl|tripl|quadrupl)ed\b", re.IGNORECASE), lambda m: f"{m.group(1)}es"),
    (
        re.compile(
            r"\b(?:decreases|drops|falls|is\s+(?:reduced|decreased|divided))\s+by\s+(?:a\s+)?factor\s+(?:of\s+)?(?:2|two)\b",
            re.IGNORECASE,
        ),
        "halves",
    ),
    (re.compile(r"\bis\s+(?:halved|cut\s+in\s+half)\b", re.IGNORECASE), "halves"),
    (
        re.compile(
            r"\b(?:is\s+)?multiplied\s+by\s+("
            + _FACTOR
            + r")\b|\b(?:becomes|is)\s+("
            + _FACTOR
            + r")"
            r"\s+times\s+(?:larger|bigger|greater|longer|as\s+(?:large|big|great|long))\b",
            re.IGNORECASE,
        ),
        lambda m: _factor_name(m.group(1) or m.group(2)),
    ),
    # "becomes twice as large", "is twice as long" (red team r36b)
    (
        re.compile(
            r"\b(?:becomes|is)\s+twice\s+(?:as\s+(?:large|big|great|long|high|much)|larger|bigger|greater"
            r"|longer|higher)\b",
            re.IGNORECASE,
        ),
        "doubles",
    ),
    (
        re.compile(
            r"\b(?:drops|falls|is\s+reduced|decreases|becomes)\s+to\s+(?:one\s+)?half(?:\s+(?:its|of\s+its)\s+"
            r"\w+(?:\s+value)?)?\b",
            re.IGNORECASE,
        ),
        "halves",
    ),
    # a fall to a part: "decreases to one-fourth of its original value", "falls by a factor
    # of 4", "is reduced to a quarter" (red team r35b)
    (
        re.compile(
            r"\b(?:drops|falls|is\s+reduced|decreases|becomes|is\s+divided|reduces)\s+(?:to\s+(?:one[\s-]*|a\s+|1\s*/\s*)"
            r"(?P<part>third|quarter|fourth|3|4)(?:\s+(?:of\s+)?(?:its|the)\s+(?:original|initial|previous|former)?"
            r"\s*(?:value|size|amount)?)?|by\s+(?:a\s+)?factor\s+(?:of\s+)?(?P<factor>3|three|4|four))\b",
            re.IGNORECASE,
        ),
        lambda m: (
            "falls_to_"
            + {"third": "3", "quarter": "4", "fourth": "4", "three": "3", "four": "4"}.get(
                (m.group("part") or m.group("factor")).casefold(),
                m.group("part") or m.group("factor"),
            )
        ),
    ),
    # slopes: "downhill" is down the incline
    (re.compile(r"\bdownhill\b", re.IGNORECASE), "down the incline"),
    (re.compile(r"\buphill\b", re.IGNORECASE), "up the incline"),
    # no change: "stays the same", "remains constant", "is unchanged", "does not change"
    (
        re.compile(
            r"\b(?:(?:stays|remains|is)\s+(?:the\s+same|constant|unchanged)|(?:does\s*n[o'’]t|does\s+not)"
            r"\s+change|unchanged|no\s+change)\b",
            re.IGNORECASE,
        ),
        "unchanged",
    ),
)
# a manner word before up or down: "vertically up" is up
_MANNER = frozenset({"vertically", "straight", "directly"})


def _synonym(word: str) -> str:
    """``word`` as the first of its synonyms; a direction's "-wards" as "-ward" ("upwards",
    "towards": red team r33)."""
    if word.endswith("wards"):
        word = word[:-1]
    return _SYNONYMS.get(word, word)


# The same word in the two spellings of English and in the textbooks' synonyms of an image's
# or a rotation's description, a direction or a slope: each read as the first of its group.
_SYNONYMS = {
    word: group.split()[0]
    for group in (
        "counterclockwise anticlockwise ccw acw",
        "clockwise cw",
        "upright erect",
        "diminished reduced smaller",
        "enlarged magnified larger",
        "up upward",
        "down downward",
        "center centre",
        "incline slope ramp",
    )
    for word in group.split()
}
# a comparison's object after a size word: "smaller than the object", "larger than the object"
_THAN_OBJECT = re.compile(r"\bthan\s+(?:the\s+)?object\b", re.IGNORECASE)
# words that make a list's order part of its content ("increases, then decreases")
_ORDERED = frozenset("then before after followed first finally later next".split())
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|\band\b|&)\s*")


def _list_items(phrase: str) -> frozenset[str] | None:
    """The items of a phrase that lists short descriptions ("virtual, upright, diminished"),
    each read with its synonyms as one word, or None: a phrase of one item, a list whose order
    says something, or one with a hedge or a negation."""
    text = _THAN_OBJECT.sub("", phrase)
    items = [_words(item) for item in _ITEM_SPLIT.split(text) if item.strip()]
    if len(items) < 2 or any(not item or len(item) > 2 for item in items):
        return None
    words = [word for item in items for word in item]
    if any(word in _ORDERED or word in _QL_HEDGES for word in words):
        return None
    keys = ["".join(map(_synonym, item)) for item in items]
    return frozenset(keys) if len(set(keys)) == len(keys) else None
