"""Learning from experience: GHAP entries, the experiences they resolve into, clusters per axis and values."""
