"""Pure rules of Immortals: board data, commands → events → state, battle, scoring, tower accounting.

Modules: ``battle`` (the DESIGN.md battle contract), ``board`` (board and tribe data), ``commands``
(parsing), ``engine`` (decide / evolve / replay / preview_battle), ``state`` (GameState and its
JSON), ``setup``, ``rounds``, ``actions``, ``warfare`` (rules per part of the game), ``scoring``,
``tower`` (cube accounting), ``effects`` (what events carry), ``errors``. No Flask, no OpenCV, no
I/O but reading the packaged board TOML. See docs/game.md.
"""
