"""Property: any sequence of commands through the service — accepted or refused — leaves a log
whose replay equals the live state, with one event per accepted command and none for refusals.
(Over the stand-in game; the real engine has its own property in test_service_engine.py.)"""

from __future__ import annotations

from hypothesis import given, settings
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
