"""A second answer given after the box by the shape of its sentence, not by its words.

"Technically, 3.0 m.", "Best estimate: 0.78 m.", "The real answer is $K = mv^2$.",
"Rigorously: False.", "Formally, option B.": a short lead of words (at most six, no digits)
and then one value and nothing else is a sentence that offers that value as the answer, in
whatever words it leads with. The word lists of :mod:`studybench.verify.restatement` cannot
hold every synonym a policy samples (red team r24a found 26 of 39 openers missing), so the
shape decides. Not a second answer: a lead that states a circumstance or another case ("If
the drag is kept: 3.0 m", "At the top: 0 m/s", "In SI units: …"), that negates, or that
connects to the box ("So", "i.e.": the other readers' sentences), nor a bulleted line of a
list (the noun-line reader's). Narrower than "any labelled statement after the box", which
1.22.0 measured against honest outputs and dropped.
"""

from __future__ import annotations

import re
from functools import lru_cache

# words of a lead that make its sentence about something other than the answer again
_CIRCUMSTANCE = re.compile(
    r"\b(?:if|when|whenever|unless|with|without|for|assuming|ignoring|neglecting|including"
    r"|under|at|on|per|each|than|before|after|during|from|to|halfway|initially|compared"
    r"|versus|vs|instead|other|another|second|first|intermediate|check|checking|given|using"
    r"|case|frame|earth|moon|drag|friction|by|had|would|were|parallel|series|terms|units?"
    r"|kelvin|si|of|so|thus|hence|therefore|equivalently|alternatively|ie|i\.e|or|this|that"
    r"|it|which|also|not|no|never|n['’]t"
    # another model, a limit, an approximation: "Newtonian estimate: 1.94 GeV/c", "Low-speed
    # limit: $\tfrac12 mv^2$" (red team r25b)
    r"|limits?|approximat\w*|classical\w*|newtonian|non-?relativistic|ballpark"
    r"|roughly|about|around|realistic\w*|practically|practice"
    r"|re-?check\w*)\b",
    re.IGNORECASE,
)
# a footnote's mark before the sentence: "¹", "*", "$^{\dagger}$"
_MARK = r"(?:[¹²³⁴⁵*†‡]|\$\^\{?(?:\\dagger|\\ddagger|\*|\d)\}?\$|\\\*)?"
# each word whole and then its spacing (possessive, so no run of letters or hyphens is read
# two ways: a lead of hyphens and letters that fails to match stays linear)
_LEAD = r"(?P<lead>(?:[A-Za-z][A-Za-z'’-]*+[ \t,:—–*_]++){%d,%d}?)"
_OPEN = r"^[ \t>#]*(?:\*\*|__)?" + _MARK + r"[ \t]*"
_NUMBER = r"[-+−]?\d+(?:\.\d+)?(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?[-+−]?\d+\}?)?"
_VALUE_SENTENCE = re.compile(
    _OPEN
    + _LEAD % (1, 6)
    + r"(?:\*\*|__)?\s*\$?\s*(?:\\boxed\{)?(?:[A-Za-z](?:_\{?\w+\}?)?\s*=\s*)?"
    r"(?P<value>" + _NUMBER + r")(?P<unit>(?:\s|\\[,;: ])*(?:\\(?:mathrm|text|rm)\s*"
    r"(?:\{[^{}]{1,20}\}|[A-Za-z]+)|[A-Za-zµμΩ°][A-Za-z/^\d]{0,8}))?"
    r"\s*\}?\s*\$?\s*(?:\*\*|__)?\s*[.!]?\s*$"
)
_TRUTH_SENTENCE = re.compile(
    _OPEN + _LEAD % (0, 8) + r"(?:\*\*|__)?(?P<value>true|false)(?:\*\*|__)?\s*[.!)]?\s*$",
    re.IGNORECASE,
)
_OPTION_SENTENCE = re.compile(
    _OPEN + _LEAD % (1, 6) + r"(?:option|choice)?\s*\(?(?P<value>[A-E])\)?\s*[.!]?\s*$"
)
_EXPRESSION_SENTENCE = re.compile(
    _OPEN
    + _LEAD % (1, 6)
    + r"(?:\*\*|__)?\s*\$\$?\s*(?:(?P<label>\\?[A-Za-z](?:_\{?\w+\}?)?(?:\([a-z]\))?)\s*=\s*)?"
    r"(?P<expression>[^$=]+?)\s*\$\$?\s*(?:\*\*|__)?\s*[.!]?\s*$"
)
_SPACING = re.compile(r"^(?:\s|\\[,;: ])+|\s+$")
_NUMBER_WITH_UNIT = re.compile(
    _NUMBER + r"(?:(?:\s|\\[,;: ])*(?:\\(?:mathrm|text|rm)\s*(?:\{[^{}]*\}|[A-Za-z]+)"
    r"|[A-Za-zµμΩ°][A-Za-z/^\d]{0,8}))?"
)
_SENTENCES = re.compile(r"(?:[^.!?\n]|\.(?=\d))+[.!?]?")
_LIST_ITEM = re.compile(r"^\s*[-*•](?!\*)")
_READ = 1500  # characters after the box


