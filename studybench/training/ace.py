"""An ACE playbook (Agentic Context Engineering) built from the Instructions-with-Answer
layer, in the format the runner's ``--ace`` option reads (format doc, section 11).

Our own small implementation, not the ``ace-playbook`` package (PyPI 0.3.0): that package
renders bullets as ``content (helpful=N, harmful=M)``, not the ``[id] helpful=N harmful=M ::``
lines the runner's ACE instruction describes, ships under the bare top-level module name
``ace``, and drives its roles through JSON replies that small models rarely produce; here
the loop is about a hundred lines and every step is the verifier's or deterministic.

The loop (ACE: generator → reflector → curator, incremental delta updates):

* Generator: the task model answers an item with the current playbook in the system
  message (exactly the runner's ACE system prompt).
* The verifier grades the answer (the only feedback signal besides the reference answer).
* Reflector: an LLM reads the question, the answer, the verdict and the bullets, and replies
  in a line protocol: ``HELPFUL [id]`` / ``HARMFUL [id]`` tags and ``ADD <section> :: <text>``
  insights.
* Curator (deterministic, as ACE's delta merge): counters are updated, new bullets that
  near-duplicate an existing one are dropped, and above ``max_bullets`` the bullets with the
  lowest helpful−harmful score (oldest first) are pruned.

Where the reflector's endpoint honours structured output, its reply is constrained to the
line protocol (:func:`reflection_format`): tags naming bullets that exist, then one or two
``ADD`` lines in a known section.

Outputs: the playbook text (``<out>``), its bullets as JSON (``<out>.json``, which a rerun
resumes from), and ``<out>.compute.json`` with LLM calls/tokens and the dev-set accuracy of
each epoch (score against LLM budget).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.engines.structured import OutputFormat, free_text, literal, text_budget
from studybench.fileio import write_atomic
from studybench.training.items import TrainItem
from studybench.training.llm import MeteredChat

SECTIONS = ("strategies", "formulas", "pitfalls", "answer_format")
_TAG = re.compile(r"^\s*(HELPFUL|HARMFUL)\s*\[([a-z]+-\d+)\]", re.IGNORECASE)
_ADD = re.compile(r"^\s*ADD\s+([a-z_]+)\s*::\s*(.+?)\s*$", re.IGNORECASE)

REFLECTOR_PROMPT = """You improve a playbook of short, reusable tips for solving physics problems.

Question:
{question}

Model answer:
{reply}

Verifier: {verdict}. Reference final answer: {gold}

Current playbook:
{playbook}

