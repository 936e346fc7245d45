"""The worker's rounds over namespaces (retention, pruning, idle ephemeral sessions): each
namespace's share fails on its own. A namespace whose share raises — a policy an old import
stored with ``action: "evil"``, an archive store that is not configured — is reported (its
name and the error's type, never a message: one may quote stored content) and the round goes
on to every other namespace, so one tenant never stops another's sweeps."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from graphmem.core.errors import DatabaseUnavailable, GraphmemError
from graphmem.observability import metrics

log = logging.getLogger(__name__)
T = TypeVar("T")


async def each_namespace(task: str, namespaces: Iterable[str],
                         work: Callable[[str], Awaitable[T]]) -> list[T]:
    """``work`` for each namespace in turn; what the namespaces that did not fail gave."""
    done = []
    for ns in namespaces:
        try:
            done.append(await work(ns))
        except DatabaseUnavailable:  # everyone's trouble: the round ends, the worker retries
            raise
        except Exception as exc:  # that namespace's trouble: the others go on
            report(task, ns, exc)
    return done


def report(task: str, ns: str, exc: BaseException) -> None:
    """Log and count one namespace's failure in a round."""
    metrics.HOUSEKEEPING_FAILURES.labels(task).inc()
    log.warning("%s: namespace %s failed (%s); the other namespaces go on", task, ns,
                kind(exc))


def kind(exc: BaseException) -> str:
    """The error's type (and code): what a log line may say of it."""
    code = f" {exc.code}" if isinstance(exc, GraphmemError) else ""
    return f"{type(exc).__name__}{code}"
