"""Where a webhook may be POSTed: public http(s) hosts only, never this cluster.

A client chooses a game's webhook URL, and the workers POST signed events to it, so an
unchecked URL lets anyone make the service call its own neighbours (Redis, the cloud
metadata endpoint, other pods). A URL is refused when it is not http(s), names a
cluster-internal host (a single label such as `redis`, `localhost`, `*.svc`,
`*.cluster.local`, `*.internal`), or its host is or resolves to an address that is not
globally routable (loopback, private, link-local, site-local, unspecified, multicast,
reserved...), or to an IPv6 address embedding such an IPv4 address (6to4, Teredo,
ISATAP).

The check runs at creation (`check_webhook_url`, DNS in a thread with a time limit, a
bounded number at once and per client) and
again at delivery (`pinned_addresses`), where the caller connects to the very address
that was checked, so a second DNS answer (rebinding) cannot point elsewhere.
`SKYPORT_WEBHOOK_ALLOW_PRIVATE=true` turns the address and name checks off, for local
development only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

from .problems import Problem, unprocessable

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

REFUSED_CODE = "webhook_url_not_allowed"
RESOLVE_SECONDS = 2.0
"""How long a creation waits for DNS before refusing the URL."""
MAX_ADDRESSES = 16

INTERNAL_NAMES = ("localhost",)
INTERNAL_SUFFIXES = (
    ".localhost",
    ".local",
    ".localdomain",
    ".internal",
    ".svc",
    ".cluster.local",
    ".home.arpa",
)

LOOKUP_THREADS = 8
LOOKUPS_PER_CLIENT = 2
"""DNS lookups one client may have running at once. A lookup that outlives
`RESOLVE_SECONDS` still holds its thread until the resolver gives up, so names that never
answer could otherwise take every thread and fail everyone's checks."""
CHECK_RETRY_AFTER_SECONDS = 5

_resolver_pool = ThreadPoolExecutor(max_workers=LOOKUP_THREADS, thread_name_prefix="webhook-dns")
"""DNS lookups of creations: a pool of their own, so slow lookups cannot starve the
event loop's default executor."""
_running: Counter[str] = Counter()
"""Lookups running per client (until their thread is free again, not until they time out);
changed from the event loop and from the lookups' threads, under `_counting`."""
_counting = threading.Lock()


class TargetRefused(ValueError):
    """The URL may not receive webhooks; the message says why."""


class InternalTarget(TargetRefused):
    """Refused as internal (loopback, private, cluster names): what the operator's
    `SKYPORT_WEBHOOK_ALLOW_PRIVATE` would let through."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    """Lower-case, without brackets or a trailing dot; IDNA-encoded."""
    port: int


def resolve(host: str, port: int) -> list[str]:
    """The host's addresses from the system resolver (blocking; tests replace it)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def parse_target(url: str) -> Target:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise TargetRefused(f"it is not a valid URL ({error})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise TargetRefused("only http and https URLs can receive webhooks")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise TargetRefused("it has no host")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise TargetRefused("its host name is not valid") from None
    return Target(scheme, host, port or (443 if scheme == "https" else 80))


