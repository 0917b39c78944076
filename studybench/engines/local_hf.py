"""In-process generation with transformers on the CPU, for tests and small jobs.

Requests are served one at a time in a worker thread (the model is not thread-safe), each
seeded from its own per-request seed, so results do not depend on request order. One torch
thread is used by default: for tiny models it is several times faster than many threads
fighting over two cores.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.engines.base import Completion, EngineError, Message, SamplingParams


class LocalHFEngine:
    name = "hf"

    def __init__(
        self, model_path: str | Path, *, threads: int = 1, max_new_tokens: int = 512
    ) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        torch.set_num_threads(threads)
        self.max_new_tokens = max_new_tokens
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(str(model_path))
            self.model: Any = AutoModelForCausalLM.from_pretrained(str(model_path))
        except (OSError, ValueError) as exc:
            raise EngineError(f"{model_path}: cannot load model: {exc}") from exc
        self.model.eval()
        self._lock = threading.Lock()

    def _generate(self, messages: Sequence[Message], sampling: SamplingParams) -> list[Completion]:
        import torch

        inputs: Any = self.tokenizer.apply_chat_template(
            [m.model_dump() for m in messages],
            add_generation_prompt=True,
            enable_thinking=sampling.thinking,
            return_tensors="pt",
            return_dict=True,
        )
        prompt_len = int(inputs["input_ids"].shape[1])
        budget = sampling.max_tokens or self.max_new_tokens
        kwargs: dict[str, Any] = {
            "max_new_tokens": budget,
            "num_return_sequences": sampling.n,
            "pad_token_id": self.tokenizer.pad_token_id,
        }
        if sampling.temperature > 0:
            kwargs.update(
                do_sample=True,
                temperature=sampling.temperature,
                top_p=sampling.top_p,
                top_k=sampling.top_k if sampling.top_k > 0 else None,
                repetition_penalty=sampling.repetition_penalty,
            )
        else:
            kwargs["do_sample"] = False
        with self._lock, torch.no_grad():
            if sampling.seed is not None:
                torch.manual_seed(sampling.seed)
            output = self.model.generate(**inputs, **kwargs)
        completions = []
        eos = self.tokenizer.eos_token_id
        for row in output:
            new = row[prompt_len:].tolist()
            finished = eos in new
            if finished:
                new = new[: new.index(eos)]
            completions.append(
                Completion(
                    text=self.tokenizer.decode(new, skip_special_tokens=True),
                    finish_reason="stop" if finished else "length",
                    prompt_tokens=prompt_len,
                    completion_tokens=len(new),
                )
            )
        return completions

    async def complete(
        self, messages: Sequence[Message], sampling: SamplingParams
    ) -> list[Completion]:
        try:
            return await asyncio.to_thread(self._generate, messages, sampling)
        except (RuntimeError, ValueError) as exc:
            raise EngineError(f"local generation failed: {exc}") from exc

    async def aclose(self) -> None:
        return None
