"""Confinement of agent runs: bubblewrap around the agent CLI.

An agent backend gives a model Bash, Read and Write in a working folder, with permission
checks bypassed (the reference harness's setting). On the host that would hand model-chosen
commands the operator's environment (judge keys, database passwords), every readable file
and every local socket. Each agent run therefore executes inside ``bwrap``:

* a fresh user namespace mapped to an unprivileged uid (Claude Code refuses to bypass
  permissions as root, and nothing inside needs root);
* an EMPTY environment plus an explicit allowlist: the variables the engine set for the run
  (endpoint, the agent's own key, feature switches) and the CLI's own ``CLAUDE_CODE_*`` /
  ``CLAUDE_AGENT_SDK_*`` switches, never a name that looks like a credential;
* a filesystem of the system tree (``/usr`` and its symlinks) read-only, the agent binary's
  folder read-only, TLS roots and resolver files, a synthetic ``/etc/passwd``, the run's
  working folder and home read-write, and a private ``/tmp``; the project tree, ``/home``,
  ``/root``, ``/run``, ``/var`` and the host's ``/etc`` are absent;
* its own PID namespace (``/proc`` shows only the run), ``--die-with-parent``, a new session;
  bwrap itself is started with an empty environment, because it is PID 1 inside and
  ``/proc/1/environ`` would otherwise show the host's (``--clearenv`` cleans only the child).

The network namespace is shared: the agent must reach its model endpoint. That is the one
door left open (README, "Security model": the agent can reach what the host can reach over
the network, so put model endpoints behind their own credentials and keep the platform's
services authenticated).

The wrapper is a tiny script written per run that the SDK (or the command driver) executes
as if it were the agent CLI; it filters the environment it was given and ``exec``s bwrap.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from studybench.errors import ConfigError

SANDBOX_UID = 1000
_CREDENTIAL = re.compile(r"KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH", re.IGNORECASE)
_CLI_SWITCH = re.compile(r"^CLAUDE_(?:CODE|AGENT_SDK)_[A-Z0-9_]+$")
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC_FILES = (
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/pki",
    "/etc/resolv.conf",
    "/etc/hosts",
    "/etc/nsswitch.conf",
    "/etc/localtime",
    "/etc/alternatives",
    "/etc/ld.so.cache",
)
AGENT_BIN = "/opt/studybench-agent"
"""Where the agent binary's folder is mounted inside the sandbox."""
FORWARD_VARIABLE = "STUDYBENCH_SANDBOX_FORWARD"
"""The wrapper's own variable: the comma-separated names it may pass into the sandbox."""


def bwrap_path() -> str:
    found = shutil.which("bwrap")
    if not found:
        raise ConfigError(
            "agent runs need bubblewrap (`bwrap`): install it (`make sandbox`, or "
            "`apt-get install bubblewrap`), or set agent.sandbox: false on a host that is "
            "itself a throw-away sandbox"
        )
    return found


def forwarded_env(environ: Mapping[str, str], allowed: Iterable[str]) -> dict[str, str]:
    """The variables that enter the sandbox: the allowlist, then CLI switches that do not
    look like credentials. Everything else of ``environ`` (the host's) stays out."""
    names = set(allowed)
    out = {name: environ[name] for name in names if name in environ}
    for name, value in environ.items():
        if _CLI_SWITCH.match(name) and not _CREDENTIAL.search(name):
            out.setdefault(name, value)
    return out


