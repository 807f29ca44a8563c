"""The rules audit of issue 14: where the engine was more lenient than the rulebook.

Each test quotes the rulebook sentence (../shared/seeds/immortals-rules-en.txt) it enforces.
A refused command must leave the game exactly as it was.
"""

from __future__ import annotations

import pytest

from companion.game import spaces
from companion.game.engine import decide, replay
from companion.game.errors import (InvalidCommandError, InvalidCorrectionError, NoSpaceLeftError,
                                   SpaceUsedError, TransitionCountError)

from .conftest import fix, in_actions, run, to_turn


@pytest.fixture
def s():
    return in_actions()  # blue to act: Mountainhome L6 D2, Shore Lake L5; limbo light 6; 7 gold 9 energy


def refused(state, command, error, match):
    """The command raises ``error`` and the state is unchanged (decide is pure)."""
    before = state.to_dict()
    with pytest.raises(error, match=match):
        decide(state, command)
    assert state.to_dict() == before


# --- transitions: exactly N, fewer only when the limbo holds fewer ------------------------------


def test_transition_of_3_places_exactly_3_when_the_limbo_holds_enough(s):
    """"The player may pay 2 energy and 1 gold to deploy 3 armies from the corresponding limbo to
    the played region" — not fewer when the limbo holds 3 or more."""
    assert s.player("blue").limbo["light"] >= 3
    cmd = {"type": "transition_3", "player": "blue", "region": "shore-lake", "realm": "light", "armies": 2}
    refused(s, cmd, TransitionCountError, r"exactly 3 armies .* Ani has 6 in the light limbo, so 3, not 2")
    t = run(s, **{**cmd, "armies": 3})
    assert t.armies("shore-lake", "light", "blue") == 8


def test_transition_of_3_with_fewer_in_limbo_places_all_of_them(s):
    """"Note: A player with less than 3 armies in the respective limbo can only place those
    armies." — exactly those, so 2 from a limbo of 2, and neither 1 nor 3."""
    t = fix(s, limbo=[{"player": "blue", "realm": "dark", "count": 2}])
    cmd = {"type": "transition_3", "player": "blue", "region": "mountainhome", "realm": "dark"}
    refused(t, {**cmd, "armies": 1}, TransitionCountError, "so 2, not 1")
    refused(t, {**cmd, "armies": 3}, TransitionCountError, "so 2, not 3")
    u = run(t, **{**cmd, "armies": 2})
    assert u.player("blue").limbo["dark"] == 0 and u.armies("mountainhome", "dark", "blue") == 4


def test_transition_of_5_places_exactly_5(s):
    """"The player deploys 5 armies from one of their limbos to any regions of the same realm in
    which they have at least one army." (RULES.md: fewer only when the limbo holds fewer.)"""
    cmd = {"type": "transition_5", "player": "blue", "realm": "light",
           "placements": [{"region": "shore-lake", "armies": 2}, {"region": "mountainhome", "armies": 2}]}
    refused(s, cmd, TransitionCountError, "exactly 5 armies .* so 5, not 4")
    t = fix(s, limbo=[{"player": "blue", "realm": "light", "count": 4}])
    t = run(t, **cmd)  # the limbo holds only 4: all 4
    assert t.player("blue").limbo["light"] == 0


def test_transition_of_2_places_exactly_2(s):
    """"The player deploys 2 armies from one of their limbos to any regions of the same realm in
    which they have at least one army.\""""
    cmd = {"type": "transition_2", "player": "blue", "realm": "light",
           "placements": [{"region": "shore-lake", "armies": 1}]}
    refused(s, cmd, TransitionCountError, "exactly 2 armies .* so 2, not 1")


# --- forfeits: only on spaces that carried a card -------------------------------------------------


def test_the_player_board_has_eight_army_spaces_the_eighth_a_placeholder():
    """"Each player board features 10 action spaces – 8 army spaces and 2 magic spaces." The text
    names seven; the eighth is printed on the board only, so its name is not invented."""
    assert len(spaces.ARMY_SPACES) == spaces.ARMY_SPACE_COUNT == 8
    assert spaces.MAGIC_SPACE_COUNT == 2
    assert "not entered" in spaces.label(spaces.ARMY_SPACE_8)


