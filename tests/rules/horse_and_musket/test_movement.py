"""Movement judged (movement.py): 4.2.1-4.2.10, 4.2.7's terrain, RC.1a, RC.1c and R16.11-R16.12's hex readings, by
`move` commands in step two (the command allowance is test_moves.py's)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, IllegalCommand

from .builder import Board, ctx_of, step

HERE = "0608"


def _move(game: Game, unit: str, **fields: Any) -> list[dict[str, Any]]:
    return game.submit("blue", {"type": "move", "unit": unit, **fields})


def _refused(game: Game, rule: str, unit: str, **fields: Any) -> None:
    with pytest.raises(IllegalCommand) as err:
        _move(game, unit, **fields)
    assert err.value.rule == rule, err.value


def _where(game: Game, uid: str) -> tuple[str | None, str | None, str]:
    s = game.state.units[uid]
    return s.hex, s.facing, ctx_of(game).formation(uid)


def test_4_2_1_r16_11_straight_ahead_at_the_good_rate() -> None:
    g = Board().unit("b", "blue", "co", HERE).game()
    _refused(g, "4.2.2", "b", legs=[{"steps": 3}])  # CO infantry: short, 2 hexes
    _move(g, "b", legs=[{"steps": 2}])
    assert _where(g, "b") == (step(HERE, "N", "N"), "N", "line")
    assert g.state.units["b"].moved  # 5.1.7, R16.11


def test_4_2_1_4_2_2a_1_one_free_pivot_of_one_hexside_at_the_start_or_the_end() -> None:
    g = Board().unit("b", "blue", "li", HERE).game()
    _move(g, "b", legs=[{"pivot": "NE", "steps": 3}])
    assert _where(g, "b")[:2] == (step(HERE, "NE", "NE", "NE"), "NE")
    g = Board().unit("b", "blue", "li", HERE).game()
    _move(g, "b", legs=[{"steps": 3, "end_pivot": "NW"}])
    assert _where(g, "b")[:2] == (step(HERE, "N", "N", "N"), "NW")
    g = Board().unit("b", "blue", "li", HERE).game()
    _refused(g, "4.2.2a.2", "b", legs=[{"pivot": "SE", "steps": 1}])  # two hexsides: not free
    _refused(g, "4.2.2a.1", "b", legs=[{"pivot": "NE", "steps": 1, "end_pivot": "N"}])  # only one turn


def test_4_2_2a_2_3_r16_11_a_turn_of_two_or_three_hexsides_is_the_whole_move() -> None:
    g = Board().unit("b", "blue", "co", HERE).game()
    _move(g, "b", legs=[{"pivot": "S"}])
    assert _where(g, "b")[:2] == (HERE, "S")
    _refused(g, "R16.11", "b", legs=[{"steps": 1}])  # and it has moved this step


def test_4_2_4_retrograde_moves_at_the_difficult_rate_without_turning() -> None:
    g = Board().unit("b", "blue", "li", HERE).game()
    _refused(g, "4.2.2", "b", legs=[{"steps": 3, "back": True}])  # LI: difficult = short, 2
    _move(g, "b", legs=[{"steps": 2, "back": True}])
    assert _where(g, "b")[:2] == (step(HERE, "S", "S"), "N")


@pytest.mark.parametrize("ground", ["start in crops", "enter woods", "cross a hedge"])
def test_4_2_7_r16_12_difficult_going_anywhere_in_the_move_slows_all_of_it(ground: str) -> None:
    b = Board().unit("b", "blue", "li", HERE)
    if ground == "start in crops":
        b.terrain(HERE, "crops")
    elif ground == "enter woods":
        b.terrain(step(HERE, "N", "N"), "woods")
    else:
        b.hedge(step(HERE, "N"), step(HERE, "N", "N"))
    g = b.game()
    _refused(g, "4.2.2", "b", legs=[{"steps": 3}])
    _move(g, "b", legs=[{"steps": 2}])


def test_4_2_5_2_a_formation_change_drops_the_rate_a_level_but_not_for_prussian_foot() -> None:
    g = Board().unit("b", "blue", "co", HERE).game()
    _refused(g, "4.2.2", "b", formation="column", legs=[{"steps": 2}])  # short -> very short
    _move(g, "b", formation="column", formation_at="start", legs=[{"steps": 1}])
    assert _where(g, "b") == (step(HERE, "N"), "N", "column")
    b = Board().unit("b", "blue", "co", HERE)
    b.data["sides"]["blue"]["discipline"] = True  # AL.P.1
    g = b.game()
    _move(g, "b", formation="column", legs=[{"steps": 2}])
    assert _where(g, "b") == (step(HERE, "N", "N"), "N", "column")


def test_4_2_5_2_very_short_drops_to_nothing() -> None:
    g = Board().unit("b", "blue", "co", HERE).terrain(HERE, "crops").game()
    _refused(g, "4.2.5.2", "b", formation="column", legs=[{"steps": 1}])
    _move(g, "b", formation="column")  # on its own it is allowed
    assert _where(g, "b") == (HERE, "N", "column")


def test_4_2_10_r16_20_57_a_column_marching_all_through_the_step_gets_a_second_move() -> None:
    g = Board().unit("b", "blue", "co", HERE, formation="column").game()
    _move(g, "b", legs=[{"pivot": "S"}, {"steps": 2}])  # an about turn, then its free move
    assert _where(g, "b")[:2] == (step(HERE, "S", "S"), "S")
    g = Board().unit("b", "blue", "co", HERE, formation="column").game()
    _move(g, "b", legs=[{"steps": 2}, {"steps": 2}])
    assert _where(g, "b")[0] == step(HERE, "N", "N", "N", "N")
    g = Board().unit("b", "blue", "lc", HERE, formation="column").game()
    _refused(g, "4.2.10", "b", legs=[{"steps": 1}, {"steps": 1}])  # light cavalry gets no march bonus
    g = Board().unit("b", "blue", "co", HERE).game()
    _refused(g, "4.2.10", "b", legs=[{"steps": 1}, {"steps": 1}])  # a line does not march


def test_4_2_9_r16_20_56_a_column_deploys_right_or_left_free_and_not_moved() -> None:
    g = Board().unit("b", "blue", "co", HERE, formation="column").game()
    _refused(g, "4.2.9", "b", deploy_facing="S")  # three hexsides: not right or left
    _move(g, "b", deploy_facing="SE")  # two hexsides to its right
    assert _where(g, "b") == (HERE, "SE", "line")
    assert not g.state.units["b"].moved  # 4.2.9: does not count as moving for the firing phase
    g = Board().unit("b", "blue", "hc", HERE, formation="column").game()
    _move(g, "b", legs=[{"steps": 4}], deploy_facing="NE")  # at the end of its move: no level drop
    assert _where(g, "b") == (step(HERE, "N", "N", "N", "N"), "NE", "ranks")
    g = Board().unit("b", "blue", "co", HERE).game()
    _refused(g, "4.2.9", "b", deploy_facing="NE")  # a line is no column


def test_4_1_9_r16_11_no_voluntary_move_next_to_an_enemy_but_rc_1a_away_is_free() -> None:
    enemy = step(HERE, "N", "N", "N")
    g = Board().unit("b", "blue", "co", HERE).unit("r", "red", "co", enemy, facing="S").game()
    _refused(g, "4.1.9", "b", legs=[{"steps": 2}])
    g = Board().unit("b", "blue", "co", HERE).unit("r", "red", "co", step(HERE, "N"), facing="S").game()
    _move(g, "b", legs=[{"steps": 1, "back": True}])  # RC.1a: it started next to the enemy and moves away
    assert _where(g, "b")[0] == step(HERE, "S")


def test_rc_1c_a_wide_unit_cannot_squeeze_between_two_units_a_column_can() -> None:
    gap = step(HERE, "N")
    b = Board().unit("l", "blue", "co", step(gap, "NW")).unit("r", "blue", "co", step(gap, "NE"))
    g = b.unit("b", "blue", "co", HERE).game()
    _refused(g, "RC.1c", "b", legs=[{"steps": 1}])
    g = b.game()
    _move(g, "b", formation="column", formation_at="start", legs=[{"steps": 1}])
    assert _where(g, "b")[0] == gap


def test_4_2_8_no_interpenetration_outside_a_retreat() -> None:
    g = Board().unit("b", "blue", "li", HERE).unit("f", "blue", "co", step(HERE, "N")).game()
    _refused(g, "4.2.8", "b", legs=[{"steps": 2}])


def test_4_2_7_2_r16_12_entering_a_river_is_the_whole_move_one_step() -> None:
    river = step(HERE, "N")
    g = Board().unit("b", "blue", "hc", HERE).terrain(river, "river").game()
    _refused(g, "4.2.7.2", "b", legs=[{"steps": 2}])
    _move(g, "b", legs=[{"steps": 1}])
    assert _where(g, "b")[0] == river
    g = Board().unit("b", "blue", "co", HERE, formation="column").terrain(river, "river").game()
    _refused(g, "4.2.7.2", "b", legs=[{"steps": 1}, {"steps": 1}])  # not out again in the same turn


def test_sr_4_r16_12_a_fieldwork_is_entered_by_infantry_alone_in_one_step() -> None:
    works = step(HERE, "N")
    g = Board().unit("b", "blue", "co", HERE).fieldwork(works).game()
    _refused(g, "SR.4", "b", legs=[{"steps": 2}])
    _move(g, "b", legs=[{"steps": 1}])
    assert _where(g, "b")[0] == works
    g = Board().unit("b", "blue", "hc", HERE).fieldwork(works).game()
    _refused(g, "4.2.7", "b", legs=[{"steps": 1}])


def test_4_2_7_4_5_r16_12_towns_for_infantry_woods_for_infantry_and_cavalry() -> None:
    town, wood = step(HERE, "N"), step(HERE, "NE")
    b = Board().terrain(town, "town").terrain(wood, "woods")
    g = b.unit("b", "blue", "hc", HERE).game()
    _refused(g, "4.2.7", "b", legs=[{"steps": 1}])
    _move(g, "b", legs=[{"pivot": "NE", "steps": 1}])  # woods: difficult, allowed
    g = Board().terrain(wood, "woods").unit("a", "blue", "artillery", HERE, formation="limbered").game()
    _refused(g, "4.2.7", "a", legs=[{"pivot": "NE", "steps": 1}])


def test_4_2_3_4_2_5_1_artillery_limbers_as_its_whole_move_and_pivots_deployed() -> None:
    g = Board().unit("a", "blue", "artillery", HERE, formation="deployed").game()
    _refused(g, "4.2.2", "a", legs=[{"steps": 1}])
    _refused(g, "4.2.5.1", "a", formation="limbered", legs=[{"steps": 1}])
    _move(g, "a", legs=[{"pivot": "S"}])  # deployed: any facing as one move
    assert _where(g, "a") == (HERE, "S", "deployed")
    g = Board().unit("a", "blue", "artillery", HERE, formation="deployed").game()
    _move(g, "a", formation="limbered")
    assert _where(g, "a") == (HERE, "N", "limbered")


def test_4_2_5_1_r16_11_horse_artillery_limbers_moves_and_deploys_in_one_step() -> None:
    g = Board().unit("a", "blue", "artillery", HERE, formation="deployed", horse=True).game()
    _refused(g, "4.2.2", "a", formation="deployed", formation_at="both", legs=[{"steps": 2}])  # M -> S -> VS
    _move(g, "a", formation="deployed", formation_at="both", legs=[{"steps": 1}])
    assert _where(g, "a") == (step(HERE, "N"), "N", "deployed")


def test_4_2_9_a_deployment_at_the_end_turns_from_the_facing_the_move_ends_with() -> None:
    g = Board().unit("b", "blue", "hc", HERE, formation="column").game()
    _refused(g, "4.2.9", "b", legs=[{"pivot": "NE", "steps": 1}], deploy_facing="SW")  # three from NE
    _move(g, "b", legs=[{"pivot": "NE", "steps": 1}], deploy_facing="S")  # two from NE (three from N)
    assert _where(g, "b") == (step(HERE, "NE"), "S", "ranks")
