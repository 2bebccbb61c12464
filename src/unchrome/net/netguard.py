"""SSRF guard: which URLs and which resolved addresses may be fetched.

Two layers, both needed:

* ``check_url`` refuses what is wrong in the URL itself (scheme, port, userinfo, odd
  characters). It runs on the user's URL and again on every redirect hop.
* ``address_refusal`` decides on an *address*, after resolution. Every check on host
  names alone can be fooled (``2130706433``, ``0x7f.1``, ``localtest.me``, DNS
  rebinding), so the decision that matters is taken on the resolved IPs, in the network
  backend of ``fetch.py``, right before connecting to one of those same IPs.

The address table is explicit rather than built on ``ipaddress.is_global``/``is_private``:
on Python 3.11 ``is_private`` is False for CGNAT 100.64/10 and ``is_global`` is True for
multicast, and neither looks at the IPv4 address hidden inside an IPv6 one.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from unchrome.errors import ForbiddenAddress, InvalidURL, UpstreamError

if TYPE_CHECKING:
    import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[str]]
"""``resolver(host, port) -> [ip, ...]``: the one DNS lookup of a connection."""

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

# Each range names the attack or misuse it stops. Order does not matter.
_FORBIDDEN_V4: tuple[tuple[ipaddress.IPv4Network, str], ...] = (
    (_V4("0.0.0.0/8"), "unspecified / this-network"),  # http://0/ reaches localhost
    (_V4("10.0.0.0/8"), "private"),
    (_V4("100.64.0.0/10"), "carrier-grade NAT"),  # not is_private on 3.11
    (_V4("127.0.0.0/8"), "loopback"),
    (_V4("169.254.0.0/16"), "link-local"),  # 169.254.169.254: cloud metadata
    (_V4("172.16.0.0/12"), "private"),
    (_V4("192.0.0.0/24"), "IETF protocol assignments"),
    (_V4("192.0.2.0/24"), "documentation"),
    (_V4("192.88.99.0/24"), "6to4 relay anycast"),
    (_V4("192.168.0.0/16"), "private"),
    (_V4("198.18.0.0/15"), "benchmarking"),
    (_V4("198.51.100.0/24"), "documentation"),
    (_V4("203.0.113.0/24"), "documentation"),
    (_V4("224.0.0.0/4"), "multicast"),  # is_global is True for it on 3.11
    (_V4("240.0.0.0/4"), "reserved"),  # includes 255.255.255.255 broadcast
)

_FORBIDDEN_V6: tuple[tuple[ipaddress.IPv6Network, str], ...] = (
    (_V6("::/128"), "unspecified"),
    (_V6("::1/128"), "loopback"),
    (_V6("64:ff9b:1::/48"), "local-use NAT64"),
    (_V6("100::/64"), "discard-only"),
    (_V6("2001:db8::/32"), "documentation"),
    (_V6("3fff::/20"), "documentation"),
    (_V6("fc00::/7"), "unique local (private)"),
    (_V6("fe80::/10"), "link-local"),
    (_V6("fec0::/10"), "site-local"),
    (_V6("ff00::/8"), "multicast"),
)
_GLOBAL_UNICAST_V6 = _V6("2000::/3")
_IETF_V6 = _V6("2001::/23")  # protocol assignments; Teredo (2001::/32) is inside
_NAT64_V6 = _V6("64:ff9b::/96")
_IPV4_COMPATIBLE_V6 = _V6("::/96")


def _article(reason: str) -> str:
    """The article of a reason above, by its sound: "an unspecified", "an IETF", "a
    unique local", "a 6to4"."""
    vowel = reason[:1].lower() in "aeio" or (reason.startswith("un") and reason[:3] != "uni")
    return "an" if vowel else "a"


def parse_ip(text: str) -> IPAddress | None:
    """The address ``text`` spells, or None when it is a host name.

    Accepts the legacy IPv4 forms a C resolver accepts (``2130706433``, ``0x7f.1``,
    ``0177.0.0.1``) so they are decided here without any lookup, and drops an IPv6
    zone (``fe80::1%eth0``).
    """
    text = text.strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if ":" not in text and text and all(c.isalnum() or c == "." for c in text):
        try:
            # inet_aton is the parser glibc's getaddrinfo uses for numeric hosts.
            return ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    return None


def address_refusal(address: IPAddress, allowed: Iterable[IPNetwork] = ()) -> str | None:
    """Why ``address`` may not be fetched, or None when it may.

    ``allowed`` is the explicit opt-in (tests, an intranet deployment): addresses in
    those networks pass whatever class they are in.
    """
    if any(address.version == net.version and address in net for net in allowed):
        return None
    if isinstance(address, ipaddress.IPv4Address):
        return _v4_refusal(address)
    return _v6_refusal(address, allowed)


def _v4_refusal(address: ipaddress.IPv4Address) -> str | None:
    for net, reason in _FORBIDDEN_V4:
        if address in net:
            return reason
    return None