def test_forfeits_are_limited_to_the_eight_army_spaces(s):
    """"In case it is not possible to perform a planned action (for whatever reason), or if a
    player does not want to perform it, they receive 1 gold or 1 energy" — a planned action is a
    card on one of the "8 army spaces and 2 magic spaces", so at most that many forfeits."""
    s = run(s, type="forfeit", player="blue", compensation="gold")
    for color in ("purple", "red"):  # the others pass: the turn comes back to Blue each time
        s = run(s, type="pass", player=color, compensation="energy")
    for _ in range(7):
        s = run(s, type="forfeit", player="blue", compensation="gold")
    assert s.player("blue").gold == 7 + 8 and s.turn == "blue"
    refused(s, {"type": "forfeit", "player": "blue", "compensation": "gold"}, NoSpaceLeftError,
            "Ani has already used all 8 army spaces")
    # The magic spaces are still free: a magic card may still be forfeited, twice.
    s = run(s, type="forfeit", player="blue", compensation="gold", space="magic:transition_5")
    s = run(s, type="forfeit", player="blue", compensation="gold", space=spaces.ANY_MAGIC)
    refused(s, {"type": "forfeit", "player": "blue", "compensation": "gold",
                                 "space": spaces.ANY_MAGIC}, NoSpaceLeftError, "both magic spaces")


def test_a_forfeited_space_cannot_be_used_again_this_round(s):
    """"A player may perform an action only if they have played a card face down on the
    corresponding space" — a space whose card was forfeited holds no card any more."""
    s = run(s, type="forfeit", player="blue", compensation="energy", space="transition_3")
    s = to_turn(s, "blue")
    refused(s, {"type": "transition_3", "player": "blue", "region": "shore-lake", "realm": "light"},
            SpaceUsedError, "already used the transition of 3 space")
    refused(s, {"type": "forfeit", "player": "blue", "compensation": "energy", "space": "transition_3"},
            SpaceUsedError, "already used the transition of 3 space")
    t = run(s, type="forfeit", player="blue", compensation="energy", space=spaces.ARMY_SPACE_8)
    assert spaces.ARMY_SPACE_8 in t.used["blue"]


def test_forfeit_names_only_spaces_of_the_board(s):
    with pytest.raises(InvalidCommandError, match="'space' to be one of"):
        decide(s, {"type": "forfeit", "player": "blue", "compensation": "gold", "space": "ninth"})


# --- correcting the first player, the marker and the round ----------------------------------------


def test_first_player_marker_and_round_can_be_corrected_logged_and_undone(s):
    """"The player holding the first player marker at the beginning of the next game round is
    the first player of that game round." — a marker handed over wrongly is corrected, and the
    next round starts with the corrected holder."""
    assert (s.first_player, s.marker_holder, s.round) == ("blue", "blue", 1)
    t = run(s, type="correct", reason="marker went to the wrong player", marker_holder="red", round=2)
    event = t.log[-1]
    assert event["type"] == "correct" and event["command"]["reason"] == "marker went to the wrong player"
    assert (t.marker_holder, t.round, t.first_player) == ("red", 2, "blue")
    assert replay(t.log) == t
    back = run(t, type="undo")
    assert (back.marker_holder, back.round) == ("blue", 1)
    # Play the round out: the corrected holder starts the next one.
    u = t
    while u.phase == "actions":
        u = run(u, type="pass", player=u.turn, compensation="gold")
    u = run(u, type="score_round")
    assert u.first_player == "red" and u.turn == "red" and u.round == 3


def test_correcting_the_first_player_before_anyone_acted_hands_them_the_turn(s):
    """"The first player starts by revealing one card of their choice from their player board"."""
    t = run(s, type="correct", reason="Ani was not first", first_player="purple")
    assert (t.first_player, t.turn) == ("purple", "purple")
    u = run(to_turn(s, "purple"), type="correct", reason="later", first_player="red")
    assert u.first_player == "red" and u.turn == "purple"  # the round is under way: turn stays


def test_a_round_the_game_does_not_have_is_refused(s):
    refused(s, {"type": "correct", "reason": "x", "round": s.rounds + 1}, InvalidCorrectionError,
            f"has {s.rounds} rounds, so the round must be 1 to {s.rounds}, not {s.rounds + 1}")
    refused(s, {"type": "correct", "reason": "x", "first_player": "yellow"}, InvalidCommandError,
            "not playing")
    refused(s, {"type": "correct", "reason": "x", "marker_holder": "blue", "round": 1},
            InvalidCommandError, "changes nothing")
    # Naming the first player the table already has changes nothing either, also before anyone
    # acted (the turn goes to a corrected first player only when the first player changes).
    refused(s, {"type": "correct", "reason": "x", "first_player": s.first_player},
            InvalidCommandError, "changes nothing")
