"""What an operator sets and watches: settings from the environment, quiet-hour clocks, Prometheus metrics.

Read by every room, so it imports none of them.
"""
