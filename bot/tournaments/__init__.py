"""Tournaments, the pure core: who plays whom, what a result is worth, who leads.

A tournament is a table of tables. This package knows no Telegram, no database and no clock:
its state is plain data (:mod:`.model`) and everything else is a function of it — the points
of a finished table (:mod:`.scoring`), the standings and their tie-breaks (:mod:`.standings`),
and the next round's tables and byes (:mod:`.pairing`, which hands 2-player Swiss to a
maintained FIDE Dutch library through :mod:`.dutch`, and groups 3–5-player tables itself in
:mod:`.grouping`). The bot stores the state and opens the matches; this decides them.
"""
