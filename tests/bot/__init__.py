"""The bot layer's tests, one folder per room."""
