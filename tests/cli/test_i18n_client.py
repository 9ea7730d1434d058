"""The client's languages: which one is chosen, the sheets' own words, Persian drawn for
terminals with and without BiDi, and two players at one real host table each reading it in
their own language (the host sends codes and numbers, never sentences)."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.utils import get_cwidth

from modernart.cards import CLASSIC, AuctionType
from modernart.cli.bidi import reordering, visual
from modernart.cli.i18n import _, choose_language, language, language_from_env, speaking, use_language
from modernart.cli.narrate import describe_timeout
from modernart.cli.refusals import refusal_text
from modernart.cli.words import auction_word, local_edition
from modernart.moves import Move
from tests.e2e.screen import O, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    "env, lang",
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "fa_IR.UTF-8"}, "fa"),
        ({"LC_ALL": "fa_IR", "LANG": "zh_CN"}, "fa"),
        ({"LANGUAGE": "de:zh_CN", "LANG": "fa_IR"}, "zh"),  # the first it speaks, in order
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_language_from_the_environment(env, lang):
    assert language_from_env(env) == lang


def test_lang_beats_the_environment_and_unknown_ones_are_refused():
    assert choose_language("fa", {"LANG": "zh_CN.UTF-8"}) == "fa"
    assert choose_language(None, {"LANG": "zh_CN.UTF-8"}) == "zh"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        choose_language("xx", {})


def test_a_context_speaks_its_own_language_and_gives_it_back():
    before = language()
    with speaking("zh"):
        assert _("Your hand") == "你的手牌"
        with speaking("fa"):
            assert _("Your hand") == "دست شما"
        assert language() == "zh"
    assert language() == before


def test_chinese_uses_the_chinese_sheets_names():
    with speaking("zh"):
        assert local_edition(CLASSIC).artists == ("轻金属", "针织风", "天启印象", "玻璃砖", "隐晦主义")
        assert [auction_word(k) for k in AuctionType] == ["公开竞价", "优先承购式竞价", "暗标", "一口价", "联合拍卖"]
        assert local_edition(CLASSIC).initials == CLASSIC.initials  # L Y C K R in every language


def test_persian_uses_the_persian_sheets_words():
    with speaking("fa"):
        assert auction_word(AuctionType.OPEN) == "حراج آزاد"
        assert auction_word(AuctionType.SEALED) == "حراج مخفی"
        assert auction_word(AuctionType.FIXED_PRICE) == "حراج یک‌دستی"
        assert "هنرمند" in _("Artist") and "دور" in _("Round {round}/{rounds}")


PERSIAN = ["کارت 3:S (حراج مخفی)", "Ana 30 پیشنهاد داد", "دور 1/4 | Ana $100 | نوبت شما", "لایت متال  R1 R2"]


@pytest.mark.parametrize("text", PERSIAN)
def test_persian_for_terminals_without_bidi(text):
    with speaking("fa"), reordering("client"):
        shown = visual(text)
        assert shown != text
        assert get_cwidth(shown) == get_cwidth(text)  # every column stays where it was
        pieces = re.split(r" {2,}| \| ", text)
        # mirrored: the first piece at the right, the last at the left, each reordered as a whole
        assert shown.endswith(visual(pieces[0])) and shown.startswith(visual(pieces[-1]))
        assert not any("\u0600" <= ch <= "\u06ff" and not ch.isdigit() for ch in shown)  # shaped letters only
    with speaking("fa"), reordering("terminal"):
        assert visual(text) == text  # a BiDi terminal reorders it itself


def test_latin_runs_and_brackets_read_right_in_a_persian_line():
    with speaking("fa"), reordering("client"):
        shown = visual("کارت 3:S (حراج مخفی)")
        assert shown.endswith("3:S ﺕﺭﺎﮐ") or "3:S" in shown  # the card code keeps its order
        assert shown.startswith("(") and ")" in shown  # brackets mirrored: they still enclose
        assert "Ana 30" in visual("Ana 30 پیشنهاد داد")
        assert visual("R1 R2 R3 R4") == "R1 R2 R3 R4"  # nothing right to left: as it is
    with speaking("zh"), reordering("client"):
        assert visual("你的手牌") == "你的手牌"  # left to right languages are never reordered


def test_narration_in_each_language():
    names = ["Ana", "Bea", "Cem"]
    with speaking("zh"):
        assert describe_timeout(22, 2, names) == "时间到：22 元一声，22 元两声，成交！归 Cem"
    with speaking("fa"):
        assert "Cem" in describe_timeout(22, 2, names) and "22" in describe_timeout(22, 2, names)


def test_a_refusal_is_worded_from_its_code_and_params():
    with speaking("zh"):
        assert refusal_text("seat_taken", {"seat": 1}, "seat 1 is taken") == "座位 2 已经有人了"
        assert refusal_text("no_such_code", {}, "whatever") == "主机拒绝了（no_such_code）"
    with speaking("fa"):
        assert refusal_text("seat_taken", {"seat": 1}, "seat 1 is taken") == "جای 2 پر است"
    with speaking("en"):  # English: the host's own words, rule reference and all
        assert refusal_text("seat_taken", {"seat": 1}, "seat 1 is taken") == "seat 1 is taken"


@run_async
async def test_two_languages_at_one_table():
    """Ana reads the table in Chinese, Bea in Persian: the host's refusal carries a code and
    its parameters (no sentence to show), and each log tells the same game in its own words."""
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND], start=False)
    ana.language, bea.language = "zh", "fa"
    reply = await ana.client.take_seat("Ana", bea.seat)
    assert not reply.ok and reply.code == "seat_taken" and reply.params == {"seat": bea.seat}
    await ana.take_seat(bea.seat)
    await bea.take_seat(ana.seat)
    assert ana.log[-1].kind == "error" and ana.log[-1].text == f"座位 {bea.seat + 1} 已经有人了"
    assert bea.log[-1].kind == "error" and bea.log[-1].text == f"جای {ana.seat + 1} پر است"
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    ana.language, bea.language = "zh", "fa"
    await ana.send_move(Move.play(0, card_of(ana, 0, O)))
    await table.settled()
    assert any("Ana 拿出 轻金属（公开竞价）：公开竞价" == e.text for e in ana.log), [e.text for e in ana.log]
    assert any("Ana کارت لایت متال (حراج آزاد) را رو می‌کند: حراج آزاد" == e.text for e in bea.log), [
        e.text for e in bea.log
    ]
    use_language("en")  # this test's context as it was


def test_persian_punctuation_does_not_reorder_twice():
    """The Arabic comma and semicolon are not shaped: a drawn piece holding them must still
    count as drawn (a second pass would turn it back)."""
    with speaking("fa"), reordering("client"):
        shown = visual("3 از 5 جا پر است؛ بازی، 3 تا 5 نفر")
        assert visual(shown) == shown and shown.startswith("ﺮﻔﻧ 5")
