"""An answer revised after the final box: "\\boxed{B} … Hmm, on reflection I'd go with C."

A model that boxes one answer and then, in the prose after it, settles on another has not
answered with the box: a grader reads its last word. The readers of
:mod:`studybench.verify.restatement` and :mod:`studybench.verify.short_offers` find a second
value by the shape or the opening words of its sentence; a revision is found by its cue
("wait", "actually", "on second thought", "I'd go with", "lean towards", "my vote",
"correction", …), after which the model's last *commitment* to a candidate of the asked kind
is its answer (red team r27a: 41 of 63 such revisions were rewarded). A commitment is a
phrase that says so ("go with X", "change my answer to X", "X instead", "it should be X",
"the answer is X", "…, so X."), not any mention: reading every candidate after the cue
rejected 64 honest remarks (r28b: "the trap here is (C)", "at the halfway point the speed
is 14.0 m/s"). The candidate is typed by the answer type: an option letter for MC, a truth
value for TF, a word of the box's opposition for QL, an interval for IN, a formula for EQ
and EX, a value with a unit for the numeric types. A commitment in a clause about another
case, a mistake, other people or a comparison is none, unless it is in the first person;
one the sentence denies ("not C", "C is wrong") is none either. The last commitment is
read, so a revision that returns to the box ("… C ignores friction, so B stands") keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from studybench.verify.normalize import superscripts_as_powers

# the cue that opens a revision, where a clause starts
_CUE = re.compile(
    r"(?:^|(?<=[\s.!?;:,(*_—–-]))(?:"
    r"wait|hold\s+on|hmm+|actually|(?:up)?on\s+(?:second|further)\s+(?:thoughts?|look|inspection)"
    r"|(?:up)?on\s+reflection|re-?examin\w*|(?:thinking|thought)\s+(?:about\s+(?:it|this)\s+)?(?:more|again"
    r"|further|twice)|(?:let\s+me|I\s+(?:should|need\s+to|will|'ll|’ll))\s+(?:reconsider|rethink"
    r"|re-think|revisit|think\s+again|change)|re-?consider(?:ing|ed)?|correct(?:ion|ing)"
    r"|scratch\s+that|(?:I|we)\s*(?:would|'d|’d|will|'ll|’ll|shall)\s+(?:rather\s+|instead\s+"
    r"|probably\s+|actually\s+)?(?:go|stick|settle|opt)\s+(?:with|for|on)"
    r"|chang(?:e|ing)\s+(?:my|the)\s+(?:answer|mind|choice)|lean(?:s|ing)?\s+(?:more\s+)?"
    r"(?:towards?|to)|I\s+(?:now\s+)?(?:prefer|favou?r|pick|choose)"
    r"|my\s+(?:vote|pick|bet|gut|guess|choice|preference|instinct|money|final\s+\w+)"
    r"|gut\s+(?:feeling|says|check)|honestly|to\s+be\s+honest|second[-\s]guess\w*"
    r"|oops|whoops|sorry|oh\s+no|looking\s+back|edit|update|double-?check\w*|re-?check\w*"
    r"|I['’]m\s+going\s+with|going\s+with"
    r")(?![A-Za-z])",
    re.IGNORECASE,
)
# a sentence of the revision: split at its end, at "..." and at a line break
_SENTENCE = re.compile(r"(?:[^.!?\n…]|\.(?=\d)|\.(?=\s*[a-z$\\]))+")
# a sentence that states another case, a mistake or a comparison, not the model's answer
_OTHER_CASE = re.compile(
    r"\b(?:if|unless|assuming|suppose|supposing|provided|were|had\s+(?:we|I|it|the)|otherwise"
    r"|in\s+case|would(?!\s+(?:rather\s+|instead\s+)?(?:go|stick|settle|opt|pick|choose|prefer"
    r"|say|answer))|could|might|misconceptions?|traps?|pitfalls?"
    r"|distractors?|naive|careless|tempting|common(?:ly)?|again|reverse|opposite|compared"
    r"|versus|vs|unlike|when|whenever|other|sanity|for\s+an?|on\s+an?|students?|people|someone|many"
    r"|most|they|readers?|make|makes|tries|try|tend|tends|at\s+half|halfway|midpoint"
    r"|(?:at|to|reach(?:es|ing)?)\s+the\s+(?:top|bottom|start|end|highest|lowest)|version|variant"
    r"|scenario|you|you['’]d|one\s+would|in\s+terms\s+of|with\s+the|halved|doubled|tripled"
    r"|quadrupled|rounded|rounding|the\s+first|the\s+last|partial)\b",
    re.IGNORECASE,
)
# where the model commits to a candidate ``{c}`` (a named group ``c``): "I'd go with C",
# "change my answer to C", "lean towards C", "My vote: C", "I pick C", "it should be C",
# "the statement as written is false", "so it is $x$ instead", "C is more complete", "…, so
# C." A candidate mentioned any other way ("the trap is (C)", "at the top the speed is 3 m/s")
# is about something else (red team r28b: 64 honest remarks rejected by a reader of every
# candidate after the cue).
# a noun phrase that is a sentence's subject, not the object of a preposition ("at the surface")
_NOT_AFTER_PREPOSITION = (
    r"(?<!\bat\s)(?<!\bof\s)(?<!\bon\s)(?<!\bin\s)(?<!from\s)(?<!\bto\s)(?<!\bby\s)"
)
_LABEL = r"(?:\\?[A-Za-z]+(?:_\{?\w+\}?)?\s*=\s*)?"
# a commitment in the first person ("I'd go with C", "My vote: C", "I'll change my answer
# to C"): the model's own, whatever else its sentence says ("checking it again, I'd go with
# C"; red team r29a)
_FIRST_PERSON = re.compile(
    r"\b(?:I|I['’](?:d|ll|m)|we|we['’](?:d|ll|re)|my|our)\s+(?:\w+\s+){0,3}?(?:go|going|stick|settle"
    r"|opt|change|changing|lean|leaning|vote|pick|choose|prefer|favou?r|select|answer|bet|guess"
    r"|choice)\b",
    re.IGNORECASE,
)
_COMMITMENTS = (
    r"(?:go|going|stick|settle|opt)\s+(?:instead\s+)?(?:with|for|on)\s+{p}{c}",
    r"chang\w*\s+(?:(?:my|the)\s+)?(?:answer|mind|choice|vote)?\s*to\s+{p}{c}",
    r"lean\w*\s+(?:more\s+)?(?:towards?|to)\s+{p}{c}",
    r"(?:vote|pick|bet|choice|preference|guess|instinct|feeling|answer|verdict)\s*(?:is|:|=|would"
    r"\s+be|goes\s+to)\s*{p}{c}",
    r"\b(?:prefer|pick|choose|favou?r|select)\s+{p}{c}",
    r"(?:should|must|has\s+to|needs\s+to)\s+(?:instead\s+|actually\s+|really\s+)?(?:be|read"
    r"|have\s+been)\s*:?\s*{p}{c}",
    r"(?:\bit|\bthis|\bthat|\bthe\s+(?:answer|result|value|statement|claim|option|choice|interval"
    r"|range|equation|expression|relation|(?:correct|right|true|real|actual)\s+\w+))"
    r"(?:\s+as\s+(?:written|stated|given))?\s*(?:is|'s|’s|becomes|equals|=|remains|stays)\s+"
    r"(?:really\s+|actually\s+|in\s+fact\s+|then\s+|instead\s+|strictly\s+|simply\s+)?{p}{c}",
    r"{p}{c}\s+(?:instead\b|stands\b|holds\b|is\s+(?:more\s+|the\s+)?(?:correct|right|complete"
    r"|accurate|better|answer)\b|(?:looks|seems|sounds)\s+(?:more\s+|most\s+)?(?:plausible|likely"
    r"|right|correct|better)\b)",
    r"(?:^\s*|[,;:]\s*|\b(?:so|thus|hence|therefore)\s*,?\s+)(?:it(?:'s|’s|\s+is)\s+)?{p}{c}"
    r"\s*(?:[.!]?\s*$|,\s*(?:since|because)\b)",
    # the asked quantity named by its noun ("Hold on, the time is 1.53 s", "Upon reflection,
    # the extension is $mg/2k$"): only where the question asks for it (``asked``)
    _NOT_AFTER_PREPOSITION
    + r"\bthe\s+(?P<subject>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|should\s+be|must\s+be|=|becomes)\s+"
    r"(?:really\s+|actually\s+|in\s+fact\s+|then\s+)?{p}{c}",
)


@lru_cache(maxsize=64)
def _commitment_patterns(candidate: str, label: bool) -> tuple[re.Pattern[str], ...]:
    """``_COMMITMENTS`` for one kind of candidate, compiled once."""
    prefix = _LABEL if label else ""
    return tuple(
        re.compile(t.replace("{p}", prefix).replace("{c}", candidate), re.IGNORECASE)
        for t in _COMMITMENTS
    )


def _committed(
    sentence: str, candidate: str, label: bool = False, asked: Callable[[str], bool] | None = None
) -> list[re.Match[str]]:
    """The candidates (pattern ``candidate`` with a group ``c``) that ``sentence`` commits to;
    one said of a quantity's noun only where ``asked`` names it."""
    found = []
    for pattern in _commitment_patterns(candidate, label):
        for match in pattern.finditer(sentence):
            subject = match.groupdict().get("subject")
            if subject is None or (asked is not None and asked(subject)):
                found.append(match)
    return sorted(found, key=lambda m: m.start("c"))


