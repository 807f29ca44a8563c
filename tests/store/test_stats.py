"""Statistics: a small hand-checked fixture, and SQL against a Python reference on random data."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.store import BattleRecord, GameLog, GameMeta, ReadingRecord
from companion.store.stats import statistics


def seat(color: str, light: str, dark: str, vp: int) -> dict[str, object]:
    return {"color": color, "name": color.title(), "light_tribe": light, "dark_tribe": dark, "vp": vp}


def play(log: GameLog, players: list[dict[str, object]], battles: list[BattleRecord], winners: list[str] | None) -> int:
    game = log.create_game("g", first_event={"type": "new_game"}, meta=GameMeta(round=0, players=players))
    version = 1
    for b in battles:
        version = log.append(game, {"type": "resolve_battle"}, version, battle=b)
    if winners is not None:
        result = {"winners": winners, "standings": []}
        log.append(game, {"type": "score_round"}, version, meta=GameMeta("finished", 5, players, result))
    return game


def test_empty_log_has_no_made_up_numbers(log: GameLog) -> None:
    stats = statistics(log)
    assert stats["games"] == {"finished": 0, "unfinished": 0, "total": 0}
    for scope in ("finished", "unfinished", "all"):
        assert stats[scope]["average_vp"] is None
        assert stats[scope]["battles"]["fought"] == 0
        assert stats[scope]["battles"]["attacker_win_rate"] is None
        assert stats[scope]["battles"]["average_tray_size"] is None
        assert stats[scope]["vision"]["correction_rate"] is None


def test_hand_checked_fixture(log: GameLog) -> None:
    b1 = BattleRecord("red", "blue", "for_attacker", {"red": 3, "blue": 1, "green": 1}, "attacker",
                      camera_counts={"red": 2, "blue": 1, "green": 1})  # red misread
    b2 = BattleRecord("blue", None, "against_attacker", {"blue": 1, "green": 2}, "inhabitants",
                      camera_counts={"blue": 1, "green": 2})
    b3 = BattleRecord("red", "blue", "neutral", {"red": 1, "blue": 1}, "tie")  # counted by hand
    play(log, [seat("red", "elves", "orcs", 14), seat("blue", "dwarves", "trolls", 10)], [b1, b2], ["red"])
    play(log, [seat("red", "dwarves", "orcs", 9), seat("blue", "elves", "demons", 9)], [], ["red", "blue"])
    play(log, [seat("red", "elves", "trolls", 4), seat("yellow", "dwarves", "demons", 6)], [b3], None)

    stats = statistics(log)
    assert stats["games"] == {"finished": 2, "unfinished": 1, "total": 3}
    fin = stats["finished"]
    assert fin["colours"]["red"] == {"games": 2, "wins": 2, "shared_wins": 1, "average_vp": 11.5}
    assert fin["colours"]["blue"] == {"games": 2, "wins": 1, "shared_wins": 1, "average_vp": 9.5}
    assert "yellow" not in fin["colours"]
    assert fin["average_vp"] == 10.5
    assert fin["tribes"]["light"]["elves"] == {"games": 2, "wins": 2, "average_vp": 11.5}
    assert fin["tribes"]["dark"]["orcs"] == {"games": 2, "wins": 2, "average_vp": 11.5}
    assert fin["tribes"]["dark"]["trolls"]["wins"] == 0
    assert set(fin["tribes"]["light"]) == {"elves", "dwarves"}
    assert fin["battles"]["fought"] == 2
    assert fin["battles"]["won_by_attacker"] == 1 and fin["battles"]["won_by_inhabitants"] == 1
    assert fin["battles"]["attacker_win_rate"] == 0.5
    assert fin["battles"]["average_tray_size"] == 4.0
    assert fin["battles"]["into_empty_regions"] == 1
    assert fin["battles"]["by_stance"]["for_attacker"]["won_by_attacker"] == 1
    assert fin["vision"]["readings"] == 2 and fin["vision"]["corrected"] == 1
    assert fin["vision"]["by_colour"]["red"] == {"readings": 1, "corrected": 1, "correction_rate": 1.0}
    assert fin["vision"]["by_colour"]["green"] == {"readings": 2, "corrected": 0, "correction_rate": 0.0}
    assert fin["vision"]["by_kind"] == {"battle": {"readings": 2, "corrected": 1, "correction_rate": 0.5,
                                                   "counted_by_hand": 0}}

    unf = stats["unfinished"]
    assert unf["colours"]["yellow"] == {"games": 1, "wins": None, "shared_wins": None, "average_vp": 6.0}
    assert unf["battles"]["ties"] == 1
    by_hand = {"readings": 0, "corrected": 0, "correction_rate": None, "counted_by_hand": 1}
    assert unf["vision"] == {**by_hand, "by_kind": {"battle": by_hand}, "by_colour": {}}
    assert stats["all"]["battles"]["fought"] == 3
    assert stats["all"]["colours"]["red"]["games"] == 3


COLOURS = ("red", "blue", "yellow", "green")
counts = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 6), max_size=4)
battles = st.builds(
    BattleRecord,
    attacker=st.sampled_from(("red", "blue")),
    defender=st.sampled_from(("yellow", None)),
    stance=st.sampled_from(("for_attacker", "neutral", "against_attacker")),
    tray_counts=counts,
    winner=st.sampled_from(("attacker", "defender", "inhabitants", "tie")),
    camera_counts=st.none() | counts,
)


@settings(max_examples=25, deadline=None)
@given(games=st.lists(st.tuples(st.lists(battles, max_size=5), st.booleans()), max_size=4))
def test_battle_and_vision_sql_agree_with_a_python_reference(tmp_path_factory, games) -> None:  # type: ignore[no-untyped-def]
    path: Path = tmp_path_factory.mktemp("stats") / "s.sqlite3"
    with GameLog(path) as log:
        for game_battles, finished in games:
            play(log, [seat("red", "elves", "orcs", 3)], game_battles, ["red"] if finished else None)
        stats = statistics(log)
    every = [b for bs, _ in games for b in bs]
    battles_all = stats["all"]["battles"]
    assert battles_all["fought"] == len(every)
    assert battles_all["won_by_attacker"] == sum(b.winner == "attacker" for b in every)
    sizes = [sum(b.tray_counts.values()) for b in every]
    assert battles_all["average_tray_size"] == (round(sum(sizes) / len(sizes), 2) if sizes else None)
    for stance, part in battles_all["by_stance"].items():
        assert part["fought"] == sum(b.stance == stance for b in every)
    read = [b for b in every if b.camera_counts is not None]
    vision = stats["all"]["vision"]
    assert vision["readings"] == len(read)
    assert vision["corrected"] == sum(b.camera_counts != b.tray_counts for b in read)
    for colour in COLOURS:
        seen = [b for b in read if colour in b.tray_counts or colour in (b.camera_counts or {})]
        wrong = sum(b.tray_counts.get(colour, 0) != (b.camera_counts or {}).get(colour, 0) for b in seen)
        expected = {"readings": len(seen), "corrected": wrong} if seen else None
        got = vision["by_colour"].get(colour)
        assert (got and {"readings": got["readings"], "corrected": got["corrected"]}) == expected
    assert stats["finished"]["battles"]["fought"] == sum(len(bs) for bs, f in games if f)


def test_seeding_readings_count_for_the_vision(log: GameLog) -> None:
    game = play(log, [seat("red", "elves", "orcs", 1)], [], None)
    seeding = ReadingRecord("seeding", {"red": 5, "blue": 6, "green": 2}, camera={"red": 5, "blue": 5, "green": 2})
    log.append(game, {"type": "seed_tower"}, 1, reading=seeding)
    log.append(game, {"type": "resolve_battle"}, 2, battle=BattleRecord(
        "red", "blue", "neutral", {"red": 1, "blue": 1}, "tie", camera_counts={"red": 1, "blue": 1}))
    vision = statistics(log)["all"]["vision"]
    assert (vision["readings"], vision["corrected"]) == (2, 1)
    assert vision["by_kind"]["seeding"] == {"readings": 1, "corrected": 1, "correction_rate": 1.0,
                                            "counted_by_hand": 0}
    assert vision["by_kind"]["battle"]["corrected"] == 0
    assert vision["by_colour"]["blue"] == {"readings": 2, "corrected": 1, "correction_rate": 0.5}
    assert statistics(log)["all"]["battles"]["fought"] == 1  # a seeding is not a battle
