"""What every chat adapter shares: message refs kept per table, and running until stopped."""
