"""Tower companion for the board game Immortals (Queen Games, 2017).

Packages (dependencies point one way: web → store, game, hw, vision; hw → vision; store → game):

- ``companion.game``   pure rules: board data, commands → events → state, battles, scoring.
- ``companion.store``  SQLite event log, replay, statistics, exports.
- ``companion.vision`` calibration, cube counting, settle detection, synthetic tray renderer.
- ``companion.hw``     camera backends, buttons and LED, tower simulator.
- ``companion.web``    Flask app, tablet UI, JSON API, live updates.
"""

__version__ = "0.1.0"
