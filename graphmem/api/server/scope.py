"""``scoped``: a root field's resolver, written with its namespace already checked.

Every root field reads or writes one namespace, and its first step is always the same:
validate the ``namespace`` argument and check the key may use it (``Context.namespace``).
A resolver is written as ``f(ctx, ns, ...)``; strawberry sees it as ``f(info, namespace:
NamespaceArg, ...)``, and the namespace is checked before the resolver's own code runs."""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from graphmem.api.server.arguments import NamespaceArg
from graphmem.api.server.context import Context, Info
from graphmem.core.namespaces import Namespace

P = ParamSpec("P")
R = TypeVar("R")


def enter(info: Info, namespace: str) -> tuple[Context, Namespace]:
    """The context, and the namespace validated and authorized for this key."""
    ctx = info.context
    return ctx, ctx.namespace(namespace)


def scoped(resolve: Callable[Concatenate[Context, Namespace, P], R]) -> Callable[..., R]:
    """The resolver (a coroutine or an async generator) as strawberry calls it: ``info`` and
    ``namespace`` in place of the first two parameters, checked by ``enter`` when it runs (as
    the resolver's own first line would: a subscription's as it begins to stream)."""
    published: Any
    if inspect.isasyncgenfunction(resolve):
        async def stream(info: Info, namespace: str, *args: Any, **kwargs: Any,
                         ) -> AsyncIterator[Any]:
            async for item in cast(Any, resolve)(*enter(info, namespace), *args, **kwargs):
                yield item
        published = stream
    else:
        async def run(info: Info, namespace: str, *args: Any, **kwargs: Any) -> Any:
            return await cast(Any, resolve)(*enter(info, namespace), *args, **kwargs)
        published = run
    functools.update_wrapper(published, resolve)  # its name, and its module: the annotations'
    own = inspect.signature(resolve)
    rest = list(own.parameters.values())[2:]
    first = [inspect.Parameter("info", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Info),
             inspect.Parameter("namespace", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                               annotation=NamespaceArg)]
    published.__signature__ = own.replace(parameters=[*first, *rest])
    published.__annotations__ = {"info": Info, "namespace": NamespaceArg,
                                 **{p.name: p.annotation for p in rest},
                                 "return": own.return_annotation}
    return cast(Callable[..., R], published)
