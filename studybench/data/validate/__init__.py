"""Validation of StudyBench release files, with every problem located and coded.

A file is read once, checked completely (all records, not just up to the first error) and
turned into typed records. Each finding is an :class:`Issue` naming the file, the record
index, the record's ``source_problem_id`` and the field, with a stable machine-readable
``code``. Errors make the file unusable; warnings flag the release's known quirks (format
doc, section 12), each either repaired in a documented way or kept unchanged:

==========================  ========  ====================================================
code                        severity  meaning / action
==========================  ========  ====================================================
invalid-json                error     the file is not JSON (line and column given), nests
                                      deeper than 100 levels or holds a huge integer
bad-shape                   error     top level is neither a list nor ``{"data": [...]}``
not-an-object               error     a record is not a JSON object
missing-field               error     a required field is absent or empty
invalid-field               error     a field has the wrong type
unknown-answer-type         error     ``answer_type`` or a ``type_sequence`` entry is not
                                      one of the nine codes
missing-type-sequence       error     TUP/ALT without ``type_sequence``
non-atomic-type-sequence    error     a composite type inside ``type_sequence``
type-sequence-length        error     ``type_sequence`` length != number of gold boxes
empty-answer                error     the gold answer is empty, or has an empty box
unbalanced-box              error     a ``\\boxed{`` in the gold is never closed
duplicate-slot-key          error     two slots share (source, year, source_problem_id,
                                      problem_id)
answer-list-length          error     an instruction record's per-turn answer lists do not
                                      line up with each other or with its user turns
no-user-turn                error     an instruction record has no user message
turn-order                  error     chat roles do not alternate (system first, then user,
                                      assistant, user, ...)
answer-type-case            warning   ``nv`` / `` NV `` spelled loosely; repaired to ``NV``
comma-list-box              warning   one gold box holds a comma list whose length equals
                                      ``type_sequence``; repaired into one box per element
alt-contains-tup            warning   ALT sequence lists TUP (can never pass the rule
                                      stage); kept, the LLM judge decides
ignored-type-sequence       warning   ``type_sequence`` on an atomic type; repaired (cleared)
unboxed-gold                warning   gold answer has no ``\\boxed{}``; kept
control-character           warning   control characters in a text field; repaired (removed)
problem-type-variant        warning   two spellings of one ``problem_type`` in a file;
                                      repaired to the most frequent spelling
leaked-transcript           warning   problem text contains a pasted chat transcript; kept
empty-question              warning   a sub-problem's own text is empty (the stem is asked)
unknown-field               warning   a key this version does not know; kept
==========================  ========  ====================================================

Nothing is written by validation: repairs apply to the in-memory records only.

One module per concern: :mod:`~.outcome` (issues and loaded files), :mod:`~.reporting`
(locating an issue), :mod:`~.answers` (checks of every record that carries a gold answer or
text), :mod:`~.splits` (test splits), :mod:`~.instructions` (instruction layers) and
:mod:`~.files` (reading a file and dispatching on its kind).
"""

from __future__ import annotations

from studybench.data.validate.files import detect_kind, read_records, validate_file
from studybench.data.validate.outcome import FileKind, Issue, LoadedFile, Severity

__all__ = [
    "FileKind",
    "Issue",
    "LoadedFile",
    "Severity",
    "detect_kind",
    "read_records",
    "validate_file",
]
