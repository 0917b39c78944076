"""How far can the LLM judge be trusted? Measure it against labels before trusting it.

Two sources of labels:

* a labelled calibration file (JSONL or a JSON list; fields ``pred, gold, answer_type,
  type_sequence, label``, optional ``question``, ``solution``), labelled by people;
* labels the rule stage is sure of: pairs the rule verifier accepts (label true), and wrong
  answers made by perturbing the gold (ten times the value, a flipped sign, one added, the
  next choice, the other truth value) that the verifier rejects (label false).

The judge sees each pair through the production prompt and client (:mod:`.prompt`,
:mod:`.llm`). The report gives, overall and per answer type, the agreement, Cohen's kappa,
the false-accept rate (judge TRUE on a false label) and the false-reject rate (judge FALSE
on a true label), each with a 95% interval (statsmodels: ``cohens_kappa``, Wilson
``proportion_confint``). A reply that is not a verdict counts as FALSE, as it does in an
evaluation (the slot is flagged and scored incorrect), and is also counted on its own.

The nightly DAG re-runs the calibration when :func:`judge_changed` says the judge model,
its prompt or its parser changed since the last calibration logged to MLflow. Logging is
:mod:`studybench.tracking.calibration` (above this layer); the CLI and the DAG compose the
two (:func:`studybench.cli.calibrate.run_calibration`).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from studybench.config import Settings
from studybench.errors import DataError
from studybench.fileio import read_json, read_jsonl
from studybench.judge.llm import LLMJudge
from studybench.judge.prompt import JUDGE_VERSION, TEMPLATE, build_prompt
from studybench.verify import Verifier
from studybench.verify.extract import boxed_answers, gold_answers, strip_think

Source = Literal["file", "rule_accept", "rule_reject"]
MAX_PAIRS = 5000


class LabelledPair(BaseModel):
    """One (prediction, gold) pair with its true label."""

    model_config = ConfigDict(extra="ignore")

    pred: str
    gold: str
    answer_type: str
    type_sequence: str = ""
    label: bool
    question: str | None = None
    solution: str = ""
    source: Source = "file"


class Rates(BaseModel):
    """Agreement statistics of one group of pairs (all, or one answer type)."""

    n: int
    positives: int
    agreement: float
    agreement_ci: tuple[float, float]
    kappa: float | None
    kappa_ci: tuple[float, float] | None
    false_accept: float | None
    false_accept_ci: tuple[float, float] | None
    false_reject: float | None
    false_reject_ci: tuple[float, float] | None
    unparseable: int


class CalibrationReport(BaseModel):
    judge_model: str
    judge_version: str
    judge_fingerprint: str
    sources: dict[str, int]
    overall: Rates
    by_type: dict[str, Rates]


def judge_fingerprint(model: str) -> str:
    """What makes two judges the same judge: model, prompt text and parser version."""
    digest = hashlib.sha256(f"{model}\x00{JUDGE_VERSION}\x00{TEMPLATE}".encode())
    return digest.hexdigest()[:16]


def judge_changed(settings: Settings, calibrated: Callable[[str], bool]) -> bool:
    """Has the configured judge (model, prompt text, parser version) changed since the last
    calibration? ``calibrated(fingerprint)`` says whether a calibration of that judge was
    logged (:func:`studybench.tracking.calibration.is_calibrated`); the nightly DAG
    calibrates when this is true."""
    return not calibrated(judge_fingerprint(settings.judge.model))


# ---------------------------------------------------------------------------- labels


def load_labelled(path: Path) -> list[LabelledPair]:
    """The labelled calibration file; a bad record is an error naming file, record, field."""
    records = read_jsonl(path) if path.suffix == ".jsonl" else read_json(path)
    if not isinstance(records, list):
        raise DataError(f"{path}: expected a list of labelled pairs")
    pairs = []
    for number, record in enumerate(records, start=1):
        try:
            pairs.append(LabelledPair.model_validate({**record, "source": "file"}))
        except (ValidationError, TypeError) as exc:
            field = ""
            if isinstance(exc, ValidationError) and exc.errors():
                field = ".".join(str(p) for p in exc.errors()[0]["loc"])
            raise DataError(f"{path}: record {number}: field {field or '?'}: invalid") from None
    return pairs


_NUMBER = re.compile(r"(?<![\w^_{.])(\d+(?:\.\d+)?)")


def _times_ten(text: str) -> str | None:
    match = _NUMBER.search(text)
    if match is None:
        return None
    value = match.group(1)
    scaled = f"{float(value) * 10:g}"
    return text[: match.start()] + scaled + text[match.end() :]


def perturb(answer: str, answer_type: str) -> list[str]:
    """Wrong answers built from one gold box: a wrong value, a wrong sign, one added."""
    kind = answer_type.upper()
    if kind == "MC":
        letter = re.search(r"[A-Ea-e]", answer)
        if letter is None:
            return []
        nxt = chr((ord(letter.group(0).upper()) - ord("A") + 1) % 5 + ord("A"))
        return [nxt]
    if kind == "TF":
        low = answer.strip().casefold()
        return ["False" if low in ("true", "yes", "t", "y") else "True"]
    if kind == "QL":
        return []
    out = []
    scaled = _times_ten(answer)
    if scaled is not None:
        out.append(scaled)
    if kind in ("NV", "EX"):
        out.append(f"-({answer})" if kind == "EX" else f"-{answer.lstrip('+')}")
    if kind == "EX":
        out.append(f"({answer}) + 1")
    if kind == "EQ" and "=" in answer:
        out.append(answer + " + 1")
    return [o for o in out if o.strip() and o != answer]


def _perturbed_preds(item: LabelledPair) -> list[str]:
    golds = gold_answers(item.gold)
    kinds = [t.strip() for t in item.type_sequence.split(",") if t.strip()]
    if item.answer_type.upper() in ("TUP", "ALT") and len(kinds) == len(golds) and golds:
        if item.answer_type.upper() == "ALT":
            return []  # a wrong ALT must miss every alternative: not built by perturbation
        preds = []
        for wrong in perturb(golds[0], kinds[0]):
            boxes = [wrong, *golds[1:]]
            preds.append("Final Answer: " + " ".join(f"\\boxed{{{b}}}" for b in boxes))
        return preds
    if len(golds) != 1:
        return []
    return [f"Final Answer: \\boxed{{{w}}}" for w in perturb(golds[0], item.answer_type)]


def rule_labels(
    items: Sequence[LabelledPair], verifier: Verifier, *, limit: int = MAX_PAIRS
) -> list[LabelledPair]:
    """Pairs whose label the rule stage is sure of: its accepts (true) and the perturbed
    wrong answers it rejects (false). Rule rejections of real outputs are not sure (the
    rules miss forms), so they are never used."""
    accepted = verifier.verify_many(
        [i.model_dump(include={"pred", "gold", "answer_type", "type_sequence", "question"})
         for i in items]
    )  # fmt: skip
    out = [
        item.model_copy(update={"label": True, "source": "rule_accept"})
        for item, verdict in zip(items, accepted, strict=True)
        if verdict.correct
    ]
    wrong = [
        item.model_copy(update={"pred": pred, "label": False, "source": "rule_reject"})
        for item in items
        for pred in _perturbed_preds(item)
    ]
    rejected = verifier.verify_many(
        [w.model_dump(include={"pred", "gold", "answer_type", "type_sequence", "question"})
         for w in wrong]
    )  # fmt: skip
    out += [w for w, verdict in zip(wrong, rejected, strict=True) if not verdict.correct]
    if len(out) > limit:
        out = random.Random(0).sample(out, limit)
    return out


# ---------------------------------------------------------------------------- judging


def prompt_for(pair: LabelledPair) -> str:
    """The production prompt for one pair (what the judge sees in a real evaluation)."""
    visible = strip_think(pair.pred)[0]
    return build_prompt(
        problem=pair.question or "",
        solution=pair.solution,
        reference=pair.gold,
        student=visible,
        extracted=list(boxed_answers(pair.pred).answers),
    )


async def judge_pairs(
    pairs: Sequence[LabelledPair],
    judge: LLMJudge,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """The judge's verdict on every pair (``true``, ``false``, ``unparseable``, ...)."""
    done = 0

    async def one(pair: LabelledPair) -> str:
        nonlocal done
        result = await judge.judge(prompt_for(pair))
        done += 1
        if on_progress is not None:
            on_progress(done, len(pairs))
        return str(result.verdict)

    return list(await asyncio.gather(*(one(p) for p in pairs)))


