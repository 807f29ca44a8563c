"""Property: any sequence of commands through the service — accepted or refused — leaves a log
whose replay equals the live state, with one event per accepted command and none for refusals.
(Over the stand-in game; the real engine has its own property in test_service_engine.py.)"""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from companion.store import GameLog
from companion.store.service import GameService
from tests.store.fake_rules import FakeRules

commands = st.one_of(
    st.fixed_dictionaries({"type": st.just("add"), "player": st.sampled_from(["red", "blue", "green"]),
                           "n": st.integers(-1, 3)}),
    st.fixed_dictionaries({"type": st.just("battle"), "attacker": st.just("red"),
                           "defender": st.sampled_from(["blue", None]),
                           "counts": st.dictionaries(st.sampled_from(["red", "blue", "green"]), st.integers(0, 4)),
                           "camera": st.none() | st.dictionaries(st.sampled_from(["red", "green"]), st.integers(0, 4))}),
    st.just({"type": "finish"}),
    st.just({"type": "bogus"}),
)


@settings(max_examples=30, deadline=None)
@given(script=st.lists(commands, max_size=25))
def test_replay_equals_live_for_any_command_sequence(tmp_path_factory, script) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("prop") / "p.sqlite3"
    with GameLog(path) as log:
        service = GameService(log, rules=FakeRules())
        game_id, state = service.new_game({"type": "new_game", "players": ["red", "blue"]})
        accepted = 1
        battles = 0
        for command in script:
            try:
                state = service.execute(game_id, command)
            except ValueError:
                pass
            else:
                accepted += 1
                battles += command["type"] == "battle"
            assert state.version == log.version(game_id) == accepted
        assert len(log.battles(game_id)) == battles
        fresh = GameService(log, rules=FakeRules())
        assert fresh.state(game_id) == service.state(game_id) == state


# -- over the real rules engine --------------------------------------------------------------

COLOURS = ["red", "blue", "purple"]
REGIONS = ["borderland", "treehome", "white-falls", "shore-lake", "mountainhome", "the-murk"]
counts_of = st.dictionaries(st.sampled_from(COLOURS + ["green"]), st.integers(0, 5), max_size=4)
game_commands = st.one_of(
    st.builds(lambda p, c: {"type": "pass", "player": p, "compensation": c},
              st.sampled_from(COLOURS), st.sampled_from(["gold", "energy"])),
    st.builds(lambda p, s, t, r, n, card: {"type": "attack", "player": p, "source": s, "target": t,
                                           "realm": r, "armies": n, "card": card},
              st.sampled_from(COLOURS), st.sampled_from(REGIONS), st.sampled_from(REGIONS),
              st.sampled_from(["light", "dark"]), st.integers(1, 5),
              st.sampled_from(["target", "source", "other"])),
    st.builds(lambda c, cam: {"type": "resolve_battle", "counts": c, "camera_counts": cam},
              counts_of, st.none() | counts_of),
    st.builds(lambda p, r, a: {"type": "extract_gold", "player": p, "region": r, "realm": "light",
                               "amount": a},
              st.sampled_from(COLOURS), st.sampled_from(REGIONS), st.integers(0, 4)),
    st.builds(lambda p: {"type": "reinforce", "player": p, "placements": []}, st.sampled_from(COLOURS)),
    st.sampled_from([{"type": "undo"}, {"type": "score_round"}, {"type": "start_actions"},
                     {"type": "resolve_battle"}, {"type": "teleport"}]),
)


def informed_command(data: st.DataObject, state) -> dict:  # type: ignore[no-untyped-def]
    """A command drawn with a look at the state, so that many are accepted (and some not)."""
    turn = state.turn or "red"
    player = data.draw(st.sampled_from([turn, turn, turn, *COLOURS]))
    kind = data.draw(st.sampled_from(["pass", "attack", "resolve", "extract", "reinforce",
                                      "score_round", "start_actions", "undo", "junk"]))
    realm = data.draw(st.sampled_from(["light", "light", "dark"]))
    own = [r for r, x in state.regions[realm].items() if x.armies.get(player, 0) >= 2]
    if kind == "pass":
        return {"type": "pass", "player": player, "compensation": data.draw(st.sampled_from(["gold", "energy"]))}
    if kind == "attack" and own:
        source = data.draw(st.sampled_from(own))
        have = state.regions[realm][source].armies[player]
        return {"type": "attack", "player": player, "source": source,
                "target": data.draw(st.sampled_from(REGIONS)), "realm": realm,
                "armies": data.draw(st.integers(1, have - 1) | st.just(have)), "card": data.draw(st.sampled_from(["target", "source", "other"]))}
    if kind == "resolve" and state.battle:
        throw = state.battle["throw"]
        counts = {c: data.draw(st.integers(0, n)) for c, n in throw.items()}
        camera = data.draw(st.none() | st.just({c: max(n - 1, 0) for c, n in counts.items()}) | st.just(counts))
        return {"type": "resolve_battle", "counts": counts, "camera_counts": camera}
    if kind == "extract" and own:
        return {"type": "extract_gold", "player": player, "region": data.draw(st.sampled_from(own)),
                "realm": realm, "amount": data.draw(st.integers(0, 4))}
    if kind == "reinforce":
        return {"type": "reinforce", "player": player, "placements": []}
    if kind in ("score_round", "start_actions", "undo"):
        return {"type": kind}
    return data.draw(game_commands)


@settings(max_examples=12, deadline=None)
@given(data=st.data(), steps=st.integers(1, 40))
def test_real_game_replay_equals_live_for_any_command_sequence(tmp_path_factory, data, steps) -> None:  # type: ignore[no-untyped-def]
    from tests.store.game_script import Table

    path = tmp_path_factory.mktemp("engine") / "e.sqlite3"
    with GameLog(path) as log:
        table = Table(GameService(log))
        state = table.to_actions()
        accepted = state.version
        for _ in range(steps):
            command = informed_command(data, state)
            before = log.version(table.game_id)
            try:
                state = table.service.execute(table.game_id, command)
            except ValueError as exc:
                event(f"refused {command.get('type')}: {type(exc).__name__}")
                assert log.version(table.game_id) == before  # refused: nothing written
            else:
                accepted += 1
                event(f"accepted {command['type']}")
            assert state.version == log.version(table.game_id) == accepted
            assert table.service.state(table.game_id) is state
        with GameLog(path) as reopened:
            assert GameService(reopened).state(table.game_id) == state
        assert len(log.battles(table.game_id)) == sum(
            e.type == "resolve_battle" for e in log.events(table.game_id))
