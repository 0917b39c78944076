"""A tuple answer whose elements are numbered inside one box.

``\\text{(a) } 8.00\\ \\mathrm{V},\\ \\text{(b) } 2.00\\ \\mathrm{A}``, ``(i)\\ 2T_0 \\quad
(ii)\\ 4T_0 \\quad (iii)\\ 2T_0``, ``\\text{1) } 2.0\\ \\mathrm{m/s}\\ \\ \\text{2) } \\dots``:
the parts of a question answered in order, each after its marker. The markers were read as
part of the first value (``not_a_number``) or the parts, split by spaces only, were too few
(``wrong_count``).

Read as a list only where the markers run in order from the first (a, b, c; i, ii, iii; 1, 2,
3), the first opens the box, each other one follows a separator (a comma, a space, a quad),
and there are as many as the gold has elements. The values are then judged in that order,
as any list is.
"""

from __future__ import annotations

import re

_SEQUENCES = (
    tuple("abcdefgh"),
    ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii"),
    tuple(str(k) for k in range(1, 9)),
)
_MARKER = re.compile(
    r"(?:\\text(?:bf|rm)?\s*\{\s*)?\(?\s*(?P<label>[a-h]|viii|vii|vi|iv|v|iii|ii|i|[1-8])\s*\)"
    r"(?:\s|\\[,;:! ]|~)*(?:\}\s*)?"
)
_SEPARATOR_BEFORE = re.compile(
    r"(?:\s|[,;]|\\q?quad(?![A-Za-z])|\\[,;:! ]|\\\\|~|\\text\s*\{\s*(?:and|,|;)?\s*\})+$"
)


def enumerated_elements(box: str, count: int) -> str:
    """``box`` as a comma list of its numbered elements (see the module's docstring), or as
    written where it is not ``count`` elements numbered in order."""
    opening = len(box) - len(box.lstrip())
    markers = []
    position = 0
    while (marker := _MARKER.search(box, position)) is not None:
        if marker.start() == opening or _SEPARATOR_BEFORE.search(box[: marker.start()]):
            markers.append(marker)
        position = marker.end()
    if len(markers) != count or count < 2 or markers[0].start() != opening:
        return box
    labels = tuple(m.group("label") for m in markers)
    if not any(labels == sequence[:count] for sequence in _SEQUENCES):
        return box
    elements = []
    for index, marker in enumerate(markers):
        end = markers[index + 1].start() if index + 1 < count else len(box)
        element = _SEPARATOR_BEFORE.sub("", box[marker.end() : end]).strip()
        if not element:
            return box
        elements.append(element)
    return ", ".join(elements)
