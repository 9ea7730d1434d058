"""The coach (modernart/coach.py, `modernart review`): it reviews a seat's decisions from that
seat's own information only, ranks the costliest first, sums up where the seat lost most,
and speaks the client's three languages."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from modernart import coach
from modernart.bots import make_bot
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.presets import preset_options
from modernart.record import GameRecord, load_record
from modernart.rules import RuleOptions
from tests.engine.test_determinize import random_positions

#: a hard bot whose every decision depends on its seed and the observation only: a pass cap
#: that its budget (a minute) never lets the clock cut short
STEADY_HARD = {"budget": 60.0, "max_passes": 4}


def bot_game(
    seed: int, players: int = 4, options: RuleOptions | None = None, levels: list[str] | None = None
) -> GameRecord:
    """A whole game of bots (seat 0 random, the others medium unless `levels` says), recorded."""
    state = GameState(players, options, seed=seed)
    record = GameRecord.start(state, [f"P{s + 1}" for s in range(players)])
    levels = levels or ["random"] + ["medium"] * (players - 1)
    bots = [make_bot(level, seed=seed * 10 + s) for s, level in enumerate(levels)]
    while not state.is_over():
        move = next((m for s in state.to_move() if (m := bots[s].choose(state.observation(s))) is not None), None)
        if move is None:  # every bot waits in an Open auction: the auctioneer's hammer
            move = Move.hammer(state.auctioneer)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    return record


def unplayed_cards(record: GameRecord, seat: int) -> list[int]:
    """Cards `seat` still holds at the end: dealt to it and never played."""
    return [int(c) for c in record.replay().hands[seat]]


def with_cards_swapped(record: GameRecord, a: int, b: int) -> GameRecord:
    """The same game, but for two cards that are never played, exchanged between the hands
    they were dealt to (their places in the deck order swapped): every move stays legal."""
    data = json.loads(record.to_json())  # (to_dict shares the record's own lists)
    order = data["deck_order"]
    i, j = order.index(a), order.index(b)
    order[i], order[j] = order[j], order[i]
    data["deals"] = [[[b if c == a else a if c == b else c for c in hand] for hand in rnd] for rnd in data["deals"]]
    data.pop("result", None)
    other = load_record(json.dumps(data))
    other.sync(other.replay())
    return other


def test_the_review_never_reads_another_players_hidden_cards():
    """Two records that differ only in cards another player held and never played give the
    very same review of seat 0 with the same seeds: every estimate is drawn from seat 0's
    own observation (a coach that rolled out from the real state would see the exchanged
    cards, which change the other hands and so the rollouts)."""
    record = bot_game(3)
    a, b = unplayed_cards(record, 1)[0], unplayed_cards(record, 2)[0]
    other = with_cards_swapped(record, a, b)
    assert other.replay().hands[1] != record.replay().hands[1]  # the hidden hands do differ
    assert other.replay().money == record.replay().money and other.moves == record.moves
    first = coach.review(record, 0, samples=3, seed=5, bot_options=STEADY_HARD)
    second = coach.review(other, 0, samples=3, seed=5, bot_options=STEADY_HARD)
    assert first.decisions and any(not d.agreed for d in first.decisions)
    assert first.decisions == second.decisions and first.summary() == second.summary()


def test_the_costliest_decisions_come_first_with_their_intervals():
    record = bot_game(4, players=3)
    review = coach.review(record, 0, samples=6, seed=1, level="medium")
    decisions = coach.decisions_of(record, 0)
    reviewed = [d.index for d in review.decisions]
    assert reviewed == decisions  # every decision with a choice, in order
    costly = review.costliest()
    assert 0 < len(costly) <= 5
    assert [d.cost.mean for d in costly] == sorted((d.cost.mean for d in costly), reverse=True)
    assert costly[0].cost.mean == max(d.cost.mean for d in review.decisions)
    for d in review.decisions:
        assert d.cost.low <= d.cost.mean <= d.cost.high and d.topic in coach.TOPICS
        assert (d.cost.samples == 0) == d.agreed and d.played.seat == 0
        assert d.advised is None or d.advised.seat == 0
    summary = review.summary()
    assert summary is not None and summary.total <= summary.game_total == review.total
    assert summary.total == round(
        sum(
            d.cost.mean
            for d in review.decisions
            if (d.topic, d.kind) == (summary.topic, summary.kind) and d.cost.mean > 0
        ),
        1,
    )


def test_a_forced_move_is_no_decision_and_a_seat_outside_the_game_is_refused():
    record = bot_game(6, players=3)
    state = record.new_state()
    for index, move in enumerate(record.moves):
        if index in coach.decisions_of(record, move.seat):
            moves = state.legal_moves(move.seat)
            assert len(moves) > 1
        state.apply(move)
    with pytest.raises(ValueError, match="no seat 3"):
        coach.review(record, 3)


def test_the_paired_difference_of_a_move_with_itself_is_zero():
    state = GameState(4, seed=8)
    obs = state.observation(state.auctioneer)
    move = obs.legal_moves()[0]
    assert coach.paired_difference(obs, move, move, 5, seed=3) == coach.Estimate(0.0, 0.0, 0.0, 5)


def test_the_coach_reviews_the_persian_sheets_own_steps():
    """fa_seed with the seller announcing every auction: the announcements are decisions too."""
    record = bot_game(2, players=3, options=preset_options("fa_seed", seller_chooses_auction=True))
    review = coach.review(record, 1, samples=3, seed=2, level="medium")
    assert any(d.played.action == Action.ANNOUNCE for d in review.decisions)


def _review_cli(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LANG": "C"}
    return subprocess.run(
        [sys.executable, "-m", "modernart.cli.main", "review", *args, "--lang", lang],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )


@pytest.fixture(scope="module")
def record_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("coach") / "game.json"
    path.write_text(bot_game(4, players=3).to_json())
    return str(path)


@pytest.mark.parametrize(
    "lang, heading",
    [("en", "The five costliest decisions:"), ("zh", "代价最大的五个决定："), ("fa", "پنج تصمیم پرهزینه:")],
)
def test_modernart_review_prints_the_costliest_decisions_in_every_language(record_file, lang, heading):
    proc = _review_cli(record_file, "--seat", "1", "--samples", "3", lang=lang)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert heading in lines
    at = lines.index(heading)
    assert all(lines[at + k].startswith(f" {k}. ") for k in range(1, 6))


def test_modernart_review_json_and_its_refusals(record_file, tmp_path):
    proc = _review_cli(record_file, "--player", "P1", "--samples", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["seat"] == 0 and data["player"] == "P1" and data["level"] == "hard"
    assert data["costliest"] and set(data["costliest"]) <= {d["move"] for d in data["decisions"]}
    assert _review_cli(record_file, "--seat", "4").returncode == 2
    assert "no player Zed" in _review_cli(record_file, "--player", "Zed").stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert _review_cli(str(broken)).returncode == 2


def test_a_review_is_the_same_for_the_same_seed():
    record = bot_game(9, players=3)
    rng = random.Random(0)
    seed = rng.randrange(1000)
    one = coach.review(record, 2, samples=3, seed=seed, level="medium")
    two = coach.review(record, 2, samples=3, seed=seed, level="medium")
    assert one == two


def open_waits(record: GameRecord, seat: int, level: str = "medium") -> list[int]:
    """The seat's decisions in an Open auction where the bot would wait and no pass was
    open to the seat (it had passed since the last bid, or it runs the auction)."""
    wanted = set(coach.decisions_of(record, seat))
    found = []
    state = record.new_state()
    for index, move in enumerate(record.moves):
        if index in wanted and state.phase == Phase.OPEN:
            obs = state.observation(seat)
            if Move.pass_(seat) not in obs.legal_moves() and make_bot(level, seed=1).choose(obs) is None:
                found.append(index)
        state.apply(move)
    return found


def test_a_wait_in_an_open_auction_with_no_pass_open_is_reviewed() -> None:
    """Where the bot would wait in an Open auction and the player could not pass (it had
    passed already and bid again, or it hammered its own auction), the review says the bot
    would wait, with the estimated difference and its interval: the rollouts play the
    auction on without another bid from the seat.  (Before, these decisions were left out
    of the review.)"""
    for seed in range(3, 40):
        record = bot_game(seed, players=3)
        waits = open_waits(record, 0)
        if waits:
            break
    else:
        pytest.fail("no Open auction in which the bot would wait with no pass open")
    review = coach.review(record, 0, samples=6, seed=2, level="medium")
    by_index = {d.index: d for d in review.decisions}
    for index in waits:
        d = by_index[index]  # reviewed, not left out
        assert d.advised is None and not d.agreed and d.phase == Phase.OPEN
        assert 2 <= d.cost.samples <= 6 and d.cost.low <= d.cost.mean <= d.cost.high
        assert d.kind is not None and d.topic in coach.TOPICS
    from modernart.cli.coach_words import decision_line
    from modernart.cards import CLASSIC

    line = decision_line(by_index[waits[0]], list(record.players), CLASSIC, record.new_state().card_of)
    assert "would wait and let the others bid" in line


def test_waiting_is_measured_against_the_move_made() -> None:
    """The paired difference of waiting against a bid of all one's money in the first round
    (far above any painting's worth): waiting comes out ahead, clearly (the interval above
    0), so the rollouts of a wait do not buy the lot at that price."""
    for state in random_positions(4, RuleOptions(), seed=21):
        if state.phase == Phase.OPEN and state.high_seat >= 0 and state.round == 0:
            seats = [s for s in state.to_move() if s != state.high_seat and state.money[s] > state.high + 50]
            if seats:
                seat = seats[0]
                break
    else:
        pytest.fail("no Open auction with a bid")
    obs = state.observation(seat)
    estimate = coach.paired_difference(obs, Move.bid(seat, obs.money), None, 12, seed=4)
    assert estimate.samples >= coach.FIRST_SAMPLES and estimate.clear, estimate
