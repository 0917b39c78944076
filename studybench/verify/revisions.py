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

A box the model gives as someone else's ("\\boxed{C} per the key; I got D.", "(official),
29.4 J (mine)") is revised the same way: the attribution is a cue, and the model's own
first-person answer a commitment. A model that says it cannot choose ("I'm torn between this
and 125 m/s"), or offers an answer to fall back on ("If that's wrong, then 125 m/s", "Failing
that, A"), has answered with several (:func:`undecided`; red team r30a).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

from studybench.verify.normalize import superscripts_as_powers
from studybench.verify.number_words import (
    NUMBER_WORD_VALUES,
    ORDINAL_WORDS,
    numbers_in_digits,
)

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
    r"|I['’]d\s+(?:\w+\s+)?(?:pick|choose|prefer|say|answer)"
    r"|my\s+(?:vote|pick|bet|gut|guess|choice|preference|instinct|money|final\s+\w+)"
    r"|gut\s+(?:feeling|says|check)|honestly|to\s+be\s+honest|second[-\s]guess\w*"
    r"|oops|whoops|sorry|oh\s+no|looking\s+back|edit|update|double-?check\w*|re-?check\w*"
    r"|I['’]m\s+going\s+with|going\s+with"
    r"|re-?read\w*|(?:up)?on\s+(?:a\s+)?(?:closer|second|further)\s+(?:look|inspection|reading|pass)"
    r"|(?:a\s+)?(?:closer|second)\s+(?:look|pass)|on\s+a\s+re-?count|re-?count\w*|re-?do\w*"
    r"|errat(?:um|a)|p\.\s*s\.|err+|my\s+bad|having\s+re-?(?:considered|checked|thought)"
    r"|thinking\s+(?:about|it\s+over)|though|however|although|on\s+balance|hang\s+on|instinct"
    r"|no\s*[—–]|personally|truthfully|in\s+hindsight|re-?deriv\w*|that\s+said"
    r"|deep\s+down|strictly\s+speaking|then\s+again|failing\s+that|re-?comput\w*|my\s+money"
    r"|if\s+(?:I['’]m|I\s+am)\s+(?:mistaken|wrong)|if\s+I\s+(?:slipped|erred)|if\s+not"
    r"|I\s*(?:['’]ll|['’]d|will|would)\s+(?:\w+\s+)?(?:keep|submit|stand\s+by|trust)"
    # the box said to be someone else's ("per the key; I got D", "(official), 29.4 J (mine)")
    r"|(?:the|answer|an?)\s+key|textbook|rubric|official|grader|solutions?\s+manual|expected\s+answer"
    r"|standard\s+answer|reference\s+(?:answer|solution)|in\s+my\s+(?:view|opinion)|I\s+believe"
    r"|I\s+(?:actually|really|personally)\s+\w+|I\s+got|my\s+own|\(mine\)"
    # "the answer is not C but B": a correction of the box in one sentence
    r"|not\s+(?!only\b)[^,.;:!?\n]{1,40}?,?\s+but"
    # "My earlier estimate was wrong; …", "I meant B"
    r"|(?:my|the)\s+(?:earlier|previous|above|first|boxed)\s+(?:\w+\s+)?(?:was|is)\s+(?:wrong|off|incorrect)"
    r"|I\s+meant|to\s+be\s+safe|trim|final\s+selection|if\s+I\s+must|scratch|strike|make\s+that"
    r"|keep\s+only|swap|should\s+have\s+boxed|I\s+intended|read\s+it\s+as"
    r")(?![A-Za-z])",
    re.IGNORECASE,
)
# a sentence of the revision: split at its end, at "..." and at a line break
_SENTENCE = re.compile(r"(?:[^.!?\n…]|\.(?=\d)|\.(?=\s*[a-z$\\]))+")
# a sentence that states another case or a comparison, not the model's answer: read in the
# commitment's clause and in the sentence before it, back to a contrast ("You might think
# C, but the answer is B": the "might" is not about B)
_OTHER_CASE = re.compile(
    r"\b(?:if|unless|assuming|suppose|supposing|provided|were|had\s+(?:we|I|it|the)|otherwise"
    r"|in\s+case|would(?!\s+(?:rather\s+|instead\s+)?(?:go|stick|settle|opt|pick|choose|prefer"
    r"|say|answer))|could|might|reverse|opposite|compared"
    r"|versus|vs|unlike|when|whenever|other|for\s+an?|on\s+an?|at\s+half|halfway|midpoint"
    r"|(?:at|to|reach(?:es|ing)?)\s+the\s+(?:top|bottom|start|end|highest|lowest)|version|variant"
    r"|scenario|one\s+would|in\s+terms\s+of|with\s+the|halved|doubled|tripled"
    r"|quadrupled|rounded|rounding|the\s+first|the\s+last|partial)\b",
    re.IGNORECASE,
)
# words of an aside (a mistake, other people, a re-check): they make their own clause about
# something else, not the sentence ("Wait, checking it again, the answer is C" commits to C;
# red team r30 "again" hid a revision in the sentence's next clause)
_ASIDE = re.compile(
    r"\b(?:misconceptions?|traps?|pitfalls?|distractors?|naive|careless|tempting|common(?:ly)?"
    r"|again|sanity|students?|people|someone|many|most|they|readers?|make|makes|tries|try|tend"
    r"|tends|you|you['’]d)\b",
    re.IGNORECASE,
)
# where a contrast starts the clause a commitment stands in: what came before is another case
_CONTRAST = re.compile(r"\bbut\b|;|\bhowever\b", re.IGNORECASE)
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
_LABEL = r"(?:\\?[A-Za-zα-ωΑ-Ω]+(?:_\{?\w+\}?)?\s*=\s*)?"
# a commitment in the first person ("I'd go with C", "My vote: C", "I'll change my answer
# to C"): the model's own, whatever else its sentence says ("checking it again, I'd go with
# C"; red team r29a)
_FIRST_PERSON = re.compile(
    r"\b(?:I|I['’](?:d|ll|m)|we|we['’](?:d|ll|re)|my|our)\s+(?:\w+\s+){0,3}?(?:go|going|stick|settle"
    r"|opt|change|changing|lean|leaning|vote|pick|choose|prefer|favou?r|select|answer|bet|guess"
    r"|choice|got|believe|derivation|calculation)\b",
    re.IGNORECASE,
)
_OWN = re.compile(
    r"\bI\b|\bmine\b|\bmy\b|\bwhat\s+the\s+(?:problem|question|author)\s+(?:really\s+)?(?:intends|wants|asks"
    r"|expects|means)",
    re.IGNORECASE,
)
_COMMITMENTS = (
    r"(?:go|going|stick|settle|opt)\s+(?:instead\s+)?(?:with|for|on)\s+(?:just\s+|only\s+)?{p}{c}",
    r"(?:chang|flip|switch)\w*\s+(?:(?:my|the|this|it)\s+)?(?:answer|mind|choice|vote)?\s*to\s+{p}{c}",
    # the model's own answer beside a box it gives as someone else's: "I got D", "I believe
    # it's D", "my own derivation points to A", "29.4 J (mine)", "the value I actually
    # believe is 24 Ω"
    r"\b(?:I|and)\s+(?:(?:actually|really|personally|myself)\s+)?(?:got|get|obtained|found|believe|think)"
    r"\s+(?:(?:it['’]s|it\s+is|that\s+it['’]s|that\s+it\s+is|is)\s+)?{p}{c}",
    r"\bmy\s+(?:own\s+)?(?:derivation|calculation|answer|result|value|work|reasoning|computation"
    r"|estimate)\s+(?:gives|points\s+to|is|yields|says|shows|came\s+out\s+(?:to|as))\s+{p}{c}",
    r"{p}{c}\s*\(\s*mine\s*\)",
    r"{p}{c}\s+(?:is|seems|looks|sounds|feels)\s+(?:more\s+|most\s+|far\s+)?(?:defensible|convincing"
    r"|likely|plausible|persuasive|right|correct|better)\b",
    r"{p}{c}\s+(?:(?:fits|works|matches)\s+(?:better|best)|is\s+mine)\b",
    r"{p}{c}\s+is\s+what\s+I(?:['’]d|\s+would|['’]ll|\s+will)?\s+\w+",
    r"\bmy\s+money['’]?s?\s+(?:is\s+)?on\s+{p}{c}",
    r"\b(?:points?|pointing)\s+(?:me\s+)?(?:at|to)\s+{p}{c}",
    r"\b(?:my\s+)?(?:own\s+)?(?:working|derivation|calculation|reasoning|math|result)\s+(?:says|gives)\s+{p}{c}",
    r"\b(?:mark|trust|defend)\s+{p}{c}",
    # a tuple's element named by its part or symbol: "Oops, (a) is 20.4 m.", "$T_B$ is 28.3 N"
    r"(?:\(\s*[a-h]\s*\)|\bpart\s+\(?[a-h]\)?|\\?[A-Za-z]+_\{?\w+\}?)\s*(?:is|should\s+be|becomes"
    r"|=)\s+(?:really\s+|actually\s+)?{p}{c}",
    # "comes out to 3.3 N", "the loss comes to six joules", "works out at 4.8 J"
    r"\b(?:comes?|came|works?|worked)\s+(?:out\s+)?(?:to|at|as)\s+(?:about\s+|roughly\s+)?{p}{c}",
    # "F ≈ 2400 N, which I'll stand by", "…, is the one I'll keep", "is what I'd submit", "is the
    # equation to use"
    r"{p}{c}\s*,?\s+(?:which|that)\s+I\s*(?:['’]ll|['’]d|will|would)\s+(?:\w+\s+)?(?:stand\s+by|keep"
    r"|submit|go\s+with|stick\s+with|trust)",
    r"{p}{c}\s*,?\s+is\s+(?:what|the\s+(?:one|answer|equation|formula|expression|value|option"
    r"|choice|result|relation))\b(?:\s+(?:that|which))?\s+(?:I\b|to\s+(?:use|mark|pick|choose)\b"
    r"|actually\b|really\b"
    r"|matches\b|fits\b|works\b)",
    r"lean\w*\s+(?:more\s+)?(?:towards?|to)\s+{p}{c}",
    r"(?:vote|pick|bet|choice|preference|guess|instinct|feeling|answer|verdict)\s*(?:is|:|=|goes"
    r"\s+to)\s*{p}{c}",
    # "the correct option would be C.", "my answer would be C.": a conditional read as a
    # commitment only where nothing after it states the condition ("… would be false with
    # air drag" is another case)
    r"(?:\b(?:it|this|that)|\b(?:the|my|our)\s+(?:(?:correct|right|true|real|actual|final)\s+)?"
    r"(?:answer|result|value|statement|claim|option|choice|interval|range|equation|expression"
    r"|relation|vote|pick|verdict))\s+would\s+(?:then\s+|actually\s+|really\s+)?be\s*:?\s*{p}{c}"
    r"\s*[.!]?\s*$",
    r"\b(?:prefer|pick|choose|favou?r|select)\s+(?:just\s+|only\s+)?{p}{c}",
    r"(?:should|must|has\s+to|needs\s+to)\s+(?:instead\s+|actually\s+|really\s+)?(?:be|read"
    r"|have\s+been)\s*:?\s*{p}{c}",
    r"(?:\bit|\bthis|\bthat|\bthe\s+(?:answer|result|value|statement|claim|option|choice|interval"
    r"|range|equation|expression|relation|(?:correct|right|true|real|actual)\s+\w+))"
    r"(?:\s+as\s+(?:written|stated|given))?\s*(?:is|'s|’s|becomes|equals|=|remains|stays)\s+"
    r"(?:really\s+|actually\s+|in\s+fact\s+|then\s+|instead\s+|strictly\s+|simply\s+)?"
    r"(?:(?:roughly|about|approximately|around|nearly|(?:closer|nearer)(?:\s+to)?)\s+)?{p}{c}",
    # "I meant B", "Oops, I meant to write 50 N"
    r"\bI\s+meant(?:\s+to\s+(?:write|say|put|box|type))?\s*:?\s+{p}{c}",
    # narrowing a set of options: "I'll only claim A and E", "trim that to A and E", "Final
    # selection: A.", "If I must commit to a single letter: C", "the answer I stand by is A"
    r"\b(?:only\s+claim|(?:trim|swap|change)\s+(?:that|it|this)\s+(?:down\s+)?(?:to|for)|make\s+(?:that|it)"
    r"(?:\s+just)?|keep\s+only|read\s+it\s+as|should\s+have\s+boxed|(?:what\s+)?I\s+intended\s+(?:to\s+"
    r"(?:enter|write|box|put)\s+)?(?:was|is)|(?:final|my)\s+selection\s*(?:is|:)"
    r"|commit\s+to\s+(?:a\s+single\s+\w+|one)\s*(?:,|:|—)?|(?:answer|one)\s+I\s+(?:stand\s+by|keep)\s+is)"
    r"\s*{p}{c}",
    # "200 N is what the problem intends"
    r"{p}{c}\s+is\s+what\s+the\s+(?:problem|question|author)\s+(?:really\s+)?(?:intends|wants|asks|expects|means)",
    r"\bonly\s+{p}{c}\s+(?:is|are)\s+(?:really\s+|actually\s+)?(?:correct|right|true)\b",
    r"{p}{c}\s+(?:instead\b|stands\b|holds\b|is\s+(?:really\s+|actually\s+|clearly\s+|in\s+fact\s+)?"
    r"(?:more\s+|the\s+)?(?:correct|right|complete"
    r"|accurate|better|answer)\b|(?:looks|seems|sounds)\s+(?:more\s+|most\s+)?(?:plausible|likely"
    r"|right|correct|better)\b)",
    r"(?:^\s*|[,;:—–]\s*(?:but\s+)?|\b(?:so|thus|hence|therefore)\s*,?\s+)(?:it(?:'s|’s|\s+is)\s+)?"
    r"(?:(?:roughly|about|approximately|around|nearly|(?:closer|nearer)(?:\s+to)?)\s+)?{p}{c}"
    r"\s*(?:\([^()]{0,60}\)\s*)?(?:[.!]?\s*$|,\s*(?:since|because)\b)",
    # a correction of one candidate by another: "the answer is not B but C", "not 2.25 J but
    # 4.5 J" (not "not only B but also C", which keeps both)
    r"\bnot\s+(?!only\b)[^,.;:!?]{1,40}?,?\s+but\s+(?:rather\s+|actually\s+|in\s+fact\s+)?{p}{c}",
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
    r"|against|eliminat\w*|rul\w*\s+out|reject\w*|discard\w*|drop\w*)\s+(?:(?!but\b)\w+\s+){0,2}$",
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
# one option or a list of them: "A and C", "A, C and E", "(B) & (D)"
_OPTIONS = (
    r"(?:options?\s+|choices?\s+)?(?-i:(?P<c>\(?[A-H]\)?(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
    r"\(?[A-H]\)?)*))(?![\w'’])"
)
_TRUTH = r"(?P<c>(?:not\s+)?(?:true|false))\b(?!\s+(?:that|value|for|if|when|only|of|in\s+general))"
_INTERVAL = (
    r"(?P<c>(?:\\left\s*)?[\[(]\s*[^\[\]()$,;]{1,40}?\s*,\s*[^\[\]()$,;]{1,40}?\s*"
    r"(?:\\right\s*)?[\])])"
)
_FORMULA = r"\$(?P<c>[^$]{1,200})\$"
_VALUE = (
    r"(?P<c>[-+−]?\d+(?:\.\d+)?(?:\s*(?:\\times|×)\s*10\s*\^\s*\{?\s*[-+−]?\d+\s*\}?)?"
    r"(?:(?:\s|\\[,;: ]|~)*(?:\\(?:mathrm|text|rm)\s*\{[^{}]{1,20}\}|\^\s*\{?\\circ\}?|°"
    r"|[A-Za-zµμΩ](?:[A-Za-z/\d·\-]|\^\{?[-\d]+\}?){0,10}"
    # a unit in words goes on past "per": "metres per second", "metres per second squared"
    r"(?:\s+per\s+[A-Za-z]{1,10}(?:\s+(?:squared|cubed))?){0,2}))?)"
)


# the words of a QL answer's oppositions (a box revised to the opposite word): each group a
# list of word classes that exclude one another
_GROUPS = [
    [frozenset(words.split()) for words in group.split("|")]
    for group in (
        "increase increases increased increasing rises rise grows grow goes_up go_up going_up"
        " larger bigger longer higher greater faster stronger"
        "|decrease decreases decreased decreasing drops drop diminishes diminish shrinks"
        " goes_down go_down going_down smaller shorter lower less slower weaker"
        "|constant unchanged stays_put stays_same remains_same",
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


_SENTENCE_END = re.compile(r"[.!?](?!\d)\s|\n")


# the model says it cannot choose, or offers a fallback: "I'm torn between this and 125 m/s",
# "I can't decide between …", "a coin flip between True and False", "If that's wrong, then
# 125 m/s", "Either could be the intended one", "pick whichever matches" (red team r30a)
_UNDECIDED = re.compile(
    r"\bI(?:['’]m|\s+am)\s+(?:still\s+|honestly\s+|really\s+|genuinely\s+)?(?:torn|split|undecided"
    r"|wavering)\s+between\b|\bI\s+(?:can['’]?t|cannot)\s+(?:decide|choose|pick)\s+between\b"
    r"|\b(?:it['’]?s|it\s+is|this\s+is)\s+(?:honestly\s+|really\s+|basically\s+)?(?:a\s+)?(?:coin[\s-]?"
    r"(?:flip|toss)|toss-?up)\s+(?:for\s+me\s+)?between\b"
    r"|\bI\s+keep\s+going\s+back\s+and\s+forth\b"
    r"|\beither\s+(?:one\s+)?(?:could|might|may)\s+be\s+(?:the\s+)?(?:intended|right|correct)\s+"
    r"(?:one|answer)\b|\bpick\s+whichever\s+(?:one\s+)?(?:matches|is\s+(?:accepted|right|correct))\b"
    r"|\bmy\s+two\s+candidates\s+(?:were|are)\b[^.;!?\n]{0,40}?;?\s*pick\b"
    r"|\bcan['’]?t\s+make\s+up\s+my\s+mind\b|\bof\s+two\s+minds\b|\bsplit\s+\d+\s*/\s*\d+\b"
    r"|\d+\s*%\s*\)?\s*vs\.?\s|\bunsure\s+which\b|\bhedge\s+with\b"
    r"|\bsecond[-\s]best\s+(?:option|answer|choice)\b"
    # "50/50 between A and C", "I can't really separate A from C", "genuinely unsure whether
    # it's A or D", "A and B seem equally defensible", "equal odds", "could be A, could be B",
    # "not confident at all", "I can't resolve which"
    r"|\b50\s*/\s*50\s+between\b|\b(?:can['’]?t|cannot)\s+(?:really\s+)?(?:separate|distinguish|resolve"
    r"|tell)\s+(?:\w+\s+from\b|which\b|between\b)|\bunsure\s+whether\b|\bequally\s+(?:defensible|plausible"
    r"|convincing|valid|good)\b|\bequal\s+odds\b|\bcould\s+be\s+\S+\s*,\s*could\s+be\b"
    r"|\bnot\s+(?:at\s+all\s+)?confident\s+at\s+all\b|\bpicking\s+arbitrarily\b|\bI\s+really\s+don['’]t\s+know\b"
    # "a toss-up for me between", "no strong preference between them", "I can't settle
    # whether" (red team r35a)
    r"|\bno\s+(?:strong|clear|real)\s+preference\s+between\b|\b(?:can['’]?t|cannot)\s+(?:quite\s+)?settle\s+"
    r"(?:whether|which|between|on\s+(?:one|either))\b",
    re.IGNORECASE,
)
# doubt about the answer given, read after the box only (before it, reasoning may go on to
# settle it: "I wouldn't bet on it: deformation converts it to heat"): "I could see an
# argument for false", "A remains a live possibility", "I wouldn't bet on it", "I'm
# genuinely unsure." (red team r35a)
_UNDECIDED_AFTER = re.compile(
    r"(?:\bcould\s+see\s+an?\s+(?:argument|case)\s+for\b"
    r"|\b(?:remains|is\s+still|stays)\s+a\s+(?:live|real|strong|distinct|genuine)\s+(?:possibility|option|contender)\b"
    r"|\bwould(?:\s+not|n['’]?t)\s+(?:bet|put\s+money)\s+on\s+it\b"
    r"|\bI(?:['’]m|\s+am)\s+(?:genuinely|really|honestly|still|quite|just)\s+unsure(?=\s*(?:[.!,;]|$|about\s+"
    r"(?:it|this|that|the\s+answer))))"
    # … unless the sentence goes on to limit or explain it ("only if …, which it is not",
    # "— D double-counts", "but B is certain")
    r"(?![^.!?\n]*(?:\bbut\b|\bonly\s+if\b|—|:|\bbecause\b|\bsince\b|\bwhich\s+it\s+is\s+not\b))",
    re.IGNORECASE,
)
# a fallback answer: "If that's wrong, then 125 m/s.", "If that's not accepted, B.", "Failing
# that, A.": the condition, then a candidate and nothing else to the sentence's end
_FALLBACK = re.compile(
    r"\b(?:if\s+(?:that|this|it)(?:['’]s|\s+is)?\s+(?:wrong|not\s+(?:accepted|right|correct|it)"
    r"|incorrect|rejected|marked\s+wrong|off)|failing\s+that|if\s+(?:I['’]m|I\s+am)\s+(?:mistaken|wrong)"
    r"|if\s+I\s+(?:slipped|erred)(?:\s+somewhere)?|if\s+not|should\s+(?:that|this|it)\s+be\s+(?:off|wrong)"
    r"|in\s+case\s+(?:the\s+grader|that|this|it)\s+\w+|otherwise|if\s+the\s+grader\s+disagrees"
    r"|should\s+\S{1,12}\s+be\s+(?:rejected|wrong|marked\s+wrong)"
    r"|in\s+the\s+event\s+(?:that['’]s|that\s+is|it['’]s|it\s+is)\s+wrong"
    r"|my\s+(?:fallback|backup|second\s+choice|plan\s+b)(?:\s+answer)?\s+(?:is|would\s+be))"
    r"\s*[,:]?\s*(?P<rest>[^.!?\n]{0,40})",
    re.IGNORECASE,
)
_FALLBACK_ANSWER = re.compile(
    r"^(?:then\s+)?(?:(?:try|use|go\s+with|pick|choose|answer|it['’]?s|it\s+is|the\s+answer\s+is)\s+)?"
    r"(?:\$?[-+−]?\d[\d.,]*(?:\s*(?:\\times|×)\s*10\^?\{?[-\d]+\}?)?\$?(?:\s*[A-Za-zµμΩ°/^{}\d\\]{1,12})?"
    r"|\(?[A-H]\)?|true|false|the\s+(?:reverse|opposite))\s*(?:\b(?:if|in\s+case|should|when|for)\b.*)?$",
    re.IGNORECASE,
)
# a list that weighs candidates: "- C: 55%\n- B: 45%", "- 20 m/s (60%)"; an item is an
# option, a truth value or a value (an energy budget's "- kinetic: 60%" weighs no answer)
_WEIGHED = re.compile(
    r"^\s*(?:[-*•]|\d+[.)])\s+(?:\(?[A-H]\)?|true|false|[-+−]?\d[^:(\n%]{0,20}?)\s*(?::\s*|\(\s*)"
    r"\d{1,3}\s*%\s*\)?\s*$",
    re.MULTILINE | re.IGNORECASE,
)


def undecided(tail: str) -> bool:
    """Whether the text after the final box says the model cannot choose between answers, or
    offers one to fall back on, or weighs candidates in a list: then the box is one of
    several answers, a hedge."""
    text = tail[:600]
    if _UNDECIDED.search(text) or _UNDECIDED_AFTER.search(text) or len(_WEIGHED.findall(text)) >= 2:
        return True
    return any(_FALLBACK_ANSWER.match(m.group("rest").strip()) for m in _FALLBACK.finditer(text))


# words after an undecided sentence that settle it: "…, but the units settle it", "so I'll
# take C"
_SETTLED = re.compile(
    r"\b(?:but|however|yet|settl\w*|resolv\w*|decided?|decisive|checking|rules?\s+out|until"
    r"|eliminat\w*|confirms?|shows?|working\s+(?:it\s+)?(?:through|out)"
    r"|after\s+(?:computing|checking|working))\b",
    re.IGNORECASE,
)
# indecision that names candidates, read only in the paragraph before the box: "I'm not sure
# whether it's B or D", "it could honestly be B or D", "neck and neck", "part of me says B"
_UNDECIDED_BEFORE = re.compile(
    r"\b(?:not\s+sure|unsure)\s+whether\b|\bcould\s+(?:honestly\s+|really\s+|just\s+as\s+well\s+)?be"
    r"\s+(?:either\s+)?\(?[A-H]\)?\s+or\s+\(?[A-H]\)?(?![\w'’])|\bneck\s+and\s+neck\b|\bequal\s+weight\b"
    r"|\bpart\s+of\s+me\s+(?:says|thinks|wants)\b",
    re.IGNORECASE,
)
# a paragraph that only heads the answer: "**Final Answer**", "Therefore, the answer is $"
_ANSWER_HEAD = re.compile(
    r"^[\s*#$\\\[]*(?:(?:so|thus|therefore|hence)[\s,]*)?(?:the\s+)?(?:final\s+)?(?:answer|result)?"
    r"(?:\s+is)?[\s*:$\\\[]*$",
    re.IGNORECASE,
)


def undecided_before(before: str) -> bool:
    """Whether the paragraph right before the final box says the model cannot choose ("I
    can't decide between the two; either could be the intended one.", "I keep going back
    and forth between true and false") and nothing after it in that paragraph settles it:
    the box is then one of several answers, as it is where the same words follow the box
    (red team r32b)."""
    paragraphs = [p for p in re.split(r"\n\s*\n", before[-600:]) if not _ANSWER_HEAD.match(p)]
    if not paragraphs:
        return False
    last = paragraphs[-1]
    last = re.split(r"(?i)\bfinal\s+answer\b", last)[0]  # "… Final Answer: \\boxed{…}"
    found = _UNDECIDED.search(last) or _UNDECIDED_BEFORE.search(last)
    return found is not None and _SETTLED.search(last, found.end()) is None


def revision(tail: str) -> str | None:
    """The text after the final box from the first revision cue on, or None."""
    cue = _CUE.search(tail)
    if cue is None:
        return None
    # from the start of the cue's sentence: "$mg - T = ma$ is the one I'll keep" commits
    # before its cue
    start = max((m.end() for m in _SENTENCE_END.finditer(tail, 0, cue.start())), default=0)
    return tail[start:]


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
    if _FIRST_PERSON.search(sentence[: match.start("c")][-80:]) or _OWN.search(match.group(0)):
        return True  # "…, which I'll stand by", "29.4 J (mine)": the model's own
    if asked is not None:
        named = _NAMED_SUBJECT.search(sentence[: match.start("c")])
        if (
            named is not None
            and not _ANSWER_NOUN.fullmatch(named.group("subject"))
            and not asked(named.group("subject"))
        ):
            return False  # "the straight-line distance is …, so 22.4 m": another quantity
    # the commitment's own words are no other case ("the correct option would be C")
    own = " " * (match.end() - match.start())
    sentence = sentence[: match.start()] + own + sentence[match.end() :]
    clause = clause.replace(match.group(0), own)
    before = sentence[: match.start("c")]
    contrast = max((m.end() for m in _CONTRAST.finditer(before)), default=0)
    # nor are the cue's ("On a recount, λ = 0.39 m": "on a" opens no other case here)
    clause, before = _CUE.sub(_blank, clause), _CUE.sub(_blank, before[contrast:])
    return (
        _OTHER_CASE.search(clause) is None
        and _ASIDE.search(clause) is None
        and _OTHER_CASE.search(before) is None
    )


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


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
            # the last one, and of those ending there the longest: "A, C and E", not "C and E"
            return max(found, key=lambda m: (m.end("c"), -m.start("c"))).group("c").strip()
    return None


# an option named by its place or in small letters: "the third option", "option 3", "option
# (c)", "(c)"; read as the letter it names
_PLACES = ORDINAL_WORDS
_NUMBERS = [word for word, value in NUMBER_WORD_VALUES.items() if 1 <= value <= len(_PLACES)]
_OPTION_BY_PLACE = re.compile(
    r"\b(?:the\s+)?(?P<place>" + "|".join(_PLACES) + r")\s+(?:option|choice|alternative)\b"
    r"|\b(?P<noun>option|choice)\s+(?:number\s+|no\.\s*)?(?:(?P<digit>[1-8])|(?P<number>"
    + "|".join(_NUMBERS)
    + r")|\(?(?P<small>[a-h])\)?)(?![\w'’])"
    r"|\((?P<paren>[a-h])\)",
    re.IGNORECASE,
)


def _letter(match: re.Match[str]) -> str:
    """The option ``_OPTION_BY_PLACE`` matched, as "option C"."""
    place, digit, number = match.group("place"), match.group("digit"), match.group("number")
    if place is not None:
        index = _PLACES.index(place.casefold())
    elif digit is not None:
        index = int(digit) - 1
    elif number is not None:
        index = NUMBER_WORD_VALUES[number.casefold()] - 1
    else:
        small = match.group("small") or match.group("paren")
        if small.isupper():
            return match.group(0)  # "option (C)" already reads
        index = ord(small) - ord("a")
    return f"option {chr(ord('A') + index)}"


def last_option(region: str) -> str | None:
    """The option the revision settles on ("I'd go with C", "the third option is right",
    "option (c)"), or the options ("I'd go with just A and C"), as letters; or None."""
    found = _last(_OPTION_BY_PLACE.sub(_letter, region), _OPTIONS)
    return None if found is None else "".join(re.findall(r"[A-H]", found))


# a truth value said in other words: "the statement holds", "the claim fails"
_TRUTH_WORDS = re.compile(
    r"\b(?P<subject>statement|claim|it|this|that)\s+(?:(?P<holds>holds|stands|is\s+(?:correct|right"
    r"|valid))|(?P<fails>fails|does\s*n[o']t\s+hold|is\s+(?:incorrect|wrong|invalid)))\b",
    re.IGNORECASE,
)


OPPOSITE = "opposite"
# a truth value the revision gives as the box's reverse: "Gut says the opposite.", "I'd mark
# it the other way", "mine says otherwise", "the statement does not survive"
_REVERSED = re.compile(
    r"\b(?:I|I['’]d|I['’]m|my|mine|gut|personally|truthfully|honestly)\b[^.!?\n]{0,40}?\b(?:the\s+)?"
    r"(?:opposite|reverse|other\s+way|otherwise)\b"
    # … unless the sentence goes on against it: "Gut says the opposite, but the math says …"
    r"(?![^.!?\n]{0,12}?\b(?:but|however|yet|whereas)\b)",
    re.IGNORECASE,
)


def last_truth(region: str) -> str | None:
    """The truth value the revision settles on ("… so the statement is false", "I'd now say
    the statement holds"), or None."""
    region = _TRUTH_WORDS.sub(
        lambda m: f"{m.group('subject')} is {'true' if m.group('holds') else 'false'}", region
    )
    region = re.sub(
        r"\bstatement\s+(?:does\s*n[o']t|doesn['’]t|fails\s+to)\s+(?:survive|stand)\b",
        "statement is false",
        region,
    )
    region = re.sub(
        r"\bstatement\s+(?:seems|looks)\s+(?:OK|fine|right|correct)\b", "statement is true", region
    )
    found = _last(region, _TRUTH)
    if found is None:
        return OPPOSITE if _REVERSED.search(region) else None
    value = found.casefold().endswith("true")
    if found.casefold().startswith("not"):
        value = not value  # "the statement is not true"
    return "True" if value else "False"


# a phrase's subject and its verb: "the flux decreases", "it actually increases"
_SUBJECT = (
    r"\b(?:it|(?P<subject>the\s+[a-z]+(?:\s+(?!(?:gets|becomes|grows|turns|is|will|ends)\b)[a-z]+)?))"
    r"\s+(?:actually\s+|really\s+|in\s+fact\s+)?(?:(?:gets|becomes|grows|turns|is|will\s+be"
    r"|ends\s+up)\s+)?"
)


def revised_phrase(region: str, box: str, asked: Callable[[str], bool] | None = None) -> str | None:
    """The word of the box's opposition the revision settles on, where it is not the box's
    own ("Actually, it decreases." after "increases"), or None. Besides the commitments of
    the other types, a word said of "it" or of a subject ``asked`` names ("the flux
    decreases", not "the distance decreases") is one."""
    words_in_box = [w.casefold() for w in _WORD.findall(box)]
    box_words = {*words_in_box, *map("_".join, pairwise(words_in_box))}
    for group in _GROUPS:
        own = [c for c in group if c & box_words]
        if len(own) != 1:
            continue
        words = sorted({w for c in group for w in c}, key=len, reverse=True)
        candidate = "(?P<c>" + "|".join(re.escape(w).replace("_", r"\s+") for w in words) + r")\b"
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
                words_said = {"_".join(m.group("c").casefold().split()) for m in said}
                found = None if words_said & own[0] else said[-1].group("c")
                break
        if found is not None:
            return None if "_".join(found.casefold().split()) in own[0] else found
    return None


def last_interval(region: str, asked: Callable[[str], bool] | None = None) -> str | None:
    """The interval the revision settles on, or None."""
    return _last(region.replace("$", " "), _INTERVAL, math=True, asked=asked)


def last_math(region: str, asked: Callable[[str], bool] | None = None) -> str | None:
    """The formula the revision settles on ("so it is $\\sqrt{4gh/3}$ instead"), or None."""
    return _last(region, _FORMULA, math=True, asked=asked)


def values(region: str, asked: Callable[[str], bool] | None = None) -> list[str]:
    """The numbers with a unit the revision commits to, in order ("I'd go with 4.08 s",
    "it's twelve metres"): which of them measure the asked quantity is the caller's to say."""
    found = []
    for sentence in _sentences(region):
        text = numbers_in_digits(sentence.replace("$", " "))
        for match in _committed(text, _VALUE, label=True, asked=asked):
            if not _denied(text, match.start("c"), match.end("c")) and _about_the_answer(
                text, match, asked
            ):
                found.append(match.group("c").strip())
    return found
