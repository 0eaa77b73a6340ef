"""What every chat adapter shares: message refs kept per table, the slots of a chat's queue, the bot-wide
send gate, bounded per-chat memory, running until stopped, the turn-timer loop and a tournament table waiting for
its forum topic."""
