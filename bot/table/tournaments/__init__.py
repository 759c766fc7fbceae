"""Tournaments hosted in a group: a table of tables above the match's life.

:mod:`.service` opens a tournament's lobby, pairs its rounds with the pure core
(:mod:`bot.tournaments`), opens each table as an ordinary match that knows only its
tournament's id, hears each match's end (the storage's ``on_match_end``) and moves the
tournament on; :mod:`.screens` draws its one message in the group, each round's pairings and
the podium.
"""
