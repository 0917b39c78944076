"""The side a rotation is seen from: part of a clockwise answer, never a description.

"Counterclockwise as seen from below" is clockwise seen from above. A sense of rotation
means nothing without the side it is seen from, and a question about a loop or a wheel
fixes one ("Viewed from above, is the induced current clockwise or counterclockwise?").
An answer that names a side of its own, inside the box or in the words right after it, is
judged seen from the question's side: the same side changes nothing, the opposite side
turns the sense round, and any other side (or one the question does not fix) leaves a
claim the rules cannot check, so the phrase stays and the answer is no match (red team
r30b: 1.26.0 ignored "(when viewed from below)" after a counterclockwise box, and rejected
"clockwise, as seen from below", the gold seen from the other side).
"""

from __future__ import annotations

import re

from studybench.verify.asking import MAX_QUESTION_CHARS
from studybench.verify.closing_remarks import LEAD

# each side a rotation is seen from, with the words that name it; each pair of sides faces
# the other
_SIDES = {
    "above": "above top overhead ceiling",
    "below": "below beneath underneath bottom under floor ground underside",
    "front": "front",
    "behind": "behind back rear",
    "left": "left",
    "right": "right",
    "+z": "+z",
    "-z": "-z",
}
_OPPOSITE = {
    "above": "below",
    "below": "above",
    "front": "behind",
    "behind": "front",
    "left": "right",
    "right": "left",
    "+z": "-z",
    "-z": "+z",
}
_SIDE_OF = {word: side for side, words in _SIDES.items() for word in words.split()}
_SIDE_WORDS = "|".join(sorted((re.escape(w) for w in _SIDE_OF), key=len, reverse=True))
# "(when) viewed from above", "as seen from the top", "looking down from above", "seen from
# the +z axis", "from above" after a sense of rotation; "looking down (on the loop)" is seen
# from above, "looking up" from below
_VIEW = re.compile(
    r"(?:,[ \t]*|[ \t]*[(—–-]+[ \t]*|[ \t]+)?(?:(?:when|as|if|being)\s+)?"
    r"(?:(?:viewed|seen|looked\s+at|observed|looking(?:\s+(?:down|up))?)\s+"
    r"(?:(?:down|up)\s+)?(?:(?:from|on)\s+)?(?:(?:directly|straight|right)\s+)?(?:the\s+)?"
    r"(?P<side>" + _SIDE_WORDS + r")"
    r"|(?P<view>top|bottom|underside|overhead)\s+view"
    r"|(?:(?:viewed|seen)\s+)?(?:looking|viewed|seen)\s+(?P<way>down|up)(?:wards?)?"
    r"(?:\s+(?:on|at|onto|into|from)\s+(?:the\s+)?[a-z]+)?(?:\s+from\s+(?:the\s+)?(?:"
    + _SIDE_WORDS
    + r"))?"
    r"|(?<=clockwise)\s+from\s+(?:the\s+)?(?P<after>" + _SIDE_WORDS + r"))"
    r"(?:\s+(?:side|axis|of\s+the\s+(?:page|loop|coil|ring|disk|disc|wheel|table|plane)))?"
    r"(?:\s+(?:of\s+)?(?:the\s+)?(?:page|loop|coil|ring|disk|disc|wheel|table|plane))?"
    r"(?![\w+-])\s*\)?",
    re.IGNORECASE,
)
_TURNS = re.compile(r"\b(?P<counter>(?:counter|anti)[\s-]*)?clockwise\b", re.IGNORECASE)
# what may follow the phrase read with the box: the end of its remark or sentence
_NEXT_SENTENCE = re.compile(
    r"^[.,;]?\s*(?P<sentence>(?:this|that|it|here)\b[^.!?\n]{0,100})", re.IGNORECASE
)
_CLOSES = re.compile(r"\s*(?:$|[).;!\n$]|\\|,)")


def _side(match: re.Match[str]) -> str:
    word = match.group("side") or match.group("after") or match.group("view")
    if word is not None:
        return _SIDE_OF[re.sub(r"\s+", "", word.casefold())]
    return "above" if match.group("way").casefold() == "down" else "below"


def viewpoint(text: str) -> tuple[str, str | None]:
    """``text`` without the phrase that names the side it is seen from, and that side; the
    text unchanged and None where it names none, or several."""
    found = list(_VIEW.finditer(text))
    if len(found) != 1:
        return text, None
    match = found[0]
    return (text[: match.start()] + " " + text[match.end() :]).strip(" ,"), _side(match)


def question_viewpoint(question: str | None) -> str | None:
    """The one side the question sees its rotation from, or None."""
    if not question:
        return None
    sides = {_side(m) for m in _VIEW.finditer(question[:MAX_QUESTION_CHARS])}
    return sides.pop() if len(sides) == 1 else None


def turned(text: str) -> str:
    """``text`` with each sense of rotation turned round (clockwise <-> counterclockwise)."""
    return _TURNS.sub(
        lambda m: "clockwise" if m.group("counter") else "counterclockwise",
        text,
    )


def seen_as_asked(pred: str, gold: str, question: str | None) -> tuple[str, str] | None:
    """The prediction and gold phrases seen from one side, or None where they cannot be:
    the prediction names a side and neither the gold nor the question fixes one to compare
    it with, or it names a side that is neither the same nor the opposite one. A phrase with
    no side, or with no sense of rotation, is left as written."""
    pred_text, pred_side = viewpoint(pred)
    gold_text, gold_side = viewpoint(gold)
    if pred_side is None and gold_side is None:
        return pred, gold
    if not _TURNS.search(pred_text) or not _TURNS.search(gold_text):
        return pred, gold
    asked = gold_side or question_viewpoint(question)
    if pred_side is None:
        return pred_text, gold_text  # the gold's side is the question's: the same claim
    if asked is None:
        return None
    if pred_side == asked:
        return pred_text, gold_text
    if _OPPOSITE[pred_side] == asked:
        return turned(pred_text), gold_text
    return None


def viewpoint_after(box: str, after: str) -> str:
    """``box`` with the side the text right after it sees the rotation from ("\\\\boxed{
    \\\\text{counterclockwise}} (when viewed from below)") written inside it; unchanged where
    the box names no sense of rotation or the text after it names no side."""
    if not _TURNS.search(box):
        return box
    head = LEAD.match(after)
    text = after[head.end() if head else 0 :][:80]
    match = _VIEW.match(text)
    if match is None or _CLOSES.match(text, match.end()) is None:
        # "This is the sense as seen from below the table.": a sentence of its own that
        # says the box's side and names no sense of its own
        sentence = _NEXT_SENTENCE.match(text)
        found = _VIEW.search(sentence.group("sentence")) if sentence else None
        if found is None or _TURNS.search(sentence.group("sentence")):  # type: ignore[union-attr]
            return box
        match = found
    side = _side(match)
    return f"{box}\\text{{ seen from {side}}}"
