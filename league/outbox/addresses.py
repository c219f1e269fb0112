"""Where the site may post, and the post itself: every webhook (the events'
subscriptions, league/events/delivery.py; the league's Discord and signed webhooks,
league/events/webhooks.py) goes through ``post`` here, so none is ever sent to a
private, loopback or link-local address, nor after a redirect.

An address is an HTTPS one whose every resolved address is public. A private,
loopback, link-local, shared, reserved or multicast address is refused, for each
address the name resolves to (one bad answer is enough: the connection could land
on it), and the connection is then made to an address just checked, so a second
lookup cannot swap in another (DNS rebinding). ``http.client`` follows no redirect:
a 3xx is the answer, which the caller treats as final.

``WEBHOOKS_ALLOW_LOOPBACK`` (False; only the tests set it) lets plain HTTP to the
loopback address through, for a receiver the test starts on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings


class NotAllowed(Exception):
    """The address is one the site never posts to: the reason, for the organiser."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    address: str  # the checked IP address the connection goes to
    path: str


def _allow_loopback() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_LOOPBACK", False))


def check_url(url: str) -> tuple[str, str, int, str]:
    """The scheme, host, port and path of ``url``, or ``NotAllowed``: HTTPS only
    (plain HTTP to the loopback address when the tests allow it), no user name or
    password in it, and an IP address written in it must be a public one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise NotAllowed("That is not a web address.") from None
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http") or not host:
        raise NotAllowed("The address must start with https:// and name a server.")
    if parts.username or parts.password:
        raise NotAllowed("Leave the user name and password out of the address: the signature proves who sent it.")
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        refusal = refusal_for(literal)
        if refusal:
            raise NotAllowed(refusal)
    if parts.scheme == "http" and not (_allow_loopback() and literal is not None and literal.is_loopback):
        raise NotAllowed("The address must start with https://: the site posts encrypted only.")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def refusal_for(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """Why the site never posts to ``ip`` (empty when it may)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "" if _allow_loopback() else f"{ip} is this machine's own (loopback) address: the site posts to public servers only."
    if ip.is_link_local:
        return f"{ip} is a link-local address: the site posts to public servers only."
    if ip.is_private or ip.is_unspecified or ip.is_reserved or ip.is_multicast or not ip.is_global:
        return f"{ip} is a private or reserved address: the site posts to public servers only."
    return ""


def resolve(url: str) -> Target:
    """Check ``url`` and every address its host resolves to; ``NotAllowed`` when any
    of them is refused, ``OSError`` when the name cannot be resolved now (worth
    another try)."""
    scheme, host, port, path = check_url(url)
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found = sorted({info[4][0] for info in infos})
    if not found:
        raise OSError(f"{host} resolves to no address")
    for text in found:
        refusal = refusal_for(ipaddress.ip_address(text.split("%", 1)[0]))
        if refusal:
            raise NotAllowed(f"{host} resolves to {refusal}")
    return Target(scheme=scheme, host=host, port=port, address=found[0], path=path)


def _connection(target: Target, timeout: float) -> http.client.HTTPConnection:
    """A connection to the address ``resolve`` checked (never a second lookup),
    while TLS checks the certificate against the host's name and sends it as SNI.
    ``_create_connection`` is the hook ``http.client`` opens its socket with."""
    if target.scheme == "https":
        conn = http.client.HTTPSConnection(target.host, target.port, timeout=timeout,
                                           context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(target.host, target.port, timeout=timeout)
    conn._create_connection = lambda _address, timeout, source: socket.create_connection(  # type: ignore[attr-defined]
        (target.address, target.port), timeout, source)
    return conn


def post(url: str, body: str, headers: dict[str, str], *, agent: str) -> int:
    """POST the JSON ``body`` to ``url`` once, after ``resolve`` checked it; the
    answer's HTTP status (a redirect is returned, never followed). ``NotAllowed``
    for an address the site never posts to, ``OSError`` or ``http.client.HTTPException``
    for a failure worth another try."""
    target = resolve(url)
    conn = _connection(target, settings.WEBHOOK_TIMEOUT)
    try:
        conn.request("POST", target.path, body=body.encode(), headers={
            "Content-Type": "application/json", "User-Agent": f"longshanks-league ({agent})", **headers,
        })
        response = conn.getresponse()
        response.read(1024)  # the answer's body is not kept
        return response.status
    finally:
        conn.close()