Reply with lines only, in this format:
HELPFUL [bullet-id]   (a bullet that helped this answer)
HARMFUL [bullet-id]   (a bullet that misled it)
ADD <section> :: <one new general tip; never the specific answer>
Sections: {sections}. At most two ADD lines."""


class Bullet(BaseModel):
    id: str
    section: str
    content: str
    helpful: int = 0
    harmful: int = 0

    def render(self) -> str:
        return f"[{self.id}] helpful={self.helpful} harmful={self.harmful} :: {self.content}"


class Playbook(BaseModel):
    bullets: list[Bullet] = []
    next_id: int = 1

    def render(self) -> str:
        lines: list[str] = []
        for section in SECTIONS:
            chosen = [b for b in self.bullets if b.section == section]
            if chosen:
                lines.append(f"### {section}")
                lines.extend(b.render() for b in chosen)
        return "\n".join(lines) + ("\n" if lines else "")

    def add(self, section: str, content: str) -> Bullet | None:
        text = " ".join(content.split())
        if not text or section not in SECTIONS:
            return None
        for bullet in self.bullets:
            if SequenceMatcher(None, bullet.content.lower(), text.lower()).ratio() >= 0.85:
                return None  # a near-duplicate: ACE's de-duplication step
        bullet = Bullet(id=f"{section[:4]}-{self.next_id:05d}", section=section, content=text)
        self.next_id += 1
        self.bullets.append(bullet)
        return bullet

    def tag(self, bullet_id: str, helpful: bool) -> None:
        for bullet in self.bullets:
            if bullet.id == bullet_id:
                if helpful:
                    bullet.helpful += 1
                else:
                    bullet.harmful += 1

    def prune(self, max_bullets: int) -> None:
        while len(self.bullets) > max_bullets:
            worst = min(
                range(len(self.bullets)),
                key=lambda i: (self.bullets[i].helpful - self.bullets[i].harmful, i),
            )
            self.bullets.pop(worst)


MAX_TAGS = 4  # tag lines a constrained reflection may hold


def reflection_format(playbook: Playbook, max_tokens: int) -> OutputFormat:
    """The reflector's line protocol: up to :data:`MAX_TAGS` ``HELPFUL``/``HARMFUL`` lines
    for bullets of ``playbook``, then one or two ``ADD <section> :: <tip>`` lines (a tip
    says something), bounded so the reply fits ``max_tokens``."""
    ids = [b.id for b in playbook.bullets]
    tags = min(len(ids), MAX_TAGS)
    longest_tag = max((f"HARMFUL [{i}]\n" for i in ids), key=len, default="")
    add = f"ADD {max(SECTIONS, key=len)} :: "
    chars = text_budget(max_tokens, longest_tag * tags + add * 2 + "\n", fields=2)
    sections = "|".join(literal(s) for s in SECTIONS)
    line = f"ADD (?:{sections}) :: {free_text(chars, chr(10), min_chars=1)}"
    head = ""
    if tags:
        named = "|".join(literal(i) for i in ids)
        head = f"(?:(?:HELPFUL|HARMFUL) \\[(?:{named})\\]\\n){{0,{tags}}}"
    return OutputFormat(regex=f"{head}{line}(?:\\n{line})?")


def apply_reflection(playbook: Playbook, reflection: str, max_bullets: int) -> int:
    """Merge a reflector reply into the playbook; return the number of bullets added."""
    added = proposed = 0
    for line in reflection.splitlines():
        if tag := _TAG.match(line):
            playbook.tag(tag[2].lower(), helpful=tag[1].upper() == "HELPFUL")
        elif (new := _ADD.match(line)) and proposed < 2:  # the prompt allows two per reply
            proposed += 1
            if playbook.add(new[1].lower(), new[2]) is not None:
                added += 1
    playbook.prune(max_bullets)
    return added


class ACEResult(BaseModel):
    playbook: str
    bullets: int
    epochs: list[dict[str, Any]]
    llm_calls: int
    tokens: int


def build_playbook(
    items: Sequence[TrainItem],
    default_system_prompt: str,
    out: Path,
    *,
    task: MeteredChat,
    reflector: MeteredChat,
    verifier: Any,
    epochs: int,
    max_bullets: int,
    progress: Callable[[int, int], None] | None = None,
) -> ACEResult:
    """Run the ACE loop over ``items`` for ``epochs``; write the playbook and its records."""
    from studybench.rollout.artefacts import ace_system_prompt

    state_path = out.with_name(out.name + ".json")
    playbook = (
        Playbook.model_validate_json(state_path.read_text()) if state_path.exists() else Playbook()
    )
    history: list[dict[str, Any]] = []
    done = 0
    for epoch in range(1, epochs + 1):
        correct = 0
        for item in items:
            system = ace_system_prompt(default_system_prompt, playbook.render() or "(empty)")
            messages = [{"role": "system", "content": system}]
            messages += [m for m in item.prompt if m["role"] != "system"]
            reply = task.chat(messages)
            verdict = verifier.verify(reply, item.answer, item.answer_type, item.type_sequence)
            correct += verdict.correct
            reflection = reflector.chat(
                [
                    {
                        "role": "user",
                        "content": REFLECTOR_PROMPT.format(
                            question=item.prompt[-1]["content"],
                            reply=reply,
                            verdict="correct"
                            if verdict.correct
                            else f"incorrect ({verdict.reason})",
                            gold=item.answer,
                            playbook=playbook.render() or "(empty)",
                            sections=", ".join(SECTIONS),
                        ),
                    }
                ],
                output_format=reflection_format(playbook, reflector.max_tokens()),
            )
            apply_reflection(playbook, reflection, max_bullets)
            done += 1
            if progress is not None:
                progress(done, epochs * len(items))
        budget = task.budget().plus(reflector.budget())
        history.append(
            {
                "epoch": epoch,
                "accuracy": correct / len(items),
                "bullets": len(playbook.bullets),
                "llm_calls": budget.llm_calls,
                "tokens": budget.tokens,
            }
        )
        write_atomic(state_path, playbook.model_dump_json(indent=1) + "\n")
        write_atomic(out, playbook.render())
    total = task.budget().plus(reflector.budget())
    result = ACEResult(
        playbook=str(out),
        bullets=len(playbook.bullets),
        epochs=history,
        llm_calls=total.llm_calls,
        tokens=total.tokens,
    )
    write_atomic(
        out.with_name(out.name + ".compute.json"),
        json.dumps(
            {
                "method": "ace",
                "task_model": task.endpoint.model,
                "reflector_model": reflector.endpoint.model,
                "task": task.budget().model_dump(),
                "reflector": reflector.budget().model_dump(),
                **result.model_dump(),
            },
            indent=1,
        )
        + "\n",
    )
    return result
