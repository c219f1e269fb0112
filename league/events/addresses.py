"""Where an event may be sent: an HTTPS address whose every resolved address is a
public one. A private, loopback, link-local, shared, reserved or multicast address
is refused, for each address the name resolves to (one bad answer is enough: the
connection could land on it), and the connection is then made to an address just
checked, so a second lookup cannot swap in another (DNS rebinding).

``EVENTS_ALLOW_LOOPBACK`` (False; only the tests set it) lets plain HTTP to the
loopback address through, for a receiver the test starts on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
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
    return bool(getattr(settings, "EVENTS_ALLOW_LOOPBACK", False))


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
        raise NotAllowed("The address must start with https://: events are sent encrypted only.")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def refusal_for(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """Why the site never posts to ``ip`` (empty when it may)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "" if _allow_loopback() else f"{ip} is this machine's own (loopback) address: events go to public servers only."
    if ip.is_link_local:
        return f"{ip} is a link-local address: events go to public servers only."
    if ip.is_private or ip.is_unspecified or ip.is_reserved or ip.is_multicast or not ip.is_global:
        return f"{ip} is a private or reserved address: events go to public servers only."
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
