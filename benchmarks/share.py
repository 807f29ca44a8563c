"""The night recap's share: size and time of the one-file HTML for an evening of 40 battles.

A game is played in-process (the Flask app over its test client, simulated tower) until 40
battles were fought; the first is counted by the camera, every other battle's tray photo is one
of the real 3.1 MP photos of ``../shared/realsets/candy`` (the synthetic photo when that folder
is absent — said so). Then ``share.html`` and ``card.png`` are made three times each.

    .venv/bin/python -m benchmarks.share
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.review import LongGame

REAL = Path(__file__).resolve().parents[2] / "shared" / "realsets" / "candy"


class _Client:
    def __init__(self, client: Any) -> None:
        self.client, self.timings = client, {}

    def call(self, method: str, path: str, body: Any = None, label: str | None = None) -> tuple[int, Any]:
        response = self.client.open(path, method=method, json=body)
        self.timings.setdefault(label or f"{method} {path}", []).append(0.0)
        return response.status_code, response.get_json(silent=True)


def main() -> int:
    from companion.store.nights import night_of
    from tests.web.conftest import make_app

    photos = sorted(REAL.glob("*.jpg"))
    print(f"battle photos: {'real, ' + str(len(photos)) + ' from ' + str(REAL) if photos else 'synthetic (no real set found)'}")
    app = make_app(Path(tempfile.mkdtemp(prefix="companion-share-bench-")))
    client, rt = app.test_client(), app.extensions["companion"]
    try:
        game = LongGame(_Client(client))
        game.setup()
        first, battles = None, 0
        while game.state["phase"] != "over" and battles < 40:
            if game.state["phase"] == "battle":
                if first is None:
                    reading = client.post(f"/api/games/{game.id}/battle/count").get_json()["reading"]
                    first = rt.readings.root / reading["id"] / "photo.jpg"
                else:
                    rid = f"{game.id}-{game.state['version']}-{battles:08x}"
                    (rt.readings.root / rid).mkdir()
                    shutil.copy(photos[battles % len(photos)] if photos else first, rt.readings.root / rid / "photo.jpg")
                    rt.service.execute(game.id, {"type": "read_tray", "counts": game.state["battle"]["throw"],
                                                 "reading": rid})
                game.state = client.get(f"/api/games/{game.id}").get_json()["state"]
                battles += 1
            game.step()
        night = night_of(rt.log.game(game.id).created_at)
        print(f"battles with a photo: {battles}")
        for name in ("share.html", "card.png"):
            for _ in range(3):
                start = time.perf_counter()
                answer = client.get(f"/api/recap/{night}/{name}")
                ms = (time.perf_counter() - start) * 1000
                print(f"{name}: {len(answer.data) / 1024:.0f} kB in {ms:.0f} ms (status {answer.status_code})")
    finally:
        rt.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
