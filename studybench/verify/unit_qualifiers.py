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
_QUALIFIED = re.compile(
    rf"(?P<inside>{_FONT}\{{\s*{_UNIT})\s*{_SUBSCRIPT}(?P<close>\s*\}})"
    rf"|(?P<after>{_FONT}\{{\s*{_UNIT}\s*\}})\s*{_SUBSCRIPT.replace('kind', 'kind2')}"
)


def without_asked_qualifier(box: str, question: str | None) -> str:
    """``box`` with each unit qualifier the question's asking part asks for taken off its
    unit (``120\\ \\mathrm{V_{rms}}`` for "Find the rms voltage" is 120 V); one it does not
    ask for stays, and no unit reads it."""
    if not question or "_" not in box:
        return box
    part = asking_part(question)
    asked = {kind for kind, words in _KINDS.items() if words.search(part)}
    if "pp" in asked:
        asked.discard("peak")

    def unqualified(match: re.Match[str]) -> str:
        kind = _KIND_OF[(match.group("kind") or match.group("kind2")).casefold()]
        if kind not in asked or len(asked) != 1:
            return match.group(0)
        if match.group("inside") is not None:
            return match.group("inside") + match.group("close")
        return match.group("after")

    return _QUALIFIED.sub(unqualified, box)