def _v6_refusal(address: ipaddress.IPv6Address, allowed: Iterable[IPNetwork]) -> str | None:
    allowed = tuple(allowed)
    # An IPv4 address hidden in IPv6 reaches that IPv4 host (the kernel, a NAT64 gateway
    # or a 6to4/Teredo relay unwraps it): judge the hidden address instead.
    hidden = _embedded_v4(address)
    if hidden:
        for label, v4 in hidden:
            reason = address_refusal(v4, allowed)
            if reason:
                return f"{reason} ({label} {v4})"
        if address.ipv4_mapped or address in _NAT64_V6:
            return None
    for net, reason in _FORBIDDEN_V6:
        if address in net:
            return reason
    if address in _IPV4_COMPATIBLE_V6:
        return "IPv4-compatible (deprecated)"
    if address.teredo is None and address in _IETF_V6:
        return "IETF protocol assignment"
    if address not in _GLOBAL_UNICAST_V6:
        return "reserved"
    return None


def _embedded_v4(address: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    if address.ipv4_mapped is not None:
        found.append(("IPv4-mapped", address.ipv4_mapped))
    if address in _NAT64_V6:
        found.append(("NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
    if address in _IPV4_COMPATIBLE_V6 and int(address) > 1:
        found.append(("IPv4-compatible", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
    if address.sixtofour is not None:
        found.append(("6to4", address.sixtofour))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("Teredo server", server), ("Teredo client", client)]
    return found


def check_addresses(
    host: str, addresses: Iterable[IPAddress], allowed: Iterable[IPNetwork] = ()
) -> None:
    """Refuse the connection when *any* address is forbidden.

    Checking all of them (not only the first) stops a DNS answer that lists a public
    address next to an internal one and counts on the client falling back to the second.
    """
    allowed = tuple(allowed)
    addresses = list(addresses)
    if not addresses:
        raise ForbiddenAddress(f"{host} resolves to no address")
    for address in addresses:
        reason = address_refusal(address, allowed)
        if reason:
            what = f"{_article(reason)} {reason} address; {address_hint(address)}"
            if parse_ip(host) == address:
                raise ForbiddenAddress(f"{host} is {what}")
            raise ForbiddenAddress(f"{host} resolves to {address}, {what}")


# A refusal tells its reader how to lift it, in each of the places the one setting is
# made: the flag of the command line, the environment variable (read by the command
# line and the service alike) and the FetchConfig field of the library.


def port_refusal(port: int) -> str:
    return (
        f"port {port} is not allowed (only 80 and 443 are by default); to allow it: "
        f"--allow-port {port}, UNCHROME_ALLOW_PORTS={port} or "
        f"FetchConfig(allow_ports=[{port}])"
    )


def address_hint(address: IPAddress) -> str:
    network = f"{address}/{address.max_prefixlen}"
    return (
        f"to allow it: --allow-address {network}, UNCHROME_ALLOW_ADDRESSES={network} or "
        f"FetchConfig(allow_addresses=[{network!r}])"
    )


def system_resolver(host: str, port: int) -> list[str]:
    """One ``getaddrinfo`` call; the addresses in the order the system prefers."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    seen: dict[str, None] = {}
    for _family, _type, _proto, _canon, sockaddr in infos:
        seen.setdefault(str(sockaddr[0]), None)
    return list(seen)


def resolve(host: str, port: int, resolver: Resolver | None) -> list[IPAddress]:
    """Host name or literal -> addresses. Numeric forms are parsed, never looked up."""
    literal = parse_ip(host)
    if literal is not None:
        return [literal]
    try:
        answers = (resolver or system_resolver)(host, port)
    except socket.gaierror as exc:
        if exc.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)):
            raise InvalidURL(f"host {host!r} does not exist") from None
        raise UpstreamError(f"cannot resolve host {host!r}: {exc}") from None
    except OSError as exc:
        raise InvalidURL(f"cannot resolve host {host!r}: {exc}") from None
    out: list[IPAddress] = []
    for answer in answers:
        address = parse_ip(answer)
        if address is None:
            raise ForbiddenAddress(f"resolver returned a non-address {answer!r} for {host}")
        out.append(address)
    return out


# Characters that browsers and servers read differently from us: a URL carrying them is
# almost always an attempt to make the check and the request disagree on the host.
_ODD_URL_CHARS = re.compile(r"[\x00-\x20\x7f\\]")


@dataclass(frozen=True)
class Target:
    url: httpx.URL
    host: str  # IDNA-encoded, what the resolver sees and TLS verifies
    port: int


def check_url(url: str | httpx.URL, allowed_ports: Iterable[int]) -> Target:
    """Validate scheme, userinfo, host and port; raise InvalidURL when wrong."""
    import httpx  # here: the command line reads files without the HTTP client

    text = str(url)
    if _ODD_URL_CHARS.search(text):
        raise InvalidURL("URL contains whitespace, control characters or a backslash")
    try:
        parsed = httpx.URL(text)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise InvalidURL(f"malformed URL: {exc}") from None
    if parsed.scheme not in ("http", "https"):
        raise InvalidURL(f"scheme {parsed.scheme or '(none)'!r} is not allowed; use http or https")
    # user:pass@ has no place in a page URL, and "https://trusted.example@evil/" is the
    # classic way to make a human (or a naive check) misread the host.
    if parsed.userinfo or "@" in (parsed.netloc.decode("ascii", "replace")):
        raise InvalidURL("URLs with user information (user@host) are not allowed")
    host = parsed.raw_host.decode("ascii")
    if not host:
        raise InvalidURL("URL has no host")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    if port not in set(allowed_ports):
        raise InvalidURL(port_refusal(port))
    return Target(url=parsed, host=host, port=port)
