"""What bot and adapters say to each other: ``Command`` in, outgoing effects out, button tokens,
action arguments, and the failures of shared state both sides meet. It imports nothing above it."""
