"""This machine's LAN interfaces: where beacons go and which addresses join strings name.

Read through psutil, which asks each platform its own way (getifaddrs on Linux and macOS,
GetAdaptersAddresses on Windows), so the same code finds Wi-Fi, Ethernet and VPN
interfaces on all three.  Only IPv4 addresses of interfaces that are up count; loopback
never does.  A machine often has several (Wi-Fi and Ethernet, a VPN): every one gets the
host's beacons (to its directed broadcast address, where it has one: a point-to-point
VPN address, /31 or /32, has none) and every one is shown to the players, the best first.

The best address is the one the routing table sends ordinary traffic from (asked by
connecting a UDP socket, which sends nothing), then private LAN addresses,
then the others, link-local (169.254/16, an interface that found no DHCP server) last.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

import psutil

#: Any address outside every LAN (TEST-NET-2, RFC 5737): connecting a UDP socket to it
#: picks the source address of the default route without sending a packet.
ROUTE_PROBE = ("198.51.100.1", 9)


@dataclass(frozen=True)
class LanInterface:
    """One IPv4 address of an interface that is up.

    >>> LanInterface("wlan0", "192.168.1.20", 24).broadcast
    '192.168.1.255'
    >>> LanInterface("wg0", "100.64.0.7", 32).broadcast is None
    True
    """

    name: str
    address: str
    prefix: int  # network prefix length, 0..32

    @property
    def broadcast(self) -> str | None:
        """The directed broadcast address, None on a point-to-point link (/31, /32)."""
        if self.prefix >= 31:
            return None
        network = ipaddress.IPv4Interface(f"{self.address}/{self.prefix}").network
        return str(network.broadcast_address)

    @property
    def rank(self) -> int:
        """0 for a private LAN address, 1 for any other, 2 for link-local (lower is better)."""
        ip = ipaddress.IPv4Address(self.address)
        if ip.is_link_local:
            return 2
        return 0 if ip.is_private else 1


def _prefix_of(netmask: str | None) -> int | None:
    if not netmask:
        return None
    try:
        return ipaddress.IPv4Network(f"0.0.0.0/{netmask}").prefixlen
    except ValueError:  # not a contiguous mask
        return None


def lan_interfaces() -> list[LanInterface]:
    """Every IPv4 address of this machine's up, non-loopback interfaces, best first
    (see the module docstring)."""
    stats = psutil.net_if_stats()
    found: list[LanInterface] = []
    for name, addresses in psutil.net_if_addrs().items():
        state = stats.get(name)
        if state is not None and not state.isup:
            continue
        for entry in addresses:
            if entry.family != socket.AF_INET:
                continue
            try:
                ip = ipaddress.IPv4Address(entry.address)
            except ValueError:
                continue
            if ip.is_loopback or ip.is_unspecified:
                continue
            prefix = _prefix_of(entry.netmask)
            found.append(LanInterface(name, str(ip), 32 if prefix is None else prefix))
    routed = default_route_address()
    return sorted(found, key=lambda i: (i.address != routed, i.rank))  # stable: the OS's order within


def default_route_address() -> str | None:
    """The source address the routing table picks for traffic leaving this machine, None
    without a route (connect on a UDP socket only looks the route up: nothing is sent)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(ROUTE_PROBE)
        address = sock.getsockname()[0]
    except OSError:  # no route at all
        return None
    finally:
        sock.close()
    return None if address in ("0.0.0.0", "") else address


def lan_addresses() -> list[str]:
    """The addresses friends may reach this machine at, best first (each once)."""
    return list(dict.fromkeys(i.address for i in lan_interfaces()))


def broadcast_addresses() -> list[str]:
    """The directed broadcast address of every interface that has one (each once)."""
    return list(dict.fromkeys(b for b in (i.broadcast for i in lan_interfaces()) if b is not None))
