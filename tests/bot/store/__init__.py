"""The store, the connection, the limiter and the cluster against real Redis servers."""
