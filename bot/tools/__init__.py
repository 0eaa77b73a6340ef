"""Offline tools of the ``stammtisch`` command: ``simulate`` (random deals) and ``arena`` (computer
players against each other). They use the engine and the computer players, never a store."""
