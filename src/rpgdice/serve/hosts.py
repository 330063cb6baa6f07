"""Where the table can be reached: the machine's own network addresses (never ``0.0.0.0``)
and the ``Host`` header names a request may carry (DNS rebinding: a page elsewhere cannot
read the table through a browser on this machine). No web framework is imported here."""

from __future__ import annotations

import ipaddress
import socket
from typing import Optional

LOOPBACK = ("localhost", "127.0.0.1", "::1")
WILDCARD = ("0.0.0.0", "::", "")


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine alone."""
    if host.lower() in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def own_address(ipv6: bool = False) -> Optional[str]:
    """The address other machines reach this one at (the one its default route leaves
    from; no packet is sent), else None."""
    family, probe = (socket.AF_INET6, "2001:db8::1") if ipv6 else (socket.AF_INET, "192.0.2.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if loopback(address) else address


def addresses() -> set[str]:
    """Every name and address of this machine a request's ``Host`` may name."""
    found = {"localhost", "127.0.0.1", "::1"}
    try:
        name = socket.gethostname()
        found.update({name.lower(), socket.getfqdn(name).lower()})
        for info in socket.getaddrinfo(name, None):
            found.add(str(info[4][0]).lower())
    except (OSError, UnicodeError):
        pass
    for v6 in (False, True):
        own = own_address(v6)
        if own:
            found.add(own.lower())
    return found


def shown_host(host: str) -> str:
    """The host a person types for ``host``: a wildcard becomes the machine's address,
    IPv6 gets its brackets."""
    if host in WILDCARD:
        host = own_address(host == "::") or own_address() or "127.0.0.1"
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def host_part(header: str) -> str:
    """The name in a ``Host`` header, without its port, lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header
