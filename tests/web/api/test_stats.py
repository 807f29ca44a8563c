"""Statistics over every game."""

from __future__ import annotations

from ..conftest import attack_declared, command, ok


def test_stats_before_any_game_count_nothing(client):
    stats = ok(client.get("/api/stats"))
    assert stats["games"]["total"] == 0
    assert stats["all"]["battles"]["fought"] == 0


def test_a_resolved_battle_shows_in_the_statistics(client):
    game = attack_declared(client)
    command(client, game, type="resolve_battle", counts={"red": 3, "purple": 1})
    stats = ok(client.get("/api/stats"))
    assert stats["games"]["total"] == 1
    battles = stats["all"]["battles"]
    assert battles["fought"] == 1 and battles["won_by_attacker"] == 1
