"""Redis: the table store, the connection (embedded, server, cluster), the shared rate limiter,
table counts, the web table's watchers and outages. It knows records and keys, not the rules of a table."""
