"""How parameters travel to Neo4j: never printed, and UTC instants packed without detours.

Two costs of the driver (neo4j 6.1) that graphmem measured on its hot paths and removes here:

- Every ``RUN`` formats its parameters for the driver's debug log, *even when that log is
  off* (``AsyncBolt5x5.run`` builds the message eagerly). Storing a batch of 256-float
  embeddings spent more time in ``repr`` than in Neo4j (about 0.2 ms a vector), and the
  message would carry memory content into a debug log if anyone turned it on. ``masked``
  wraps each top-level value in a list, dict or str subclass that the packer sends like the
  original (it checks ``isinstance``) but that formats as ``<list of 500>``.
- A ``datetime`` is packed through ``neo4j.time.DateTime``, pytz and clock arithmetic: 74 µs
  each here (1 µs on the direct path); a 500-fact batch carries a thousand. graphmem hands UTC
  to the driver only (``timeutil.to_native``), so ``install_fast_utc`` adds a direct path for
  ``datetime`` in ``datetime.UTC`` that builds the same Bolt structure, and leaves every
  other value to the driver. ``tests/db/test_bolt.py`` checks it against the driver's own.
- Unpacking one costs 43 µs the same way, and a page of 50 facts carries about 200: a third
  of a fact lookup. An instant stored in UTC to the microsecond (all graphmem writes) now
  comes back as a ``datetime`` in ``datetime.UTC`` in under 1 µs; any other (a time zone, a
  local time, nanoseconds) is still the driver's ``neo4j.time.DateTime``.
  ``timeutil.parse_stored_datetime`` takes either.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class _MaskedList(list[Any]):
    __slots__ = ()

    def __repr__(self) -> str:
        return f"<list of {len(self)}>"


class _MaskedDict(dict[str, Any]):
    __slots__ = ()

    def __repr__(self) -> str:
        return f"<map of {len(self)}>"


class _MaskedStr(str):
    __slots__ = ()

    def __repr__(self) -> str:
        return f"<string of {len(self)}>"


def masked(params: dict[str, Any]) -> dict[str, Any]:
    """The same parameters, formatted without their content (nested values are never
    formatted: their container's ``repr`` stops first)."""
    return {key: _mask(value) for key, value in params.items()}


def _mask(value: Any) -> Any:
    if type(value) is list:
        return _MaskedList(value)
    if type(value) is dict:
        return _MaskedDict(value)
    if type(value) is str:
        return _MaskedStr(value)
    return value


def install_fast_utc(temporal: Any = None) -> bool:
    """Give the driver's Bolt 5 codec direct paths for UTC ``datetime`` values, both ways
    (once, before the driver opens connections: each takes the functions when it opens).
    The codec is the driver's private API (tested with neo4j 6.1): when it is not what this
    expects, nothing is changed and the driver's own code does the work (False)."""
    if temporal is None:
        try:
            from neo4j._codec.hydration.v2 import temporal
        except ImportError:
            return False
    if not all(callable(getattr(temporal, name, None))
               for name in ("dehydrate_datetime", "hydrate_datetime", "Structure")):
        return False
    if getattr(temporal.dehydrate_datetime, "graphmem_fast_utc", False):
        return True
    pack, unpack = temporal.dehydrate_datetime, temporal.hydrate_datetime

    def dehydrate_datetime(value: Any) -> Any:
        if type(value) is datetime and value.tzinfo is UTC:
            since = value - _EPOCH
            # Bolt 5 "I": seconds since the epoch in UTC, nanoseconds, offset in seconds.
            return temporal.Structure(b"I", since.days * 86_400 + since.seconds,
                                      since.microseconds * 1_000, 0)
        return pack(value)

    def hydrate_datetime(seconds: int, nanoseconds: int, tz: Any = None) -> Any:
        if tz == 0 and type(tz) is int and nanoseconds % 1_000 == 0:
            return _EPOCH + timedelta(seconds=seconds, microseconds=nanoseconds // 1_000)
        return unpack(seconds, nanoseconds, tz)

    for fast, own in ((dehydrate_datetime, pack), (hydrate_datetime, unpack)):
        vars(fast).update(graphmem_fast_utc=True, __wrapped__=own)
    temporal.dehydrate_datetime = dehydrate_datetime
    temporal.hydrate_datetime = hydrate_datetime
    return True
