"""A real game of Immortals driven through the service: set-up, one battle, passes to the end.

Board data the rulebook does not give (start regions of two tribes) is supplied in the commands,
as the table would; adjacency the board lacks only produces warnings.
"""

from __future__ import annotations

from typing import Any

from companion.store.service import GameService

PLAYERS = [
    {"color": "red", "name": "Dirk", "light_tribe": "elves", "dark_tribe": "demons"},
    {"color": "blue", "name": "Ani", "light_tribe": "dwarves", "dark_tribe": "orcs"},
    {"color": "purple", "name": "Mike", "light_tribe": "light-tribe-3", "dark_tribe": "night_elves"},
]
START = {"red": None, "blue": "mountainhome", "purple": "white-falls"}  # elves: the board knows
DRAFTS = {"red": ("borderland", "light"), "blue": ("shore-lake", "light"), "purple": ("the-murk", "dark")}
SEED_TRAY = {"red": 2, "blue": 3, "purple": 1, "green": 4}


class Table:
    """One game at the table: every command goes through the service with the version seen."""

    def __init__(self, service: GameService, **new_game: Any) -> None:
        self.service = service
        self.game_id, self.state = service.new_game(
            {"type": "new_game", "players": PLAYERS, "first_player": "red", **new_game}
        )

    def run(self, **command: Any) -> Any:
        self.state = self.service.execute(self.game_id, command, expected_version=self.state.version)
        return self.state

    def to_actions(self, seed_camera: dict[str, int] | None = None) -> Any:
        for color in self.state.colors:
            cmd = {"type": "deploy_start", "player": color, "armies": 6}
            if START[color]:
                cmd["region"] = START[color]
            self.run(**cmd)
        for color in self.state.order_from(self.state.turn):
            region, realm = DRAFTS[color]
            self.run(type="deploy", player=color, region=region, realm=realm, armies=5)
        self.run(type="finish_deployment")
        for color in self.state.colors:
            self.run(type="starting_resources", player=color, gold=7, energy=9)
        split = {c: {"light": SEED_TRAY.get(c, 0), "dark": 0} for c in self.state.colors}
        seed: dict[str, Any] = {"tray": SEED_TRAY, "limbo_split": split}
        if seed_camera is not None:
            seed["camera_counts"] = seed_camera
        self.run(type="seed_tower", **seed)
        for color in self.state.order_from(self.state.turn):
            self.run(type="reinforce", player=color, placements=[])
        return self.run(type="start_actions")

    def attack(self) -> Any:
        """Blue (first to act after the draft) attacks Purple in White Falls, card: the target."""
        assert self.state.turn == "blue", self.state.turn
        return self.run(type="attack", player="blue", source="shore-lake", target="white-falls",
                        realm="light", armies=3, card="target")

    def resolve(self, counts: dict[str, int], camera: dict[str, int] | None = None) -> Any:
        command: dict[str, Any] = {"type": "resolve_battle", "counts": counts}
        if camera is not None:
            command["camera_counts"] = camera
        return self.run(**command)

    def step_to_end(self) -> Any:
        """One command that moves the game on by passing and scoring; None when it is over."""
        s = self.state
        if s.phase == "over":
            return None
        if s.phase == "actions":
            return self.run(type="pass", player=s.turn, compensation="gold")
        if s.phase == "scoring":
            return self.run(type="score_round")
        if s.phase == "reinforcements":
            return self.run(type="reinforce", player=s.turn, placements=[])
        if s.phase == "planning":
            return self.run(type="start_actions")
        raise AssertionError(f"no scripted step for phase {s.phase}")
