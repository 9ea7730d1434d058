"""The vote on an absent player at a table that hides hands (docs/fair-play.md "No table
waits for ever"; docs/client.md "Keys"), on the client's screen: a real host on 127.0.0.1,
three people's real clients, one of whom leaves mid-game.  Once he is named late, Ana's
screen offers `w` and `e`; `w` alone keeps the table waiting (one of two voters: a tie never
ends a game); when he is late again, Ana's `e` and Bea's vote end the game, scored as it
stands; the log and the game-over screen say so, and the saved transcript audits."""

from __future__ import annotations


import pytest

from modernart.cli.tui.net_session import NetSession
from modernart.cli.tui.session import Status
from modernart.net.clocks import ClockSettings
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.trust.audit import audit_evidence
from modernart.net.trust.identity import Keys
from tests.e2e.screen import Screen

from tests.net_helpers import run, until


async def _absent_player_voted_out(tmp_path) -> None:
    host = Host(Keys.generate(), bot_pace=0.0)
    await host.start()
    clocks = ClockSettings.from_dict(
        {"open_countdown": 0.3, "decision": 0.3, "grace": 30, "reveal": 2, "deck_step": 1.0}
    )
    table = host.open_table(
        "vote",
        journal_dir=str(tmp_path / "games"),
        lobby=Lobby(clocks=clocks),
        hidden_hands=True,
        fsync=False,
        autostart=3,
    )
    target = host.target(table.id)
    ana = NetSession(target, name="Ana", config_dir=str(tmp_path / "ana"), seat=0, ready=True)
    bea = NetSession(target, name="Bea", config_dir=str(tmp_path / "bea"), seat=1, ready=True)
    cem = NetSession(target, name="Cem", config_dir=str(tmp_path / "cem"), seat=2, ready=True)
    try:
        async with Screen(ana, cols=100, rows=30) as screen:
            await until(lambda: ana.seat == 0, 10)
            await bea.open()
            await cem.open()
            await until(lambda: bea.seat == 1 and cem.seat == 2, 10)
            # Cem's client sends its key, shuffle and the shares of the first deal, then leaves
            await until(
                lambda: (
                    table.game is not None and table.game.state is not None and not table.game.hidden.ledger.owed(2)
                ),
                60,
                what=lambda: (
                    table.game and (table.game.seq, table.game.state is not None),
                    [(s.name, s.ready) if s else None for s in table.lobby.seats],
                ),
            )
            await cem.close()
            await until(lambda: ana.vote_on == 2, 60, what=lambda: (ana.deck_late, screen.text))
            await screen.wait_for("Cem is late: w to keep waiting, e to end the game now")
            assert "w wait for Cem" in screen.text and "e end without Cem" in screen.text
            await screen.keys("w")  # one of two voters: half of them keeps the table waiting
            await until(lambda: any("voted to keep waiting for Cem" in e.text for e in ana.log), 10)
            assert not table.game.is_over
            await until(lambda: ana.vote_on == 2, 30)  # one more deadline: late again
            await screen.keys("e")
            await screen.wait_for("Cem is late: you voted to end the game now; the others' votes decide")
            assert not table.game.is_over  # one vote of the two an end needs
            await bea.vote("end")
            await until(lambda: table.game.is_over, 10)
            await until(lambda: any("voted to end the game without Cem" in e.text for e in ana.log), 10)
            assert table.game.ended_without == 2
            assert table.game.state.results[-1].ended_by == "early"
            # Ana's and Bea's deck keys go, Cem's never comes: the transcript is the record
            await until(lambda: table.record_path is not None, 30)
            await until(lambda: ana.status == Status.OVER, 10)
            # Ana's client saved its own copy, the transcript, and audited it: no problem on her screen
            await until(lambda: ana.client.state.saved_record is not None, 20)
            assert ana.client.state.saved_record.endswith(".transcript") and ana.client.state.audit == []
            assert audit_evidence(ana.client.state.saved_record).ok
            await screen.wait_for("Ended early by the players' vote, without Cem")
            errors = [e.text for e in ana.log if e.kind == "error" and "has not sent" not in e.text]  # (a `dlate`)
            assert errors == []
            report = audit_evidence(table.record_path)
            assert report.ok, report.problems
            assert any("without Cem" in n for n in report.notes)
    finally:
        await bea.close()
        await host.close()


@pytest.mark.timeout(200)
def test_the_players_here_vote_on_an_absent_player_with_keys_on_the_screen(tmp_path):
    run(_absent_player_voted_out(tmp_path), 170)


def _status_text(lang: str, my_vote: str | None) -> str:
    """The status line of Ana's table while Bea, at her card turn, is late and Ana may vote."""
    from modernart.game import GameState

    from modernart.cli.i18n import speaking
    from modernart.cli.tui.panels import status_line
    from modernart.cli.tui.session import SessionBase
    from modernart.cli.tui.state import ClientState

    with speaking(lang):
        session = SessionBase("Ana")
        session.names = ("Ana", "Bea", "Cem")
        session.obs = GameState(3, first_auctioneer=1).observation(0)
        session.hidden_hands, session.deck_late, session.deck_deadline = True, (1,), 1000.0
        session.vote_on, session.my_vote = 1, my_vote
        cs = ClientState(session, clock=lambda: 1010.0)
        return "".join(text for _style, text in status_line(cs, 160))


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", ("Bea is late: w to keep waiting, e to end the game now", "you voted to end the game now")),
        ("zh", ("Bea 迟到了：按 w 继续等待，按 e 现在结束游戏", "你已投票现在结束游戏")),
        ("fa", ("Bea تأخیر دارد: w برای ماندن در انتظار", "شما رأی دادید که بازی همین حالا تمام شود")),
    ],
)
def test_the_status_line_asks_for_the_vote_in_each_language(lang, words):
    asked, voted = words
    assert asked in _status_text(lang, None)
    assert voted in _status_text(lang, "end")
