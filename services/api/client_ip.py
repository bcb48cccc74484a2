"""Who the client is, for the per-IP rate limit and anonymous creators.

Without a proxy it is the peer address of the connection. Behind proxies
(SKYPORT_FORWARDED_ALLOW_IPS: addresses or CIDR networks, e.g. the ingress controller's
pod network) it is read from `X-Forwarded-For`, but only when the peer is one of them,
and then from the right: each proxy appends the address it received the request from,
so the right-most entry that is not itself a trusted proxy is the one a trusted proxy
saw. Everything left of it was written by the client and is ignored — taking the
left-most entry would let any client pick its own rate-limit bucket.

`*` trusts any peer to be a proxy that appends one entry, and no entry to be a proxy:
the right-most entry is the client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from services.gameplay.settings import comma_separated

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_HOPS = 64
"""X-Forwarded-For entries looked at, from the right."""

MAX_REMEMBERED_PEERS = 4096
"""Peers whose trust is remembered (parsing an address costs more than the lookup)."""


class TrustedProxies:
    def __init__(self, spec: str) -> None:
        """`spec`: comma-separated addresses and CIDR networks, or `*`. Raises
        ValueError for an entry that is neither."""
        entries = comma_separated(spec)
        self.any_peer = entries == ["*"]
        self.networks: tuple[Network, ...] = (
            () if self.any_peer else tuple(ipaddress.ip_network(e, strict=False) for e in entries)
        )

    def trusts(self, address: Address | None) -> bool:
        if address is None:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)

    def is_proxy(self, peer: str) -> bool:
        """Whether the peer address `peer` is one of the trusted proxies."""
        return self.any_peer or self.trusts(parse_hop(peer))

    def client(self, peer: str | None, forwarded_for: Iterable[str]) -> str | None:
        """The client's address: the peer's, or the right-most untrusted hop when the
        peer is a trusted proxy."""
        if peer is None or not self.is_proxy(peer):
            return peer
        hops = [hop for value in forwarded_for for hop in value.split(",") if hop.strip()]
        last: Address | None = None
        for hop in reversed(hops[-MAX_HOPS:]):
            address = parse_hop(hop)
            if address is None:
                break  # not an address: the chain is broken here; trust nothing further left
            last = address
            if not self.trusts(address):
                return str(address)
        return str(last) if last is not None else peer


def parse_hop(text: str) -> Address | None:
    """An address from an X-Forwarded-For entry: `1.2.3.4`, `1.2.3.4:5678`, `::1`,
    `[::1]:5678`; None for anything else ("unknown", names, garbage)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


class ForwardedClientMiddleware:
    """Sets the ASGI scope's client (and scheme, from X-Forwarded-Proto) from trusted
    proxies' headers, before anything reads them."""

    def __init__(self, app: ASGIApp, trusted: TrustedProxies) -> None:
        self.app = app
        self.trusted = trusted
        self._peers: dict[str, bool] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            peer_host = peer[0] if peer else None
            if peer_host is not None and self._is_proxy(peer_host):
                scope = self._forwarded(scope, peer_host)
        await self.app(scope, receive, send)

    def _is_proxy(self, peer_host: str) -> bool:
        known = self._peers.get(peer_host)
        if known is None:
            known = self.trusted.is_proxy(peer_host)
            if len(self._peers) >= MAX_REMEMBERED_PEERS:
                self._peers.clear()
            self._peers[peer_host] = known
        return known

    def _forwarded(self, scope: Scope, peer_host: str) -> Scope:
        forwarded_for: list[str] = []
        proto: str | None = None
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                forwarded_for.append(value.decode("latin-1"))
            elif name == b"x-forwarded-proto":
                proto = value.decode("latin-1").strip().lower()
        if not forwarded_for and proto is None:
            return scope  # a trusted proxy, or a local client, that forwarded nothing
        client = self.trusted.client(peer_host, forwarded_for)
        scope = {**scope, "client": (client, 0)}
        if proto in ("http", "https"):
            scope["scheme"] = proto if scope["type"] == "http" else proto.replace("http", "ws")
        return scope
