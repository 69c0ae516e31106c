"""The legal command lists (legal.py) and the page's options (options.py): every command offered at any point of a
random game of hm-hochdorf is accepted by `submit` (tried on a copy), cards are offered from the side's own hand only
(R16.10, R16.19), and `preview` judges a command as `submit` would without changing the game."""

from __future__ import annotations

import random

import pytest

from server.rules import Game, IllegalCommand
from server.rules.horse_and_musket.tables import CARD_NAMES, VOLLEY
from server.rules.kernel import cards as kcards
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules_cli import find_scenario

from .builder import Board, step


def test_every_command_offered_is_accepted() -> None:
    sc = find_scenario("hm-hochdorf")
    game = Game.new(sc, "legal-commands-seed-000001")
    player = RandomPlayer(random.Random(11))
    tried = 0
    for n in range(400):
        if game.is_over:
            break
        side = game.awaiting
        assert side is not None
        if n % 5 == 0:
            for cmd in game.legal_commands(side, random.Random(n), 60):
                copy = Game.from_json(sc, game.to_json())
                copy.submit(side, cmd)  # raises on an offered command the referee refuses
                tried += 1
                held = kcards.hand(game.state.extra, side)
                if cmd.get("card") is not None:
                    assert cmd["card"] in held and cmd["card"] in CARD_NAMES
        game.submit(side, player.choose(game, side))
    assert tried > 200


def test_r16_10_no_card_is_offered_that_the_side_does_not_hold() -> None:
    b = Board().unit("f", "blue", "co", "0610").unit("t", "red", "co", step("0610", "N", "N"), facing="S")
    g = b.game(step="firing")
    g.state.extra["first_fire"] = ["f"]
    assert [c.get("card") for c in g.legal_commands("blue")] == [None, None]  # the fire, and end_step
    g = b.game(step="firing", hands={"blue": [VOLLEY]})
    g.state.extra["first_fire"] = ["f"]
    assert [c.get("card") for c in g.legal_commands("blue") if c["type"] == "fire"] == [None, VOLLEY]


def test_preview_judges_without_applying() -> None:
    b = Board().unit("f", "blue", "co", "0610").unit("t", "red", "co", step("0610", "N", "N"), facing="S")
    g = b.game(step="firing")
    before = g.state.to_json()
    got = g.preview("blue", {"type": "fire", "unit": "f", "target": "t"})
    assert got["legal"] and (got["dice"], got["need"], got["long"]) == (4, 4, False)
    assert g.preview("blue", {"type": "fire", "unit": "f", "target": "f"})["rule"] == "RC.2b"
    assert g.state.to_json() == before
    g = b.game(step="moves")
    back = {"type": "move", "unit": "f", "legs": [{"steps": 2, "back": True}]}  # retrograde: 1 hex (4.2.4)
    assert g.preview("blue", back)["rule"] == "4.2.2"
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", back)
    assert err.value.rule == "4.2.2"
