"""Interface discovery through psutil (net/lan/interfaces.py) on a machine with several
networks: inside a network namespace the test makes (`unshare -n`), with veth pairs
standing for Ethernet, Wi-Fi and a point-to-point VPN, one interface down and one without
carrier.  Nothing leaves the namespace: no real interface is in it."""

from __future__ import annotations

import json
import shlex
import textwrap

import pytest

from modernart.net.lan.interfaces import LanInterface

from tests.net_helpers import PY, in_namespace, needs_netns

#: Ethernet 10.77.1.5/16 (the default route), Wi-Fi 192.168.77.9/24, a VPN 100.64.3.4/32,
#: an interface that is down and one whose cable is out (its peer down: no carrier)
NETWORKS = textwrap.dedent("""
    pair() { ip link add "$1" type veth peer name "$1p" && ip addr add "$2" dev "$1"; }
    pair eth7 10.77.1.5/16 && ip link set eth7p up && ip link set eth7 up
    pair wifi0 192.168.77.9/24 && ip link set wifi0p up && ip link set wifi0 up
    pair vpn0 100.64.3.4/32 && ip link set vpn0p up && ip link set vpn0 up
    pair off0 10.99.0.1/24
    pair unplugged0 10.98.0.1/24 && ip link set unplugged0 up
    ip route add default dev eth7
""")

LIST = textwrap.dedent("""
    import json
    from modernart.net.lan.interfaces import broadcast_addresses, default_route_address, lan_addresses, lan_interfaces
    print(json.dumps({"interfaces": [[i.name, i.address, i.prefix, i.broadcast] for i in lan_interfaces()],
                      "addresses": lan_addresses(), "broadcasts": broadcast_addresses(),
                      "routed": default_route_address()}))
""")


def test_broadcast_and_rank_of_an_address():
    assert LanInterface("eth0", "10.1.2.3", 8).broadcast == "10.255.255.255"
    assert LanInterface("wg0", "10.1.2.3", 31).broadcast is None  # point-to-point: nobody to broadcast to
    assert LanInterface("wlan0", "192.168.0.4", 24).rank == 0
    assert LanInterface("tailscale0", "100.101.102.103", 32).rank == 1
    assert LanInterface("en5", "169.254.10.20", 16).rank == 2  # no DHCP server answered: last


@needs_netns
@pytest.mark.timeout(60)
def test_every_up_interface_is_found_the_routed_one_first():
    done = in_namespace(NETWORKS + f"{PY} -c {shlex.quote(LIST)}")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["interfaces"] == [
        ["eth7", "10.77.1.5", 16, "10.77.255.255"],
        ["wifi0", "192.168.77.9", 24, "192.168.77.255"],
        ["vpn0", "100.64.3.4", 32, None],
    ]  # neither the interface that is down nor the one without carrier, never loopback
    assert out["addresses"] == ["10.77.1.5", "192.168.77.9", "100.64.3.4"]
    assert out["broadcasts"] == ["10.77.255.255", "192.168.77.255"]
    assert out["routed"] == "10.77.1.5"


@needs_netns
@pytest.mark.timeout(60)
def test_without_a_default_route_the_private_lan_address_comes_first():
    networks = NETWORKS.replace("ip route add default dev eth7\n", "")
    networks = networks.replace("pair eth7 10.77.1.5/16", "pair eth7 100.70.1.5/16")  # not private
    done = in_namespace(networks + f"{PY} -c {shlex.quote(LIST)}")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["routed"] is None
    assert out["addresses"] == ["192.168.77.9", "100.70.1.5", "100.64.3.4"]


#: Joins the table through the join string of its second address and prints what the
#: lobby frame says about the others
JOIN_SECOND = textwrap.dedent("""
    import asyncio, json, sys
    from modernart.net.client.client import Client
    from modernart.net.lan.address import parse_join_string
    from modernart.net.trust.identity import Keys

    async def main():
        client = Client(parse_join_string(sys.argv[1]), keys=Keys.generate())
        await client.connect()
        await client.wait_until(lambda st: bool(st.table.get("name")), 5)
        table = client.state.table
        print(json.dumps({"name": table.get("name"), "join": table.get("join"), "also": table.get("also")}))
        await client.close()
    asyncio.run(main())
""")


@needs_netns
@pytest.mark.timeout(90)
def test_a_host_announces_on_every_interface_and_shows_every_address():
    """`modernart host` bound to every interface: its join string names the routed address,
    the other addresses are printed and sent in the lobby frame, the beacon goes out on
    both broadcast interfaces (a listener on the machine hears the table at both
    addresses), and a client joins through the second address."""
    script = NETWORKS + (
        "D=$(mktemp -d); "
        f"{PY} -m modernart.cli.main host --port 0 --name TwoNets --config-dir $D --journal-dir $D/games "
        "> $D/out & HOST=$!; "
        f"sleep 1.5; {PY} -m modernart.cli.main join --print --listen 2.5 > $D/heard; "
        "SECOND=$(sed -n 's/^or: *//p' $D/out | head -1); "
        f'{PY} -c {shlex.quote(JOIN_SECOND)} "$SECOND" > $D/joined; RC=$?; '
        "kill $HOST; wait $HOST; "
        "echo '== out'; cat $D/out; echo '== heard'; cat $D/heard; echo '== joined'; cat $D/joined; "
        "rm -rf $D; exit $RC"
    )
    done = in_namespace(script, timeout=80)
    assert done.returncode == 0, (done.stdout, done.stderr)
    printed, _, rest = done.stdout.partition("== heard\n")
    heard, _, joined = rest.partition("== joined\n")
    lines = printed.splitlines()
    join = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("join string:"))
    others = [line.split(":", 1)[1].strip() for line in lines if line.startswith("or:")]
    assert join.startswith("ma://10.77.1.5:")
    assert [o.split(":")[1] for o in others] == ["//192.168.77.9", "//100.64.3.4"]
    assert "ma://10.77.1.5:" in heard and "ma://192.168.77.9:" in heard  # beacons on both broadcast nets
    assert heard.count("'TwoNets'") == 2
    told = json.loads(joined.strip().splitlines()[-1])
    assert told["name"] == "TwoNets" and told["join"] == join and told["also"] == others
