"""An OTLP/HTTP trace collector on a local port: the wire protocol graphmem's exporter speaks
(``GRAPHMEM_TRACING=otlp``), for tests that read what an app exported."""

from __future__ import annotations

import contextlib
import gzip
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span


class Received:
    """What the collector was sent: each span with the resource that sent it."""

    def __init__(self) -> None:
        self.requests: list[ExportTraceServiceRequest] = []

    def spans(self) -> list[tuple[Resource, Span]]:
        return [(resource.resource, span) for request in self.requests
                for resource in request.resource_spans
                for scope in resource.scope_spans for span in scope.spans]


@contextlib.contextmanager
def otlp_collector(monkeypatch: pytest.MonkeyPatch) -> Iterator[Received]:
    """A collector, and ``OTEL_EXPORTER_OTLP_ENDPOINT`` pointing at it (read when an app
    with ``tracing="otlp"`` is made)."""
    received = Received()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            received.requests.append(request)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{server.server_port}")
    try:
        yield received
    finally:
        server.shutdown()
