"""Merging near-duplicate knowledge-point names across the corpus.

Teachers name one idea many ways ("Conservation of energy", "Energy conservation",
"conservation of mechanical energy"). Retrieval and verification run once per canonical
point, so duplicates cost calls and split the evidence. Two names merge when their
normalised strings are close (rapidfuzz ``token_sort_ratio`` >= ``fuzzy_threshold``) or
their MiniLM embeddings are (cosine >= ``embedding_threshold``). Clustering is greedy in a
fixed order (most frequent name first), so the result is deterministic; every merge is
listed in the review file with both scores, for a person to check.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from studybench.guidance.embeddings import Embedder
from studybench.guidance.records import CanonicalPoint, KnowledgePointDraft, SlotDecomposition

_ARTICLES = re.compile(r"\b(?:the|a|an|of|for|in|on|and)\b")
_PUNCT = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s+")


def normalise_name(name: str) -> str:
    """Lower case, punctuation and filler words dropped, spaces collapsed."""
    text = _PUNCT.sub(" ", name.casefold())
    text = _ARTICLES.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


def kp_id(name: str) -> str:
    return "kp-" + hashlib.sha1(normalise_name(name).encode()).hexdigest()[:10]


class Merge(BaseModel):
    canonical: str
    alias: str
    fuzzy: float
    cosine: float | None


class Canonicalised(BaseModel):
    points: list[CanonicalPoint]
    merges: list[Merge]
    alias_to_id: dict[str, str]  # normalised name -> kp_id


def canonicalise(
    decompositions: Sequence[SlotDecomposition],
    *,
    embedder: Embedder | None,
    fuzzy_threshold: float = 90.0,
    embedding_threshold: float = 0.9,
) -> Canonicalised:
    from rapidfuzz import fuzz

    uses: dict[str, list[tuple[KnowledgePointDraft, str, str]]] = defaultdict(list)
    for record in decompositions:
        for point in record.knowledge_points:
            uses[normalise_name(point.name)].append((point, record.key, record.problem_type))
    names = sorted(uses, key=lambda n: (-len(uses[n]), n))
    if not names:
        return Canonicalised(points=[], merges=[], alias_to_id={})
    vectors: Any = embedder.embed(names) if embedder is not None else None
    clusters: list[list[int]] = []
    merges: list[tuple[int, int, float, float | None]] = []
    for index, name in enumerate(names):
        best: tuple[float, float | None, int] | None = None
        for cluster_index, cluster in enumerate(clusters):
            head = cluster[0]
            fuzzy = float(fuzz.token_sort_ratio(name, names[head]))
            cosine = float(vectors[index] @ vectors[head]) if vectors is not None else None
            if fuzzy >= fuzzy_threshold or (cosine is not None and cosine >= embedding_threshold):
                strength = max(fuzzy / 100.0, cosine or 0.0)
                if best is None or strength > max(best[0] / 100.0, best[1] or 0.0):
                    best = (fuzzy, cosine, cluster_index)
        if best is None:
            clusters.append([index])
        else:
            clusters[best[2]].append(index)
            merges.append((clusters[best[2]][0], index, best[0], best[1]))

    points: list[CanonicalPoint] = []
    alias_to_id: dict[str, str] = {}
    display: dict[int, str] = {}
    for cluster in clusters:
        members = [use for i in cluster for use in uses[names[i]]]
        shown = Counter(point.name.strip() for point, _, _ in members)
        canonical_name = sorted(shown, key=lambda n: (-shown[n], len(n), n))[0]
        identifier = kp_id(canonical_name)
        types = Counter(point.type for point, _, _ in members)
        keywords: dict[str, str] = {}
        for point, _, _ in members:
            for word in point.keywords:
                keywords.setdefault(word.casefold().strip(), word.strip())
        description = max((p.description for p, _, _ in members), key=len, default="")
        points.append(
            CanonicalPoint(
                kp_id=identifier,
                type=sorted(types, key=lambda t: (-types[t], t))[0],
                name=canonical_name,
                description=description,
                keywords=sorted(v for v in keywords.values() if v),
                aliases=sorted(n for n in shown if n != canonical_name),
                slots=sorted({key for _, key, _ in members}),
                problem_types=sorted({pt for _, _, pt in members if pt}),
            )
        )
        for i in cluster:
            alias_to_id[names[i]] = identifier
            display[i] = canonical_name
    return Canonicalised(
        points=points,
        merges=[
            Merge(canonical=display[head], alias=names[i], fuzzy=fuzzy, cosine=cosine)
            for head, i, fuzzy, cosine in merges
        ],
        alias_to_id=alias_to_id,
    )


def review_markdown(result: Canonicalised, fuzzy_threshold: float, cosine: float) -> str:
    """The review file: every merge with its scores, then every canonical point."""
    lines = [
        "# Knowledge-point canonicalisation review",
        "",
        f"{len(result.points)} canonical point(s), {len(result.merges)} merge(s) "
        f"(fuzzy >= {fuzzy_threshold:g} or cosine >= {cosine:g}).",
        "",
        "## Merges",
        "",
        "| canonical | merged name (normalised) | fuzzy | cosine |",
        "|---|---|---|---|",
    ]
    for merge in result.merges:
        shown = "-" if merge.cosine is None else f"{merge.cosine:.3f}"
        lines.append(f"| {merge.canonical} | {merge.alias} | {merge.fuzzy:.1f} | {shown} |")
    if not result.merges:
        lines.append("| (none) | | | |")
    lines += [
        "",
        "## Canonical points",
        "",
        "| id | type | name | aliases | slots |",
        "|---|---|---|---|---|",
    ]
    for point in result.points:
        aliases = "; ".join(point.aliases) or "-"
        lines.append(
            f"| {point.kp_id} | {point.type} | {point.name} | {aliases} | {len(point.slots)} |"
        )
    return "\n".join(lines) + "\n"
