"""The engine's tests: each game's rules, conformance over every game, replays, vectors, computer players."""
