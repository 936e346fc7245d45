"""``scoped``: a root field's resolver, written with its namespace already checked.

Every root field reads or writes one namespace, and its first step is always the same:
validate the ``namespace`` argument and check the key may use it (``Context.namespace``).
A resolver is written as ``f(ctx, ns, ...)``; strawberry sees it as ``f(info, namespace:
NamespaceArg, ...)``, and the namespace is checked before the resolver's own code runs.
(The context is seen through ``Scoping`` alone, so this module stays below context.py.)"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

import strawberry

from graphmem.core.namespaces import Namespace

NamespaceArg = Annotated[str, strawberry.argument(
    description="The namespace (unit of isolation, usually one end user), e.g. `acme/user-42`.")]
P = ParamSpec("P")
R = TypeVar("R")


class Scoping(Protocol):
    """The context as a scoped resolver's entry sees it (``context.Context``)."""

    def namespace(self, raw: str) -> Namespace: ...


C = TypeVar("C", bound=Scoping)


def enter(info: strawberry.Info[Any, Any], namespace: str) -> tuple[Any, Namespace]:
    """The context, and the namespace validated and authorized for this key."""
    ctx = info.context
    return ctx, ctx.namespace(namespace)


def scoped(resolve: Callable[Concatenate[C, Namespace, P], R]) -> Callable[..., R]:
    """The resolver (a coroutine or an async generator) as strawberry calls it: ``info`` and
    ``namespace`` in place of the first two parameters, checked by ``enter`` when it runs (as
    the resolver's own first line would: a subscription's as it begins to stream)."""
    published: Any
    if inspect.isasyncgenfunction(resolve):
        async def stream(info: strawberry.Info[Any, Any], namespace: str, *args: Any,
                         **kwargs: Any) -> AsyncIterator[Any]:
            async for item in cast(Any, resolve)(*enter(info, namespace), *args, **kwargs):
                yield item
        published = stream
    else:
        async def run(info: strawberry.Info[Any, Any], namespace: str, *args: Any,
                      **kwargs: Any) -> Any:
            return await cast(Any, resolve)(*enter(info, namespace), *args, **kwargs)
        published = run
    functools.update_wrapper(published, resolve)  # its name, and its module: the annotations'
    own = inspect.signature(resolve)
    rest = list(own.parameters.values())[2:]
    first = [inspect.Parameter("info", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                               annotation=strawberry.Info),
             inspect.Parameter("namespace", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                               annotation=NamespaceArg)]
    published.__signature__ = own.replace(parameters=[*first, *rest])
    published.__annotations__ = {"info": strawberry.Info, "namespace": NamespaceArg,
                                 **{p.name: p.annotation for p in rest},
                                 "return": own.return_annotation}
    return cast(Callable[..., R], published)
