"""Counterattacks (7.3, R8): eligibility fixed at the start of the combat phase, lost when attacked or
bombarded, doubled strength, the phasing player names the defending primary, a one-hex move first."""

from __future__ import annotations

from position import Position, attack, choose, combat_result, decision_kind, option_ids, unit

PASS, FAIL = 1, 6


def base(extra=None, dice=None):
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=4, defense=4, mr=4)
    pos.unit("r1", "red", hex="0604", attack=3, defense=4, mr=4)
    if extra:
        extra(pos)
    return pos.game(phase="combat", dice=list(dice or []))


def end_phase(game):
    return game.submit("blue", {"type": "end_phase"})


def test_r8_eligibility_is_fixed_at_the_start_of_the_combat_phase() -> None:
    game = base(lambda p: (p.unit("r2", "red", hex="0904"), p.unit("r3", "red", hex="0605", disrupted=True)))
    assert game.state.ca_eligible == ["r1"]  # r2 is not adjacent; r3 exerts no ZOC


def test_7_3_an_unattacked_unit_that_exerted_zoc_may_counterattack_at_double_strength() -> None:
    game = base(dice=[4, PASS])
    end_phase(game)
    assert decision_kind(game) == "counterattack" and game.awaiting == "red"
    assert set(option_ids(game)) == {"0604>0504|r1", "decline:0604", "decline_all"}
    events = choose(game, "0604>0504|r1")
    ev = combat_result(events)
    assert ev["attack"] == 6 and ev["defense"] == 4  # 3 doubled
    assert (game.state.phase, game.state.active) == ("movement", "red")


def test_r8_declining_ends_the_counterattacks() -> None:
    game = base()
    end_phase(game)
    choose(game, "decline_all")
    assert (game.state.phase, game.state.active) == ("movement", "red")
    assert not unit(game, "b1").disrupted


def test_r8_declining_one_hex_moves_on_to_the_next() -> None:
    game = base(lambda p: p.unit("r2", "red", hex="0505", attack=3), dice=[4, PASS])
    end_phase(game)
    assert {"decline:0604", "decline:0505"} <= set(option_ids(game))
    choose(game, "decline:0604")
    assert set(option_ids(game)) == {"0505>0504|r2", "decline:0505", "decline_all"}
    choose(game, "0505>0504|r2")
    assert game.state.phase == "movement"


def test_7_3_each_hex_counterattacks_alone_and_a_hex_may_be_counterattacked_twice() -> None:
    # r2's 2 doubled = 4 vs 4: die 4 is "-"; r1's 3 doubled = 6 vs 4: die 1 is Ar, morale passes: exchange
    game = base(lambda p: p.unit("r2", "red", hex="0505", attack=2), dice=[4, 1, 1, 1])
    end_phase(game)
    events = choose(game, "0505>0504|r2")
    assert combat_result(events)["attack"] == 4  # r2 alone, not combined with r1
    assert set(option_ids(game)) == {"0604>0504|r1", "decline:0604", "decline_all"}
    events = choose(game, "0604>0504|r1")
    assert combat_result(events)["attack"] == 6
    assert game.state.phase == "movement"


def test_r8_attacking_a_unit_loses_its_counterattack() -> None:
    game = base(dice=[4, PASS])  # 4 vs 4: die 4 is "-"
    attack(game, "0604", ["b1"])
    assert game.state.ca_eligible == []
    end_phase(game)
    assert decision_kind(game) is None and game.state.phase == "movement"


def test_r8_bombarding_a_unit_loses_its_counterattack() -> None:
    game = base(lambda p: p.unit("a1", "blue", "artillery", hex="0304", attack=1, range=3), dice=[1, 1])
    game.submit("blue", {"type": "bombard", "target": "0604", "artillery": ["a1"]})
    assert "r1" not in game.state.ca_eligible
    end_phase(game)
    assert game.state.phase == "movement"


def test_r8_a_unit_counterattacks_once_even_after_advancing_next_to_another_enemy() -> None:
    # r1 (5 doubled = 10 vs 4: +6, die 4: Dr) beats b1, advances to 0504 beside b2: no second counterattack
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=4, defense=4, mr=4)
    pos.unit("b2", "blue", hex="0404", attack=4, defense=4, mr=4)
    pos.unit("r1", "red", hex="0604", attack=5, defense=4, mr=4)
    game = pos.game(phase="combat", dice=[4, FAIL])
    end_phase(game)
    choose(game, "0604>0504|r1")
    choose(game, "0403")
    choose(game, "0504")
    assert unit(game, "r1").hex == "0504" and unit(game, "r1").attacked
    assert decision_kind(game) is None and game.state.phase == "movement"


