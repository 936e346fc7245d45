"""Exporting encrypted memory: sealed content stays sealed unless asked, sealed content
cannot be moved into another namespace, and decrypted content is sealed again on import."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput
from graphmem.portability.importing import import_lines
from tests.portability.files import exported, lines
from tests.support.apps import OwnApp, keyed, new_key, own_app
from tests.support.documents import RECORD, said
from tests.support.graph import delete_namespace, namespace_contents

SECRET = "Zanzibar-41c9"
EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 10) {
  nodes { externalId content } } }"""


@pytest.fixture
async def sealed(settings: Settings, admin_token: str, app: Starlette) -> AsyncIterator[OwnApp]:
    async with own_app(settings, admin_token, app, **keyed(new_key())) as own:
        yield own


async def test_sealed_content_is_exported_sealed_and_stays_in_its_namespace(
        sealed: OwnApp, ns: str) -> None:
    db, gql = sealed.db, sealed.gql
    await gql.ok(RECORD, ns=ns, eps=[said("s1", "2026-05-01T10:00:00Z", f"the code is {SECRET}")])
    file = lines(await exported(db, ns))
    assert SECRET not in "\n".join(file) and json.loads(file[0])["decrypted"] is False
    with pytest.raises(InvalidInput, match="encrypted and bound to namespace"):
        await import_lines(db, file, into=f"{ns}-copy")
    assert await namespace_contents(db, f"{ns}-copy") == []
    await delete_namespace(db, ns)
    await import_lines(db, file)  # back where it came from: it opens again
    assert (await gql.ok(EPISODES, ns=ns))["episodes"]["nodes"][0]["content"] == \
        f"the code is {SECRET}"


async def test_decrypted_content_is_sealed_again_where_it_is_imported(
        sealed: OwnApp, ns: str) -> None:
    db, gql = sealed.db, sealed.gql
    other = f"{ns}-copy"
    episode = said("s1", "2026-05-01T10:00:00Z", f"the code is {SECRET}")
    await gql.ok(RECORD, ns=ns, eps=[episode])
    file = lines(await exported(db, ns, decrypt=True))
    assert SECRET in "\n".join(file)
    try:
        await import_lines(db, file, into=other)
        assert SECRET not in "\n".join(await namespace_contents(db, other))
        assert (await gql.ok(EPISODES, ns=other))["episodes"]["nodes"][0]["content"] == \
            f"the code is {SECRET}"
        retried = await gql.ok(RECORD, ns=other, eps=[episode])  # its hash still matches
        assert retried["recordEpisodes"]["duplicates"] == 1
    finally:
        await delete_namespace(db, other)
