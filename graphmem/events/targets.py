"""Where a webhook may point: a well-formed http(s) URL to a public address.

The URL is checked when the webhook is added and again before each attempt (a name may resolve
elsewhere by then), and the attempt connects to the address that was checked, so a name that
resolves differently a moment later (DNS rebinding) is never followed.

Public means ``ipaddress``'s ``is_global``, less what Python 3.11's still lets through:
multicast, 192.0.0.0/24, IPv6 site-local (fec0::/10), NAT64's local-use prefix, and the IPv6
forms that carry an IPv4 address (mapped, compatible, 6to4, Teredo, NAT64), whose IPv4
address must be public in turn: ``2002:7f00:1::`` is loopback, ``64:ff9b::a9fe:a9fe`` the
cloud metadata service.
``allow_private`` (``GRAPHMEM_WEBHOOK_ALLOW_PRIVATE``) lifts the address rule, never the
URL's form.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import unicodedata
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

import httpx

from graphmem.core.errors import InvalidInput

MAX_URL = 2_000
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_LABELS = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NOT_PUBLIC = tuple(ipaddress.ip_network(n) for n in (
    "192.0.0.0/24",  # IETF protocol assignments (3.11 has only some of it)
    "fec0::/10", "64:ff9b:1::/48", "::/96"))  # site-local, local-use NAT64, IPv4-compatible


async def check_url(url: str, allow_private: bool) -> str:
    """The address to send ``url``'s requests to, once its form and (unless
    ``allow_private``) every address its host resolves to are allowed; else InvalidInput."""
    parts = parse(url)
    assert parts.hostname is not None  # parse() refuses a URL without one
    try:
        found = await asyncio.get_running_loop().getaddrinfo(parts.hostname, parts.port or 443)
    except (OSError, UnicodeError):
        raise InvalidInput(f"url's host {parts.hostname!r} does not resolve", field="url") \
            from None
    addresses = [ipaddress.ip_address(address[0]) for *_, address in found]
    if not allow_private and not all(public(ip) for ip in addresses):
        raise InvalidInput("url points to an address that is not public (set "
                           "GRAPHMEM_WEBHOOK_ALLOW_PRIVATE to allow it)", field="url")
    return str(addresses[0])


def parse(url: str) -> SplitResult:
    """``url`` split, if it is an http(s) URL with a well-formed host and port and nothing an
    HTTP client would refuse later (a URL that fails at every attempt is refused now)."""
    if len(url) > MAX_URL or any(unicodedata.category(c) in ("Cc", "Cf") or c.isspace()
                                 for c in url):  # Cf: invisible, as in "exa\u200bmple.com"
        raise _malformed("no control characters or spaces")
    try:
        parts = urlsplit(url)
        port = parts.port  # raises on a port out of range or not a number
        host = (parts.hostname or "").encode("idna").decode()
        httpx.URL(url)
    except (ValueError, UnicodeError, httpx.InvalidURL):
        raise _malformed("a well-formed host and port") from None
    if parts.scheme not in ("http", "https"):
        raise _malformed("the http or https scheme")
    if "@" in parts.netloc:
        raise _malformed("no user or password (the signature authenticates deliveries)")
    if port == 0 or not host or not (":" in host or _LABELS.fullmatch(host)):
        raise _malformed("a well-formed host and port")
    return parts


def public(ip: IPAddress) -> bool:
    """Whether ``ip``, and any IPv4 address it carries, is reachable on the public internet.
    An IPv6 form that carries IPv4 addresses is as public as they are: Python's own verdict
    on its prefix changed within 3.11 (2002::/16 is private to 3.11.2, global to 3.11.7)."""
    if ip.is_multicast or any(ip in n for n in _NOT_PUBLIC):
        return False
    carried = _carried(ip) if isinstance(ip, ipaddress.IPv6Address) else ()
    return all(map(public, carried)) if carried else ip.is_global


def _carried(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    if ip.ipv4_mapped is not None:
        return (ip.ipv4_mapped,)
    if ip.sixtofour is not None:
        return (ip.sixtofour,)
    if ip.teredo is not None:
        return ip.teredo
    if ip in _NAT64:
        return (ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF),)
    return ()


def pinned(url: str, address: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """``url`` sent to ``address``: the URL with the address for its host, the Host header,
    and the TLS server name (so an https certificate is still checked against the host)."""
    parts = urlsplit(url)
    assert parts.hostname is not None
    port = f":{parts.port}" if parts.port else ""
    host = f"[{address}]" if ":" in address else address
    named = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return (urlunsplit(parts._replace(netloc=f"{host}{port}")), {"Host": f"{named}{port}"},
            {"sni_hostname": parts.hostname})


def _malformed(needs: str) -> InvalidInput:
    return InvalidInput(f"url must be an http(s) URL of at most {MAX_URL} characters with "
                        f"{needs}", field="url")