def test_r8_with_no_enemy_adjacent_the_unit_may_move_one_hex_first() -> None:
    def extra(p):
        p.unit("r2", "red", hex="0503", defense=6)
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9, defense=4, mr=4)
    pos.unit("r1", "red", hex="0604", attack=3, defense=4, mr=4)
    extra(pos)
    game = pos.game(phase="combat", dice=[4, FAIL, 4, PASS])
    attack(game, "0503", ["b1"])  # +3, die 4: Dr, fails: r2 retreats
    choose(game, "0602")
    choose(game, "0503")  # b1 advances out of r1's reach
    assert unit(game, "b1").hex == "0503"
    end_phase(game)
    assert set(option_ids(game)) == {"0604>0603>0503|r1", "0604>0504>0503|r1", "decline:0604", "decline_all"}
    events = choose(game, "0604>0504>0503|r1")
    assert unit(game, "r1").hex == "0504"
    assert combat_result(events)["attack"] == 6
    assert game.state.phase == "movement"  # r1 counterattacked once; nothing more to offer


def test_r8_the_phasing_player_names_the_defending_primary() -> None:
    game = base(lambda p: p.unit("bn", "blue", "battalion", hex="0504", defense=1), dice=[4, PASS])
    end_phase(game)
    choose(game, "0604>0504|r1")
    assert decision_kind(game) == "defenders" and game.awaiting == "blue"
    events = choose(game, "bn|b1+bn|-")
    assert combat_result(events)["defense"] == 5


def test_7_3_counterattackers_take_the_attackers_role_and_may_advance() -> None:
    # r1 attack 5 doubled = 10 vs 4: +6, die 4: Dr; blue fails and retreats; red may advance
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=4, defense=4, mr=4)
    pos.unit("r1", "red", hex="0604", attack=5, defense=4, mr=4)
    game = pos.game(phase="combat", dice=[4, FAIL])
    end_phase(game)
    choose(game, "0604>0504|r1")
    assert decision_kind(game) == "retreat" and game.awaiting == "blue"
    choose(game, "0404")
    assert decision_kind(game) == "advance" and game.awaiting == "red"
    choose(game, "0504")
    assert unit(game, "r1").hex == "0504"
    assert game.state.phase == "movement"


def test_r8_a_unit_that_retreats_into_an_eligible_hex_does_not_join_the_counterattack() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9, defense=4, mr=4)
    pos.unit("b2", "blue", hex="0706", attack=1, defense=4, mr=4)
    pos.unit("r1", "red", hex="0705", attack=3, defense=4, mr=4)  # eligible: its ZOC is on b2
    pos.terrain("0705", "fort")  # b2's ZOC does not enter it, so r2 may end its retreat there
    pos.unit("r2", "red", hex="0604", attack=5, defense=6)
    game = pos.game(phase="combat", dice=[4, FAIL])
    assert game.state.ca_eligible == ["r1", "r2"]
    attack(game, "0604", ["b1"])  # +3, die 4: Dr; r2 fails, retreats into r1's hex
    assert game.state.ca_eligible == ["r1"]
    choose(game, "0705")
    choose(game, "stay")
    assert unit(game, "r2").hex == "0705"
    end_phase(game)
    opts = {o["id"]: o for o in game.state.decision["options"] if "attackers" in o}
    assert opts and all(o["attackers"] == ["r1"] for o in opts.values())


def test_r8_a_counterattack_move_out_of_a_square_leaves_no_stale_square() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9, defense=4, mr=4)
    pos.unit("r1", "red", hex="0604", attack=3, defense=4, mr=4, square=True)
    pos.unit("r2", "red", hex="0503", defense=6)
    game = pos.game(phase="combat", dice=[4, FAIL, 4, PASS])
    attack(game, "0503", ["b1"])
    choose(game, "0602")
    choose(game, "0503")
    end_phase(game)
    choose(game, "0604>0504>0503|r1")
    assert unit(game, "r1").hex == "0504"
    assert all(unit(game, u).hex == h for h, u in game.state.squares.items())
    assert "0604" not in game.state.squares  # no infantry is left there to hold it


def test_r8_eligibility_agrees_with_the_zone_of_control_sources_in_positions_of_random_play() -> None:
    # counterattack_eligible asks each non-phasing unit whether its ZOC reaches a phasing unit (issue 16);
    # it must name the units the plain definition names: those in a hex that exerts a ZOC on a phasing unit.
    from position import random_play_contexts

    from server.rules.quickplay.phases import counterattack_eligible

    asked = named = 0
    for ctx in random_play_contexts():
        for phasing in ctx.sc.side_order:
            other = ctx.enemy(phasing)
            hexes = {ctx.u(u).hex for u in ctx.side_units_on_map(phasing) if not ctx.is_leader(u)}
            sources = {src for h in hexes if h is not None for src in ctx.zoc_sources(h, phasing)}
            plain = sorted(u for u in ctx.side_units_on_map(other) if ctx.exerts_zoc(u) and ctx.u(u).hex in sources)
            assert counterattack_eligible(ctx, phasing) == plain
            asked += 1
            named += bool(plain)
    assert asked > 1000 and named > 0
