"""A deliberately different verifier: the installed rules, with every verdict of one answer
type turned over and its own version. The stored runs of these tests were judged by it, so
a re-score with the installed verifier must flip exactly that class back, and nothing else."""

from __future__ import annotations

from typing import Any

from studybench.verify import VERIFIER_VERSION, Verdict, Verifier

FLIPPED_TYPE = "NV"
FLIP_REASON = "flip_plugin"


class FlipVerifier(Verifier):
    """The installed verifier with the verdicts of :data:`FLIPPED_TYPE` inverted."""

    version = f"{VERIFIER_VERSION}+flip-{FLIPPED_TYPE.lower()}"

    def verify_many(self, items: Any, *args: Any, **kwargs: Any) -> list[Verdict]:
        items = list(items)
        verdicts = super().verify_many(items, *args, **kwargs)
        out = []
        for item, verdict in zip(items, verdicts, strict=True):
            kind = item["answer_type"] if isinstance(item, dict) else item.answer_type
            if str(kind).upper() == FLIPPED_TYPE:
                verdict = verdict.model_copy(
                    update={"correct": not verdict.correct, "reason": FLIP_REASON}
                )
            out.append(verdict)
        return out
