"""What every chat adapter shares: message refs kept per table, the slots of a chat's queue, the bot-wide
send gate, bounded per-chat memory, running until stopped and the turn-timer loop."""
