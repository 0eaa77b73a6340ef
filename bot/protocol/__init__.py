"""What bot and adapters say to each other: ``Command`` in, outgoing effects out, button tokens,
action arguments, the failures of shared state both sides meet, and a token the platform refused. It
imports nothing above it."""
