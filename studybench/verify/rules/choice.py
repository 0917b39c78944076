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


def mc_letters(text: str) -> frozenset[str] | None:
    text = _MC_WORDS.sub("", text.strip())
    lead = _MC_LEAD.match(text)
    if ":" in text:  # "B: 5 m/s", "(A), (C): both": the letters are before the first colon
        text = text.split(":", 1)[0]
    tokens = [t.strip("()[]{}.") for t in re.split(r"[\s,;/&]+|\band\b", text) if t.strip()]
    if tokens and all(re.fullmatch(r"[A-Za-z]", t) for t in tokens):
        return frozenset(t.upper() for t in tokens)
    if lead is not None:  # the lead and every other option the text names: none is dropped
        named = {letter.upper() for letter in _MC_MARKED.findall(text)}
        return frozenset({lead.group(1).upper()} | named)
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


def phrase_key(text: str) -> str:
    text = text.casefold().replace("-", "")
    text = re.sub(r"[^\w\s]", " ", text)
    text = _ARTICLES.sub(" ", text)
    return re.sub(r"\s+", "", text)


def judge_ql(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_k, pred_k = phrase_key(gold), phrase_key(pred)
    if not gold_k:
        return reject("gold_unparseable:phrase")
    return accept("phrase") if gold_k == pred_k else reject("wrong_phrase")
