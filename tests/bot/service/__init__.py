"""The service against a real Redis: commands, presses, timers, races, crashes."""
