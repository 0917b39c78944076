"""A scripted teacher behind the loopback OpenAI-compatible test server (tests/engines).

It answers each guidance prompt the way a competent teacher would, from the sample's own
data: the knowledge points written in ``transfer_problems.json``, a verbatim first sentence
of each passage as the quote, guidance naming the points. A few planted faults exercise the
gate: one sub's first guidance draft boxes the gold answer (it must be regenerated), one
verify reply quotes text that is not in the passage (it must be demoted to 0), and the first
decompose reply of one sub is not JSON (it must be retried).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from studybench.data import load_parents
from studybench.guidance.textnorm import sentences

LEAKY_SUB = "Write the effective potential energy"
NOT_JSON_SUB = "Find the angular frequency"


class ScriptedTeacher:
    def __init__(self, split: Path) -> None:
        self.subs: list[tuple[str, Any, str]] = []
        for parent in load_parents(split):
            for sub in parent.sub_problems:
                self.subs.append((sub.problem.strip(), sub, parent.problem))
        self.calls: dict[str, int] = {}

    def _sub_in(self, prompt: str) -> Any:
        best = None
        for question, sub, _ in self.subs:
            if question and question in prompt and (best is None or len(question) > len(best[0])):
                best = (question, sub)
        return best[1] if best else None

    def __call__(self, body: dict[str, Any]) -> tuple[int, str, float]:
        prompt = body["messages"][-1]["content"]
        seed = body.get("seed", 0)
        if prompt.startswith("List the minimal named knowledge points"):
            self.calls["decompose"] = self.calls.get("decompose", 0) + 1
            sub = self._sub_in(prompt)
            if sub.problem.startswith(NOT_JSON_SUB) and seed == 0:
                return 200, "Sure! Here are the knowledge points: energy, forces.", 0.0
            points = [p.model_dump(mode="json") for p in sub.knowledge_points]
            return 200, "```json\n" + json.dumps({"knowledge_points": points}) + "\n```", 0.0
        if prompt.startswith("Does the textbook passage below teach"):
            self.calls["verify"] = self.calls.get("verify", 0) + 1
            passage = prompt.split("]:\n", 1)[1]
            first = sentences(passage)[0]
            if "Kepler" in prompt and "Problems" not in passage:
                return (
                    200,
                    json.dumps({"score": 3, "quote": "Planets obey a made-up law.", "reason": "x"}),
                    0.0,
                )
            quote = re.sub(r"\s+", "  ", first)  # other spacing: must still match
            return 200, json.dumps({"score": 3, "quote": quote, "reason": "explains it"}), 0.0
        if prompt.startswith("Write solving guidance"):
            self.calls["guide"] = self.calls.get("guide", 0) + 1
            sub = self._sub_in(prompt)
            names = [p.name for p in sub.knowledge_points]
            if sub.problem.startswith(LEAKY_SUB) and "previous draft was rejected" not in prompt:
                text = f"Use {names[0]}. The result is {sub.answer}."
            else:
                text = (
                    f"Start from {names[0]} as the textbook section explains it. "
                    "Write the relation for this situation and solve it step by step."
                )
            return 200, json.dumps({"guidance": text, "kp_used": names}), 0.0
        if prompt.startswith("Check a hint written for a student"):
            self.calls["review"] = self.calls.get("review", 0) + 1
            return 200, json.dumps({"leak": False, "reason": "names methods only"}), 0.0
        return 400, "unexpected prompt", 0.0
