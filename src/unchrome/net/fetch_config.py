"""How a fetch may go: FetchConfig (addresses and ports allowed, caps, deadline,
redirects, the resolver) and its default."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from unchrome.errors import (
    InvalidInput,
)

if TYPE_CHECKING:
    import ssl

    # Types only: the command line builds a FetchConfig for every run, and a page read
    # from a file needs neither the guard nor its socket and ipaddress modules (3 ms
    # of its start).
    from unchrome.net.netguard import IPNetwork, Resolver

MiB = 1024 * 1024
#: The ports always allowed (FetchConfig.allow_ports adds to them).
DEFAULT_PORTS = frozenset({80, 443})

_USER_AGENT = "Mozilla/5.0 (compatible; unchrome/0.1; +reader)"


def _networks(addresses: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    """The networks of CIDR strings (ValueError for one that is not)."""
    if not addresses:
        return ()
    import ipaddress  # here: most runs allow no address, and read no URL at all

    return tuple(ipaddress.ip_network(n, strict=False) for n in addresses)


@dataclass(frozen=True)
class FetchConfig:
    """How ``read`` talks to the network. Defaults are the safe, public-internet ones."""

    # Explicit opt-ins, named as the CLI's --allow-port / --allow-address and the
    # environment's UNCHROME_ALLOW_PORTS / UNCHROME_ALLOW_ADDRESSES: ports fetched
    # besides 80 and 443, and networks (CIDR strings) fetched even though they are
    # private/loopback/... Empty by default; tests and intranet deployments set them.
    allow_ports: tuple[int, ...] = ()
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
    # What the opt-ins add up to: every port that may be fetched, every network allowed.
    allowed_ports: frozenset[int] = field(init=False, repr=False, compare=False)
    allowed_networks: tuple[IPNetwork, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            ports = tuple(self.allow_ports)
        except TypeError:
            raise InvalidInput("FetchConfig.allow_ports must be a sequence of ports") from None
        if any(not isinstance(p, int) or isinstance(p, bool) or not 0 < p < 65536 for p in ports):
            raise InvalidInput("FetchConfig.allow_ports must be ports between 1 and 65535")
        object.__setattr__(self, "allow_ports", ports)
        object.__setattr__(self, "allowed_ports", DEFAULT_PORTS | frozenset(ports))
        if isinstance(self.allow_addresses, str):  # one CIDR, not its characters
            raise InvalidInput("FetchConfig.allow_addresses must be a sequence of CIDR strings")
        try:
            addresses = tuple(self.allow_addresses)
            nets = _networks(addresses)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"FetchConfig.allow_addresses: {exc}") from None
        object.__setattr__(self, "allow_addresses", addresses)
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
        if self.ssl_context is not None:
            import ssl  # here: a command that fetches nothing does not load it

            if not isinstance(self.ssl_context, ssl.SSLContext):
                raise InvalidInput("FetchConfig.ssl_context must be an ssl.SSLContext")
        if self.resolver is not None and not callable(self.resolver):
            raise InvalidInput("FetchConfig.resolver must be callable(host, port)")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> FetchConfig:
        """The fetch settings of the environment, read alike by ``unchrome`` (whose
        flags add to them) and ``unchrome serve``: ``UNCHROME_ALLOW_PORTS`` (ports,
        comma-separated), ``UNCHROME_ALLOW_ADDRESSES`` (CIDRs, comma-separated) and
        ``UNCHROME_FETCH_DEADLINE`` (seconds). Unset, the defaults: public internet
        only, on ports 80 and 443. A bad value is INVALID_INPUT naming the variable."""
        env = os.environ if environ is None else environ
        ports = env_items(env, ENV_ALLOW_PORTS)
        if not all(p.isdigit() for p in ports):
            raise InvalidInput(
                f"{ENV_ALLOW_PORTS} must be comma-separated ports, got {env[ENV_ALLOW_PORTS]!r}"
            )
        raw = env.get(ENV_FETCH_DEADLINE, "").strip()
        try:
            deadline = float(raw) if raw else cls.deadline
        except ValueError:
            raise InvalidInput(f"{ENV_FETCH_DEADLINE} must be seconds, got {raw!r}") from None
        settings = {
            ENV_ALLOW_PORTS: ("allow_ports", tuple(int(p) for p in ports)),
            ENV_ALLOW_ADDRESSES: ("allow_addresses", env_items(env, ENV_ALLOW_ADDRESSES)),
            ENV_FETCH_DEADLINE: ("deadline", deadline),
        }
        for variable, (name, value) in settings.items():
            try:  # each alone first: an error names the variable the user set
                cls(**{name: value})
            except InvalidInput as exc:
                raise InvalidInput(f"{variable}: {exc}") from None
        return cls(**dict(settings.values()))


ENV_ALLOW_PORTS = "UNCHROME_ALLOW_PORTS"
ENV_ALLOW_ADDRESSES = "UNCHROME_ALLOW_ADDRESSES"
ENV_FETCH_DEADLINE = "UNCHROME_FETCH_DEADLINE"


def env_items(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated environment variable's items, blanks dropped."""
    return tuple(p.strip() for p in env.get(name, "").split(",") if p.strip())


def _positive_int(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidInput(f"FetchConfig.{name} must be a positive integer, got {value!r}")


DEFAULT_FETCH_CONFIG = FetchConfig()
