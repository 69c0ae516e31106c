"""R16.19: each side's hand is seen by its owner alone. Random games of hm-hochdorf, and after their commands, for each
side in turn as the owner, what the other side and a spectator may read is checked two ways:

* by its shape: no view holds a hand but the reader's own; no event the reader may read names a drawn card, and no
  die of a draw is the reader's to see (views, patches and history are built from these, kernel/views.py and the
  service's filter);
* against a counterfactual: the same game with the owner's hand swapped for other cards of its deck. Whatever the
  reader reads must be the same in both: its view (the prompt, whose turn it is, every count), the commands offered
  to it, the refusals of its card commands, and, after the next command of the game (when it plays none of the
  owner's cards), its view and the events it reads. A step that passed or waited because of a hand, a prompt that
  depended on one, or a refusal that told of one would differ.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.rules import Game, IllegalCommand, filter_events
from server.rules.horse_and_musket.scenario import HMScenario
from server.rules.horse_and_musket.tables import CARD_NAMES
from server.rules.kernel import cards as kcards
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules_cli import find_scenario

GAMES = int(__import__("os").environ.get("LEAK_GAMES", "30"))  # `make test`; LEAK_GAMES=100 for issue 42's report
CHECK_EVERY = 7  # the counterfactual's heavier checks, every so many commands (the shape is checked after every one)
SPECTATOR = "spectator"


@pytest.fixture(scope="module")
def hochdorf() -> HMScenario:
    sc = find_scenario("hm-hochdorf")
    assert isinstance(sc, HMScenario)
    return sc


def swapped(game: Game, owner: str, rng: random.Random) -> Game | None:
    """The game with `owner`'s hand replaced by other cards of its hand and deck (None if no other hand exists)."""
    data = game.to_json()  # the state in it is a deep copy (GameState.to_json)
    piles = data["state"]["extra"]["cards"]["sides"][owner]
    pool = piles["hand"] + piles["deck"]
    n = len(piles["hand"])
    for _ in range(20):
        rng.shuffle(pool)
        if sorted(pool[:n]) != sorted(piles["hand"]):
            piles["hand"], piles["deck"] = pool[:n], sorted(pool[n:])
            return Game.from_json(game.scenario, data)
    return None


def shape_problems(game: Game, events: list[dict[str, Any]], reader: str) -> list[str]:
    out = []
    view = game.view(reader)
    hands = view["cards"]["hands"]
    if set(hands) - ({reader} if reader in game.scenario.sides else set()):
        out.append(f"{reader}'s view holds another hand: {sorted(hands)}")
    if reader in hands and sorted(hands[reader]) != sorted(kcards.hand(game.state.extra, reader)):
        out.append(f"{reader}'s view shows a hand that is not its own")
    for e in filter_events(events, reader):
        if e.get("side") == reader:
            continue  # its own draw
        if e["type"] == "card_drawn" or (e["type"] == "dice" and e.get("purpose") == "card drawn"):
            out.append(f"{reader} reads a draw of the other side: {e}")
        elif "card" in e and e["type"] != "card_played":
            out.append(f"{reader} reads an event naming a card of the other side: {e}")
    return out


def _probes(game: Game, reader: str) -> list[dict[str, Any]]:
    sc = game.scenario
    mine = [u for u in sc.side_units[reader] if game.state.units[u].status == "map"]
    out: list[dict[str, Any]] = []
    for card in CARD_NAMES:
        out.append({"type": "play_card", "card": card, "general": mine[0]})
        out.append({"type": "play_card", "card": card, "unit": mine[-1]})
        out.append({"type": "fire", "unit": mine[-1], "target": sc.side_units[sc.opponent(reader)][-1], "card": card})
    return out


def _refusal(game: Game, reader: str, cmd: dict[str, Any]) -> str:
    copy = Game.from_json(game.scenario, game.to_json())
    try:
        copy.submit(reader, cmd)
    except IllegalCommand as e:
        return f"{e.rule}: {e.message}"
    return "accepted: " + json.dumps(copy.view(reader), sort_keys=True)


