"""The computer players: one heuristic per game, the strong determinized search, and the playout they share."""
