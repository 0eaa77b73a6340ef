"""End to end: the real bot processes and SDKs on the fake platforms, Redis outages, SIGTERM, faults."""
