"""Optional OpenTelemetry tracing: a span per GraphQL operation, per transaction and named
Cypher statement, per embedding batch, per LLM call and per pipeline job.

Off by default, and then free: ``Tracing.span`` is one ``None`` check. ``GRAPHMEM_TRACING=otlp``
exports over OTLP/HTTP to the standard ``OTEL_EXPORTER_OTLP_*`` endpoint (install the
``graphmem[tracing]`` extra); ``console`` prints spans to stdout for a look without a
collector. A client's W3C ``traceparent`` header makes graphmem's spans part of its trace.

Spans carry names, sizes, ids and error codes, never memory content: no GraphQL document (its
literals may be content), no variables, no Cypher parameters and no exception messages.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, GraphmemError

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Tracer

Attributes = Mapping[str, str | int | float | bool]
Kind = Literal["internal", "client", "server"]

class Tracing:
    """Where one app's (or CLI command's) spans go: nowhere (the default), or a provider's
    exporter. Each ``Database`` holds one, shared by its copies (``Database.tracing``), and
    every layer that makes spans reaches it from there, so two apps in one process trace
    apart (as the driver keeps its configuration on its Driver)."""

    def __init__(self, provider: TracerProvider | None = None) -> None:
        self._provider: TracerProvider | None = None
        self._tracer: Tracer | None = None
        self.install(provider)

    def install(self, provider: TracerProvider | None) -> None:
        """Trace into ``provider`` (None: stop tracing). ``configured`` calls it; tests may too."""
        self._provider = provider
        self._tracer = provider.get_tracer("graphmem") if provider is not None else None

    def shutdown(self) -> None:
        """Flush the spans still queued for export (the app or command ends)."""
        if self._provider is not None:
            self._provider.shutdown()
            self.install(None)

    @property
    def enabled(self) -> bool:
        return self._tracer is not None

    @contextmanager
    def span(self, name: str, attributes: Attributes | None = None, *,
             kind: Kind = "internal", parent: Context | None = None,
             child_only: bool = False) -> Iterator[Any]:
        """A span around the block, current inside it (so nested spans become its children).

        ``child_only`` spans are recorded only inside another (a statement inside a request
        or a job), so idle polls for work do not each start a trace. Yields the span, or None
        when there is none, for attributes known only at the end."""
        if self._tracer is None:
            yield None
            return
        from opentelemetry.trace import SpanKind, get_current_span

        if child_only and not get_current_span().is_recording():
            yield None
            return

        # Exceptions are not recorded as given: their messages may quote what a client sent.
        with self._tracer.start_as_current_span(name, context=parent,
                                                kind=SpanKind[kind.upper()],
                                                attributes=attributes,
                                                record_exception=False,
                                                set_status_on_exception=False) as current:
            try:
                yield current
            except BaseException as exc:
                _failed(current, error_type(exc))
                raise

    def server_span(self, name: str, headers: Mapping[str, str],
                    attributes: Attributes | None = None) -> Any:
        """``span`` for a request: continues the trace of the client's ``traceparent``."""
        if self._tracer is None:
            return self.span(name)
        from opentelemetry.propagate import extract

        return self.span(name, attributes, kind="server", parent=extract(dict(headers)))

    def annotate(self, name: str, attributes: Attributes, error: str | None = None) -> None:
        """Rename the current span and add to it what is known only later (the GraphQL
        operation once parsed); ``error`` marks it failed without an exception (a result
        with errors)."""
        if self._tracer is None:
            return
        from opentelemetry.trace import get_current_span

        current = get_current_span()
        if not current.is_recording():
            return
        current.update_name(name)
        current.set_attributes(attributes)
        if error is not None:
            _failed(current, error)


def configured(settings: Settings) -> Tracing:
    """Spans exported as ``settings.tracing`` says: off, OTLP/HTTP, or the console."""
    if settings.tracing == "off":
        return Tracing()
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
    except ImportError:
        raise ConfigError(f"GRAPHMEM_TRACING={settings.tracing} needs OpenTelemetry: "
                          "pip install 'graphmem[tracing]'") from None
    provider = TracerProvider(resource=Resource.create({"service.name": "graphmem"}))
    if settings.tracing == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    return Tracing(provider)


def _failed(current: Any, error: str) -> None:
    from opentelemetry.trace import StatusCode

    current.set_attribute("error.type", error)
    current.set_status(StatusCode.ERROR)


def error_type(exc: BaseException) -> str:
    """graphmem's error code, else the exception's class: never its message."""
    return exc.code if isinstance(exc, GraphmemError) else type(exc).__qualname__
