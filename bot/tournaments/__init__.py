"""Tournaments, the pure core: who plays whom, what a result is worth, who leads.

A tournament is a table of tables. This package knows no Telegram, no database and no clock:
its state is plain data (:mod:`.model`) and everything else is a function of it — its changes
(:mod:`.entries`), the points of a finished table (:mod:`.scoring`), the standings and their
tie-breaks (:mod:`.standings`), and the next round, asked of the tournament's format
(:mod:`.formats`: Swiss, round robin, elimination, each one object) through :mod:`.pairing`.
A round's field is split into tables by :mod:`.seating`; 2-player Swiss goes to a maintained
FIDE Dutch library through :mod:`.dutch`, and 3–5-player tables are grouped by
:mod:`.grouping`. The bot stores the state and opens the matches; this decides them.
"""
