"""TeX and CSS lengths in points, for the rules that ask how small or how far a box is.

A font size of ``0.5pt`` hides a box as surely as ``\\phantom``, and a ``\\kern300pt`` or a
``\\raisebox{100pt}`` moves it off the page; both rules (``visibility``, ``enclosure``) read
the same units with the same table, so one length means one thing wherever it is judged.
"""

from __future__ import annotations

import re

_LENGTH = re.compile(r"^(?P<number>[-+]?(?:\d+\.?\d*|\.\d+))\s*(?P<unit>[a-z]{0,2})$", re.I)
# points per unit; a bare number is read in points
_POINTS = {"": 1.0, "pt": 1.0, "bp": 1.0, "dd": 1.07, "px": 0.75, "sp": 1 / 65536, "mm": 2.85}
_POINTS |= {"cm": 28.45, "in": 72.27, "pc": 12.0, "cc": 12.84, "em": 10.0, "ex": 4.3, "q": 0.71}


def points(spec: str) -> float | None:
    """A TeX length in points, its sign dropped (``0.5cm``: 14.2, ``-300pt``: 300), or
    None for no length a reader can tell (no number, an unknown unit)."""
    length = _LENGTH.match(spec.strip())
    if length is None or length.group("unit").casefold() not in _POINTS:
        return None
    return abs(float(length.group("number"))) * _POINTS[length.group("unit").casefold()]
