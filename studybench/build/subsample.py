"""The Application Set: failed textbook parents, subsampled by sub-discipline.

Pure selection over the filter's outcomes, so that every rule is table-tested:

1. **Candidates** per sub-discipline (``problem_type``): the parents no attempt solved
   (0 of k). A subject that would be left with fewer than ``min_per_type`` candidates under
   that strict rule (by default: one that would empty) also takes the parents solved in
   exactly one attempt (1 of k): rarely solved is the closest thing the filter offers, and
   dropping the subject would skew the benchmark's mix more than one lucky attempt does.
2. **Quota** per subject: ``per_type_cap`` (at most that many per subject) and/or a target mix
   (``target_mix`` weights over subjects, scaled to ``target_size`` by largest remainder; a
   subject without a weight gets none). Without either, every candidate is taken.
3. **Draw**: a seeded random sample of the quota from each subject's candidates (the seed and
   the subject name seed one generator per subject, so adding a subject changes no other
   subject's draw); 0-of-k candidates are drawn before 1-of-k ones.

Every textbook parent ends in exactly one place: the Application Set, or the training
material (solved parents, and failed parents the draw did not select).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from studybench.build.capability import ParentOutcome


class SubsampleRule(BaseModel):
    per_type_cap: int | None = Field(None, ge=1)
    target_mix: dict[str, float] = Field(default_factory=dict)
    target_size: int | None = Field(None, ge=1)
    seed: int = 0
    min_per_type: int = Field(1, ge=0)


class SubjectLine(BaseModel):
    """The funnel of one sub-discipline."""

    problem_type: str
    pool: int
    failed: int  # 0 of k
    one_of_k_candidates: int  # taken in because the subject would empty
    quota: int
    selected: int


class Selection(BaseModel):
    selected: list[str]  # parent ids, Application Set, in pool order
    one_of_k: list[str]  # of those, the ones solved once (the 1-of-k rule)
    returned: list[str]  # failed but not selected: back to the training material
    solved: list[str]  # solved at least once (and not taken in): training material
    subjects: list[SubjectLine]


def quotas(available: Mapping[str, int], rule: SubsampleRule) -> dict[str, int]:
    """Parents to take per subject under the cap and the target mix."""
    out = dict(available)
    if rule.target_mix:
        weights = {t: max(w, 0.0) for t, w in rule.target_mix.items()}
        total_weight = sum(weights.values())
        size = rule.target_size if rule.target_size is not None else sum(available.values())
        if total_weight <= 0:
            raise ValueError("build.target_mix: the weights sum to zero")
        exact = {t: size * weights.get(t, 0.0) / total_weight for t in available}
        base = {t: math.floor(v) for t, v in exact.items()}
        spare = size - sum(base.values())
        for t in sorted(exact, key=lambda t: (-(exact[t] - base[t]), t))[: max(spare, 0)]:
            if exact[t] > 0:
                base[t] += 1
        out = {t: min(out[t], base[t]) for t in out}
    if rule.per_type_cap is not None:
        out = {t: min(n, rule.per_type_cap) for t, n in out.items()}
    return out


def select_application(outcomes: Sequence[ParentOutcome], rule: SubsampleRule) -> Selection:
    by_type: dict[str, list[ParentOutcome]] = defaultdict(list)
    for outcome in outcomes:
        by_type[outcome.problem_type].append(outcome)
    candidates: dict[str, list[ParentOutcome]] = {}
    once: set[str] = set()
    for subject, group in by_type.items():
        strict = [o for o in group if o.solved_attempts == 0]
        extra: list[ParentOutcome] = []
        if len(strict) < rule.min_per_type:
            extra = [o for o in group if o.solved_attempts == 1]
            once.update(o.parent for o in extra)
        candidates[subject] = strict + extra
    quota = quotas({t: len(c) for t, c in candidates.items()}, rule)
    chosen: set[str] = set()
    subjects = []
    for subject in sorted(by_type):
        group = candidates[subject]
        rng = random.Random(f"{rule.seed}:{subject}")
        strict_ids = [o.parent for o in group if o.solved_attempts == 0]
        once_ids = [o.parent for o in group if o.solved_attempts == 1 and o.parent in once]
        rng.shuffle(strict_ids)
        rng.shuffle(once_ids)
        take = (strict_ids + once_ids)[: quota[subject]]
        chosen.update(take)
        subjects.append(
            SubjectLine(
                problem_type=subject,
                pool=len(by_type[subject]),
                failed=sum(1 for o in by_type[subject] if o.solved_attempts == 0),
                one_of_k_candidates=len(once_ids),
                quota=quota[subject],
                selected=len(take),
            )
        )
    order = [o.parent for o in outcomes]
    failed_or_taken = {o.parent for o in outcomes if o.solved_attempts == 0} | once
    return Selection(
        selected=[p for p in order if p in chosen],
        one_of_k=[p for p in order if p in chosen and p in once],
        returned=[p for p in order if p in failed_or_taken and p not in chosen],
        solved=[p for p in order if p not in failed_or_taken],
        subjects=subjects,
    )
