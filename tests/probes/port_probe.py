"""A planted unmarked test that opens a listening port. Not collected by a normal session (the
file name does not match ``test_*.py``); ``tests/test_tiers.py`` runs it by path inside a
``--fast-tier`` session and asserts that the guard fails that session naming this test."""

from __future__ import annotations

import socket


def test_probe_an_unmarked_test_that_opens_a_port() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        assert sock.getsockname()[1] > 0  # reached only when no guard refused the listen
