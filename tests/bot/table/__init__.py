"""The table's rules: options, pace, notifications, computer seats and levels."""
