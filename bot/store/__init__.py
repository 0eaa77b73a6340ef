"""Redis: the table store, the connection (embedded, server, cluster), the shared rate limiter,
table counts, the web table's watchers, outages, who cannot be written to privately, people's vacations and
their own timers. It knows records and keys, not the rules of a table."""
