"""Prompt texts of no benchmark, for the benchmark-neutral rollout tests: a runner or builder
that fell back on any benchmark's own words would fail the tests that use these."""

from __future__ import annotations

from studybench.rollout.prompts import PromptTexts

TEXTS = PromptTexts(
    instruction={"EN": "Answer this, boxed.", "ZH": "请回答。"},
    placeholder={"EN": "(no answer before)", "ZH": "（此前无答案）"},
    guidance_header="### Hints",
    guidance_preamble={"EN": "Use these hints.", "ZH": "参考提示。"},
    ace_instruction="Consult the playbook.",
)
