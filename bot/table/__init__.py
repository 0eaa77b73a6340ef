"""A table and its rules: the record and its lobby, the match and its move log, computer seats and
levels, options typed in chats, pace and quiet hours, notification preferences, refusals."""
