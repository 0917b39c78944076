"""How long one watcher poll takes over many checkpoints, cold and warm.

Writes N complete checkpoints (default 100, each a config, tokenizer files and a
safetensors file of S MiB, default 16) under a temp folder, then times ``scan_roots``: the
first poll reads every weight file's header and 16 sampled blocks for the identity; later
polls reuse the cached fingerprints (keyed by path, size and mtime) and only list folders
and parse small JSON files. The watcher runs one poll every ``checkpoints.poll_interval_s``.

    .venv/bin/python perf/checkpoint_scan.py [--checkpoints N] [--mib S]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

from studybench.checkpoints import READY_MARKER, scan_roots
from studybench.checkpoints import inspect as inspect_module


def write(folder: Path, step: int, mib: int) -> None:
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"model_type": "qwen3"}))
    (folder / "tokenizer_config.json").write_text("{}")
    (folder / "tokenizer.json").write_text("{}")
    floats = mib * (1 << 20) // 4
    save_file({"w": np.full(floats, step, dtype=np.float32)}, str(folder / "model.safetensors"))
    (folder / "trainer_state.json").write_text(json.dumps({"global_step": step}))
    (folder / READY_MARKER).write_text(json.dumps({"step": step}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=100)
    parser.add_argument("--mib", type=int, default=16)
    parser.add_argument("--polls", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for step in range(args.checkpoints):
            write(root / "run" / f"checkpoint-{step}", step, args.mib)
        inspect_module._FINGERPRINTS.clear()
        start = time.perf_counter()
        infos = scan_roots([str(root)])
        cold = time.perf_counter() - start
        assert sum(i.ready for i in infos) == args.checkpoints
        assert len({i.identity for i in infos}) == args.checkpoints
        warm = []
        for _ in range(args.polls):
            start = time.perf_counter()
            scan_roots([str(root)])
            warm.append(time.perf_counter() - start)
    total = args.checkpoints * args.mib
    print(f"{args.checkpoints} checkpoints, {args.mib} MiB weights each ({total} MiB)")
    print(f"first poll (reads headers + 1 MiB sample per file): {cold:.3f} s")
    median = statistics.median(warm)
    print(f"later polls (cached fingerprints), median of {args.polls}: {median:.3f} s")


if __name__ == "__main__":
    main()
