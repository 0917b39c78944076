"""The RL rewards: GRPO's is exactly the verifier's; TTRL's majority vote on built groups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from studybench.training.rewards import (
    MajorityVoteReward,
    VerifierReward,
    infer_answer_type,
    majority_vote,
)
from studybench.verify import reward as verifier_reward
from studybench.verify.verifier import Verifier

# (completion, gold, answer_type, type_sequence): right, wrong, units, no box, think-only,
# tuple order, scientific-notation exponent trap (reference-harness fault 2)
CASES = [
    ("Speed is v = 20 m/s.\nFinal Answer: \\boxed{20}", "\\boxed{20}", "NV", ""),
    ("Final Answer: \\boxed{21.5}", "\\boxed{20}", "NV", ""),
    ("Final Answer: \\boxed{0.5\\,\\mathrm{m}}", "\\boxed{50\\,\\mathrm{cm}}", "NV", ""),
    ("I think the answer is 20.", "\\boxed{20}", "NV", ""),
    ("<think>\\boxed{20}</think>", "\\boxed{20}", "NV", ""),
    ("Final Answer: \\boxed{m g} \\boxed{k}", "\\boxed{mg}\\boxed{k}", "TUP", "EX,EX"),
    ("Final Answer: \\boxed{k} \\boxed{m g}", "\\boxed{mg}\\boxed{k}", "TUP", "EX,EX"),
    ("Final Answer: \\boxed{4.39 \\times 10^{3}}", "\\boxed{439}", "NV", ""),
    ("Final Answer: \\boxed{y = 2x}", "\\boxed{2x = y}", "EQ", ""),
]


@pytest.fixture(scope="module")
def verifier() -> Iterator[Verifier]:
    with Verifier(workers=2) as shared:
        yield shared


def test_grpo_reward_is_the_verifiers_reward(verifier: Verifier) -> None:
    function = VerifierReward(verifier)
    completions = [[{"role": "assistant", "content": c}] for c, *_ in CASES]
    rewards = function(
        prompts=[[{"role": "user", "content": "q"}]] * len(CASES),
        completions=completions,
        answer=[g for _, g, _, _ in CASES],
        answer_type=[t for _, _, t, _ in CASES],
        type_sequence=[s for *_, s in CASES],
        completion_ids=[[1, 2]] * len(CASES),
        trainer_state=None,
    )
    expected = [verifier_reward(c, g, t, s) for c, g, t, s in CASES]
    assert rewards == expected
    assert rewards == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    # plain-text completions (non-conversational datasets) give the same rewards
    plain = function(
        prompts=["q"] * len(CASES),
        completions=[c for c, *_ in CASES],
        answer=[g for _, g, _, _ in CASES],
        answer_type=[t for _, _, t, _ in CASES],
        type_sequence=[s for *_, s in CASES],
    )
    assert plain == expected


@pytest.mark.parametrize(
    ("box", "kind"),
    [("9.8", "NV"), ("-1.5e3\\,\\mathrm{J}", "NV"), ("x = v t", "EQ"), ("\\frac{m}{k}", "EX")],
)
def test_pseudo_labels_get_an_answer_type(box: str, kind: str) -> None:
    assert infer_answer_type(box) == kind


def test_majority_vote_clusters_equivalent_answers(verifier: Verifier) -> None:
    group = [
        "Final Answer: \\boxed{3}",
        "so \\boxed{1}, finally Final Answer: \\boxed{2}",  # the last box votes
        "Final Answer: \\boxed{2.0}",  # the same as 2 to the verifier
        "no box at all",
        "Final Answer: \\boxed{2}",
    ]
    vote = majority_vote(group, verifier)
    assert (vote.label, vote.answer_type, vote.votes, vote.voters) == ("\\boxed{2}", "NV", 3, 4)
    tie = majority_vote(["\\boxed{a}", "\\boxed{b}", "\\boxed{b}", "\\boxed{a}"], verifier)
    assert (tie.label, tie.votes) == ("\\boxed{a}", 2)  # ties go to the earliest answer
    assert majority_vote(["nothing", "boxed"], verifier).label == ""


def test_ttrl_reward_votes_within_each_prompts_group(verifier: Verifier) -> None:
    function = MajorityVoteReward(verifier, min_votes=2)
    completions = [
        "\\boxed{2}",  # group A
        "\\boxed{7}",  # group B
        "\\boxed{2.00}",  # A
        "\\boxed{8}",  # B
        "\\boxed{5}",  # A
        "no answer",  # B
    ]
    rewards = function(
        prompts=["p"] * 6,
        completions=[[{"role": "assistant", "content": c}] for c in completions],
        item_id=["A", "B", "A", "B", "A", "B"],
    )
    # A: 2 and 2.00 agree (2 votes) -> both rewarded; B: no answer has 2 votes -> nobody
    assert rewards == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    assert function.last_votes["A"].votes == 2 and function.last_votes["B"].votes == 1
    lenient = MajorityVoteReward(verifier, min_votes=1)
    again = lenient(prompts=["p"] * 3, completions=["\\boxed{7}", "\\boxed{8}", "x"], item_id="BBB")
    assert again == [1.0, 0.0, 0.0]


def test_grpo_reward_reads_the_requested_unit_from_the_prompt(verifier: Verifier) -> None:
    """A unitless gold with the unit named in the question: an answer in another unit of the
    same dimension earns the reward, a unit of another dimension does not, and the same
    answer without a question to name the unit earns nothing (no unit was requested)."""
    function = VerifierReward(verifier)
    asked = [{"role": "user", "content": "How long does the probe take to arrive (in days)?"}]
    preds = [r"\boxed{4.9\times10^{6}\,\mathrm{s}}", r"\boxed{57\,\mathrm{kg}}", r"\boxed{57}"]
    rewards = function(
        prompts=[asked] * 3,
        completions=[[{"role": "assistant", "content": p}] for p in preds],
        answer=[r"\boxed{57}"] * 3,
        answer_type=["NV"] * 3,
        type_sequence=["NV"] * 3,
    )
    assert rewards == [1.0, 0.0, 1.0]
    unasked = function(
        prompts=[[{"role": "user", "content": "How long does it take?"}]],
        completions=[[{"role": "assistant", "content": preds[0]}]],
        answer=[r"\boxed{57}"],
        answer_type=["NV"],
        type_sequence=["NV"],
    )
    assert unasked == [0.0]
