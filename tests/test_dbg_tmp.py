import asyncio, pathlib, pytest
from tests.net_helpers import *
from net.client import Client
from net.identity import Keys
@pytest.mark.parametrize("i", range(6))
def test_x(tmp_path, i):
    async def main():
        host, table = await in_process_host(tmp_path)
        sp = Client(host.target(), keys=Keys.generate(), spectate=True)
        await sp.connect()
        seat_bots(host, table, 3)
        ok = True
        try:
            await sp.wait_until(lambda s: bool(s.public and s.public.get("winners")), 10)
        except Exception as e:
            ok = False
            st = table.session.state
            print("STALL", st, sp.state.head_seq, table.session.seq)
            for t, b in host.bots.values():
                o = b.client.state.observation
                print(" bot", b.client.state.seat, b.client.state.status, b.client.state.head_seq, o and o.my_turn, b.moves_sent, b.rejected, t.done(), t.done() and t.exception(), b.client._pending)
        await sp.close(); await host.close()
        assert ok
    asyncio.run(main())
