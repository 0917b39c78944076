"""StudyBench's prompt texts (format doc, section 2.1), in the project's own words.

Everything StudyBench-specific about what the model is told lives here; the runner and the
conversation builder (:mod:`studybench.rollout`) receive them as :data:`PROMPTS`, through the
rollout configuration :func:`studybench.benchmarks.studybench.protocol.rollout_config` builds,
so the protocol hash covers them. The training items and the training-data build use the same
instruction, so a model trains on what it is asked at evaluation time.
"""

from __future__ import annotations

from studybench.rollout.prompts import Language, PromptTexts

INSTRUCTION: dict[Language, str] = {
    "EN": (
        "Solve the following physics problem. Reason step by step. On the last line, write "
        "`Final Answer: \\boxed{answer}`. If the question asks for several quantities, put "
        "each one in its own \\boxed{} on that line. Do not put units inside \\boxed{}."
    ),
    "ZH": (
        "请解答下面的物理题，逐步推理。最后一行写出 `Final Answer: \\boxed{答案}`。"
        "如果问题要求多个量，请在该行为每个量分别使用一个 \\boxed{}。\\boxed{} 中不要写单位。"
    ),
}

PLACEHOLDER: dict[Language, str] = {
    "EN": (
        "(I was unable to produce a final answer for the previous sub-question. "
        "Please continue with the next sub-question.)"
    ),
    "ZH": "（我未能给出上一小问的最终答案。请继续下一小问。）",
}

GUIDANCE_HEADER = "## Solving Guidance"
GUIDANCE_PREAMBLE: dict[Language, str] = {
    "EN": (
        "The notes below point to the methods that apply. Treat them as hints: derive the "
        "result yourself and box the final answer as instructed."
    ),
    "ZH": "以下提示指出了适用的方法。请把它们当作提示：自己推导结果，并按要求给出最终答案。",
}

ACE_INSTRUCTION = (
    "Before answering, consult the PLAYBOOK below: it collects strategies and pitfalls learned "
    "from earlier problems. Apply the entries that fit. Entries start with bookkeeping "
    "prefixes such as `[id] helpful=N harmful=M ::`; never copy those into your answer."
)


PROMPTS = PromptTexts(
    instruction=INSTRUCTION,
    placeholder=PLACEHOLDER,
    guidance_header=GUIDANCE_HEADER,
    guidance_preamble=GUIDANCE_PREAMBLE,
    ace_instruction=ACE_INSTRUCTION,
)
"""StudyBench's texts as the runner takes them."""
