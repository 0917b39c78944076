"""Rule-based answer verifier: extraction, normalisation and the nine per-type judgers.

Two verbs: :func:`verify` (one pair, bounded time) and :func:`verify_many` (a batch on all
cores); :func:`reward` is the RL reward built on them.
"""

from studybench.verify.verifier import (
    VERIFIER_VERSION,
    Verdict,
    Verifier,
    VerifyItem,
    judge_inline,
    reward,
    verify,
    verify_many,
)

__all__ = [
    "VERIFIER_VERSION",
    "Verdict",
    "Verifier",
    "VerifyItem",
    "judge_inline",
    "reward",
    "verify",
    "verify_many",
]
