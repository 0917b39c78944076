"""MC, TF, QL: the atomic choices (option letters, truth values, short phrases).

Plain string rules: none of them parses LaTeX or imports sympy, so these answer types never
pay for the symbolic machinery.
"""

from __future__ import annotations

import re

from studybench.verify.rules.outcome import Outcome, accept, reject

_MC_WORDS = re.compile(
    r"^(?:the\s+)?(?:correct\s+|final\s+|right\s+|best\s+)?(?:option|choice|answer|ans)"
    r"(?:\s+is)?\s*[:.]?\s*",
    re.IGNORECASE,
)
# the letter after the option's text: "Toward the top of the page (A)" (a capital, so that
# "f(x)" names no option)
_MC_TRAILING = re.compile(r"^(?P<text>.*\S)\s+\((?P<letter>[A-Z])\)\s*\.?\s*$", re.DOTALL)
_MC_HEDGE = re.compile(r"\b(?:or|nor|either|neither|not|unless|except|maybe|perhaps)\b", re.I)
_MC_LEAD = re.compile(r"^\(?([A-Za-z])\s*[).:]\s*\S")
# an option named in the text after a lead: "(A) and (C) are correct" (not "f(x)")
_MC_MARKED = re.compile(r"(?:^|[\s,;/&])\(([A-Za-z])\)")


# options named after the first colon: ", B: correct", "the answer is A", "option C"
_MC_LATER = re.compile(
    r"(?:^|[\s,;(])([A-Z])\s*[:)](?!\S*\d)|\b(?:answer|option|choice)\s+(?:is\s+)?\(?([A-Z])\)?(?![A-Za-z])"
)


def mc_letters(text: str) -> frozenset[str] | None:
    """The options an answer selects: the letters before a colon (``B: 5 m/s``), and every
    option named after it (``A: incorrect, B: correct`` names A and B, so it selects both:
    reading only the first let a box that argues for another option pass)."""
    text = _MC_WORDS.sub("", text.strip())
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


# a box that calls its option false: "(A) is false", "A: incorrect"
_MC_DENIED = re.compile(
    r"\b(?:false|incorrect|wrong|untrue)\b|^\W*\(?[A-Za-z]\)?\s*(?:is\s+)?not\b", re.I
)


# The options a question lists: "(A) real and inverted (B) real and upright ...", each text
# up to the next option's letter or the end of its line.
_OPTION = re.compile(r"(?:^|(?<=\s))\(([A-H])\)\s*(.*?)\s*(?=(?:\s\([A-H]\)\s)|\n|$)")
# what may differ between an option and its text in an answer: spacing, dollars, and
# punctuation at the end; never a decimal point or a comma inside (25 s is not 2.5 s)
_OPTION_NOISE = re.compile(r"[\s$]+")
_OPTION_END = re.compile(r"[.;,:]+$")


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

    return _OPTION_END.sub("", _OPTION_NOISE.sub("", normalize_answer(text))).casefold()


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


def judge_mc(pred: str, gold: str, tolerance: float, question: str | None = None) -> Outcome:
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
    if _MC_DENIED.search(pred) and not _MC_DENIED.search(gold):
        return reject("denied_choice")  # "(A) is false": the box argues against its option
    return accept("choice")


_TRUE = {"true", "t", "yes", "y", "1", "correct", "right", "是", "对", "正确", "√", "✓"}
_FALSE = {"false", "f", "no", "n", "0", "incorrect", "wrong", "否", "错", "错误", "不对", "×", "✗"}


# After the truth word: its explanation. A word that hedges or states the other truth value
# (``True or False``, ``False... actually true``) leaves the answer undecided.
_TF_LEAD = re.compile(r"^\s*(?P<word>[^\W\d_]+|[√✓×✗])(?P<rest>(?:[\s.,;:!()\[\]{}—–-]|$).*)$")
_TF_HEDGES = frozenset(
    """or nor either neither but however although though yet actually maybe perhaps possibly
    probably unclear uncertain unsure partly partially sometimes otherwise
    whether""".split()
)
_TF_WORDS = re.compile(r"[^\W\d_]{2,}|[√✓×✗?]")


def truth_value(text: str) -> bool | None:
    """``True``, ``false.``, ``No``; also a truth word followed by its explanation (``False
    (it is an unstable equilibrium)``, ``False. The period is independent of speed.``) when
    nothing after it hedges or states the opposite truth value."""
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
    later = _TF_WORDS.findall(lead.group("rest"))
    if any(w in _TF_HEDGES or w == "?" or _truth_word(w) is (not value) for w in later):
        return None
    return value


def _truth_word(word: str) -> bool | None:
    if len(word) < 2 and word not in "√✓×✗":
        return None  # "t", "n", "y": a symbol in an explanation, not a truth word
    return True if word in _TRUE else False if word in _FALSE else None


def judge_tf(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_v = truth_value(gold)
    if gold_v is None:
        return reject("gold_unparseable:truth")
    pred_v = truth_value(pred)
    if pred_v is None:
        return reject("unparseable:truth")
    return accept("truth") if gold_v == pred_v else reject("wrong_truth")


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


def _restates_gold(pred: str, gold: str, question: str) -> bool:
    """Whether ``pred`` is the gold phrase with a subject or a restated predicate around it
    (``The clock runs slow``, ``It is pulled into the gap``, ``The isothermal expansion ends
    at the higher temperature``): the gold's words appear together and in order, and every
    other word is a pronoun or auxiliary, or a word of the question that offers no other
    answer, and none negates, contrasts or hedges. A synonym or another inflection (``runs
    slowly``) is not matched here: that is the LLM judge's to read."""
    gold_words, pred_words = _words(gold), _words(pred)
    start = _span(pred_words, gold_words) if gold_words else None
    if start is None:
        return False
    extra = pred_words[:start] + pred_words[start + len(gold_words) :]
    if not extra or any(w in _QL_HEDGES or not w.isalpha() for w in extra):
        return False
    question_words = set(_words(question))
    offered = _offered_words(question, set(gold_words))
    return all(w in _QL_FUNCTION_WORDS or (w in question_words and w not in offered) for w in extra)


def judge_ql(pred: str, gold: str, tolerance: float, question: str | None = None) -> Outcome:
    """The same phrase (:func:`phrase_key`), or the gold phrase with a subject taken from the
    ``question`` (:func:`_restates_gold`)."""
    gold_k, pred_k = phrase_key(gold), phrase_key(pred)
    if not gold_k:
        return reject("gold_unparseable:phrase")
    if gold_k == pred_k:
        return accept("phrase")
    if question and _restates_gold(pred, gold, question):
        return accept("phrase_in_sentence")
    return reject("wrong_phrase")
