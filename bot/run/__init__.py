"""The composition root: the ``stammtisch`` command, logging, and the wiring of settings, Redis,
service and adapters (loaded by name) into one running bot."""