def counterfactual_problems(game: Game, cf: Game, reader: str, nxt: tuple[str, dict[str, Any]] | None) -> list[str]:
    out = []
    if game.view(reader) != cf.view(reader):
        out.append(f"{reader}'s view depends on the other hand")
    offered = list(game.legal_commands(reader, random.Random(5), 300))
    if offered != list(cf.legal_commands(reader, random.Random(5), 300)):
        out.append(f"the commands offered to {reader} depend on the other hand")
    if game.awaiting == reader:  # (any other time its commands are refused as not its decision, whatever it holds)
        for cmd in _probes(game, reader):
            if _refusal(game, reader, cmd) != _refusal(cf, reader, cmd):
                out.append(f"the answer to {reader}'s {cmd} depends on the other hand")
    if nxt is not None:
        side, cmd = nxt
        a, b = game.submit(side, cmd), cf.submit(side, cmd)
        if filter_events(a, reader) != filter_events(b, reader):
            out.append(f"the events {reader} reads after {cmd} depend on the other hand")
        if _unrevealed(game, reader) != _unrevealed(cf, reader):
            out.append(f"{reader}'s view after {cmd} depends on the other hand (a step or prompt moved by a card)")
    return out


def _unrevealed(game: Game, reader: str) -> dict[str, Any]:
    """The reader's view less the hands a finished game reveals to all (R16.19), which differ by design."""
    view = game.view(reader)
    if game.is_over:
        view["cards"] = {k: v for k, v in view["cards"].items() if k != "hands"}
    return view


def _uses_cards_of(cmd: dict[str, Any], side: str, mover: str) -> bool:
    return mover == side and (cmd.get("type") == "play_card" or "card" in cmd)


def play_and_check(sc: HMScenario, seed: int) -> tuple[list[str], int]:
    rng = random.Random(seed)
    game = Game.new(sc, f"card-leak-seed-{seed:012d}")
    player = RandomPlayer(rng)
    problems: list[str] = []
    checked = 0
    n = 0
    while not game.is_over:
        side = game.awaiting
        assert side is not None
        cmd = player.choose(game, side)
        if n % CHECK_EVERY == 0:
            for owner in sc.side_order:
                for reader in (sc.opponent(owner), SPECTATOR):
                    cf = swapped(game, owner, random.Random(seed * 1000 + n))
                    if cf is None:
                        continue
                    checked += 1
                    shadow = Game.from_json(sc, game.to_json())
                    step = None if _uses_cards_of(cmd, owner, side) else (side, cmd)
                    problems += [f"game {seed} command {n}: {p}"
                                 for p in counterfactual_problems(shadow, cf, reader, step)]
        events = game.submit(side, cmd)
        n += 1
        if game.is_over:
            break
        for reader in (*sc.side_order, SPECTATOR):
            problems += [f"game {seed} command {n}: {p}" for p in shape_problems(game, events, reader)]
    final = game.view(SPECTATOR)["cards"]["hands"]  # R16.19: revealed when the game ends
    if set(final) != set(sc.side_order):
        problems.append(f"game {seed}: the hands are not revealed at the end")
    return problems, checked


@pytest.mark.slow
def test_r16_19_seeded_random_games_leak_no_card(hochdorf: HMScenario) -> None:
    problems: list[str] = []
    checked = 0
    for seed in range(GAMES):
        got, k = play_and_check(hochdorf, seed)
        problems += got
        checked += k
    assert checked > GAMES * 10  # the counterfactual really ran, many times a game
    assert problems == [], problems[:10]


def test_r16_19_a_few_games_leak_no_card(hochdorf: HMScenario) -> None:
    problems, checked = play_and_check(hochdorf, 1000)
    assert checked > 10 and problems == [], problems[:10]


def test_the_counterfactual_catches_a_planted_leak(hochdorf: HMScenario, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a view that shows every hand, or an event that names a drawn card publicly, is caught."""
    game = Game.new(hochdorf, "card-leak-plant-0000000000")
    player = RandomPlayer(random.Random(3))
    while not any(kcards.hand(game.state.extra, s) for s in hochdorf.side_order):
        side = game.awaiting
        assert side is not None
        game.submit(side, player.choose(game, side))
    owner = next(s for s in hochdorf.side_order if kcards.hand(game.state.extra, s))
    reader = hochdorf.opponent(owner)
    cf = swapped(game, owner, random.Random(1))
    assert cf is not None
    assert counterfactual_problems(game, cf, reader, None) == []
    monkeypatch.setattr(kcards, "view", lambda extra, viewer, everything: {
        "hands": {s: sorted(p["hand"]) for s, p in extra["cards"]["sides"].items()}})
    assert counterfactual_problems(game, cf, reader, None)
    assert shape_problems(game, [], reader)
    monkeypatch.undo()
    assert shape_problems(game, [{"type": "card_drawn", "text": "", "card": "volley", "side": owner}], reader)