def _sentences(after: str) -> list[tuple[int, int, str]]:
    """The sentences after the box that may offer a value (where each starts and ends): not
    a list's line, with their math closed."""
    found = []
    for match in _SENTENCES.finditer(after[:_READ]):
        sentence = match.group(0).strip()
        if sentence and sentence.count("$") % 2 == 0 and not _LIST_ITEM.match(sentence):
            found.append((match.start(), match.end(), sentence))
    return found


# the words a lead may use to offer an answer again: a lead with a word that is none of these,
# no adverb and no word of the question's asking part names something else ("Speed: 4.0
# m/s." after a velocity, "Battery current: 3.0 A.", "Initial kinetic energy: 8.0 J.",
# "Horizontal component: 17.3 m/s."; red team r26b)
_ANSWER_VOCABULARY = frozenset(
    """the a an is are its my our real true actual correct corrected better best final proper
    answer answers ans result value verdict estimate choice option statement claim more most
    careful refined exact precise formal honest strict speaking really in general short
    truth fact indeed qed sum summary bottom line overall update updated revised revision
    correction edit note ps erratum fix fixed should be read reads equals equal gives give
    yields get gets some texts textbooks books sources recovering recovered restoring factor
    missing dropped forgot forgotten""".split()
)
_MISTAKE = re.compile(r"\b(?:mistake|trap|pitfall|distractor|wrong|error|misconception)\b", re.I)
_WORD = re.compile(r"[a-z]+", re.IGNORECASE)


def _plain_word(word: str) -> str:
    word = word.casefold()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


@lru_cache(maxsize=64)
def _asked_words(asking: str) -> frozenset[str]:
    """The asking part's words, read once for all of an output's sentences."""
    return frozenset(_plain_word(word) for word in _WORD.findall(asking))


def _leads_to_it(match: re.Match[str], asking: str) -> bool:
    """Whether the lead only leads to the value: no circumstance, negation or connective,
    no mistake, and no word that is neither an answer's word, an adverb nor a word of the
    question's asking part."""
    lead = match.group("lead") or ""
    if _CIRCUMSTANCE.search(lead) or _MISTAKE.search(lead):
        return False
    asked = _asked_words(asking)
    return all(
        _plain_word(word) in _ANSWER_VOCABULARY
        or len(word) == 1  # a symbol's label: "T: 1.11e4 s"
        or word.casefold().endswith("ly")
        or _plain_word(word) in asked
        for word in _WORD.findall(lead)
    )


def short_offers(after: str, asking: str = "") -> list[tuple[int, int, str]]:
    """The values (a number with its unit, a truth value, an option) that short sentences
    after the box offer, with where each sentence starts and ends; ``asking`` is the
    question's asking part."""
    found = []
    for start, end, sentence in _sentences(after):
        for pattern in (_VALUE_SENTENCE, _TRUTH_SENTENCE, _OPTION_SENTENCE):
            match = pattern.match(sentence)
            if match is None:
                continue
            if _leads_to_it(match, asking) and (
                pattern is not _OPTION_SENTENCE or match.group("lead")
            ):
                unit = _SPACING.sub("", match.groupdict().get("unit") or "")
                value = match.group("value")
                found.append((start, end, f"{value}\\,{unit}" if unit else value))
            break
    return found


def short_expressions(after: str, asking: str = "") -> list[tuple[str | None, str]]:
    """The (label, expression) pairs that short sentences after the box offer ("Better: $T =
    \\pi\\sqrt{L/g}$."); a function of time (``I(t) = …``) is another statement."""
    found = []
    for _, _, sentence in _sentences(after):
        match = _EXPRESSION_SENTENCE.match(sentence)
        if match is None or not _leads_to_it(match, asking):
            continue
        expression = match.group("expression").strip()
        label = match.group("label")
        if _NUMBER_WITH_UNIT.fullmatch(expression) or not re.search(r"[A-Za-z]", expression):
            continue  # a value, read by :func:`short_offers`
        if not (label and "(" in label):
            found.append((label, expression))
    return found
