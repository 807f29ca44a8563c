"""Random games: a strategy picks a (mostly legal) command from the current state.

Properties: every cube stays accounted for, a rejected command changes nothing, and replaying
the log gives exactly the live state.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.game.colors import GREEN
from companion.game.engine import decide, evolve, replay
from companion.game.errors import GameError

from .conftest import START, conserved, new_game

REALMS = ("light", "dark")


def own(s, color):
    return [(r, realm) for realm in REALMS for r, st_ in s.regions[realm].items() if st_.armies.get(color)]


def draw_command(draw, s):
    regions = list(s.board.regions)
    anyone = draw(st.sampled_from(s.colors))
    me = s.turn or anyone
    region = draw(st.sampled_from(regions))
    realm = draw(st.sampled_from(REALMS))
    roll = draw(st.integers(0, 99))
    if roll < 4:
        return {"type": "undo"}
    if roll < 7:
        return {"type": "correct", "reason": "random fix",
                "armies": [{"region": region, "realm": realm, "color": anyone, "count": draw(st.integers(0, 4))}]}
    if roll < 10:  # anything at all, mostly refused
        return {"type": draw(st.sampled_from(["attack", "pass", "deploy", "score_round", "reinforce",
                                              "extract_gold", "seed_tower"])), "player": anyone}
    mine = own(s, me)
    if s.phase == "deployment" and s.step == "start":
        cmd = {"type": "deploy_start", "player": me, "armies": draw(st.integers(1, 12))}
        if START.get(me):
            cmd["region"] = START[me]
        return cmd
    if s.phase == "deployment":
        if not s.done and s.draft_round >= 2 and draw(st.booleans()):
            return {"type": "finish_deployment"}
        if draw(st.integers(0, 4)) == 0:
            return {"type": "skip_deploy", "player": me}
        return {"type": "deploy", "player": me, "region": region, "realm": realm, "armies": draw(st.integers(1, 6))}
    if s.phase == "resources":
        waiting = [c for c in s.colors if c not in s.done]
        return {"type": "starting_resources", "player": draw(st.sampled_from(waiting)),
                "gold": draw(st.integers(0, 9)), "energy": draw(st.integers(0, 9))}
    if s.phase == "seeding":
        tray = {c: draw(st.integers(0, 7)) for c in s.colors}
        tray[GREEN] = draw(st.integers(0, 10))
        split = {}
        for c in s.colors:
            light = draw(st.integers(0, tray[c]))
            split[c] = {"light": light, "dark": tray[c] - light}
        return {"type": "seed_tower", "tray": tray, "limbo_split": split}
    if s.phase == "reinforcements":
        p = s.player(me)
        places = []
        for rl in REALMS:
            options = [r for r, x in mine if x == rl]
            if options and p.limbo[rl] >= 3:
                places.append({"region": draw(st.sampled_from(options)), "realm": rl,
                               "armies": draw(st.integers(1, p.limbo[rl] // 3))})
        return {"type": "reinforce", "player": me, "placements": places}
    if s.phase == "planning":
        return {"type": "start_actions"}
    if s.phase == "scoring":
        return {"type": "score_round"}
    if s.phase == "battle":
        b = s.battle
        counts = {}
        for c in set(b["throw"]) | set(s.interior):
            counts[c] = draw(st.integers(0, b["throw"].get(c, 0) + s.interior.get(c, 0)))
        cmd = {"type": "resolve_battle", "counts": counts}
        if draw(st.integers(0, 9)) == 0:
            counts[GREEN] = counts.get(GREEN, 0) + 3
            cmd["accept_impossible"] = draw(st.booleans())
        return cmd
    # actions
    if not mine:
        return {"type": "pass", "player": me, "compensation": draw(st.sampled_from(["gold", "energy"]))}
    src, src_realm = draw(st.sampled_from(mine))
    have = s.armies(src, src_realm, me)
    kind = draw(st.sampled_from(["pass", "forfeit", "extract_gold", "transition_3", "construct", "attack",
                                 "attack", "attack", "move", "transition_5", "take_first_player",
                                 "take_over_card", "demons_shrine", "magic_shrine"]))
    base = {"type": kind, "player": me}
    if kind in ("pass", "forfeit"):
        return base | {"compensation": draw(st.sampled_from(["gold", "energy"]))}
    if kind == "extract_gold":
        return base | {"region": src, "realm": src_realm, "amount": draw(st.integers(0, 6))} | (
            {} if (src, src_realm) != ("shore-lake", "light") else {"amount": 5})
    if kind in ("transition_3", "demons_shrine", "take_over_card", "magic_shrine"):
        return base | {"region": src, "realm": src_realm}
    if kind == "construct":
        building = draw(st.sampled_from(["portal", "shrine", "capital"]))
        cmd = base | {"region": src, "realm": src_realm, "building": building}
        if not (building == "portal" and s.player(me).light_tribe == "elves"):
            cmd["cost"] = {"gold": draw(st.integers(0, 2)), "energy": draw(st.integers(0, 2))}
        return cmd
    if kind == "attack":
        return base | {"source": src, "target": region, "realm": src_realm, "armies": draw(st.integers(1, max(have - 1, 1))),
                       "card": draw(st.sampled_from(["target", "source", "other"]))}
    if kind == "move":
        dst, dst_realm = draw(st.sampled_from(mine))
        return base | {"source": src, "target": dst, "realm": src_realm, "target_realm": dst_realm,
                       "armies": draw(st.integers(1, max(have - 1, 1)))}
    if kind == "transition_5":
        return base | {"realm": src_realm, "placements": [{"region": src, "armies": draw(st.integers(1, 5))}]}
    return base


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_games_conserve_cubes_refuse_cleanly_and_replay(data):
    s = new_game()
    accepted = 0
    for _ in range(data.draw(st.integers(40, 120), label="steps")):
        if s.phase == "over":
            break
        cmd = draw_command(data.draw, s)
        before = (s.version, s.to_dict(include_board=False))
        try:
            ev = decide(s, cmd)
        except GameError:
            assert (s.version, s.to_dict(include_board=False)) == before  # refused: nothing changed
            continue
        s = evolve(s, ev)
        accepted += 1
        assert s.version == before[0] + 1
        assert conserved(s), s.cube_totals()
        for p in s.players:
            assert p.gold >= 0 and p.energy >= 0 and min(p.limbo.values()) >= 0 and p.supply >= 0
        assert s.green_supply >= 0 and all(n >= 0 for n in s.interior.values())
    event(f"reached round {s.round}, phase {s.phase}")
    assert replay(s.log) == s
