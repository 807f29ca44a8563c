"""Nothing is lost: a new app on the same DATA_DIR shows exactly the same games and readings."""

from __future__ import annotations

from .conftest import attack_declared, make_app, ok, state_of


def test_a_restarted_server_shows_the_same_game_and_reading(data_dir):
    first = make_app(data_dir)
    client = first.test_client()
    game = attack_declared(client)
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    state = state_of(client, game)
    games = ok(client.get("/api/games"))
    first.extensions["companion"].close()

    second = make_app(data_dir)
    try:
        client = second.test_client()
        assert state_of(client, game) == state
        assert ok(client.get("/api/games")) == games
        assert ok(client.get(f"/api/games/{game}/battle/reading"))["reading"] == reading
        photo = client.get(reading["annotated_url"])
        assert photo.status_code == 200 and photo.mimetype == "image/jpeg"
        # …and the game goes on from there.
        body = ok(client.post(
            f"/api/games/{game}/commands",
            json={"command": {"type": "resolve_battle", "counts": reading["counts"],
                              "camera_counts": reading["counts"], "accept_impossible": True},
                  "expected_version": state["version"]},
        ))
        assert body["state"]["version"] == state["version"] + 1
    finally:
        second.extensions["companion"].close()
