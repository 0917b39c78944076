"""A scripted Anthropic Messages endpoint on loopback.

The Messages API needs an account, so the Anthropic engine and the agent backend are tested
against this server: the engine through the real ``anthropic`` SDK, the agent through the
real Claude Code CLI (``ANTHROPIC_BASE_URL``), which streams (server-sent events). The
script decides, per request, the status, the text, extra headers and a delay; every request
body and its headers are recorded for assertions.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    text: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    stop_reason: str = "end_turn"
    input_tokens: int = 11
    output_tokens: int = 5
    tool_use: dict[str, Any] | None = None  # {"name": "Bash", "input": {...}}: ask for a tool


Script = Callable[[dict[str, Any]], Reply]
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}
_WORKDIR = re.compile(r"(/[^\s\"']*studybench-agent-[^/\s\"']+)")


def run_folder(body: dict[str, Any]) -> str:
    """The agent run a request belongs to (its working folder appears in the prompt)."""
    found = _WORKDIR.search(json.dumps(body))
    return found.group(1) if found else ""


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def _content(reply: Reply) -> list[dict[str, Any]]:
    if reply.tool_use:
        return [{"type": "tool_use", "id": "toolu_test", **reply.tool_use}]
    return [{"type": "text", "text": reply.text}]


def tool_results(body: dict[str, Any]) -> list[str]:
    """The text of every tool result the client sent back in ``body``."""
    out = []
    for message in body.get("messages", []):
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, str):
                    out.append(inner)
                elif isinstance(inner, list):
                    out.extend(b.get("text", "") for b in inner if isinstance(b, dict))
    return out


def _message(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "m"),
        "content": _content(reply),
        "stop_reason": "tool_use" if reply.tool_use else reply.stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
    }


class LoopbackServer(ThreadingHTTPServer):
    """A threading server whose listen backlog fits a client with dozens of requests in
    flight (the default of 5 refuses connections under load: a flaky test, not a fault)."""

    request_queue_size = 128
    daemon_threads = True


@contextmanager
def fake_anthropic(script: Script) -> Iterator[tuple[str, list[Received]]]:
    """Serve ``script``; yield (base URL without ``/v1``, received requests)."""
    received: list[Received] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            return

        def _send(self, status: int, data: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {}
            if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                self._send(200, b'{"input_tokens": 10}', {})
                return
            with lock:
                received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
            reply = script(body)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            try:
                if reply.status != 200:
                    kind = ERROR_TYPES.get(reply.status, "api_error")
                    error = {"type": "error", "error": {"type": kind, "message": reply.text}}
                    self._send(reply.status, json.dumps(error).encode(), reply.headers)
                elif body.get("stream"):
                    self._stream(body, reply)
                else:
                    self._send(200, json.dumps(_message(body, reply)).encode(), reply.headers)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _stream(self, body: dict[str, Any], reply: Reply) -> None:
            if reply.tool_use:
                block: dict[str, Any] = {
                    "type": "tool_use",
                    "id": "toolu_test",
                    "name": reply.tool_use["name"],
                    "input": {},
                }
                delta: dict[str, Any] = {
                    "type": "input_json_delta",
                    "partial_json": json.dumps(reply.tool_use["input"]),
                }
                stop = "tool_use"
            else:
                block = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": reply.text}
                stop = reply.stop_reason
            start = {
                **_message(body, reply),
                "content": [],
                "stop_reason": None,
                "usage": {"input_tokens": reply.input_tokens, "output_tokens": 0},
            }
            events = [
                ("message_start", {"type": "message_start", "message": start}),
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": 0, "content_block": block},
                ),
                (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": 0, "delta": delta},
                ),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": stop, "stop_sequence": None},
                        "usage": {"output_tokens": reply.output_tokens},
                    },
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
            data = "".join(
                f"event: {name}\ndata: {json.dumps(payload)}\n\n" for name, payload in events
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send(404, b"{}", {})

    server = LoopbackServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
