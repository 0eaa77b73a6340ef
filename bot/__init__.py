"""The bot layer: tables between the rules engine and the chat platforms, in rooms by what they hold.

``protocol`` (what bot and adapters say to each other) and ``ops`` (settings, metrics) at the
bottom, ``store`` (Redis) on them, ``table`` (the table and its rules) and ``words`` (what players
read) above, ``service`` (the facade and its concerns) above all, ``tools`` (offline) and ``run``
(the ``stammtisch`` command, the composition root) on top. See docs/architecture.md.
"""
