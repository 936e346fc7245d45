"""The base of ariadne-codegen's ``Client`` (copied to ``_generated/base_client.py``): one
httpx call, and graphmem's typed errors instead of the generator's own. The facade (``Memory``)
does not use the generated client; it is there for every operation in ``queries/``, typed."""

from enum import Enum
from typing import Any

import httpx
from pydantic import BaseModel

from graphmem_client._http import data_of

from .base_model import UnsetType


class BaseClient:
    def __init__(self, url: str = "", headers: dict[str, str] | None = None,
                 http_client: httpx.AsyncClient | None = None) -> None:
        self.url = url
        self.http_client = http_client or httpx.AsyncClient(headers=headers)

    async def __aenter__(self) -> "BaseClient":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.http_client.aclose()

    async def execute(self, query: str, operation_name: str | None = None,
                      variables: dict[str, Any] | None = None,
                      **kwargs: Any) -> httpx.Response:
        payload = {"query": query, "operationName": operation_name,
                   "variables": _plain(variables or {})}
        return await self.http_client.post(self.url, json=payload, **kwargs)

    def get_data(self, response: httpx.Response) -> dict[str, Any]:
        return data_of(response)


def _plain(value: Any) -> Any:
    """Variables as JSON: input models by their GraphQL names, unset arguments left out."""
    if isinstance(value, BaseModel):
        return _plain(value.model_dump(by_alias=True, exclude_unset=True))
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not isinstance(v, UnsetType)}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    return value
