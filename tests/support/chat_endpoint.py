"""A local stand-in for a remote LLM: an HTTP server speaking the OpenAI chat-completions
wire protocol, answering from a script of recorded replies. The real ``openai`` client talks
to it over loopback; nothing in graphmem is patched.

Each request takes the next scripted ``Reply`` (the last one repeats). A reply can be a
completion (JSON text or prose), a refusal, an HTTP error (429, 500, a 400 for an unsupported
``response_format``), or a delay longer than the client's timeout.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    content: str = ""
    status: int = 200
    delay_s: float = 0.0
    refusal: str | None = None
    # response_format types this endpoint rejects with a 400, as older local servers do
    rejects: frozenset[str] = frozenset()
    prompt_tokens: int = 120
    completion_tokens: int = 30
    # the model calls tools instead: [{"id", "type": "function", "function": {"name",
    # "arguments": JSON text}}], as OpenAI answers them
    tool_calls: list[dict[str, Any]] | None = None
    finish_reason: str | None = None  # what it says (default: stop, or tool_calls)


def facts_reply(*facts: dict[str, Any], **kwargs: Any) -> Reply:
    return Reply(content=json.dumps({"facts": list(facts)}), **kwargs)


@dataclass
class ChatEndpoint:
    script: list[Reply] = field(default_factory=list)
    answer: Callable[[dict[str, Any]], Reply] | None = None  # instead of the script
    seen: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""

    def next_reply(self, request: dict[str, Any]) -> Reply:
        if self.answer is not None:
            return self.answer(request)
        return self.script.pop(0) if len(self.script) > 1 else self.script[0]


@contextmanager
def chat_endpoint(*script: Reply) -> Iterator[ChatEndpoint]:
    endpoint = ChatEndpoint(list(script))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            endpoint.seen.append({"path": self.path, **request})
            reply = endpoint.next_reply(request)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            wanted = (request.get("response_format") or {}).get("type")
            if wanted in reply.rejects:
                return self._send(400, {"error": {
                    "message": f"response_format {wanted} is not supported",
                    "type": "invalid_request_error", "code": None, "param": "response_format"}})
            if reply.status != 200:
                return self._send(reply.status, {"error": {
                    "message": "scripted failure", "type": "server_error", "code": None}})
            self._send(200, {
                "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                "model": request["model"],
                "choices": [{"index": 0, "message": {
                    "role": "assistant", "content": None if reply.refusal else reply.content,
                    "refusal": reply.refusal,
                    **({"tool_calls": reply.tool_calls} if reply.tool_calls else {})},
                    "finish_reason": reply.finish_reason
                    or ("tool_calls" if reply.tool_calls else "stop")}],
                "usage": {"prompt_tokens": reply.prompt_tokens,
                          "completion_tokens": reply.completion_tokens,
                          "total_tokens": reply.prompt_tokens + reply.completion_tokens}})

        def _send(self, status: int, body: dict[str, Any]) -> None:
            payload = json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
