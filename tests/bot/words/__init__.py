"""What players read: texts, rendering, the story of a deal."""
