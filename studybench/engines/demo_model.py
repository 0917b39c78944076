"""A tiny chat model built offline, for tests and the demo.

Model weights cannot be downloaded here, so the platform makes its own: a byte-level BPE
tokenizer (vocabulary 512) trained on the sample data's text, wrapped with a ChatML chat
template that understands Qwen3's ``enable_thinking`` switch, and a randomly initialised
``Qwen3ForCausalLM`` (hidden size 64, 2 layers, 2 heads, 1 KV head, head_dim 32: vLLM's CPU
attention rejects head_dim 16). Both transformers and vLLM load it. It answers nonsense, but
real nonsense: every engine, the rollout protocol and the resume logic run for real on it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|pad|>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}"
    "<|im_start|>assistant\n"
    "{% if enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n"
    "{% endif %}"
    "{% endif %}"
)


def _texts(sample_dir: Path) -> Iterator[str]:
    """Every string in the sample JSON files and the textbook chapters."""

    def walk(value: object) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)

    for path in sorted(sample_dir.glob("*.json")):
        yield from walk(json.loads(path.read_text(encoding="utf-8")))
    for path in sorted(sample_dir.rglob("*.md")):
        yield path.read_text(encoding="utf-8")


def build_demo_model(out_dir: Path, sample_dir: Path, *, seed: int = 0) -> Path:
    """Write tokenizer, config, weights and generation config to ``out_dir``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (
        GenerationConfig,
        PreTrainedTokenizerFast,
        Qwen3Config,
        Qwen3ForCausalLM,
    )

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=512,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(_texts(sample_dir), trainer)
    hf_tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token="<|im_end|>",
        pad_token="<|pad|>",
        unk_token=None,
        bos_token=None,
    )
    hf_tokenizer.chat_template = CHAT_TEMPLATE
    out_dir.mkdir(parents=True, exist_ok=True)
    hf_tokenizer.save_pretrained(out_dir)

    eos = tokenizer.token_to_id("<|im_end|>")
    pad = tokenizer.token_to_id("<|pad|>")
    config = Qwen3Config(
        vocab_size=len(hf_tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=32,
        max_position_embeddings=40960,
        tie_word_embeddings=True,
        eos_token_id=eos,
        pad_token_id=pad,
        bos_token_id=None,
    )
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(config)
    model.save_pretrained(out_dir, safe_serialization=True)
    GenerationConfig(
        do_sample=True,
        temperature=1.0,
        top_p=0.95,
        top_k=20,
        eos_token_id=eos,
        pad_token_id=pad,
    ).save_pretrained(out_dir)
    return out_dir