# ---------------------------------------------------------------------------- statistics


def _interval(count: int, nobs: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(count, nobs, alpha=0.05, method="wilson")
    return float(low), float(high)


def rates(labels: Sequence[bool], verdicts: Sequence[str]) -> Rates:
    """Agreement, kappa and error rates of ``verdicts`` against ``labels``."""
    from statsmodels.stats.inter_rater import cohens_kappa

    said = [v == "true" for v in verdicts]
    n = len(labels)
    agree = sum(a == b for a, b in zip(labels, said, strict=True))
    positives = sum(labels)
    negatives = n - positives
    false_accepts = sum(s and not lab for lab, s in zip(labels, said, strict=True))
    false_rejects = sum(lab and not s for lab, s in zip(labels, said, strict=True))
    table = [
        [sum(lab and s for lab, s in zip(labels, said, strict=True)), false_rejects],
        [false_accepts, sum(not lab and not s for lab, s in zip(labels, said, strict=True))],
    ]
    kappa: float | None = None
    kappa_ci: tuple[float, float] | None = None
    if n and 0 < positives < n and 0 < sum(said) < n:
        result = cohens_kappa(table)
        kappa = float(result.kappa)
        kappa_ci = (float(result.kappa_low), float(result.kappa_upp))
    return Rates(
        n=n,
        positives=positives,
        agreement=agree / n if n else 0.0,
        agreement_ci=_interval(agree, n) if n else (0.0, 1.0),
        kappa=kappa,
        kappa_ci=kappa_ci,
        false_accept=false_accepts / negatives if negatives else None,
        false_accept_ci=_interval(false_accepts, negatives) if negatives else None,
        false_reject=false_rejects / positives if positives else None,
        false_reject_ci=_interval(false_rejects, positives) if positives else None,
        unparseable=sum(v not in ("true", "false") for v in verdicts),
    )


def build_report(
    pairs: Sequence[LabelledPair], verdicts: Sequence[str], judge_model: str
) -> CalibrationReport:
    by_type: dict[str, list[int]] = {}
    for index, pair in enumerate(pairs):
        by_type.setdefault(pair.answer_type.upper(), []).append(index)
    sources: dict[str, int] = {}
    for pair in pairs:
        sources[pair.source] = sources.get(pair.source, 0) + 1
    labels = [p.label for p in pairs]
    return CalibrationReport(
        judge_model=judge_model,
        judge_version=JUDGE_VERSION,
        judge_fingerprint=judge_fingerprint(judge_model),
        sources=sources,
        overall=rates(labels, verdicts),
        by_type={
            kind: rates([labels[i] for i in idx], [verdicts[i] for i in idx])
            for kind, idx in sorted(by_type.items())
        },
    )


# ---------------------------------------------------------------------------- entry point


def calibrate(
    settings: Settings,
    *,
    labelled: Path | None = None,
    rule_items: Path | None = None,
    judge: LLMJudge | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> CalibrationReport:
    """Judge the labelled file and/or the rule-sure pairs built from ``rule_items`` (a file of
    the same shape, label optional) and report. ``judge`` defaults to the settings' judge."""
    pairs: list[LabelledPair] = []
    if labelled is not None:
        pairs += load_labelled(labelled)
    if rule_items is not None:
        items = [p.model_copy(update={"label": True}) for p in _load_items(rule_items)]
        with Verifier(
            tolerance=settings.judge.tolerance, timeout_s=settings.judge.rule_timeout_s
        ) as verifier:
            pairs += rule_labels(items, verifier)
    if not pairs:
        raise DataError("judge calibrate: no labelled pairs (give a labelled file or items)")
    own = judge is None
    if judge is None:
        from studybench.judge.llm import judge_engine

        js = settings.judge
        judge = LLMJudge(
            judge_engine(js), js.model, temperature=js.temperature, max_tokens=js.max_tokens
        )

    async def run(active: LLMJudge) -> list[str]:
        try:
            return await judge_pairs(pairs, active, on_progress)
        finally:
            closer: Any = getattr(active.engine, "aclose", None)
            if own and closer is not None:
                await closer()

    verdicts = asyncio.run(run(judge))
    return build_report(pairs, verdicts, judge.model)


def _load_items(path: Path) -> Iterable[LabelledPair]:
    records = read_jsonl(path) if path.suffix == ".jsonl" else read_json(path)
    if not isinstance(records, list):
        raise DataError(f"{path}: expected a list of items")
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise DataError(f"{path}: record {number}: not an object")
        try:
            yield LabelledPair.model_validate({"label": True, **record, "source": "rule_accept"})
        except ValidationError as exc:
            field = ".".join(str(p) for p in exc.errors()[0]["loc"]) if exc.errors() else "?"
            raise DataError(f"{path}: record {number}: field {field}: invalid") from None
