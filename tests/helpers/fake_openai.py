"""A scripted Chat Completions server on 127.0.0.1, for testing model policies without patching clients.

It runs `http.server` in a background thread, so it serves a test on asyncio and on trio
alike. Each test scripts the responses in order (an assistant message, tool calls, an
HTTP status, or a hang) and reads back the requests the server received.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Say:
    """Answer 200 with one assistant message: text content and/or tool calls."""

    content: str | None = None
    tool_calls: tuple[tuple[str, dict[str, Any] | str], ...] = ()
    """`(function name, arguments)`; arguments given as a str are sent verbatim (malformed JSON)."""
    usage: tuple[int, int] = (11, 7)


@dataclass(frozen=True)
class Status:
    """Answer with an HTTP error status and an OpenAI-style error body."""

    code: int
    message: str = "scripted failure"
    retry_after: str | None = None


@dataclass(frozen=True)
class Hang:
    """Accept the request and send nothing for `seconds` (or until the server stops)."""

    seconds: float = 30.0


Script = Say | Status | Hang


@dataclass
class Recorded:
    """One request as the server received it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeOpenAI:
    """The server's script and its record. `base_url` ends in `/v1`, as clients expect."""

    base_url: str = ""
    script: list[Script] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def push(self, *items: Script) -> None:
        """Append responses to the script, served in order, one per request."""
        with self._lock:
            self.script.extend(items)

    @property
    def calls(self) -> int:
        """How many chat-completion requests arrived."""
        with self._lock:
            return len(self.requests)

    def _next(self, recorded: Recorded) -> Script:
        with self._lock:
            self.requests.append(recorded)
            if not self.script:
                return Status(599, "fake server: script exhausted")
            return self.script.pop(0)

    def _completion(self, say: Say, model: str) -> dict[str, Any]:
        tool_calls = []
        for name, arguments in say.tool_calls:
            raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
            tool_calls.append(
                {
                    "id": f"call_{next(self._ids)}",
                    "type": "function",
                    "function": {"name": name, "arguments": raw},
                }
            )
        message: dict[str, Any] = {"role": "assistant", "content": say.content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        prompt, completion = say.usage
        return {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }


def _conversation_problem(messages: Any) -> str:
    """Why the API would refuse this message list (the tool-call pairing rules), or ''."""
    if not isinstance(messages, list) or not messages:
        return "messages must be a non-empty list"
    waiting: list[str] = []  # tool_call ids of the last assistant message not yet answered
    for index, message in enumerate(messages):
        role = message.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            return f"messages[{index}]: bad role {role!r}"
        if role == "tool":
            if message.get("tool_call_id") not in waiting:
                return f"messages[{index}]: tool message answers no pending tool call"
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            return f"messages[{index}]: tool calls {waiting} were not answered"
        if role == "assistant":
            waiting = [call["id"] for call in message.get("tool_calls") or []]
            if message.get("content") is None and not waiting:
                return f"messages[{index}]: assistant message with neither content nor tool calls"
        elif not isinstance(message.get("content"), str):
            return f"messages[{index}]: content must be a string"
    if waiting:
        return f"tool calls {waiting} were not answered"
    return ""


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            body = json.loads(raw) if raw else {}
            recorded = Recorded(path=self.path, headers=dict(self.headers.items()), body=body)
            if not self.path.endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            problem = _conversation_problem(body.get("messages"))
            if problem:  # what the real API refuses with a 400, so a rendering bug cannot hide
                fake._next(recorded)
                self._send(400, {"error": {"message": problem, "type": "invalid_request_error"}})
                return
            step = fake._next(recorded)
            match step:
                case Say():
                    self._send(200, fake._completion(step, str(body.get("model", "fake"))))
                case Status():
                    extra = {"Retry-After": step.retry_after} if step.retry_after else {}
                    error = {"message": step.message, "type": "scripted", "code": str(step.code)}
                    self._send(step.code, {"error": error}, extra)
                case Hang():
                    fake._stopping.wait(step.seconds)
                    self.close_connection = True

        def _send(self, code: int, payload: dict[str, Any], extra: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (extra or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to report

    return Handler


@contextmanager
def serve() -> Iterator[FakeOpenAI]:
    """Start a fake server on an ephemeral loopback port; stop it (and release hangs) on exit."""
    fake = FakeOpenAI()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    # A short poll keeps shutdown (one per test) quick.
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), name="fake-openai", daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake._stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
