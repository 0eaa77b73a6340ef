"""Settings and metrics."""
