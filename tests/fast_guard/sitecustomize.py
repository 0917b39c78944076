"""The fast tier's guard in every Python child of a ``pytest --fast-tier`` session (this folder
is put first on PYTHONPATH): a listening socket is refused and recorded in the session's
violations file, so a server started by a subprocess cannot slip into the fast tier either.
Standard library only; does nothing unless the session set the violations variable."""

from __future__ import annotations

import json
import os
import socket

_TARGET = os.environ.get("STUDYBENCH_FAST_TIER_VIOLATIONS")

if _TARGET:
    _FILE: str = _TARGET

    def _refusing_listen(self: socket.socket, *args: object) -> None:
        what = f"listen() on {self.getsockname()!r}"
        line = {"what": what, "pid": os.getpid(), "test": os.environ.get("PYTEST_CURRENT_TEST")}
        with open(_FILE, "a") as out:  # noqa: PTH123 (kept to the bare standard library)
            out.write(json.dumps(line) + "\n")
        raise OSError(f"the fast tier opens no listening port ({what}): mark the test `server`")

    socket.socket.listen = _refusing_listen  # type: ignore[method-assign,assignment]