def _denied(sentence: str, start: int, end: int) -> bool:
    return bool(
        _DENIED_BEFORE.search(sentence[:start]) or _DENIED_AFTER.match(sentence[end : end + 40])
    )


# words before a candidate that deny it: "not C", "rather than C", "instead of $x$", "over C"
_DENIED_BEFORE = re.compile(
    r"\b(?:not|n['’]t|never|nor|rather\s+than|instead\s+of|unlike|over|than|except|excluding"
    r"|against|eliminat\w*|rul\w*\s+out|reject\w*|discard\w*|drop\w*)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
# words after a candidate that deny it: "C is wrong", "C fails", "(C) can be ruled out"
_DENIED_AFTER = re.compile(
    r"^(?:\s*\)?\s*(?:,|and|or|&|,\s*and)\s*\(?[A-H]\)?)*"  # a list: "A and C are both wrong"
    r"\s*\)?\s*,?\s*(?:which\s+)?(?:is|are|was|would\s+be|can\s+be|seems?)?\s*(?:\w+\s+)?"
    r"(?:wrong|incorrect|false|invalid|out\b|ruled\s+out|eliminated|excluded|rejected"
    r"|a\s+(?:trap|mistake|distractor)|fails?|ignores?|neglects?|misses|omits|implausible"
    r"|unphysical|tempting)",
    re.IGNORECASE,
)
_MATH = re.compile(r"\$\$?([^$]{1,200}?)\$\$?|\\\((.{1,200}?)\\\)|\\\[(.{1,200}?)\\\]", re.DOTALL)
_OPTION = r"(?:option\s+|choice\s+)?\(?(?-i:(?P<c>[A-H]))\)?(?![\w'’])"
_TRUTH = r"(?P<c>(?:not\s+)?(?:true|false))\b(?!\s+(?:that|value|for|if|when|only|of|in\s+general))"
_INTERVAL = (
    r"(?P<c>(?:\\left\s*)?[\[(]\s*[^\[\]()$,;]{1,40}?\s*,\s*[^\[\]()$,;]{1,40}?\s*"
    r"(?:\\right\s*)?[\])])"
)
_FORMULA = r"\$(?P<c>[^$]{1,200})\$"
_VALUE = (
    r"(?P<c>[-+−]?\d+(?:\.\d+)?(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?\s*[-+−]?\d+\s*\}?)?"
    r"(?:(?:\s|\\[,;: ]|~)*(?:\\(?:mathrm|text|rm)\s*\{[^{}]{1,20}\}|\^\s*\{?\\circ\}?|°"
    r"|[A-Za-zµμΩ](?:[A-Za-z/\d·\-]|\^\{?[-\d]+\}?){0,10}))?)"
)


# the words of a QL answer's oppositions (a box revised to the opposite word): each group a
# list of word classes that exclude one another
_GROUPS = [
    [frozenset(words.split()) for words in group.split("|")]
    for group in (
        "increase increases increased increasing rises rise grows grow"
        "|decrease decreases decreased decreasing drops drop diminishes diminish shrinks"
        "|constant unchanged",
        "clockwise|counterclockwise anticlockwise counter-clockwise anti-clockwise",
        "attractive attract attracts|repulsive repel repels",
        "upward upwards|downward downwards",
        "toward towards|away",
        "real|virtual",
        "upright erect|inverted",
        "enlarged magnified larger|diminished reduced smaller",
        "converging|diverging",
        "higher|lower",
        "faster|slower",
        "north|south",
        "east|west",
    )
]
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


def revision(tail: str) -> str | None:
    """The text after the final box from the first revision cue on, or None."""
    cue = _CUE.search(tail)
    return None if cue is None else tail[cue.start() :]


def _sentences(region: str) -> list[str]:
    """The revision's sentences."""
    return [s for s in _SENTENCE.findall(superscripts_as_powers(region)) if s.strip()]


_CLAUSE_MARK = re.compile(r"[,;:—–]")


# the quantity a sentence is about: "the time to reach the top is …", "the first 10.0 m take …"
_NAMED_SUBJECT = re.compile(
    _NOT_AFTER_PREPOSITION + r"\bthe\s+(?P<subject>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,5}?)\s+"
    r"(?:is|are|was|takes?|equals|=)\b",
    re.IGNORECASE,
)


# the answer named as such: "the interval is …", "the correct form is …"
_ANSWER_NOUN = re.compile(
    r"(?:(?:correct|right|true|real|actual|final|better)\s+)?(?:answer|result|value|statement|claim"
    r"|option|choice|interval|range|equation|expression|relation|form|one)",
    re.IGNORECASE,
)


def _about_the_answer(
    sentence: str, match: re.Match[str], asked: Callable[[str], bool] | None = None
) -> bool:
    """Whether a commitment states the model's answer: one in the first person does; any
    other only where its clause is about no other case, mistake or comparison (``_OTHER_CASE``:
    "at the halfway point the speed is 14.0 m/s", "if the surface were rough, C")."""
    start = max((m.end() for m in _CLAUSE_MARK.finditer(sentence, 0, match.start("c"))), default=0)
    close = _CLAUSE_MARK.search(sentence, match.end("c"))
    clause = sentence[start : close.start() if close else len(sentence)]
    if _FIRST_PERSON.search(sentence[: match.start("c")][-80:]):
        return True
    if asked is not None:
        named = _NAMED_SUBJECT.search(sentence[: match.start("c")])
        if (
            named is not None
            and not _ANSWER_NOUN.fullmatch(named.group("subject"))
            and not asked(named.group("subject"))
        ):
            return False  # "the straight-line distance is …, so 22.4 m": another quantity
    return (
        _OTHER_CASE.search(clause) is None
        and _OTHER_CASE.search(sentence[: match.start("c")]) is None
    )


def _without_math(sentence: str) -> str:
    """The sentence with its math blanked (a letter in math is a symbol, no option)."""
    return _MATH.sub(lambda m: " " * len(m.group(0)), sentence)


def _last(
    region: str,
    candidate: str,
    math: bool = False,
    label: bool = False,
    asked: Callable[[str], bool] | None = None,
) -> str | None:
    """The last candidate the revision commits to, not denied where it stands."""
    for sentence in reversed(_sentences(region)):
        text = sentence if math else _without_math(sentence)
        found = [
            m
            for m in _committed(text, candidate, label, asked)
            if not _denied(text, m.start("c"), m.end("c")) and _about_the_answer(text, m, asked)
        ]
        if found:
            return found[-1].group("c").strip()
    return None


def last_option(region: str) -> str | None:
    """The option the revision settles on ("I'd go with C"), or None."""
    return _last(region, _OPTION)


def last_truth(region: str) -> str | None:
    """The truth value the revision settles on ("… so the statement is false"), or None."""
    found = _last(region, _TRUTH)
    if found is None:
        return None
    value = found.casefold().endswith("true")
    if found.casefold().startswith("not"):
        value = not value  # "the statement is not true"
    return "True" if value else "False"


# a phrase's subject and its verb: "the flux decreases", "it actually increases"
_SUBJECT = (
    r"\b(?:it|(?P<subject>the\s+[a-z]+(?:\s+[a-z]+)?))\s+(?:actually\s+|really\s+|in\s+fact\s+)?"
)


def revised_phrase(region: str, box: str, asked: Callable[[str], bool] | None = None) -> str | None:
    """The word of the box's opposition the revision settles on, where it is not the box's
    own ("Actually, it decreases." after "increases"), or None. Besides the commitments of
    the other types, a word said of "it" or of a subject ``asked`` names ("the flux
    decreases", not "the distance decreases") is one."""
    box_words = {w.casefold() for w in _WORD.findall(box)}
    for group in _GROUPS:
        own = [c for c in group if c & box_words]
        if len(own) != 1:
            continue
        words = sorted({w for c in group for w in c}, key=len, reverse=True)
        candidate = "(?P<c>" + "|".join(map(re.escape, words)) + r")\b"
        found = _last(region, candidate, asked=asked)
        for sentence in reversed(_sentences(region) if found is None else []):
            plain = _without_math(sentence)
            said = [
                m
                for m in re.finditer(_SUBJECT + candidate, plain, re.IGNORECASE)
                if (m.group("subject") is None or asked is None or asked(m.group("subject")))
                and _about_the_answer(plain, m, asked)
            ]
            if said:
                words_said = {m.group("c").casefold() for m in said}
                found = None if words_said & own[0] else said[-1].group("c")
                break
        if found is not None:
            return None if found.casefold() in own[0] else found
    return None


def last_interval(region: str, asked: Callable[[str], bool] | None = None) -> str | None:
    """The interval the revision settles on, or None."""
    return _last(region.replace("$", " "), _INTERVAL, math=True, asked=asked)


def last_math(region: str, asked: Callable[[str], bool] | None = None) -> str | None:
    """The formula the revision settles on ("so it is $\\sqrt{4gh/3}$ instead"), or None."""
    return _last(region, _FORMULA, math=True, asked=asked)


def values(region: str, asked: Callable[[str], bool] | None = None) -> list[str]:
    """The numbers with a unit the revision commits to, in order ("I'd go with 4.08 s"):
    which of them measure the asked quantity is the caller's to say."""
    found = []
    for sentence in _sentences(region):
        text = sentence.replace("$", " ")
        for match in _committed(text, _VALUE, label=True, asked=asked):
            if not _denied(text, match.start("c"), match.end("c")) and _about_the_answer(
                text, match, asked
            ):
                found.append(match.group("c").strip())
    return found
