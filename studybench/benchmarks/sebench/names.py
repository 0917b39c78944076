"""The obfuscated names, generated exactly as the reference package generated them.

One ``random.Random(seed)`` stream (seed 42 in the release) is walked over the top-level
list, then the ``linalg`` list, in their published order (:mod:`.functions`). Each name gets
a length drawn from 5 to 7; even positions are consonants, odd positions vowels; a name
already taken is drawn again. ``random.Random`` with an integer seed, ``randint`` and
``choice`` are stable across CPython versions, so the same seed gives the published mapping
(``array`` → ``yitaf``, ``linalg.inv`` → ``quvohe``) everywhere. A shorter function list (a
``sebench.functions`` setting) still walks the full published order and keeps the names of
the functions it retains, so narrowing the package never renames a function.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from studybench.benchmarks.sebench.functions import LINALG, MAIN

CONSONANTS = "bcdfghjklmnpqrstvwxyz"
VOWELS = "aeiou"
MIN_LENGTH = 5
MAX_LENGTH = 7
REFERENCE_SEED = 42


def _draw(rng: random.Random) -> str:
    length = rng.randint(MIN_LENGTH, MAX_LENGTH)
    return "".join(rng.choice(CONSONANTS if i % 2 == 0 else VOWELS) for i in range(length))


def reference_names(seed: int = REFERENCE_SEED) -> dict[str, str]:
    """``{path: name}`` for all 278 published paths (``mean``, ``linalg.inv``)."""
    rng = random.Random(seed)
    used: set[str] = set()
    names: dict[str, str] = {}
    for path in (*MAIN, *(f"linalg.{name}" for name in LINALG)):
        name = _draw(rng)
        while name in used:
            name = _draw(rng)
        used.add(name)
        names[path] = name
    return names


def obfuscated_names(functions: Iterable[str], seed: int = REFERENCE_SEED) -> dict[str, str]:
    """The names of ``functions`` (each a published path); ``KeyError`` names an unknown one."""
    every = reference_names(seed)
    unknown = sorted(set(functions) - set(every))
    if unknown:
        raise KeyError(f"not in SE-Bench's published function list: {', '.join(unknown)}")
    return {path: every[path] for path in dict.fromkeys(functions)}
