"""A scripted Anthropic Messages API server on 127.0.0.1, for testing `AnthropicPolicy` unpatched.

It runs `http.server` in a background thread, so it serves a test on asyncio and on trio
alike. Each test scripts the responses in order (a message of `text` and `tool_use`
blocks, an HTTP status such as 429 or 529, or a hang) and reads back the requests the
server received. Requests the real API would refuse (a `tool_use` left unanswered, an
empty text block, no `max_tokens`) get a 400, so a rendering bug cannot hide.
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
    """Answer 200 with one assistant message: a text block (if any), then `tool_use` blocks."""

    text: str | None = None
    tool_uses: tuple[tuple[str, dict[str, Any]], ...] = ()
    """`(tool name, input object)`, one `tool_use` block each."""
    usage: tuple[int, int] = (13, 5)
    """`(input_tokens, output_tokens)`."""


@dataclass(frozen=True)
class Status:
    """Answer with an HTTP error status and an Anthropic-style error body."""

    code: int
    message: str = "scripted failure"
    retry_after: str | None = None


@dataclass(frozen=True)
class Hang:
    """Accept the request and send nothing for `seconds` (or until the server stops)."""

    seconds: float = 30.0


Script = Say | Status | Hang

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class Recorded:
    """One request as the server received it."""

    path: str
    headers: dict[str, str]
    """Header names lower-cased (HTTP names are case-insensitive)."""
    body: dict[str, Any]


@dataclass
class FakeAnthropic:
    """The server's script and its record. `base_url` has no `/v1`: the client adds it."""

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
        """How many /v1/messages requests arrived."""
        with self._lock:
            return len(self.requests)

    def _next(self, recorded: Recorded) -> Script:
        with self._lock:
            self.requests.append(recorded)
            if not self.script:
                return Status(500, "fake server: script exhausted")
            return self.script.pop(0)

    def _message(self, say: Say, model: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if say.text is not None:
            content.append({"type": "text", "text": say.text})
        for name, tool_input in say.tool_uses:
            content.append(
                {"type": "tool_use", "id": f"toolu_{next(self._ids):04d}", "name": name, "input": tool_input}
            )
        inputs, outputs = say.usage
        return {
            "id": f"msg_{next(self._ids):04d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": "tool_use" if say.tool_uses else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": inputs, "output_tokens": outputs},
        }


def _blocks_problem(where: str, content: Any, role: str) -> str:
    if isinstance(content, str):
        return "" if content else f"{where}: empty content"
    if not isinstance(content, list) or not content:
        return f"{where}: content must be a non-empty string or list of blocks"
    allowed = {"user": {"text", "tool_result"}, "assistant": {"text", "tool_use"}}[role]
    for index, block in enumerate(content):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in allowed:
            return f"{where}.content[{index}]: block type {kind!r} not allowed in a {role} message"
        if kind == "text" and not (isinstance(block.get("text"), str) and block["text"].strip()):
            return f"{where}.content[{index}]: text content blocks must be non-empty"
        if kind == "tool_use" and not (isinstance(block.get("input"), dict) and block.get("id")):
            return f"{where}.content[{index}]: tool_use needs an id and an input object"
    return ""


def conversation_problem(body: Any) -> str:
    """Why the API would refuse this request (shape and the tool_use pairing rules), or ''."""
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: field required"
    system = body.get("system")
    if system is not None and not isinstance(system, (str, list)):
        return "system: must be a string or a list of text blocks"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: must be a non-empty list"
    if messages[0].get("role") != "user":
        return "messages: the first message must use the user role"
    waiting: list[str] = []  # tool_use ids of the previous assistant message
    for index, message in enumerate(messages):
        role, content, where = message.get("role"), message.get("content"), f"messages[{index}]"
        if role not in ("user", "assistant"):
            return f"{where}: bad role {role!r}"
        problem = _blocks_problem(where, content, role)
        if problem:
            return problem
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        if waiting:
            if role != "user":
                return f"{where}: tool_use ids {waiting} were not answered by tool_result blocks"
            kinds = [block["type"] for block in blocks]
            results = [block.get("tool_use_id") for block in blocks if block["type"] == "tool_result"]
            if kinds[: len(results)] != ["tool_result"] * len(results):
                return f"{where}: tool_result blocks must come first in the user message"
            if sorted(map(str, results)) != sorted(waiting):
                return f"{where}: tool_result ids {results} do not match tool_use ids {waiting}"
        elif any(block["type"] == "tool_result" for block in blocks):
            return f"{where}: tool_result answers no tool_use in the previous message"
        waiting = [block["id"] for block in blocks if block["type"] == "tool_use"]
    if waiting:
        return f"tool_use ids {waiting} were not answered"
    return ""


def sent_key(headers: dict[str, str]) -> str:
    """The credential a request carried: `x-api-key`, or a bearer token (newer clients send that)."""
    bearer = headers.get("authorization", "")
    return headers.get("x-api-key") or (bearer[len("Bearer ") :] if bearer.startswith("Bearer ") else "")


def _handler(fake: FakeAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            body = json.loads(raw) if raw else {}
            recorded = Recorded(
                path=self.path, headers={k.lower(): v for k, v in self.headers.items()}, body=body
            )
            if self.path != "/v1/messages":
                self._error(404, f"no route {self.path}")
                return
            problem = conversation_problem(body)
            if not self.headers.get("anthropic-version"):
                problem = "anthropic-version: header is required"
            if problem:  # what the real API refuses with a 400
                fake._next(recorded)
                self._error(400, problem)
                return
            if not sent_key(recorded.headers):
                fake._next(recorded)
                self._error(401, "x-api-key header is required")
                return
            step = fake._next(recorded)
            match step:
                case Say():
                    self._send(200, fake._message(step, str(body.get("model", "fake"))))
                case Status():
                    extra = {"Retry-After": step.retry_after} if step.retry_after else {}
                    self._error(step.code, step.message, extra)
                case Hang():
                    fake._stopping.wait(step.seconds)
                    self.close_connection = True

        def _error(self, code: int, message: str, extra: dict[str, str] | None = None) -> None:
            kind = _ERROR_TYPES.get(code, "api_error")
            self._send(code, {"type": "error", "error": {"type": kind, "message": message}}, extra)

        def _send(self, code: int, payload: dict[str, Any], extra: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("request-id", f"req_{next(fake._ids):04d}")
                for key, value in (extra or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to report

    return Handler


@contextmanager
def serve() -> Iterator[FakeAnthropic]:
    """Start a fake server on an ephemeral loopback port; stop it (and release hangs) on exit."""
    fake = FakeAnthropic()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    # A short poll keeps shutdown (one per test) quick.
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), name="fake-anthropic", daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake._stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
