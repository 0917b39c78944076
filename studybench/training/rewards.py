"""Rewards for RL: the rule-based verifier and nothing else.

The LLM judge is never a reward: a policy optimised against a model grader learns to please
the grader (reward hacking), and its verdicts are neither deterministic nor cheap. Both
rewards here go through :class:`studybench.verify.Verifier` (worker processes, hard time
limits), the same rules the benchmark's first judge stage applies.

* :class:`VerifierReward` (GRPO): 1.0 when the completion's final boxed answer verifies
  against the item's gold answer, else 0.0.
* :class:`MajorityVoteReward` (TTRL, test-time RL): no gold; the answers of one prompt's
  group are clustered by verifier-equivalence, the largest cluster's answer becomes the
  pseudo-label, and each completion is rewarded by verifying it against that label.

Both are TRL reward functions (``reward(prompts=..., completions=..., **columns)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from studybench.verify.extract import boxed_answers

_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def completion_text(completion: Any) -> str:
    """The text of a TRL completion (conversational: a list of messages; else a string)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        return "".join(
            str(m.get("content") or "") for m in completion if m.get("role") == "assistant"
        )
    raise TypeError(f"unexpected completion type {type(completion).__name__}")


def prompt_question(prompt: Any) -> str:
    """The question a TRL prompt asks (conversational: its last user turn; else the text).
    The verifier reads the requested unit of a unitless gold from it ("in eV")."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, list):
        users = [str(m.get("content") or "") for m in prompt if m.get("role") == "user"]
        return users[-1] if users else ""
    return ""


class VerifierReward:
    """GRPO reward: the verifier's verdict on the completion against the item's gold."""

    __name__ = "verifier"

    def __init__(self, verifier: Any) -> None:
        self.verifier = verifier

    def __call__(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        answer: Sequence[str],
        answer_type: Sequence[str],
        type_sequence: Sequence[str],
        **_: Any,
    ) -> list[float]:
        verdicts = self.verifier.verify_many(
            [
                {
                    "pred": completion_text(c),
                    "gold": g,
                    "answer_type": t,
                    "type_sequence": s,
                    "question": prompt_question(p),
                }
                for p, c, g, t, s in zip(
                    prompts, completions, answer, answer_type, type_sequence, strict=True
                )
            ]
        )
        return [1.0 if v.correct else 0.0 for v in verdicts]


def infer_answer_type(box: str) -> str:
    """The answer type of a pseudo-label without a gold type: a number (units allowed) is NV,
    an equation EQ, anything else EX."""
    text = box.strip()
    if "=" in text:
        return "EQ"
    return "NV" if _NUMBER.match(text) else "EX"


class Vote(BaseModel):
    """The outcome of one group's vote (kept for the record and for tests)."""

    label: str  # the pseudo-label, as boxed LaTeX ("" when nobody boxed an answer)
    answer_type: str = ""
    votes: int = 0
    voters: int = 0


def majority_vote(texts: Sequence[str], verifier: Any) -> Vote:
    """The pseudo-label of one group. Each completion votes with its final boxed answer (the
    verifier's "last box wins" rule); votes are clustered by verifier-equivalence to each
    cluster's first member; the largest cluster wins, ties go to the earliest cluster."""
    clusters: list[tuple[str, str, int]] = []  # label, answer type, count
    voters = 0
    for text in texts:
        boxes = boxed_answers(text, strip_thinking=True).answers
        if not boxes:
            continue
        voters += 1
        candidate = f"\\boxed{{{boxes[-1]}}}"
        for position, (label, kind, count) in enumerate(clusters):
            if verifier.verify(candidate, label, kind).correct:
                clusters[position] = (label, kind, count + 1)
                break
        else:
            clusters.append((candidate, infer_answer_type(boxes[-1]), 1))
    if not clusters:
        return Vote(label="", voters=0)
    best = max(range(len(clusters)), key=lambda i: (clusters[i][2], -i))
    label, kind, count = clusters[best]
    return Vote(label=label, answer_type=kind, votes=count, voters=voters)


class MajorityVoteReward:
    """TTRL reward: completions of the same ``item_id`` form a group; each is rewarded by the
    verifier against the group's majority answer. ``min_votes`` guards against rewarding a
    lone answer: a label backed by fewer votes rewards nobody."""

    __name__ = "majority_vote"

    def __init__(self, verifier: Any, min_votes: int = 2) -> None:
        self.verifier = verifier
        self.min_votes = min_votes
        self.last_votes: dict[str, Vote] = {}

    def __call__(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        item_id: Sequence[str],
        **_: Any,
    ) -> list[float]:
        texts = [completion_text(c) for c in completions]
        groups: dict[str, list[int]] = {}
        for index, key in enumerate(item_id):
            groups.setdefault(key, []).append(index)
        rewards = [0.0] * len(texts)
        self.last_votes = {}
        for key, members in groups.items():
            vote = majority_vote([texts[i] for i in members], self.verifier)
            self.last_votes[key] = vote
            if not vote.label or vote.votes < self.min_votes:
                continue
            verdicts = self.verifier.verify_many(
                [
                    {
                        "pred": texts[i],
                        "gold": vote.label,
                        "answer_type": vote.answer_type,
                    }
                    for i in members
                ]
            )
            for i, verdict in zip(members, verdicts, strict=True):
                rewards[i] = 1.0 if verdict.correct else 0.0
        return rewards
