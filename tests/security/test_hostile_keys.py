"""`graphmem keys create` as an operator may misuse it, pasting a name or a grant from
somewhere else: what it refuses it refuses whole (no key stored), and what it stores can be
listed without forging lines in the operator's terminal."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from graphmem.db.database import Database

pytestmark = pytest.mark.hostile("cli")


def _graphmem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "graphmem", *args], capture_output=True,
                          text=True, timeout=120)


async def _stored(db: Database, name: str) -> int:
    records, _, _ = await db.driver.execute_query(
        "MATCH (k:ApiKey) WHERE k.name = $name RETURN count(k) AS n", {"name": name},
        database_=db.name)
    return int(records[0]["n"])


@pytest.mark.parametrize("suffix", [
    "\nINFO key admin created",  # a forged line in `keys list`
    "\x1b[2K\x1b[1Aadmin",  # a terminal escape that rewrites the line above
    "\u202eevil",  # a right-to-left override (invisible, Cf)
    "\x00",
    "x" * 101,
])
async def test_a_key_name_that_would_forge_a_listing_is_refused(db: Database,
                                                                suffix: str) -> None:
    if suffix == "\x00":  # no process argument holds a NUL; the API refuses it the same
        from graphmem.core.errors import InvalidInput
        from graphmem.security.auth import create_key
        with pytest.raises(InvalidInput):
            await create_key(db, f"atk-{uuid.uuid4().hex[:6]}\x00", ["atk/x"], admin=False)
        return
    name = f"atk-{uuid.uuid4().hex[:6]}{suffix}"
    done = _graphmem("keys", "create", name, "-n", "atk/x")
    assert done.returncode != 0 and "gm_" not in done.stdout, done.stdout
    assert "name" in done.stderr
    assert await _stored(db, name) == 0


@pytest.mark.parametrize("grant", ["**", "acme/**", "acme/*/x", "", "../x", "/*", "acme*",
                                   "a\nb", "a/b/c/d/e/f/g/h/i/*", "acme/*x", " acme"])
async def test_a_grant_that_is_no_namespace_or_prefix_is_refused(db: Database,
                                                                 grant: str) -> None:
    name = f"atk-grant-{uuid.uuid4().hex[:6]}"
    done = _graphmem("keys", "create", name, "-n", "atk/ok", "-n", grant)
    assert done.returncode != 0 and "gm_" not in done.stdout, (grant, done.stdout)
    assert await _stored(db, name) == 0  # not even with its valid grant


async def test_an_ordinary_name_is_stored_and_listed_as_given(db: Database) -> None:
    name = f"Acme support bot ({uuid.uuid4().hex[:6]}) – café"
    done = _graphmem("keys", "create", name, "-n", "atk/ok")
    assert done.returncode == 0 and done.stdout.startswith("gm_"), done.stderr
    key_id = done.stdout.split("_")[1]
    (listed,) = [line for line in _graphmem("keys", "list").stdout.splitlines()
                 if line.startswith(key_id)]
    # granted what was asked, and no more: a key is not an admin unless --admin says so
    assert listed == f"{key_id}  {name}  atk/ok  active"
    assert _graphmem("keys", "revoke", key_id).returncode == 0
