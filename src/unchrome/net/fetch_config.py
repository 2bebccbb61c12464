"""How a fetch may go: FetchConfig (addresses and ports allowed, caps, deadline,
redirects, the resolver) and its default."""

from __future__ import annotations

import ipaddress
import re
import ssl
from dataclasses import dataclass, field
from typing import Any

from unchrome.errors import (
    InvalidInput,
)
from unchrome.net.netguard import (
    IPNetwork,
    Resolver,
)

MiB = 1024 * 1024

_USER_AGENT = "Mozilla/5.0 (compatible; unchrome/0.1; +reader)"


@dataclass(frozen=True)
class FetchConfig:
    """How ``read`` talks to the network. Defaults are the safe, public-internet ones."""

    allowed_ports: frozenset[int] = frozenset({80, 443})
    # Explicit opt-in: networks (CIDR strings) that may be fetched even though they are
    # private/loopback/... Empty by default; tests and intranet deployments set it.
    allow_addresses: tuple[str, ...] = ()
    # resolver(host, port) -> [ip, ...]; None uses getaddrinfo.
    resolver: Resolver | None = field(default=None, compare=False)
    max_redirects: int = 3
    deadline: float = 10.0  # seconds, the whole exchange including redirects
    max_bytes: int = 4 * MiB  # counted on the wire, before decompression
    max_decompressed: int = 8 * MiB
    max_encodings: int = 2  # "gzip, gzip" is fine; three stacked codings are an attack
    user_agent: str = _USER_AGENT
    # Custom trust (a corporate CA, or a test CA); None: the certifi bundle. Certificates
    # are always verified against the URL's host name, never against the address.
    ssl_context: ssl.SSLContext | None = field(default=None, compare=False, repr=False)
    allowed_networks: tuple[IPNetwork, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ports = frozenset(self.allowed_ports)
        if not ports or any(
            not isinstance(p, int) or isinstance(p, bool) or not 0 < p < 65536 for p in ports
        ):
            raise InvalidInput("FetchConfig.allowed_ports must be ports between 1 and 65535")
        object.__setattr__(self, "allowed_ports", ports)
        try:
            nets = tuple(ipaddress.ip_network(n, strict=False) for n in self.allow_addresses)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"FetchConfig.allow_addresses: {exc}") from None
        object.__setattr__(self, "allowed_networks", nets)
        for name in ("max_bytes", "max_decompressed", "max_encodings"):
            _positive_int(name, getattr(self, name))
        if not isinstance(self.max_redirects, int) or not 0 <= self.max_redirects <= 20:
            raise InvalidInput("FetchConfig.max_redirects must be an integer from 0 to 20")
        if not isinstance(self.deadline, int | float) or not 0 < self.deadline <= 600:
            raise InvalidInput("FetchConfig.deadline must be a number of seconds in (0, 600]")
        # A CR/LF in a header value would let a caller inject headers.
        if not isinstance(self.user_agent, str) or not re.fullmatch(
            r"[\x20-\x7e]+", self.user_agent
        ):
            raise InvalidInput("FetchConfig.user_agent must be printable ASCII")
        if self.ssl_context is not None and not isinstance(self.ssl_context, ssl.SSLContext):
            raise InvalidInput("FetchConfig.ssl_context must be an ssl.SSLContext")
        if self.resolver is not None and not callable(self.resolver):
            raise InvalidInput("FetchConfig.resolver must be callable(host, port)")


def _positive_int(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidInput(f"FetchConfig.{name} must be a positive integer, got {value!r}")


DEFAULT_FETCH_CONFIG = FetchConfig()
