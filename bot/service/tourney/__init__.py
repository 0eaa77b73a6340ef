"""A tournament in a group chat (:class:`~bot.table.tourney_record.Tourney`), the service's side of it.

- :mod:`.registration`: the typed ``turnier`` command and the buttons of the tournament's message:
  opening it, registering (alone or naming a partner who confirms), withdrawing, the start, aborting;
- :mod:`.change`: the change cycle of a tournament's record, saved with a compare-and-set;
- :mod:`.draw`: the draw, the teams paired by lot, a round's pairings posted;
- :mod:`.tables`: a table per pairing, opened, moved into its forum topic, taken over, closed;
- :mod:`.results`: the tournament's timer: results read from the tables, the deadlines, reminders,
  the next round or the end;
- :mod:`.message`: the tournament's one message, the registration and then the standings;
- :mod:`.remember`: the finished tournament recorded in its group's memory.

The pure tournament (formats, pairings, standings) is :mod:`bot.tournament`.
"""