def bwrap_argv(
    *,
    workdir: Path,
    home: Path,
    control: Path,
    program: Iterable[str],
    env: Mapping[str, str],
    ro_binds: Iterable[Path] = (),
    uid: int = SANDBOX_UID,
) -> list[str]:
    """The full command line running ``program`` confined (see the module docstring).

    ``control`` is a host-side folder of the run (not visible inside except the synthetic
    passwd/group files it holds); ``workdir`` and ``home`` are bound at their host paths so
    paths the SDK passes on the command line stay valid inside."""
    passwd = control / "passwd"
    group = control / "group"
    passwd.write_text(f"agent:x:{uid}:{uid}:agent:{home}:/bin/sh\n", encoding="utf-8")
    group.write_text(f"agent:x:{uid}:\n", encoding="utf-8")
    argv = [
        bwrap_path(),
        "--die-with-parent",
        "--new-session",
        "--unshare-user",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--uid",
        str(uid),
        "--gid",
        str(uid),
        "--clearenv",
    ]
    for directory in _SYSTEM_DIRS:
        path = Path(directory)
        if path.is_symlink():
            argv += ["--symlink", str(path.readlink()), directory]
        elif path.is_dir():
            argv += ["--ro-bind", directory, directory]
    for entry in _ETC_FILES:
        if Path(entry).exists():
            argv += ["--ro-bind", entry, entry]
    argv += ["--ro-bind", str(passwd), "/etc/passwd", "--ro-bind", str(group), "/etc/group"]
    program = list(program)
    binary = Path(program[0]).resolve()
    if not any(str(binary).startswith(d + "/") for d in _SYSTEM_DIRS):
        # The agent binary's folder appears at a neutral path: binding it where it lives
        # (often inside the project's virtualenv) would reveal the project's path.
        argv += ["--ro-bind", str(binary.parent), AGENT_BIN]
        program[0] = f"{AGENT_BIN}/{binary.name}"
    seen: set[str] = set()
    for bind in ro_binds:
        resolved = str(Path(bind).resolve())
        if resolved in seen or any(resolved.startswith(d + "/") for d in _SYSTEM_DIRS):
            continue
        seen.add(resolved)
        argv += ["--ro-bind", resolved, resolved]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--bind",
        str(workdir),
        str(workdir),
        "--bind",
        str(home),
        str(home),
        "--chdir",
        str(workdir),
    ]
    inside = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "HOME": str(home),
        "PWD": str(workdir),
        "TMPDIR": "/tmp",
        **env,
    }
    for name, value in sorted(inside.items()):
        argv += ["--setenv", name, value]
    return [*argv, "--", *program]


def write_wrapper(
    path: Path,
    *,
    workdir: Path,
    home: Path,
    control: Path,
    program: list[str],
    ro_binds: list[Path],
    uid: int = SANDBOX_UID,
) -> Path:
    """Write an executable that runs ``program`` (plus its own arguments) in the sandbox.

    The script carries no secret: the values it forwards are read from the environment it
    is started with, by the names listed in ``$STUDYBENCH_SANDBOX_FORWARD``."""
    spec = {
        "workdir": str(workdir),
        "home": str(home),
        "control": str(control),
        "program": program,
        "ro_binds": [str(p) for p in ro_binds],
        "uid": uid,
        "pythonpath": str(Path(__file__).resolve().parents[2]),
    }
    script = f"""#!{sys.executable} -I
import json, os, sys
spec = json.loads({json.dumps(json.dumps(spec))})
sys.path.insert(0, spec["pythonpath"])
from pathlib import Path
from studybench.engines.agent_sandbox import FORWARD_VARIABLE, bwrap_argv, forwarded_env
allowed = [n for n in os.environ.get(FORWARD_VARIABLE, "").split(",") if n]
argv = bwrap_argv(
    workdir=Path(spec["workdir"]), home=Path(spec["home"]), control=Path(spec["control"]),
    program=[*spec["program"], *sys.argv[1:]], env=forwarded_env(os.environ, allowed),
    ro_binds=[Path(p) for p in spec["ro_binds"]], uid=spec["uid"],
)
# bwrap itself starts with an EMPTY environment: with --unshare-pid it is PID 1 inside,
# and /proc/1/environ would show whatever it was started with (--clearenv cleans only
# the child).
os.execve(argv[0], argv, {{}})
"""
    path.write_text(script, encoding="utf-8")
    path.chmod(0o700)
    return path
