"""The checkpoint DAG with ``engine.kind: vllm``: a real ``dag.test()`` run whose generate
task starts the managed vLLM server (the CPU build) on a trained checkpoint. While it runs,
``engine.json`` in the run folder names the server's process group, and that process serves
the checkpoint; when the run is over the server is stopped (no member of its group is left),
the record is removed and the ``stop_engine`` teardown found nothing left to stop. (The
teardown stopping a server a killed run left behind: tests/pipeline/test_teardown_vllm.py.)"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import yaml

from studybench.processes import group_alive
from tests.conftest import ROOT, shared_vllm_cache
from tests.dags.test_dags import run_dags, write_params


def vllm_params(tmp_path: Path) -> Path:
    """The DAG tests' params (tiny protocol, rule judge, under ``tmp_path``) with the
    project's vLLM CPU engine settings and a context window the tiny model serves."""
    engine = yaml.safe_load((ROOT / "params.yaml").read_text())["engine"]
    return write_params(
        tmp_path,
        engine={**engine, "kind": "vllm", "vllm_cache_dir": str(shared_vllm_cache())},
        protocol={"max_tokens": 4096, "max_new_tokens": 24},
        checkpoints={"splits": ["application"]},
        tracking={"enabled": False},
    )


class RecordWatch:
    """Polls for ``engine.json`` under ``root`` while a DAG runs in another process, and
    keeps what it saw: the record, and whether its process group ran a vLLM server then."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.seen: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.is_set():
            for path in self.root.rglob("engine.json"):
                try:
                    record = json.loads(path.read_text())
                    pid = int(record["pid"])
                    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                except (OSError, ValueError, KeyError):
                    continue
                if not any(r["pid"] == pid for r in self.seen):
                    self.seen.append(
                        {**record, "path": str(path), "alive": group_alive(pid),
                         "command": [c.decode() for c in command]}
                    )  # fmt: skip
            time.sleep(0.2)

    def __enter__(self) -> RecordWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def test_checkpoint_dag_on_vllm_records_and_stops_its_server(
    airflow_env: dict[str, str], trained_checkpoints: Path, tmp_path: Path
) -> None:
    params = vllm_params(tmp_path)
    checkpoint = trained_checkpoints / "checkpoint-160"
    with RecordWatch(tmp_path / "work") as watch:
        summary = run_dags(
            airflow_env,
            "studybench_checkpoint_eval",
            {"checkpoint": str(checkpoint)},
            STUDYBENCH_PARAMS=str(params),
        )
    assert summary["state"] == "success", summary["tasks"]
    tasks = summary["tasks"]
    assert set(tasks.values()) == {"success"}, tasks
    assert tasks["prepare_engine[0]"] == tasks["stop_engine[0]"] == "success"
    assert sorted(k for k in tasks if k.startswith("judge[")) == [f"judge[{i}]" for i in range(3)]

    (record,) = watch.seen  # one server for the whole target
    pid = int(record["pid"])
    assert record["alive"] and str(checkpoint) in record["command"]
    assert "vllm.entrypoints.openai.api_server" in record["command"]
    run_root = Path(record["path"]).parent
    assert not (run_root / "engine.json").exists()  # the record went with the server
    assert not group_alive(pid)  # no member of the server's process group is left
    assert "stopped a leftover vLLM server" not in summary["output"]  # nothing was left
    log = (run_root / "vllm.log").read_text()
    assert "Application startup complete" in log  # it served the generate task
    generated = json.loads((run_root / "generated.json").read_text())
    assert generated["application"]["errors"] == 0 and generated["application"]["generated"] > 0
