"""Tournaments in a group against a real Redis: registration, the draw, results, deadlines, the memory."""
