"""MC, TF, QL: the atomic choices (option letters, truth values, short phrases).

Plain string rules: none of them parses LaTeX or imports sympy, so these answer types never
pay for the symbolic machinery.
"""

from __future__ import annotations

import re

from studybench.verify.rules.outcome import Outcome, accept, reject

_MC_WORDS = re.compile(r"^(?:option|choice|answer|ans)\s*[:.]?\s*", re.IGNORECASE)
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
    return None


def judge_mc(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_l = mc_letters(gold)
    pred_l = mc_letters(pred)
    if gold_l is None or pred_l is None:
        equal = pred.strip().casefold() == gold.strip().casefold()
        return accept("equal") if equal else reject("unparseable:choice")
    return accept("choice") if gold_l == pred_l else reject("wrong_choice")


_TRUE = {"true", "t", "yes", "y", "1", "correct", "right", "是", "对", "正确", "√", "✓"}
_FALSE = {"false", "f", "no", "n", "0", "incorrect", "wrong", "否", "错", "错误", "不对", "×", "✗"}


def truth_value(text: str) -> bool | None:
    word = re.sub(r"[\s.!。()\[\]{}]+", "", text).casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return None


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
_COMPOUND_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # counter-clockwise
_DECIMAL_POINT = re.compile(r"\.(?=\d)")


def phrase_key(text: str) -> str:
    """A phrase without what does not change it: case, articles, spacing, punctuation, the
    hyphen of a compound word. A sign, a relation, an operator or a decimal point stays."""
    text = _COMPOUND_HYPHEN.sub("", text.casefold())
    text = text.replace("-", " minus ")
    text = _DECIMAL_POINT.sub(" point ", text)
    for symbol, word in _SYMBOLS:
        text = text.replace(symbol, word)
    text = re.sub(r"[^\w\s]", " ", text)
    text = _ARTICLES.sub(" ", text)
    return re.sub(r"\s+", "", text)


def judge_ql(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_k, pred_k = phrase_key(gold), phrase_key(pred)
    if not gold_k:
        return reject("gold_unparseable:phrase")
    return accept("phrase") if gold_k == pred_k else reject("wrong_phrase")
