"""A qualifier written on a unit: ``120\\ \\mathrm{V_{rms}}``, ``170\\ \\text{V}_{\\text{peak}}``.

Texts on alternating current label a value's kind on its unit. The label is a claim: it is
read (and the unit kept plain) only where the question asks for that kind of value ("Find the
rms voltage": ``V_{rms}``), and left in place otherwise, where no unit reads it and the answer
is refused (``120 V_{peak}`` for the rms value claims the peak is 120 V). Red team r24b.
"""

from __future__ import annotations

import re

from studybench.verify.asking import asking_part

# the kinds of value, with the words a question asks for each
_KINDS = {
    "rms": re.compile(r"\brms\b|root[- ]mean[- ]square|\beffective\b", re.IGNORECASE),
    "peak": re.compile(r"\bpeak\b(?![- ]to[- ]peak)|\bmaximum\b|\bamplitude\b", re.IGNORECASE),
    "pp": re.compile(r"\bpeak[- ]to[- ]peak\b", re.IGNORECASE),
}
_KIND_OF = {
    "rms": "rms",
    "eff": "rms",
    "peak": "peak",
    "pk": "peak",
    "max": "peak",
    "p": "peak",
    "0": "peak",
    "pp": "pp",
}
_QUALIFIER = r"(?P<kind>rms|eff|peak|pk|max|pp|p|0)"
_FONT = r"\\(?:mathrm|text|rm|textrm)\s*"
_SUBSCRIPT = rf"_\s*\{{?\s*(?:{_FONT}\{{\s*)?\\?{_QUALIFIER}\s*\}}?\s*\}}?"
_UNIT = r"[kmMµ]?[VA]"
# inside the unit's group ("\mathrm{V_{rms}}") or after it ("\mathrm{V}_{\text{peak}}")
# a kind in words beside the unit: "\\text{V rms}", "\\text{Vrms}", "\\text{V (rms)}",
# "\\mathrm{V}\\ (\\text{rms})" (red team r27b)
_WORD_KIND = r"(?P<kind3>rms|RMS|peak|eff)"
_QUALIFIED = re.compile(
    rf"(?P<inside>{_FONT}\{{\s*{_UNIT})\s*{_SUBSCRIPT}(?P<close>\s*\}})"
    rf"|(?P<after>{_FONT}\{{\s*{_UNIT}\s*\}})\s*{_SUBSCRIPT.replace('kind', 'kind2')}"
    rf"|(?P<worded>{_FONT}\{{\s*{_UNIT})\s*\(?\s*{_WORD_KIND}\s*\)?(?P<close2>\s*\}})"
    rf"|(?P<grouped>{_FONT}\{{\s*{_UNIT}\s*\}})(?:\s|\\[,;: ])*\(\s*(?:{_FONT}\{{\s*)?"
    rf"{_WORD_KIND.replace('kind3', 'kind4')}\s*\}}?\s*\)",
    re.IGNORECASE,
)


_MAY_QUALIFY = re.compile(r"_|rms|peak|eff", re.IGNORECASE)


def asked_kinds(question: str | None) -> list[str]:
    """The kinds of value the question's asking part asks for, in the order it asks them
    ("Find the peak current and the rms current": peak, rms)."""
    if not question:
        return []
    part = asking_part(question)
    found = sorted(
        (match.start(), kind)
        for kind, words in _KINDS.items()
        for match in [words.search(part)]
        if match is not None
    )
    kinds = [kind for _, kind in found]
    if "pp" in kinds and "peak" in kinds:
        kinds.remove("peak")  # "peak-to-peak" says "peak" too
    return kinds


# a kind claimed by a label's subscript ("V_{\\text{rms}} = 170 V", "I_{\\max} = 2.0 A") or by
# a word right after the box ("\\boxed{170 V} (rms)", "\\boxed{2.0 A} peak")
_LABEL_KIND = re.compile(
    rf"^\s*[VIE]\s*_\s*\{{?\s*(?:{_FONT}\{{\s*)?\\?(?P<kind>rms|eff|peak|pk|max|pp|p|0)\s*\}}?\s*\}}?"
    r"\s*(?:=|\\approx)",
    re.IGNORECASE,
)
_KIND_AFTER = re.compile(
    r"^(?:\s|\\[,;: ]|\$|\\\]|\\\))*(?:\(\s*)?(?:\\text\s*\{\s*)?"
    r"(?:this\s+is\s+(?:the\s+)?)?"
    r"(?P<kind>rms|peak[- ]to[- ]peak|peak|amplitude|effective|maximum)\b",
    re.IGNORECASE,
)
_WORD_KIND_OF = {"amplitude": "peak", "effective": "rms", "maximum": "peak", "max": "peak"}


def claimed_kind(box: str, after: str) -> str | None:
    """The kind of value a box's label or the word right after it claims, or None."""
    for pattern, text in ((_LABEL_KIND, box), (_KIND_AFTER, after[:40])):
        match = pattern.match(text)
        if match is not None:
            word = re.sub(r"[- ]to[- ]", "", match.group("kind").casefold().lstrip("\\"))
            word = "pp" if word == "peakpeak" else word
            return _KIND_OF.get(word) or _WORD_KIND_OF.get(word)
    return None


def without_asked_qualifier(box: str, question: str | None) -> str:
    """``box`` with each unit qualifier the question's asking part asks for taken off its
    unit (``120\\ \\mathrm{V_{rms}}`` for "Find the rms voltage" is 120 V); one it does not
    ask for stays, and no unit reads it."""
    if not question or not _MAY_QUALIFY.search(box):
        return box
    part = asking_part(question)
    asked = {kind for kind, words in _KINDS.items() if words.search(part)}
    if "pp" in asked:
        asked.discard("peak")

    def unqualified(match: re.Match[str]) -> str:
        written = next(
            match.group(g) for g in ("kind", "kind2", "kind3", "kind4") if match.group(g)
        )
        kind = _KIND_OF[written.casefold()]
        if kind not in asked or len(asked) != 1:
            return match.group(0)
        if match.group("inside") is not None:
            return match.group("inside") + match.group("close")
        if match.group("worded") is not None:
            return match.group("worded") + match.group("close2")
        return match.group("after") or match.group("grouped")

    return _QUALIFIED.sub(unqualified, box)
