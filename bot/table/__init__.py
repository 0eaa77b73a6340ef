"""A table and its rules: the record and its lobby, the match and its move log, computer seats and
levels, options typed in chats, pace and quiet hours, a turn's rising deadlines, vacations at a table,
notification preferences and the daily digest's hour, refusals."""
