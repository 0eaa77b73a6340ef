"""Redis: the table store, the connection (embedded, server, cluster), the shared rate limiter,
table counts, the web table's watchers, outages and who cannot be written to privately. It knows records
and keys, not the rules of a table."""
