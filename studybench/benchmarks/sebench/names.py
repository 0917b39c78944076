"""Seeded, pronounceable, collision-free names for the obfuscated package's functions.

A name is derived from a hash of (seed, function path, attempt) rather than from a random
generator's stream, so a function's name depends only on the seed and on itself (and on a
collision, if one happens): the same seed always gives the same names on every Python
version, and adding a function to the list does not rename the others.
"""

from __future__ import annotations

import builtins
import hashlib
import keyword
from collections.abc import Iterable, Sequence

CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"
MIN_LENGTH = 5
MAX_LENGTH = 7

# Python itself must keep its meaning: no keyword, soft keyword or builtin is ever a name.
PYTHON_RESERVED = frozenset(
    [*keyword.kwlist, *keyword.softkwlist, *(n.lower() for n in dir(builtins))]
)


def candidate(seed: int, path: str, attempt: int) -> str:
    """The ``attempt``-th candidate name of ``path`` under ``seed``: consonants and vowels
    alternate (starting with either), 5 to 7 letters."""
    digest = hashlib.sha256(f"{seed}\0{path}\0{attempt}".encode()).digest()
    length = MIN_LENGTH + digest[0] % (MAX_LENGTH - MIN_LENGTH + 1)
    vowel = bool(digest[1] & 1)
    letters = []
    for byte in digest[2 : 2 + length]:
        alphabet = VOWELS if vowel else CONSONANTS
        letters.append(alphabet[byte % len(alphabet)])
        vowel = not vowel
    return "".join(letters)


def obfuscated_names(
    functions: Sequence[str], seed: int, reserved: Iterable[str] = ()
) -> dict[str, str]:
    """``{function path: new name}`` for every path (``mean``, ``linalg.inv``), all names
    distinct from each other, from ``reserved`` and from Python's keywords and builtins.

    Collisions are resolved in sorted path order, so the result depends on the set of
    functions and the seed only, never on the order of ``functions``."""
    taken = set(PYTHON_RESERVED) | {name.lower() for name in reserved}
    names: dict[str, str] = {}
    for path in sorted(set(functions)):
        attempt = 0
        name = candidate(seed, path, attempt)
        while name in taken:
            attempt += 1
            name = candidate(seed, path, attempt)
        taken.add(name)
        names[path] = name
    return names