def literal_address(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


def name_refusal(host: str) -> str | None:
    """Why a host name (not an address) is internal to the cluster, or None."""
    if host in INTERNAL_NAMES or host.endswith(INTERNAL_SUFFIXES):
        return f"{_short(host)} is a local or cluster-internal name"
    if "." not in host:
        return f"{_short(host)} is a single-label (cluster-internal) name"
    return None


def address_refusal(address: Address) -> str | None:
    """Why an address may not receive webhooks, or None for a public one."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if isinstance(address, ipaddress.IPv6Address):
        for carrier, ipv4 in embedded_ipv4(address):
            kind = refused_kind(ipv4)
            if kind:
                return f"{address} is {carrier} {ipv4}, {kind}"
    kind = refused_kind(address)
    return f"{address} is {kind}" if kind else None


def refused_kind(address: Address) -> str | None:
    """What kind of address that may not receive webhooks this is ("a loopback
    address"...), or None for a public one."""
    for kind, test in (
        ("an unspecified", address.is_unspecified),
        ("a loopback", address.is_loopback),
        ("a link-local", address.is_link_local),
        ("a site-local", isinstance(address, ipaddress.IPv6Address) and address.is_site_local),
        ("a multicast", address.is_multicast),
        ("a private", address.is_private),
        ("a reserved", address.is_reserved),
    ):
        if test:
            return f"{kind} address"
    if not address.is_global:
        return "not a public address"
    return None


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address carries, each with what carries it. A relay or
    tunnel delivers such an address to its IPv4 address, so each must be public too:
    6to4 (2002::/16), Teredo (2001::/32: its server and its client) and ISATAP interface
    ids (…:5efe:a.b.c.d). Python's `is_global` judges the IPv6 prefix alone (it calls
    2002:7f00:1::, 6to4 of 127.0.0.1, global). The IPv4-mapped form is judged as its IPv4
    address; the IPv4-compatible and NAT64 (64:ff9b::/96) forms lie in reserved ::/8."""
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    if address.sixtofour is not None:
        found.append(("a 6to4 address of", address.sixtofour))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("a Teredo address with server", server), ("a Teredo address of", client)]
    interface_id = int(address) & 0xFFFF_FFFF_FFFF_FFFF
    if interface_id >> 32 & 0xFCFF_FFFF == 0x0000_5EFE:  # either u/g bit set or not
        found.append(("an ISATAP address of", ipaddress.IPv4Address(interface_id & 0xFFFF_FFFF)))
    return found


def checked_target(url: str, allow_private: bool) -> tuple[Target, Address | None]:
    """The parsed URL and its host as an address if it is one; refuses what can be
    refused without DNS."""
    target = parse_target(url)
    address = literal_address(target.host)
    if not allow_private:
        reason = address_refusal(address) if address else name_refusal(target.host)
        if reason:
            raise InternalTarget(reason)
    return target, address


def public_addresses(target: Target, found: list[str], allow_private: bool) -> list[Address]:
    """The resolved addresses, all of them public (else the URL is refused: one private
    answer is enough for a rebinding attacker)."""
    addresses = [address for text in found if (address := literal_address(text))]
    if not addresses:
        raise TargetRefused(f"{_short(target.host)} has no address")
    if not allow_private:
        for address in addresses:
            reason = address_refusal(address)
            if reason:
                raise InternalTarget(f"{_short(target.host)} resolves to {reason}")
    return list(dict.fromkeys(addresses))[:MAX_ADDRESSES]


def pinned_addresses(url: str, allow_private: bool) -> tuple[Target, list[Address]]:
    """For a delivery (blocking): the target and the checked addresses to connect to."""
    target, address = checked_target(url, allow_private)
    if address is not None:
        return target, [address]
    try:
        found = resolve(target.host, target.port)
    except OSError as error:
        raise TargetRefused(f"{_short(target.host)} cannot be resolved ({error})") from None
    return target, public_addresses(target, found, allow_private)


async def check_webhook_url(url: str, *, allow_private: bool, client: str = "") -> None:
    """At creation: refuse, as a 422 problem, a URL that may not receive webhooks. DNS
    runs off the event loop and within `RESOLVE_SECONDS`, never queued: with every lookup
    thread busy the answer is 503 webhook_check_busy, and a `client` with
    LOOKUPS_PER_CLIENT lookups running gets 429 too_many_webhook_checks."""
    try:
        target, address = checked_target(url, allow_private)
        if address is None and not allow_private:
            found = await _looked_up(target, client)
            public_addresses(target, found, allow_private)
    except TargetRefused as refused:
        raise refused_problem(refused) from None


async def _looked_up(target: Target, client: str) -> list[str]:
    with _counting:
        if sum(_running.values()) >= LOOKUP_THREADS:
            raise Problem(
                503,
                "webhook_check_busy",
                "Too many webhook URLs are being checked right now; try again in a few seconds.",
                headers={"Retry-After": str(CHECK_RETRY_AFTER_SECONDS)},
            )
        if _running[client] >= LOOKUPS_PER_CLIENT:
            raise Problem(
                429,
                "too_many_webhook_checks",
                f"This client already has {LOOKUPS_PER_CLIENT} webhook hosts being looked up; "
                "wait for them.",
                headers={"Retry-After": str(CHECK_RETRY_AFTER_SECONDS)},
            )
        _running[client] += 1
    lookup = _resolver_pool.submit(resolve, target.host, target.port)
    lookup.add_done_callback(lambda _: _release(client))  # on the lookup's thread
    try:
        return await asyncio.wait_for(asyncio.wrap_future(lookup), RESOLVE_SECONDS)
    except (OSError, TimeoutError):
        raise TargetRefused(f"{_short(target.host)} cannot be resolved") from None


def _release(client: str) -> None:
    with _counting:
        _running[client] -= 1
        if _running[client] <= 0:
            del _running[client]


def _short(host: str) -> str:
    return host if len(host) <= 80 else f"{host[:79]}\u2026"


def refused_problem(refused: TargetRefused) -> Problem:
    detail = f"This webhook URL is not allowed: {refused}. Webhooks go to public http(s) hosts"
    if isinstance(refused, InternalTarget):
        detail += " (for local development, the server's SKYPORT_WEBHOOK_ALLOW_PRIVATE=true "
        detail += "lets them go to private ones)"
    return unprocessable(REFUSED_CODE, detail + ".")
