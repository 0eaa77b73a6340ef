"""The ``stammtisch`` command, its logs and its deployment files."""
